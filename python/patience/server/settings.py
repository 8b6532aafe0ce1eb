"""Server settings, read from the environment (``PATIENCE_*``) once at start-up."""

from __future__ import annotations

import os
from dataclasses import dataclass

__all__ = ["Settings"]


@dataclass(frozen=True, slots=True)
class Settings:
    """What the server is configured with.

    >>> Settings.from_env({"PATIENCE_DATABASE_URL": "sqlite:///x.db"}).database_url
    'sqlite:///x.db'
    """

    database_url: str = "sqlite:///patience.sqlite3"
    """Where games are kept (``PATIENCE_DATABASE_URL``); SQLite by default, in the current
    directory."""
    host: str = "127.0.0.1"
    """Address to listen on (``PATIENCE_HOST``)."""
    port: int = 8000
    """Port to listen on (``PATIENCE_PORT``)."""
    certify_seconds: float = 2.0
    """Solver budget a deal when a timed game needs a certified winnable deal
    (``PATIENCE_CERTIFY_SECONDS``)."""
    hint_seconds: float = 2.0
    """Solver budget for a practice hint (``PATIENCE_HINT_SECONDS``)."""
    time_limit: float | None = None
    """Seconds on every new game's clock instead of its rules' limit
    (``PATIENCE_TIME_LIMIT``; for short-clock events and tests)."""

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Settings:
        """The settings from ``environ`` (the process environment by default)."""
        env = dict(os.environ if environ is None else environ)
        defaults = cls()
        return cls(
            database_url=env.get("PATIENCE_DATABASE_URL", defaults.database_url),
            host=env.get("PATIENCE_HOST", defaults.host),
            port=int(env.get("PATIENCE_PORT", defaults.port)),
            certify_seconds=float(env.get("PATIENCE_CERTIFY_SECONDS", defaults.certify_seconds)),
            hint_seconds=float(env.get("PATIENCE_HINT_SECONDS", defaults.hint_seconds)),
            time_limit=float(env["PATIENCE_TIME_LIMIT"])
            if env.get("PATIENCE_TIME_LIMIT")
            else None,
        )
