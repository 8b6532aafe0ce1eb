"""The database layer (docs/architecture.md, layer 8): tables, the engine, Alembic migrations,
the catalog's claims and the game store.

The catalog, players and tournaments use it without the web server; the server
(:mod:`patience.server`) is one of its users. SQLite by default, PostgreSQL by URL
(``postgresql+psycopg://...``) for more than one server process: state that must agree
across processes lives in the database, never in one process's memory.
"""

from .db import deals, events, make_engine, metadata, migrate, sessions
from .games import GameNotFoundError, GameStore, Live, Mode, NotYourGameError

__all__ = [
    "GameNotFoundError",
    "GameStore",
    "Live",
    "Mode",
    "NotYourGameError",
    "deals",
    "events",
    "make_engine",
    "metadata",
    "migrate",
    "sessions",
]
