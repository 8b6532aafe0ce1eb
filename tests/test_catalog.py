"""The catalog of certified winnable deals: filled by solving (certificates replayed),
dealt to timed games in order, each deal to one game only, even when games start at once."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from sqlalchemy import Engine, select

from patience.games import new_game
from patience.solve import solve
from patience.store.catalog import fill, take, unused
from patience.store.db import deals, make_engine, migrate, migrate_url
from patience.store.games import GameStore


@pytest.fixture
def engine(tmp_path: Path) -> Engine:
    made = make_engine(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    migrate(made)
    return made


def seeds_from(first: int) -> Callable[[], int]:
    counter = itertools.count(first)
    return lambda: next(counter)


def test_fill_adds_only_deals_the_solver_won(engine: Engine) -> None:
    filled = fill(engine, "expert", {}, 2, jobs=1, time_limit=0.5, random_seed=seeds_from(0))
    assert filled.added == 2
    assert filled.unused == 2
    assert filled.tried >= 2
    with engine.connect() as connection:
        rows = connection.execute(select(deals)).all()
    for row in rows:
        assert (row.game, row.variant, row.session_id) == ("expert", "{}", None)
        result = solve(new_game("expert", seed=int(row.seed)), time_limit=5.0)
        assert result.outcome == "solved"
        assert row.moves > 0
        assert row.nodes > 0
    assert all(int(row.seed) < filled.tried for row in rows)  # seeds tried from 0 up


def test_timed_games_are_dealt_from_the_catalog_in_order(engine: Engine) -> None:
    fill(engine, "expert", {}, 2, jobs=1, time_limit=0.5, random_seed=seeds_from(0))
    with engine.connect() as connection:
        catalog = [int(row.seed) for row in connection.execute(select(deals).order_by(deals.c.id))]
    store = GameStore(engine, random_seed=seeds_from(10**6))
    first, _ = store.start("expert", {}, seed=None, mode="timed")
    second, _ = store.start("expert", {}, seed=None, mode="timed")
    assert [first.seed, second.seed] == catalog
    assert first.certified
    assert second.certified
    with engine.connect() as connection:
        dealt = {row.session_id for row in connection.execute(select(deals))}
        assert dealt == {first.id, second.id}
        assert unused(connection, "expert", {}) == 0
    # the catalog is empty: Expert's solver certifies a fresh deal as the game starts...
    third, _ = store.start("expert", {}, seed=None, mode="timed")
    assert third.certified
    assert third.seed >= 10**6
    assert solve(new_game("expert", seed=third.seed), time_limit=5.0).outcome == "solved"
    # ...and Kansas's too, looking for wins only, a short try a seed
    fourth, _ = store.start("kansas", {}, seed=None, mode="timed")
    assert fourth.certified
    assert fourth.seed > third.seed
    kansas = solve(new_game("kansas", seed=fourth.seed), time_limit=5.0, wins_only=True)
    assert kansas.outcome == "solved"
    # practice games never take from the catalog
    fill(engine, "expert", {}, 1, jobs=1, time_limit=0.5, random_seed=seeds_from(100))
    practice, _ = store.start("expert", {}, seed=None, mode="practice")
    assert not practice.certified
    with engine.connect() as connection:
        assert unused(connection, "expert", {}) == 1


def test_variants_have_catalogs_of_their_own(engine: Engine) -> None:
    fill(engine, "golf", {"wrap": True}, 1, jobs=1, random_seed=seeds_from(0))
    store = GameStore(engine, random_seed=seeds_from(50))
    no_wrap, _ = store.start("golf", {}, seed=None, mode="timed")  # certified as it starts
    assert no_wrap.certified
    with engine.connect() as connection:
        assert unused(connection, "golf", {"wrap": True}) == 1
    wrap, _ = store.start("golf", {"wrap": True}, seed=None, mode="timed")
    assert wrap.certified
    with engine.connect() as connection:
        assert unused(connection, "golf", {"wrap": True}) == 0
        assert take(connection, "golf", {"wrap": True}, "nobody") is None


def test_games_started_at_once_never_share_a_deal(engine: Engine) -> None:
    fill(engine, "golf", {"wrap": True}, 12, jobs=1, random_seed=seeds_from(0))
    store = GameStore(engine)
    with ThreadPoolExecutor(6) as pool:
        started = list(
            pool.map(
                lambda _: store.start("golf", {"wrap": True}, seed=None, mode="timed")[0], range(12)
            )
        )
    with engine.connect() as connection:
        catalog = {int(row.seed) for row in connection.execute(select(deals))}
    assert {live.seed for live in started} == catalog
    assert len(catalog) == 12


def test_the_generate_command(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    env = os.environ | {"PATIENCE_DATABASE_URL": f"sqlite:///{database}"}
    command = [sys.executable, "-m", "patience.cli", "deals", "generate", "golf", "--wrap"]
    unmigrated = subprocess.run(command, env=env, capture_output=True, text=True)
    assert unmigrated.returncode == 1
    assert "run `patience db migrate`" in unmigrated.stderr
    assert not database.exists()  # not made by a command that only reads or adds to it
    migrate_url(f"sqlite:///{database}")
    done = subprocess.run(
        [*command, "--count", "3", "--jobs", "1", "--quiet"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "3 deals added, 0 already there" in done.stdout
    assert "3 not yet dealt" in done.stdout
    engine = make_engine(f"sqlite:///{database}")
    with engine.connect() as connection:
        rows = connection.execute(select(deals)).all()
    assert [(row.game, json.loads(row.variant)) for row in rows] == [("golf", {"wrap": True})] * 3
    assert all(row.rating_version == 1 and row.score is not None for row in rows)
    bad = subprocess.run([*command, "--count", "0"], env=env, capture_output=True, text=True)
    assert bad.returncode != 0
    assert "at least 1" in bad.stderr
