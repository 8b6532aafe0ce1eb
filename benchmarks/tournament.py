"""Tournament standings and verification at scale, served by a real server, at 100
entries and at 10,000.

    .venv/bin/python benchmarks/tournament.py [--sizes 100 10000] [--requests 300]
        [--database-url postgresql+psycopg://...]

For each size: a fresh database (a SQLite file unless a URL is given) with one tournament
of that many entrants, each with a best attempt (scores drawn so that ties happen), a real
server process on it, and ``--requests`` requests of each kind in turn from one client,
after a warm-up: the standings' top page and a player's own rows ("around me") while it
runs; then, once it is closed, its verification. Then another player's moves (a practice
game) are timed on the idle server and again while three clients fetch the verification
in a loop. Prints medians and tails, the ratio of the largest size to the smallest
(target: within 2x), the verification against the standings' top page (target: within 2x)
and the moves' p99 beside the fetching clients against the idle one (target: within 2x).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import signal
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import insert

from patience.players import Accounts
from patience.server import launch
from patience.store.catalog import Certified, add
from patience.store.db import make_engine, migrate, tournament_entries, users
from patience.store.games import GameStore
from patience.tournaments import Tournaments

PASSWORD = "benchmark password"


def _prepare(url: str, size: int) -> str:
    """A tournament of ``size`` entrants in the database at ``url``: its id."""
    engine = make_engine(url)
    migrate(engine)
    with engine.begin() as connection:
        add(connection, "golf", {"wrap": True}, Certified(7, 9, 0.01, 40), at=1.0, origin="random")
    accounts = Accounts(engine)
    operator = accounts.create("Operator", PASSWORD, operator=True)
    me = accounts.create("Me", PASSWORD)
    now = time.time()
    made = Tournaments(GameStore(engine)).create(
        operator,
        name="Benchmark",
        game="golf",
        variant={"wrap": True},
        policy="shared",
        tier=None,
        opens_at=now - 60,
        closes_at=now + 86_400,
        max_entrants=size,
    )
    rng = random.Random(size)
    rows, people = [], []
    for number in range(size):
        user_id = me.id if number == size // 2 else f"u{number:031d}"
        if user_id != me.id:
            people.append(
                {
                    "id": user_id,
                    "name": f"Player {number}",
                    "name_key": f"player {number}",
                    "password_hash": "-",
                    "operator": False,
                    "created_at": now,
                }
            )
        rows.append(
            {
                "tournament_id": made["id"],
                "user_id": user_id,
                "number": number,
                "joined_at": now,
                "attempts_used": 1,
                "best_score": rng.randint(0, 60),
                "best_elapsed": float(rng.randint(30, 180)),
                "best_at": now + rng.randint(0, 3600),
            }
        )
    with engine.begin() as connection:
        connection.execute(insert(users), people)
        connection.execute(insert(tournament_entries), rows)
    engine.dispose()
    return str(made["id"])


def _time(client: httpx.Client, path: str, count: int) -> list[float]:
    for _ in range(20):
        client.get(path).raise_for_status()
    seconds = []
    for _ in range(count):
        started = time.perf_counter()
        client.get(path).raise_for_status()
        seconds.append(time.perf_counter() - started)
    return seconds


def _p90(values: list[float]) -> float:
    return sorted(values)[int(0.9 * (len(values) - 1))]


def _p99(values: list[float]) -> float:
    return sorted(values)[int(0.99 * (len(values) - 1))]


def _close(url: str, tournament: str) -> None:
    engine = make_engine(url)
    operator = Accounts(engine).log_in("Operator", PASSWORD, address="benchmark")
    Tournaments(GameStore(engine)).close(operator.user, tournament)
    engine.dispose()


def _moves(base: str, count: int) -> list[float]:
    """Seconds of each of ``count`` moves of practice games (each the first legal move,
    a new game when one ends), after a warm-up."""
    seconds: list[float] = []
    with httpx.Client(base_url=base) as client:
        while len(seconds) < count + 20:
            view = client.post(
                "/api/sessions", json={"game": "klondike", "mode": "practice", "seed": 7}
            ).json()
            headers = {"Authorization": f"Bearer {view['token']}"}
            game = view["id"]
            while view["legal_moves"] and len(seconds) < count + 20:
                started = time.perf_counter()
                answer = client.post(
                    f"/api/sessions/{game}/moves",
                    json={"move": view["legal_moves"][0]},
                    headers=headers,
                )
                seconds.append(time.perf_counter() - started)
                answer.raise_for_status()
                view = answer.json()
                time.sleep(0.005)  # a player's pace, not a flood
    return seconds[20 : 20 + count]


def _fetch(base: str, path: str, stop: Any, answered: Any, refused: Any) -> None:
    """One fetching client (a process of its own): ``path`` in a loop until ``stop``."""
    with httpx.Client(base_url=base, timeout=60) as client:
        while not stop.is_set():
            status = client.get(path).status_code
            assert status in (200, 429), status
            counter = answered if status == 200 else refused
            with counter.get_lock():
                counter.value += 1


def _beside_fetchers(base: str, path: str, count: int) -> tuple[list[float], Counter[int]]:
    """Moves timed while three clients fetch ``path`` in a loop; and their answers' statuses
    (200, or 429 where the route's rate limit is on). The fetchers are processes of their
    own: as threads of this one they would hold the timing client's GIL, and the figure
    would be the client's wait as much as the server's."""
    context = multiprocessing.get_context("spawn")
    stop = context.Event()
    answered, refused = context.Value("l", 0), context.Value("l", 0)
    fetchers = [
        context.Process(target=_fetch, args=(base, path, stop, answered, refused)) for _ in range(3)
    ]
    for process in fetchers:
        process.start()
    try:
        deadline = time.monotonic() + 120
        while answered.value + refused.value < 30 and time.monotonic() < deadline:
            time.sleep(0.05)  # the three are fetching before the moves are timed
        return _moves(base, count), Counter({200: answered.value, 429: refused.value})
    finally:
        stop.set()
        for process in fetchers:
            process.join()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 10_000])
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--database-url", help="PostgreSQL (one fresh database a size)")
    args = parser.parse_args()
    medians: dict[int, tuple[float, float]] = {}
    for size in args.sizes:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "tournament.sqlite3"
            url = args.database_url or f"sqlite:///{path}"
            tournament = _prepare(url, size)
            port = launch.free_port()
            server = launch.start(
                url,
                port,
                PATIENCE_CATALOG_REFILL="0",
                PATIENCE_RATE_VERIFICATIONS="0",
                PATIENCE_RATE_STARTS="0",
                PATIENCE_RATE_MOVES="0",
                PATIENCE_RATE_ADDRESS="0",
            )
            try:
                base = f"http://127.0.0.1:{port}"
                standings = f"/api/tournaments/{tournament}/standings"
                with httpx.Client(base_url=base, headers={"Origin": base}) as client:
                    client.post(
                        "/api/accounts/login", json={"name": "Me", "password": PASSWORD}
                    ).raise_for_status()
                    top = _time(client, standings, args.requests)
                    mine = _time(client, f"{standings}?around=me", args.requests)
                    _close(url, tournament)
                    verification = f"/api/tournaments/{tournament}/verification"
                    started = time.perf_counter()
                    size_bytes = len(client.get(verification, timeout=600).content)
                    made = time.perf_counter() - started
                    checked = _time(client, verification, args.requests)
                    closed_top = _time(client, standings, args.requests)
                idle = _moves(base, args.requests)
                busy, fetched = _beside_fetchers(base, verification, args.requests)
            finally:
                server.send_signal(signal.SIGTERM)
                server.wait(timeout=30)
            # again with the route's rate limit as deployed (PATIENCE_RATE_VERIFICATIONS's
            # default), the others still off for the moves' client
            server = launch.start(
                url,
                port,
                PATIENCE_CATALOG_REFILL="0",
                PATIENCE_RATE_STARTS="0",
                PATIENCE_RATE_MOVES="0",
                PATIENCE_RATE_ADDRESS="0",
            )
            try:
                base = f"http://127.0.0.1:{port}"
                limited_idle = _moves(base, args.requests)
                limited, limited_fetched = _beside_fetchers(base, verification, args.requests)
            finally:
                server.send_signal(signal.SIGTERM)
                server.wait(timeout=30)
        medians[size] = (statistics.median(top), statistics.median(mine))
        print(
            f"{size:>7} entries: top page median {1000 * medians[size][0]:.2f} ms "
            f"(p90 {1000 * _p90(top):.2f}), around me median {1000 * medians[size][1]:.2f} ms "
            f"(p90 {1000 * _p90(mine):.2f})"
        )
        print(
            f"{'':>7}          verification ({size_bytes / 1e6:.2f} MB) made in {made:.2f} s, "
            f"then median {1000 * statistics.median(checked):.2f} ms (p90 "
            f"{1000 * _p90(checked):.2f}): "
            f"{statistics.median(checked) / statistics.median(closed_top):.2f}x the top "
            f"page's {1000 * statistics.median(closed_top):.2f} ms (target: at most 2x)"
        )
        print(
            f"{'':>7}          another player's moves, the route's rate limit as deployed: "
            f"p99 {1000 * _p99(limited_idle):.2f} ms idle, {1000 * _p99(limited):.2f} ms beside "
            f"3 clients fetching the verification in a loop ({limited_fetched[200]} answered, "
            f"{limited_fetched[429]} refused 429): {_p99(limited) / _p99(limited_idle):.2f}x "
            "(target: at most 2x)"
        )
        print(
            f"{'':>7}          the same with no rate limit: p99 {1000 * _p99(idle):.2f} ms "
            f"idle, {1000 * _p99(busy):.2f} ms beside the 3 clients ({fetched[200]} "
            f"fetched): {_p99(busy) / _p99(idle):.2f}x"
        )
    small, large = min(medians), max(medians)
    if small != large:
        print(
            f"ratio {large} / {small} entries: top page "
            f"{medians[large][0] / medians[small][0]:.2f}x, around me "
            f"{medians[large][1] / medians[small][1]:.2f}x (target: at most 2x)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
