"""Competitive deals nobody can predict: catalog seeds from the operator's keyed stream, never
from a public one; a published seed tells nothing about another; deals of unrecorded origin
never dealt; a practice game by seed tells nothing about the catalog.

The attack these tests replay: the old catalog drew its seeds from SplitMix64 seeded from
public values, whose output gives its state away, so one published seed gave the next ones,
and a player could deal them locally, match the visible cards of the board they were dealt,
and read every hidden card.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, insert, select

from patience import _core
from patience.catalog import public_seed_stream
from patience.dealkey import DealKey, DealKeyError
from patience.server import Settings, create_app
from patience.store.catalog import Certified, add, generate, take, unused
from patience.store.db import deals, make_engine, migrate, migrate_url
from patience.store.games import GameStore

GOLF_WRAP = {"wrap": True}
VISIBLE = 36
"""Golf shows its 35 column cards and the waste's first card from the start."""

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


def _unshift(value: int, shift: int) -> int:
    """The inverse of ``value ^ (value >> shift)`` on 64 bits."""
    result = value
    for _ in range(64 // shift + 1):
        result = value ^ (result >> shift)
    return result & _MASK


def splitmix_state(output: int) -> int:
    """The SplitMix64 state that gives ``output``: its mixing is a bijection."""
    z = _unshift(output, 31)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & _MASK
    z = _unshift(z, 27)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & _MASK
    return _unshift(z, 30)


def splitmix_output(state: int) -> int:
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def neighbours(seed: int, count: int) -> Iterator[int]:
    """The ``count`` seeds either side of ``seed`` in the public stream it would belong to,
    were it a public stream's (a seed is an output's top 63 bits: both low bits tried)."""
    for low in (0, 1):
        state = splitmix_state((seed << 1) | low)
        for step in range(1, count + 1):
            for moved in (state + step * _GAMMA, state - step * _GAMMA):
                yield splitmix_output(moved & _MASK) >> 1


def test_splitmix_is_inverted_as_the_attack_inverts_it() -> None:
    """The check below is worth something only if it would catch the old catalog: from one
    seed of a public stream it finds the next."""
    stream = public_seed_stream("golf", GOLF_WRAP, 0)
    first, second = next(stream), next(stream)
    assert second in set(neighbours(first, 2))


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    made = make_engine(f"sqlite:///{tmp_path / 'catalog.sqlite3'}")
    migrate(made)
    yield made
    made.dispose()


def catalog_seeds(engine: Engine) -> list[int]:
    with engine.connect() as connection:
        return [int(seed) for seed in connection.execute(select(deals.c.seed)).scalars()]


def test_no_timed_deal_is_found_among_public_neighbours(engine: Engine) -> None:
    key = DealKey.fresh()
    generate(engine, "golf", GOLF_WRAP, 6, key=key, jobs=1)
    seeds = catalog_seeds(engine)
    assert len(seeds) == 6
    store = GameStore(engine)
    live, _ = store.start("golf", GOLF_WRAP, seed=None, mode="timed")
    assert live.seed in seeds  # dealt from the keyed catalog
    board = _core.seeded_deck("golf", live.seed)[:VISIBLE]
    # what an attacker can compute: the first 100,000 seeds of public streams, and the
    # 100,000 public-stream neighbours of the published seed of every other catalog deal
    candidates: set[int] = set()
    for stream in range(4):
        public = public_seed_stream("golf", GOLF_WRAP, stream)
        candidates.update(next(public) for _ in range(25_000))
    for published in seeds:
        if published != live.seed:
            candidates.update(neighbours(published, 100_000 // 4))
    assert live.seed not in candidates
    matches = [s for s in candidates if _core.seeded_deck("golf", s)[:VISIBLE] == board]
    assert matches == []


def test_no_published_seed_predicts_another_catalog_seed(engine: Engine) -> None:
    generate(engine, "golf", GOLF_WRAP, 8, key=DealKey.fresh(), jobs=1)
    seeds = catalog_seeds(engine)
    for published in seeds:
        predicted = set(neighbours(published, 1_000))
        assert predicted.isdisjoint(set(seeds) - {published})


def test_keyed_streams_are_the_operators_alone() -> None:
    one, other = DealKey.fresh(), DealKey.fresh()
    first = [one.seed("golf", GOLF_WRAP, 0, index) for index in range(50)]
    assert first == [one.seed("golf", GOLF_WRAP, 0, index) for index in range(50)]
    assert set(first).isdisjoint(other.seed("golf", GOLF_WRAP, 0, index) for index in range(50))
    assert set(first).isdisjoint(one.seed("golf", GOLF_WRAP, 1, index) for index in range(50))
    assert set(first).isdisjoint(one.seed("golf", {"wrap": False}, 0, i) for i in range(50))
    assert one.fingerprint != other.fingerprint
    assert one.secret.hex() not in repr(one)


def test_the_key_file_is_made_owner_only_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "keys" / "deal.key"
    made = DealKey.load(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert DealKey.load(path) == made  # the same key from then on
    path.chmod(0o644)
    with pytest.raises(DealKeyError, match="chmod 600"):
        DealKey.load(path)
    path.chmod(0o600)
    path.write_text("not a key\n")
    with pytest.raises(DealKeyError, match="64 hex digits"):
        DealKey.load(path)
    with pytest.raises(DealKeyError, match="no deal key"):
        DealKey.load(tmp_path / "none.key", create=False)


def deals_cli(database: Path, key: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = os.environ | {
        "PATIENCE_DATABASE_URL": f"sqlite:///{database}",
        "PATIENCE_DEAL_KEY_FILE": str(key),
    }
    command = [sys.executable, "-m", "patience.cli", "deals", *args]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)


def test_the_generate_command_draws_from_the_key_and_a_done_job_returns_at_once(
    tmp_path: Path,
) -> None:
    database, key_file = tmp_path / "catalog.sqlite3", tmp_path / "deal.key"
    shown = deals_cli(database, key_file, "key")
    assert shown.returncode == 0, shown.stderr
    key = DealKey.load(key_file)
    assert key.fingerprint in shown.stdout
    assert key.secret.hex() not in shown.stdout + shown.stderr
    migrate_url(f"sqlite:///{database}")
    options = ["generate", "golf", "--wrap", "--jobs", "1", "--quiet"]
    made = deals_cli(database, key_file, *options, "--count", "3")
    assert made.returncode == 0, made.stderr
    assert "3 deals added, 0 already there" in made.stdout
    assert key.secret.hex() not in made.stdout + made.stderr
    engine = make_engine(f"sqlite:///{database}")
    stream = [key.seed("golf", GOLF_WRAP, 0, index) for index in range(100)]
    with engine.connect() as connection:
        rows = connection.execute(select(deals.c.seed, deals.c.origin)).all()
    assert {origin for _, origin in rows} == {key.origin}
    assert all(int(seed) in stream for seed, _ in rows)
    again = deals_cli(database, key_file, *options, "--count", "3")
    assert again.returncode == 0, again.stderr
    assert "0 deals added, 3 already there" in again.stdout
    assert "0 seeds solved now" in again.stdout  # nothing solved a second time
    fewer = deals_cli(database, key_file, *options, "--count", "2")
    assert "0 seeds solved now" in fewer.stdout
    more = deals_cli(database, key_file, *options, "--count", "4")
    assert "1 deals added, 3 already there" in more.stdout
    assert len(catalog_seeds(engine)) == 4
    engine.dispose()


def test_deals_of_unrecorded_origin_are_retired_and_never_dealt(tmp_path: Path) -> None:
    """A catalog made before origins were kept (its seeds possibly from a public stream):
    the migration retires its unused deals, and the server deals a fresh seed instead."""
    from alembic import command
    from alembic.config import Config

    from patience.store.db import MIGRATIONS

    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    engine = make_engine(url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0006")
        public = public_seed_stream("golf", GOLF_WRAP, 0)
        old = [next(public) for _ in range(3)]
        for index, seed in enumerate(old):
            connection.execute(
                insert(deals).values(
                    game="golf",
                    variant=json.dumps(GOLF_WRAP, sort_keys=True),
                    seed=str(seed),
                    nodes=9,
                    seconds=0.01,
                    moves=40,
                    added_at=1.0,
                    session_id="a-game" if index == 0 else None,
                )
            )
    migrate(engine)
    with engine.connect() as connection:
        rows = connection.execute(select(deals.c.seed, deals.c.origin, deals.c.retired_at)).all()
        assert unused(connection, "golf", GOLF_WRAP) == 0
    assert all(origin == "unrecorded" for _, origin, _ in rows)
    assert sum(retired is not None for _, _, retired in rows) == 2  # the unused ones
    live, _ = GameStore(engine).start("golf", GOLF_WRAP, seed=None, mode="timed")
    assert live.certified
    assert live.seed not in old
    report = deals_cli(tmp_path / "old.sqlite3", tmp_path / "deal.key", "report")
    assert report.returncode == 0, report.stderr
    assert "2 retired" in report.stdout
    engine.dispose()


def test_retired_deals_are_never_dealt(engine: Engine) -> None:
    key = DealKey.fresh()
    generate(engine, "golf", GOLF_WRAP, 2, key=key, jobs=1)
    retired = deals_cli_retire(engine, key.origin)
    assert retired == 2
    with engine.begin() as connection:
        assert take(connection, "golf", GOLF_WRAP, "someone") is None


def deals_cli_retire(engine: Engine, origin: str) -> int:
    from patience.store.catalog import retire

    with engine.begin() as connection:
        return retire(connection, origin=origin, at=time.time())


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    settings = Settings(
        database_url=database_url, catalog_refill=0, rate_starts=None, guest_timed=0
    )
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def rated(seed: int, tier: int) -> Certified:
    rating = {"tier": tier, "score": tier / 10, "version": 1, "players": {}}
    return Certified(seed, 9, 0.01, 40, rating)


def practice(client: TestClient, seed: int) -> dict[str, Any]:
    answer = client.post(
        "/api/sessions",
        json={"game": "golf", "variant": GOLF_WRAP, "mode": "practice", "seed": str(seed)},
    )
    assert answer.status_code == 201, answer.text
    body: dict[str, Any] = answer.json()
    return body


def shape(body: dict[str, Any]) -> dict[str, Any]:
    """An answer without what differs between any two games (their ids, tokens, seeds,
    cards and clocks)."""
    varying = {"id", "token", "seed", "board", "state", "clock", "legal_moves", "deal", "link"}
    return {key: value for key, value in body.items() if key not in varying}


def test_a_practice_game_by_seed_tells_nothing_of_the_catalog(client: TestClient) -> None:
    engine = make_engine(client.app.state.settings.database_url)  # type: ignore[attr-defined]
    with engine.begin() as connection:
        add(connection, "golf", GOLF_WRAP, rated(5_000, 4), at=1.0, origin="random")
        add(connection, "golf", GOLF_WRAP, rated(5_001, 4), at=2.0, origin="random")
    in_catalog = practice(client, 5_000)
    elsewhere = practice(client, 77)
    assert in_catalog["tier"] is None  # today's code answered 4
    assert shape(in_catalog) == shape(elsewhere)
    # ...and the deal played in practice is never then dealt in a timed game
    timed = client.post("/api/sessions", json={"game": "golf", "variant": GOLF_WRAP})
    assert timed.status_code == 201
    with engine.connect() as connection:
        holder = connection.execute(
            select(deals.c.session_id).where(deals.c.seed == "5000")
        ).scalar()
        dealt_timed = connection.execute(
            select(deals.c.seed).where(deals.c.session_id == timed.json()["id"])
        ).scalar()
    assert holder == in_catalog["id"]
    assert dealt_timed == "5001"
    # once a deal's seed is public (a practice game's is), its tier is shown
    assert practice(client, 5_000)["tier"] == 4
    engine.dispose()


def test_the_server_never_reads_the_deal_key(tmp_path: Path) -> None:
    key = tmp_path / "never.key"
    saved = os.environ.get("PATIENCE_DEAL_KEY_FILE")
    os.environ["PATIENCE_DEAL_KEY_FILE"] = str(key)
    try:
        url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
        migrate_url(url)
        settings = Settings(database_url=url, catalog_refill=0)
        with TestClient(create_app(settings)) as client:
            started = client.post("/api/sessions", json={"game": "golf", "variant": GOLF_WRAP})
            assert started.status_code == 201
    finally:
        if saved is not None:
            os.environ["PATIENCE_DEAL_KEY_FILE"] = saved
    assert not key.exists()
