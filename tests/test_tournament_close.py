"""A tournament's close holds: no game outlives it, outage or not; an early close or a
cancellation is recorded, published and told; one attempt runs at a time, whatever starts
at once; the publication is made once, ranked in n log n, and served at a bounded rate."""

from __future__ import annotations

import copy
import random
import signal
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, func, select

from patience.catalog import rating_witness
from patience.errors import PatienceError, TimeUpError
from patience.players import Accounts, User
from patience.server import Settings, create_app, launch
from patience.server.views import session_json
from patience.store.db import (
    events,
    make_engine,
    migrate,
    migrate_url,
    sessions,
    tournament_games,
    tournaments,
)
from patience.store.games import GameStore, Live
from patience.tournaments import TournamentError, Tournaments, notices, rank_entries, verify
from test_tournaments import Clock
from test_tournaments import stock as catalog_stock

GOLF = {"wrap": True}
PASSWORD = "a good password"


def stock(engine: Engine, count: int, tier: int | None = 4) -> None:
    """``count`` Golf deals of ``tier`` in the catalog."""
    catalog_stock(engine, count, tier, first=300)


def enter(base: str, name: str, tid: str) -> tuple[dict[str, str], dict[str, str]]:
    """Sign ``name`` up at the server ``base`` and join tournament ``tid``: the cookies and
    headers of their requests."""
    signed = httpx.post(f"{base}/api/accounts", json={"name": name, "password": PASSWORD})
    assert signed.status_code == 201, signed.text
    cookies = {"patience_session": signed.cookies["patience_session"]}
    headers = {"X-CSRF-Token": signed.json()["csrf"]}
    joined = httpx.post(f"{base}/api/tournaments/{tid}/join", cookies=cookies, headers=headers)
    assert joined.status_code == 200, joined.text
    return cookies, headers


World = tuple[Engine, Clock, GameStore, Tournaments, Accounts]


@pytest.fixture
def world(database_url: str) -> Iterator[World]:
    engine = make_engine(database_url)
    migrate(engine)
    clock = Clock()
    store = GameStore(engine, clock=clock)
    cups = Tournaments(store, clock=clock)
    store.on_game_end(cups.game_ended)
    yield engine, clock, store, cups, Accounts(engine, clock=clock)
    engine.dispose()


def cup(cups: Tournaments, operator: User, clock: Clock, *, minutes: float, **more: Any) -> str:
    made = cups.create(
        operator,
        name="Close call",
        game="golf",
        variant=GOLF,
        policy=more.pop("policy", "shared"),
        tier=more.pop("tier", None),
        opens_at=clock.now,
        closes_at=clock.now + 60 * minutes,
        **more,
    )
    return str(made["id"])


def attempt_with_a_move(world: World) -> tuple[User, str, Live]:
    """A tournament of one shared Golf deal, Ada's attempt at it held in this process's
    memory, and her first move, ten seconds in: the operator, the tournament, the attempt."""
    engine, clock, store, cups, accounts = world
    stock(engine, 1)
    operator = accounts.create("Operator", PASSWORD, operator=True)
    ada = accounts.create("Ada", PASSWORD)
    tid = cup(cups, operator, clock, minutes=30)
    cups.join(ada, tid)
    running, _ = cups.start_attempt(ada, tid)
    clock.now += 10
    store.play(running, str(running.game.legal_moves()[0]))
    return operator, tid, running


def test_an_outage_across_the_close_ends_the_attempt_at_the_close(world: World) -> None:
    """The attack: a server killed 10 s before the close and started 7.5 s after it had
    credited the outage to a running attempt, which played on after the deals were out."""
    engine, clock, store, cups, accounts = world
    stock(engine, 1)
    operator = accounts.create("Operator", PASSWORD, operator=True)
    ada = accounts.create("Ada", PASSWORD)
    start = clock.now
    tid = cup(cups, operator, clock, minutes=200 / 60)
    cups.join(ada, tid)
    clock.now = start + 20
    live, _ = cups.start_attempt(ada, tid)
    assert live.session.time_limit == 180  # Golf's clock: the attempt ends with the close
    clock.now = start + 30
    store.play(live, str(live.game.legal_moves()[0]))
    clock.now = start + 190
    store.beat("server-1", started=True)  # the last heartbeat: killed 10 s before the close
    clock.now = start + 207.5
    restarted = GameStore(engine, clock=clock)
    restarted.on_game_end(cups.game_ended)
    outage = restarted.credit_outage(stale_after=2.0)
    assert outage is not None
    assert outage.games == 1
    again = restarted.load(live.id)
    view = session_json(again)
    assert view["outcome"] == {"won": False, "reason": "closed"}  # not playing on
    assert view["legal_moves"] == []
    with pytest.raises(TimeUpError):
        restarted.play(again, "draw")
    assert again.session.elapsed() == pytest.approx(170.0)  # 20 s to 190 s: the outage free
    with engine.connect() as connection:
        ended_at, paused = connection.execute(
            select(sessions.c.ended_at, sessions.c.paused).where(sessions.c.id == live.id)
        ).one()
    assert ended_at == pytest.approx(start + 200)  # at the close, not after
    assert paused == pytest.approx(10.0)  # credited up to the close only
    published = Tournaments(restarted, clock=clock).verification(tid)
    assert verify(published) == []
    late = copy.deepcopy(published)
    late["entries"][0]["attempts"][0]["finished_at"] = start + 205
    assert any("finished after the close" in p for p in verify(late))


def test_a_server_killed_before_the_close_and_started_after_it_plays_nothing_on(
    tmp_path: Path,
) -> None:
    """The same with real processes: SIGKILL before the close, start after it."""
    database, port = tmp_path / "games.sqlite3", launch.free_port()
    engine = make_engine(f"sqlite:///{database}")
    migrate(engine)
    stock(engine, 1)
    operator = Accounts(engine).create("Operator", PASSWORD, operator=True)
    base = f"http://127.0.0.1:{port}"
    # the slow parts before the close's time is fixed, so that a busy machine still plays
    # before it: the server's start, and the document's reference rating (remembered)
    server = launch.start(database, port, PATIENCE_CATALOG_REFILL="0")
    rating_witness("golf", GOLF)
    closes = time.time() + 10
    try:
        tid = Tournaments(GameStore(engine)).create(
            operator,
            name="Close call",
            game="golf",
            variant=GOLF,
            policy="shared",
            tier=None,
            opens_at=time.time() - 1,
            closes_at=closes,
        )["id"]
        cookies, headers = enter(base, "Ada", tid)
        game = httpx.post(
            f"{base}/api/tournaments/{tid}/attempts", cookies=cookies, headers=headers
        ).json()
        moved = httpx.post(
            f"{base}/api/sessions/{game['id']}/moves",
            cookies=cookies,
            headers=headers,
            json={"move": game["legal_moves"][0]},
        )
        assert moved.status_code == 200, moved.text
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait()
    while time.time() < closes + 2:  # down across the close
        time.sleep(0.2)
    server = launch.start(database, port, PATIENCE_CATALOG_REFILL="0")
    try:
        view = httpx.get(f"{base}/api/sessions/{game['id']}", cookies=cookies).json()
        assert view["outcome"] == {"won": False, "reason": "closed"}
        refused = httpx.post(
            f"{base}/api/sessions/{game['id']}/moves",
            cookies=cookies,
            headers=headers,
            json={"move": "draw"},
        )
        assert refused.status_code in (400, 409)
        published = httpx.get(f"{base}/api/tournaments/{tid}/verification").json()
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    (attempt,) = published["entries"][0]["attempts"]
    assert attempt["finished_at"] <= published["document"]["closes_at"]
    assert verify(published) == []
    engine.dispose()


def test_an_early_close_is_recorded_published_and_told(world: World) -> None:
    engine, clock, store, cups, accounts = world
    stock(engine, 1)
    operator = accounts.create("Operator", PASSWORD, operator=True)
    ada, bob = accounts.create("Ada", PASSWORD), accounts.create("Bob", PASSWORD)
    tid = cup(cups, operator, clock, minutes=60)
    committed = cups.public(tid)["closes_at"]
    for user in (ada, bob):
        cups.join(user, tid)
    finished, _ = cups.start_attempt(ada, tid)
    clock.now += 40
    store.play(finished, "end")
    running, _ = cups.start_attempt(bob, tid)
    clock.now += 10
    store.play(running, str(running.game.legal_moves()[0]))
    clock.now += 5
    cups.close(operator, tid)
    # Bob's view says the tournament closed, not that his clock ran out
    view = session_json(store.load(running.id))
    assert view["outcome"] == {"won": False, "reason": "closed"}
    public = cups.public(tid)
    assert public["status"] == "finished"
    assert public["closing"] == {
        "at": clock.now,
        "committed": int(committed),
        "early": True,
        "by": "Operator",
        "cancelled": False,
    }
    published = cups.verification(tid)
    assert published["closing"]["early"] is True
    assert verify(published) == []
    said = notices(published)
    assert len(said) == 1
    assert said[0].startswith("closed early by Operator, 3545 s before")
    bobs = published["entries"][1]["attempts"][0]
    assert bobs["finished_at"] == pytest.approx(clock.now)
    # a publication that says it closed after its committed time is refused
    bent = copy.deepcopy(published)
    bent["closing"]["at"] = committed + 10
    assert any("after its committed closing time" in p for p in verify(bent))


def test_an_early_close_by_another_process_verifies_in_the_server_holding_the_game(
    world: World,
) -> None:
    """The server holds a running attempt in memory; the operator closes the tournament
    from another process (the command line), which ends the attempt at the close. The
    server, reading that end, takes the close's new end first: its verification replays
    the attempt (it used to refuse it: "timeout logged at ... before the clock ran out")."""
    engine, clock, store, cups, _ = world
    operator, tid, running = attempt_with_a_move(world)
    clock.now += 150.25
    command_line = GameStore(engine, clock=clock)
    elsewhere = Tournaments(command_line, clock=clock)
    command_line.on_game_end(elsewhere.game_ended)
    elsewhere.close(operator, tid)
    clock.now += 5
    with running.lock:  # as a request about the game does
        store.refresh(running)
    assert session_json(running)["outcome"] == {"won": False, "reason": "closed"}
    published = cups.verification(tid)
    assert verify(published) == []
    assert published["entries"][0]["attempts"][0]["finished_at"] == pytest.approx(clock.now - 5)


def test_no_move_is_logged_after_a_close_another_process_committed(world: World) -> None:
    """The race of an attacker's tight loop of moves against an operator's close: the close
    has committed the attempt's new end (from another process) but not yet logged it, and
    the server holding the attempt plays a move after that end from its copy, which still
    has the old one. The log refuses it in the move's own transaction, so the server reads
    the game again and refuses the move; on the old code the move was logged after the
    close, the close kept losing the log's next place to such moves, gave up ("kept moving
    while it was closed") and left a tournament that failed its verification."""
    engine, clock, store, _, _ = world
    _, _, running = attempt_with_a_move(world)
    closed_at = clock.now + 5
    with engine.begin() as connection:  # the close's first step, made by another process
        connection.execute(
            sessions.update().where(sessions.c.id == running.id).values(ends_at=closed_at)
        )
    clock.now += 6
    before = running.session.move_count
    with pytest.raises(TimeUpError):
        store.play(running, str(running.game.legal_moves()[0]))
    assert running.session.move_count == before
    with engine.connect() as connection:
        latest = connection.execute(
            select(func.max(events.c.at)).where(
                (events.c.session_id == running.id) & (events.c.kind == "move")
            )
        ).scalar_one()
    assert latest <= closed_at


def test_an_early_close_holds_against_moves_in_a_tight_loop(world: World) -> None:
    """A player's moves from another thread, as fast as they go, while an operator closes
    the tournament: the close goes through and the tournament verifies."""
    engine, clock, store, cups, accounts = world
    clock.now = time.time()
    stock(engine, 1)
    operator = accounts.create("Operator", PASSWORD, operator=True)
    bob = accounts.create("Bob", PASSWORD)
    tid = cup(cups, operator, clock, minutes=30, policy="shared")
    cups.join(bob, tid)
    running, _ = cups.start_attempt(bob, tid)
    playing = True

    def moves() -> int:
        played = 0
        while playing:
            legal = running.game.legal_moves()
            if not legal:
                return played
            try:
                store.play(running, str(legal[0]))
            except PatienceError:
                return played  # the close ended the game
            played += 1
            clock.now += 0.001
        return played

    with ThreadPoolExecutor(1) as pool:
        player = pool.submit(moves)
        command_line = GameStore(engine, clock=clock)
        elsewhere = Tournaments(command_line, clock=clock)
        command_line.on_game_end(elsewhere.game_ended)
        elsewhere.close(operator, tid)
        playing = False
        player.result(timeout=300)
    with running.lock:
        store.refresh(running)
    assert running.session.is_over()
    assert verify(cups.verification(tid)) == []


def test_a_cancelled_tournament_ranks_nobody(world: World) -> None:
    engine, clock, store, cups, accounts = world
    stock(engine, 1)
    operator = accounts.create("Operator", PASSWORD, operator=True)
    ada = accounts.create("Ada", PASSWORD)
    tid = cup(cups, operator, clock, minutes=60)
    cups.join(ada, tid)
    live, _ = cups.start_attempt(ada, tid)
    clock.now += 30
    store.play(live, "end")
    with pytest.raises(TournamentError, match="only an operator"):
        cups.cancel(ada, tid)
    cups.cancel(operator, tid)
    assert cups.public(tid)["closing"]["cancelled"] is True
    table = cups.standings(tid)
    assert table["cancelled"] is True
    assert table["entries"] == []
    published = cups.verification(tid)
    assert [entry["rank"] for entry in published["entries"]] == [None]
    assert verify(published) == []
    assert "cancelled: nobody is ranked" in notices(published)
    ranked = copy.deepcopy(published)
    ranked["entries"][0]["rank"] = 1
    assert verify(ranked) != []


def test_one_attempt_runs_however_many_start_at_once(world: World) -> None:
    """Three starts at once, five rounds: one attempt dealt each round, never two running
    (on SQLite two had run in 2 of 5 rounds)."""
    engine, clock, _, cups, accounts = world
    stock(engine, 1)
    operator = accounts.create("Operator", PASSWORD, operator=True)
    players = [accounts.create(f"Player {k}", PASSWORD) for k in range(5)]
    tid = cup(cups, operator, clock, minutes=60, attempts=10)
    for player in players:
        cups.join(player, tid)

    def start(player: User) -> str | None:
        try:
            return cups.start_attempt(player, tid)[0].id
        except TournamentError:
            return None

    for player in players:
        with ThreadPoolExecutor(3) as pool:
            dealt = [game for game in pool.map(start, [player] * 3) if game is not None]
        assert len(dealt) == 1
        with engine.connect() as connection:
            running = connection.execute(
                select(func.count())
                .select_from(tournament_games)
                .where(tournament_games.c.user_id == player.id)
            ).scalar_one()
        assert running == 1
        assert cups.entrant(tid, player.id)["attempts_used"] == 1


def test_attempts_started_at_once_through_two_servers(fresh_postgres_url: str) -> None:
    engine = make_engine(fresh_postgres_url)
    migrate(engine)
    stock(engine, 1)
    operator = Accounts(engine).create("Operator", PASSWORD, operator=True)
    tid = Tournaments(GameStore(engine)).create(
        operator,
        name="Two at once",
        game="golf",
        variant=GOLF,
        policy="shared",
        tier=None,
        opens_at=time.time() - 1,
        closes_at=time.time() + 600,
        attempts=10,
    )["id"]
    ports = [launch.free_port(), launch.free_port()]
    servers = [
        launch.start(fresh_postgres_url, port, PATIENCE_CATALOG_REFILL="0") for port in ports
    ]
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    try:
        for round_ in range(4):
            cookies, headers = enter(bases[round_ % 2], f"Racer {round_}", tid)

            def attempt(k: int, cookies: dict[str, str] = cookies, headers: Any = headers) -> int:
                return httpx.post(
                    f"{bases[k % 2]}/api/tournaments/{tid}/attempts",
                    cookies=cookies,
                    headers=headers,
                    timeout=30,
                ).status_code

            with ThreadPoolExecutor(4) as pool:
                codes = list(pool.map(attempt, range(4)))
            assert codes.count(201) == 1, codes
            me = httpx.get(f"{bases[0]}/api/tournaments/{tid}", cookies=cookies).json()["me"]
            assert me["attempts_used"] == 1
    finally:
        for server in servers:
            server.send_signal(signal.SIGTERM)
        for server in servers:
            server.wait(timeout=30)
    engine.dispose()


def test_a_shared_deals_tier_is_not_shown_before_the_close(world: World) -> None:
    engine, clock, store, cups, accounts = world
    stock(engine, 1, tier=4)
    operator = accounts.create("Operator", PASSWORD, operator=True)
    ada = accounts.create("Ada", PASSWORD)
    tid = cup(cups, operator, clock, minutes=60)
    assert cups.public(tid)["tier"] is None
    cups.join(ada, tid)
    live, _ = cups.start_attempt(ada, tid)
    assert session_json(live)["tier"] is None  # as the public page: no tier
    clock.now += 10
    store.play(live, "end")
    assert session_json(store.load(live.id))["tier"] is None


def test_ranks_follow_the_rule_at_any_size() -> None:
    """The ranking (sorted, n log n) against the rule read literally (every pair)."""
    rng = random.Random(7)
    entries = [
        {
            "score": rng.choice([None, 10, 20, 30]),
            "elapsed": float(rng.randint(1, 3)),
            "finished_at": float(rng.randint(1, 2)),
        }
        for _ in range(400)
    ]

    def literal(mine: dict[str, Any]) -> int | None:
        if mine["score"] is None:
            return None

        def key(e: dict[str, Any]) -> tuple[float, float, float]:
            return (-e["score"], e["elapsed"], e["finished_at"])

        return 1 + sum(e["score"] is not None and key(e) < key(mine) for e in entries)

    assert rank_entries(entries) == [literal(e) for e in entries]


def test_the_publication_is_made_once_and_its_route_is_rate_limited(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    migrate_url(url)
    settings = Settings(
        database_url=url,
        catalog_refill=0,
        rate_verifications=Settings().rate_verifications,
    )
    with TestClient(create_app(settings)) as client:
        engine = make_engine(settings.database_url)
        stock(engine, 1)
        clock = Clock(time.time())
        operator = Accounts(engine).create("Operator", PASSWORD, operator=True)
        cups = Tournaments(GameStore(engine), clock=clock)
        tid = cup(cups, operator, clock, minutes=10)
        cups.close(operator, tid)
        first = client.get(f"/api/tournaments/{tid}/verification")
        assert first.status_code == 200
        with engine.connect() as connection:
            kept = connection.execute(
                select(tournaments.c.publication).where(tournaments.c.id == tid)
            ).scalar_one()
        assert kept == first.text  # made once, then served as kept
        assert first.headers["content-encoding"] == "gzip"  # httpx asks for it
        plain = client.get(
            f"/api/tournaments/{tid}/verification", headers={"Accept-Encoding": "identity"}
        )
        assert "content-encoding" not in plain.headers
        assert plain.text == kept
        unchanged = client.get(
            f"/api/tournaments/{tid}/verification", headers={"If-None-Match": first.headers["etag"]}
        )
        assert unchanged.status_code == 304
        assert unchanged.content == b""
        codes = [client.get(f"/api/tournaments/{tid}/verification").status_code for _ in range(12)]
        assert 429 in codes
        assert codes[:7] == [200] * 7  # a burst of 10 in all
        engine.dispose()
