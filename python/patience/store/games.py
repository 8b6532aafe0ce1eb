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

:class:`GameStore` is the one object its callers use; it is made of parts, each a module
small enough to read at once, which it holds and calls (composition, not inheritance):

- :mod:`.live`: :class:`Live`, a game as a process holds it, and
  :class:`~.live.LiveGames`, the games held in memory (the cache and its sweep);
- :mod:`.log`: :class:`~.log.EventLog`, the record: events written, games rebuilt and
  brought up to date from it, the writing thread;
- :mod:`.playing`: a move played and written, in a thread or on the event loop;
- :mod:`.dealing`: :class:`~.dealing.Dealer`, whether a game may start, and a new game
  written down;
- :mod:`.claims`: :class:`~.claims.DealClaims`, the catalog's deals claimed and fresh
  deals certified;
- :mod:`.terms`: :class:`~.terms.TournamentTerms`, sealed deals and a tournament's early
  close;
- :mod:`.timekeeping`: :class:`~.timekeeping.Timekeeper`, heartbeats, outages credited
  and clocks run out unwatched.

The parts share only the log (the database, the clock, the writing thread) and the cache,
handed to them here; none knows the facade. Mixins would have saved the delegating methods
below, but would have put every part's state in one namespace again, the split in name
only. Each delegating method says in one line what it does; the full contract is on the
part's method it names.
"""

from __future__ import annotations

import contextlib
import secrets
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, Engine, and_, select, update

from patience.errors import PatienceError
from patience.session import Clock

from . import playing
from .catalog import Certified, Taken
from .claims import (
    CERTIFIED_AT_START,
    CERTIFY_TRIES,
    CERTIFY_TRY_SECONDS,
    DealClaims,
    certify_deal,
    rate_deal,
)
from .db import sessions
from .dealing import Dealer, UnfinishedGameError, new_game_id, variant_text
from .live import Live, LiveGames, Mode, digest
from .log import WRITE_TRIES, Answer, EventLog, GameNotFoundError, MoveConflictError
from .terms import TournamentTerms
from .timekeeping import Outage, Timekeeper, runs_until

__all__ = [
    "CERTIFIED_AT_START",
    "CERTIFY_TRIES",
    "CERTIFY_TRY_SECONDS",
    "WRITE_TRIES",
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
    "new_game_id",
    "rate_deal",
    "runs_until",
    "variant_text",
]


class NotYourGameError(PermissionError):
    """The token does not hold this game."""


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
        self._log = EventLog(engine, clock=clock, on_end=on_end)
        self._cache = LiveGames(
            max_live=max_live, idle_seconds=idle_seconds, finished_seconds=finished_seconds
        )
        self._claims = DealClaims(
            self._log, random_seed=random_seed, certify_seconds=certify_seconds
        )
        self._dealer = Dealer(
            self._log,
            self._cache,
            self._claims,
            random_seed=random_seed,
            time_limit=time_limit,
            guest_timed=guest_timed,
        )
        self._terms = TournamentTerms(self._log, self._cache)
        self._timekeeper = Timekeeper(self._log, self._cache)

    # -- the store itself -----------------------------------------------------------

    @property
    def engine(self) -> Engine:
        """The database."""
        return self._log.engine

    def start_writer(self) -> None:
        """Commit :meth:`play_async`'s moves from a thread of their own (group commits)."""
        self._log.start_writer()

    def close(self) -> None:
        """Commit the moves submitted, and stop the writing thread."""
        self._log.close()

    def on_game_end(self, hook: Callable[[Connection, Live], None]) -> None:
        """Call ``hook`` with the transaction and the game whenever a game ends, as its end
        is written (the tournaments keep their standings so)."""
        self._log.on_end = hook

    def live_count(self) -> int:
        """Games held in memory now."""
        return self._cache.count()

    # -- starting (.dealing, .claims) -----------------------------------------------

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
        numbered: tuple[str, object] | None = None,
    ) -> dict[str, object]:
        """The checked variant of a request for a new game, or a refusal
        (:meth:`.dealing.Dealer.check_start`)."""
        return self._dealer.check_start(
            name,
            variant,
            seed=seed,
            mode=mode,
            difficulty=difficulty,
            user_id=user_id,
            address=address,
            numbered=numbered,
        )

    def guest_timed(self, address: str, name: str, variant: dict[str, object]) -> int:
        """How many guests' timed games of a kind from ``address`` still run
        (:meth:`.dealing.Dealer.guest_timed`)."""
        return self._dealer.guest_timed(address, name, variant)

    def unfinished_timed(self, user_id: str, name: str, variant: dict[str, object]) -> str | None:
        """The id of a player's timed game of a kind that still runs, if any
        (:meth:`.dealing.Dealer.unfinished_timed`)."""
        return self._dealer.unfinished_timed(user_id, name, variant)

    def claim(
        self,
        name: str,
        variant: dict[str, object],
        game_id: str,
        difficulty: str | None = None,
        *,
        tier: int | None = None,
    ) -> Taken | None:
        """The catalog's next unused deal, claimed for game ``game_id``; None when there is
        none (:meth:`.claims.DealClaims.claim`)."""
        return self._claims.claim(name, variant, game_id, difficulty, tier=tier)

    def certify(self, name: str, variant: dict[str, object]) -> int:
        """A fresh seed whose deal the solver proved winnable, in this thread
        (:meth:`.claims.DealClaims.certify`)."""
        return self._claims.certify(name, variant)

    def certify_request(self, name: str, variant: dict[str, object]) -> dict[str, Any]:
        """The arguments of :func:`certify_deal` for a deal of ``name`` and ``variant``
        (:meth:`.claims.DealClaims.certify_request`)."""
        return self._claims.certify_request(name, variant)

    def practice_tier(
        self, name: str, variant: dict[str, object], seed: int, game_id: str
    ) -> int | None:
        """The tier to show for a practice game of a chosen seed
        (:meth:`.claims.DealClaims.practice_tier`)."""
        return self._claims.practice_tier(name, variant, seed, game_id)

    def rate_request(self, name: str, variant: dict[str, object]) -> dict[str, Any]:
        """The arguments of :func:`rate_deal` for a deal of ``name`` and ``variant``
        (:meth:`.claims.DealClaims.rate_request`)."""
        return self._claims.rate_request(name, variant)

    def add_to_catalog(self, name: str, variant: dict[str, object], deal: Certified) -> bool:
        """Add a certified deal to the catalog; whether it was new
        (:meth:`.claims.DealClaims.add_to_catalog`)."""
        return self._claims.add_to_catalog(name, variant, deal)

    def same_tier_again(
        self,
        name: str,
        variant: dict[str, object],
        tiers: tuple[int, int],
        *,
        user_id: str | None,
        guest: str | None,
    ) -> int | None:
        """The tier a player's next deal of a difficulty must be, when they left their last
        one unwon (:meth:`.claims.DealClaims.same_tier_again`)."""
        return self._claims.same_tier_again(name, variant, tiers, user_id=user_id, guest=guest)

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
        """A new game and the token that holds it, all in this thread
        (:meth:`.dealing.Dealer.start`)."""
        return self._dealer.start(
            name, variant, seed=seed, mode=mode, user_id=user_id, address=address
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
        numbered: tuple[str, int] | None = None,
        one_timed: bool = False,
    ) -> tuple[Live, str]:
        """Deal ``seed`` (or the ``numbered`` deal) as a new game, write it down, and return
        it with the token that holds it (:meth:`.dealing.Dealer.open`)."""
        return self._dealer.open(
            name,
            variant,
            seed=seed,
            mode=mode,
            certified=certified,
            game_id=game_id,
            tier=tier,
            user_id=user_id,
            address=address,
            time_limit=time_limit,
            sealed_until=sealed_until,
            ends_at=ends_at,
            within=within,
            guest=guest,
            numbered=numbered,
            one_timed=one_timed,
        )

    # -- finding --------------------------------------------------------------------

    def authorize(
        self, game_id: str, token: str | None, *, user_id: str | None = None
    ) -> Live | None:
        """The game ``game_id`` if it is in memory, or None when it must be rebuilt from the
        database (:meth:`load`, slow for a long game: the server runs it off its event loop);
        either way only once ``token`` is checked against it, or, without a token, that it
        is signed-in player ``user_id``'s game (a player's games are theirs on any device).
        Raises :class:`GameNotFoundError` or :class:`NotYourGameError`."""
        live = self._cache.use(game_id)
        if live is not None:
            token_hash, owner = live.token_hash, live.user_id
        else:
            with self.engine.connect() as connection:
                row = connection.execute(
                    select(sessions.c.token_hash, sessions.c.user_id).where(
                        sessions.c.id == game_id
                    )
                ).first()
            if row is None:
                raise GameNotFoundError(f"no game {game_id!r}")
            token_hash, owner = row.token_hash, row.user_id
        if token is not None:
            if not secrets.compare_digest(digest(token), token_hash):
                raise NotYourGameError("this token does not hold that game")
        elif user_id is None or owner != user_id:
            raise NotYourGameError("this game is not yours")
        return live

    def claim_guest_games(self, user_id: str, guest: str) -> int:
        """Make every game the guest browser of cookie ``guest`` played player
        ``user_id``'s, finished, running or abandoned alike: a guest who signs up keeps all
        they played on that browser, never a chosen few. How many.

        A player has one timed game of a game and variant running at most, and a guest may
        have had several (``guest_timed``): of those the newest goes on, and the others are
        ended as their player ends a game (what they scored counts)."""
        mine = and_(sessions.c.guest == digest(guest), sessions.c.user_id.is_(None))
        with self.engine.begin() as connection:
            game_ids = list(connection.execute(select(sessions.c.id).where(mine)).scalars())
            if game_ids:
                connection.execute(
                    update(sessions)
                    .where(and_(mine, sessions.c.id.in_(game_ids)))
                    .values(user_id=user_id)
                )
            timed = connection.execute(
                select(sessions.c.id, sessions.c.game, sessions.c.variant)
                .where(self._dealer.running_timed(sessions.c.id.in_(game_ids)))
                .order_by(sessions.c.created_at.desc())
            ).all()
        self._cache.reassign(game_ids, user_id)
        kinds: set[tuple[str, str]] = set()
        for game_id, name, variant in timed:
            if (name, variant) in kinds:
                live = self.load(game_id)
                # over meanwhile (its clock ran out, or it was ended elsewhere): left so
                with contextlib.suppress(PatienceError):
                    self.play(live, "end")
            kinds.add((name, variant))
        return len(game_ids)

    def get(self, game_id: str, token: str | None) -> Live:
        """The game ``game_id`` if ``token`` holds it, rebuilt from its log when not in memory:
        raises :class:`GameNotFoundError` or :class:`NotYourGameError`."""
        return self.authorize(game_id, token) or self.load(game_id)

    def load(self, game_id: str) -> Live:
        """The game ``game_id`` rebuilt from the database and kept in memory (another thread
        may have rebuilt it meanwhile: then that one)."""
        return self._cache.adopt(self._log.read(game_id))

    def record(self, game_id: str) -> dict[str, Any]:
        """The game record (docs/rules.md) of finished game ``game_id`` (the caller has checked
        whose it is); :class:`PatienceError` while it is running or its deal is sealed."""
        live = self._cache.get(game_id) or self._log.read(game_id)
        with live.lock:
            self.refresh(live)  # another server process may have played it on
            if not live.session.is_over():
                raise PatienceError("the record is shown once the game is over (it holds the deal)")
            self.check_unsealed(live)
            return live.session.record().to_json()

    # -- sealed deals and early ends (.terms) -----------------------------------------

    def sealed(self, live: Live) -> bool:
        """Whether ``live``'s deal is still secret, asked of the database
        (:meth:`.terms.TournamentTerms.sealed`)."""
        return self._terms.sealed(live)

    def check_unsealed(self, live: Live) -> None:
        """Refuse (:class:`PatienceError`) to show a sealed game's deal."""
        self._terms.check_unsealed(live)

    def close_games(self, game_ids: list[str], at: float) -> float:
        """End the games ``game_ids`` that still run at ``at`` (a tournament closed early) and
        unseal every deal; the moment the last of them ended
        (:meth:`.terms.TournamentTerms.close_games`)."""
        return self._terms.close_games(game_ids, at)

    # -- playing (.log, .playing) ---------------------------------------------------

    def refresh(self, live: Live) -> None:
        """Bring ``live`` up to date with the database, and write down a timeout the clock
        has reached; call it holding ``live.lock`` (:meth:`.log.EventLog.refresh`)."""
        self._log.refresh(live)

    def flush(self, live: Live, *, strict: bool = False) -> None:
        """Write the events of ``live`` not yet in the database; call it holding
        ``live.lock`` (:meth:`.log.EventLog.flush`)."""
        self._log.flush(live, strict=strict)

    def play(self, live: Live, move: str, *, move_count: int | None = None) -> Answer:
        """Play ``move`` and write it down before returning; ``move_count`` makes a retried
        request safe (:func:`.playing.play`)."""
        return playing.play(self._log, live, move, move_count=move_count)

    async def play_async(self, live: Live, move: str, *, move_count: int | None = None) -> Answer:
        """:meth:`play` for the server's event loop, committed by the writing thread
        (:meth:`start_writer`; :func:`.playing.play_async`)."""
        return await playing.play_async(self._log, self._cache, live, move, move_count=move_count)

    # -- keeping memory and the clock honest (.live, .timekeeping) --------------------

    def sweep(self) -> int:
        """Drop from memory the games finished more than ``finished_seconds`` ago and those
        unused for ``idle_seconds`` (their clocks are in the database); end games whose clock
        ran out unwatched. How many games left memory."""
        gone = self._cache.sweep(self._log.flush)
        self.expire()
        return gone

    def expire(self, *, limit: int = 100) -> int:
        """End up to ``limit`` games whose clock has run out while nobody was looking; how
        many (:meth:`.timekeeping.Timekeeper.expire`)."""
        return self._timekeeper.expire(limit=limit)

    def beat(self, server: str, *, started: bool = False) -> None:
        """Write down that process ``server`` answers now (its heartbeat)."""
        self._timekeeper.beat(server, started=started)

    def credit_outage(self, *, stale_after: float) -> Outage | None:
        """At a process's start, credit the time every server was down to the games then
        running, once (:meth:`.timekeeping.Timekeeper.credit_outage`)."""
        return self._timekeeper.credit_outage(stale_after=stale_after)
