"""Klondike ("Solitaire Rush") rules and scoring, each on a constructed deal."""

from __future__ import annotations

import pytest

from layouts import CLUBS, klondike_deal, solved_deal
from patience.cards import Card, Rank, Suit
from patience.errors import (
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidVariantError,
    UndoRefusedError,
)
from patience.games import new_game
from patience.games.klondike import Klondike, foundation_points


def state(game: Klondike) -> tuple[object, ...]:
    """Everything undo must restore."""
    return (game.piles(), game.hidden_counts(), game.score(), game.recycles, game.observation())


def test_deal_layout_row_by_row() -> None:
    game = Klondike.from_seed(1)
    deal = [str(card) for card in game.deal]
    piles = {name: [str(c) for c in cards] for name, cards in game.piles().items()}
    # row 0 deals cards 0..6 onto columns 1..7, row 1 cards 7..12 onto columns 2..7, ...
    assert piles["t1"] == [deal[0]]
    assert piles["t2"] == [deal[1], deal[7]]
    assert piles["t7"] == [deal[6], deal[12], deal[17], deal[21], deal[24], deal[26], deal[27]]
    assert piles["hand"] == deal[28:]
    assert game.hidden_counts() == [0, 1, 2, 3, 4, 5, 6]
    shown = game.observation()["tableau"]
    assert [column["cards"] for column in shown] == [[piles[f"t{k}"][-1]] for k in range(1, 8)]


def test_foundation_points_table() -> None:
    expected = {
        Rank.ACE: 50,
        Rank.TWO: 45,
        Rank.THREE: 40,
        Rank.FOUR: 35,
        Rank.FIVE: 30,
        Rank.SIX: 25,
        Rank.SEVEN: 20,
        Rank.EIGHT: 15,
        Rank.NINE: 10,
        Rank.TEN: 5,
        Rank.JACK: 5,
        Rank.QUEEN: 5,
        Rank.KING: 5,
    }
    assert {rank: foundation_points(rank) for rank in Rank} == expected


def test_every_foundation_value_and_the_waste_bonus() -> None:
    # The hand starts with all the clubs in order: each goes waste -> foundation.
    game = Klondike(klondike_deal(hand=CLUBS))
    for rank, card in zip(Rank, CLUBS, strict=True):
        assert game.play("draw").points == 0
        played = game.play("w>f")
        assert played.points == foundation_points(rank) + 10, card
    assert game.score() == 290 + 13 * 10


def test_tableau_to_foundation_with_flip() -> None:
    game = Klondike(klondike_deal({1: ["Ah"], 2: ["9s", "As"]}))
    assert game.play("t1>f").points == 50
    played = game.play("t2>f")
    assert played.points == 50 + 10
    assert played.revealed == (Card.parse("9s"),)
    assert game.score() == 110


def test_waste_to_tableau_and_foundation_to_tableau() -> None:
    game = Klondike(klondike_deal({1: ["Ah"], 2: ["Kd", "2h"], 3: ["Qd", "Jd", "3s"]}, hand=["9d"]))
    game.play("t1>f")  # +50
    game.play("t2>f")  # +45, flips Kd: +10
    assert game.score() == 105
    played = game.play("f:h>t3")  # 2h back onto the black 3: -10
    assert played.points == -10
    assert game.piles()["t3"][-1] == Card.parse("2h")
    assert game.score() == 95
    game.play("draw")
    with pytest.raises(IllegalMoveError, match="9d cannot go on 2h"):
        game.play("w>t3")
    assert game.score() == 95


def test_waste_to_tableau_scores_ten() -> None:
    game = Klondike(klondike_deal({1: ["8s"]}, hand=["7h"]))
    game.play("draw")
    assert game.play("w>t1").points == 10
    assert [str(c) for c in game.piles()["t1"]] == ["8s", "7h"]


def test_runs_move_together_and_kings_fill_empty_columns() -> None:
    game = Klondike(
        klondike_deal(
            {
                1: ["Kh"],
                2: ["As", "Qs"],
                4: ["2s", "3s", "4s", "Kd"],
                5: ["5s", "6s", "7s", "8s", "Jh"],
            }
        )
    )
    game.play("t2>t1")  # Qs on Kh, flips As
    game.play("t5>t1")  # Jh on Qs, flips 8s
    assert [str(c) for c in game.piles()["t1"]] == ["Kh", "Qs", "Jh"]
    game.play("t2>f")  # As home: t2 is empty
    with pytest.raises(IllegalMoveError, match="only a king"):
        game.play("t5>t2")
    played = game.play("t1>t2")  # the whole run headed by Kh moves into the gap
    assert played.points == 0
    assert [str(c) for c in game.piles()["t2"]] == ["Kh", "Qs", "Jh"]
    assert game.piles()["t1"] == []
    game.play("t4>t1")  # a lone king fills an empty column, flipping 4s
    assert game.hidden_counts()[3] == 2


def test_long_form_names_the_first_card_of_the_run() -> None:
    game = Klondike(klondike_deal({1: ["Kh"], 2: ["As", "Qs"], 3: ["2d", "3d", "Qd"]}))
    assert str(game.play("T2:QS>T1").move) == "t2>t1"
    with pytest.raises(IllegalMoveError, match="Qd cannot go on Qs"):
        game.play("t3:Qd>t1")
    with pytest.raises(IllegalMoveError, match="not a face-up card"):
        game.play("t3:2d>t1")


def test_draw_three_turns_three_and_the_third_is_on_top() -> None:
    game = Klondike(klondike_deal(hand=["Ac", "2c", "3c", "4c"]), draw=3)
    game.play("draw")
    assert game.observation()["waste"] == ["Ac", "2c", "3c"]
    with pytest.raises(IllegalMoveError, match="3c has no place"):
        game.play("w>f")
    assert game.observation()["hand"] == 21


def test_draw_three_turns_fewer_at_the_end_of_the_hand() -> None:
    game = Klondike(klondike_deal(), draw=3)
    for _ in range(8):
        game.play("draw")
    assert game.observation()["hand"] == 0
    with pytest.raises(IllegalMoveError, match="hand is empty"):
        game.play("draw")
    game.play("recycle")
    game.play("draw")  # 3 of 24: the hand now has 21
    assert game.observation()["hand"] == 21


def test_recycle_restores_the_original_order() -> None:
    game = Klondike(klondike_deal(hand=CLUBS[:5]))
    before = game.piles()["hand"]
    for _ in range(24):
        game.play("draw")
    with pytest.raises(IllegalMoveError, match="recycle only once the hand is empty"):
        Klondike(klondike_deal()).play("recycle")
    game.play("recycle")
    assert game.piles()["hand"] == before
    assert game.observation()["waste"] == []


def test_draw_one_recycle_costs_100_every_time() -> None:
    game = Klondike(klondike_deal(), draw=1)
    for expected in (-100, -200, -300):
        for _ in range(24):
            game.play("draw")
        assert game.play("recycle").points == -100
        assert game.score() == expected


def test_draw_three_recycle_costs_20_from_the_third() -> None:
    game = Klondike(klondike_deal(), draw=3)
    scores = []
    for _ in range(5):
        for _ in range(8):
            game.play("draw")
        game.play("recycle")
        scores.append(game.score())
    assert scores == [0, 0, -20, -40, -60]
    assert game.recycles == 5


def test_undo_restores_state_and_score_exactly() -> None:
    game = Klondike(klondike_deal({1: ["8s"], 2: ["As", "Ah"]}, hand=["7h", "Ac"]))
    game.play("draw")
    game.play("draw")  # Ac on top of 7h
    before = state(game)
    game.play("w>f")
    assert game.score() == 60
    game.undo()
    assert state(game) == before
    game.play("draw")
    for _ in range(21):
        game.play("draw")
    game.play("recycle")
    before = state(game)
    game.undo()  # recycle is undoable, and the score returns
    game.play("recycle")
    assert state(game) == before


def test_undo_is_refused_after_a_flip() -> None:
    game = Klondike(klondike_deal({2: ["9s", "As"]}))
    game.play("t2>f")
    assert not game.can_undo()
    before = state(game)
    with pytest.raises(UndoRefusedError, match="turned up"):
        game.undo()
    with pytest.raises(UndoRefusedError):
        game.play("undo")
    assert state(game) == before


def test_undo_never_passes_a_reveal() -> None:
    game = Klondike(klondike_deal({1: ["8s"], 2: ["9s", "As"]}, hand=["7h"]))
    game.play("t2>f")  # flips 9s: a reveal
    game.play("draw")  # first sight of 7h: a reveal
    assert not game.can_undo()
    game2 = Klondike(klondike_deal({1: ["8s"], 2: ["9s", "As"]}, hand=["7h"]))
    game2.play("draw")  # reveal
    game2.play("w>t1")  # no reveal: undoable
    assert game2.can_undo()
    game2.undo()
    assert not game2.can_undo()  # the draw before it revealed 7h


def test_draw_is_undoable_once_the_cards_were_seen() -> None:
    game = Klondike(klondike_deal(), draw=1)
    for _ in range(24):
        game.play("draw")
        assert not game.can_undo()  # each first draw reveals a card
    game.play("recycle")
    assert game.can_undo()
    before = state(game)
    played = game.play("draw")
    assert played.revealed == ()
    assert game.can_undo()
    game.undo()
    assert state(game) == before


def test_draw_three_second_pass_with_a_new_grouping_is_undoable() -> None:
    game = Klondike(klondike_deal(hand=["5d", "Ac"]), draw=3)
    game.play("draw")  # 5d, Ac, and a third
    for _ in range(7):
        game.play("draw")
    game.play("recycle")
    game.play("draw")
    assert game.can_undo()


def test_nothing_to_undo_at_the_start() -> None:
    game = Klondike.from_seed(3)
    with pytest.raises(UndoRefusedError, match="nothing to undo"):
        game.undo()


def test_solved_game_plays_out_by_itself() -> None:
    game = Klondike(solved_deal())
    for _ in range(24):
        game.play("draw")
        game.play("w>f")
    assert game.cards_on_foundation() == 24
    moves = 0
    last = None
    while not game.is_over():
        column = next(i for i, c in enumerate(game.observation()["tableau"], start=1) if c["cards"])
        last = game.play(f"t{column}>f")
        moves += 1
    assert last is not None
    assert last.auto, "the last flip should have started the play-out"
    assert game.outcome() is not None
    assert game.outcome().won
    assert game.cards_on_foundation() == 52
    # 4 suits of foundation values, 24 waste bonuses, 21 flips
    assert game.score() == 4 * 290 + 24 * 10 + 21 * 10
    assert moves < 28
    assert game.legal_moves() == []
    with pytest.raises(GameOverError):
        game.play("draw")
    with pytest.raises(UndoRefusedError, match="over"):
        game.undo()


def test_solved_means_no_hidden_card_empty_hand_and_at_most_one_waste_card() -> None:
    game = Klondike(solved_deal())
    assert not game.is_solved()
    for _ in range(23):
        game.play("draw")
        game.play("w>f")
    game.play("draw")
    assert not game.is_solved()  # hidden cards remain


def test_time_bonus() -> None:
    game = Klondike(klondike_deal(hand=CLUBS))
    for _ in range(13):
        game.play("draw")
        game.play("w>f")
    game.play("end")
    assert game.outcome() is not None
    assert game.outcome().reason == "ended"
    assert game.time_bonus(100) == (300 - 100) * 13 // 52
    assert game.time_bonus(299.9) == 0  # floor(0.1 * 13 / 52)
    assert game.time_bonus(300) == 0
    assert game.final_score(100.0) == 420 + 50
    assert game.final_score(None) == 420


def test_tap_sends_a_card_home_when_it_has_a_place() -> None:
    game = Klondike(klondike_deal({1: ["Ah"], 2: ["9s", "5d"]}, hand=["Ac"]))
    assert str(game.tap("t1")) == "t1>f"
    assert game.tap("t2") is None
    assert game.tap("w") is None
    game.play("draw")
    assert str(game.tap("w")) == "w>f"
    assert game.tap("t9") is None


@pytest.mark.parametrize(
    ("move", "error", "reason"),
    [
        ("t8>t1", InvalidMoveError, "columns t1 to t7"),
        ("r>t1", InvalidMoveError, "no reserve"),
        ("h:Qs>t1", InvalidMoveError, "no hand place"),
        ("t1", InvalidMoveError, "say where to"),
        ("t1>t1", IllegalMoveError, "its own column"),
        ("w>f", IllegalMoveError, "waste is empty"),
        ("f:h>t1", IllegalMoveError, "foundation is empty"),
        ("recycle", IllegalMoveError, "recycle only once"),
        ("jump", InvalidMoveError, "is not a move"),
        ("t1>w", InvalidMoveError, "cards go to a column"),
    ],
)
def test_bad_moves_are_refused_and_change_nothing(
    move: str, error: type[Exception], reason: str
) -> None:
    game = Klondike.from_seed(11)
    before = state(game)
    with pytest.raises(error, match=reason):
        game.play(move)
    assert state(game) == before


def test_variants_are_checked() -> None:
    with pytest.raises(InvalidVariantError, match="'draw' takes 1 or 3, not 2"):
        new_game("klondike", seed=1, variant={"draw": 2})
    with pytest.raises(InvalidVariantError, match="no option 'wrap'"):
        new_game("klondike", seed=1, variant={"wrap": True})
    with pytest.raises(InvalidVariantError, match="not true"):
        new_game("klondike", seed=1, variant={"draw": True})
    assert Klondike.variants() == [{"draw": 1}, {"draw": 3}]


def test_foundation_to_tableau_needs_the_suit_when_ambiguous() -> None:
    game = Klondike(klondike_deal({1: ["Ah"], 2: ["As", "2h"], 3: ["Ad", "2d", "3s"]}))
    game.play("t1>f")
    game.play("t2>f")
    assert str(game.play("f>t3").move) == "f:h>t3"


def test_suits_are_named_in_observation() -> None:
    game = Klondike(klondike_deal({1: ["Ah"]}))
    game.play("t1>f")
    assert game.observation()["foundation"] == {"c": None, "d": None, "h": "Ah", "s": None}
    assert Suit.HEARTS.symbol == "♥"


def every_candidate_move() -> list[str]:
    places = ["w", *(f"t{k}" for k in range(1, 8)), *(f"f:{s}" for s in "cdhs")]
    dests = ["f", *(f"t{k}" for k in range(1, 8))]
    return ["draw", "recycle", *(f"{a}>{b}" for a in places for b in dests if a != b)]


@pytest.mark.parametrize("draw", [1, 3])
def test_generated_moves_equal_the_moves_play_accepts(draw: int) -> None:
    """legal_moves() is generated directly; play() checks typed moves on its own path.
    On random reachable states, the two agree exactly."""
    import random

    rng = random.Random(draw)
    candidates = every_candidate_move()
    for seed in range(12):
        game = Klondike.from_seed(seed, {"draw": draw})
        for _ in range(80):
            generated = {str(move) for move in game.legal_moves()}
            accepted = {move for move in candidates if game.is_legal(move)}
            assert generated == accepted, (seed, game.observation())
            if not generated:
                break
            game.play(rng.choice(sorted(generated)))
