"""Operating the server: settings checked at start (one line, no traceback, a non-zero
exit), ``patience settings`` with secrets masked, migrations as a step of their own
(``patience db migrate | status``; a server and the other commands refuse a database that
is not migrated), backups taken while games run and restored into a fresh database where
every game's log replays, ``/healthz``, ``/readyz`` and ``/metrics``, the access log's JSON
lines, one catalog refiller among several processes, the solver processes' memory bound,
and the writing thread's group commits."""

from __future__ import annotations

import json
import os
import random
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import create_engine, func, insert, select, text

import postgres
from patience.records import replay_json
from patience.server import Settings, create_app, launch
from patience.server.background import REFILL_LOCK, Background
from patience.server.pool import PoolFullError, SolverPool, first_winning_move, states_for
from patience.server.settings import SettingsError
from patience.store.db import events, head_revision, make_engine, migrate_url, sessions
from patience.store.games import GameStore
from patience.store.writer import Writer

ROOT = Path(__file__).resolve().parent.parent
WAIT = 60.0


def wait_for(condition: Any, what: str, timeout: float = WAIT) -> Any:
    """``condition()``'s first true value, asked until ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout} s")
        time.sleep(0.05)


def clean_env(**settings: str) -> dict[str, str]:
    """This process's environment without its ``PATIENCE_*``, with ``settings``."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("PATIENCE_")}
    return env | settings


def patience(
    *args: str, env: dict[str, str], cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "patience.cli", *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def closed_port() -> int:
    """A loopback port nobody listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# -- settings ------------------------------------------------------------------------------


BAD_SETTINGS = [
    ({"PATIENCE_PORT": "abc"}, "PATIENCE_PORT='abc': not a whole number"),
    ({"PATIENCE_PORT": "99999"}, "PATIENCE_PORT='99999': at most 65535"),
    ({"PATIENCE_RATE_MOVES": "20/fortnight"}, "PATIENCE_RATE_MOVES='20/fortnight': a rate is"),
    ({"PATIENCE_DATABASE_URL": "mysql://u@h/db"}, "a database is SQLite or PostgreSQL"),
    ({"PATIENCE_DATABASE_URL": "not a url"}, "PATIENCE_DATABASE_URL='not a url': not a database"),
    ({"PATIENCE_DATABASE_URL": "sqlite:////no/such/folder/x.db"}, "the folder /no/such/folder"),
    ({"PATIENCE_TRUSTED_PROXIES": "nginx"}, "'nginx' is not an IP address"),
    ({"PATIENCE_SIGNUP": "sometimes"}, "PATIENCE_SIGNUP='sometimes': one of 'open' or 'closed'"),
    ({"PATIENCE_WORKERS": "2"}, "several server processes need PostgreSQL"),
    ({"PATIENCE_PROT": "8000"}, "PATIENCE_PROT is not a setting (did you mean PATIENCE_PORT?)"),
    ({"PATIENCE_SESSION_DAYS": "inf"}, "PATIENCE_SESSION_DAYS='inf': not a finite number"),
    ({"PATIENCE_CERTIFY_SECONDS": "nan"}, "PATIENCE_CERTIFY_SECONDS='nan': not a finite number"),
    ({"PATIENCE_TRUSTED_PROXIES": "*"}, "'*' would let every client say its own address"),
    ({"PATIENCE_WORKER_CHECK_SECONDS": "1"}, "PATIENCE_WORKER_CHECK_SECONDS='1': at least 5"),
]


SETTING_COMMANDS = [("serve",), ("db", "migrate"), ("users", "list")]
"""The commands that read the settings. Each bad setting meets one of them in ``make test``
(in turn) and all of them in ``make test-slow``."""


@pytest.mark.parametrize(
    ("settings", "said", "command"),
    [
        pytest.param(
            settings,
            said,
            command,
            id=f"{index}-{'-'.join(command)}",
            marks=() if index % len(SETTING_COMMANDS) == turn else (pytest.mark.slow,),
        )
        for index, (settings, said) in enumerate(BAD_SETTINGS)
        for turn, command in enumerate(SETTING_COMMANDS)
    ],
)
def test_a_bad_setting_is_one_line_and_a_non_zero_exit(
    settings: dict[str, str], said: str, command: tuple[str, ...], tmp_path: Path
) -> None:
    done = patience(*command, env=clean_env(**settings), cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("patience: ")
    assert said in done.stderr
    assert "Traceback" not in done.stderr
    assert not list(tmp_path.iterdir())  # nothing made


def test_an_unreachable_postgresql_is_one_line(tmp_path: Path) -> None:
    # the server exits 75, which systemd restarts (a database may be down a moment at
    # boot); the operator's commands 1
    url = f"postgresql://patience:secret@127.0.0.1:{closed_port()}/patience"
    for command, status in ((("serve",), 75), (("db", "migrate"), 1), (("db", "status"), 1)):
        done = patience(*command, env=clean_env(PATIENCE_DATABASE_URL=url), cwd=tmp_path)
        assert done.returncode == status, done.stderr
        assert done.stderr.count("\n") == 1, done.stderr
        assert "cannot use the database postgresql+psycopg://patience:***@127.0.0.1" in done.stderr
        assert "secret" not in done.stderr
        assert "Connection refused" in done.stderr


def test_a_password_in_the_urls_query_is_masked(tmp_path: Path) -> None:
    url = (
        f"postgresql://patience@127.0.0.1:{closed_port()}/patience?password=s3cret&sslpassword=k3y"
    )
    env = clean_env(PATIENCE_DATABASE_URL=url)
    shown = patience("settings", env=env, cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "s3cret" not in shown.stdout
    assert "k3y" not in shown.stdout
    assert "?password=***&sslpassword=***" in shown.stdout
    for command in (("serve",), ("db", "status")):
        done = patience(*command, env=env, cwd=tmp_path)
        assert done.returncode != 0
        assert "cannot use the database" in done.stderr
        assert "s3cret" not in done.stderr, done.stderr
        assert "k3y" not in done.stderr, done.stderr
    bad = patience("settings", env=env | {"PATIENCE_DATABASE_URL": "mysql://a@b/c?password=pw9"})
    assert bad.returncode == 1
    assert "pw9" not in bad.stderr, bad.stderr


FLOAT_SETTINGS = [
    name
    for name, field in Settings.model_fields.items()
    if field.annotation in (float, float | None)
]


@pytest.mark.parametrize("name", FLOAT_SETTINGS)
def test_a_setting_of_seconds_or_days_is_a_finite_number_within_its_bound(name: str) -> None:
    key = f"PATIENCE_{name.upper()}"
    for value in ("inf", "-inf", "nan", "Infinity", "1e999"):
        with pytest.raises(SettingsError) as refused:
            Settings.from_env({key: value})
        assert str(refused.value) == f"{key}={value!r}: not a finite number"
    bounds = [rule.le for rule in Settings.model_fields[name].metadata if hasattr(rule, "le")]
    assert bounds, f"{key} has no upper bound"
    with pytest.raises(SettingsError, match=f"{key}='1e300': at most"):
        Settings.from_env({key: "1e300"})
    Settings.from_env({key: str(bounds[0])})  # the bound itself is taken


def test_the_float_settings_are_found() -> None:
    assert {"session_days", "certify_seconds", "hint_seconds", "time_limit"} <= set(FLOAT_SETTINGS)


def test_an_infinite_setting_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    for key in ("PATIENCE_CERTIFY_SECONDS", "PATIENCE_HINT_SECONDS", "PATIENCE_SESSION_DAYS"):
        done = patience("settings", env=clean_env(**{key: "inf"}), cwd=tmp_path)
        assert done.returncode == 1
        assert done.stderr == f"patience: {key}='inf': not a finite number\n"
    huge = "9" * 400 + "/s"
    done = patience("settings", env=clean_env(PATIENCE_RATE_MOVES=huge), cwd=tmp_path)
    assert done.returncode == 1
    assert "a rate's COUNT is a finite number" in done.stderr


def test_trusted_proxies_covering_every_address_are_warned_of(tmp_path: Path) -> None:
    for networks in ("0.0.0.0/0", "127.0.0.1,::/0"):
        env = clean_env(PATIENCE_TRUSTED_PROXIES=networks)
        shown = patience("settings", env=env, cwd=tmp_path)
        assert shown.returncode == 0, shown.stderr
        assert shown.stderr.startswith("patience: warning: PATIENCE_TRUSTED_PROXIES has "), shown
        assert "every address" in shown.stderr
        # the server logs it at start (here before it finds no database and stops)
        served = patience("serve", env=env, cwd=tmp_path)
        assert served.returncode == 1
        logged = [json.loads(line) for line in served.stderr.splitlines() if line[:1] == "{"]
        assert any(
            line["level"] == "warning" and "every address" in line["message"] for line in logged
        ), served.stderr
    quiet = patience("settings", env=clean_env(PATIENCE_TRUSTED_PROXIES="10.0.0.0/8"))
    assert quiet.returncode == 0
    assert quiet.stderr == ""


def test_settings_are_printed_with_secrets_masked(tmp_path: Path) -> None:
    env = clean_env(
        PATIENCE_DATABASE_URL="postgresql://patience:s3cret@db.example.org/patience",
        PATIENCE_METRICS_TOKEN="t0ken",
        PATIENCE_WORKERS="3",
        PATIENCE_RATE_HINTS="5/m",
    )
    shown = patience("settings", env=env, cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "s3cret" not in shown.stdout
    assert "t0ken" not in shown.stdout
    lines = {line.split("=", 1)[0]: line for line in shown.stdout.splitlines()}
    assert set(lines) == {f"PATIENCE_{name.upper()}" for name in Settings.model_fields}
    url = "PATIENCE_DATABASE_URL=postgresql+psycopg://patience:***@db.example.org/patience"
    assert lines["PATIENCE_DATABASE_URL"].startswith(url)
    assert lines["PATIENCE_METRICS_TOKEN"].startswith("PATIENCE_METRICS_TOKEN=***")
    assert re.match(r"PATIENCE_WORKERS=3\s+# environment", lines["PATIENCE_WORKERS"])
    assert re.match(r"PATIENCE_RATE_HINTS=5/m,5\s+# environment", lines["PATIENCE_RATE_HINTS"])
    assert re.match(r"PATIENCE_PORT=8000\s+# default", lines["PATIENCE_PORT"])
    as_json = json.loads(patience("settings", "--json", env=env, cwd=tmp_path).stdout)
    assert as_json["PATIENCE_METRICS_TOKEN"] == "***"


def test_every_setting_is_in_the_settings_table_and_the_example_file() -> None:
    guide = (ROOT / "docs" / "settings.md").read_text()
    example = (ROOT / "deploy" / "patience.env.example").read_text()
    defaults = Settings.from_env({}).env_values()
    for name, default in defaults.items():
        row = next((line for line in guide.splitlines() if line.startswith(f"| `{name}`")), None)
        assert row is not None, f"docs/settings.md has no row for {name}"
        shown = row.split("|")[2].strip()
        assert shown == (f"`{default}`" if default else "(none)"), (name, shown)
    named = set(re.findall(r"^#? ?(PATIENCE_[A-Z_]+)=", example, re.MULTILINE))
    assert named <= set(defaults)
    Settings.from_env(  # the example's values are all good ones
        dict(
            line.split("=", 1)
            for line in example.splitlines()
            if line.startswith("PATIENCE_") and "DATABASE_URL" not in line
        )
        | {"PATIENCE_DATABASE_URL": "postgresql://patience@/patience"}
    )


def test_settings_from_the_environment_are_checked_in_process() -> None:
    with pytest.raises(SettingsError, match="PATIENCE_MAX_BODY_BYTES='-1': at least 1"):
        Settings.from_env({"PATIENCE_MAX_BODY_BYTES": "-1"})
    settings = Settings.from_env(
        {"PATIENCE_DATABASE_URL": "postgres://a@b/c", "PATIENCE_TRUSTED_PROXIES": " 10.0.0.0/8 ,"}
    )
    assert settings.database_url == "postgresql+psycopg://a@b/c"
    assert settings.trusted_proxies == ["10.0.0.0/8"]
    assert Settings.from_env({"PATIENCE_TIME_LIMIT": ""}).time_limit is None


# -- migrations ----------------------------------------------------------------------------


def test_migrating_is_a_step_of_its_own(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    env = clean_env(PATIENCE_DATABASE_URL=f"sqlite:///{database}")
    status = patience("db", "status", env=env)
    assert status.returncode == 1
    assert "run `patience db migrate`" in status.stdout
    assert not database.exists()  # asking made nothing
    refused = patience("serve", env=env)
    assert refused.returncode == 1
    assert "no database at" in refused.stderr
    assert not database.exists()

    # an empty database file is not a migrated one either
    database.touch()
    refused = patience("serve", env=env)
    assert refused.returncode == 1
    assert "has no tables yet: run `patience db migrate` first" in refused.stderr

    migrated = patience("db", "migrate", env=env)
    assert migrated.returncode == 0, migrated.stderr
    assert f"migrated from nothing to {head_revision()}" in migrated.stdout
    again = patience("db", "migrate", env=env)
    assert "already at the newest migration" in again.stdout
    status = patience("db", "status", "--json", env=env)
    assert status.returncode == 0
    assert json.loads(status.stdout)["current"] == head_revision()

    # a database left at an older migration: the server says so and stops
    engine = create_engine(f"sqlite:///{database}")
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '0006'"))
    engine.dispose()
    refused = patience("serve", env=env)
    assert refused.returncode == 1
    assert f"is at migration 0006, not the newest ({head_revision()})" in refused.stderr
    assert "Traceback" not in refused.stderr
    with (
        pytest.raises(Exception, match="not the newest"),
        TestClient(create_app(Settings(database_url=f"sqlite:///{database}", catalog_refill=0))),
    ):
        pass


def test_a_database_newer_than_the_code_is_said_plainly(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    url = f"sqlite:///{database}"
    migrate_url(url)
    newer = f"{int(head_revision()) + 1:04d}"
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = :v"), {"v": newer})
    engine.dispose()
    said = (
        f"is at migration {newer}, newer than this patience's newest ({head_revision()}): "
        "run the patience that migrated it, or restore the backup taken before migrating"
    )
    env = clean_env(PATIENCE_DATABASE_URL=url)
    for command in (("db", "status"), ("db", "migrate"), ("serve",)):
        done = patience(*command, env=env, cwd=tmp_path)
        assert done.returncode == 1, (command, done.stderr)
        assert said in done.stdout + done.stderr, (command, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr
        assert "run `patience db migrate`" not in done.stdout + done.stderr
    as_json = json.loads(patience("db", "status", "--json", env=env).stdout)
    assert as_json["current"] == newer
    assert as_json["newer"] is True


# -- backups -------------------------------------------------------------------------------


class Players:
    """Guests playing random legal moves in practice games on ``base``, from threads, until
    stopped; a few games ended first, so that the database holds finished games too."""

    def __init__(self, base: str, games: int = 6) -> None:
        self.base = base
        self.stop = threading.Event()
        self.moves = 0
        self.lock = threading.Lock()
        self.threads = [
            threading.Thread(target=self.play, args=(index,), daemon=True) for index in range(games)
        ]

    def play(self, index: int) -> None:
        rng = random.Random(index)
        game = ("golf", "klondike", "kansas")[index % 3]
        with httpx.Client(base_url=self.base, timeout=30) as client:
            view = client.post(
                "/api/sessions", json={"game": game, "seed": 100 + index, "mode": "practice"}
            ).json()
            headers = {"Authorization": f"Bearer {view['token']}"}
            url = f"/api/sessions/{view['id']}"
            if index % 3 == 0:  # some end at once
                client.post(f"{url}/end", headers=headers)
                return
            while not self.stop.is_set():
                legal = [move for move in view["legal_moves"] if move != "end"]
                if not legal or view.get("over"):
                    return
                answer = client.post(
                    f"{url}/moves", headers=headers, json={"move": rng.choice(legal)}
                )
                assert answer.status_code == 200, answer.text
                view = answer.json()
                with self.lock:
                    self.moves += 1

    def __enter__(self) -> Players:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=30)


def check_restored(restored_url: str, live_url: str) -> int:
    """Every game of the restored database rebuilds from its log (each move replayed by the
    engine of record), each log is the start of the same game's log in the live database
    (the backup is one moment's), and every finished game's record replays; how many games
    it holds."""
    restored, live = make_engine(restored_url), make_engine(live_url)
    try:
        store = GameStore(restored)
        with restored.connect() as connection:
            ids = list(connection.execute(select(sessions.c.id)).scalars())
            logs = {
                game_id: list(
                    connection.execute(
                        select(events.c.kind, events.c.move)
                        .where(events.c.session_id == game_id)
                        .order_by(events.c.seq)
                    ).all()
                )
                for game_id in ids
            }
        with live.connect() as connection:
            for game_id, log in logs.items():
                later = connection.execute(
                    select(events.c.kind, events.c.move)
                    .where(events.c.session_id == game_id)
                    .order_by(events.c.seq)
                ).all()
                assert list(later[: len(log)]) == log, game_id
        finished = 0
        for game_id in ids:
            game = store.load(game_id)
            moves = sum(1 for kind, _ in logs[game_id] if kind == "move")
            assert game.session.move_count == moves
            if game.session.is_over():
                record = store.record(game_id)
                replayed = replay_json(record)
                assert replayed.error is None, replayed.error
                assert replayed.moves == len(record["moves"])
                finished += 1
        assert finished >= 2
        return len(ids)
    finally:
        restored.dispose()
        live.dispose()


def test_a_sqlite_backup_taken_while_games_run_restores_and_replays(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    url = f"sqlite:///{database}"
    port = launch.free_port()
    server = launch.start(database, port, PATIENCE_CATALOG_REFILL="0")
    backup = tmp_path / "backup.sqlite3"
    try:
        with Players(f"http://127.0.0.1:{port}") as players:
            wait_for(lambda: players.moves >= 40, "moves played")
            done = patience("db", "backup", str(backup), env=clean_env(PATIENCE_DATABASE_URL=url))
            assert done.returncode == 0, done.stderr
            assert "a SQLite database" in done.stdout
            played_then = players.moves
            wait_for(lambda: players.moves >= played_then + 20, "moves after the backup")
        again = patience("db", "backup", str(backup), env=clean_env(PATIENCE_DATABASE_URL=url))
        assert again.returncode == 1
        assert "exists" in again.stderr
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    assert backup.stat().st_mode & 0o077 == 0
    # The restore of docs/deploy.md: the backup file put where the database goes.
    restored = tmp_path / "restored" / "patience.sqlite3"
    restored.parent.mkdir()
    shutil.copyfile(backup, restored)
    status = patience("db", "status", env=clean_env(PATIENCE_DATABASE_URL=f"sqlite:///{restored}"))
    assert status.returncode == 0, status.stdout
    assert check_restored(f"sqlite:///{restored}", url) == 6


def test_a_postgresql_backup_taken_while_games_run_restores_and_replays(
    postgres_cluster: postgres.Cluster, tmp_path: Path
) -> None:
    source = postgres_cluster.new_database()
    target = postgres_cluster.new_database()
    url, restored = postgres_cluster.url(source), postgres_cluster.url(target)
    port = launch.free_port()
    server = launch.start(url, port, PATIENCE_CATALOG_REFILL="0")
    backup = tmp_path / "patience.dump"
    # pg_dump and pg_restore of the same version as the server (Debian's postgresql-client)
    env = clean_env(
        PATIENCE_DATABASE_URL=url,
        PATH=f"{postgres_cluster.binaries}{os.pathsep}{os.environ['PATH']}",
    )
    try:
        with Players(f"http://127.0.0.1:{port}") as players:
            wait_for(lambda: players.moves >= 40, "moves played")
            done = patience("db", "backup", str(backup), env=env)
            assert done.returncode == 0, done.stderr
            assert "pg_dump custom format" in done.stdout
            played_then = players.moves
            wait_for(lambda: players.moves >= played_then + 20, "moves after the backup")
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    # The restore of docs/deploy.md: pg_restore into a new, empty database.
    dbname = restored.replace("postgresql+psycopg://", "postgresql://")
    loaded = subprocess.run(
        ["pg_restore", "--no-owner", f"--dbname={dbname}", str(backup)],
        env=env,
        capture_output=True,
        text=True,
    )
    assert loaded.returncode == 0, loaded.stderr
    status = patience("db", "status", env=env | {"PATIENCE_DATABASE_URL": restored})
    assert status.returncode == 0, status.stdout
    try:
        assert check_restored(restored, url) == 6
    finally:
        postgres_cluster.drop_database(source)
        postgres_cluster.drop_database(target)


def test_a_postgresql_backup_is_its_owners_alone_and_a_failure_says_all(
    postgres_cluster: postgres.Cluster, tmp_path: Path
) -> None:
    env = clean_env(
        PATIENCE_DATABASE_URL=postgres_cluster.url(),
        PATH=f"{postgres_cluster.binaries}{os.pathsep}{os.environ['PATH']}",
    )
    migrate_url(postgres_cluster.url())
    target = tmp_path / "b.dump"
    done = subprocess.run(
        ["sh", "-c", f'umask 022 && exec "$0" -m patience.cli db backup {target}', sys.executable],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert target.stat().st_size > 0
    assert target.stat().st_mode & 0o777 == 0o600

    # nobody listens there: pg_dump says so over several lines, each tried address and why
    port = closed_port()
    refused = patience(
        "db",
        "backup",
        str(tmp_path / "c.dump"),
        env=env | {"PATIENCE_DATABASE_URL": f"postgresql://patience@localhost:{port}/patience"},
    )
    assert refused.returncode == 1
    assert refused.stderr.count("\n") == 1, refused.stderr
    assert "Connection refused" in refused.stderr, refused.stderr
    assert "Is the server running" in refused.stderr, refused.stderr
    assert not (tmp_path / "c.dump").exists()


RECORDING_PG_DUMP = """#!/bin/sh
# The real pg_dump, after writing down what it was given: its command line and service file.
printf '%s\\n' "$@" > "$0.args"
cat "$PGSERVICEFILE" > "$0.service"
exec "{real}" "$@"
"""


def test_a_backup_keeps_the_ssl_key_password_off_pg_dumps_command_line(
    postgres_cluster: postgres.Cluster, tmp_path: Path
) -> None:
    # libpq reads sslpassword from no environment variable: it goes in a service file of
    # the backup's own, readable by its owner alone and removed after, which the real
    # pg_dump reads (a file it could not read would fail the backup).
    wrapper = tmp_path / "bin" / "pg_dump"
    wrapper.parent.mkdir()
    wrapper.write_text(RECORDING_PG_DUMP.format(real=postgres_cluster.binaries / "pg_dump"))
    wrapper.chmod(0o755)
    url = postgres_cluster.url()
    migrate_url(url)
    joined = "&" if "?" in url else "?"
    env = clean_env(
        PATIENCE_DATABASE_URL=f"{url}{joined}sslpassword=k3y-s3cret",
        PATH=f"{wrapper.parent}{os.pathsep}{os.environ['PATH']}",
    )
    target = tmp_path / "b.dump"
    done = patience("db", "backup", str(target), env=env)
    assert done.returncode == 0, done.stderr
    assert target.stat().st_size > 0
    args = (tmp_path / "bin" / "pg_dump.args").read_text()
    assert "--format=custom" in args
    assert "k3y-s3cret" not in args
    assert "sslpassword" not in args
    assert (tmp_path / "bin" / "pg_dump.service").read_text() == (
        "[patience-backup]\nsslpassword=k3y-s3cret\n"
    )
    assert "k3y-s3cret" not in done.stdout + done.stderr
    assert not list(Path(tempfile.gettempdir()).glob("patience-backup-*"))  # removed


def test_a_backup_without_pg_dump_says_the_line_to_run(tmp_path: Path) -> None:
    env = clean_env(
        PATIENCE_DATABASE_URL="postgresql://patience:pw@/patience?host=/nowhere", PATH="/nowhere"
    )
    done = patience("db", "backup", str(tmp_path / "b.dump"), env=env)
    assert done.returncode == 1
    assert "pg_dump is not installed" in done.stderr
    assert "pg_dump --format=custom" in done.stderr
    assert "pw" not in done.stderr


# -- the operator's endpoints --------------------------------------------------------------


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    settings = Settings(
        database_url=database_url,
        catalog_refill=0,
        rate_starts=None,
        rate_moves=None,
        rate_address=None,
        metrics_token="scrape-secret",
    )
    with TestClient(create_app(settings), client=("127.0.0.1", 50000)) as test_client:
        yield test_client


def metric(text: str, name: str, **labels: str) -> float:
    """The value of sample ``name`` with ``labels`` in the exposition ``text`` (0 if none)."""
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and sample.labels == labels:
                return float(sample.value)
    return 0.0


def test_health_readiness_and_metrics(client: TestClient, database_url: str) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/readyz").json() == {"status": "ready", "migration": head_revision()}
    engine = make_engine(database_url)
    with engine.begin() as connection:
        from patience.store.db import outages

        connection.execute(insert(outages).values(began=100.0, ended=103.5, games=2))
    started = client.post("/api/sessions", json={"game": "golf", "seed": 5, "mode": "practice"})
    view, headers = started.json(), {"Authorization": f"Bearer {started.json()['token']}"}
    for _ in range(3):
        move = next(m for m in view["legal_moves"] if m != "end")
        view = client.post(
            f"/api/sessions/{view['id']}/moves", headers=headers, json={"move": move}
        ).json()
    client.post(f"/api/sessions/{view['id']}/moves", headers=headers, json={"move": "t9>t1"})
    client.get("/api/sessions/nonexistent", headers=headers)
    scraped = client.get("/metrics")
    assert scraped.status_code == 200
    assert scraped.headers["content-type"].startswith("text/plain")
    body = scraped.text
    route = "/api/sessions/{game_id}/moves"
    assert metric(body, "patience_requests_total", method="POST", route=route, status="200") >= 3
    assert metric(body, "patience_requests_total", method="POST", route=route, status="400") >= 1
    assert metric(body, "patience_move_seconds_count") >= 4
    assert metric(body, "patience_outages_total") == 1
    assert metric(body, "patience_outage_seconds_total") == 3.5
    assert "patience_live_games" in body
    assert "patience_solver_jobs" in body

    # the catalog's stock per tier, read from the database
    from patience.store.catalog import Certified, add

    with engine.begin() as connection:
        rating = {"tier": 4, "score": 0.4, "version": 1, "players": {}}
        add(
            connection,
            "golf",
            {"wrap": True},
            Certified(11, 9, 0.01, 40, rating),
            at=1.0,
            origin="random",
        )
    engine.dispose()
    body = client.get("/metrics").text
    labels = {"game": "golf", "variant": '{"wrap":true}', "tier": "4"}
    assert metric(body, "patience_catalog_unused_deals", **labels) == 1

    # another address: refused without the token, served with it
    other = TestClient(client.app, client=("192.0.2.7", 50001))
    assert other.get("/metrics").status_code == 403
    assert other.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 403
    assert (
        other.get("/metrics", headers={"Authorization": "Bearer scrape-secret"}).status_code == 200
    )
    # through a proxy that is not trusted, loopback is no reason to serve them
    forwarded = client.get("/metrics", headers={"X-Forwarded-For": "198.51.100.1"})
    assert forwarded.status_code == 403


def test_readiness_says_when_the_database_is_behind(client: TestClient, database_url: str) -> None:
    engine = make_engine(database_url)
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '0006'"))
    engine.dispose()
    answer = client.get("/readyz")
    assert answer.status_code == 503
    assert answer.json() == {"status": "not ready", "reason": "the database is not migrated"}
    assert client.get("/healthz").status_code == 200


def test_the_access_log_is_json_lines_at_the_level_set(tmp_path: Path) -> None:
    port = launch.free_port()
    with (tmp_path / "log").open("w+b") as log:
        server = launch.start(tmp_path / "games.sqlite3", port, stderr=log)
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/games?x=1")
            httpx.get(f"http://127.0.0.1:{port}/healthz")  # asked by machines: debug only
            httpx.post(f"http://127.0.0.1:{port}/api/sessions/abc/moves", json={"move": "draw"})

            def lines() -> list[dict[str, Any]]:
                log.seek(0)
                # JSON lines, besides the command's own "serving on" for the person who ran it
                return [json.loads(line) for line in log.read().splitlines() if line[:1] == b"{"]

            found = wait_for(
                lambda: [line for line in lines() if line.get("path") == "/api/sessions/abc/moves"],
                "the access line",
                10,
            )
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)
        every = lines()
    line = found[0]
    assert line["logger"] == "patience.access"
    assert line["level"] == "info"
    assert line["method"] == "POST"
    assert line["route"] == "/api/sessions/{game_id}/moves"
    assert line["status"] == 401
    assert line["client"] == "127.0.0.1"
    assert line["ms"] > 0
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", line["time"])
    assert any(entry.get("path") == "/api/games" for entry in every)
    assert not any(entry.get("path") == "/healthz" for entry in every)
    assert any("Application startup complete" in entry["message"] for entry in every)
    _the_docs_jq_queries_read_the_log(tmp_path / "log")


def _the_docs_jq_queries_read_the_log(log: Path) -> None:
    """Every ``journalctl ... | jq`` line of the docs, run on a real server's log (which has
    lines that are not JSON: "patience: serving on"), reads it to the end: the moves' times
    and the 401 are found."""
    assert b"patience: serving on" in log.read_bytes()  # a line that is not JSON
    jq = shutil.which("jq")
    assert jq, "the docs' log queries are checked with jq (Debian's jq package)"
    queries = [
        line.split("| jq", 1)[1]
        for doc in [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]
        for line in doc.read_text().splitlines()
        if line.startswith("journalctl") and "| jq" in line
    ]
    assert len(queries) >= 4
    found = []
    for query in queries:
        command = f"{jq}{query.split('  #')[0]} < {shlex.quote(str(log))}"
        ran = subprocess.run(command, shell=True, capture_output=True, text=True)
        assert ran.returncode == 0, (query, ran.stderr)
        found.append(ran.stdout)
    assert any(re.fullmatch(r"(\d+(\.\d+)?\n)+", out) for out in found)  # the moves' times
    assert any("401 POST /api/sessions/abc/moves" in out for out in found)


def test_warnings_only_and_no_access_log(tmp_path: Path) -> None:
    port = launch.free_port()
    with (tmp_path / "log").open("w+b") as log:
        server = launch.start(
            tmp_path / "games.sqlite3",
            port,
            stderr=log,
            PATIENCE_LOG_LEVEL="warning",
            PATIENCE_ACCESS_LOG="false",
        )
        try:
            for _ in range(3):
                httpx.get(f"http://127.0.0.1:{port}/api/games")
            # a request through a proxy nobody trusts: said once, as a warning
            httpx.get(f"http://127.0.0.1:{port}/api/games", headers={"X-Forwarded-For": "1.2.3.4"})

            def lines() -> list[dict[str, Any]]:
                log.seek(0)
                # JSON lines, besides the command's own "serving on" for the person who ran it
                return [json.loads(line) for line in log.read().splitlines() if line[:1] == b"{"]

            wait_for(
                lambda: any("X-Forwarded-For" in line["message"] for line in lines()),
                "the warning",
                10,
            )
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)
        every = lines()
    assert {line["level"] for line in every} == {"warning"}
    assert not any(line["logger"] == "patience.access" for line in every)


# -- several processes, the solver's memory, the writer -------------------------------------


def test_one_process_refills_the_catalog_at_a_time(fresh_postgres_url: str) -> None:
    migrate_url(fresh_postgres_url)
    engine = make_engine(fresh_postgres_url)
    settings = Settings(database_url=fresh_postgres_url, catalog_refill=1)
    pool = SolverPool(workers=1, queue=0)
    first = Background(GameStore(engine), pool, settings)
    second = Background(GameStore(engine), pool, settings)
    try:
        assert first._may_refill()
        assert not second._may_refill()
        assert first._may_refill()  # still the refiller
        with engine.connect() as connection:
            holders = connection.execute(
                text("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = :k"),
                {"k": REFILL_LOCK},
            ).scalar_one()
        assert holders == 1
        first._release_refill()
        assert wait_for(second._may_refill, "the other process taking over", 10)
    finally:
        first._release_refill()
        second._release_refill()
        pool.close()
        engine.dispose()


def peak_rss_mb() -> float:
    """This process's own peak resident memory in MiB: ``VmHWM``, not ``ru_maxrss``, which
    Linux carries across ``exec`` from the process that forked this one (a worker forked
    from a large test process would report that process's peak)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM in /proc/self/status")


def test_a_practice_deal_has_a_solver_process_ready_for_its_first_hint(tmp_path: Path) -> None:
    """A hint that had to start the solver's process first took more than its grace on a
    busy machine ("no hint found in time"): dealing a practice game starts one, without
    waiting for it and without taking a place in the pool's queue."""
    import multiprocessing

    from fastapi.testclient import TestClient

    url = f"sqlite:///{tmp_path / 'warm.sqlite3'}"
    migrate_url(url)
    settings = Settings(
        database_url=url,
        catalog_refill=0,
        solver_workers=1,
        solver_queue=0,
    )
    before = {child.pid for child in multiprocessing.active_children()}
    with TestClient(create_app(settings)) as client:
        pool = client.app.state.pool  # type: ignore[attr-defined]
        assert not {child.pid for child in multiprocessing.active_children()} - before
        dealt = client.post("/api/sessions", json={"game": "klondike", "mode": "practice"})
        assert dealt.status_code == 201, dealt.text
        started = wait_for(
            lambda: {c.pid for c in multiprocessing.active_children()} - before,
            "a solver process started by the deal",
        )
        assert len(started) == 1
        assert pool.busy() == 0  # the warming took no slot: a hint is not refused busy
        again = client.post("/api/sessions", json={"game": "golf", "mode": "practice"})
        assert again.status_code == 201, again.text
        token = dealt.json()["token"]
        hint = client.post(
            f"/api/sessions/{dealt.json()['id']}/hint",
            headers={"Authorization": f"Bearer {token}"},
        )
        assert hint.status_code == 200, hint.text
        assert {c.pid for c in multiprocessing.active_children()} - before == started


def test_a_solver_process_stays_within_its_memory() -> None:
    import asyncio

    from patience.games import new_game

    budget = 256
    pool = SolverPool(workers=1, queue=1, memory_mb=budget, priority="low")
    try:
        # A Kansas hint searches for its whole budget here; its table is capped to fit.
        position = new_game("kansas", seed=103)
        _, outcome = asyncio.run(pool.run(first_winning_move, position, time_limit=20.0))
        assert outcome == "unknown"  # the capped table filled before the search ended
        peak = asyncio.run(pool.run(peak_rss_mb))
        assert peak < budget, f"the solver process reached {peak:.0f} MiB"
        assert states_for(budget) < 2_000_000
        # A process that dies anyway is replaced; its request is answered busy.
        with pytest.raises(PoolFullError):
            asyncio.run(pool.run(os._exit, 3))
        assert asyncio.run(_retrying(pool, sum, [1, 2])) == 3
    finally:
        pool.close()


REFUSED_MEMORY = """
import resource, sys
from patience import _core
from patience.games import new_game
position = new_game("kansas", seed=103).native_position()
limit = int(sys.argv[1]) * 2**20
resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
outcome, _, nodes, _, reason = _core.solve(
    "kansas", position, max_nodes=10**9, max_seconds=120.0, max_states=10**9, wins_only=True
)
print(outcome, reason, nodes)
"""


@pytest.mark.parametrize("megabytes", [90, 160])
def test_a_search_refused_memory_ends_undecided_and_the_process_lives(megabytes: int) -> None:
    """The kernel's limit on a solver process's data (the pool's backstop) refuses a
    search's table or its arena of positions as they double: the search ends undecided
    ("transposition table full") instead of aborting the process, which had broken the
    server's pool and lost the work queued on it. Kansas seed 103 searches far past these
    limits, and its table's own limit (``max_states``) is set beyond reach here."""
    done = subprocess.run(
        [sys.executable, "-c", REFUSED_MEMORY, str(megabytes)],
        capture_output=True,
        text=True,
        timeout=WAIT * 4,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    outcome, reason = done.stdout.split()[0], " ".join(done.stdout.split()[1:-1])
    assert (outcome, reason) == ("unknown", "transposition table full")


def scheduling() -> tuple[int, int]:
    return os.sched_getscheduler(0), os.getpriority(os.PRIO_PROCESS, 0)


def test_solver_processes_run_on_idle_cores_only_by_default() -> None:
    import asyncio

    pool = SolverPool(workers=1, queue=0)
    try:
        assert asyncio.run(_retrying(pool, scheduling)) == (os.SCHED_IDLE, 19)
    finally:
        pool.close()
    pool = SolverPool(workers=1, queue=0, priority="low")
    try:
        assert asyncio.run(_retrying(pool, scheduling)) == (os.SCHED_OTHER, 19)
    finally:
        pool.close()


def test_a_ctrl_c_that_reaches_a_solver_process_as_it_loads_is_ignored(
    capfd: pytest.CaptureFixture[str],
) -> None:
    # A terminal's Ctrl-C goes to every process of the server. One that reached a solver
    # process still loading its code (before it could ignore Ctrl-C) killed it with a
    # traceback; now it waits until the process ignores it.
    import asyncio
    import multiprocessing

    pool = SolverPool(workers=1, queue=0)
    try:
        pool.warm()  # a solver process starts loading
        children = multiprocessing.active_children()
        assert len(children) == 1
        answers: list[int] = []
        thread = threading.Thread(
            target=lambda: answers.append(asyncio.run(_retrying(pool, os.getpid)))
        )
        thread.start()
        while thread.is_alive():  # Ctrl-C, again and again, from its start until it answers
            os.kill(children[0].pid, signal.SIGINT)
            thread.join(0.005)
        assert answers == [children[0].pid]  # the same process, alive, answered
    finally:
        pool.close()
    assert "Traceback" not in capfd.readouterr().err


async def _retrying(pool: SolverPool, function: Any, *args: Any) -> Any:
    import asyncio

    deadline = time.monotonic() + WAIT
    while True:
        try:
            return await pool.run(function, *args)
        except PoolFullError:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.05)


def test_the_writer_commits_together_and_fails_only_the_conflicting_job(
    database_url: str,
) -> None:
    engine = make_engine(database_url)
    with engine.begin() as connection:
        connection.execute(
            insert(sessions).values(
                id="g",
                token_hash="x",
                game="golf",
                variant="{}",
                deal="",
                seed="1",
                mode="practice",
                certified=False,
                time_limit=60.0,
                created_at=1.0,
            )
        )
    writer = Writer(engine)
    try:

        def event(seq: int) -> Any:
            def job(connection: Any) -> None:
                connection.execute(
                    insert(events).values(session_id="g", seq=seq, kind="move", at=1.0, move="d")
                )

            return job

        futures = [writer.submit(event(seq)) for seq in (0, 1, 1, 2)]  # the second 1 conflicts
        outcomes = []
        for future in futures:
            try:
                future.result(timeout=WAIT)
                outcomes.append("ok")
            except Exception as error:
                outcomes.append(type(error).__name__)
        assert outcomes == ["ok", "ok", "IntegrityError", "ok"]
        with engine.connect() as connection:
            assert connection.execute(select(func.count()).select_from(events)).scalar() == 3
    finally:
        writer.close()
        engine.dispose()


# -- several server processes --------------------------------------------------------------

SLOW_START = """\
import os, sys, time
# A server process (a spawned child of `patience serve`) that takes long to load its code,
# as on a loaded machine: it answers its supervisor's health check that much later.
if sys.argv[-1:] == ["--multiprocessing-fork"]:
    with open(f"/proc/{os.getppid()}/cmdline", "rb") as parent:
        if b"serve" in parent.read().split(b"\\0"):
            time.sleep(float(os.environ["SLOW_START_SECONDS"]))
"""


def slow_start_env(folder: Path, seconds: float, **settings: str) -> dict[str, str]:
    """An environment in which every server process of ``patience serve --workers N``
    starts ``seconds`` late (a ``sitecustomize`` on the path)."""
    hook = folder / "slow-start"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(SLOW_START)
    path = os.pathsep.join([str(hook), os.environ.get("PYTHONPATH", "")])
    return clean_env(PYTHONPATH=path, SLOW_START_SECONDS=str(seconds), **settings)


def serve_logged(env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """``patience serve`` started in ``env``, its error output (the JSON log, the
    "serving on" line) written to ``log``."""
    with log.open("wb") as errors:
        return subprocess.Popen(
            [sys.executable, "-m", "patience.cli", "serve"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=errors,
        )


def test_two_server_processes_that_load_slowly_are_waited_for(
    fresh_postgres_url: str, tmp_path: Path
) -> None:
    # Each process starts 8 s late, past uvicorn's own 5-s health check, which killed
    # them and started them again forever. The server says "serving on" once both are up.
    migrate_url(fresh_postgres_url)
    port = launch.free_port()
    env = slow_start_env(
        tmp_path,
        8,
        PATIENCE_DATABASE_URL=fresh_postgres_url,
        PATIENCE_WORKERS="2",
        PATIENCE_PORT=str(port),
        PATIENCE_CATALOG_REFILL="0",
    )
    log = tmp_path / "server.log"
    server = serve_logged(env, log)
    try:
        starting = wait_for(
            lambda: server.poll() is not None or "patience: starting 2" in log.read_text(),
            "the start's first line",
        )
        assert starting is True
        assert server.poll() is None, log.read_text()
        assert "serving on" not in log.read_text()  # not before the processes are up

        def ready() -> bool:
            try:
                return httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=5).status_code == 200
            except httpx.HTTPError:
                return False

        wait_for(
            lambda: server.poll() is not None or ("serving on" in log.read_text() and ready()),
            "both processes up",
            timeout=240,
        )
        assert server.poll() is None, log.read_text()
        assert "failed to start" not in log.read_text()
        assert "died" not in log.read_text()
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)


def test_a_stop_while_server_processes_load_is_not_held_by_their_health_check(
    fresh_postgres_url: str, tmp_path: Path
) -> None:
    # The supervisor waits up to PATIENCE_WORKER_CHECK_SECONDS (60) for a loading process's
    # answer; a SIGTERM meanwhile (systemd's stop, which waits 30 s) must not wait with it.
    migrate_url(fresh_postgres_url)
    env = slow_start_env(
        tmp_path,
        30,
        PATIENCE_DATABASE_URL=fresh_postgres_url,
        PATIENCE_WORKERS="2",
        PATIENCE_PORT=str(launch.free_port()),
        PATIENCE_CATALOG_REFILL="0",
    )
    log = tmp_path / "server.log"
    server = serve_logged(env, log)
    try:
        wait_for(
            lambda: server.poll() is not None or "Started parent process" in log.read_text(),
            "the supervisor's start",
        )

        def checking() -> bool:  # waiting on a process's answer: a poll of its pipe
            wchan = Path(f"/proc/{server.pid}/wchan").read_text()
            return server.poll() is not None or "poll" in wchan

        wait_for(checking, "the first health check")
        assert server.poll() is None, log.read_text()
        stopping = time.monotonic()
        server.send_signal(signal.SIGTERM)
        status = server.wait(timeout=60)
        took = time.monotonic() - stopping
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert status == 0, log.read_text()
    assert took < 15, (took, log.read_text())  # well inside systemd's 30 s


def test_server_processes_that_never_start_stop_the_server_for_systemd_to_restart(
    fresh_postgres_url: str, tmp_path: Path
) -> None:
    migrate_url(fresh_postgres_url)
    env = slow_start_env(
        tmp_path,
        30,
        PATIENCE_DATABASE_URL=fresh_postgres_url,
        PATIENCE_WORKERS="2",
        PATIENCE_PORT=str(launch.free_port()),
        PATIENCE_WORKER_CHECK_SECONDS="5",
    )
    done = subprocess.run(
        [sys.executable, "-m", "patience.cli", "serve"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 75, done.stderr
    assert "serving on" not in done.stderr
    last = done.stderr.splitlines()[-1]
    assert last.startswith("patience: a server process failed to start 3 time(s) in a row")
    assert "did not answer its health check within 5 s" in last
