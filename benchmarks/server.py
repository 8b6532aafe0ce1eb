"""Move round trips of the web server under load: GAMES games played at once on loopback
against one server process (a fresh SQLite file, or the database of ``--database-url``).

    .venv/bin/python benchmarks/server.py [--games 200] [--moves 40] [--think 0.5]
        [--abusive N] [--database-url URL | --postgres] [--server-env NAME=VALUE]
        [--trace FILE]

The server runs with the settings a deployment runs (docs/deploy.md): the catalog's
background refill on, the access log written (to a file here), its rate limits, its solver
processes on idle cores within their memory; ``--server-env`` changes any of them.
``--postgres`` starts a private PostgreSQL cluster (Debian's server binaries, as the tests
do) with every commit flushed to the disk, as PostgreSQL runs by default, and runs on it.

Each simulated player starts a practice game (a seeded deal, so no solver runs at the
start) and plays random legal moves (never ``end``), thinking between moves as people do:
a random pause averaging ``--think`` seconds (0.5 by default, quicker than most players;
``--think 0`` sends each move as soon as the answer arrives, which measures the server's
throughput, not a move's round trip, and turns the server's limits on moves off).
Every move is written to the database before it is answered. The players connect from
``--addresses`` loopback addresses (127.0.1.1 up), so that the server sees many clients,
as it would, and runs with its own rate limits (``launch.start`` turns them off unless
told), which apply to each address as to a person.

The clients run in this process (one uvloop event loop; raw keep-alive sockets, no HTTP
library), the server in another (``patience serve``); on a 2-core machine they share the
cores, so what the client itself adds is measured and printed beside the round trips:

- round trip: from the player deciding to move to the player's code running again with
  the answer (what the target is about);
- on arrival: from the request's ``send`` call to the kernel's receive timestamp of the
  answer's last bytes (``SO_TIMESTAMPNS``), which no delay of this process can lengthen: the
  server's side (being woken, waiting for a core, the work) and loopback;
- client's share: the difference, the time the answer waited for this process;
- client loop: how late a 2 ms timer of this process fired (libuv's timers tick in whole
  milliseconds, so lateness under 1 ms is noise);
- cores (Linux): the server's CPU time a move, on its event loop's thread and on its other
  threads (solver, background), how long its threads waited for a core, the client's CPU
  time, and what other processes took of the machine while the clock ran: a run that
  shared the cores with something else says so.

``--abusive N`` runs the honest players twice, on a fresh server each time (a fresh SQLite
file; the same database for ``--database-url``): alone, then beside N abusive clients, each
from its own address 127.0.0.K (K = 2, 3...), that hammer the server in a tight loop with
timed-game starts (a certified deal each: a solver runs when the catalog is empty),
practice hints, malformed bodies and oversized bodies, each client at most
``--abuse-requests`` requests and only while the honest players play. Printed: the honest
players' p99 alone and beside the abuse, and their ratio, with what the abusers were
answered, and the solver processes' peak memory. Loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import socket
import statistics
import struct
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

import uvloop
from sqlalchemy.engine import make_url

from patience.server import launch
from patience.server.settings import Settings

TARGET_P99_MS = 5.0
GAMES = ("klondike", "golf", "kansas", "expert")
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)  # Linux's value; Python omits it
STAMP_SPACE = socket.CMSG_SPACE(16)  # one struct timespec
TICK_NS = 2_000_000  # the client loop's probe timer
QUICKEST_THINK = 0.1  # below this mean, the server's limit on moves a second is turned off


class ClosedError(ConnectionError):
    """The server closed the connection (its keep-alive timeout, or a refusal) before
    answering."""


@dataclass(slots=True)
class Answer:
    status: int
    body: bytes
    sent: int  # time.time_ns() as the request was handed to the kernel
    arrived: int  # the kernel's receive timestamp of the answer's last bytes (0: none)
    retry_after: float  # the Retry-After header, 0 without one


class Connection:
    """One keep-alive HTTP/1.1 connection from the loopback address ``source``, read with
    ``recvmsg`` as soon as the event loop sees it readable (no streams, no tasks), so that
    the client's work on these shared cores stays small and each answer carries the kernel's
    time of arrival."""

    def __init__(self, port: int, source: str) -> None:
        self.port = port
        self.source = source
        self.sock: socket.socket | None = None
        self.local_port = 0
        self.opened = 0  # connections made, the first included
        self._buffer = bytearray()
        self._arrived = 0
        self._sent = 0
        self._closing = False  # the answer being read says the server closes the connection
        self._waiter: asyncio.Future[Answer | None] | None = None

    async def open(self) -> None:
        loop = asyncio.get_running_loop()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        try:
            sock.bind((self.source, 0))
            await loop.sock_connect(sock, ("127.0.0.1", self.port))
        except BaseException:
            sock.close()
            raise
        self.sock = sock
        self.local_port = sock.getsockname()[1]
        self.opened += 1
        self._buffer.clear()
        self._closing = False
        loop.add_reader(sock.fileno(), self._readable)

    def close(self) -> None:
        if self.sock is not None:
            asyncio.get_running_loop().remove_reader(self.sock.fileno())
            self.sock.close()
            self.sock = None
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    async def request(
        self, method: str, path: str, body: bytes = b"", token: str | None = None
    ) -> Answer:
        """Send one request and wait for the whole answer; a connection the server closed
        while idle is opened again first. Raises :class:`ClosedError` if the server closes
        it without answering."""
        if self.sock is None:
            await self.open()
        assert self.sock is not None
        head = f"{method} {path} HTTP/1.1\r\nHost: bench\r\n"
        if token is not None:
            head += f"Authorization: Bearer {token}\r\n"
        data = (
            f"{head}Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        loop = asyncio.get_running_loop()
        waiter = self._waiter = loop.create_future()
        # Before the call: on loopback the server may be woken, and run, within it.
        self._sent = time.time_ns()
        try:
            done = self.sock.send(data)
            if done < len(data):  # only big bodies: the rest as the socket drains
                await loop.sock_sendall(self.sock, data[done:])
        except OSError:
            self.close()
            raise ClosedError("the server closed the connection") from None
        answer = await waiter
        if answer is None:
            self.close()
            raise ClosedError("the server closed the connection")
        return answer

    def _readable(self) -> None:
        assert self.sock is not None
        try:
            data, ancillary, _, _ = self.sock.recvmsg(1 << 16, STAMP_SPACE)
        except BlockingIOError:
            return
        except OSError:
            data, ancillary = b"", []
        for level, kind, payload in ancillary:
            if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS and len(payload) >= 16:
                seconds, nanoseconds = struct.unpack("qq", payload[:16])
                self._arrived = seconds * 1_000_000_000 + nanoseconds
        if not data:  # closed by the server; an answer without a length ends here
            if self._buffer and self._waiter is not None and not self._waiter.done():
                answer = self._parse(closed=True)
                if answer is not None:
                    self._waiter.set_result(answer)
            self.close()
            return
        self._buffer += data
        answer = self._parse()
        if answer is not None and self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(answer)
        if answer is not None and self._closing:  # the server said so: not used again
            self.close()

    def _parse(self, *, closed: bool = False) -> Answer | None:
        end = self._buffer.find(b"\r\n\r\n")
        if end < 0:
            return None
        head = bytes(self._buffer[:end]).lower()
        length = len(self._buffer) - end - 4 if closed else None
        retry_after = 0.0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name == b"content-length":
                length = int(value)
            elif name == b"retry-after":
                retry_after = float(value)
            elif name == b"connection":
                self._closing = b"close" in value
        if length is None or len(self._buffer) < end + 4 + length:
            return None
        body = bytes(self._buffer[end + 4 : end + 4 + length])
        del self._buffer[: end + 4 + length]
        return Answer(int(head[9:12]), body, self._sent, self._arrived, retry_after)


# What the cores did (Linux's /proc) ----------------------------------------------------------


@dataclass
class Cores:
    """CPU time over the timed part of a run, in seconds, from ``/proc``."""

    server_loop: float = 0.0  # the server's main thread: its event loop
    server_loop_waited: float = 0.0  # runnable, waiting for a core
    server_other: float = 0.0  # the server's other threads: solver pool, background
    server_other_waited: float = 0.0
    client: float = 0.0
    client_waited: float = 0.0
    everything: float = 0.0  # every process's CPU time, all cores
    steal: float = 0.0  # taken by the hypervisor from this machine's virtual cores
    cores: int = 0
    load: str = ""  # load averages as the clock started

    @staticmethod
    def _threads(pid: int) -> dict[int, tuple[int, int]]:
        """Each thread's CPU time and time waiting for a core, nanoseconds."""
        threads = {}
        for tid in os.listdir(f"/proc/{pid}/task"):
            try:
                with open(f"/proc/{pid}/task/{tid}/schedstat") as stat:
                    ran, waited, _ = map(int, stat.read().split())
            except (OSError, ValueError):
                continue  # a thread that just ended
            threads[int(tid)] = (ran, waited)
        return threads

    @staticmethod
    def _machine() -> tuple[float, float]:
        """CPU seconds used by everything, and stolen, since boot."""
        with open("/proc/stat") as stat:
            fields = [int(value) for value in stat.readline().split()[1:]]
        tick = os.sysconf("SC_CLK_TCK")
        user, nice, system, _idle, _iowait, irq, softirq, steal = (fields + [0] * 8)[:8]
        return (user + nice + system + irq + softirq) / tick, steal / tick

    @classmethod
    def snapshot(cls, server: int) -> Snapshot | None:
        try:
            with open("/proc/loadavg") as loadavg:
                load = " ".join(loadavg.read().split()[:3])
            busy, steal = cls._machine()
            return Snapshot(cls._threads(server), cls._threads(os.getpid()), busy, steal, load)
        except OSError:
            return None  # not Linux

    @classmethod
    def between(cls, server: int, before: Snapshot | None, after: Snapshot | None) -> Cores | None:
        if before is None or after is None:
            return None
        cores = cls(
            everything=after.busy - before.busy,
            steal=after.steal - before.steal,
            cores=os.cpu_count() or 1,
            load=before.load,
        )
        for tid, (ran, waited) in after.server.items():
            ran0, waited0 = before.server.get(tid, (0, 0))
            if tid == server:
                cores.server_loop += (ran - ran0) / 1e9
                cores.server_loop_waited += (waited - waited0) / 1e9
            else:
                cores.server_other += (ran - ran0) / 1e9
                cores.server_other_waited += (waited - waited0) / 1e9
        for tid, (ran, waited) in after.client.items():
            ran0, waited0 = before.client.get(tid, (0, 0))
            cores.client += (ran - ran0) / 1e9
            cores.client_waited += (waited - waited0) / 1e9
        return cores


@dataclass
class Snapshot:
    """What ``/proc`` says at one moment: each thread's CPU time and wait for a core
    (nanoseconds) in the server and in this process, the machine's busy and stolen CPU
    seconds since boot, and its load averages."""

    server: dict[int, tuple[int, int]]
    client: dict[int, tuple[int, int]]
    busy: float
    steal: float
    load: str


# The players -------------------------------------------------------------------------------


@dataclass(slots=True)
class Move:
    started: int  # the player decided to move (time.time_ns())
    resumed: int  # the player's code ran again with the answer
    answer: Answer
    source: str
    port: int
    reopened: bool


@dataclass
class Run:
    """One run of the honest players (and the abusers beside them, if any)."""

    moves: list[Move] = field(default_factory=list)
    lags: list[int] = field(default_factory=list)  # client timer lateness, ns
    wall: float = 0.0
    reopened: int = 0
    cores: Cores | None = None
    abuse: Counter[str] = field(default_factory=Counter)
    children_mb: dict[str, float] = field(default_factory=dict)  # peak memory by process


async def _start(connection: Connection, body: bytes) -> Answer:
    """A new game, waiting as told while the server's limits on new games refuse it."""
    while True:
        answer = await connection.request("POST", "/api/sessions", body)
        if answer.status not in (429, 503):
            return answer
        await asyncio.sleep(answer.retry_after or 1.0)


async def _player(
    port: int,
    source: str,
    index: int,
    moves: int,
    think: float,
    run: Run,
    ready: list[int],
    gate: asyncio.Event,
) -> None:
    rng = random.Random(index)
    connection = Connection(port, source)
    body = json.dumps({"game": GAMES[index % 4], "seed": index, "mode": "practice"}).encode()
    started = await _start(connection, body)
    if started.status != 201:
        raise SystemExit(f"a game was refused ({started.status}): {started.body!r}")
    view = json.loads(started.body)
    token = view["token"]
    url = f"/api/sessions/{view['id']}/moves"
    ready.append(index)
    await gate.wait()  # every game is dealt before the timing starts
    for _ in range(moves):
        if think:
            await asyncio.sleep(rng.expovariate(1 / think))
        legal = [move for move in view["legal_moves"] if move != "end"]
        if not legal:
            break
        body = json.dumps({"move": rng.choice(legal)}).encode()
        before = time.time_ns()
        reopened = connection.sock is None
        try:
            answer = await connection.request("POST", url, body, token)
        except ClosedError:  # closed for idling as the request left: once more, on a new one
            reopened = True
            answer = await connection.request("POST", url, body, token)
        resumed = time.time_ns()
        if answer.status != 200:
            raise SystemExit(f"a move was refused ({answer.status}): {answer.body!r}")
        run.moves.append(
            Move(before, resumed, answer, connection.source, connection.local_port, reopened)
        )
        view = json.loads(answer.body)
    run.reopened += connection.opened - 1
    connection.close()


async def _ticker(lags: list[int], stop: asyncio.Event) -> None:
    """How late a 2 ms timer of this process fires: the client loop's own stalls."""
    while not stop.is_set():
        before = time.perf_counter_ns()
        await asyncio.sleep(TICK_NS / 1e9)
        lags.append(time.perf_counter_ns() - before - TICK_NS)


# The abusers -------------------------------------------------------------------------------


def _malformed(rng: random.Random, game_id: str) -> tuple[str, bytes]:
    """A request the server must refuse: a body that is not JSON, of the wrong shape, too
    long a move, nested too deep, or a move in a game that does not exist."""
    if rng.random() < 0.2:
        return f"/api/sessions/{'0' * 16}/moves", b'{"move": "draw"}'
    bodies = [
        b"{not json",
        b'{"move": 12}',
        b"[]",
        b'{"move": NaN}',
        json.dumps({"move": "t1>" + "9" * 200}).encode(),
        b"[" * 5_000 + b"]" * 5_000,
    ]
    return f"/api/sessions/{game_id}/moves", rng.choice(bodies)


async def _abuser(
    port: int,
    index: int,
    requests: int,
    timeout: float,
    oversized: bytes,
    run: Run,
    stop: asyncio.Event,
) -> None:
    """Hammers the server from 127.0.0.(index + 2): timed starts, hints in its own practice
    game, malformed and oversized bodies, one after another, until ``stop`` or ``requests``
    requests. Refusals are not waited out: the next request follows at once."""
    rng = random.Random(-1 - index)
    connection = Connection(port, f"127.0.0.{index + 2}")
    game = GAMES[(index + 2) % 4]  # Kansas and Expert first: their hints search longest
    practice = json.dumps({"game": game, "seed": 10_000 + index, "mode": "practice"}).encode()
    view = {"id": "0" * 16, "token": "x"}
    try:
        started = await asyncio.wait_for(_start(connection, practice), timeout)
        if started.status == 201:
            view = json.loads(started.body)
    except (ClosedError, TimeoutError, OSError):
        connection.close()
    kinds = ["timed start", "hint", "malformed", "malformed", "oversized"]
    for _ in range(requests):
        if stop.is_set():
            break
        kind = rng.choice(kinds)
        token: str | None = view["token"]
        if kind == "timed start":
            path = "/api/sessions"
            body = json.dumps({"game": rng.choice(GAMES), "mode": "timed"}).encode()
            token = None
        elif kind == "hint":
            path, body = f"/api/sessions/{view['id']}/hint", b""
        elif kind == "malformed":
            path, body = _malformed(rng, view["id"])
        else:
            path, body = f"/api/sessions/{view['id']}/moves", oversized
        try:
            answer = await asyncio.wait_for(connection.request("POST", path, body, token), timeout)
            run.abuse[f"{kind} {answer.status}"] += 1
        except ClosedError:
            run.abuse[f"{kind} closed"] += 1
        except (TimeoutError, OSError):
            run.abuse[f"{kind} {'timed out' if not stop.is_set() else 'cut short'}"] += 1
            connection.close()
    connection.close()


# A run -------------------------------------------------------------------------------------


async def _run(args: argparse.Namespace, port: int, abusive: int, server: int) -> Run:
    """The players (and ``abusive`` abusers) against the server on ``port``, whose process
    is ``server``."""
    run = Run()
    ready: list[int] = []
    gate = asyncio.Event()
    stop = asyncio.Event()
    sources = [f"127.0.1.{1 + index % args.addresses}" for index in range(args.games)]
    players = [
        asyncio.create_task(_player(port, sources[i], i, args.moves, args.think, run, ready, gate))
        for i in range(args.games)
    ]
    while len(ready) < args.games:  # every game is dealt before the clock starts
        await asyncio.sleep(0.05)
        for task in players:
            if task.done() and task.exception() is not None:
                raise task.exception()  # type: ignore[misc]
    oversized = json.dumps({"move": "draw", "pad": "x" * args.abuse_body_bytes}).encode()
    abusers = [
        asyncio.create_task(
            _abuser(port, i, args.abuse_requests, args.abuse_timeout, oversized, run, stop)
        )
        for i in range(abusive)
    ]
    # This process's collector would stop the players for as long as it walks their views:
    # everything so far is frozen, and the collector stays off while the clock runs.
    gc.collect()
    gc.freeze()
    gc.disable()
    ticker = asyncio.create_task(_ticker(run.lags, stop))
    before = Cores.snapshot(server)
    started = time.perf_counter()
    gate.set()
    try:
        await asyncio.gather(*players)
    finally:
        run.wall = time.perf_counter() - started
        run.cores = Cores.between(server, before, Cores.snapshot(server))
        stop.set()
        gc.enable()
    await asyncio.gather(*abusers, ticker)
    run.children_mb = _children_peak_mb(server)
    return run


def _children_peak_mb(pid: int) -> dict[str, float]:
    """The peak resident memory (MiB, ``VmHWM``) of each process ``pid`` started: the solver
    processes (and multiprocessing's resource tracker), by command line. Linux only."""
    peaks: dict[str, float] = {}
    try:
        children = []
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as listed:
                children += listed.read().split()
        for child in children:
            with open(f"/proc/{child}/cmdline", "rb") as cmdline:
                words = cmdline.read().split(b"\0")
            kind = "resource tracker" if b"resource_tracker" in b" ".join(words) else "solver"
            with open(f"/proc/{child}/status") as status:
                for line in status:
                    if line.startswith("VmHWM:"):
                        mb = int(line.split()[1]) / 1024
                        peaks[f"{kind} {child}"] = mb
    except OSError:
        pass
    return peaks


def _serve_and_run(args: argparse.Namespace, abusive: int, environment: dict[str, str]) -> Run:
    """A fresh server (on a fresh SQLite file unless the environment names a database), the
    run, and the server stopped."""
    port = args.port or launch.free_port()
    with tempfile.TemporaryDirectory() as folder:
        server = launch.start(Path(folder) / "bench.sqlite3", port, **environment)
        try:
            return uvloop.run(_run(args, port, abusive, server.pid))
        finally:
            server.terminate()
            server.wait()


# The report --------------------------------------------------------------------------------


def _quantile(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))]


def _figures(values_ns: list[int]) -> str:
    ms = sorted(value / 1e6 for value in values_ns)
    return (
        f"median {statistics.median(ms):.2f} ms, p90 {_quantile(ms, 0.9):.2f} ms, "
        f"p99 {_quantile(ms, 0.99):.2f} ms, max {ms[-1]:.2f} ms"
    )


def _p99(run: Run) -> float:
    return _quantile(sorted((m.resumed - m.started) / 1e6 for m in run.moves), 0.99)


def _report_cores(cores: Cores, moves: int, wall: float, abused: bool) -> None:
    per_move = 1000 / max(1, moves)
    others = max(0.0, cores.everything - cores.server_loop - cores.server_other - cores.client)
    a_move = "a move (the abusers' requests included)" if abused else "a move"
    print(
        f"  cores: server {cores.server_loop * per_move:.2f} ms of CPU {a_move} on its event "
        f"loop (waited {cores.server_loop_waited * per_move:.2f} ms a move for a core), "
        f"{cores.server_other:.1f} s on its other threads (solver, background); client "
        f"{cores.client * per_move:.2f} ms a move"
    )
    print(
        f"  machine: other processes (a database server on this machine among them) took "
        f"{others / wall / cores.cores:.0%} of {cores.cores} cores while the clock ran (load "
        f"average {cores.load} at the start)"
        + (f", the hypervisor {cores.steal / wall / cores.cores:.0%}" if cores.steal else "")
    )


def _report(label: str, run: Run, args: argparse.Namespace, database: str) -> None:
    moves = run.moves
    print(
        f"{label}{args.games} games at once on {database}, {len(moves)} moves in "
        f"{run.wall:.1f} s ({len(moves) / run.wall:.0f} moves/s, {args.think} s mean thinking "
        f"time), players from {min(args.addresses, args.games)} addresses 127.0.1.x"
    )
    if not moves:
        return
    print(f"  round trip:     {_figures([m.resumed - m.started for m in moves])}")
    stamped = [m for m in moves if m.answer.arrived]
    if stamped:
        print(f"  on arrival:     {_figures([m.answer.arrived - m.answer.sent for m in stamped])}")
        print(f"  client's share: {_figures([m.resumed - m.answer.arrived for m in stamped])}")
    else:
        print("  (no kernel receive timestamps: the client's share is not separated)")
    if run.lags:
        lags = sorted(run.lags)
        late = sum(lag > 1_000_000 for lag in lags)
        print(
            f"  client loop: a {TICK_NS / 1e6:.0f} ms timer late by p99 "
            f"{_quantile(lags, 0.99) / 1e6:.2f} ms, max {lags[-1] / 1e6:.2f} ms; "
            f"{late} of {len(lags)} ticks over 1 ms late"
        )
    if run.cores is not None:
        _report_cores(run.cores, len(moves), run.wall, bool(run.abuse))
    if run.reopened:
        print(f"  connections opened again after the server closed them idle: {run.reopened}")
    solvers = [mb for name, mb in run.children_mb.items() if name.startswith("solver")]
    if solvers:
        print(
            f"  solver processes' peak memory: {', '.join(f'{mb:.0f} MiB' for mb in solvers)} "
            "(VmHWM)"
        )
    p99 = _p99(run)
    verdict = "met" if p99 < TARGET_P99_MS else "missed"
    print(
        f"  target p99 < {TARGET_P99_MS} ms: {verdict} (p99 / target = {p99 / TARGET_P99_MS:.2f})"
    )


def _trace(path: Path, label: str, run: Run) -> None:
    """Every round trip, one JSON object a line: times in nanoseconds since the epoch."""
    with path.open("a") as out:
        for m in run.moves:
            record = {
                "run": label,
                "source": m.source,
                "port": m.port,
                "started": m.started,
                "sent": m.answer.sent,
                "arrived": m.answer.arrived,
                "resumed": m.resumed,
                "reopened": m.reopened,
            }
            out.write(json.dumps(record) + "\n")


# The command -------------------------------------------------------------------------------


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, not {text}")
    return value


def _setting(text: str) -> tuple[str, str]:
    name, equals, value = text.partition("=")
    if not equals or not name.startswith("PATIENCE_"):
        raise argparse.ArgumentTypeError(f"expected PATIENCE_NAME=VALUE, not {text}")
    return name, value


def _rate_limits(think: float) -> dict[str, str]:
    """The server's own rate limits, as deployed (``launch.start`` turns them off unless
    told): the players come from many addresses, so the limits per address apply to each
    as to a person, and to each abuser. Quicker than :data:`QUICKEST_THINK`, the limits
    on moves are off: no person moves that fast."""
    defaults = Settings()
    limits = {}
    for name in launch.NO_RATE_LIMITS:
        rate = getattr(defaults, name.removeprefix("PATIENCE_").lower(), None)
        limits[name] = "0" if rate is None else str(rate)
    if think < QUICKEST_THINK:
        limits |= {"PATIENCE_RATE_MOVES": "0", "PATIENCE_RATE_ADDRESS": "0"}
    # a simulated player starts its games one after another from a shared address, which a
    # bound on guests' running timed games per address would count as one person
    limits["PATIENCE_GUEST_TIMED"] = "0"
    return limits


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=_positive, default=200)
    parser.add_argument("--moves", type=int, default=40, help="moves a game")
    parser.add_argument("--think", type=float, default=0.5, help="mean seconds between moves")
    parser.add_argument("--port", type=int, help="server port (default: a free one)")
    parser.add_argument(
        "--addresses",
        type=_positive,
        default=64,
        help="players' source addresses 127.0.1.x (default 64)",
    )
    parser.add_argument(
        "--database-url",
        help="the server's database (PATIENCE_DATABASE_URL), e.g. "
        "postgresql+psycopg://user@/db?host=/socket/dir; default: a fresh SQLite file",
    )
    parser.add_argument(
        "--postgres",
        action="store_true",
        help="run on a private PostgreSQL cluster of Debian's server binaries, durable",
    )
    parser.add_argument(
        "--server-env",
        type=_setting,
        action="append",
        default=[],
        metavar="PATIENCE_NAME=VALUE",
        help="a setting for the server (repeatable), e.g. PATIENCE_CATALOG_REFILL=0",
    )
    parser.add_argument(
        "--abusive", type=int, default=0, help="abusive clients beside the players (0: none)"
    )
    parser.add_argument(
        "--abuse-requests", type=_positive, default=1000, help="requests an abusive client"
    )
    parser.add_argument(
        "--abuse-timeout", type=float, default=10.0, help="seconds an abusive request waits"
    )
    parser.add_argument(
        "--abuse-body-bytes", type=_positive, default=1 << 20, help="an oversized body's size"
    )
    parser.add_argument("--trace", type=Path, help="write every round trip here (JSON lines)")
    return parser


def main(serve: Callable[[argparse.Namespace, int, dict[str, str]], Run] | None = None) -> None:
    """The benchmark; ``serve`` starts a server, runs :func:`_run` against it and stops it
    (a fresh ``patience serve`` by default)."""
    parser = _parser()
    args = parser.parse_args()
    if not 0 <= args.abusive <= 250 or args.addresses > 250:
        parser.error("at most 250 abusive clients and 250 addresses")
    environment = dict(args.server_env)
    database = "a fresh SQLite file"
    with contextlib.ExitStack() as stack:
        if args.postgres:
            args.database_url = stack.enter_context(_durable_postgres())
        _main(args, environment, database, serve)


@contextlib.contextmanager
def _durable_postgres() -> Iterator[str]:
    """A private PostgreSQL cluster, durable as by default, and its database's URL."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    import postgres  # the tests' private clusters

    with postgres.running_cluster(durable=True) as cluster:
        yield cluster.url()


def _main(
    args: argparse.Namespace,
    environment: dict[str, str],
    database: str,
    serve: Callable[[argparse.Namespace, int, dict[str, str]], Run] | None,
) -> None:
    if args.database_url:
        environment["PATIENCE_DATABASE_URL"] = args.database_url
        url = make_url(args.database_url)
        shown_url = unquote(url.render_as_string(hide_password=True))
        database = f"{url.get_backend_name()} ({shown_url})"
    environment = _rate_limits(args.think) | environment
    shown = {k: v for k, v in environment.items() if k != "PATIENCE_DATABASE_URL"}
    print("server settings: " + ", ".join(f"{k}={v}" for k, v in shown.items()))
    serve = serve or _serve_and_run
    if args.trace:
        args.trace.unlink(missing_ok=True)
    alone = serve(args, 0, environment)
    _report("alone: " if args.abusive else "", alone, args, database)
    if args.trace:
        _trace(args.trace, "alone", alone)
    if not args.abusive:
        return
    abused = serve(args, args.abusive, environment)
    _report(f"beside {args.abusive} abusive clients: ", abused, args, database)
    if args.trace:
        _trace(args.trace, "abused", abused)
    total = sum(abused.abuse.values())
    answered = ", ".join(f"{key}: {count}" for key, count in sorted(abused.abuse.items()))
    print(
        f"abuse: {args.abusive} clients from 127.0.0.2-{args.abusive + 1}, {total} requests; "
        f"answers: {answered}"
    )
    before, after = _p99(alone), _p99(abused)
    print(
        f"honest players' p99: {before:.2f} ms alone, {after:.2f} ms beside the abuse "
        f"(ratio {after / before:.2f})"
    )


if __name__ == "__main__":
    main()
