"""Server settings, read from the environment (``PATIENCE_*``) once at start-up."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

__all__ = ["Rate", "Settings"]

_RATE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*/\s*(s|m|h)\s*(?:,\s*(\d+)\s*)?")
_PERIODS = {"s": 1.0, "m": 60.0, "h": 3600.0}


@dataclass(frozen=True, slots=True)
class Rate:
    """A token bucket's rate: ``per_second`` tokens come back a second, up to ``burst``.

    Written ``COUNT/UNIT[,BURST]`` with UNIT ``s``, ``m`` or ``h`` (a second, a minute, an
    hour); the burst is COUNT when not given. ``0`` (or ``off``) is no limit at all.

    >>> Rate.parse("30/m,10")
    Rate(per_second=0.5, burst=10)
    >>> Rate.parse("20/s")
    Rate(per_second=20.0, burst=20)
    >>> Rate.parse("0") is None
    True
    """

    per_second: float
    burst: int

    @classmethod
    def parse(cls, text: str) -> Rate | None:
        """The rate ``text`` says, or None for no limit; ValueError if it says neither."""
        if text.strip().lower() in ("0", "off", "none", ""):
            return None
        match = _RATE.fullmatch(text)
        if match is None:
            raise ValueError(f"a rate is COUNT/UNIT[,BURST] with UNIT s, m or h, or 0: {text!r}")
        count, unit, burst = float(match[1]), match[2], match[3]
        rate = cls(count / _PERIODS[unit], int(burst) if burst else max(1, int(count)))
        if rate.per_second <= 0 or rate.burst < 1:
            raise ValueError(f"a rate is more than 0 a period with a burst of at least 1: {text!r}")
        return rate

    def __str__(self) -> str:
        return f"{self.per_second:g}/s,{self.burst}"


def _rate(env: dict[str, str], name: str, default: Rate | None) -> Rate | None:
    return Rate.parse(env[name]) if name in env else default


@dataclass(frozen=True, slots=True)
class Settings:
    """What the server is configured with.

    >>> Settings.from_env({"PATIENCE_DATABASE_URL": "sqlite:///x.db"}).database_url
    'sqlite:///x.db'
    >>> Settings.from_env({"PATIENCE_RATE_MOVES": "0"}).rate_moves is None
    True
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
    solver_workers: int = 1
    """Processes for solver work: certifying a timed deal, hints, the catalog's refill
    (``PATIENCE_SOLVER_WORKERS``); the other cores stay free for moves."""
    solver_nice: int = 19
    """The solver processes' CPU priority, 0 (as the server) to 19 (the lowest, the
    default: moves are answered first) (``PATIENCE_SOLVER_NICE``). On a machine busy with
    other work a process at 19 gets almost no CPU, so background refills and hints wait;
    tests on shared machines set 0."""
    solver_queue: int = 4
    """Solver requests that may wait for a worker (``PATIENCE_SOLVER_QUEUE``); past that a
    request is answered 503 with ``Retry-After`` at once."""
    catalog_refill: int = 20
    """Unused certified deals kept in the catalog for each game and variant, refilled in the
    background when the solver pool is idle (``PATIENCE_CATALOG_REFILL``; 0: no refill)."""
    max_live_games: int = 10_000
    """Games kept in memory at most (``PATIENCE_MAX_LIVE_GAMES``); the others are rebuilt
    from the database when asked for."""
    idle_seconds: float = 600.0
    """A game unused this long leaves memory (``PATIENCE_IDLE_SECONDS``); a finished one
    after 30 s."""
    guest_timed: int = 4
    """Timed games of one game and variant that guests at one address may have running at
    once (``PATIENCE_GUEST_TIMED``; 0: no limit); a signed-in player has one."""
    session_days: float = 14.0
    """How long a log-in lasts before the player signs in again
    (``PATIENCE_SESSION_DAYS``)."""
    sign_ups_per_hour: int = 10
    """Accounts that may be made from one address within an hour
    (``PATIENCE_SIGN_UPS_PER_HOUR``; 0: no limit), counted in the database, so across every
    server process; past it 429 with ``Retry-After``."""
    password_workers: int = 2
    """Password hashes (sign-ups, log-ins, password changes) that run at once
    (``PATIENCE_PASSWORD_WORKERS``): each is argon2id with 64 MiB, so hashing holds at most
    this many times 64 MiB."""
    password_queue: int = 16
    """Password hashes that may wait for a worker (``PATIENCE_PASSWORD_QUEUE``); past that
    a sign-up or log-in is answered 503 with ``Retry-After`` at once, nothing counted."""
    heartbeat_seconds: float = 1.0
    """How often the server writes that it is up (``PATIENCE_HEARTBEAT_SECONDS``): after
    two of these without a heartbeat from any server, a starting server credits the time
    to every running game."""
    max_body_bytes: int = 16 * 1024
    """Largest request body (``PATIENCE_MAX_BODY_BYTES``); a larger one is refused with 413
    before it is read in full. The API's bodies are well under 1 KiB."""
    header_seconds: float = 10.0
    """Seconds a request's line and headers may take to arrive, from the connection's
    opening or the request's first byte (``PATIENCE_HEADER_SECONDS``); a slower one is
    answered 408 and its connection closed."""
    body_seconds: float = 10.0
    """Seconds a request's whole body may take to arrive (``PATIENCE_BODY_SECONDS``); a
    slower one is answered 408 and its connection closed."""
    max_header_bytes: int = 8 * 1024
    """Largest request line and headers together (``PATIENCE_MAX_HEADER_BYTES``): larger
    is refused, 400 by the HTTP parser while they are still arriving (h11's
    ``max_incomplete_event_size``), else 431, before the application sees the request."""
    rate_starts: Rate | None = Rate(30 / 60, 10)
    """New games an address may start (``PATIENCE_RATE_STARTS``, default ``30/m,10``:
    30 a minute, 10 at once)."""
    rate_hints: Rate | None = Rate(20 / 60, 5)
    """Hints an address may ask for (``PATIENCE_RATE_HINTS``, default ``20/m,5``)."""
    rate_moves: Rate | None = Rate(20.0, 40)
    """Moves, undos and ends an address may send in one game (``PATIENCE_RATE_MOVES``,
    default ``20/s,40``)."""
    rate_verifications: Rate | None = Rate(30 / 60, 10)
    """Tournament verifications an address may fetch (``PATIENCE_RATE_VERIFICATIONS``,
    default ``30/m,10``): a publication is large, and made once, but still sent whole."""
    deal_key_file: str | None = None
    """The deal key's file (``PATIENCE_DEAL_KEY_FILE``; by default
    ``~/.config/patience/deal.key``): the secret from which ``patience deals generate``
    draws catalog seeds (:mod:`patience.dealkey`). Only that command reads it."""
    rate_address: Rate | None = Rate(100.0, 200)
    """Moves, undos, ends and hints an address may send across all its games
    (``PATIENCE_RATE_ADDRESS``, default ``100/s,200``): one address cannot multiply its
    moves by playing many games, or by naming games that do not exist."""

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
            solver_workers=int(env.get("PATIENCE_SOLVER_WORKERS", defaults.solver_workers)),
            solver_nice=int(env.get("PATIENCE_SOLVER_NICE", defaults.solver_nice)),
            solver_queue=int(env.get("PATIENCE_SOLVER_QUEUE", defaults.solver_queue)),
            catalog_refill=int(env.get("PATIENCE_CATALOG_REFILL", defaults.catalog_refill)),
            max_live_games=int(env.get("PATIENCE_MAX_LIVE_GAMES", defaults.max_live_games)),
            idle_seconds=float(env.get("PATIENCE_IDLE_SECONDS", defaults.idle_seconds)),
            session_days=float(env.get("PATIENCE_SESSION_DAYS", defaults.session_days)),
            guest_timed=int(env.get("PATIENCE_GUEST_TIMED", defaults.guest_timed)),
            sign_ups_per_hour=int(
                env.get("PATIENCE_SIGN_UPS_PER_HOUR", defaults.sign_ups_per_hour)
            ),
            password_workers=int(env.get("PATIENCE_PASSWORD_WORKERS", defaults.password_workers)),
            password_queue=int(env.get("PATIENCE_PASSWORD_QUEUE", defaults.password_queue)),
            heartbeat_seconds=float(
                env.get("PATIENCE_HEARTBEAT_SECONDS", defaults.heartbeat_seconds)
            ),
            max_body_bytes=int(env.get("PATIENCE_MAX_BODY_BYTES", defaults.max_body_bytes)),
            header_seconds=float(env.get("PATIENCE_HEADER_SECONDS", defaults.header_seconds)),
            body_seconds=float(env.get("PATIENCE_BODY_SECONDS", defaults.body_seconds)),
            max_header_bytes=int(env.get("PATIENCE_MAX_HEADER_BYTES", defaults.max_header_bytes)),
            rate_starts=_rate(env, "PATIENCE_RATE_STARTS", defaults.rate_starts),
            rate_hints=_rate(env, "PATIENCE_RATE_HINTS", defaults.rate_hints),
            rate_moves=_rate(env, "PATIENCE_RATE_MOVES", defaults.rate_moves),
            rate_address=_rate(env, "PATIENCE_RATE_ADDRESS", defaults.rate_address),
            rate_verifications=_rate(
                env, "PATIENCE_RATE_VERIFICATIONS", defaults.rate_verifications
            ),
            deal_key_file=env.get("PATIENCE_DEAL_KEY_FILE") or None,
        )
