"""The database: tables, the engine, migrations (Alembic) and backups.

Every table change is a migration in ``migrations/versions``; :func:`migrate` brings any
database (a new SQLite file included) to the newest one. Migrating is a step of its own
(``patience db migrate``): the server and the other commands only check that the database
is migrated (:func:`require_migrated`) and refuse to run on one that is not.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    desc,
    event,
    text,
)
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import DBAPIError, OperationalError, SQLAlchemyError

from patience.errors import PatienceError

if TYPE_CHECKING:
    from alembic.config import Config

__all__ = [
    "DatabaseError",
    "MigrationStatus",
    "NewerDatabaseError",
    "NotMigratedError",
    "UnreachableError",
    "backup_sqlite",
    "catalog_jobs",
    "checkpoint",
    "daily_deals",
    "daily_games",
    "database_problem",
    "deals",
    "devices",
    "events",
    "head_revision",
    "heartbeats",
    "login_attempts",
    "logins",
    "make_engine",
    "mask_url",
    "metadata",
    "migrate",
    "migrate_url",
    "migration_status",
    "outages",
    "require_migrated",
    "sessions",
    "sign_ups",
    "tournament_entries",
    "tournament_games",
    "tournaments",
    "users",
]

metadata = MetaData()

sessions = Table(
    "sessions",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("token_hash", String(64), nullable=False),
    Column("game", String(16), nullable=False),
    Column("variant", Text, nullable=False),  # JSON object
    Column("deal", Text, nullable=False),  # cards separated by spaces
    Column("seed", String(20), nullable=True),  # a u64, kept as text
    Column("mode", String(16), nullable=False),  # "timed" or "practice"
    Column("certified", Boolean, nullable=False),
    Column("time_limit", Float, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("ended_at", Float, nullable=True),  # wall-clock seconds; null while running
    Column("paused", Float, nullable=False, server_default="0"),  # outage seconds credited
    Column("tier", Integer, nullable=True),  # the dealt deal's difficulty tier, if rated
    Column("user_id", String(32), nullable=True),  # the player's; null: a guest's game
    Column("address", String(64), nullable=True),  # SHA-256 of a guest's address (limits)
    Column("won", Boolean, nullable=True),  # the result, written when the game ends
    Column("score", Integer, nullable=True),
    Column("elapsed", Float, nullable=True),  # seconds of the clock used
    Column("sealed_until", Float, nullable=True),  # a tournament's game: deal secret until
    Column("ends_at", Float, nullable=True),  # a tournament's game: it never runs past this
    Column("guest", String(64), nullable=True),  # SHA-256 of a guest's browser cookie
    # a practice game dealt by a numbering players know ("microsoft 11982"); null: by seed
    Column("numbered", String(48), nullable=True),
    Index("sessions_running", "ended_at"),
    Index("sessions_by_user", "user_id", "ended_at"),
    Index("sessions_by_guest", "guest"),
)
"""One row a game: everything needed to deal it again, and whether it is still running."""

events = Table(
    "events",
    metadata,
    Column("session_id", String(32), ForeignKey("sessions.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),  # start, move, timeout
    Column("at", Float, nullable=False),  # wall-clock seconds
    Column("move", String(32), nullable=True),
    Column("reply", Text, nullable=True),  # a move's answer (JSON), for a retried request
)
"""A session's log, one row per event, written before the move is answered. The primary
key (game, sequence number) is what keeps two server processes from both writing a game's
next event: the second insert fails, and that process reloads the game."""

heartbeats = Table(
    "heartbeats",
    metadata,
    Column("server", String(32), primary_key=True),
    Column("started_at", Float, nullable=False),
    Column("beat_at", Float, nullable=False),  # wall-clock seconds, written every second
)
"""One row a server process: the last moment it was known to answer."""

outages = Table(
    "outages",
    metadata,
    Column("began", Float, primary_key=True),  # the last heartbeat before it
    Column("ended", Float, nullable=False),
    Column("games", Integer, nullable=False),  # running games credited
)
"""Times no server answered, each credited once to every game then running (the key keeps
two servers starting together from crediting it twice)."""

deals = Table(
    "deals",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game", String(16), nullable=False),
    Column("variant", Text, nullable=False),  # JSON object, keys sorted
    Column("seed", String(20), nullable=False),  # a u64, kept as text
    Column("nodes", BigInteger, nullable=False),  # the solver's work: the deal's difficulty
    Column("seconds", Float, nullable=False),
    Column("moves", Integer, nullable=False),  # the certificate's length
    Column("added_at", Float, nullable=False),
    Column("session_id", String(32), nullable=True),  # the game it was dealt to
    Column("tier", Integer, nullable=True),  # 1 (easiest) to 10; null: not rated
    Column("score", Float, nullable=True),  # the difficulty score, 0 to 1
    Column("rating", Text, nullable=True),  # JSON: patience.rating.Rating.to_json()
    Column("rating_version", Integer, nullable=True),
    # where the seed came from: "random" (the operating system's generator), "key:FP" (the
    # keyed stream of the deal key of fingerprint FP), "unrecorded" (made before origins
    # were kept: a public stream's seed, possibly)
    Column("origin", String(24), nullable=True),
    Column("retired_at", Float, nullable=True),  # never dealt from then on
    UniqueConstraint("game", "variant", "seed"),
    Index("deals_unused", "game", "variant", "session_id"),
    Index("deals_unused_tier", "game", "variant", "tier", "session_id"),
)
"""The catalog: seeds whose deals the solver proved winnable (each certificate replayed),
each dealt to one game at most, with their difficulty rating where the game has reference
players. Only a deal whose seed nobody can predict (origin ``random`` or ``key:FP``) and
that is not retired is ever dealt."""

catalog_jobs = Table(
    "catalog_jobs",
    metadata,
    Column("game", String(16), primary_key=True),
    Column("variant", Text, primary_key=True),  # JSON object, keys sorted
    Column("origin", String(24), primary_key=True),  # "key:FP": the deal key's fingerprint
    Column("stream", BigInteger, primary_key=True),
    Column("next_index", BigInteger, nullable=False),  # the first index not yet looked at
    Column("found", Integer, nullable=False),  # deals certified before next_index
)
"""How far each catalog job has gone in its keyed stream, written with the deals it found,
so that a job run again goes on from there (and a job already done returns at once)."""

users = Table(
    "users",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(32), nullable=False),  # the display name as written
    Column("name_key", String(32), nullable=False, unique=True),  # casefolded: one per name
    Column("password_hash", Text, nullable=False),  # argon2id, with its salt and parameters
    Column("operator", Boolean, nullable=False, server_default="0"),
    Column("created_at", Float, nullable=False),
    Column("disabled", Boolean, nullable=False, server_default="0"),  # may not sign in
    Column("deleted_at", Float, nullable=True),  # deleted: no name, no password, kept anonymous
    Column("last_login_at", Float, nullable=True),
)
"""Players' accounts. A password is kept only as its argon2id hash. A deleted account stays
as an anonymous row (its games and tournament results stand), with neither its name nor a
password."""

logins = Table(
    "logins",
    metadata,
    Column("token_hash", String(64), primary_key=True),  # SHA-256 of the cookie's token
    Column("user_id", String(32), ForeignKey("users.id"), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
    Index("logins_by_user", "user_id"),
)
"""Signed-in browser sessions: the cookie's token is kept only as its hash, so the table
lets nobody sign in as anyone."""

login_attempts = Table(
    "login_attempts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name_key", String(32), nullable=False),  # the name tried, as name_key() has it
    Column("address", String(64), nullable=False),  # SHA-256 of the client's address
    Column("device", String(64), nullable=True),  # SHA-256 of a known device's token
    Column("at", Float, nullable=False),
    Column("failed", Boolean, nullable=False),  # written true before the password is checked
    Index("login_attempts_by_name", "name_key", "at"),
    Index("login_attempts_by_address", "address", "at"),
)
"""Log-in attempts, each written as a failure before its password is checked (and made a
success once it is), so that the limits of :class:`patience.players.Accounts` count every
attempt under way, in every server process."""

devices = Table(
    "devices",
    metadata,
    Column("token_hash", String(64), primary_key=True),  # SHA-256 of the device cookie's token
    Column("user_id", String(32), ForeignKey("users.id"), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("used_at", Float, nullable=False),
    Index("devices_by_user", "user_id", "used_at"),
)
"""Browsers an account has logged in from (a long-lived cookie, kept only as its hash):
they pass the cap on failed log-ins that protects the account from new devices."""

sign_ups = Table(
    "sign_ups",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("address", String(64), nullable=False),  # SHA-256 of the client's address
    Column("at", Float, nullable=False),
    Index("sign_ups_by_address", "address", "at"),
)
"""Sign-ups per address, counted before the password is hashed (in the database, so that
every server process counts the same)."""

tournaments = Table(
    "tournaments",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("game", String(16), nullable=False),
    Column("variant", Text, nullable=False),  # JSON object, keys sorted
    Column("policy", String(8), nullable=False),  # "shared" or "tier"
    Column("tier", Integer, nullable=True),
    Column("time_limit", Float, nullable=False),
    Column("opens_at", Float, nullable=False),
    Column("closes_at", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("max_entrants", Integer, nullable=False),
    Column("created_by", String(32), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("commitment", String(64), nullable=False),  # SHA-256 of the committed document
    Column("secret", Text, nullable=False),  # JSON: the salt and the deals, shown at the close
    # an operator's early close or cancellation: when, by whom (the committed closing time
    # stays in the document)
    Column("closed_early_at", Float, nullable=True),
    Column("closed_by", String(32), nullable=True),
    Column("cancelled", Boolean, nullable=False, server_default="0"),
    Column("publication", Text, nullable=True),  # JSON: the verification, made once closed
    Index("tournaments_by_close", "closes_at"),
)
"""Tournaments, each with its published commitment to its deals (patience.tournaments)."""

tournament_entries = Table(
    "tournament_entries",
    metadata,
    Column("tournament_id", String(32), ForeignKey("tournaments.id"), primary_key=True),
    Column("user_id", String(32), primary_key=True),
    Column("number", Integer, nullable=False),  # joined n-th, from 0: which deals it gets
    Column("joined_at", Float, nullable=False),
    Column("attempts_used", Integer, nullable=False, server_default="0"),
    Column("best_score", Integer, nullable=True),  # the best finished attempt's
    Column("best_elapsed", Float, nullable=True),
    Column("best_at", Float, nullable=True),  # when that attempt ended
    Index(
        "tournament_standings",
        "tournament_id",
        desc("best_score"),
        "best_elapsed",
        "best_at",
    ),
    UniqueConstraint("tournament_id", "number"),
)
"""Entrants and their best attempt, indexed in standings order (score, then time, then
who finished first)."""

tournament_games = Table(
    "tournament_games",
    metadata,
    Column("session_id", String(32), primary_key=True),
    Column("tournament_id", String(32), ForeignKey("tournaments.id"), nullable=False),
    Column("user_id", String(32), nullable=False),
    Column("attempt", Integer, nullable=False),
    Column("deal", Integer, nullable=False),  # index into the committed deals
    UniqueConstraint("tournament_id", "user_id", "attempt"),
)
"""Every attempt dealt: a game of the game store, played like any other."""

daily_deals = Table(
    "daily_deals",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game", String(16), nullable=False),
    Column("variant", Text, nullable=False),  # JSON object, keys sorted
    Column("day", String(10), nullable=False),  # the UTC day, 2025-01-31
    Column("seed", String(20), nullable=False),  # secret until the day is over
    Column("tier", Integer, nullable=True),  # secret until the day is over
    Column("created_at", Float, nullable=False),
    UniqueConstraint("game", "variant", "day"),
)
"""The daily deals: one catalog deal a game, variant and UTC day, the same for everyone,
its seed and tier kept secret until the day is over (patience.daily)."""

daily_games = Table(
    "daily_games",
    metadata,
    Column("session_id", String(32), primary_key=True),
    Column("daily_id", Integer, ForeignKey("daily_deals.id"), nullable=False),
    Column("user_id", String(32), nullable=True),  # null: a guest's game, in no standing
    Column("created_at", Float, nullable=False),
    UniqueConstraint("daily_id", "user_id"),  # a player's one game of a daily deal
    Index("daily_games_by_user", "user_id", "daily_id"),
)
"""Every game of a daily deal: a timed game of the game store, sealed until the day ends."""

MIGRATIONS = Path(__file__).with_name("migrations")


def make_engine(url: str, *, background_checkpoints: bool = False) -> Engine:
    """An engine for ``url``. A SQLite file is made readable by its owner only (it holds the
    deals of running timed games) and gets WAL journaling with ``synchronous=FULL``, so an
    acknowledged move survives a power loss, not only a crashed process; foreign keys on.
    With ``background_checkpoints`` a commit never copies the WAL back into the database
    file (two more fsyncs, milliseconds, on the request that happens to commit then): the
    caller runs :func:`checkpoint` from a background thread instead, as the server does."""
    engine = create_engine(url, **_engine_options(url))
    if engine.dialect.name == "sqlite":
        _private(engine.url.database)

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(connection, _record):  # type: ignore[no-untyped-def]
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.execute("PRAGMA foreign_keys=ON")
            if background_checkpoints:
                cursor.execute("PRAGMA wal_autocheckpoint=0")
            cursor.close()

    return engine


CONNECT_SECONDS = 5
"""How long a PostgreSQL connection may take to open before the attempt fails (so that an
unreachable server is said at once, not after the system's TCP timeout)."""


def _engine_options(url: str) -> dict[str, object]:
    if url.startswith("postgresql"):
        # pool_pre_ping: a connection the server dropped (a restart, an idle timeout) is
        # replaced before use instead of failing a player's request.
        return {"connect_args": {"connect_timeout": CONNECT_SECONDS}, "pool_pre_ping": True}
    return {}


def _private(database: str | None) -> None:
    """Create the SQLite file ``database`` readable and writable by its owner only, or make
    an existing one so (with its WAL files: SQLite gives new ones the file's mode)."""
    if not database or database == ":memory:" or database.startswith("file:"):
        return
    path = Path(database)
    # Made new only, never opened when it exists: closing any descriptor of the file drops
    # every POSIX lock this process holds on it, the locks of the SQLite connections it
    # has open on the database included (SQLite's own descriptors are kept open for that
    # reason), and another process then takes the database for unused: a second engine
    # of the same file in one process corrupted what the first wrote.
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o600))
    for name in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        with contextlib.suppress(FileNotFoundError):
            if name.stat().st_mode & 0o077:
                name.chmod(0o600)


def checkpoint(engine: Engine) -> None:
    """Copy a SQLite database's WAL back into its file as far as no reader needs it (for an
    engine made with ``background_checkpoints``); nothing on other databases."""
    if engine.dialect.name == "sqlite":
        with engine.connect() as connection:
            connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")


MIGRATION_LOCK = 0x7061_7469
"""PostgreSQL advisory lock held while migrating: server processes starting together on
one database migrate it one after the other (the second finds nothing left to do)."""


def migrate(engine: Engine) -> None:
    """Bring the database to the newest migration (creating it when new)."""
    config = _config()
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        from alembic import command  # (imported when used: a command that needs no
        # database starts a third of a second sooner without it)

        command.upgrade(config, "head")


class DatabaseError(PatienceError):
    """The database cannot be used: unreachable, refused, or not migrated; the message is
    one line saying which and what to do."""


class NotMigratedError(DatabaseError):
    """The database is not at the newest migration (or has no tables at all)."""


class NewerDatabaseError(DatabaseError):
    """The database is at a migration this code does not have: a newer patience migrated
    it. Migrating cannot help; the message says what can."""


class UnreachableError(DatabaseError):
    """The database did not answer (refused, down, starting up, out of connections): a
    state that may pass, unlike a refused password or a missing database."""


@dataclass(frozen=True, slots=True)
class MigrationStatus:
    """Where a database stands: its migration (None: never migrated) and the newest;
    ``known`` is false when its migration is none of this code's (a newer one)."""

    current: str | None
    head: str
    known: bool = True

    @property
    def migrated(self) -> bool:
        """Whether the database is at the newest migration."""
        return self.current == self.head

    @property
    def newer(self) -> bool:
        """Whether the database is at a migration newer than this code's newest."""
        return self.current is not None and not self.known

    def newer_message(self, where: str) -> str:
        """What to say of a database at a newer migration than this code's."""
        return (
            f"the database {where} is at migration {self.current}, newer than this patience's "
            f"newest ({self.head}): run the patience that migrated it, or restore the backup "
            "taken before migrating (docs/deploy.md)"
        )


def _config() -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def database_problem(error: SQLAlchemyError) -> str:
    """The first line of what the database driver said, without SQLAlchemy's wrapping."""
    original = error.orig if isinstance(error, DBAPIError) else None
    text = str(original if original is not None else error).strip()
    first = text.splitlines()[0] if text else type(error).__name__
    return first[:300]


def migrate_url(url: str) -> None:
    """Bring the database of ``url`` to the newest migration (``patience db migrate``)."""
    engine = make_engine(url)
    try:
        migrate(engine)
    finally:
        engine.dispose()


def head_revision() -> str:
    """The newest migration's revision."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(_config()).get_current_head()
    assert head is not None
    return head


def _known_revision(revision: str) -> bool:
    from alembic.script import ScriptDirectory
    from alembic.util import CommandError

    try:
        return ScriptDirectory.from_config(_config()).get_revision(revision) is not None
    except CommandError:  # alembic's "Can't locate revision"
        return False


def _passing(error: SQLAlchemyError) -> bool:
    """Whether ``error`` is of a PostgreSQL that did not answer or cannot take a connection
    now (no SQLSTATE: refused, unreachable; classes 08, 53 and 57P: a connection failure,
    too many connections, a server starting or shutting down)."""
    if not isinstance(error, OperationalError) or error.orig is None:
        return False
    if "psycopg" not in type(error.orig).__module__:
        return False
    state = getattr(error.orig, "sqlstate", None)
    return state is None or str(state).startswith(("08", "53", "57P"))


def migration_status(engine: Engine) -> MigrationStatus:
    """The database's migration and the newest one; :class:`DatabaseError` when it cannot
    be used (:class:`UnreachableError` when it does not answer)."""
    head = head_revision()
    try:
        with engine.connect() as connection:
            from alembic.runtime.migration import MigrationContext

            current = MigrationContext.configure(connection).get_current_revision()
    except SQLAlchemyError as error:
        kind = UnreachableError if _passing(error) else DatabaseError
        raise kind(f"cannot use the database {_shown(engine)}: {database_problem(error)}") from None
    known = current is None or current == head or _known_revision(current)
    return MigrationStatus(current, head, known)


def require_migrated(engine: Engine) -> MigrationStatus:
    """The database's status if it is at the newest migration; else
    :class:`NotMigratedError` (or :class:`DatabaseError` when unreachable), which says
    to run ``patience db migrate``; :class:`NewerDatabaseError` when a newer patience
    migrated it."""
    status = migration_status(engine)
    if not status.migrated:
        where = _shown(engine)
        if status.newer:
            raise NewerDatabaseError(status.newer_message(where))
        if status.current is None:
            raise NotMigratedError(
                f"the database {where} has no tables yet: run `patience db migrate` first"
            )
        raise NotMigratedError(
            f"the database {where} is at migration {status.current}, not the newest "
            f"({status.head}): run `patience db migrate` first"
        )
    return status


def _shown(engine: Engine) -> str:
    return mask_url(engine.url)


_SECRET_PARAMETER = re.compile(r"password|secret|token", re.IGNORECASE)
"""A URL's query parameters whose values are masked: libpq's ``password`` and
``sslpassword``, and any other that names a secret."""


def mask_url(url: str | URL) -> str:
    """``url`` with its password, if any, written ``***``, in its user part or its query
    (``?password=``, ``?sslpassword=``).

    >>> mask_url("postgresql+psycopg://patience:s3cret@db.example/patience")
    'postgresql+psycopg://patience:***@db.example/patience'
    >>> mask_url("postgresql+psycopg://patience@db/patience?password=s3cret&sslmode=require")
    'postgresql+psycopg://patience@db/patience?password=***&sslmode=require'
    >>> mask_url("sqlite:///patience.sqlite3")
    'sqlite:///patience.sqlite3'
    """
    parsed = make_url(url) if isinstance(url, str) else url
    secret = {key: "***" for key in parsed.query if _SECRET_PARAMETER.search(key)}
    if secret:
        parsed = parsed.update_query_dict(secret)
    return parsed.render_as_string(hide_password=True).replace("=%2A%2A%2A", "=***")


def backup_sqlite(engine: Engine, target: Path) -> int:
    """Copy the SQLite database of ``engine`` to the new file ``target`` with SQLite's
    online backup, while servers keep writing it: the copy is the database as of one
    moment (every committed move up to then). The copy is readable by its owner only.
    Returns its size in bytes."""
    if engine.dialect.name != "sqlite":
        raise DatabaseError("SQLite's backup is for SQLite databases; PostgreSQL's is pg_dump")
    source = engine.url.database
    if not source or source == ":memory:":
        raise DatabaseError("an in-memory database has nothing to back up")
    if target.exists():
        raise DatabaseError(f"{target} exists: a backup is written to a new file")
    os.close(os.open(target, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    try:
        with (
            contextlib.closing(sqlite3.connect(source, timeout=30)) as origin,
            contextlib.closing(sqlite3.connect(target)) as copy,
        ):
            # In one step: a read of one snapshot, which in WAL mode never holds up the
            # servers' writes (a backup in steps would start again after each write).
            origin.backup(copy)
            copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
    except BaseException:
        target.unlink(missing_ok=True)
        raise
    return target.stat().st_size
