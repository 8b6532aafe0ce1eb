"""``patience db migrate | status | backup`` and ``patience settings``: the operator's
commands for the database the server uses (``PATIENCE_DATABASE_URL``) and its settings.

Migrating is a step of its own, run once per upgrade (docs/deploy.md): the server and the
other commands refuse a database that is not migrated, saying to run ``patience db
migrate``. A SQLite database is backed up online with SQLite's backup API while servers
write it; a PostgreSQL one with ``pg_dump`` (run for you when it is installed).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

__all__ = ["add_commands", "pg_dump_command", "run_db_command", "run_settings_command"]


def add_commands(commands: Any) -> None:
    """Add ``patience db`` and ``patience settings`` to the command's subparsers."""
    db = commands.add_parser("db", help="the database: migrate, status, backup")
    sub = db.add_subparsers(dest="db_command", required=True)
    sub.add_parser("migrate", help="create the database's tables, or bring them up to date")
    status = sub.add_parser(
        "status", help="the database's migration and the newest (exit 1 if behind)"
    )
    status.add_argument("--json", action="store_true", help="print one JSON object")
    backup = sub.add_parser(
        "backup", help="copy the database to FILE while servers run (SQLite; pg_dump)"
    )
    backup.add_argument("file", type=Path, help="the backup's file (must not exist)")
    shown = commands.add_parser(
        "settings", help="the settings in effect, from PATIENCE_* (secrets masked)"
    )
    shown.add_argument("--json", action="store_true", help="print one JSON object")


def _fail(message: str) -> int:
    print(f"patience: {message}", file=sys.stderr)
    return 1


def run_settings_command(args: argparse.Namespace) -> int:
    """``patience settings``: every setting as an environment file would write it, with
    where its value came from; secrets masked."""
    from patience.server.settings import PREFIX, Settings, SettingsError

    try:
        settings = Settings.from_env()
    except SettingsError as error:
        return _fail(str(error))
    for warning in settings.warnings():
        print(f"patience: warning: {warning}", file=sys.stderr)
    values = settings.env_values()
    given = {key for key in os.environ if key.startswith(PREFIX)}
    if args.json:
        print(json.dumps(values))
        return 0
    width = max(len(f"{key}={value}") for key, value in values.items())
    for key, value in values.items():
        source = "environment" if key in given else "default"
        print(f"{key}={value}".ljust(width + 2) + f"# {source}")
    return 0


def run_db_command(args: argparse.Namespace) -> int:
    """Run a ``patience db`` command; the exit status."""
    from patience.server.settings import Settings, SettingsError
    from patience.store.db import DatabaseError

    try:
        settings = Settings.from_env()
    except SettingsError as error:
        return _fail(str(error))
    try:
        if args.db_command == "migrate":
            return _migrate(settings.database_url)
        if args.db_command == "status":
            return _status(settings.database_url, as_json=args.json)
        return _backup(settings.database_url, args.file)
    except DatabaseError as error:
        return _fail(str(error))


def _migrate(url: str) -> int:
    from sqlalchemy.exc import SQLAlchemyError

    from patience.store.db import (
        DatabaseError,
        NewerDatabaseError,
        make_engine,
        migrate,
        migration_status,
    )

    engine = make_engine(url)
    try:
        before = migration_status(engine)
        if before.newer:  # alembic would fail, not knowing the migration
            raise NewerDatabaseError(before.newer_message(_shown(url)))
        try:
            migrate(engine)
        except SQLAlchemyError as error:
            from patience.store.db import database_problem

            raise DatabaseError(f"the migration failed: {database_problem(error)}") from None
    finally:
        engine.dispose()
    shown = _shown(url)
    if before.migrated:
        print(f"{shown}: already at the newest migration ({before.head})")
    else:
        print(f"{shown}: migrated from {before.current or 'nothing'} to {before.head}")
    return 0


def _status(url: str, *, as_json: bool) -> int:
    from patience.store.db import MigrationStatus, head_revision, make_engine, migration_status

    if _missing_sqlite_file(url):
        status = MigrationStatus(None, head_revision())
    else:
        engine = make_engine(url)
        try:
            status = migration_status(engine)
        finally:
            engine.dispose()
    current, head = status.current, status.head
    shown = _shown(url)
    if as_json:
        print(
            json.dumps({"database": shown, "current": current, "head": head, "newer": status.newer})
        )
    elif status.newer:
        print(status.newer_message(shown))
    elif current == head:
        print(f"{shown}: at the newest migration ({head})")
    else:
        print(
            f"{shown}: at migration {current or 'none (no tables)'}, the newest is {head}: "
            "run `patience db migrate`"
        )
    return 0 if current == head else 1


def _shown(url: str) -> str:
    from patience.store.db import mask_url

    return mask_url(url)


def _missing_sqlite_file(url: str) -> bool:
    parsed = make_url(url)
    database = parsed.database or ""
    return (
        parsed.get_backend_name() == "sqlite"
        and database not in ("", ":memory:")
        and not database.startswith("file:")
        and not Path(database).exists()
    )


SERVICE_ONLY = ("sslpassword",)
"""Connection parameters that are secrets libpq reads from no environment variable: given to
``pg_dump`` in a service file of its own (``PGSERVICEFILE``, readable by its owner only,
removed after), never on its command line, which every user of the machine can read."""

BACKUP_SERVICE = "patience-backup"
"""The service's name in that file (``PGSERVICE``)."""


def pg_dump_command(url: str, target: Path) -> tuple[list[str], dict[str, str], dict[str, str]]:
    """The ``pg_dump`` command line (custom format, the one ``pg_restore`` reads) for the
    PostgreSQL database of SQLAlchemy URL ``url``, the environment it needs, and the
    parameters for its service file (:data:`SERVICE_ONLY`): the password goes in
    ``PGPASSWORD``, and no secret on a command line other users can see.

    >>> url = "postgresql+psycopg://app:pw@db/patience"
    >>> command, env, service = pg_dump_command(url, Path("b"))
    >>> command
    ['pg_dump', '--format=custom', '--file=b', '--dbname=postgresql://app@db/patience']
    >>> env, service
    ({'PGPASSWORD': 'pw'}, {})
    >>> command, env, service = pg_dump_command(
    ...     "postgresql://app@db/patience?password=pw&sslpassword=key&sslmode=require", Path("b")
    ... )
    >>> command[-1]
    '--dbname=postgresql://app@db/patience?sslmode=require'
    >>> env, service
    ({'PGPASSWORD': 'pw'}, {'sslpassword': 'key'})
    """
    from patience.store.db import DatabaseError

    parsed = make_url(url)
    password = None if parsed.password is None else str(parsed.password)
    given = parsed.query.get("password")
    if password is None and isinstance(given, str):
        password = given  # ?password=...: out of the command line too
    env = {} if password is None else {"PGPASSWORD": password}
    service: dict[str, str] = {}
    for key in SERVICE_ONLY:
        value = parsed.query.get(key)
        if value is None:
            continue
        if not isinstance(value, str) or "\n" in value or "\r" in value:
            raise DatabaseError(f"the database URL's {key} must be given once, on one line")
        service[key] = value
    libpq = parsed._replace(drivername="postgresql", password=None).difference_update_query(
        ["password", *SERVICE_ONLY]
    )
    dbname = libpq.render_as_string(hide_password=False)
    command = ["pg_dump", "--format=custom", f"--file={target}", f"--dbname={dbname}"]
    return command, env, service


def _service_file(folder: Path, service: dict[str, str]) -> dict[str, str]:
    """Write ``service`` as :data:`BACKUP_SERVICE` to a file in ``folder`` that only its
    owner can read; the environment that has libpq read it."""
    path = folder / "pg_service.conf"
    with os.fdopen(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600), "w") as file:
        file.write(f"[{BACKUP_SERVICE}]\n")
        file.writelines(f"{key}={value}\n" for key, value in service.items())
    return {"PGSERVICEFILE": str(path), "PGSERVICE": BACKUP_SERVICE}


def _backup(url: str, target: Path) -> int:
    from patience.store.db import DatabaseError, backup_sqlite, make_engine

    if target.exists():
        raise DatabaseError(f"{target} exists: a backup is written to a new file")
    if not target.absolute().parent.is_dir():
        raise DatabaseError(f"the folder {target.absolute().parent} does not exist")
    if make_url(url).get_backend_name() == "postgresql":
        command, env, service = pg_dump_command(url, target)
        if shutil.which("pg_dump") is None:
            raise DatabaseError(
                "pg_dump is not installed (Debian: apt-get install postgresql-client); "
                "the backup is: " + " ".join(command)
            )
        # The dump holds what the database keeps secret (unused catalog seeds, running
        # games' deals, password hashes): made readable by its owner only, as pg_dump
        # would make it (umask 022) readable by all. pg_dump writes into the file made.
        os.close(os.open(target, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        os.chmod(target, 0o600)  # whatever the umask
        with contextlib.ExitStack() as stack:
            if service:  # in a folder of its own (0700), gone once pg_dump is
                folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="patience-backup-"))
                env |= _service_file(Path(folder), service)
            done = subprocess.run(command, env=os.environ | env, capture_output=True, text=True)
        if done.returncode != 0:
            target.unlink(missing_ok=True)
            lines = [line.removeprefix("pg_dump: ") for line in done.stderr.splitlines()]
            reason = "; ".join(line.strip() for line in lines if line.strip()) or "failed"
            raise DatabaseError(f"pg_dump: {reason[:2000]}")
        print(f"backed up to {target} ({target.stat().st_size:,} bytes, pg_dump custom format)")
        return 0
    if _missing_sqlite_file(url):
        raise DatabaseError(f"no database at {make_url(url).database}: nothing to back up")
    engine = make_engine(url)
    try:
        size = backup_sqlite(engine, target)
    finally:
        engine.dispose()
    print(f"backed up to {target} ({size:,} bytes, a SQLite database)")
    return 0
