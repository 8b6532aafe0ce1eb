"""Server settings, read from the environment (``PATIENCE_*``) once at start-up and checked
then (``pydantic-settings``): a value that is not what its setting takes stops the command
with one line naming the setting and what it takes (:class:`SettingsError`).

``patience settings`` prints the settings in effect, secrets masked; docs/deploy.md has
them in a table.
"""

from __future__ import annotations

import contextlib
import contextvars
import difflib
import ipaddress
import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BeforeValidator,
    Field,
    PlainSerializer,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from patience.store.db import mask_url

__all__ = ["PREFIX", "Rate", "Settings", "SettingsError", "mask_url"]

PREFIX = "PATIENCE_"
"""Every setting's environment variable is this and the setting's name in capitals."""

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
    >>> str(Rate.parse("30/m,10")), str(Rate.parse("2.5/h"))
    ('30/m,10', '2.5/h,2')
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
            raise ValueError("a rate is COUNT/UNIT[,BURST] with UNIT s, m or h (30/m,10), or 0")
        count, unit, burst = float(match[1]), match[2], match[3]
        if not math.isfinite(count):
            raise ValueError("a rate's COUNT is a finite number")
        rate = cls(count / _PERIODS[unit], int(burst) if burst else max(1, int(count)))
        if rate.per_second <= 0 or rate.burst < 1:
            raise ValueError("a rate is more than 0 a period with a burst of at least 1")
        return rate

    def __str__(self) -> str:
        """The rate as it is written in a setting, in the unit that makes it whole if one
        does."""
        for unit, seconds in _PERIODS.items():
            count = self.per_second * seconds
            if abs(count - round(count)) < 1e-9 and round(count) >= 1:
                return f"{round(count)}/{unit},{self.burst}"
        return f"{self.per_second * 3600:g}/h,{self.burst}"


def _rate(value: object) -> object:
    """A rate setting as written (``30/m,10``, ``0``), or a :class:`Rate` (or None) as is."""
    if isinstance(value, str):
        return Rate.parse(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value == 0:
        return None
    return value


def _rate_text(rate: Rate | None) -> str:
    return "0" if rate is None else str(rate)


RateSetting = Annotated[Rate | None, BeforeValidator(_rate), PlainSerializer(_rate_text)]
"""A rate limit: ``COUNT/UNIT[,BURST]``, or 0 for none."""


def _address_list(value: object) -> object:
    """A list of addresses and networks written with commas (or spaces) between them."""
    if isinstance(value, str):
        return [part for part in re.split(r"[\s,]+", value) if part]
    return value


def _check_networks(values: list[str]) -> list[str]:
    for value in values:
        if value == "*":
            continue
        try:
            ipaddress.ip_network(value, strict=False)
        except ValueError:
            raise ValueError(
                f"{value[:60]!r} is not an IP address or network (10.0.0.0/8); "
                "write them with commas between"
            ) from None
    return values


Networks = Annotated[list[str], BeforeValidator(_address_list)]
"""IP addresses and networks, ``127.0.0.1,10.0.0.0/8``."""


_GIVEN_ONLY: contextvars.ContextVar[bool] = contextvars.ContextVar("given_only", default=False)
"""Set while settings are built from a given environment alone (:meth:`Settings.from_env`
with ``environ``), so that the process's own is not read beside it."""


class SettingsError(ValueError):
    """A setting has a value it does not take; the message is one line naming it."""


_BOOLEAN_WORDS = "true or false (also yes/no, on/off, 1/0)"


class Settings(BaseSettings):
    """What the server is configured with: each field is the environment variable
    ``PATIENCE_`` and its name in capitals. Built with keyword arguments, a field not given
    comes from the environment, else its default.

    >>> Settings.from_env({"PATIENCE_DATABASE_URL": "sqlite:///x.db"}).database_url
    'sqlite:///x.db'
    >>> Settings.from_env({"PATIENCE_RATE_MOVES": "0"}).rate_moves is None
    True
    >>> Settings.from_env({"PATIENCE_PORT": "abc"})
    Traceback (most recent call last):
    ...
    patience.server.settings.SettingsError: PATIENCE_PORT='abc': not a whole number
    """

    model_config = SettingsConfigDict(
        env_prefix=PREFIX,
        frozen=True,
        enable_decoding=False,  # every value is read as written, by the fields' own rules
        use_attribute_docstrings=True,
        validate_default=True,
        extra="forbid",
        allow_inf_nan=False,  # inf or nan in a setting of seconds or days is refused
    )

    # -- where -------------------------------------------------------------------------

    database_url: str = "sqlite:///patience.sqlite3"
    """Where games are kept: an SQLAlchemy URL, ``sqlite:///FILE`` (the default, in the
    current directory) or ``postgresql+psycopg://USER:PASSWORD@HOST/DATABASE`` (also
    written ``postgresql://``). Several server processes need PostgreSQL."""
    host: str = "127.0.0.1"
    """Address to listen on."""
    port: int = Field(default=8000, ge=1, le=65535)
    """Port to listen on."""
    workers: int = Field(default=1, ge=1, le=64)
    """Server processes sharing the port (``patience serve --workers N``); more than one
    needs PostgreSQL. Each has its own solver pool and its own rate-limit counts."""
    worker_check_seconds: int = Field(default=60, ge=5, le=3600)
    """With several server processes: how long one may take to answer its supervisor's
    health check (a process answers once it has loaded its code, seconds on a busy
    machine) before it is taken for hung, stopped and started again. A process that fails
    to start three times in a row stops the server (exit status 75, for systemd to
    restart it)."""
    trusted_proxies: Networks = Field(default_factory=list)
    """Addresses (or networks) of the reverse proxies whose ``X-Forwarded-For`` and
    ``X-Forwarded-Proto`` are believed, written with commas between; empty (the default):
    nobody's. Behind nginx on the same machine: ``127.0.0.1``."""

    # -- players -----------------------------------------------------------------------

    signup: Literal["open", "closed"] = "open"
    """Whether anyone may make an account in the browser (``open``), or only operators, with
    ``patience users create`` (``closed``)."""
    session_days: float = Field(default=14.0, gt=0, le=3650)
    """How long a log-in lasts before the player signs in again."""
    guest_timed: int = Field(default=4, ge=0)
    """Timed games of one game and variant that guests at one address may have running at
    once (0: no limit); a signed-in player has one."""
    time_limit: float | None = Field(default=None, gt=0, le=86_400)
    """Seconds on every new game's clock instead of its rules' limit (for short-clock
    events and tests); empty: the rules'."""
    sign_ups_per_hour: int = Field(default=10, ge=0)
    """Accounts that may be made from one address within an hour (0: no limit), counted in
    the database, so across every server process; past it 429 with ``Retry-After``."""
    password_workers: int = Field(default=2, ge=1, le=64)
    """Password hashes (sign-ups, log-ins, password changes) that run at once: each is
    argon2id with 64 MiB, so hashing holds at most this many times 64 MiB."""
    password_queue: int = Field(default=16, ge=0)
    """Password hashes that may wait for a worker; past that a sign-up or log-in is
    answered 503 with ``Retry-After`` at once, nothing counted."""

    # -- solver ------------------------------------------------------------------------

    certify_seconds: float = Field(default=2.0, gt=0, le=3600)
    """Solver budget a deal when a timed game needs a certified winnable deal and the
    catalog has none."""
    hint_seconds: float = Field(default=2.0, gt=0, le=3600)
    """Solver budget for a practice hint."""
    solver_workers: int = Field(default=1, ge=1, le=64)
    """Processes for solver work: certifying a timed deal, hints, the catalog's refill; the
    other cores stay free for moves."""
    solver_queue: int = Field(default=4, ge=0)
    """Solver requests that may wait for a worker; past that a request is answered 503
    with ``Retry-After`` at once."""
    solver_memory_mb: int = Field(default=512, ge=256)
    """The most memory (MiB) a solver process may hold: a search's table is capped to fit
    (one that fills it stops undecided), and the kernel refuses the process more data."""
    solver_priority: Literal["idle", "low", "normal"] = "idle"
    """When the solver processes run: ``idle``, only on a core nothing else wants (moves
    always first); ``low``, at the lowest ordinary priority (nice 19), for a machine busy
    with other work, where ``idle`` would leave them no time; ``normal``, as the server."""
    catalog_refill: int = Field(default=20, ge=0)
    """Unused certified deals kept in the catalog for each game and variant, refilled in the
    background when the solver pool is idle (0: no refill). With several processes one
    refills at a time."""
    deal_key_file: str | None = None
    """The deal key's file (by default ``~/.config/patience/deal.key``): the secret from
    which ``patience deals generate`` draws catalog seeds (docs/fairness.md). Only that
    command reads it, never the server."""

    # -- memory and time ---------------------------------------------------------------

    max_live_games: int = Field(default=10_000, ge=1)
    """Games kept in memory at most; the others are rebuilt from the database when asked
    for."""
    idle_seconds: float = Field(default=600.0, gt=0, le=7 * 86_400)
    """A game unused this long leaves memory; a finished one after 30 s."""
    heartbeat_seconds: float = Field(default=1.0, gt=0, le=3600)
    """How often the server writes that it is up: after two of these without a heartbeat
    from any server, a starting server credits the time to every running game."""

    # -- requests ----------------------------------------------------------------------

    max_body_bytes: int = Field(default=16 * 1024, ge=1)
    """Largest request body; a larger one is refused with 413 before it is read in full.
    The API's bodies are well under 1 KiB."""
    header_seconds: float = Field(default=10.0, gt=0, le=3600)
    """Seconds a request's line and headers may take to arrive, from the connection's
    opening or the request's first byte; a slower one is answered 408 and its connection
    closed."""
    body_seconds: float = Field(default=10.0, gt=0, le=3600)
    """Seconds a request's whole body may take to arrive; a slower one is answered 408 and
    its connection closed."""
    max_header_bytes: int = Field(default=8 * 1024, ge=256)
    """Largest request line and headers together: larger is refused, 400 by the HTTP
    parser while they are still arriving, else 431, before the application sees the
    request."""
    rate_starts: RateSetting = Rate(30 / 60, 10)
    """New games an address may start: ``COUNT/UNIT[,BURST]`` with UNIT ``s``, ``m`` or
    ``h``, 0 for no limit (``30/m,10``: 30 a minute, 10 at once). Counted by each process."""
    rate_hints: RateSetting = Rate(20 / 60, 5)
    """Hints a player may ask for: a signed-in player across all their games, a guest in
    each game; never shared with others on the same address (counted by each process)."""
    rate_hints_address: RateSetting = Rate(240 / 60, 60)
    """Hints an address may ask for, all its players together: a ceiling against a flood,
    generous enough for a classroom or a café behind one address (counted by each
    process)."""
    rate_moves: RateSetting = Rate(20.0, 40)
    """Moves, undos and ends an address may send in one game (counted by each process)."""
    rate_address: RateSetting = Rate(100.0, 200)
    """Moves, undos, ends and hints an address may send across all its games, so that many
    games, or made-up game ids, do not multiply its rate (counted by each process)."""
    rate_verifications: RateSetting = Rate(30 / 60, 10)
    """Fetches of a closed tournament's verification an address may make: a publication
    is large, made once but sent whole (counted by each process)."""

    # -- operations --------------------------------------------------------------------

    log_level: Literal["debug", "info", "warning", "error"] = "info"
    """The least severe log lines written (to standard error, one JSON object a line)."""
    access_log: bool = True
    """A log line for every request: method, route, status, milliseconds, client."""
    metrics_allow: Networks = Field(default_factory=lambda: ["127.0.0.1", "::1"])
    """Addresses (or networks) that may read ``/metrics`` without the token; empty: none."""
    metrics_token: SecretStr | None = None
    """A secret that lets anyone who sends it (``Authorization: Bearer TOKEN``) read
    ``/metrics``; empty: none, only the addresses of ``PATIENCE_METRICS_ALLOW``."""

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """The values given, then the process environment's, unless built from a given
        environment alone."""
        if _GIVEN_ONLY.get():
            return (init_settings,)
        return (init_settings, env_settings)

    @field_validator("trusted_proxies", "metrics_allow")
    @classmethod
    def _networks(cls, values: list[str]) -> list[str]:
        return _check_networks(values)

    @field_validator("trusted_proxies")
    @classmethod
    def _no_wildcard(cls, values: list[str]) -> list[str]:
        if "*" in values:
            raise ValueError(
                "'*' would let every client say its own address (X-Forwarded-For): name "
                "the proxies' addresses (behind nginx on this machine: 127.0.0.1)"
            )
        return values

    def warnings(self) -> list[str]:
        """What is allowed but probably a mistake, a line each: trusted proxies that
        cover every address (``0.0.0.0/0``, ``::/0``), which let any client that reaches
        the server say its own address."""
        found = []
        for value in self.trusted_proxies:
            if ipaddress.ip_network(value, strict=False).prefixlen == 0:
                found.append(
                    f"{PREFIX}TRUSTED_PROXIES has {value}, every address: any client that "
                    "reaches the server can say its own address (X-Forwarded-For) and so "
                    "escape the limits per address; name the proxies' addresses instead"
                )
        return found

    @field_validator("database_url")
    @classmethod
    def _database(cls, value: str) -> str:
        try:
            url = make_url(value.strip())
        except ArgumentError:
            raise ValueError(
                "not a database URL: sqlite:///FILE or postgresql://USER:PASSWORD@HOST/DATABASE"
            ) from None
        backend = url.get_backend_name()
        if backend in ("postgresql", "postgres"):
            if url.drivername in ("postgresql", "postgres"):
                url = url.set(drivername="postgresql+psycopg")
            elif url.drivername != "postgresql+psycopg":
                raise ValueError("PostgreSQL is reached with psycopg: postgresql+psycopg://...")
            if not url.database:
                raise ValueError("a PostgreSQL URL names its database: .../DATABASE")
        elif backend == "sqlite":
            database = url.database or ""
            if database and database != ":memory:" and not database.startswith("file:"):
                folder = Path(database).expanduser().absolute().parent
                if not folder.is_dir():
                    raise ValueError(f"the folder {str(folder)[:200]} does not exist")
        else:
            raise ValueError(f"a database is SQLite or PostgreSQL, not {backend[:40]}")
        return url.render_as_string(hide_password=False)

    @field_validator("time_limit", "metrics_token", "deal_key_file", mode="before")
    @classmethod
    def _empty_is_none(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("log_level", "signup", "solver_priority", mode="before")
    @classmethod
    def _lower(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @model_validator(mode="after")
    def _several_processes(self) -> Settings:
        if self.workers > 1 and make_url(self.database_url).get_backend_name() == "sqlite":
            raise ValueError(
                "PATIENCE_WORKERS: several server processes need PostgreSQL "
                "(PATIENCE_DATABASE_URL=postgresql://...); SQLite serves one"
            )
        return self

    @property
    def database_kind(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return make_url(self.database_url).get_backend_name()

    # -- reading and showing -------------------------------------------------------------

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **given: Any) -> Settings:
        """The settings: ``given`` first, then ``environ``'s ``PATIENCE_*`` (the process
        environment by default), then the defaults. Raises :class:`SettingsError`, one line,
        for a value a setting does not take or a ``PATIENCE_*`` variable that is no
        setting."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for key, value in env.items():
            if not key.startswith(PREFIX):
                continue
            name = key[len(PREFIX) :].lower()
            if name not in cls.model_fields:
                names = [PREFIX + field.upper() for field in cls.model_fields]
                close = difflib.get_close_matches(key, names, n=1)
                hint = f" (did you mean {close[0]}?)" if close else ""
                raise SettingsError(f"{key} is not a setting{hint}; `patience settings` lists them")
            values[name] = value
        values |= given
        token = _GIVEN_ONLY.set(environ is not None)  # given: the process's is not read
        try:
            return cls(**values)
        except ValidationError as error:
            raise SettingsError(_one_line(error, values)) from None
        finally:
            _GIVEN_ONLY.reset(token)

    def env_values(self) -> dict[str, str]:
        """Every setting as its environment variable would be written, secrets masked."""
        shown: dict[str, str] = {}
        for name, value in self.model_dump(mode="json").items():
            if name == "database_url":
                text = mask_url(self.database_url)
            elif name == "metrics_token":
                text = "" if value is None else "***"
            elif isinstance(value, list):
                text = ",".join(value)
            elif isinstance(value, bool):
                text = "true" if value else "false"
            elif value is None:
                text = ""
            elif isinstance(value, float) and value == int(value):
                text = str(int(value))
            else:
                text = str(value)
            shown[PREFIX + name.upper()] = text
        return shown

    def describe(self, name: str) -> str:
        """The setting ``name``'s description, on one line."""
        field = type(self).model_fields[name]
        return " ".join((field.description or "").split())


_MESSAGES = {
    "int_parsing": "not a whole number",
    "int_from_float": "not a whole number",
    "float_parsing": "not a number",
    "bool_parsing": f"not {_BOOLEAN_WORDS}",
    "finite_number": "not a finite number",
}


def _one_line(error: ValidationError, values: Mapping[str, Any]) -> str:
    """The first problem of ``error`` as ``PATIENCE_NAME='value': what it takes``."""
    problem = error.errors(include_url=False)[0]
    where = problem.get("loc", ())
    name = str(where[0]) if where else ""
    kind = problem.get("type", "")
    context = problem.get("ctx") or {}
    if kind in _MESSAGES:
        reason = _MESSAGES[kind]
    elif kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        bound = next(iter(context.values()), "")
        if isinstance(bound, float) and bound.is_integer():
            bound = int(bound)  # "at most 3650", not 3650.0
        words = {
            "greater_than_equal": "at least",
            "greater_than": "more than",
            "less_than_equal": "at most",
            "less_than": "less than",
        }
        reason = f"{words[kind]} {bound}"
    elif kind == "literal_error":
        reason = f"one of {context.get('expected', '')}"
    else:
        reason = str(problem.get("msg", "")).removeprefix("Value error, ")
    if not name:
        return reason  # a rule between settings, which names them
    key = PREFIX + name.upper()
    if name in values and not isinstance(values[name], (Rate, SecretStr)):
        shown = values[name]
        if name == "database_url" and isinstance(shown, str):
            with contextlib.suppress(ArgumentError):
                shown = mask_url(shown)
        if name == "metrics_token":
            shown = "***"
        text = str(shown)
        if len(text) > 60:
            text = text[:57] + "..."
        return f"{key}={text!r}: {reason}"
    return f"{key}: {reason}"
