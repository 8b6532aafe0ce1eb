"""Games as the server keeps them: every event in the database, recent games also in memory.

The database is the record: a move is written before it is answered, so a server that
dies (even by SIGKILL) and starts again rebuilds every game from its log, exactly (the
clock readings are wall-clock times in the log). Memory only caches: a game's next event
takes the next sequence number of its log, and the primary key (game, sequence number)
lets only one writer have it, so several server processes on one database serve the same
games; a process that loses the race reloads the game and plays the move again. Finished
and idle games leave memory (:meth:`GameStore.sweep`) and are rebuilt when asked for.

Time no server answered is not charged to the players: every process writes a heartbeat,
and the first to start after all were down credits the outage to every running game (a
``pause`` and a ``resume`` in its log; :meth:`GameStore.credit_outage`). A game with a
wall-clock end (``ends_at``, a tournament's close) never runs past it: an outage is
credited up to that end only, and the game ends there.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Literal

from sqlalchemy import (
    ColumnElement,
    Connection,
    Engine,
    Float,
    and_,
    bindparam,
    case,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from patience.catalog import catalog_deal
from patience.errors import GameOverError, PatienceError
from patience.games import GAMES, Game, game_class, new_game
from patience.moves import Move
from patience.rating import DIFFICULTIES, is_rated
from patience.session import Clock, Event, RelaxedSession, Session
from patience.solve import solve

from .catalog import RANDOM, Certified, Taken, add, practice_tier, take
from .db import events, heartbeats, outages, sessions
from .writer import Writer

__all__ = [
    "CERTIFIED_AT_START",
    "CERTIFY_TRY_SECONDS",
    "Answer",
    "GameNotFoundError",
    "GameStore",
    "Live",
    "Mode",
    "MoveConflictError",
    "NotYourGameError",
    "Outage",
    "UnfinishedGameError",
    "certify_deal",
    "rate_deal",
    "runs_until",
]

Mode = Literal["timed", "practice", "relaxed"]

CERTIFY_TRIES = 40
"""Seeds tried, at most, to find a certified winnable deal for a timed game."""

CERTIFIED_AT_START = tuple(n for n, cls in GAMES.items() if cls.budgets.certify_at_start)
"""Games whose timed deals are certified winnable as the game starts when the catalog has
none (:attr:`Budgets.certify_at_start <patience.games.Budgets.certify_at_start>`)."""

CERTIFY_TRY_SECONDS = {
    n: s for n, cls in GAMES.items() if (s := cls.budgets.certify_try_seconds) is not None
}
"""Seconds a try, at most, for games whose solver leaves many deals undecided
(:attr:`Budgets.certify_try_seconds <patience.games.Budgets.certify_try_seconds>`)."""

WRITE_TRIES = 5
"""Times a move is tried when other server processes keep writing the same game first."""


class GameNotFoundError(LookupError):
    """No game has this id."""


class NotYourGameError(PermissionError):
    """The token does not hold this game."""


class UnfinishedGameError(PatienceError):
    """A player asked for a timed game while one of the same kind still runs."""

    def __init__(self, message: str, game_id: str | None) -> None:
        super().__init__(message)
        self.game_id = game_id


class MoveConflictError(PatienceError):
    """A request that says which move count it has seen does not fit the game's log: it was
    made from a view the game has moved on from, or it names a move not yet seen."""


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def runs_until() -> ColumnElement[float]:
    """The moment a game's clock runs out, as the database can tell it: when its clock
    (started at ``created_at``, with ``paused`` seconds of outages credited) reaches its
    limit, or its wall-clock end ``ends_at`` when that comes first. A game not yet ended
    runs while this is in the future."""
    by_clock = sessions.c.created_at + sessions.c.paused + sessions.c.time_limit
    return case(
        (and_(sessions.c.ends_at.is_not(None), sessions.c.ends_at < by_clock), sessions.c.ends_at),
        else_=by_clock,
    )


@dataclass
class Live:
    """A game being played, as a server process holds it."""

    id: str
    token_hash: str
    session: Session
    mode: Mode
    seed: int | None
    certified: bool
    saved: int  # events of the session's log known to be in the database
    tier: int | None = None  # the deal's difficulty tier, when it came rated from the catalog
    user_id: str | None = None  # the signed-in player's; None for a guest's game
    sealed_until: float | None = None  # a tournament's game: its deal is secret until then
    lock: threading.Lock = field(default_factory=threading.Lock)
    touched: float = field(default_factory=time.monotonic)
    # The event loop's requests about this game, one at a time (GameStore.play_async).
    turn: asyncio.Lock = field(default_factory=asyncio.Lock)
    # A move of this process is being committed: the copy is newer than the database.
    writing: bool = False
    # A write of this copy failed: it may be ahead of the database, and is rebuilt from it.
    stale: bool = False

    @property
    def game(self) -> Game:
        """The game of record."""
        return self.session.game


@dataclass(frozen=True, slots=True)
class Answer:
    """What a move request did: the move's own answer (:meth:`patience.games.Played.to_json`),
    and whether it was a retry of a move already played, answered as the first time."""

    last: dict[str, Any]
    repeated: bool = False


@dataclass(frozen=True, slots=True)
class Outage:
    """A time no server answered, credited to the games then running."""

    began: float
    ended: float
    games: int

    @property
    def seconds(self) -> float:
        """How long it lasted."""
        return self.ended - self.began


class GameStore:
    """Starts, finds and plays games; the only writer of the games' tables.

    ``max_live`` bounds the games kept in memory, ``idle_seconds`` how long one is kept
    unused (a finished one: ``finished_seconds``)."""

    def __init__(
        self,
        engine: Engine,
        *,
        clock: Clock = time.time,
        certify_seconds: float = 2.0,
        time_limit: float | None = None,
        random_seed: Callable[[], int] = lambda: secrets.randbits(63),
        max_live: int = 10_000,
        idle_seconds: float = 600.0,
        finished_seconds: float = 30.0,
        guest_timed: int = 4,
        on_end: Callable[[Connection, Live], None] | None = None,
    ) -> None:
        self._engine = engine
        self._autocommit = engine.execution_options(isolation_level="AUTOCOMMIT")
        self._clock = clock
        self._certify_seconds = certify_seconds
        self._time_limit = time_limit
        self._random_seed = random_seed
        self._max_live = max_live
        self._idle_seconds = idle_seconds
        self._finished_seconds = finished_seconds
        self._guest_timed = guest_timed
        self._on_end = on_end
        self._live: OrderedDict[str, Live] = OrderedDict()
        self._lock = threading.Lock()
        self._writer: Writer | None = None

    def start_writer(self) -> None:
        """Commit :meth:`play_async`'s moves from a thread of their own (group commits)."""
        if self._writer is None:
            self._writer = Writer(self._engine)

    def _transaction(self, job: Callable[[Connection], Any]) -> Any:
        """Run ``job`` in a transaction: the writing thread's when it runs (one writer in
        this process: on SQLite two would take turns at the lock, the second sleeping a
        millisecond or more), else one of this thread's; its value."""
        if self._writer is not None:
            return self._writer.run(job)
        with self._engine.begin() as connection:
            return job(connection)

    def close(self) -> None:
        """Commit the moves submitted, and stop the writing thread."""
        if self._writer is not None:
            self._writer.close()
            self._writer = None

    def on_game_end(self, hook: Callable[[Connection, Live], None]) -> None:
        """Call ``hook`` with the transaction and the game whenever a game ends, as its end
        is written (the tournaments keep their standings so)."""
        self._on_end = hook

    @property
    def engine(self) -> Engine:
        """The database."""
        return self._engine

    def live_count(self) -> int:
        """Games held in memory now."""
        with self._lock:
            return len(self._live)

    # -- starting -------------------------------------------------------------------

    def check_start(
        self,
        name: str,
        variant: dict[str, object],
        *,
        seed: int | None,
        mode: Mode,
        difficulty: str | None = None,
        user_id: str | None = None,
        address: str | None = None,
    ) -> dict[str, object]:
        """The checked variant of a request for a new game; raises a :class:`PatienceError`
        for an unknown game, a bad variant or seed, a seed asked for a timed game (a timed
        game is dealt by the server only: a player who chose the seed could have solved it
        beforehand), a difficulty the game has no ratings for, or asked with a seed, and
        :class:`UnfinishedGameError` when player ``user_id`` asks for a timed game while one
        of the same game and variant is still running (a timed deal counts once dealt: no
        dealing until an easy one comes), or when guests at ``address`` have
        ``guest_timed`` such games running already."""
        cls = game_class(name)
        checked = cls.check_variant(variant)
        if mode == "timed" and seed is not None:
            raise PatienceError(
                "a timed game is dealt by the server, never from a chosen seed; "
                "play a chosen seed as a practice game"
            )
        if difficulty is not None:
            if difficulty not in DIFFICULTIES:
                raise PatienceError(
                    f"no difficulty {difficulty!r} (difficulties: {', '.join(DIFFICULTIES)})"
                )
            if not is_rated(name, checked):
                raise PatienceError(
                    f"{cls.title}{variant_text(checked)} deals are not rated for difficulty yet"
                )
            if seed is not None:
                raise PatienceError("a deal of a difficulty is chosen by the server, not a seed")
        if seed is not None and not 0 <= seed < 2**63:
            raise PatienceError(f"a deal number is a whole number from 0 to {2**63 - 1:,}")
        if mode == "timed" and user_id is None and address is not None and self._guest_timed:
            count = self.guest_timed(address, name, checked)
            if count >= self._guest_timed:
                raise UnfinishedGameError(
                    f"{count} timed games of {cls.title}{variant_text(checked)} are running "
                    "for guests at your address: finish one, or sign in",
                    None,
                )
        if mode == "timed" and user_id is not None:
            running = self.unfinished_timed(user_id, name, checked)
            if running is not None:
                raise UnfinishedGameError(
                    f"you have a timed game of {cls.title}{variant_text(checked)} running "
                    f"(game {running}): finish or end it before dealing another",
                    running,
                )
        return checked

    def guest_timed(self, address: str, name: str, variant: dict[str, object]) -> int:
        """How many guests' timed games of ``name`` and ``variant`` (checked) from
        ``address`` still run."""
        guests = and_(sessions.c.address == _hash(address), sessions.c.user_id.is_(None))
        with self._engine.connect() as connection:
            count: int = connection.execute(
                select(func.count()).where(self._running_timed(guests, name, variant))
            ).scalar_one()
        return count

    def unfinished_timed(self, user_id: str, name: str, variant: dict[str, object]) -> str | None:
        """The id of player ``user_id``'s timed game of ``name`` and ``variant`` (checked)
        whose clock still runs, if any."""
        with self._engine.connect() as connection:
            found: str | None = connection.execute(
                select(sessions.c.id).where(
                    self._running_timed(sessions.c.user_id == user_id, name, variant)
                )
            ).scalar()
        return found

    def _running_timed(
        self, whose: ColumnElement[bool], name: str, variant: dict[str, object]
    ) -> ColumnElement[bool]:
        """Timed games of ``name`` and ``variant`` (checked) picked by ``whose`` whose clock
        still runs."""
        return and_(
            whose,
            sessions.c.mode == "timed",
            sessions.c.game == name,
            sessions.c.variant == json.dumps(variant),
            sessions.c.ended_at.is_(None),
            runs_until() > self._clock(),
        )

    def claim(
        self,
        name: str,
        variant: dict[str, object],
        game_id: str,
        difficulty: str | None = None,
        *,
        tier: int | None = None,
    ) -> Taken | None:
        """The catalog's next unused deal of ``name`` and ``variant`` (checked), of a tier of
        ``difficulty`` if given (of ``tier`` itself, if given), claimed for the game
        ``game_id``; None when the catalog has none."""
        tiers = None if difficulty is None else DIFFICULTIES[difficulty]
        if tier is not None:
            tiers = (tier, tier)
        taken: Taken | None = self._transaction(
            lambda connection: take(connection, name, variant, game_id, tiers)
        )
        return taken

    def certify(self, name: str, variant: dict[str, object]) -> int:
        """A fresh seed whose deal the solver proved winnable (its certificate replayed), in
        this thread. Raises a :class:`PatienceError` when no seed of :data:`CERTIFY_TRIES`
        was won in time. (The server runs :func:`certify_deal` in its solver process with
        :meth:`certify_request`'s arguments instead.)"""
        return certify_deal(**self.certify_request(name, variant)).seed

    def certify_request(self, name: str, variant: dict[str, object]) -> dict[str, Any]:
        """The arguments of :func:`certify_deal` for a deal of ``name`` and ``variant``."""
        seconds = min(self._certify_seconds, CERTIFY_TRY_SECONDS.get(name, math.inf))
        seeds = [self._random_seed() for _ in range(CERTIFY_TRIES)]
        return {"name": name, "variant": variant, "try_seconds": seconds, "seeds": seeds}

    def practice_tier(
        self, name: str, variant: dict[str, object], seed: int, game_id: str
    ) -> int | None:
        """The tier to show for practice game ``game_id`` of chosen ``seed`` of ``name`` and
        ``variant`` (checked): the catalog's, once the deal is public; an unused catalog deal
        becomes this game's (:func:`.catalog.practice_tier`)."""
        with self._engine.begin() as connection:
            return practice_tier(connection, name, variant, seed, game_id, self._clock())

    def rate_request(self, name: str, variant: dict[str, object]) -> dict[str, Any]:
        """The arguments of :func:`rate_deal` for a deal of ``name`` and ``variant``: one
        seed, so that a background job holds the solver pool for one certifying search and
        one rating at most (seconds for Kansas and Klondike), never for a run of seeds a
        player's timed start would wait behind; a seed not certified leaves the refill to
        try again."""
        return {"name": name, "variant": variant, "seeds": [self._random_seed()]}

    def add_to_catalog(self, name: str, variant: dict[str, object], deal: Certified) -> bool:
        """Add a certified deal to the catalog (the server's background refill); whether it
        was new."""
        at = self._clock()
        added: bool = self._transaction(
            lambda connection: add(connection, name, variant, deal, at=at, origin=RANDOM)
        )
        return added

    def start(
        self,
        name: str,
        variant: dict[str, object],
        *,
        seed: int | None,
        mode: Mode,
        user_id: str | None = None,
        address: str | None = None,
    ) -> tuple[Live, str]:
        """A new game and the token that holds it, all in this thread: a timed game gets the
        catalog's next deal or one certified now (the server does the certifying in its
        bounded pool instead: :meth:`claim`, :meth:`certify`, :meth:`open`)."""
        checked = self.check_start(
            name, variant, seed=seed, mode=mode, user_id=user_id, address=address
        )
        game_id = new_game_id()
        certified = False
        tier = None
        if mode == "timed":
            taken = self.claim(name, checked, game_id)
            if taken is None:
                seed = self.certify(name, checked)
            else:
                seed, tier = taken.seed, taken.tier
            certified = True
        return self.open(
            name,
            checked,
            seed=seed,
            mode=mode,
            certified=certified,
            game_id=game_id,
            tier=tier,
            user_id=user_id,
            address=address,
        )

    def open(
        self,
        name: str,
        variant: dict[str, object],
        *,
        seed: int | None,
        mode: Mode,
        certified: bool,
        game_id: str | None = None,
        tier: int | None = None,
        user_id: str | None = None,
        address: str | None = None,
        time_limit: float | None = None,
        sealed_until: float | None = None,
        ends_at: float | None = None,
        within: Callable[[Connection, Live], None] | None = None,
        guest: str | None = None,
    ) -> tuple[Live, str]:
        """Deal ``seed`` (a random one when None) as a new game, write it down, and return it
        with the token that holds it; ``tier`` is the deal's difficulty tier, if rated;
        ``user_id`` the signed-in player whose game it is (None: a guest's, whose
        ``address`` is kept hashed for the limit on guests' timed games). ``time_limit``
        overrides the game's clock (a tournament's), ``sealed_until`` keeps the deal
        (seed, record, replay) secret until then, even once the game is over, and
        ``ends_at`` is the wall-clock moment past which the game never runs, whatever its
        clock and outages (both a tournament's close). ``within``, when given, is called
        with the transaction that writes the new game, before it commits: what it writes
        is written with the game or not at all (a tournament's attempt claims its place
        so), and what it raises refuses the game. ``guest`` is a guest's browser cookie,
        kept hashed: a sign-up from that browser takes over the game
        (:meth:`claim_guest_games`)."""
        if seed is None:
            seed = self._random_seed()
        game = new_game(name, seed=seed, variant=variant)
        token = secrets.token_urlsafe(24)
        live = Live(
            id=game_id or new_game_id(),
            token_hash=_hash(token),
            session=_session_class(mode)(
                game,
                clock=self._clock,
                time_limit=self._time_limit if time_limit is None else time_limit,
                ends_at=ends_at,
            ),
            mode=mode,
            seed=seed,
            certified=certified,
            saved=0,
            tier=tier,
            user_id=user_id,
            sealed_until=sealed_until,
        )
        row = {
            "id": live.id,
            "token_hash": live.token_hash,
            "game": name,
            "variant": json.dumps(game.variant),
            "deal": " ".join(str(card) for card in game.deal),
            "seed": str(seed),
            "mode": mode,
            "certified": certified,
            "tier": tier,
            "user_id": user_id,
            "address": None if user_id is not None or address is None else _hash(address),
            "guest": None if user_id is not None or guest is None else _hash(guest),
            "sealed_until": sealed_until,
            "ends_at": ends_at,
            "time_limit": live.session.time_limit,
            "created_at": live.session.log[0].at,
        }
        start = live.session.log[0]
        first = {"session_id": live.id, "seq": 0, "kind": start.kind, "at": start.at}

        def write(connection: Connection) -> None:
            connection.execute(insert(sessions).values(**row))
            connection.execute(insert(events).values(**first))
            if within is not None:
                within(connection, live)

        self._transaction(write)
        live.saved = 1
        self._keep(live)
        return live, token

    # -- finding --------------------------------------------------------------------

    def authorize(
        self, game_id: str, token: str | None, *, user_id: str | None = None
    ) -> Live | None:
        """The game ``game_id`` if it is in memory, or None when it must be rebuilt from the
        database (:meth:`load`, slow for a long game: the server runs it off its event loop);
        either way only once ``token`` is checked against it, or, without a token, that it
        is signed-in player ``user_id``'s game (a player's games are theirs on any device).
        Raises :class:`GameNotFoundError` or :class:`NotYourGameError`."""
        with self._lock:
            live = self._live.get(game_id)
            if live is not None:
                self._live.move_to_end(game_id)
        if live is not None:
            token_hash, owner = live.token_hash, live.user_id
        else:
            with self._engine.connect() as connection:
                row = connection.execute(
                    select(sessions.c.token_hash, sessions.c.user_id).where(
                        sessions.c.id == game_id
                    )
                ).first()
            if row is None:
                raise GameNotFoundError(f"no game {game_id!r}")
            token_hash, owner = row.token_hash, row.user_id
        if token is not None:
            if not secrets.compare_digest(_hash(token), token_hash):
                raise NotYourGameError("this token does not hold that game")
        elif user_id is None or owner != user_id:
            raise NotYourGameError("this game is not yours")
        return live

    def claim_guest_games(self, user_id: str, guest: str) -> int:
        """Make every game the guest browser of cookie ``guest`` played player
        ``user_id``'s, finished, running or abandoned alike: a guest who signs up keeps all
        they played on that browser, never a chosen few. How many."""
        mine = and_(sessions.c.guest == _hash(guest), sessions.c.user_id.is_(None))
        with self._engine.begin() as connection:
            game_ids = list(connection.execute(select(sessions.c.id).where(mine)).scalars())
            if game_ids:
                connection.execute(
                    update(sessions)
                    .where(and_(mine, sessions.c.id.in_(game_ids)))
                    .values(user_id=user_id)
                )
        with self._lock:
            for game_id in game_ids:
                live = self._live.get(game_id)
                if live is not None:
                    live.user_id = user_id
        return len(game_ids)

    def same_tier_again(
        self,
        name: str,
        variant: dict[str, object],
        tiers: tuple[int, int],
        *,
        user_id: str | None,
        guest: str | None,
    ) -> int | None:
        """The tier of the last timed deal of ``name`` and ``variant`` in ``tiers`` (a
        difficulty) that player ``user_id`` (or the guest browser ``guest``) did not win,
        if that was their last game of the difficulty: their next deal of it is of that
        tier, so leaving a deal of a hard tier does not buy one of an easier tier."""
        if user_id is not None:
            whose = sessions.c.user_id == user_id
        elif guest is not None:
            whose = and_(sessions.c.guest == _hash(guest), sessions.c.user_id.is_(None))
        else:
            return None
        with self._engine.connect() as connection:
            last = connection.execute(
                select(sessions.c.tier, sessions.c.won)
                .where(
                    and_(
                        whose,
                        sessions.c.mode == "timed",
                        sessions.c.game == name,
                        sessions.c.variant == json.dumps(variant),
                        sessions.c.tier.between(*tiers),
                    )
                )
                .order_by(sessions.c.created_at.desc())
                .limit(1)
            ).first()
        if last is None or last.won:
            return None
        return int(last.tier)

    def record(self, game_id: str) -> dict[str, Any]:
        """The game record (docs/rules.md) of finished game ``game_id`` (the caller has checked
        whose it is); :class:`PatienceError` while it is running or its deal is sealed."""
        with self._lock:
            live = self._live.get(game_id)
        live = live or self._read(game_id)
        with live.lock:
            self.refresh(live)  # another server process may have played it on
            if not live.session.is_over():
                raise PatienceError("the record is shown once the game is over (it holds the deal)")
            self.check_unsealed(live)
            return live.session.record().to_json()

    def sealed(self, live: Live) -> bool:
        """Whether ``live``'s deal is still secret (a tournament game before the close; the
        close may have come early, through another server process: asked of the
        database)."""
        if live.sealed_until is None or self._clock() >= live.sealed_until:
            return False
        self._tournament_terms(live)
        return self._clock() < live.sealed_until

    def _tournament_terms(self, live: Live) -> None:
        """Read again a tournament game's end and seal, which an early close (in any
        server process) brings forward."""
        with self._engine.connect() as connection:
            row = connection.execute(
                select(sessions.c.sealed_until, sessions.c.ends_at).where(sessions.c.id == live.id)
            ).first()
        if row is not None:
            live.sealed_until = row.sealed_until
            live.session.ends_at = row.ends_at

    def check_unsealed(self, live: Live) -> None:
        """Refuse (:class:`PatienceError`) to show a sealed game's deal."""
        if self.sealed(live):
            raise PatienceError(
                "this game's deal is still secret: a tournament's is shown when the "
                "tournament closes, a daily deal's once its day is over"
            )

    def close_games(self, game_ids: list[str], at: float) -> float:
        """End the games ``game_ids`` that still run at ``at`` (a tournament closed early),
        each with what it had scored (no time bonus, reason ``closed``), and unseal every
        deal; the moment the last of them ended.

        The end is written into each game's log, so no server process can add a move after
        it (the log's key lets one writer have each place): a process still holding the
        game in memory finds its next move's place taken, reads the game again, and is
        refused. A move another process logged a moment before the close is kept, and that
        game ends at its move instead (what the returned moment then tells)."""
        last = at
        for game_id in game_ids:
            for _ in range(WRITE_TRIES):
                try:
                    last = max(last, self._close_game(game_id, at))
                    break
                except (IntegrityError, GameOverError):
                    continue  # a move got into the log first: end the game after it
            else:  # pragma: no cover - a writer that keeps winning, loudly
                raise MoveConflictError(f"game {game_id} kept moving while it was closed")
        return last

    def _close_game(self, game_id: str, at: float) -> float:
        with self._engine.begin() as connection:
            ended = connection.execute(
                select(sessions.c.ended_at).where(sessions.c.id == game_id)
            ).first()
            if ended is None:
                return at
            latest = connection.execute(
                select(func.max(events.c.at)).where(events.c.session_id == game_id)
            ).scalar()
            end = at if ended.ended_at is not None else max(at, latest or at)
            values: dict[str, Any] = {"sealed_until": end}
            if ended.ended_at is None:
                values["ends_at"] = end
            connection.execute(update(sessions).where(sessions.c.id == game_id).values(**values))
        if ended.ended_at is not None:
            self._drop(game_id)
            return at
        live = self._read(game_id)  # with its new end (GameOverError: a later move came in)
        with live.lock:
            self.flush(live, strict=True)
        self._drop(game_id)
        return end

    def _drop(self, game_id: str) -> None:
        """Drop the copy of game ``game_id`` held in memory (the database has moved on)."""
        with self._lock:
            self._live.pop(game_id, None)

    def get(self, game_id: str, token: str | None) -> Live:
        """The game ``game_id`` if ``token`` holds it, rebuilt from its log when not in memory:
        raises :class:`GameNotFoundError` or :class:`NotYourGameError`."""
        return self.authorize(game_id, token) or self.load(game_id)

    def load(self, game_id: str) -> Live:
        """The game ``game_id`` rebuilt from the database and kept in memory (another thread
        may have rebuilt it meanwhile: then that one)."""
        live = self._read(game_id)
        with self._lock:
            kept = self._live.setdefault(game_id, live)
        if kept is live:
            self._evict_over_limit()
        return kept

    def _read(self, game_id: str) -> Live:
        with self._engine.connect() as connection:
            row = connection.execute(select(sessions).where(sessions.c.id == game_id)).first()
            if row is None:
                raise GameNotFoundError(f"no game {game_id!r}")
            log = connection.execute(
                select(events.c.kind, events.c.at, events.c.move)
                .where(events.c.session_id == game_id)
                .order_by(events.c.seq)
            ).all()
        game = new_game(row.game, deal=row.deal, variant=json.loads(row.variant))
        session = _session_class(row.mode).rebuild(
            game,
            [Event(item.kind, item.at, item.move) for item in log],
            clock=self._clock,
            time_limit=row.time_limit,
            ends_at=row.ends_at,
        )
        return Live(
            id=row.id,
            token_hash=row.token_hash,
            session=session,
            mode=row.mode,
            seed=None if row.seed is None else int(row.seed),
            certified=row.certified,
            saved=len(log),
            tier=row.tier,
            user_id=row.user_id,
            sealed_until=row.sealed_until,
        )

    def _keep(self, live: Live) -> None:
        with self._lock:
            self._live[live.id] = live
        self._evict_over_limit()

    def _evict_over_limit(self) -> None:
        with self._lock:
            while len(self._live) > self._max_live:
                self._live.popitem(last=False)  # the least recently used

    # -- playing --------------------------------------------------------------------

    def refresh(self, live: Live) -> None:
        """Bring ``live`` up to date: apply the events other server processes wrote since
        this one last saw the game, then write down a timeout the clock has reached.
        Call it holding ``live.lock``."""
        if live.writing:  # this process is committing the game's newest move: it is current
            live.touched = time.monotonic()
            return
        if live.stale:
            self._replace(live)
        with self._engine.connect() as connection:
            newer = connection.execute(
                select(events.c.kind, events.c.at, events.c.move)
                .where(and_(events.c.session_id == live.id, events.c.seq >= live.saved))
                .order_by(events.c.seq)
            ).all()
        if newer:
            if live.session.log_length != live.saved:  # pragma: no cover - a bug, loudly
                raise AssertionError("a game in memory has events not in the database")
            for item in newer:
                live.session.apply(Event(item.kind, item.at, item.move))
            live.saved += len(newer)
        if live.sealed_until is not None and self._clock() < live.sealed_until:
            self._tournament_terms(live)  # a tournament game: its close may have moved
        live.touched = time.monotonic()
        self.flush(live)

    def play(self, live: Live, move: str, *, move_count: int | None = None) -> Answer:
        """Play ``move`` (``undo`` and ``end`` included) and write it down before returning;
        a refused move raises and changes nothing.

        ``move_count``, when given, is the number of moves of the view the request was made
        from: a request whose move is already in the log at that place (a retry after a
        lost answer) is answered as the first time and not played again; one made from an
        older view, or a newer one than the game has, raises :class:`MoveConflictError`."""
        with live.lock:
            live.touched = time.monotonic()
            fresh = False  # whether this copy was brought up to date during this request
            for _ in range(WRITE_TRIES):
                if move_count is not None and move_count != live.session.move_count:
                    if not fresh:  # another process may have played it: look first
                        self.refresh(live)
                        fresh = True
                        continue
                    return self._repeated(live, move, move_count)
                try:
                    played = live.session.play(move)
                except PatienceError:
                    if not fresh:  # refused by a copy that may be behind: look again
                        self.refresh(live)
                        fresh = True
                        continue
                    self.flush(live)  # a clock that ran out on the way is a timeout to log
                    raise
                reply = played.to_json()
                try:
                    self._write(live, reply=reply)
                except IntegrityError:
                    # Another process wrote this game's next event first: this copy of the
                    # game is wrong from there on. Rebuild it and play the move again.
                    self._replace(live)
                    fresh = True
                    continue
                return Answer(reply)
            raise MoveConflictError("the game is being played elsewhere at the same time; retry")

    def _repeated(self, live: Live, move: str, move_count: int) -> Answer:
        seen = live.session.move_count
        if move_count > seen or move_count < 0:
            raise MoveConflictError(
                f"the game has {seen} moves, not {move_count}: read the game again"
            )
        with self._engine.connect() as connection:
            row = connection.execute(
                select(events.c.move, events.c.reply)
                .where(and_(events.c.session_id == live.id, events.c.kind == "move"))
                .order_by(events.c.seq)
                .offset(move_count)
                .limit(1)
            ).first()
        if row is None or row.reply is None or not _same_move(move, row.move):
            raise MoveConflictError(
                f"move {move_count + 1} of this game was already played"
                f"{'' if row is None else f' ({row.move})'}: read the game again"
            )
        return Answer(json.loads(row.reply), repeated=True)

    def _replace(self, live: Live) -> None:
        fresh = self._read(live.id)
        live.session, live.saved, live.stale = fresh.session, fresh.saved, False

    def flush(self, live: Live, *, strict: bool = False) -> None:
        """Write the events of ``live`` not yet in the database (a timeout noticed while
        reading the game, say). Call it holding ``live.lock``. When another process wrote
        the game's next event first, the game is read again, or, ``strict``, the
        :class:`IntegrityError` is raised."""
        if live.writing or live.stale:
            return  # the move being committed, or the rebuild, comes first
        live.session.is_over()  # notices a clock run out, which logs a timeout
        if live.session.log_length > live.saved:
            try:
                self._write(live)
            except IntegrityError:
                if strict:
                    raise
                self._replace(live)  # another process wrote it (or a move) first

    def _write(self, live: Live, *, reply: dict[str, Any] | None = None) -> None:
        """Write the events of ``live`` not yet in the database, ``reply`` with the last move.
        One event that does not end the game (nearly every move) is a single statement in
        autocommit: one round trip to the database instead of three."""
        rows, end = self._pending(live, reply)
        if not rows:
            return
        if len(rows) == 1 and end is None:
            with self._autocommit.connect() as connection:
                connection.execute(insert(events), rows[0])
        else:
            with self._engine.begin() as connection:
                self._store_events(connection, live, rows, end)
        live.saved += len(rows)

    def _pending(
        self, live: Live, reply: dict[str, Any] | None
    ) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
        """The rows of ``live``'s events not yet in the database (``reply`` with the last
        move), and the result to write when the game is over (else None)."""
        log = live.session.log
        rows = [
            {
                "session_id": live.id,
                "seq": seq,
                "kind": e.kind,
                "at": e.at,
                "move": e.move,
                "reply": None,
            }
            for seq, e in enumerate(log[live.saved :], start=live.saved)
        ]
        if rows and reply is not None:
            moves = [row for row in rows if row["kind"] == "move"]
            moves[-1]["reply"] = json.dumps(reply, separators=(",", ":"))
        end = None
        if rows and live.session.is_over():
            outcome = live.session.outcome()
            end = {
                "ended_at": log[-1].at,
                "won": outcome is not None and outcome.won,
                "score": live.session.score(),
                "elapsed": live.session.elapsed(),
            }
        return rows, end

    def _store_events(
        self,
        connection: Connection,
        live: Live,
        rows: list[dict[str, Any]],
        end: dict[str, Any] | None,
    ) -> None:
        """Insert ``rows``, and when the game is over its result (and tell the hook), in
        the caller's transaction."""
        connection.execute(insert(events), rows)
        if end is not None:
            connection.execute(
                update(sessions)
                .where(and_(sessions.c.id == live.id, sessions.c.ended_at.is_(None)))
                .values(**end)
            )
            if self._on_end is not None:
                self._on_end(connection, live)

    # -- playing on the event loop ----------------------------------------------------

    async def play_async(self, live: Live, move: str, *, move_count: int | None = None) -> Answer:
        """:meth:`play` for the server's event loop: the move is played in memory here and
        committed by the writing thread (:meth:`start_writer`), with other requests'
        moves, while the loop goes on; the answer comes once it is committed. Requests about
        one game are taken one at a time; the rare paths that read the database (a copy
        behind another process's, a retried request) run in a worker thread."""
        writer = self._writer
        if writer is None:
            raise RuntimeError("play_async needs the writing thread: call start_writer()")
        async with live.turn:
            live.touched = time.monotonic()
            fresh = False  # whether this copy was brought up to date during this request
            for _ in range(WRITE_TRIES):
                if move_count is not None and move_count != live.session.move_count:
                    if not fresh:  # another process may have played it: look first
                        await asyncio.to_thread(self._locked, self.refresh, live)
                        fresh = True
                        continue
                    return await asyncio.to_thread(
                        self._locked, self._repeated, live, move, move_count
                    )
                with live.lock:
                    try:
                        played = live.session.play(move)
                    except PatienceError as error:
                        refused: PatienceError | None = error
                    else:
                        refused = None
                        reply = played.to_json()
                        rows, end = self._pending(live, reply)
                        live.writing = True
                if refused is not None:
                    if not fresh:  # refused by a copy that may be behind: look again
                        await asyncio.to_thread(self._locked, self.refresh, live)
                        fresh = True
                        continue
                    # a clock that ran out on the way is a timeout to log
                    await asyncio.to_thread(self._locked, self.flush, live)
                    raise refused
                committed = writer.submit(
                    partial(self._store_events, live=live, rows=rows, end=end)
                )
                committed.add_done_callback(partial(self._committed, live, len(rows)))
                try:
                    await asyncio.shield(asyncio.wrap_future(committed))
                except IntegrityError:
                    # Another process wrote this game's next event first: this copy of the
                    # game is wrong from there on. Rebuild it and play the move again.
                    await asyncio.to_thread(self._locked, self._replace, live)
                    fresh = True
                    continue
                except Exception:
                    self._forget(live)  # rebuilt from the database when next asked for
                    raise
                return Answer(reply)
            raise MoveConflictError("the game is being played elsewhere at the same time; retry")

    def _committed(self, live: Live, count: int, committed: Future[None]) -> None:
        """After the writing thread's commit (or failure) of ``count`` events of ``live``."""
        with live.lock:
            live.writing = False
            if not committed.cancelled() and committed.exception() is None:
                live.saved += count
            else:
                live.stale = True

    @staticmethod
    def _locked(action: Callable[..., Any], live: Live, *args: Any) -> Any:
        with live.lock:
            return action(live, *args)

    def _forget(self, live: Live) -> None:
        with self._lock:
            if self._live.get(live.id) is live:
                del self._live[live.id]

    # -- keeping memory and the clock honest ----------------------------------------

    def sweep(self) -> int:
        """Drop from memory the games finished more than ``finished_seconds`` ago and those
        unused for ``idle_seconds`` (their clocks are in the database); end games whose clock
        ran out unwatched. How many games left memory."""
        now = time.monotonic()
        with self._lock:
            kept = list(self._live.values())
        gone = []
        for live in kept:
            if not live.lock.acquire(blocking=False):
                continue  # a request is using it: not idle
            if live.writing:
                live.lock.release()
                continue  # a move of it is being committed: not idle
            try:
                over = live.session.is_over()  # may log a timeout: it is written below
                if live.session.log_length > live.saved:
                    self.flush(live)
            finally:
                live.lock.release()
            if now - live.touched > (self._finished_seconds if over else self._idle_seconds):
                gone.append(live.id)
        with self._lock:
            for game_id in gone:
                self._live.pop(game_id, None)
        self.expire()
        return len(gone)

    def expire(self, *, limit: int = 100) -> int:
        """End, with a timeout in their logs, up to ``limit`` games whose clock has run out
        while nobody was looking (an abandoned timed game is over when its time is up, and
        says so in the database); how many."""
        now = self._clock()
        with self._engine.connect() as connection:
            due = connection.execute(
                select(sessions.c.id)
                .where(and_(sessions.c.ended_at.is_(None), runs_until() <= now))
                .limit(limit)
            ).scalars()
            ids = list(due)
        for game_id in ids:
            with self._lock:
                live = self._live.get(game_id)
            live = live or self._read(game_id)
            with live.lock:
                self.refresh(live)
        return len(ids)

    def beat(self, server: str, *, started: bool = False) -> None:
        """Write down that process ``server`` answers now (its heartbeat)."""
        now = self._clock()

        def write(connection: Connection) -> None:
            if started:
                connection.execute(
                    insert(heartbeats).values(server=server, started_at=now, beat_at=now)
                )
            else:
                connection.execute(
                    update(heartbeats).where(heartbeats.c.server == server).values(beat_at=now)
                )

        self._transaction(write)

    def credit_outage(self, *, stale_after: float) -> Outage | None:
        """At a process's start: when no server has written a heartbeat for ``stale_after``
        seconds, every server was down since the last one, and every game running then gets
        that time back (a ``pause`` at the last heartbeat and a ``resume`` now in its log).
        An outage is credited once, by whichever process claims it first."""
        now = self._clock()
        with self._engine.connect() as connection:
            last = connection.execute(select(func.max(heartbeats.c.beat_at))).scalar()
        if last is None or now - last <= stale_after:
            return None
        try:
            with self._engine.begin() as connection:
                connection.execute(insert(outages).values(began=last, ended=now, games=0))
                running = connection.execute(
                    select(
                        sessions.c.id,
                        sessions.c.ends_at,
                        func.max(events.c.seq),
                        func.max(events.c.at),
                    )
                    .join(events, events.c.session_id == sessions.c.id)
                    .where(and_(sessions.c.ended_at.is_(None), runs_until() > last))
                    .group_by(sessions.c.id, sessions.c.ends_at)
                ).all()
                # A game's clock stops at the last heartbeat, or at its own last event when
                # that came later (a game started after the last heartbeat); the time is
                # credited up to now, or to the game's end (a tournament's close) when that
                # came first, as Session.resume credits it.
                paused = [
                    (game_id, seq, max(last, at), now if ends is None else min(now, ends))
                    for game_id, ends, seq, at in running
                ]
                if paused:
                    connection.execute(
                        insert(events),
                        [
                            {"session_id": game_id, "seq": seq + step, "kind": kind, "at": at}
                            for game_id, seq, since, _ in paused
                            for step, kind, at in ((1, "pause", since), (2, "resume", now))
                        ],
                    )
                    credit = bindparam("credit", type_=Float)
                    connection.execute(
                        update(sessions)
                        .where(sessions.c.id == bindparam("credited_game"))
                        .values(paused=sessions.c.paused + credit),
                        [
                            {"credited_game": game_id, "credit": max(0.0, until - since)}
                            for game_id, _, since, until in paused
                        ],
                    )
                connection.execute(
                    update(outages).where(outages.c.began == last).values(games=len(running))
                )
        except IntegrityError:
            return None  # another process is crediting it
        return Outage(last, now, len(running))


def certify_deal(
    *, name: str, variant: dict[str, object], try_seconds: float, seeds: list[int]
) -> Certified:
    """The first of ``seeds`` whose deal the solver wins within ``try_seconds`` (looking
    for wins only; the certificate replayed by the engine of record). A plain function of
    plain values, so that it can run in another process. Raises a :class:`PatienceError`
    when none is won."""
    for seed in seeds:
        result = solve(
            new_game(name, seed=seed, variant=variant), time_limit=try_seconds, wins_only=True
        )
        if result.outcome == "solved":
            return Certified(seed, result.nodes, result.seconds, len(result.moves))
    raise PatienceError(f"no winnable {name} deal found in {len(seeds)} tries; try again")


def variant_text(variant: dict[str, object]) -> str:
    """A variant as players read it: ``" (wrap)"``, ``" (draw 3)"``, or nothing.

    >>> variant_text({"wrap": True}), variant_text({"wrap": False}), variant_text({})
    (' (wrap)', ' (no wrap)', '')
    """
    parts = []
    for key, value in variant.items():
        if value is True:
            parts.append(key)
        elif value is False:
            parts.append(f"no {key}")
        else:
            parts.append(f"{key} {value}")
    return f" ({', '.join(parts)})" if parts else ""


def rate_deal(*, name: str, variant: dict[str, object], seeds: list[int]) -> Certified:
    """The first of ``seeds`` whose deal the solver certifies within its node budget, rated
    (:func:`patience.catalog.catalog_deal`). A plain function of plain values, so that it
    can run in another process. Raises a :class:`PatienceError` when none is certified."""
    for seed in seeds:
        deal = catalog_deal(name, variant, seed)
        if deal is not None:
            return Certified(deal.seed, deal.nodes, deal.seconds, deal.moves, deal.rating)
    raise PatienceError(f"no winnable {name} deal found in {len(seeds)} tries; try again")


def _session_class(mode: str) -> type[Session]:
    """The session a game of ``mode`` is played in: a relaxed game's undo has no limit."""
    return RelaxedSession if mode == "relaxed" else Session


def new_game_id() -> str:
    """A fresh, unguessable game id."""
    return secrets.token_hex(8)


def _same_move(asked: str, logged: str | None) -> bool:
    """Whether the move ``asked`` for is the one ``logged`` (canonical notation)."""
    if logged is None:
        return False
    try:
        return str(Move.parse(asked)) == logged
    except PatienceError:
        return False
