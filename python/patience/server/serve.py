"""``patience serve``: check the settings and the database, then run the application under
uvicorn, in one process or several (``--workers N``, on PostgreSQL).

Everything that can be wrong before the first request is found here and said in one line
(:class:`ServeError`): a setting, a database that cannot be reached or is not migrated.
With several processes uvicorn's supervisor starts ``workers`` copies of the application
(each built by :func:`patience.server.app.create_app` from the same ``PATIENCE_*``
environment), restarts one that dies, and stops them all on SIGTERM or SIGINT.
"""

from __future__ import annotations

import errno
import logging.config
import os
import shutil
import socket
import sys
import tempfile
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

from .logs import log_config
from .metrics import MULTIPROCESS
from .settings import PREFIX, Settings

__all__ = ["ServeError", "check_database", "serve", "uvicorn_options"]


class ServeError(RuntimeError):
    """The server cannot start; the message is one line saying why."""


def check_database(settings: Settings) -> str:
    """The database's migration when it answers and is at the newest one; else
    :class:`ServeError` saying what is wrong and what to run."""

    from patience.store.db import DatabaseError, make_engine, require_migrated

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
    """Run the server until it is stopped; :class:`ServeError` if it cannot start. "serving
    on" is said once the port is open and the application is up (with one process), or the
    port is open and the processes are starting (with several)."""
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
    sock = listener(settings.host, settings.port)
    if settings.workers == 1:
        config = uvicorn.Config(create_app(settings), **options)

        class Server(uvicorn.Server):
            async def startup(self, sockets: list[socket.socket] | None = None) -> None:
                await super().startup(sockets)
                if self.started and not self.should_exit:  # the application is up: say so
                    print(f"patience: serving on {address} (database {database})", file=sys.stderr)

        with sock:
            Server(config).run(sockets=[sock])
        return
    sock.close()  # uvicorn's supervisor binds it again for its processes
    print(f"patience: serving on {address} (database {database})", file=sys.stderr)
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
        raise ServeError(f"{MULTIPROCESS}={folder}: no such folder")
    else:
        for stale in Path(folder).glob("*.db"):  # figures of processes of an earlier run
            stale.unlink()
    try:
        uvicorn.run(
            "patience.server.app:create_app", factory=True, workers=settings.workers, **options
        )
    finally:
        if made:
            shutil.rmtree(folder, ignore_errors=True)
