"""A real server process for the tests that need one (restart safety, the browser)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx


def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serve(database: Path, port: int, **env: str) -> subprocess.Popen[bytes]:
    """``patience serve`` on ``port`` with the SQLite file ``database``, once it answers."""
    environ = os.environ | {"PATIENCE_DATABASE_URL": f"sqlite:///{database}"} | env
    server = subprocess.Popen(
        [sys.executable, "-m", "patience.cli", "serve", "--port", str(port)],
        env=environ,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1)
            return server
        except httpx.TransportError:
            time.sleep(0.1)
    server.kill()
    detail = server.stderr.read() if server.stderr else b""
    raise AssertionError(f"the server did not start: {detail!r}")
