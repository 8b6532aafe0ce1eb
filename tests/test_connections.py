"""A real server's connections and processes: a request's head that arrives too slowly is
cut off (as is a connection that never sends one), while a connection kept alive between
requests is not; and after a ``kill -9`` of the server its solver worker and
multiprocessing's resource tracker end with it."""

from __future__ import annotations

import os
import select
import signal
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from patience.server import launch

HEADER_SECONDS = 4.0
HEAD = b"GET /api/games HTTP/1.1\r\nHost: test\r\n\r\n"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """A server whose heads must arrive within :data:`HEADER_SECONDS`: its port."""
    folder = tmp_path_factory.mktemp("connections")
    port = launch.free_port()
    process = launch.start(
        folder / "games.sqlite3",
        port,
        PATIENCE_CATALOG_REFILL="0",
        PATIENCE_HEADER_SECONDS=str(HEADER_SECONDS),
    )
    yield port
    process.terminate()
    process.wait(timeout=20)


def _connect(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def _answer(sock: socket.socket, timeout: float = 10.0) -> bytes:
    """What the server sends on ``sock`` until it has sent a whole head and a body of its
    ``Content-Length``, or closes (b"" if it closes at once)."""
    sock.settimeout(timeout)
    data = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            return data
        if not chunk:
            return data
        data += chunk
        head, found, body = data.partition(b"\r\n\r\n")
        if found:
            for line in head.split(b"\r\n"):
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length" and len(body) >= int(value):
                    return data


def test_a_head_sent_a_byte_every_three_seconds_is_cut_off(server: int) -> None:
    sockets = [_connect(server) for _ in range(40)]
    started = time.monotonic()
    closed: dict[socket.socket, tuple[float, bytes]] = {}
    sent = 0
    try:
        while len(closed) < len(sockets) and sent < len(HEAD):
            for sock in sockets:
                if sock not in closed:
                    try:
                        sock.sendall(HEAD[sent : sent + 1])
                    except (BrokenPipeError, ConnectionResetError):
                        closed[sock] = (time.monotonic() - started, b"")
            sent += 1
            pause = time.monotonic() + 3.0  # the slow client's next byte
            while len(closed) < len(sockets) and (left := pause - time.monotonic()) > 0:
                waiting = [sock for sock in sockets if sock not in closed]
                for sock in select.select(waiting, [], [], left)[0]:
                    closed[sock] = (time.monotonic() - started, _answer(sock))
        assert len(closed) == len(sockets), f"{len(sockets) - len(closed)} still open"
        assert sent < len(HEAD)  # cut off long before the head was whole
        for after, answer in closed.values():
            assert after < HEADER_SECONDS + 10, after
            assert answer == b"" or answer.startswith(b"HTTP/1.1 408 "), answer
        assert any(answer for _, answer in closed.values())  # told why, when it could be
    finally:
        for sock in sockets:
            sock.close()


def test_a_connection_that_never_sends_a_head_is_closed(server: int) -> None:
    with _connect(server) as sock:
        started = time.monotonic()
        answer = _answer(sock, timeout=HEADER_SECONDS + 20)
        assert time.monotonic() - started < HEADER_SECONDS + 10
        assert answer == b"" or answer.startswith(b"HTTP/1.1 408 "), answer


def test_the_deadline_is_each_heads_not_the_connections(server: int) -> None:
    with _connect(server) as sock:
        sock.sendall(HEAD)
        assert _answer(sock).startswith(b"HTTP/1.1 200 ")
        # the next request on the connection: half its head, a pause, then the rest; the
        # connection by then is older than the deadline, the head is not
        sock.sendall(HEAD[:20])
        assert not select.select([sock], [], [], HEADER_SECONDS / 2)[0]  # nothing yet
        sock.sendall(HEAD[20:])
        assert _answer(sock).startswith(b"HTTP/1.1 200 ")
        with _connect(server) as other:  # heads in time on other connections meanwhile
            other.sendall(HEAD)
            assert _answer(other).startswith(b"HTTP/1.1 200 ")


# Children end with the server ---------------------------------------------------------


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid``."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry))
    return found


def _running(pid: int) -> bool:
    """Whether ``pid`` is a process that has not exited (a zombie has)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


def _command(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return cmdline.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def test_a_killed_servers_solver_worker_and_resource_tracker_end_with_it(
    tmp_path: Path,
) -> None:
    port = launch.free_port()
    server = launch.start(tmp_path / "games.sqlite3", port, PATIENCE_CATALOG_REFILL="0")
    try:
        # a hint needs the solver: its worker process starts, with the resource tracker
        base = f"http://127.0.0.1:{port}/api/sessions"
        game = httpx.post(base, json={"game": "golf", "seed": 5, "mode": "practice"}).json()
        hint = httpx.post(
            f"{base}/{game['id']}/hint",
            headers={"Authorization": f"Bearer {game['token']}"},
            timeout=60,
        )
        assert hint.status_code == 200, hint.text
        children = _children(server.pid)
        commands = " | ".join(_command(pid) for pid in children)
        assert len(children) >= 2, commands
        assert "resource_tracker" in commands, commands
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=20)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and any(_running(pid) for pid in children):
        time.sleep(0.1)
    left = [(pid, _command(pid)) for pid in children if _running(pid)]
    for pid, _ in left:
        os.kill(pid, signal.SIGKILL)  # clean up after a failure
    assert left == []
