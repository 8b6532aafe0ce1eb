"""``patience serve``: check the settings and the database, then run the application under
uvicorn, in one process or several (``--workers N``, on PostgreSQL).

Everything that can be wrong before the first request is found here and said in one line
(:class:`ServeError`): a setting, a database that cannot be reached or is not migrated.
With several processes uvicorn's supervisor starts ``workers`` copies of the application
(each built by :func:`patience.server.app.create_app` from the same ``PATIENCE_*``
environment), restarts one that dies, and stops them all on SIGTERM or SIGINT.
"""

from __future__ import annotations

import logging.config
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from .logs import log_config
from .metrics import MULTIPROCESS
from .settings import PREFIX, Settings

__all__ = ["ServeError", "check_database", "serve", "uvicorn_options"]


class ServeError(RuntimeError):
    """The server cannot start; the message is one line saying why."""


def check_database(settings: Settings) -> str:
    """The database's migration when it answers and is at the newest one; else
    :class:`ServeError` saying what is wrong and what to run."""
    from sqlalchemy.engine import make_url

    from patience.store.db import DatabaseError, make_engine, require_migrated

    url = settings.database_url
    name = make_url(url).database or ""
    if settings.database_kind == "sqlite" and name not in ("", ":memory:"):
        database = Path(name)
        if not name.startswith("file:") and not database.exists():
            raise ServeError(
                f"no database at {database}: run `patience db migrate` to make it "
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
        # request whose line and headers pass the limit before it reaches the application
        "http": "h11",
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


def serve(settings: Settings) -> None:
    """Run the server until it is stopped; :class:`ServeError` if it cannot start."""
    import uvicorn

    from .app import create_app

    logging.config.dictConfig(log_config(settings.log_level, access_log=settings.access_log))
    check_database(settings)
    options = uvicorn_options(settings)
    print(f"patience: serving on http://{settings.host}:{settings.port}/", file=sys.stderr)
    if settings.workers == 1:
        uvicorn.run(create_app(settings), **options)
        return
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
