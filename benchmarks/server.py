"""Move round trips of the web server under load: GAMES games played at once on loopback
against one server process on a fresh SQLite file.

    .venv/bin/python benchmarks/server.py [--games 200] [--moves 40] [--concurrency 200]

Each simulated player starts a practice game (a seeded deal, so no solver runs at the
start) and plays random legal moves (never ``end``), each sent as soon as the previous
answer arrived; every move is written to the database before it is answered. Printed: the
number of moves, the round trip's median, p90, p99 and max, the moves per second, and the
target (p99 under 5 ms). The clients run in this process (asyncio, httpx), the server in
another (uvicorn, as ``patience serve`` runs it); on a 2-core machine they share the cores.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

TARGET_P99_MS = 5.0


def _start_server(database: Path, port: int) -> subprocess.Popen[bytes]:
    env = os.environ | {"PATIENCE_DATABASE_URL": f"sqlite:///{database}"}
    server = subprocess.Popen(
        [sys.executable, "-m", "patience.cli", "serve", "--port", str(port)],
        env=env,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(300):
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1)
            return server
        except httpx.TransportError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("the server did not start")


async def _player(
    client: httpx.AsyncClient,
    index: int,
    moves: int,
    times: list[float],
    ready: list[int],
    gate: asyncio.Event,
) -> None:
    rng = random.Random(index)
    game = ("klondike", "golf", "kansas", "expert")[index % 4]
    started = await client.post(
        "/api/sessions", json={"game": game, "seed": index, "mode": "practice"}
    )
    view = started.json()
    url = f"/api/sessions/{view['id']}/moves"
    headers = {"Authorization": f"Bearer {view['token']}"}
    ready.append(index)
    await gate.wait()  # every game is dealt before the timing starts
    for _ in range(moves):
        legal = [move for move in view["legal_moves"] if move != "end"]
        if not legal:
            break
        before = time.perf_counter()
        answer = await client.post(url, json={"move": rng.choice(legal)}, headers=headers)
        times.append(time.perf_counter() - before)
        if answer.status_code != 200:
            raise SystemExit(f"a move was refused: {answer.text}")
        view = answer.json()


async def _run(port: int, games: int, moves: int, concurrency: int) -> tuple[list[float], float]:
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    times: list[float] = []
    gate = asyncio.Event()
    async with httpx.AsyncClient(
        base_url=f"http://127.0.0.1:{port}", limits=limits, timeout=30
    ) as client:
        ready: list[int] = []
        tasks = [
            asyncio.create_task(_player(client, index, moves, times, ready, gate))
            for index in range(games)
        ]
        while len(ready) < games:  # every game is dealt before the clock starts
            await asyncio.sleep(0.05)
        started = time.perf_counter()
        gate.set()
        await asyncio.gather(*tasks)
        return times, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=40, help="moves a game")
    parser.add_argument("--concurrency", type=int, default=200, help="open connections")
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server = _start_server(Path(folder) / "bench.sqlite3", args.port)
        try:
            times, wall = asyncio.run(_run(args.port, args.games, args.moves, args.concurrency))
        finally:
            server.terminate()
            server.wait()
    ms = sorted(t * 1000 for t in times)
    p = lambda q: ms[min(len(ms) - 1, int(q * len(ms)))]  # noqa: E731
    print(
        f"server: {args.games} games at once, {len(ms)} moves in {wall:.1f} s "
        f"({len(ms) / wall:.0f} moves/s), one process, SQLite"
    )
    print(
        f"round trip: median {statistics.median(ms):.2f} ms, p90 {p(0.9):.2f} ms, "
        f"p99 {p(0.99):.2f} ms, max {ms[-1]:.2f} ms"
    )
    verdict = "met" if p(0.99) < TARGET_P99_MS else "missed"
    print(
        f"target p99 < {TARGET_P99_MS} ms: {verdict} (p99 / target = {p(0.99) / TARGET_P99_MS:.2f})"
    )


if __name__ == "__main__":
    main()
