"""FreeCell on constructed deals and on Microsoft's numbered ones: the deals, the free
cells, runs and how far they may move, the foundations, the play-out, scoring and undo,
and refusals that change nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from patience.cards import format_cards, parse_cards, shuffled_deck
from patience.errors import (
    GameOverError,
    IllegalMoveError,
    InvalidDealError,
    InvalidMoveError,
    UndoRefusedError,
)
from patience.games import new_game
from patience.games.freecell import CARD_POINTS, FreeCell, microsoft_deal, run_start
from patience.records import GameRecord, replay
from patience.solve import solve

PATIENCE = Path(sys.executable).parent / "patience"

# Bottom card first. t1 ends in a run of five (9h 8s 7d 6c 5h) that fits on t2's Tc; t8
# and t7 play home card by card, leaving two empty columns.
LAYOUT = [
    "Kc Qc 9h 8s 7d 6c 5h",
    "Kd Qd Jd Td 9d 8d Tc",
    "Kh Qh Jh Th 9c 8c 7c",
    "Ks Qs Js Ts 9s 7s 6s",
    "Jc 8h 7h 6h 5d 4d",
    "6d 5s 4s 3s 2s 4h",
    "3d 2d Ad 3h 2h Ah",
    "5c 4c 3c 2c Ac As",
]


def constructed() -> FreeCell:
    return FreeCell(FreeCell.deal_from_layout([column.split() for column in LAYOUT]))


def with_empty_columns(count: int) -> FreeCell:
    """The constructed deal with t8 (and, for two, t7) played home."""
    game = constructed()
    for _ in range(6):
        game.play("t8>f")
    if count == 2:
        for _ in range(6):
            game.play("t7>f")
    return game


def moves_of(game: FreeCell) -> list[str]:
    return [str(move) for move in game.legal_moves()]


def column(game: FreeCell, index: int) -> list[str]:
    return game.observation()["tableau"][index - 1]["cards"]


def test_microsoft_deals_match_their_published_layouts() -> None:
    """Deals 1 and 617 as Rosetta Code's task "Deal cards for FreeCell" prints them (row by
    row, from the algorithm Jim Horne disclosed), and deal 24 as Freecell Solver's web
    tests give it (``fc-solve/site/wml/src/js/web-fc-solve-tests.js``, column by column)."""
    assert format_cards(microsoft_deal(1)) == (
        "Jd 2d 9h Jc 5d 7h 7c 5h Kd Kc 9s 5s Ad Qc Kh 3h 2s Ks 9d Qd Js As Ah 3c "
        "4c 5c Ts Qh 4h Ac 4d 7s 3s Td 4s Th 8h 2c Jh 7d 6d 8s 8d Qs 6c 3d 8c Tc 6s 9c 2h 6h"
    )
    assert format_cards(microsoft_deal(617)) == (
        "7d Ad 5c 3s 5s 8c 2d Ah Td 7s Qd Ac 6d 8h As Kh Th Qc 3h 9d 6s 8d 3d Tc "
        "Kd 5h 9s 3c 8s 7h 4d Js 4c Qs 9c 9h 7c 6h 2c 2s 4s Ts 2h 5d Jc 6c Jh Qh Jd Ks Kc 4h"
    )
    game = FreeCell.from_microsoft(24)
    assert [" ".join(column(game, k)) for k in range(1, 9)] == [
        "4c 2c 9c 8c Qs 4s 2h",
        "5h Qh 3c Ac 3h 4h Qd",
        "Qc 9s 6h 9h 3s Ks 3d",
        "5d 2s Jc 5c Jh 6d As",
        "2d Kd Th Tc Td 8d",
        "7h Js Kh Ts Kc 7c",
        "Ah 5s 6s Ad 8h Jd",
        "7s 6c 7d 4d 8s 9d",
    ]


def test_microsoft_numbers_out_of_range_are_refused() -> None:
    for number in (0, -1, 2**31):
        with pytest.raises(InvalidDealError, match="run from 1 to 2147483647"):
            microsoft_deal(number)
    assert FreeCell.from_microsoft(2**31 - 1).deal == microsoft_deal(2**31 - 1)


def test_the_seeded_deal_is_laid_out_row_by_row() -> None:
    game = new_game("freecell", seed=8)
    deal = shuffled_deck("freecell", 8)
    assert list(game.deal) == deal
    assert column(game, 1) == [str(card) for card in deal[0::8]]
    assert [len(column(game, k)) for k in range(1, 9)] == [7, 7, 7, 7, 6, 6, 6, 6]
    observation = game.observation()
    assert observation["cells"] == [None] * 4
    assert observation["foundation"] == {"c": None, "d": None, "h": None, "s": None}
    assert game.hidden_cards() == []
    assert game.variant == {}


def test_a_run_moves_as_far_as_cells_and_columns_allow() -> None:
    game = constructed()
    assert run_start(parse_cards(LAYOUT[0])) == 2
    assert "t1>t2" in moves_of(game)  # five cards, four free cells: (4 + 1) * 1
    game.play("t3>c1")  # now (3 + 1) * 1 = 4
    assert "t1>t2" not in moves_of(game)
    with pytest.raises(IllegalMoveError, match=r"a run of 5 cards cannot move now.*at most 4"):
        game.play("t1>t2")
    game.undo()
    played = game.play("t1>t2")
    assert str(played.move) == "t1>t2"
    assert column(game, 2)[-5:] == ["9h", "8s", "7d", "6c", "5h"]
    assert column(game, 1) == ["Kc", "Qc"]


def test_a_run_into_an_empty_column_gets_half_the_room() -> None:
    game = with_empty_columns(1)
    assert column(game, 8) == []
    # four free cells and one empty column: 10 cards onto a card, 5 into the empty column
    into_empty = [move for move in moves_of(game) if move.startswith("t1") and move.endswith("t8")]
    assert into_empty == ["t1:9h>t8", "t1:8s>t8", "t1:7d>t8", "t1:6c>t8", "t1:5h>t8"]
    game.play("t3>c")
    game.play("t4>c")  # two free cells: 3 cards into the empty column
    assert [m for m in moves_of(game) if m.endswith(">t8") and m.startswith("t1")] == [
        "t1:7d>t8",
        "t1:6c>t8",
        "t1:5h>t8",
    ]
    with pytest.raises(IllegalMoveError, match="a run of 5 cards cannot move into an empty"):
        game.play("t1:9h>t8")
    played = game.play("t1>t8")  # the short form: the longest run that may go
    assert str(played.move) == "t1:7d>t8"
    assert column(game, 8) == ["7d", "6c", "5h"]


def test_two_empty_columns_double_the_room_again() -> None:
    game = with_empty_columns(2)
    for move in ("t3>c", "t4>c", "t5>c", "t6>c"):
        game.play(move)
    # no free cell, two empty columns: 4 cards onto a card, 2 into an empty column
    assert game.free_cells() == 0
    assert game.empty_columns() == 2
    assert "t1:6c>t7" in moves_of(game)
    assert "t1:7d>t7" not in moves_of(game)


def test_free_cells() -> None:
    game = constructed()
    assert str(game.play("t1>c3").move) == "t1>c3"
    assert game.observation()["cells"] == [None, None, "5h", None]
    with pytest.raises(IllegalMoveError, match="c3 holds 5h"):
        game.play("t2>c3")
    assert str(game.play("t2>c").move) == "t2>c1"  # the first empty cell
    with pytest.raises(IllegalMoveError, match="goes to a column or home"):
        game.play("c1>c2")
    with pytest.raises(InvalidMoveError, match="name the free cell"):
        game.play("c>t3")
    assert "c3>t1" in moves_of(game)  # 5h back on 6c
    game.play("t3>c")
    game.play("t4>c")
    with pytest.raises(IllegalMoveError, match="every free cell holds a card"):
        game.play("t5>c")
    assert not [m for m in moves_of(game) if ">c" in m]


def test_cards_go_home_by_suit_and_never_leave() -> None:
    game = constructed()
    assert game.play("t8>f").points == CARD_POINTS
    assert game.play("t8>f").points == CARD_POINTS
    assert game.observation()["foundation"] == {"c": "Ac", "d": None, "h": None, "s": "As"}
    with pytest.raises(IllegalMoveError, match="cards never leave the foundations"):
        game.play("f>t1")
    with pytest.raises(InvalidMoveError, match="a destination is a bare place"):
        game.play("t8>f:c")
    with pytest.raises(IllegalMoveError, match="4h has no place on the foundations yet"):
        game.play("t6>f")
    game.play("t7>c")  # Ah to a cell, then home from there
    assert "c1>f" in moves_of(game)
    assert game.tap("c1") is not None
    assert str(game.tap("c1")) == "c1>f"
    assert game.tap("t1") is None  # 5h has no place home
    assert game.score() == 2 * CARD_POINTS


def test_the_solved_game_plays_out_and_scores_with_its_time_bonus() -> None:
    game = FreeCell.from_microsoft(1)
    result = solve(game)
    assert result.outcome == "solved"
    played = None
    for move in result.moves:
        played = game.play(move)
    assert played is not None
    assert played.auto
    assert all(str(step.move).endswith(">f") and step.card is not None for step in played.auto)
    assert game.outcome() is not None
    assert game.outcome().won
    assert game.score() == 52 * CARD_POINTS
    assert game.time_bonus(60) == 540
    assert game.final_score(60.5) == 520 + 539
    assert game.final_score(None) == 520
    assert not game.can_undo()
    with pytest.raises(GameOverError):
        game.play("t1>c")


def test_undo_is_free_and_restores_the_score() -> None:
    game = constructed()
    with pytest.raises(UndoRefusedError, match="nothing to undo"):
        game.undo()
    start = game.observation()
    lines = ["t8>f", "t8>f", "t1>c2", "c2>t1", "t1>t2", "t7>c", "c1>f", "t3>c"]
    scores = []
    for move in lines:
        game.play(move)
        scores.append(game.score())
    for score in reversed(scores):
        assert game.score() == score
        assert game.can_undo()
        assert game.play("undo").move.word == "undo"
    assert game.observation() == start


def test_no_move_left_is_not_the_end() -> None:
    """Seed 6 after these seven moves: every cell full, no card to play; undo is the way
    out, so the game goes on until the player undoes or ends it."""
    game = FreeCell.from_seed(6)
    for move in ("t2>c1", "t1>c2", "t1>c3", "t1>c4", "c1>t1", "t5>c1", "t1>f"):
        game.play(move)
    assert game.legal_moves() == []
    assert game.outcome() is None
    assert game.can_undo()
    game.undo()
    assert game.legal_moves()
    game.play("end")
    assert game.outcome() is not None
    assert game.outcome().reason == "ended"


@pytest.mark.parametrize(
    ("move", "error", "reason"),
    [
        ("draw", InvalidMoveError, "no stock"),
        ("t9>t1", InvalidMoveError, "FreeCell has no t9"),
        ("t1>c5", InvalidMoveError, "FreeCell has no c5"),
        ("w>t1", InvalidMoveError, "FreeCell has no w"),
        ("t1>h", InvalidMoveError, "FreeCell has no h"),
        ("t1", InvalidMoveError, "say where to"),
        ("t1>t1", IllegalMoveError, "onto its own column"),
        ("t1:Kc>t2", IllegalMoveError, "does not head a run"),
        ("t1:5h>t2", IllegalMoveError, "cannot go on Tc"),
        ("t6>t1", IllegalMoveError, "no run of t6 goes on 5h"),
        ("c1>t1", IllegalMoveError, "c1 is empty"),
        ("t1:Qc>f", IllegalMoveError, "not the exposed card"),
    ],
)
def test_bad_moves_change_nothing(move: str, error: type[Exception], reason: str) -> None:
    game = constructed()
    before = (game.observation(), game.piles())
    with pytest.raises(error, match=reason):
        game.play(move)
    assert not game.is_legal(move)
    assert (game.observation(), game.piles()) == before


def test_a_record_replays_the_same_game(tmp_path: object) -> None:
    game = FreeCell.from_microsoft(617)
    result = solve(game)
    record = GameRecord(
        game="freecell", variant={}, deal=game.deal, moves=result.moves, elapsed=100.0
    )
    again = GameRecord.from_json(json.loads(record.dumps()))
    replayed = replay(again)
    assert replayed.error is None
    assert replayed.won
    assert replayed.score == 520 + 500


def test_other_games_refuse_free_cells() -> None:
    for name in ("klondike", "golf", "kansas", "expert"):
        game = new_game(name, seed=1)
        with pytest.raises(InvalidMoveError, match="has no c1"):
            game.play("t1>c1")


def test_typed_moves_are_legal_exactly_when_the_engine_lists_them() -> None:
    """On positions of random play, every move that can be typed (each place to each place,
    each run named by each of its column's cards) is accepted exactly when it is, or
    stands for, a move ``legal_moves()`` lists; an accepted one leaves the position the
    listed move does."""
    import random

    rng = random.Random(5)
    checked = accepted = 0
    for seed in range(8):
        game = FreeCell.from_seed(seed)
        for _ in range(60):
            listed = {str(move) for move in game.legal_moves()}
            if not listed:
                break
            sources = [f"t{k}" for k in range(1, 9)] + [f"c{k}" for k in range(1, 5)]
            for k in range(1, 9):
                sources += [f"t{k}:{card}" for card in column(game, k)]
            dests = [f"t{k}" for k in range(1, 9)] + [f"c{k}" for k in range(1, 5)] + ["c", "f"]
            for source in sources:
                for dest in dests:
                    move = f"{source}>{dest}"
                    checked += 1
                    if not game.is_legal(move):
                        assert move not in listed, move
                        continue
                    accepted += 1
                    after = game.copy()
                    canonical = str(after.play(move).move)
                    assert canonical in listed, (move, canonical)
                    listed_after = game.copy()
                    listed_after.play(canonical)
                    assert listed_after.piles() == after.piles()
            game.play(rng.choice(sorted(listed)))
    assert checked > 60_000, checked
    assert accepted > 3_000, accepted


MICROSOFT_LOST = 11_982
"""The one deal of Microsoft's first 32,000 that cannot be won (found by the Internet
FreeCell Project's players in 1995, since proved by exhaustive search)."""


def check_microsoft_verdicts(numbers: range) -> None:
    """Every deal of ``numbers`` is won, with a certificate the engine of record replays to a
    win, except 11,982, which the solver proves lost."""
    undecided, wrong = [], []
    for number in numbers:
        result = solve(FreeCell.from_microsoft(number), time_limit=60.0)
        expected = "unsolvable" if number == MICROSOFT_LOST else "solved"
        if result.outcome == "unknown":
            undecided.append(number)
        elif result.outcome != expected:
            wrong.append(number)
        elif expected == "solved":
            assert result.won_game().outcome() is not None
    assert not wrong, f"wrong verdicts: {wrong}"
    assert not undecided, f"undecided: {undecided}"


def test_microsoft_verdicts_on_a_sample() -> None:
    check_microsoft_verdicts(range(1, 201))
    check_microsoft_verdicts(range(MICROSOFT_LOST, MICROSOFT_LOST + 1))


MICROSOFT_LOST_TO_A_MILLION = (146_692, 186_216, 455_889, 495_505, 512_118, 517_776, 781_948)
"""The deals of Microsoft's numbering from 32,001 to 1,000,000 that cannot be won, as
exhaustive searches over the first million have found them."""


@pytest.mark.parametrize("number", MICROSOFT_LOST_TO_A_MILLION)
def test_the_lost_deals_beyond_32000_are_proved_lost_and_their_neighbours_won(
    number: int,
) -> None:
    assert solve(FreeCell.from_microsoft(number), time_limit=60.0).outcome == "unsolvable"
    for neighbour in (number - 1, number + 1):
        result = solve(FreeCell.from_microsoft(neighbour), time_limit=60.0)
        assert result.outcome == "solved", neighbour
        assert result.won_game().outcome() is not None


@pytest.mark.slow
def test_microsoft_verdicts_on_the_first_32000_deals() -> None:
    check_microsoft_verdicts(range(1, 32_001))


def test_microsoft_deals_are_a_numbering_of_the_game() -> None:
    """The generic way to a numbered deal (what the command line's ``--microsoft`` takes)
    deals what :func:`microsoft_deal` deals, and refuses what it refuses, in words."""
    assert FreeCell.from_number("microsoft", 617).deal == microsoft_deal(617)
    for number in (0, -1, 2**31, 10**12, True, "12", 1.0):
        with pytest.raises(InvalidDealError, match="Microsoft deals are numbered 1 to 2,147,"):
            FreeCell.from_number("microsoft", number)  # type: ignore[arg-type]
    with pytest.raises(InvalidDealError, match="no deal numbering 'pysol'"):
        FreeCell.from_number("pysol", 1)


def test_the_command_line_deals_microsoft_deals_by_number(tmp_path: Path) -> None:
    def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(PATIENCE), *args], input=stdin, capture_output=True, text=True, timeout=120
        )

    shown = run("deals", "show", "freecell", "--microsoft", "617", "--json")
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout) == [str(card) for card in microsoft_deal(617)]
    lost = run("solve", "freecell", "--microsoft", str(MICROSOFT_LOST), "--json")
    assert lost.returncode == 0, lost.stderr
    assert json.loads(lost.stdout)["outcome"] == "unsolvable"
    won = run("solve", "freecell", "--microsoft", "1", "--json")
    assert json.loads(won.stdout)["outcome"] == "solved"
    record = tmp_path / "24.json"
    played = run("play", "freecell", "--microsoft", "24", "--record", str(record), stdin="q\n")
    assert played.returncode == 0, played.stderr
    assert "Microsoft deal 24 (replay it with --microsoft 24)" in played.stdout
    assert GameRecord.from_json(json.loads(record.read_text())).deal == microsoft_deal(24)


@pytest.mark.parametrize(
    ("command", "number"),
    [
        *(("play", n) for n in ("0", "-1", "1000000000000", "abc", "2147483648", "1.5")),
        ("solve", "0"),
        ("deals show", "abc"),
    ],
)
def test_bad_microsoft_numbers_are_refused_in_one_line(command: str, number: str) -> None:
    """A usage error (status 2) whose one error line gives the numbers there are; nothing
    is dealt, nothing printed on standard output, no traceback."""
    result = subprocess.run(
        [str(PATIENCE), *command.split(), "freecell", "--microsoft", number],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if "error:" in line]
    assert errors == [
        f"patience {command} freecell: error: argument --microsoft: "
        "Microsoft deals are numbered 1 to 2,147,483,647"
    ]


def test_the_command_line_solves_and_plays_microsoft_deals_given_as_cards() -> None:
    def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(PATIENCE), *args], input=stdin, capture_output=True, text=True, timeout=120
        )

    lost = format_cards(microsoft_deal(MICROSOFT_LOST))
    solved = run("solve", "freecell", "--deal", lost, "--json")
    assert json.loads(solved.stdout)["outcome"] == "unsolvable"
    played = run("play", "freecell", "--deal", format_cards(microsoft_deal(1)), stdin="t6>c\nq\n")
    assert played.returncode == 0, played.stderr
    assert "t6>c1" in played.stdout
    assert "Free cells 3" in played.stdout
    for args in (
        ("play", "freecell", "--deal", lost.rsplit(" ", 1)[0]),  # a card short
        ("play", "freecell", "--deal", format_cards(microsoft_deal(1)), "--draw", "3"),
    ):
        refused = run(*args)
        assert refused.returncode != 0, args
        assert "Traceback" not in refused.stderr
