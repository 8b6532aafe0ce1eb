"""``patience serve``: check the settings and the database, then run the application under
uvicorn, in one process or several (``--workers N``, on PostgreSQL).

Everything that can be wrong before the first request is found here and said in one line
(:class:`ServeError`): a setting, a database that cannot be reached or is not migrated.
With several processes uvicorn's supervisor (:func:`supervisor_class`) starts ``workers``
copies of the application (each built by :func:`patience.server.app.create_app` from the
same ``PATIENCE_*`` environment), restarts one that dies, and stops them all on SIGTERM or
SIGINT; one that fails to start :data:`FAILED_STARTS` times in a row stops them all.

The exit status says whether starting again may help (docs/deploy.md): 1
(:data:`EXIT_CONFIGURATION`) for what only the operator can mend (a setting, a database not
migrated or newer than the code, a port in use), 75 (:data:`EXIT_TEMPORARY`) for what may
mend itself (a database that does not answer, server processes that would not start), which
the systemd unit restarts.
"""

from __future__ import annotations

import errno
import logging.config
import os
import pickle
import shutil
import socket
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import make_url

from .logs import log_config
from .metrics import MULTIPROCESS
from .settings import PREFIX, Settings

if TYPE_CHECKING:
    from uvicorn import Config

__all__ = [
    "EXIT_CONFIGURATION",
    "EXIT_TEMPORARY",
    "FAILED_STARTS",
    "ServeError",
    "check_database",
    "serve",
    "supervisor_class",
    "uvicorn_options",
]

EXIT_CONFIGURATION = 1
"""The exit status for what only the operator can mend: systemd does not restart it."""
EXIT_TEMPORARY = 75
"""The exit status (``EX_TEMPFAIL``) for what may mend itself, a database that does not
answer or server processes that would not start: systemd restarts the server."""
STOP_CHECK_SECONDS = 0.25
"""While a server process's health check is awaited, how often its supervisor looks for a
signal to stop (SIGTERM, SIGINT)."""
FAILED_STARTS = 3
"""Starts in a row that one of several server processes may fail (die or not answer its
health check before it is up) before the server stops with :data:`EXIT_TEMPORARY`."""


class ServeError(RuntimeError):
    """The server cannot start (or stopped); the message is one line saying why and
    ``status`` the exit status (:data:`EXIT_CONFIGURATION` or :data:`EXIT_TEMPORARY`)."""

    def __init__(self, message: str, status: int = EXIT_CONFIGURATION) -> None:
        super().__init__(message)
        self.status = status


def check_database(settings: Settings) -> str:
    """The database's migration when it answers and is at the newest one; else
    :class:`ServeError` saying what is wrong and what to run."""

    from patience.store.db import (
        DatabaseError,
        UnreachableError,
        make_engine,
        require_migrated,
    )

    url = settings.database_url
    name = make_url(url).database or ""
    if settings.database_kind == "sqlite" and name not in ("", ":memory:"):
        database = Path(name)
        if not name.startswith("file:") and not database.exists():
            raise ServeError(
                f"no database at {database.absolute()}: run `patience db migrate` to make it "
                "(or set PATIENCE_DATABASE_URL)"
            )
    engine = make_engine(url)
    try:
        return require_migrated(engine).head
    except UnreachableError as error:
        raise ServeError(str(error), EXIT_TEMPORARY) from None
    except DatabaseError as error:
        raise ServeError(str(error)) from None
    finally:
        engine.dispose()


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """uvicorn's options for ``settings``: the address, HTTP on h11 with the header limit,
    the proxies whose forwarding headers are believed, the JSON logs."""
    trusted = settings.trusted_proxies
    return {
        "host": settings.host,
        "port": settings.port,
        # h11, not httptools: httptools reads headers of any size; h11 refuses (400) a
        # request whose line and headers pass the limit before it reaches the application;
        # and with a deadline for them, which neither has (patience.server.connections)
        "http": "patience.server.connections:HeadDeadlineProtocol",
        "h11_max_incomplete_event_size": settings.max_header_bytes,
        # X-Forwarded-For and X-Forwarded-Proto are believed from these addresses only
        "proxy_headers": bool(trusted),
        "forwarded_allow_ips": ",".join(trusted) if trusted else "",
        "server_header": False,
        "date_header": True,
        "log_config": log_config(settings.log_level, access_log=settings.access_log),
        "access_log": False,  # the application writes its own (route, milliseconds)
        "timeout_graceful_shutdown": 10,
        "timeout_worker_healthcheck": settings.worker_check_seconds,
    }


def listener(host: str, port: int) -> socket.socket:
    """A socket listening on ``host`` and ``port``, or :class:`ServeError` saying why there
    is none (a port in use, an address this machine does not have)."""
    try:
        # IPv6 only for an IPv6 address, as uvicorn binds: "localhost" is 127.0.0.1
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, family, socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except socket.gaierror as error:
        raise ServeError(f"cannot listen on {host}: no such address ({error.strerror})") from None
    sock = socket.socket(family, kind, proto)
    try:
        # a restarted server takes its port back at once, even with connections of the
        # last one still closing; two servers still cannot listen on one port
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError as error:
        sock.close()
        if error.errno == errno.EADDRINUSE:
            raise ServeError(
                f"cannot listen on port {port}: the port is in use (is a server already "
                "running there?)"
            ) from None
        raise ServeError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    sock.set_inheritable(True)
    return sock


def serve(settings: Settings) -> None:
    """Run the server until it is stopped; :class:`ServeError` if it cannot start, or (with
    several processes) if one keeps failing to start. "serving on" is said once the port
    is open and the application is up, in every process when there are several."""
    import uvicorn

    from .app import create_app

    logging.config.dictConfig(log_config(settings.log_level, access_log=settings.access_log))
    for warning in settings.warnings():
        logging.getLogger("patience.server").warning(warning)
    check_database(settings)
    options = uvicorn_options(settings)
    shown = f"[{settings.host}]" if ":" in settings.host else settings.host
    address = f"http://{shown}:{settings.port}/"
    from patience.cli_deals import database_in_use

    database = database_in_use(settings.database_url)  # as every command names it

    def announce() -> None:
        print(f"patience: serving on {address} (database {database})", file=sys.stderr)

    sock = listener(settings.host, settings.port)
    if settings.workers == 1:
        config = uvicorn.Config(create_app(settings), **options)

        class Server(uvicorn.Server):
            async def startup(self, sockets: list[socket.socket] | None = None) -> None:
                await super().startup(sockets)
                if self.started and not self.should_exit:  # the application is up: say so
                    announce()

        with sock:
            Server(config).run(sockets=[sock])
        return
    print(f"patience: starting {settings.workers} server processes on {address}", file=sys.stderr)
    # Each process reads the settings from the environment: those given on the command
    # line go there too.
    for key, value in settings.env_values().items():
        if key in (f"{PREFIX}HOST", f"{PREFIX}PORT", f"{PREFIX}WORKERS"):
            os.environ[key] = value
    folder = os.environ.get(MULTIPROCESS)
    made = folder is None
    if folder is None:
        folder = tempfile.mkdtemp(prefix="patience-metrics-")
        os.environ[MULTIPROCESS] = folder
    elif not Path(folder).is_dir():
        sock.close()
        raise ServeError(f"{MULTIPROCESS}={folder}: no such folder")
    else:
        for stale in Path(folder).glob("*.db"):  # figures of processes of an earlier run
            stale.unlink()
    try:
        config = uvicorn.Config(
            "patience.server.app:create_app", factory=True, workers=settings.workers, **options
        )
        supervisor = supervisor_class()(config, [sock], announce)
        with sock:
            supervisor.run()
        if supervisor.failure is not None:
            raise ServeError(supervisor.failure, EXIT_TEMPORARY)
    finally:
        if made:
            shutil.rmtree(folder, ignore_errors=True)


def supervisor_class() -> type[Any]:
    """The class of uvicorn's supervisor that :func:`serve` runs (made when first asked
    for: uvicorn is imported then)."""
    from uvicorn.config import STARTUP_FAILURE
    from uvicorn.supervisors import Multiprocess
    from uvicorn.supervisors.multiprocess import Process

    logger = logging.getLogger("uvicorn.error")

    class Supervisor(Multiprocess):
        """uvicorn's supervisor of several server processes, which also says when all of
        them are up (``announce``, once) and stops (``failure`` says why) when one fails to
        start :data:`FAILED_STARTS` times in a row, instead of starting it again forever.

        A process is "up" once it answers its health check saying its application has
        started; until then its supervisor waits ``timeout_worker_healthcheck`` seconds
        for each answer (``PATIENCE_WORKER_CHECK_SECONDS``)."""

        def __init__(
            self, config: Config, sockets: list[socket.socket], announce: Callable[[], None]
        ) -> None:
            super().__init__(config, sockets)
            self.announce = announce
            self.announced = False
            self.up: set[int | None] = set()
            self.failed_starts: list[int] = []
            self.failure: str | None = None

        def init_processes(self) -> None:
            super().init_processes()
            self.failed_starts = [0] * len(self.processes)

        def health(self, process: Process, timeout: float) -> str | None:
            """``process``'s answer to a health check: ``"up"`` (its application has
            started) or ``"starting"``; None when it is dead or gave no answer within
            ``timeout``; ``"stopping"`` as soon as a signal to stop comes meanwhile
            (uvicorn's own check waited out the whole ``timeout``, a minute, which
            outlasted systemd's wait for a stop)."""
            if not process.process.is_alive():
                return None
            connection = process.parent_conn
            deadline = time.monotonic() + timeout
            try:
                connection.send(b"ping")
                while not connection.poll(min(STOP_CHECK_SECONDS, timeout)):
                    if self.signal_queue or self.should_exit.is_set():
                        return "stopping"
                    timeout = deadline - time.monotonic()
                    if timeout <= 0:
                        return None
                return "up" if connection.recv() is True else "starting"
            except (OSError, EOFError, pickle.UnpicklingError):
                return None

        def keep_subprocess_alive(self) -> None:
            if self.should_exit.is_set():
                return
            timeout = self.config.timeout_worker_healthcheck
            self.failed_starts += [0] * (len(self.processes) - len(self.failed_starts))
            for index, process in enumerate(self.processes):
                answer = self.health(process, timeout)
                if answer == "stopping":
                    return  # the signal is handled next, and every process stopped
                if answer is not None:
                    if answer == "up" and process.pid not in self.up:
                        self.up.add(process.pid)
                        self.failed_starts[index] = 0
                    continue
                process.kill()  # dead, or hung: not answering its health check
                process.join()
                if self.should_exit.is_set():
                    return
                if process.pid in self.up:
                    self.up.discard(process.pid)
                    logger.info(f"Child process [{process.pid}] died")
                else:
                    self.failed_starts[index] += 1
                    hung = process.exitcode in (None, -9)  # killed here, not answering
                    how = (
                        f"did not answer its health check within {timeout} s"
                        if hung
                        else f"exited with status {process.exitcode}"
                    )
                    logger.error(
                        f"Child process [{process.pid}] failed to start: {how} "
                        f"({self.failed_starts[index]} of {FAILED_STARTS} in a row)"
                    )
                    if process.exitcode == STARTUP_FAILURE or (
                        self.failed_starts[index] >= FAILED_STARTS
                    ):
                        self.failure = (
                            f"a server process failed to start {self.failed_starts[index]} "
                            f"time(s) in a row ({how}); stopping"
                        )
                        if hung:
                            self.failure += (
                                " (PATIENCE_WORKER_CHECK_SECONDS is how long one may take)"
                            )
                        self.should_exit.set()
                        return
                replacement = Process(self.config, self.sockets)
                replacement.start()
                self.processes[index] = replacement
            if not self.announced and all(p.pid in self.up for p in self.processes):
                self.announced = True
                self.announce()

    return Supervisor
