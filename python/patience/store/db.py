"""The database: tables, the engine, and migrations (Alembic) run on start-up.

Every table change is a migration in ``migrations/versions``; :func:`migrate` brings any
database (a new SQLite file included) to the newest one.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
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
    event,
)

__all__ = ["deals", "events", "make_engine", "metadata", "migrate", "sessions"]

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
)
"""One row a game: everything needed to deal it again."""

events = Table(
    "events",
    metadata,
    Column("session_id", String(32), ForeignKey("sessions.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),  # start, move, timeout
    Column("at", Float, nullable=False),  # wall-clock seconds
    Column("move", String(32), nullable=True),
)
"""A session's log, one row per event, written before the move is answered."""

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
    UniqueConstraint("game", "variant", "seed"),
    Index("deals_unused", "game", "variant", "session_id"),
)
"""The catalog: seeds whose deals the solver proved winnable (each certificate replayed),
each dealt to one timed game at most."""

MIGRATIONS = Path(__file__).with_name("migrations")


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL journaling and foreign keys."""
    engine = create_engine(url)
    if engine.dialect.name == "sqlite":

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(connection, _record):  # type: ignore[no-untyped-def]
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

    return engine


def migrate(engine: Engine) -> None:
    """Bring the database to the newest migration (creating it when new)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
