"""The ``patience`` command, run as a real process: exit statuses, output, no tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from layouts import solved_deal
from patience.games import Game, new_game

PATIENCE = Path(sys.executable).parent / "patience"


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(PATIENCE), *args], input=stdin, capture_output=True, text=True, timeout=60
    )


def write_record(tmp_path: Path, data: Any, name: str = "game.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def won_game() -> tuple[Game, list[str]]:
    """The constructed deal played out (the hand to the foundation, then the columns), with
    the moves played."""
    game = new_game("klondike", deal=solved_deal(), variant={"draw": 1})
    moves = ["draw", "w>f"] * 24
    for move in moves:
        game.play(move)
    while not game.is_over():
        tableau = game.observation()["tableau"]
        moves.append(f"t{next(i for i, c in enumerate(tableau, start=1) if c['cards'])}>f")
        game.play(moves[-1])
    return game, moves


def winning_record() -> dict[str, Any]:
    game, moves = won_game()
    return {
        "game": "klondike",
        "variant": {"draw": 1},
        "deal": [str(card) for card in game.deal],
        "moves": moves,
        "elapsed": 100,
    }


def test_replay_of_a_won_game(tmp_path: Path) -> None:
    path = write_record(tmp_path, winning_record())
    game, _ = won_game()
    result = run("replay", str(path), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["won"] is True
    assert data["foundation"] == 52
    assert data["error"] is None
    assert data["score"] == game.score() + (300 - 100) * 52 // 52
    text = run("replay", str(path))
    assert text.returncode == 0
    assert "won: yes" in text.stdout


def test_replay_reads_standard_input() -> None:
    result = run("replay", "-", "--json", stdin=json.dumps(winning_record()))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["won"] is True


@pytest.mark.parametrize(
    ("change", "index", "reason"),
    [
        ({"moves": ["t9>f"]}, 0, "column"),
        ({"moves": ["draw", "fly"]}, 1, "fly"),
        ({"variant": {"draw": 2}}, None, "draw"),
        ({"game": "poker"}, None, "poker"),
    ],
)
def test_replay_errors_exit_1_with_reason(
    tmp_path: Path, change: dict[str, Any], index: int | None, reason: str
) -> None:
    record = winning_record() | change
    path = write_record(tmp_path, record)
    result = run("replay", str(path), "--json")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    error = json.loads(result.stdout)["error"]
    assert error["index"] == index
    assert reason in error["reason"]
    assert reason in result.stderr


def test_replay_of_a_short_deal(tmp_path: Path) -> None:
    record = winning_record()
    record["deal"] = record["deal"][:51]
    result = run("replay", str(write_record(tmp_path, record)))
    assert result.returncode == 1
    assert "51" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("content", "reason"),
    [("{not json", "is not JSON"), ("[1, 2]", "JSON object"), ("\udcff", "")],
)
def test_replay_of_a_file_that_is_not_a_record(tmp_path: Path, content: str, reason: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content.encode("utf-8", "surrogateescape"))
    result = run("replay", str(path))
    assert result.returncode == 1
    assert reason in result.stderr
    assert "Traceback" not in result.stderr


def test_replay_of_a_missing_file(tmp_path: Path) -> None:
    result = run("replay", str(tmp_path / "nowhere.json"))
    assert result.returncode == 1
    assert "cannot read" in result.stderr
    assert "Traceback" not in result.stderr


def test_deals_show_matches_the_engine() -> None:
    result = run("deals", "show", "klondike", "--seed", "42", "--json")
    assert result.returncode == 0
    assert json.loads(result.stdout) == [str(c) for c in new_game("klondike", seed=42).deal]
    plain = run("deals", "show", "klondike", "--seed", "42")
    assert plain.stdout.split() == json.loads(result.stdout)


def test_bad_arguments_are_usage_errors() -> None:
    result = run("play", "klondike", "--draw", "2")
    assert result.returncode == 2
    assert "invalid choice" in result.stderr
    negative = run("deals", "show", "klondike", "--seed", "-4")
    assert negative.returncode == 2


def test_play_a_scripted_game_and_write_its_record(tmp_path: Path) -> None:
    record_path = tmp_path / "played.json"
    result = run(
        "play", "klondike", "--seed", "7", "--record", str(record_path), stdin="d\nd\nu\nbogus\nq\n"
    )
    assert result.returncode == 0, result.stderr
    assert "seed 7" in result.stdout
    assert "bogus" in result.stdout
    record = json.loads(record_path.read_text())
    assert record["moves"][:2] == ["draw", "draw"]
    assert record["moves"][-1] == "end"
    replayed = run("replay", str(record_path), "--json")
    assert replayed.returncode == 0, replayed.stderr


def test_play_with_a_bad_deal_says_why() -> None:
    result = run("play", "klondike", "--deal", "Ah Ah")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("patience: ")


@pytest.mark.parametrize("name", ["klondike", "golf", "kansas", "expert"])
def test_every_game_replays_from_its_record(tmp_path: Path, name: str) -> None:
    game = new_game(name, seed=11)
    moves = []
    for _ in range(25):
        legal = game.legal_moves()
        if not legal:
            break
        moves.append(str(legal[len(moves) % len(legal)]))
        game.play(moves[-1])
    record = {
        "game": name,
        "variant": game.variant,
        "deal": [str(card) for card in game.deal],
        "moves": moves,
    }
    result = run("replay", str(write_record(tmp_path, record)), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["moves"] == len(moves)
    assert data["score"] == game.score()
    assert data["foundation"] == game.cards_on_foundation()
    shown = run("deals", "show", name, "--seed", "11")
    assert shown.stdout.split() == [str(card) for card in new_game(name, seed=11).deal]


@pytest.mark.parametrize(
    ("args", "script", "expected"),
    [
        (["golf", "--wrap", "--seed", "3"], "1\n \nu\nq\n", ["Golf · wrapping", "t1  +10"]),
        (["kansas", "--seed", "2026"], "\nmoves\nq\n", ["Kansas", "Reserve [12]"]),
        (["expert", "--seed", "7"], "t6>f\nq\n", ["Solitaire Expert", "t6>f  +1"]),
    ],
)
def test_every_game_plays_in_the_terminal(
    args: list[str], script: str, expected: list[str]
) -> None:
    result = run("play", *args, stdin=script)
    assert result.returncode == 0, result.stderr
    for text in expected:
        assert text in result.stdout
