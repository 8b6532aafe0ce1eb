"""Solitaire Expert on constructed deals: the hand limit, string moves, King-only empty
columns, the piles, and the win with its play-out."""

from __future__ import annotations

import pytest

from layouts import expert_deal
from patience.cards import parse_deal
from patience.errors import (
    IllegalMoveError,
    InvalidDealError,
    InvalidMoveError,
    UndoRefusedError,
)
from patience.games.expert import Expert, string_start

# Four strings, King to Ace in alternating colours, that between them use each card once.
STRINGS = [
    "Kc Qh Js Td 9c 8h 7s 6d 5c 4h 3s 2d Ac",
    "Ks Qd Jc Th 9s 8d 7c 6h 5s 4d 3c 2h As",
    "Kd Qc Jh Ts 9d 8c 7h 6s 5d 4c 3h 2s Ad",
    "Kh Qs Jd Tc 9h 8s 7d 6c 5h 4s 3d 2c Ah",
]
CLUBS_DOWN = ["Tc", "9c", "8c", "7c", "6c", "5c", "4c", "3c", "2c", "Ac"]


def moves_of(game: Expert) -> list[str]:
    return [str(move) for move in game.legal_moves()]


def nearly_won() -> Expert:
    """Columns 1-8 are strings K..4 (two of each of the four strings above); columns 9 and
    10 hold the Aces, 2s and 3s that are not in the hand, in an order that plays home."""
    heads = [string.split()[:10] for string in STRINGS] * 2
    home_order = ["Ac", "Ad", "Ah", "As", "2c", "2d", "2h", "2s", "3c", "3d"]
    columns = {k + 1: heads[k] for k in range(8)}
    columns[9] = list(reversed(home_order))
    columns[10] = list(reversed(home_order))
    return Expert(expert_deal(columns, hand=["3h", "3s", "3h", "3s"]))


def test_layout() -> None:
    game = nearly_won()
    observation = game.observation()
    assert len(observation["tableau"]) == 10
    assert observation["tableau"][0]["cards"] == STRINGS[0].split()[:10]
    assert observation["hand"] == ["3h", "3s", "3h", "3s"]
    assert observation["foundation"] == [None] * 8
    assert game.hidden_cards() == []


def test_the_win_plays_out_every_card() -> None:
    game = nearly_won()
    assert not game.is_solved()
    played = None
    for _ in range(10):
        played = game.play("t9>f")
    assert game.cards_on_foundation() == 10
    assert not played.auto
    while not played.auto:
        home = game.cards_on_foundation()
        played = game.play("t10>f")
    # column 10 became a single string: every column is, so the rest went home by itself
    assert game.outcome() is not None
    assert game.outcome().won
    assert game.score() == 104
    assert game.cards_on_foundation() == 104
    assert len(played.auto) == 104 - home - 1
    assert all(str(step.move).endswith(">f") for step in played.auto)
    assert any(str(step.move).startswith("h:") for step in played.auto)  # the hand too
    assert not game.can_undo()


def test_strings_of_any_length_move() -> None:
    columns = {
        1: ["2c", "2c", "5d", "5d", "Kc", "Kc", "Jh", "Ts", "9d", "8c"],  # ends in a string of 4
        2: ["3c", "3c", "3d", "3d", "6c", "6c", "6d", "6d", "7c", "Qs"],
        3: ["4c", "4c", "4d", "4d", "7d", "7d", "8d", "8d", "9c", "Tc"],
    }
    game = Expert(expert_deal(columns, hand=["3h", "3s", "3h", "3s"]))
    assert string_start(game.piles()["t1"]) == 6
    game.play("t1>t2")  # the whole string Jh Ts 9d 8c onto Qs
    assert game.observation()["tableau"][1]["cards"][-5:] == ["Qs", "Jh", "Ts", "9d", "8c"]
    game.undo()
    assert str(game.play("t1>t3").move) == "t1>t3"  # part of it: 9d 8c onto Tc
    assert game.observation()["tableau"][2]["cards"][-3:] == ["Tc", "9d", "8c"]
    game.undo()
    assert str(game.play("t1:9d>t3").move) == "t1>t3"  # the long form, written short
    game.undo()
    with pytest.raises(IllegalMoveError, match="Ts cannot go on Tc"):
        game.play("t1:Ts>t3")
    with pytest.raises(IllegalMoveError, match="does not head a string"):
        game.play("t1:Kc>t3")


def test_the_hand_holds_at_most_four() -> None:
    game = nearly_won()
    assert not any(move.endswith(">h") for move in moves_of(game))
    with pytest.raises(IllegalMoveError, match="the hand is full"):
        game.play("t1>h")
    game.play("t9>f")  # Ac home
    game.play("t9>f")  # Ad home
    game.play("t9>f")  # Ah home
    game.play("t9>f")  # As home
    game.play("t9>f")  # 2c
    game.play("t9>f")  # 2d
    game.play("t9>f")  # 2h
    game.play("t9>f")  # 2s
    game.play("h:3h>f")
    assert game.observation()["hand"] == ["3s", "3h", "3s"]
    game.play("t1>h")
    assert game.observation()["hand"] == ["3s", "3h", "3s", "4h"]
    with pytest.raises(IllegalMoveError, match="the hand is full"):
        game.play("t2>h")
    game.play("h:4h>t1")  # and back onto 5c
    assert game.observation()["tableau"][0]["cards"][-2:] == ["5c", "4h"]


def test_only_a_king_fills_an_empty_column() -> None:
    columns = {1: CLUBS_DOWN, 2: STRINGS[1].split()[:10]}
    game = Expert(expert_deal(columns, hand=["Kd", "Qd", "5h", "5h"]))
    for _ in range(10):
        game.play("t1>f")
    assert game.observation()["tableau"][0]["cards"] == []
    with pytest.raises(IllegalMoveError, match="only a King"):
        game.play("h:Qd>t1")
    assert "t2>t1" in moves_of(game)  # the whole column 2 is a string headed by Ks
    game.play("h:Kd>t1")
    assert game.observation()["tableau"][0]["cards"] == ["Kd"]
    game.undo()
    game.play("t2>t1")
    assert game.observation()["tableau"][0]["cards"] == STRINGS[1].split()[:10]


def test_two_piles_per_suit_and_nothing_comes_back() -> None:
    columns = {1: CLUBS_DOWN, 2: CLUBS_DOWN}
    game = Expert(expert_deal(columns, hand=[]))
    game.play("t1>f")
    game.play("t2>f")
    observation = game.observation()
    assert observation["foundation"][:2] == [{"top": "Ac", "cards": 1}] * 2
    game.play("t1>f")
    assert game.observation()["foundation"][0] == {"top": "2c", "cards": 2}
    with pytest.raises(IllegalMoveError, match="never leave"):
        game.play("f>t3")


def test_undo_is_unlimited() -> None:
    game = nearly_won()
    start = game.piles()
    for _ in range(5):
        game.play("t9>f")
    for _ in range(5):
        game.undo()
    assert game.piles() == start
    with pytest.raises(UndoRefusedError, match="nothing to undo"):
        game.undo()


@pytest.mark.parametrize(
    ("move", "error", "reason"),
    [
        ("t11>f", InvalidMoveError, "no t11"),
        ("w>t1", InvalidMoveError, "no w"),
        ("draw", InvalidMoveError, "no stock"),
        ("h:Kd>t1", IllegalMoveError, "not in the hand"),
        ("h>t9", IllegalMoveError, "no hand card goes to t9"),
        ("t1>t1", IllegalMoveError, "own column"),
        ("t1>t2", IllegalMoveError, "no string of t1 goes on"),
        ("t1>f", IllegalMoveError, "no place on the piles"),
    ],
)
def test_bad_moves_change_nothing(move: str, error: type[Exception], reason: str) -> None:
    game = nearly_won()
    before = game.piles(), game.observation()
    with pytest.raises(error, match=reason):
        game.play(move)
    assert (game.piles(), game.observation()) == before


def test_deals_need_every_card_twice() -> None:
    cards = [str(card) for card in nearly_won().deal]
    with pytest.raises(InvalidDealError, match="103"):
        Expert(cards[:103])
    other = next(i for i in range(103, 0, -1) if cards[i] != cards[0])
    three_times = [*cards[:other], cards[0], *cards[other + 1 :]]
    assert three_times.count(cards[0]) == 3
    with pytest.raises(
        InvalidDealError, match=f"twice; found .*{cards[0]} 3 times.*{cards[other]} once"
    ):
        Expert(three_times)
    with pytest.raises(InvalidDealError):
        Expert(" ".join(cards[:52]))
    assert len(parse_deal(cards, decks=2)) == 104
