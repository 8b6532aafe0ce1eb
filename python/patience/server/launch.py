"""``patience serve`` in a child process, for the tests and benchmarks that need a real
server: started on a port, with its own SQLite file, and returned once it answers.

>>> port = free_port()
>>> 1024 <= port < 65536
True
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import BinaryIO

__all__ = ["NO_RATE_LIMITS", "ServerStartError", "free_port", "start"]

NO_RATE_LIMITS = {
    "PATIENCE_RATE_STARTS": "0",
    "PATIENCE_RATE_HINTS": "0",
    "PATIENCE_RATE_HINTS_ADDRESS": "0",
    "PATIENCE_RATE_MOVES": "0",
    "PATIENCE_RATE_ADDRESS": "0",
    "PATIENCE_GUEST_TIMED": "0",
    "PATIENCE_SIGN_UPS_PER_HOUR": "0",
}
"""What a server started here has unless told otherwise (in ``env`` or the environment):
its clients all share this machine's address, where the limits per address are no
measure of anything."""


class ServerStartError(RuntimeError):
    """The child process did not answer in time; the message holds its error output."""


def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start(
    database: Path | str,
    port: int,
    *,
    timeout: float = 180.0,
    stderr: BinaryIO | None = None,
    migrate: bool = True,
    **env: str,
) -> subprocess.Popen[bytes]:
    """Starts ``patience serve --port PORT`` on ``database`` (a SQLite file's path, or any
    database URL as a string; more ``PATIENCE_*`` settings in ``env``; no rate limits
    unless set there or in the environment: :data:`NO_RATE_LIMITS`) and waits until
    ``/api/games`` answers. The database is migrated first (``patience db migrate``)
    unless ``migrate`` is false.

    The child's error output goes to ``stderr`` when given (a file open for writing and
    reading bytes, for the caller to read), else to a temporary file. The caller stops it
    (``terminate`` or ``kill``, then ``wait``). Raises :class:`ServerStartError` after
    ``timeout`` seconds, with the child's error output: a deadline, not a wait (the
    server is returned as soon as it answers), long enough for a machine busy with other
    work, where a start that takes a second alone can take half a minute.
    """
    url = f"sqlite:///{database}" if isinstance(database, Path) else database
    environ = NO_RATE_LIMITS | os.environ | {"PATIENCE_DATABASE_URL": url} | env
    if migrate:
        from patience.store.db import migrate_url

        migrate_url(environ["PATIENCE_DATABASE_URL"])
    # A file, not a pipe: a pipe nobody reads would stop a long-running server once full.
    # The child keeps its own handle on it when this one closes.
    with tempfile.TemporaryFile() as temporary:
        errors = temporary if stderr is None else stderr
        server = subprocess.Popen(
            [sys.executable, "-m", "patience.cli", "serve", "--port", str(port)],
            env=environ,
            stdout=subprocess.DEVNULL,
            stderr=errors,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and server.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=1):
                    return server
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.1)
        server.kill()
        server.wait()
        errors.seek(0)
        detail = errors.read().decode(errors="replace")
    raise ServerStartError(f"the server did not start: {detail}")
