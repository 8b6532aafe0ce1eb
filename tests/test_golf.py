"""Golf on constructed deals: the King rule in both variants, scoring, undo, stuck."""

from __future__ import annotations

import contextlib
import random

import pytest

from layouts import golf_deal
from patience.errors import IllegalMoveError, InvalidMoveError, UndoRefusedError
from patience.games.golf import Golf

SUITS = "cdhs"
KING_TEST = {1: ["2c", "3c", "4c", "5c", "Qh"], 2: ["2d", "3d", "4d", "5d", "Ah"]}


def clearing_order() -> list[str]:
    """35 cards, each one rank from the one before, never leaving a King on the waste:
    up A..Q, down J..A, up 2..Q, then a last J (no rank used more than four times)."""
    ranks = "A23456789TJQ"
    path = list(ranks) + list(reversed(ranks[:-1])) + list(ranks[1:]) + ["J"]
    used: dict[str, int] = {}
    cards = []
    for rank in path:
        cards.append(rank + SUITS[used.get(rank, 0)])
        used[rank] = used.get(rank, 0) + 1
    assert len(cards) == 35
    return cards


def clearing_deal() -> tuple[Golf, list[str]]:
    """A deal that clears in one streak: column k holds the (5k-4)th..(5k)th cards to play,
    the first of them exposed; the waste starts with the last 2."""
    order = clearing_order()
    columns = {k: list(reversed(order[5 * (k - 1) : 5 * k])) for k in range(1, 8)}
    moves = [f"t{k}" for k in range(1, 8) for _ in range(5)]
    return Golf(golf_deal(columns, waste="2s")), moves


def test_layout_matches_the_rules() -> None:
    game = Golf(golf_deal({3: ["Ac", "2c", "3c", "4c", "5c"]}, waste="9h", stock=["Kd", "Qd"]))
    observation = game.observation()
    assert observation["tableau"][2]["cards"] == ["Ac", "2c", "3c", "4c", "5c"]
    assert observation["waste"] == ["9h"]
    assert observation["stock"] == 16
    game.play("draw")
    assert game.observation()["waste"] == ["9h", "Kd"]


def test_nothing_plays_on_a_king_without_wrap() -> None:
    game = Golf(golf_deal(KING_TEST, waste="Ks"))
    assert [str(move) for move in game.legal_moves()] == ["draw"]
    with pytest.raises(IllegalMoveError, match="nothing plays on a King"):
        game.play("t1")
    with pytest.raises(IllegalMoveError, match="nothing plays on a King"):
        game.play("t2")


def test_king_and_ace_are_neighbours_with_wrap() -> None:
    game = Golf(golf_deal(KING_TEST, waste="Ks"), wrap=True)
    assert [str(move) for move in game.legal_moves()] == ["t1", "t2", "draw"]
    game.play("t2")  # Ah on Ks
    assert game.observation()["waste"][-1] == "Ah"


def test_a_king_plays_on_a_queen_and_an_ace_only_on_a_two() -> None:
    columns = {1: ["2c", "3c", "4c", "5c", "Kh"], 2: ["2d", "3d", "4d", "5d", "Ah"]}
    game = Golf(golf_deal(columns, waste="Qs"))
    assert [str(move) for move in game.legal_moves()] == ["t1", "draw"]
    with pytest.raises(IllegalMoveError, match="Ah is not one rank above or below Qs"):
        game.play("t2")
    on_a_two = Golf(golf_deal(columns, waste="2s"))
    assert [str(move) for move in on_a_two.legal_moves()] == ["t2", "draw"]


def test_streak_points_reset_by_a_draw() -> None:
    game, moves = clearing_deal()
    points = [game.play(move).points for move in moves[:3]]
    assert points == [10, 15, 20]
    assert game.play("draw").points == 0
    assert game.score() == 45
    # the streak starts again after the draw; the card on the waste now decides
    assert game.observation()["streak"] == 0


def test_clearing_the_tableau() -> None:
    game, moves = clearing_deal()
    for move in moves:
        played = game.play(move)
    streak = sum(10 + 5 * (k - 1) for k in range(1, 36))
    assert played.points == 10 + 5 * 34 + 100 + 20 * 16
    assert game.score() == streak + 100 + 20 * 16
    assert game.outcome() is not None
    assert game.outcome().won
    assert game.cards_on_foundation() == 35
    assert game.time_bonus(60) == (180 - 60) * 35 // 35
    assert game.final_score(60) == game.score() + 120


def test_clear_bonus_counts_the_stock_left() -> None:
    order = clearing_order()
    columns = {k: list(reversed(order[5 * (k - 1) : 5 * k])) for k in range(1, 8)}
    game = Golf(golf_deal(columns, waste="Kh", stock=["2s"]))
    assert [str(move) for move in game.legal_moves()] == ["draw"]
    game.play("draw")
    for k in range(1, 8):
        for _ in range(5):
            played = game.play(f"t{k}")
    assert played.points == 10 + 5 * 34 + 100 + 20 * 15
    assert game.outcome() is not None
    assert game.outcome().won


def test_time_bonus_scales_with_cards_cleared() -> None:
    game, moves = clearing_deal()
    for move in moves[:7]:
        game.play(move)
    assert game.time_bonus(100) == (180 - 100) * 7 // 35
    assert game.time_bonus(180) == 0


def test_undo_takes_back_plays_but_never_a_draw() -> None:
    game, moves = clearing_deal()
    with pytest.raises(UndoRefusedError, match="nothing to undo"):
        game.undo()
    game.play(moves[0])
    game.play(moves[1])
    before = game.piles(), game.score()
    game.play(moves[2])
    game.undo()
    assert (game.piles(), game.score()) == before
    assert game.observation()["streak"] == 2
    game.play("draw")
    assert not game.can_undo()
    with pytest.raises(UndoRefusedError, match="a draw cannot be taken back"):
        game.undo()


def test_stuck_when_the_stock_is_empty_and_nothing_moves() -> None:
    # the stock ends with a King: once it is drawn, nothing can play on it
    stock = ["9c", "9d", "9h", "9s", "Tc", "Td", "Th", "Ts"]
    stock += ["Jc", "Jd", "Jh", "Js", "Qc", "Qd", "Qh", "Kc"]
    game = Golf(golf_deal(waste="Kd", stock=stock))
    for _ in range(15):
        game.play("draw")
    assert game.outcome() is None  # one card left in the stock
    game.play("draw")
    assert game.observation()["waste"][-1] == "Kc"
    assert game.outcome() is not None
    assert game.outcome().reason == "stuck"
    assert game.legal_moves() == []
    with pytest.raises(ValueError, match="over"):
        game.play("t1")


@pytest.mark.parametrize(
    ("move", "error", "reason"),
    [
        ("t8", InvalidMoveError, "there is no t8: Golf has 7 columns"),
        ("t1>t2", InvalidMoveError, "goes to the waste"),
        ("w>f", InvalidMoveError, "goes to the waste"),
        ("recycle", InvalidMoveError, "not a Golf move"),
        ("h:Qs>t1", InvalidMoveError, "goes to the waste"),
        ("t1:Qs>w", IllegalMoveError, "not the free card"),
        ("t2", IllegalMoveError, "not one rank above or below"),
    ],
)
def test_bad_moves_change_nothing(move: str, error: type[Exception], reason: str) -> None:
    game, _ = clearing_deal()
    before = game.piles(), game.score(), game.observation()
    with pytest.raises(error, match=reason):
        game.play(move)
    assert (game.piles(), game.score(), game.observation()) == before


def test_long_form_to_the_waste_is_accepted() -> None:
    game, _ = clearing_deal()
    card = game.observation()["tableau"][0]["cards"][-1]
    assert str(game.play(f"t1:{card}>w").move) == "t1"
    assert game.tap("t1") == game.legal_moves()[0]
    assert game.tap("t2") is None


def test_malformed_deals() -> None:
    from patience.errors import InvalidDealError

    with pytest.raises(InvalidDealError, match="51"):
        Golf(golf_deal()[:51])
    with pytest.raises(InvalidDealError):
        Golf([*golf_deal()[:51], "Ac"])


def _played_one_by_one(game: Golf, moves: list[str]) -> tuple[int, str | None]:
    """What :meth:`Game.play_through` answers, by :meth:`Game.play` a move at a time."""
    for index, move in enumerate(moves):
        if game.is_over():
            return index, None
        try:
            game.play(move)
        except ValueError as error:
            return index, str(error)
    return len(moves), None


@pytest.mark.parametrize("wrap", [False, True])
def test_play_through_decides_and_plays_as_play_does(wrap: bool) -> None:
    # Random lines on seeded deals (legal moves, with now and then a move that is not
    # legal, undo or end): the cheaper replay of certificates answers as play does, move
    # for move, and leaves the same game, score and undo included.

    rng = random.Random(5)
    refused = over = 0
    for seed in range(40):
        start = Golf.from_seed(seed, {"wrap": wrap})
        line: list[str] = []
        walker = start.copy()
        while not walker.is_over() and len(line) < 60:
            legal = [str(move) for move in walker.legal_moves()]
            move = rng.choice(legal)
            if rng.random() < 0.05:
                move = rng.choice(["t1", "t4", "t7", "t8", "draw", "undo", "end", "w>f"])
            line.append(move)
            with contextlib.suppress(ValueError):
                walker.play(move)
        line += ["draw", "t3"]  # a move after the end, when the line ended the game
        fast, slow = start.copy(), start.copy()
        count, refusal = fast.play_through(line)
        assert (count, None if refusal is None else str(refusal)) == _played_one_by_one(slow, line)
        assert (fast.piles(), fast.score(), fast.observation()) == (
            slow.piles(),
            slow.score(),
            slow.observation(),
        )
        assert fast.can_undo() == slow.can_undo()
        assert fast.outcome() == slow.outcome()
        refused += refusal is not None
        over += refusal is None and count < len(line)
    assert refused > 5, refused
    assert over > 5, over


def test_a_golf_certificate_with_an_illegal_move_or_no_win_is_refused() -> None:
    from patience.solve import CertificateError, replayed

    game, moves = clearing_deal()
    assert replayed(game, moves) == tuple(moves)
    assert replayed(game, [*moves, "draw"]) == tuple(moves)  # won: the rest not played
    with pytest.raises(CertificateError, match=r"move 3 \('t2'\) was refused: .* not one rank"):
        replayed(game, [*moves[:3], "t2", *moves[3:]])
    with pytest.raises(CertificateError, match=r"move 0 \('t9'\) was refused: there is no t9"):
        replayed(game, ["t9", *moves])
    with pytest.raises(CertificateError, match="does not win"):
        replayed(game, moves[:-1])
    assert game.cards_on_foundation() == 0  # the start is never played on
