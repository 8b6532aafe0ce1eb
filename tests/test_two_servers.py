"""Two real server processes on one PostgreSQL database serve the same games: moves sent
to either apply once each, in order, with the result one server would give; racing
requests through different servers neither double-apply nor get lost; the catalog deals
each deal once when both claim at the same time."""

from __future__ import annotations

import signal
import subprocess
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from patience.games import new_game
from patience.server import launch
from patience.store.catalog import variant_key
from patience.store.db import deals, events, make_engine, sessions
from patience.store.games import GameStore, certify_deal


@pytest.fixture
def servers(fresh_postgres_url: str) -> Iterator[tuple[str, str, str]]:
    """Two server processes started at the same time on one fresh, empty PostgreSQL
    database (they migrate it one after the other): their base URLs and the database's."""
    ports = [launch.free_port(), launch.free_port()]
    with ThreadPoolExecutor(2) as pool:
        started = [
            pool.submit(launch.start, fresh_postgres_url, port, PATIENCE_CATALOG_REFILL="0")
            for port in ports
        ]
        processes: list[subprocess.Popen[bytes]] = [future.result() for future in started]
    try:
        first, second = (f"http://127.0.0.1:{port}/api/sessions" for port in ports)
        yield first, second, fresh_postgres_url
    finally:
        for process in processes:
            process.send_signal(signal.SIGTERM)
        for process in processes:
            process.wait(timeout=120)


def post(url: str, headers: dict[str, str], **body: Any) -> httpx.Response:
    return httpx.post(url, json=body, headers=headers, timeout=120)


def test_moves_sent_alternately_to_two_servers_play_one_game(
    servers: tuple[str, str, str],
) -> None:
    first, second, _ = servers
    body = httpx.post(first, json={"game": "golf", "seed": 8, "mode": "practice"}).json()
    headers = {"Authorization": f"Bearer {body['token']}"}
    mirror = new_game("golf", seed=8)
    view = body
    for turn in range(30):
        if not view["legal_moves"]:
            break
        move = view["legal_moves"][turn % len(view["legal_moves"])]
        base = (first, second)[turn % 2]
        answer = post(f"{base}/{body['id']}/moves", headers, move=move)
        assert answer.status_code == 200, answer.text
        view = answer.json()
        mirror.play(move)
        assert view["board"] == mirror.observation()
        assert view["score"] >= mirror.score()
    for base in (first, second):
        seen = httpx.get(f"{base}/{body['id']}", headers=headers).json()
        assert seen["board"] == mirror.observation()
        assert seen["move_count"] == view["move_count"]


def test_racing_requests_through_two_servers_apply_once_each(
    servers: tuple[str, str, str],
) -> None:
    first, second, url = servers
    body = httpx.post(
        first, json={"game": "klondike", "variant": {"draw": 1}, "seed": 3, "mode": "practice"}
    ).json()
    headers = {"Authorization": f"Bearer {body['token']}"}
    game = body["id"]
    with ThreadPoolExecutor(2) as pool:
        for _ in range(10):  # two draws at once, one through each server, ten times
            answers = list(
                pool.map(
                    lambda base: post(f"{base}/{game}/moves", headers, move="draw"), servers[:2]
                )
            )
            assert [answer.status_code for answer in answers] == [200, 200]
        # The same request through both at once, as a client retrying on another server:
        # played once, and both answered as that one move.
        count = httpx.get(f"{first}/{game}", headers=headers).json()["move_count"]
        answers = list(
            pool.map(
                lambda base: post(f"{base}/{game}/moves", headers, move="draw", move_count=count),
                servers[:2],
            )
        )
    assert [answer.status_code for answer in answers] == [200, 200]
    assert sorted(answer.json()["repeated"] for answer in answers) == [False, True]
    assert answers[0].json()["last"] == answers[1].json()["last"]
    engine = make_engine(url)
    with engine.connect() as connection:
        moves = connection.execute(
            select(events.c.move).where(events.c.session_id == game, events.c.kind == "move")
        ).scalars()
        assert list(moves) == ["draw"] * 21
    engine.dispose()
    expected = new_game("klondike", seed=3, variant={"draw": 1})
    for _ in range(21):
        expected.play("draw")
    for base in (first, second):
        assert httpx.get(f"{base}/{game}", headers=headers).json()["board"] == (
            expected.observation()
        )


def test_two_servers_never_deal_one_catalog_deal_twice(servers: tuple[str, str, str]) -> None:
    first, second, url = servers
    engine = make_engine(url)
    store = GameStore(engine)
    stocked = sum(
        store.add_to_catalog(
            "golf", {"wrap": False}, certify_deal(**store.certify_request("golf", {"wrap": False}))
        )
        for _ in range(6)
    )
    assert stocked == 6
    with ThreadPoolExecutor(8) as pool:
        answers = list(
            pool.map(
                lambda index: httpx.post(
                    (first, second)[index % 2], json={"game": "golf"}, timeout=120
                ),
                range(12),
            )
        )
    assert [answer.status_code for answer in answers] == [201] * 12
    with engine.connect() as connection:
        claimed = connection.execute(
            select(deals.c.session_id).where(
                deals.c.game == "golf", deals.c.variant == variant_key({"wrap": False})
            )
        ).scalars()
        claimed_ids = list(claimed)
        games = connection.execute(select(func.count()).select_from(sessions)).scalar()
    assert None not in claimed_ids  # every catalog deal was dealt
    assert len(set(claimed_ids)) == 6  # each to one game
    assert {answer.json()["id"] for answer in answers} >= set(claimed_ids)
    assert games == 12
    engine.dispose()


def test_a_tournament_played_through_two_servers_has_one_standings(
    servers: tuple[str, str, str],
) -> None:
    import time

    from patience.players import Accounts
    from patience.store.catalog import Certified, add
    from patience.tournaments import Tournaments, verify

    first, second, url = servers
    bases = [f.removesuffix("/api/sessions") for f in (first, second)]
    engine = make_engine(url)
    with engine.begin() as connection:
        add(connection, "golf", {"wrap": True}, Certified(11, 9, 0.01, 40), at=1.0, origin="random")
    operator = Accounts(engine).create("Operator", "operator password", operator=True)
    made = Tournaments(GameStore(engine)).create(
        operator,
        name="Two servers",
        game="golf",
        variant={"wrap": True},
        policy="shared",
        tier=None,
        opens_at=time.time() - 1,
        closes_at=time.time() + 600,
    )
    tid = made["id"]
    players = []
    for k, name in enumerate(("Ada", "Bob")):
        base = bases[k]  # each signs up on a different server
        answer = httpx.post(f"{base}/api/accounts", json={"name": name, "password": "pass word 1"})
        assert answer.status_code == 201, answer.text
        cookie = {"patience_session": answer.cookies["patience_session"]}
        headers = {"X-CSRF-Token": answer.json()["csrf"]}
        joined = httpx.post(
            f"{bases[1 - k]}/api/tournaments/{tid}/join", cookies=cookie, headers=headers
        )
        assert joined.status_code == 200, joined.text
        players.append((cookie, headers))
    for k, (cookie, headers) in enumerate(players):
        game = httpx.post(
            f"{bases[k]}/api/tournaments/{tid}/attempts", cookies=cookie, headers=headers
        ).json()
        view = game
        for turn in range(6 + 4 * k):  # the two play differently
            if not view["legal_moves"]:
                break
            base = bases[turn % 2]  # moves sent alternately to both servers
            view = httpx.post(
                f"{base}/api/sessions/{game['id']}/moves",
                cookies=cookie,
                headers=headers,
                json={"move": view["legal_moves"][0]},
            ).json()
        ended = httpx.post(
            f"{bases[1 - k]}/api/sessions/{game['id']}/end", cookies=cookie, headers=headers
        )
        assert ended.status_code == 200, ended.text
    tables = [httpx.get(f"{base}/api/tournaments/{tid}/standings").json() for base in bases]
    assert tables[0] == tables[1]
    assert {row["name"] for row in tables[0]["entries"]} == {"Ada", "Bob"}
    closed = Tournaments(GameStore(engine)).close(operator, tid)
    assert closed["status"] == "finished"
    answers = [httpx.get(f"{base}/api/tournaments/{tid}/verification") for base in bases]
    assert [a.status_code for a in answers] == [200, 200], answers[0].text
    published = [a.json() for a in answers]
    assert published[0] == published[1]
    assert verify(published[0]) == []
    engine.dispose()
