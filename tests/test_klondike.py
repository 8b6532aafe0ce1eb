"""Klondike ("Solitaire Rush") rules and scoring, each on a constructed deal."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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
from patience.games.klondike import MAX_POINTS, Klondike, foundation_points


def state(game: Klondike) -> tuple[object, ...]:
    """Everything undo must restore, the cards whose foundation points are paid included."""
    return (
        game.piles(),
        game.hidden_counts(),
        game.score(),
        game.recycles,
        game.observation(),
        frozenset(game._earned),
    )


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


def test_foundation_points_are_earned_once_per_card() -> None:
    """docs/rules.md: a card's foundation points come the first time it goes home; each trip back
    to the tableau costs 10, and going home again earns nothing. A 2 cycled down and home
    twice: +45 once, -10 twice."""
    game = Klondike(klondike_deal({1: ["Ah"], 2: ["Kd", "2h"], 3: ["Qd", "Jd", "3s"]}))
    assert game.play("t1>f").points == 50
    assert game.play("t2>f").points == 45 + 10  # and Kd turns up
    for score in (95, 85):
        assert game.play("f:h>t3").points == -10
        assert game.score() == score
        assert game.play("t3>f").points == 0  # 2h is home again: no second payment
        assert game.score() == score
    assert game.observation()["foundation"]["h"] == "2h"
    assert game.score() == 50 + 45 + 10 - 2 * 10


def test_the_play_out_pays_no_card_twice() -> None:
    """The automatic play-out scores the same way: a card brought back down earns nothing
    when the play-out sends it home again, and the game ends 10 under the maximum."""
    game = Klondike(solved_deal())
    for _ in range(24):  # the clubs, then the diamonds up to the Jack, each draw then home
        game.play("draw")
        game.play("w>f")
    assert game.play("t1>f").points == 5  # Qd home; t1 is empty
    assert game.play("f:c>t1").points == -10  # Kc fills it, to stay until the play-out
    last = None
    while not game.is_over():  # the other columns home, until the play-out takes over
        column = next(
            i for i, c in enumerate(game.observation()["tableau"], start=1) if c["cards"] and i > 1
        )
        last = game.play(f"t{column}>f")
    assert last is not None
    paid = {str(step.card): step.points for step in last.auto}
    assert paid["Kc"] == 0
    assert game.outcome() is not None
    assert game.outcome().won
    assert game.score() == MAX_POINTS - 10


def test_undo_restores_which_cards_have_earned_their_points() -> None:
    game = Klondike(klondike_deal({1: ["Ah"], 3: ["Qd", "Jd", "3s"]}, hand=["2h"]))
    start = state(game)
    game.play("t1>f")  # +50, no card turned up: undoable
    game.undo()
    assert state(game) == start
    assert game.play("t1>f").points == 50  # Ah's points were taken back, so paid again
    game.play("draw")  # first sight of 2h: nothing before this can be undone
    home = state(game)
    assert game.play("w>f").points == 45 + 10
    first_home = state(game)
    assert game.score() == 105
    game.play("f:h>t3")  # -10
    down = state(game)
    game.play("t3>f")  # +0
    assert game.score() == 95
    game.undo()
    assert state(game) == down
    game.undo()
    assert state(game) == first_home
    assert game.score() == 105
    game.play("f:h>t3")
    assert game.play("t3>f").points == 0  # still earned after the undos
    assert game.score() == 95
    for _ in range(3):
        game.undo()
    assert state(game) == home  # 2h back in the waste, its points no longer earned
    assert game.score() == 50
    assert game.play("w>f").points == 45 + 10
    assert state(game) == first_home


def _is_foundation_move(move: str) -> bool:
    return move.startswith("f:") or move.endswith(">f")


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    draw=st.sampled_from([1, 3]),
    choices=st.integers(min_value=0, max_value=2**32 - 1),
)
def test_random_play_never_scores_more_than_the_maximum(seed: int, draw: int, choices: int) -> None:
    """Random legal play, leaning hard on moves to and from the foundations (so cards cycle
    down and home again) with some undo, never gets the score, time bonus apart, above
    MAX_POINTS: every card's foundation value once (4 x 290 = 1,160), +10 for each of the 21
    face-down cards turned up (210) and +10 for each of the 24 hand cards leaving the waste
    (240), 1,610 in all; the time bonus adds at most floor(300 * 52 / 52) = 300."""
    assert MAX_POINTS == 4 * 290 + 21 * 10 + 24 * 10 == 1610
    rng = random.Random(choices)  # the moves' choices, reproducible from the failing example
    game = Klondike.from_seed(seed, {"draw": draw})
    been_home: set[Card] = set()  # every card that has reached a foundation, undo or not
    for _ in range(400):
        if game.is_over():
            break
        if game.can_undo() and rng.random() < 0.1:
            game.undo()
        else:
            moves = [str(move) for move in game.legal_moves()]
            cycling = [move for move in moves if _is_foundation_move(move)]
            game.play(rng.choice(cycling if cycling and rng.random() < 0.8 else moves))
        piles = game.piles()
        flipped = 21 - sum(game.hidden_counts())
        off_the_waste = 24 - len(piles["hand"]) - len(piles["waste"])
        been_home.update(card for name, pile in piles.items() if name[0] == "f" for card in pile)
        earned = sum(foundation_points(card.rank) for card in been_home)
        assert game.score() <= earned + 10 * flipped + 10 * off_the_waste
        assert game.score() <= MAX_POINTS
        assert game.score() + game.time_bonus(0) <= MAX_POINTS + 300


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
        ("t8>t1", InvalidMoveError, "there is no t8: Klondike has 7 columns"),
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
