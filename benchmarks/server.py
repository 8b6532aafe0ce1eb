"""Move round trips of the web server under load: GAMES games played at once on loopback
against one server process on a fresh SQLite file.

    .venv/bin/python benchmarks/server.py [--games 200] [--moves 40] [--concurrency 200]

Each simulated player starts a practice game (a seeded deal, so no solver runs at the
start) and plays random legal moves (never ``end``), thinking between moves as people do:
a random pause averaging ``--think`` seconds (0.5 by default, quicker than most players;
``--think 0`` sends each move as soon as the answer arrives, which measures the server's
throughput, not a move's round trip). Every move is written to the database before it is
answered. Printed: the number of moves, the round trip's median, p90, p99 and max, the
moves per second, and the target (p99 under 5 ms). The clients run in this process
(asyncio on uvloop; httpx to deal), the server in another (uvicorn, as ``patience serve``
runs it); on a 2-core machine they share the cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

import httpx
import uvloop

from patience.server import launch

TARGET_P99_MS = 5.0


class _Connection:
    """One keep-alive HTTP/1.1 connection: the lightest client asyncio allows, so that the
    client's own work on these shared cores stays small next to the server's."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self, path: str, body: dict[str, object], token: str) -> tuple[int, bytes]:
        """Send one request; a connection the server closed while idle is opened again."""
        for _ in range(2):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            answer = await self._post(path, body, token)
            if answer is not None:
                return answer
            self.close()
        raise ConnectionError("the server closed the connection twice")

    async def _post(
        self, path: str, body: dict[str, object], token: str
    ) -> tuple[int, bytes] | None:
        assert self.reader is not None
        assert self.writer is not None
        data = json.dumps(body).encode()
        self.writer.write(
            f"POST {path} HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n".encode()
            + data
        )
        status_line = await self.reader.readline()
        if not status_line:
            return None  # closed by the server (its keep-alive timeout)
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return int(status_line.split()[1]), await self.reader.readexactly(length)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


async def _player(
    client: httpx.AsyncClient,
    index: int,
    moves: int,
    times: list[float],
    ready: list[int],
    gate: asyncio.Event,
    think: float,
) -> None:
    rng = random.Random(index)
    game = ("klondike", "golf", "kansas", "expert")[index % 4]
    started = await client.post(
        "/api/sessions", json={"game": game, "seed": index, "mode": "practice"}
    )
    view = started.json()
    url = f"/api/sessions/{view['id']}/moves"
    connection = _Connection(client.base_url.port or 80)
    ready.append(index)
    await gate.wait()  # every game is dealt before the timing starts
    for _ in range(moves):
        if think:
            await asyncio.sleep(rng.expovariate(1 / think))
        legal = [move for move in view["legal_moves"] if move != "end"]
        if not legal:
            break
        before = time.perf_counter()
        status, body = await connection.post(url, {"move": rng.choice(legal)}, view["token"])
        times.append(time.perf_counter() - before)
        if status != 200:
            raise SystemExit(f"a move was refused: {body!r}")
        view = {"token": view["token"], **json.loads(body)}
    connection.close()


async def _run(
    port: int, games: int, moves: int, concurrency: int, think: float
) -> tuple[list[float], float]:
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    times: list[float] = []
    gate = asyncio.Event()
    async with httpx.AsyncClient(
        base_url=f"http://127.0.0.1:{port}", limits=limits, timeout=30
    ) as client:
        ready: list[int] = []
        tasks = [
            asyncio.create_task(_player(client, index, moves, times, ready, gate, think))
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
    parser.add_argument("--think", type=float, default=0.5, help="mean seconds between moves")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server = launch.start(Path(folder) / "bench.sqlite3", args.port)
        try:
            times, wall = uvloop.run(
                _run(args.port, args.games, args.moves, args.concurrency, args.think)
            )
        finally:
            server.terminate()
            server.wait()
    ms = sorted(t * 1000 for t in times)
    p = lambda q: ms[min(len(ms) - 1, int(q * len(ms)))]  # noqa: E731
    print(
        f"server: {args.games} games at once, {len(ms)} moves in {wall:.1f} s "
        f"({len(ms) / wall:.0f} moves/s, {args.think} s mean thinking time), one process, SQLite"
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
