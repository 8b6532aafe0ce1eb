"""The ``patience`` command, run as a real process: exit statuses, output, no tracebacks."""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from layouts import solved_deal
from patience.cards import format_cards
from patience.cli import _parser as cli_parser
from patience.cli_deals import database_in_use
from patience.games import GAMES, Game, new_game
from patience.games.freecell import microsoft_deal
from patience.players import Accounts
from patience.server import Settings, create_app
from patience.server.launch import free_port
from patience.store.catalog import Certified, add, unused
from patience.store.db import make_engine, migrate, migrate_url
from patience.store.games import GameStore
from patience.tournaments import Tournaments

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
    [("{not json", "is not JSON"), ("[1, 2]", "JSON object"), ("\udcff", "not JSON")],
)
def test_replay_of_a_file_that_is_not_a_record(tmp_path: Path, content: str, reason: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content.encode("utf-8", "surrogateescape"))
    result = run("replay", str(path))
    assert result.returncode == 1
    assert reason in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_replay_of_a_missing_file_prints_no_result(tmp_path: Path, json_flag: list[str]) -> None:
    """No record, no replay: nothing on standard output (a result of 0 points for a file
    that was never read would be invented), the reason on standard error."""
    result = run("replay", str(tmp_path / "nowhere.json"), *json_flag)
    assert result.returncode == 1
    assert result.stdout == ""
    assert "cannot read" in result.stderr
    assert "nowhere.json" in result.stderr
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


@pytest.mark.parametrize("name", ["klondike", "golf", "kansas", "expert", "freecell"])
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
        (
            # Microsoft's deal 1: the 3d goes to a free cell, and tapped there it has no
            # place home yet
            ["freecell", "--deal", format_cards(microsoft_deal(1))],
            "t6>c\n3d\nq\n",
            ["FreeCell", "t6>c1", "Free cells 3", "3d: that card has no place on"],
        ),
    ],
)
def test_every_game_plays_in_the_terminal(
    args: list[str], script: str, expected: list[str]
) -> None:
    result = run("play", *args, stdin=script)
    assert result.returncode == 0, result.stderr
    for text in expected:
        assert text in result.stdout


# The command line as a tool: a version, errors in words on standard error with a
# non-zero status, no traceback, a closed pipe or Ctrl-C taken quietly, the database named.


def quiet_env(**more: str) -> dict[str, str]:
    """The environment without any PATIENCE_* setting of the caller's (but the test
    session's deal key: tests/conftest.py), plus ``more``."""
    kept = {k: v for k, v in os.environ.items() if not k.startswith("PATIENCE_")}
    return kept | {"PATIENCE_DEAL_KEY_FILE": os.environ["PATIENCE_DEAL_KEY_FILE"]} | more


def test_version() -> None:
    result = run("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"patience {importlib.metadata.version('patience')}"


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (["deals", "show", "klondike", "--seed", "abc"], "a seed is a whole number from 0 to"),
        (["solve", "golf", "--seed", "-1"], "a seed is a whole number"),
        (["play", "kansas", "--seed", "1e3"], "a seed is a whole number"),
        (["deals", "stats", "golf", "--count", "0"], "at least 1"),
        (["deals", "stats", "golf", "--time-limit", "nan"], "seconds"),
        (["deals", "pick", "golf", "--tier", "eleven"], "a tier is"),
        (["deals", "generate", "golf", "--stream", "x"], "a whole number"),
        (["serve", "--port", "abc"], "a port is"),
        (["serve", "--port", "99999"], "from 1 to 65535"),
        (["tournament", "standings", "t1", "--limit", "many"], "at least 1"),
        (["tournament", "create", "Cup", "golf", "--minutes", "inf", "--operator", "x"], "minutes"),
        (["play", "klondike", "--draw", "2"], "invalid choice"),
        (["deals", "show", "klondike", "--draw", "2", "--seed", "1"], "invalid choice"),
        # a game's own numbering of its deals is an option of that game alone
        (["play", "klondike", "--microsoft", "1"], "unrecognized arguments: --microsoft"),
        ([], "required"),
    ],
)
def test_bad_command_lines_are_refused_in_words(args: list[str], reason: str) -> None:
    """A usage error: status 2, the reason on standard error, nothing on standard output,
    and no name from inside the program (argparse says "invalid _seed value" for a type
    function that raises anything but its own error)."""
    result = run(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert reason in result.stderr
    assert "Traceback" not in result.stderr
    assert "invalid" not in result.stderr.replace("invalid choice", "")
    assert " value:" not in result.stderr


def migrated(database: Path) -> str:
    """``database`` made and migrated, as ``patience db migrate`` leaves it: its URL."""
    url = f"sqlite:///{database}"
    migrate_url(url)
    return url


def test_one_seed_range_for_the_command_line_and_the_server(tmp_path: Path) -> None:
    """The largest seed the command line takes is the largest the server deals, and one
    past it is refused by both."""
    largest = 2**63 - 1
    shown = run("deals", "show", "golf", "--seed", str(largest), "--json")
    assert shown.returncode == 0, shown.stderr
    past = run("deals", "show", "golf", "--seed", str(largest + 1))
    assert past.returncode == 2
    assert f"from 0 to {largest:,}" in past.stderr
    settings = Settings(
        database_url=migrated(tmp_path / "seeds.sqlite3"), catalog_refill=0, rate_starts=None
    )
    with TestClient(create_app(settings)) as client:
        body = {"game": "golf", "mode": "practice", "variant": {"wrap": False}}
        played = client.post("/api/sessions", json=body | {"seed": str(largest)})
        assert played.status_code == 201, played.text
        assert played.json()["seed"] == largest
        refused = client.post("/api/sessions", json=body | {"seed": str(largest + 1)})
        assert refused.status_code in (400, 422)
        assert f"{largest:,}" in refused.text
    deal = [str(c) for c in new_game("golf", seed=largest).deal]
    assert json.loads(shown.stdout) == deal
    tableau = played.json()["board"]["tableau"]
    assert [column["cards"][0] for column in tableau] == deal[:7]  # the same deal


def test_deals_show_takes_the_variant_options_of_the_other_deals_commands() -> None:
    """The shuffle depends on the game and the seed; the variant options are taken (and
    checked) as ``deals stats``, ``generate`` and the rest take them."""
    plain = run("deals", "show", "golf", "--seed", "3")
    wrap = run("deals", "show", "golf", "--wrap", "--seed", "3")
    draw = run("deals", "show", "klondike", "--draw", "3", "--seed", "3", "--json")
    assert plain.returncode == wrap.returncode == draw.returncode == 0
    assert plain.stdout == wrap.stdout
    assert json.loads(draw.stdout) == [str(c) for c in new_game("klondike", seed=3).deal]


def closed_pipe_run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    """Runs ``patience ARGS`` writing into a pipe whose reader has already gone (as under
    ``| head -2`` once head has its lines): the status and standard error."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        process = subprocess.run(
            [str(PATIENCE), *args], stdout=writer, stderr=subprocess.PIPE, env=env, timeout=120
        )
    finally:
        os.close(writer)
    return process.returncode, process.stderr.decode()


def test_a_reader_that_stops_reading_is_no_error(tmp_path: Path) -> None:
    """``patience deals export ... | head -2``: no BrokenPipeError, no traceback; the status
    is that of a program stopped by SIGPIPE (128 + 13), as other tools give it."""
    status, errors = closed_pipe_run("deals", "show", "expert", "--seed", "1")
    assert status == 141
    assert errors == ""
    database = tmp_path / "catalog.sqlite3"
    engine = make_engine(f"sqlite:///{database}")
    migrate(engine)
    store = GameStore(engine)
    for seed in range(50):
        store.add_to_catalog("golf", {"wrap": True}, Certified(seed, 10, 0.01, 40, None))
    engine.dispose()
    env = quiet_env(PATIENCE_DATABASE_URL=f"sqlite:///{database}")
    status, errors = closed_pipe_run("deals", "export", "golf", "--wrap", env=env)
    assert status == 141
    assert "Traceback" not in errors
    assert "Error" not in errors
    head = subprocess.run(
        f"'{PATIENCE}' deals export golf --wrap | head -2",
        shell=True,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert len(head.stdout.splitlines()) == 2
    assert "Traceback" not in head.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["deals", "export", "golf"],
        ["deals", "report"],
        ["deals", "pick", "golf", "--tier", "3"],
        ["tournament", "list"],
        ["tournament", "standings", "t1"],
    ],
)
def test_a_command_run_away_from_the_database_makes_none(tmp_path: Path, args: list[str]) -> None:
    """Run in a folder without the server's SQLite file, a command that reads the database
    says where it looked and makes no empty database there."""
    result = subprocess.run(
        [str(PATIENCE), *args],
        cwd=tmp_path,
        env=quiet_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1
    assert f"no database at {tmp_path / 'patience.sqlite3'}" in result.stderr
    assert "PATIENCE_DATABASE_URL" in result.stderr
    assert "Traceback" not in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_commands_name_the_database_they_use(tmp_path: Path) -> None:
    database = tmp_path / "here.sqlite3"
    env = quiet_env(PATIENCE_DATABASE_URL=migrated(database))
    made = subprocess.run(
        [str(PATIENCE), "users", "create", "Ada", "--operator"],
        input="a long enough password\n",
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert made.returncode == 0, made.stderr
    assert f"database {database}" in made.stderr
    listed = subprocess.run(
        [str(PATIENCE), "tournament", "list", "--json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert listed.returncode == 0, listed.stderr
    assert json.loads(listed.stdout) == {"tournaments": []}
    assert f"database {database}" in listed.stderr
    password = "postgresql+psycopg://patience:secret@db.example/patience"
    assert database_in_use(password) == "postgresql+psycopg://patience:***@db.example/patience"


@pytest.mark.parametrize(("game", "bonus"), [("klondike", True), ("golf", True), ("kansas", False)])
def test_help_promises_a_time_bonus_only_where_there_is_one(game: str, bonus: bool) -> None:
    result = run("play", game, "--seed", "5", stdin="help\nq\n")
    assert result.returncode == 0, result.stderr
    assert ("time bonus" in result.stdout) is bonus
    expert = run("play", "expert", "--seed", "5", stdin="?\nq\n")
    assert "take back the last move" in expert.stdout
    assert "time bonus" not in expert.stdout


def test_serve_refuses_a_port_out_of_range_from_the_environment(tmp_path: Path) -> None:
    env = quiet_env(
        PATIENCE_PORT="99999", PATIENCE_DATABASE_URL=f"sqlite:///{tmp_path / 'x.sqlite3'}"
    )
    result = subprocess.run(
        [str(PATIENCE), "serve"], env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 1
    assert result.stderr == "patience: PATIENCE_PORT='99999': at most 65535\n"
    assert "serving on" not in result.stderr


def test_serve_refuses_a_port_in_use(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = quiet_env(PATIENCE_DATABASE_URL=migrated(tmp_path / "x.sqlite3"))
        result = subprocess.run(
            [str(PATIENCE), "serve", "--port", str(port)],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert result.returncode == 1
    assert f"cannot listen on port {port}: the port is in use" in result.stderr
    assert "Traceback" not in result.stderr


def test_serving_on_is_said_once_the_server_answers_and_ctrl_c_stops_it(tmp_path: Path) -> None:
    """ "serving on" comes once the port answers, so a script may wait for the line; Ctrl-C
    (SIGINT to every process of the command, as a terminal sends it) stops the server and
    its solver process cleanly, with no traceback."""
    database = tmp_path / "served.sqlite3"
    port = free_port()
    server = subprocess.Popen(
        [str(PATIENCE), "serve", "--port", str(port)],
        env=quiet_env(PATIENCE_DATABASE_URL=migrated(database)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a terminal's foreground job
        # and, as a foreground job, Ctrl-C not ignored: a job started in the background of
        # a script (a CI runner's) inherits SIGINT ignored, and a server whose SIGINT was
        # ignored stops on it (uvicorn takes it) but cannot report it
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:  # the server's error output, line by line, until it ends
        assert server.stderr is not None
        for line in server.stderr:
            lines.put(line)
        lines.put("")

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    before = []
    try:
        while True:  # the JSON log lines of the start come first
            line = lines.get(timeout=180)
            if not line or line.startswith("patience: "):
                break
            before.append(json.loads(line)["message"])
        assert line.strip() == (
            f"patience: serving on http://127.0.0.1:{port}/ (database {database})"
        ), (line, before)
        assert "Application startup complete." in before
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=30) as answer:
            assert answer.status == 200  # at once: no retry needed
        os.killpg(server.pid, signal.SIGINT)
        status = server.wait(timeout=120)
        reader.join(timeout=60)
        rest = "".join(iter(lines.get_nowait, ""))
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
    assert status == 128 + signal.SIGINT, rest  # stopped by Ctrl-C, as a shell reports it
    assert "Traceback" not in rest
    assert "serving on" not in rest  # said once


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (
            ["deals", "calibrate", "golf", "--count", "1", "--write", "{tmp}/no/cal.json"],
            "no folder",
        ),
        (
            [
                "deals",
                "train-model",
                "golf",
                "--training-set",
                "{tmp}/no/t.jsonl",
                "--version",
                "v1",
            ],
            "no folder",
        ),
        (
            ["deals", "generate", "golf", "--model", "{tmp}/model.json"],
            "cannot read the rating model",
        ),
        (["tournament", "verify", "{tmp}/published.json"], "No such file or directory"),
        (["tournament", "verify", "http://127.0.0.1:{port}/"], "Connection refused"),
        (["solve", "klondike", "--record", "{tmp}/game.json"], "cannot read"),
        (["play", "golf", "--deal", "Ah Kh"], "52"),
    ],
)
def test_failures_at_run_time_are_one_line(tmp_path: Path, args: list[str], reason: str) -> None:
    """Status 1 and one line on standard error, saying what went wrong and where, with no
    traceback and nothing of Python's wording ("[Errno 2]", "<urlopen error")."""
    filled = [arg.format(tmp=tmp_path, port=free_port()) for arg in args]
    result = run(*filled)
    assert result.returncode == 1
    assert reason in result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert "Errno" not in result.stderr
    assert "urlopen" not in result.stderr


def test_retiring_deals_and_cancelling_a_tournament_are_confirmed_with_yes(tmp_path: Path) -> None:
    """Without ``--yes`` each says what it would do to how many, and changes nothing."""
    url = migrated(tmp_path / "confirm.sqlite3")
    env = quiet_env(PATIENCE_DATABASE_URL=url)
    engine = make_engine(url)
    golf = {"wrap": True}
    rating = {"tier": 4, "score": 0.4, "version": 1}
    with engine.begin() as connection:
        for seed in range(1, 4):
            add(
                connection,
                "golf",
                golf,
                Certified(seed, 9, 0.01, 40, rating),
                at=1.0,
                origin="random",
            )

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(PATIENCE), *args], env=env, capture_output=True, text=True, timeout=120
        )

    asked = cli("deals", "retire", "--origin", "random")
    assert asked.returncode == 1
    assert "would retire 3 unused deals of origin random (every game)" in asked.stderr
    assert "run again with --yes" in asked.stderr
    with engine.connect() as connection:
        assert unused(connection, "golf", golf) == 3
    retired = cli("deals", "retire", "--origin", "random", "--game", "golf", "--yes")
    assert retired.returncode == 0, retired.stderr
    assert "3 unused deals of origin random (golf) retired" in retired.stdout
    with engine.connect() as connection:
        assert unused(connection, "golf", golf) == 0
        add(connection, "golf", golf, Certified(9, 9, 0.01, 40, rating), at=1.0, origin="random")
        connection.commit()

    operator = Accounts(engine).create("Ada", "a long enough password", operator=True)
    cups = Tournaments(GameStore(engine))
    now = time.time()
    made = cups.create(
        operator,
        name="Cup",
        game="golf",
        variant=golf,
        policy="shared",
        tier=None,
        opens_at=now,
        closes_at=now + 3600,
    )
    tid = str(made["id"])
    asked = cli("tournament", "cancel", tid, "--operator", "Ada")
    assert asked.returncode == 1
    assert f"would cancel tournament {tid} (Cup, running, 0 entrants)" in asked.stderr
    assert "run again with --yes" in asked.stderr
    assert cups.public(tid)["closing"] is None
    cancelled = cli("tournament", "cancel", tid, "--operator", "Ada", "--yes")
    assert cancelled.returncode == 0, cancelled.stderr
    assert cups.public(tid)["closing"]["cancelled"] is True
    again = cli("tournament", "cancel", tid, "--operator", "Ada")
    assert again.returncode == 1
    assert "closed already" in again.stderr
    engine.dispose()


def _command_paths(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[str]:
    """Every command of ``parser`` as typed ("deals retire"), down to the games' own
    subcommands, which are not commands of their own ("deals show golf")."""
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not actions or set(actions[0].choices) <= set(GAMES):
        return [" ".join(path)]
    return [
        found
        for name, sub in actions[0].choices.items()
        for found in _command_paths(sub, (*path, name))
    ]


def test_every_command_is_in_the_docs() -> None:
    """docs/cli.md has a line for every command, so none goes missing from it again."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "cli.md").read_text()
    commands = _command_paths(cli_parser())
    assert len(commands) > 30
    missing = [command for command in commands if f"`patience {command}" not in text]
    assert missing == []


def test_deals_key_says_when_it_has_just_made_the_key(tmp_path: Path) -> None:
    path = tmp_path / "keys" / "deal.key"
    env = quiet_env(PATIENCE_DEAL_KEY_FILE=str(path))
    runs = [
        subprocess.run(
            [str(PATIENCE), "deals", "key"], env=env, capture_output=True, text=True, timeout=120
        )
        for _ in range(2)
    ]
    assert [run.returncode for run in runs] == [0, 0], runs[0].stderr
    assert f"no deal key was there: a new one is made now, in {path}" in runs[0].stdout
    assert "made now" not in runs[1].stdout
    assert f"deal key: {path} (fingerprint " in runs[1].stdout
    assert path.exists()
