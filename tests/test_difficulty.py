"""Difficulty: rated deals, tiers, catalogs built by resumable jobs on local processes or a
real Dask cluster, claimed by tier from the command line and by players through the server."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, select, update

from patience.catalog import rated_again
from patience.cli_deals import catalog_figure, read_calibrations
from patience.dealkey import DealKey
from patience.games import GAMES, new_game
from patience.rating import (
    DIFFICULTIES,
    RATING_VERSIONS,
    NotCertifiedError,
    UnknownRatingVersionError,
    calibration,
    calibration_entry,
    difficulty_score,
    is_rated,
    playouts_of,
    rate,
    rate_seed,
    rating_version,
    tier_of,
)
from patience.rating import players as players_of
from patience.ratings import FULL
from patience.server import Settings, create_app
from patience.store.catalog import Certified, add, counts, generate, take, unused
from patience.store.db import deals, make_engine, migrate, migrate_url

GOLF_WRAP = {"wrap": True}


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    made = make_engine(f"sqlite:///{tmp_path / 'catalog.sqlite3'}")
    migrate(made)
    yield made
    made.dispose()


def catalog_of(engine: Engine) -> list[tuple[int, int | None, str | None]]:
    """The catalog as (seed, tier, rating), in seed order: what two runs must agree on."""
    with engine.connect() as connection:
        rows = connection.execute(select(deals.c.seed, deals.c.tier, deals.c.rating)).all()
    return sorted((int(seed), tier, rating) for seed, tier, rating in rows)


def test_a_rating_holds_the_evidence_and_a_calibrated_tier() -> None:
    rating = rate_seed("golf", GOLF_WRAP, 0)
    assert rating.version == rating_version("golf")
    assert set(rating.players) == {"random", "greedy", "hindsight"}
    assert all(0.0 <= rate <= 1.0 for rate in rating.players.values())
    assert rating.nodes > 0
    assert rating.moves >= 35  # every column card plays
    assert 0.0 < rating.first_moves <= 1.0
    assert 0.0 <= rating.score <= 1.0
    assert rating.tier is not None
    assert 1 <= rating.tier <= 10
    assert rating.score == difficulty_score(rating.progress, rating.first_moves, rating.nodes)
    assert rate_seed("golf", GOLF_WRAP, 0) == rating  # deterministic


def test_a_deal_the_solver_does_not_win_is_not_rated() -> None:
    with pytest.raises(NotCertifiedError, match="unsolvable"):
        rate(new_game("golf", seed=1, variant={"wrap": False}))


def test_tiers_come_from_the_calibration_deciles() -> None:
    cuts = calibration()["games"]["golf"]["1"][json.dumps(GOLF_WRAP)]["cuts"]
    assert len(cuts) == 9
    assert cuts == sorted(cuts)
    assert tier_of("golf", GOLF_WRAP, 0.0) == 1
    assert tier_of("golf", GOLF_WRAP, 1.0) == 10
    assert tier_of("golf", GOLF_WRAP, cuts[4]) == 6
    assert tier_of("golf", {"wrap": "sometimes"}, 0.5) is None  # a variant with no calibration


def test_a_game_s_rating_version_is_its_own_and_an_earlier_one_rates_again() -> None:
    """Kansas is rated with version 2 (``lookahead`` in place of ``rollout``) while Golf
    stays at 1; a Kansas deal rated with version 1 is rated as it was then (``rollout``'s
    playouts, version 1's cut scores), and a version the game never had is refused."""
    assert (rating_version("golf"), rating_version("kansas")) == (1, 2)
    now, then = rate_seed("kansas", {}, 2), rate_seed("kansas", {}, 2, version=1)
    assert (now.version, then.version) == (2, 1)
    assert set(now.players) == {"random", "greedy", "lookahead"}
    assert set(then.players) == {"random", "greedy", "rollout"}
    assert then.playouts["rollout"] == 8
    # the solver's evidence and the players both versions share are the same
    assert (now.nodes, now.moves, now.first_moves) == (then.nodes, then.moves, then.first_moves)
    assert now.progress["random"] == then.progress["random"]
    assert now.progress["greedy"] == then.progress["greedy"]
    assert then.tier == tier_of("kansas", {}, then.score, 1) is not None
    assert now.tier == tier_of("kansas", {}, now.score, 2) is not None
    assert calibration_entry("kansas", {}, 1) != calibration_entry("kansas", {})
    # what version 1 gave this deal when it was current: a change to `rollout` or to the
    # ladder's order would change old ratings, which must never change
    assert (round(then.score, 6), then.tier) == (0.68658, 5)
    progress = {player: round(share, 6) for player, share in then.progress.items()}
    assert progress == {"random": 0.110577, "greedy": 0.25, "rollout": 0.245192}
    with pytest.raises(UnknownRatingVersionError, match="kansas has no rating version 3"):
        rate_seed("kansas", {}, 2, version=3)
    with pytest.raises(UnknownRatingVersionError, match="golf has no rating version 2"):
        rated_again("golf", GOLF_WRAP, 0, None, 2)


def test_deals_of_an_earlier_rating_version_are_kept_and_never_dealt(tmp_path: Path) -> None:
    """A catalog deal rated with an earlier version of its game's rating is not dealt (its
    tier is not one of today's tiers), is counted apart, and comes back if that version
    were current again; other games' deals are untouched."""
    engine = make_engine(f"sqlite:///{tmp_path / 'catalog.sqlite3'}")
    migrate(engine)

    def kansas(seed: int, version: int) -> Certified:
        rating = {"tier": 5, "score": 0.5, "version": version, "players": {}}
        return Certified(seed, 10, 0.01, 40, rating)

    with engine.begin() as connection:
        add(connection, "kansas", {}, kansas(7, 1), at=time.time(), origin="random")
        add(connection, "kansas", {}, kansas(8, 2), at=time.time(), origin="random")
        add(connection, "golf", GOLF_WRAP, rated(9, 5), at=time.time(), origin="random")
    with engine.begin() as connection:
        assert unused(connection, "kansas", {}) == 1
        (row,) = [r for r in counts(connection) if r["game"] == "kansas"]
        assert (row["deals"], row["unused"], row["superseded"]) == (2, 1, 1)
        taken = take(connection, "kansas", {}, "session-a", (5, 5))
        assert taken is not None
        assert taken.seed == 8
        assert take(connection, "kansas", {}, "session-b", (5, 5)) is None
        assert take(connection, "golf", GOLF_WRAP, "session-c", (5, 5)) is not None
    report = cli(tmp_path / "catalog.sqlite3", "report")
    assert report.returncode == 0, report.stderr
    assert "1 rated with an earlier version of the rating (kept, not dealt)" in report.stdout
    engine.dispose()


#: One deal of every rated game and variant, rated by the current version of its game's
#: rating: (game, variant, seed, version, score, solver nodes, tier).
HELD_RATINGS = [
    ("golf", {"wrap": True}, 1, 1, 0.861851, 21356, 9),
    ("golf", {"wrap": False}, 3, 1, 0.599188, 188, 1),
    ("klondike", {"draw": 1}, 1, 2, 0.662911, 704, 6),
    ("klondike", {"draw": 3}, 1, 2, 0.766595, 7653, 5),
    ("kansas", {}, 2, 2, 0.685298, 2334, 5),
    ("expert", {}, 1, 1, 0.304679, 457, 1),
    ("freecell", {}, 1, 1, 0.575564, 903, 8),
]


@pytest.mark.parametrize(
    ("name", "variant", "seed", "version", "score", "nodes", "tier"),
    HELD_RATINGS,
    ids=[f"{case[0]}-{json.dumps(case[1])}" for case in HELD_RATINGS],
)
def test_a_rating_stays_what_its_version_gave(
    name: str,
    variant: dict[str, object],
    seed: int,
    version: int,
    score: float,
    nodes: int,
    tier: int,
) -> None:
    """A rating is what its version gives, on every machine and in every later patience of
    that version: a change to the players, the playouts, the formula, the calibration or a
    solver's search that moves one of these is a new version of that game's rating (bump
    ``rating_version``, keep the old one in ``former_playouts``, calibrate again), never a
    silent change. (A tripwire on a few deals, not a proof for all.)"""
    rating = rate_seed(name, variant, seed)
    assert rating.version == rating_version(name) == version
    assert (round(rating.score, 6), rating.nodes, rating.tier) == (score, nodes, tier)


def test_every_earlier_rating_version_is_kept_whole() -> None:
    """Each game's earlier versions name players of its ladder and have a calibration for
    every variant the current version calibrates, so a deal of any of them can be rated
    again; and no version is ahead of the current one."""
    for name, current in RATING_VERSIONS.items():
        former = GAMES[name].former_playouts
        assert all(1 <= version < current for version in former), name
        assert set(former) | {current} == set(range(1, current + 1)), name
        for version in former:
            assert set(playouts_of(name, version)) <= set(GAMES[name].playouts) | set(
                players_of(name)
            )
            for variant in GAMES[name].variants():
                if is_rated(name, variant):
                    assert calibration_entry(name, variant, version) is not None, (name, variant)


def test_generate_rates_again_the_deals_an_earlier_version_rated(tmp_path: Path) -> None:
    """After a game's rating moves on, the deals of a job that nobody was dealt are rated
    again in place by the next run of the job (it adds none: it has its count), not left
    undealt; a dealt one keeps the rating it was dealt with."""
    engine = make_engine(f"sqlite:///{tmp_path / 'catalog.sqlite3'}")
    migrate(engine)
    key = DealKey.fresh()
    generate(engine, "golf", GOLF_WRAP, 3, key=key, stream=5, jobs=1)
    before = catalog_of(engine)
    with engine.begin() as connection:
        # as if every deal had been rated with a version before Golf's current one, and
        # one of them dealt
        connection.execute(update(deals).values(rating_version=0))
        # and one the server's refill made (another origin), of a seed a job never drew
        add(connection, "golf", GOLF_WRAP, rated(3, 5), at=time.time(), origin="random")
        connection.execute(update(deals).where(deals.c.seed == "3").values(rating_version=0))
        assert take(connection, "golf", GOLF_WRAP, "dealt-one") is None
        connection.execute(
            update(deals).where(deals.c.seed == str(before[0][0])).values(session_id="dealt")
        )
        assert unused(connection, "golf", GOLF_WRAP) == 0
    again = generate(engine, "golf", GOLF_WRAP, 3, key=key, stream=5, jobs=1)
    assert (again.added, again.present, again.rerated) == (0, 3, 3)
    with engine.connect() as connection:
        assert unused(connection, "golf", GOLF_WRAP) == 3
        versions = dict(connection.execute(select(deals.c.seed, deals.c.rating_version)).all())
    assert versions == {
        str(before[0][0]): 0,
        str(before[1][0]): 1,
        str(before[2][0]): 1,
        "3": 1,
    }
    after = [row for row in catalog_of(engine) if row[0] != 3]
    assert after[1:] == before[1:]  # rated as a run today rates them
    engine.dispose()


def test_rate_says_an_earlier_version_s_rating_on_the_command_line(tmp_path: Path) -> None:
    database = tmp_path / "catalog.sqlite3"
    then = cli(database, "rate", "kansas", "--seed", "2", "--rating-version", "1", "--json")
    assert then.returncode == 0, then.stderr
    assert json.loads(then.stdout)["version"] == 1
    assert "rollout" in json.loads(then.stdout)["players"]
    unknown = cli(database, "rate", "kansas", "--seed", "2", "--rating-version", "7")
    assert unknown.returncode == 1
    assert unknown.stderr.strip() == (
        "patience: kansas has no rating version 7 (this patience rates it with version 2, "
        "and can rate again with 1, 2)"
    )


def test_calibrate_checks_the_file_it_will_write_before_rating(tmp_path: Path) -> None:
    """A file that is not a calibration file is refused at once, in one line; one of the
    earlier form (one version for all games) is read as that version's."""
    for text in (
        "[]",
        '{"games": []}',
        '{"games": {"golf": null}}',
        '{"games": {"golf": {"1": 3}}}',
        "{x",
    ):
        path = tmp_path / "calibration.json"
        path.write_text(text)
        started = time.monotonic()
        answer = cli(
            tmp_path / "db.sqlite3", "calibrate", "kansas", "--count", "150", "--write", str(path)
        )
        assert answer.returncode == 1, (text, answer.stderr)
        assert answer.stderr.count("\n") == 1, answer.stderr
        assert f"patience: {path} is not a calibration file" in answer.stderr
        assert path.read_text() == text  # left as it was
        assert time.monotonic() - started < 60  # refused before 150 Kansas ratings
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"version": 1, "games": {"golf": {"{}": {"cuts": [0.5]}}}}))
    assert read_calibrations(old) == {"games": {"golf": {"1": {"{}": {"cuts": [0.5]}}}}}


def test_the_score_grows_with_the_players_losses() -> None:
    easy = difficulty_score({"a": 1.0, "b": 1.0}, 1.0, 100)
    middle = difficulty_score({"a": 0.0, "b": 1.0}, 1.0, 100)
    hard = difficulty_score({"a": 0.0, "b": 0.0}, 1.0, 100)
    assert easy < middle < hard
    assert difficulty_score({"a": 0.5}, 0.2, 100) > difficulty_score({"a": 0.5}, 0.9, 100)


def test_a_killed_job_run_again_ends_with_the_same_catalog(
    tmp_path: Path, engine: Engine, deal_key_file: Path
) -> None:
    # every deal rated in full, so that the job runs long enough to be killed midway: four
    # deals in chunks of one, killed once one to three are in (each deal takes seconds, the
    # watch looks every 50 ms)
    count = 4
    key = DealKey.load(deal_key_file)
    generate(engine, "golf", GOLF_WRAP, count, key=key, stream=5, jobs=1, policy=FULL)
    whole = catalog_of(engine)
    assert len(whole) == count
    assert all(tier is not None for _, tier, _ in whole)

    database = tmp_path / "killed.sqlite3"
    env = os.environ | {"PATIENCE_DATABASE_URL": f"sqlite:///{database}"}
    command = [sys.executable, "-m", "patience.cli", "deals", "generate", "golf", "--wrap"]
    options = ["--count", str(count), "--stream", "5", "--jobs", "1", "--chunk", "1"]
    options += ["--quiet", "--full"]
    migrate_url(f"sqlite:///{database}")
    job = subprocess.Popen([*command, *options], env=env, stdout=subprocess.DEVNULL)
    killed = make_engine(f"sqlite:///{database}")
    deadline = time.monotonic() + 900  # a deadline: the job writes its first chunk in seconds
    while time.monotonic() < deadline and job.poll() is None:
        written = len(catalog_of(killed))
        if 1 <= written < count:
            job.send_signal(signal.SIGKILL)
            break
        time.sleep(0.05)
    job.wait(timeout=900)
    assert job.returncode == -signal.SIGKILL, "the job ended before it could be killed"
    partial = catalog_of(killed)
    assert 1 <= len(partial) < count
    done = subprocess.run([*command, *options], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "already there" in done.stdout
    assert catalog_of(killed) == whole  # nothing lost, nothing twice
    killed.dispose()


def test_a_dask_cluster_builds_the_catalog_local_processes_build(
    tmp_path: Path, engine: Engine
) -> None:
    """A real cluster: a scheduler and two worker processes, started here."""
    dask = Path(sys.executable).with_name("dask")
    address_file = tmp_path / "scheduler.json"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    scheduler = subprocess.Popen(
        [
            dask,
            "scheduler",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--no-dashboard",
            "--scheduler-file",
            address_file,
        ],
        **quiet,
    )
    worker = None
    try:
        deadline = time.monotonic() + 300  # a deadline: the scheduler starts in seconds
        address = None
        while address is None and time.monotonic() < deadline:
            try:  # the file appears first and is written after: read it once it is whole
                address = json.loads(address_file.read_text())["address"]
            except (FileNotFoundError, json.JSONDecodeError, KeyError):
                time.sleep(0.1)
        assert address is not None, "the scheduler wrote no address in 300 s"
        worker = subprocess.Popen(
            [dask, "worker", address, "--nworkers", "2", "--nthreads", "1", "--no-dashboard"],
            **quiet,
        )
        key = DealKey.fresh()
        generate(engine, "golf", GOLF_WRAP, 6, key=key, stream=9, jobs=2)
        local = catalog_of(engine)
        cluster = make_engine(f"sqlite:///{tmp_path / 'cluster.sqlite3'}")
        migrate(cluster)
        generate(cluster, "golf", GOLF_WRAP, 6, key=key, stream=9, scheduler=address, chunk=4)
        assert catalog_of(cluster) == local
        cluster.dispose()
    finally:
        for process in (worker, scheduler):
            if process is not None:
                process.terminate()
                process.wait(timeout=120)


def rated(seed: int, tier: int) -> Certified:
    rating = {"tier": tier, "score": tier / 10, "version": rating_version("golf"), "players": {}}
    return Certified(seed, 10, 0.01, 40, rating)


def cli(database: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = os.environ | {"PATIENCE_DATABASE_URL": f"sqlite:///{database}"}
    command = [sys.executable, "-m", "patience.cli", "deals", *args]
    return subprocess.run(command, env=env, capture_output=True, text=True)


def test_pick_export_and_report(tmp_path: Path) -> None:
    database = tmp_path / "catalog.sqlite3"
    engine = make_engine(f"sqlite:///{database}")
    migrate(engine)
    generate(engine, "golf", GOLF_WRAP, 4, key=DealKey.fresh(), stream=2, jobs=1)
    exported = cli(database, "export", "golf", "--wrap", "--json")
    assert exported.returncode == 0, exported.stderr
    lines = [json.loads(line) for line in exported.stdout.splitlines()]
    assert len(lines) == 4
    first = lines[0]
    assert set(first) >= {"seed", "tier", "score", "players", "moves", "nodes", "version"}
    # rated by the shipped model (the strong player's playouts only on a sample): the
    # cheap players always play, and the export says how the deal was rated
    assert set(first["players"]) >= {"random", "greedy"}
    assert first["method"] in ("cheap", "full")
    assert first["model"] is not None

    picked = cli(database, "pick", "golf", "--wrap", "--tier", str(first["tier"]), "--json")
    assert picked.returncode == 0, picked.stderr
    answer = json.loads(picked.stdout)
    assert answer["tier"] == first["tier"]
    same_tier = [line["seed"] for line in lines if line["tier"] == first["tier"]]
    assert answer["seed"] in same_tier
    for _ in same_tier[1:]:
        assert cli(database, "pick", "golf", "--wrap", "--tier", str(first["tier"])).returncode == 0
    gone = cli(database, "pick", "golf", "--wrap", "--tier", str(first["tier"]))
    assert gone.returncode == 1
    assert f"no unused Golf, wrap deal of tier {first['tier']}" in gone.stderr
    assert cli(database, "pick", "golf", "--tier", "11").returncode == 2
    bad = cli(database, "generate", "golf", "--count", "1", "--scheduler", "nonsense")
    assert bad.returncode == 2
    assert "tcp://HOST:PORT" in bad.stderr

    png = tmp_path / "report.png"
    report = cli(database, "report", "--json", "--png", str(png))
    assert report.returncode == 0, report.stderr
    counts = json.loads(report.stdout)["deals"]
    assert sum(row["deals"] for row in counts) == 4
    assert sum(row["unused"] for row in counts) == 4 - len(same_tier)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    rated_one = cli(database, "rate", "golf", "--wrap", "--seed", "0", "--json")
    assert json.loads(rated_one.stdout)["version"] == rating_version("golf")
    unsolvable = cli(database, "rate", "golf", "--no-wrap", "--seed", "1")
    assert unsolvable.returncode == 1
    assert "not certified" in unsolvable.stderr
    engine.dispose()


def test_the_report_figure_says_what_it_shows(tmp_path: Path) -> None:
    """``deals report --png``: each plot titled with the game and variant as the lobby
    writes them, axes labelled, counts in whole numbers, and no point (nor a line drawn to
    zero) at a tier without deals."""
    engine = make_engine(f"sqlite:///{tmp_path / 'report.sqlite3'}")
    migrate(engine)
    tiers = {2: 3, 5: 1, 6: 2}  # tiers 1, 3, 4 and 7-10 have no deals
    with engine.begin() as connection:
        seed = 0
        for tier, count in tiers.items():
            for _ in range(count):
                rating = rated(seed, tier).rating | {
                    "players": {"greedy": tier / 10, "random": 0.0}
                }
                add(
                    connection,
                    "golf",
                    GOLF_WRAP,
                    Certified(seed, 10, 0.01, 40, rating),
                    at=1,
                    origin="random",
                )
                seed += 1
        rows = counts(connection)
    figure = catalog_figure(engine, rows)
    count_axis, rate_axis = figure.axes[0], figure.axes[1]
    assert count_axis.get_title() == "Golf, wrap: 6 deals, 6 unused"
    assert rate_axis.get_title() == "Golf, wrap: reference players' mean win rate"
    assert (count_axis.get_xlabel(), count_axis.get_ylabel()) == ("tier", "deals")
    assert (rate_axis.get_xlabel(), rate_axis.get_ylabel()) == ("tier", "win rate")
    ticks = [t for t in count_axis.get_yticks() if 0 <= t <= count_axis.get_ylim()[1]]
    assert ticks
    assert all(float(t).is_integer() for t in ticks)
    assert [t.get_text() for t in rate_axis.get_yticklabels()][-1].endswith("%")
    greedy = next(line for line in rate_axis.get_lines() if line.get_label() == "greedy")
    heights = dict(zip(greedy.get_xdata(), greedy.get_ydata(), strict=True))
    assert [tier for tier, height in heights.items() if not math.isnan(height)] == [2, 5, 6]
    assert heights[5] == pytest.approx(0.5)
    empty = catalog_figure(engine, [])
    assert empty.axes[0].get_title() == "no rated deals yet"
    engine.dispose()


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    settings = Settings(
        database_url=database_url, catalog_refill=0, rate_starts=None, guest_timed=0
    )
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def stock(client: TestClient, deals_by_tier: dict[int, int]) -> None:
    """Rated Golf (wrap) deals straight into the server's catalog: seeds 100 and up."""
    engine = make_engine(client.app.state.settings.database_url)  # type: ignore[attr-defined]
    seed = 100
    with engine.begin() as connection:
        for tier, count in deals_by_tier.items():
            for _ in range(count):
                add(
                    connection,
                    "golf",
                    GOLF_WRAP,
                    rated(seed, tier),
                    at=time.time(),
                    origin="random",
                )
                seed += 1
    engine.dispose()


def new(client: TestClient, **request: Any) -> Any:
    return client.post("/api/sessions", json={"game": "golf", "variant": GOLF_WRAP, **request})


def test_players_choose_a_difficulty_and_see_the_tier(client: TestClient) -> None:
    stock(client, {2: 1, 5: 1, 9: 2})
    games = {game["name"]: game for game in client.get("/api/games").json()}
    assert games["golf"]["difficulties"] == list(DIFFICULTIES)
    for name in GAMES:  # every game is rated and calibrated
        assert games[name]["difficulties"] == list(DIFFICULTIES), name
    assert {"wrap": True} in games["golf"]["rated_variants"]
    hard_ones = []
    for difficulty, tiers in [("easy", {2}), ("medium", {5}), ("expert", {9}), ("expert", {9})]:
        answer = new(client, difficulty=difficulty)
        assert answer.status_code == 201, answer.text
        body = answer.json()
        assert body["tier"] in tiers
        assert body["difficulty"] == difficulty
        assert body["certified"] is True
        assert body["seed"] is None  # a timed game's seed stays secret
        hard_ones.append(body["id"])
        again = client.get(
            f"/api/sessions/{body['id']}", headers={"Authorization": f"Bearer {body['token']}"}
        )
        assert again.json()["tier"] == body["tier"]
    refused = new(client, difficulty="expert")
    assert refused.status_code == 409
    assert "no Expert deal of Golf (wrap) is left" in refused.json()["detail"]
    hard = new(client, difficulty="hard")
    assert hard.status_code == 409  # none was ever there: not another tier instead
    practice = new(client, difficulty="easy", mode="practice")
    assert practice.status_code == 409  # the one easy deal was dealt
    assert new(client, difficulty="impossible").status_code == 422
    seeded = new(client, difficulty="easy", mode="practice", seed=5)
    assert seeded.status_code == 400
    assert "not a seed" in seeded.json()["detail"]


def test_a_practice_game_of_a_difficulty_shows_its_seed(client: TestClient) -> None:
    stock(client, {7: 1})
    answer = new(client, difficulty="hard", mode="practice")
    assert answer.status_code == 201, answer.text
    assert answer.json()["tier"] == 7
    assert answer.json()["seed"] == 100
    again = new(client, mode="practice", seed=100)  # the deal again, by its seed
    assert again.json()["tier"] == 7
    assert new(client, mode="practice", seed=101).json()["tier"] is None


def test_leaving_a_deal_of_a_difficulty_does_not_buy_an_easier_tier(client: TestClient) -> None:
    """Deal shopping within a difficulty: a player who ends a Medium deal of tier 6 at
    once gets tier 6 again, not the older tier-4 deal next in line."""
    engine = make_engine(client.app.state.settings.database_url)  # type: ignore[attr-defined]
    with engine.begin() as connection:
        for seed, tier in ((100, 6), (101, 4), (102, 6)):
            add(connection, "golf", GOLF_WRAP, rated(seed, tier), at=time.time(), origin="random")
    engine.dispose()
    first = new(client, difficulty="medium")
    assert first.status_code == 201, first.text
    assert first.json()["tier"] == 6
    headers = {"Authorization": f"Bearer {first.json()['token']}"}
    client.post(f"/api/sessions/{first.json()['id']}/end", headers=headers)
    second = new(client, difficulty="medium")
    assert second.status_code == 201, second.text
    assert second.json()["tier"] == 6  # the tier left, again
    headers = {"Authorization": f"Bearer {second.json()['token']}"}
    client.post(f"/api/sessions/{second.json()['id']}/end", headers=headers)
    third = new(client, difficulty="medium")  # no tier 6 is left: any Medium deal
    assert third.json()["tier"] == 4
