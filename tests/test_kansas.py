"""Kansas on constructed deals: the base card, wraps, refills from the reserve and then from
the waste only, group moves, scoring and undo."""

from __future__ import annotations

import pytest

from layouts import kansas_deal
from patience.errors import IllegalMoveError, InvalidMoveError, UndoRefusedError
from patience.games.kansas import Kansas

HEARTS_FROM_6 = ["6h", "7h", "8h", "9h", "Th", "Jh", "Qh", "Kh", "Ah", "2h", "3h", "4h"]


def moves_of(game: Kansas) -> list[str]:
    return [str(move) for move in game.legal_moves()]


def test_layout_and_base_card() -> None:
    game = Kansas(kansas_deal(reserve=["9d", "3c"], base="5h", columns=["Kc", "2d", "7s"]))
    observation = game.observation()
    assert observation["reserve"] == {"cards": 12, "top": "9d"}
    assert observation["base"] == "5"
    assert observation["foundation"] == [{"top": "5h", "cards": 1}, None, None, None]
    assert [column["cards"] for column in observation["tableau"]] == [["Kc"], ["2d"], ["7s"]]
    assert observation["stock"] == 36
    assert observation["waste"] == []
    assert game.score() == 1  # the base card counts
    assert "3c" not in str(observation)  # below the reserve's top: hidden


def test_foundations_start_at_the_base_rank_and_wrap_king_to_ace() -> None:
    game = Kansas(kansas_deal(reserve=HEARTS_FROM_6, base="5h", columns=["5c", "4d", "7s"]))
    assert "t2>f" not in moves_of(game)  # a 4 does not start a foundation
    for card in HEARTS_FROM_6:
        assert game.observation()["reserve"]["top"] == card
        assert game.play("r>f").points == 1
    # K then A then 2 on the hearts: the whole suit is home
    assert game.observation()["foundation"][0] == {"top": "4h", "cards": 13}
    game.play("t1>f")  # 5c starts the second foundation
    assert game.observation()["foundation"][1] == {"top": "5c", "cards": 1}
    assert game.score() == 14


def test_an_emptied_column_is_refilled_from_the_reserve() -> None:
    game = Kansas(kansas_deal(reserve=["9d", "3c", "Jd"], base="5h", columns=["5c", "4d", "7s"]))
    played = game.play("t1>f")
    assert [str(card) for card in played.revealed] == ["3c"]
    tableau = game.observation()["tableau"]
    assert tableau[0]["cards"] == ["9d"]  # the reserve's top filled the column
    assert game.observation()["reserve"] == {"cards": 11, "top": "3c"}
    with pytest.raises(UndoRefusedError, match="turned up"):
        game.undo()


def test_once_the_reserve_is_empty_only_the_waste_fills_a_column() -> None:
    game = Kansas(
        kansas_deal(
            reserve=HEARTS_FROM_6, base="5h", columns=["5c", "6c", "Qs"], stock=["Kd", "Jc"]
        )
    )
    for _ in HEARTS_FROM_6:
        game.play("r>f")
    assert game.observation()["reserve"] == {"cards": 0, "top": None}
    game.play("t1>f")
    game.play("t2>f")
    assert [column["cards"] for column in game.observation()["tableau"]] == [[], [], ["Qs"]]
    with pytest.raises(IllegalMoveError, match="only the waste's top card"):
        game.play("t3>t1")
    game.play("draw")  # Kd
    assert "w>t1" in moves_of(game)
    assert "w>t2" in moves_of(game)
    game.play("w>t1")
    assert game.can_undo()
    game.undo()
    game.play("w>t2")
    game.play("t3>t2")  # Qs on Kd: a column builds on the waste card
    assert game.observation()["tableau"][1]["cards"] == ["Kd", "Qs"]


def test_columns_build_down_with_a_king_on_an_ace() -> None:
    game = Kansas(kansas_deal(reserve=["Kd"], base="5h", columns=["Ac", "9s", "Th"]))
    assert moves_of(game)[:2] == ["r>t1", "t2>t3"]
    game.play("r>t1")  # Kd on Ac
    game.play("t2>t3")  # 9s on Th
    assert [column["cards"] for column in game.observation()["tableau"]][:1] == [["Ac", "Kd"]]
    with pytest.raises(IllegalMoveError, match="columns build down by one rank"):
        game.play("t1:Kd>t3")


def test_groups_move_by_their_first_card() -> None:
    game = Kansas(kansas_deal(reserve=["8c", "Qd"], base="5h", columns=["Jh", "Tc", "9d"]))
    game.play("t2>t1")  # Tc on Jh; t2 refilled with 8c from the reserve
    game.play("t3>t1")  # 9d on Tc; t3 refilled with Qd
    assert game.observation()["tableau"][0]["cards"] == ["Jh", "Tc", "9d"]
    # the long form names the group's first card; the short form finds it
    game.play("t1:Jh>t3")  # Jh Tc 9d on Qd
    assert game.observation()["tableau"][2]["cards"] == ["Qd", "Jh", "Tc", "9d"]
    with pytest.raises(IllegalMoveError, match="is not in t3"):
        game.play("t3:Kc>t2")


def test_draw_is_never_undone_and_there_is_no_redeal() -> None:
    game = Kansas(kansas_deal(base="5h"))
    with pytest.raises(UndoRefusedError, match="nothing to undo"):
        game.undo()
    for _ in range(36):
        played = game.play("draw")
        assert played.revealed
        assert not game.can_undo()
    assert "draw" not in moves_of(game)
    with pytest.raises(IllegalMoveError, match="no redeal"):
        game.play("draw")


@pytest.mark.parametrize(
    ("move", "error", "reason"),
    [
        ("t4>f", InvalidMoveError, "no t4"),
        ("h:Qs>t1", InvalidMoveError, "no h"),
        ("recycle", InvalidMoveError, "not a Kansas move"),
        ("f:h>t1", IllegalMoveError, "never leave"),
        ("t1>w", InvalidMoveError, "go to a column"),
        ("w>t1", IllegalMoveError, "waste is empty"),
        ("t1>t1", IllegalMoveError, "own column"),
        ("t2>f", IllegalMoveError, "no place on the foundations"),
        ("t1>f:h", InvalidMoveError, "bare place"),
    ],
)
def test_bad_moves_change_nothing(move: str, error: type[Exception], reason: str) -> None:
    game = Kansas(kansas_deal(reserve=["9d"], base="5h", columns=["5c", "4d", "7s"]))
    before = game.piles(), game.observation()
    with pytest.raises(error, match=reason):
        game.play(move)
    assert (game.piles(), game.observation()) == before


def test_tap_sends_a_card_home() -> None:
    game = Kansas(kansas_deal(reserve=["6h"], base="5h", columns=["5c", "4d", "7s"]))
    assert str(game.tap("t1")) == "t1>f"
    assert str(game.tap("r")) == "r>f"
    assert game.tap("t2") is None
    assert game.tap("w") is None


def test_the_long_form_decides_between_two_groups_that_fit() -> None:
    down = ["Qd", "Jc", "Td", "9c", "8d", "7c", "6d", "5c", "4d", "3c", "2d", "Ac"]
    game = Kansas(kansas_deal(reserve=down, base="5h", columns=["Kc", "Ah", "9s"], stock=["Kd"]))
    for _ in down:
        game.play("r>t1")
    game.play("draw")
    game.play("w>t1")  # Kd on Ac: column 1 runs K down to A and round to K again
    assert len(game.observation()["tableau"][0]["cards"]) == 14
    assert {"t1:Kc>t2", "t1:Kd>t2"} <= set(moves_of(game))
    assert "t1>t2" not in moves_of(game)
    with pytest.raises(IllegalMoveError, match="name its first card: t1:Kc>t2 or t1:Kd>t2"):
        game.play("t1>t2")
    assert str(game.play("t1:Kd>t2").move) == "t1:Kd>t2"
    assert game.observation()["tableau"][1]["cards"] == ["Ah", "Kd"]
    game.undo()
    game.play("t1:Kc>t2")
    assert game.observation()["tableau"][0]["cards"] == []  # the reserve is empty: no refill
    assert len(game.observation()["tableau"][1]["cards"]) == 15
