"""Games as the server keeps them: live sessions in memory, every event in the database.

A move is written to the database before it is answered, so a server that dies (even by
SIGKILL) and starts again rebuilds every game from its log, exactly: the clock readings are
wall-clock times in the log, so the clock of a rebuilt game is where it would have been.
"""

from __future__ import annotations

import hashlib
import json
import math
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import Engine, insert, select

from patience.errors import PatienceError
from patience.games import Game, Played, game_class, new_game
from patience.session import Clock, Event, Session
from patience.solve import solve

from .catalog import take
from .db import events, sessions

__all__ = [
    "CERTIFIED_AT_START",
    "CERTIFY_TRY_SECONDS",
    "GameNotFoundError",
    "GameStore",
    "Live",
    "Mode",
    "NotYourGameError",
]

Mode = Literal["timed", "practice"]

CERTIFY_TRIES = 40
"""Seeds tried, at most, to find a certified winnable deal for a timed game."""

CERTIFIED_AT_START = ("klondike", "golf", "kansas", "expert")
"""Games whose timed deals are certified winnable as the game starts when the catalog has
none. Klondike's, Golf's and Solitaire Expert's solvers win most winnable deals in
milliseconds (Solitaire Expert: median 2.5 ms, 85% of random deals won within a second);
Kansas's, looking for wins only, wins about one random deal in four within
:data:`CERTIFY_TRY_SECONDS` (docs/server.md)."""

CERTIFY_TRY_SECONDS = {"kansas": 0.3}
"""Seconds a try, at most, for games whose solver leaves many deals undecided: a short try
and the next seed find a winnable deal sooner than a long search of a hard one."""


class GameNotFoundError(LookupError):
    """No game has this id."""


class NotYourGameError(PermissionError):
    """The token does not hold this game."""


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Live:
    """A game being played, as the server holds it."""

    id: str
    token_hash: str
    session: Session
    mode: Mode
    seed: int | None
    certified: bool
    saved: int  # events of the session's log already in the database
    lock: threading.Lock

    @property
    def game(self) -> Game:
        """The game of record."""
        return self.session.game


class GameStore:
    """Starts, finds and plays games; the only writer of the database."""

    def __init__(
        self,
        engine: Engine,
        *,
        clock: Clock = time.time,
        certify_seconds: float = 2.0,
        time_limit: float | None = None,
        random_seed: Callable[[], int] = lambda: secrets.randbits(63),
    ) -> None:
        self._engine = engine
        self._clock = clock
        self._certify_seconds = certify_seconds
        self._time_limit = time_limit
        self._random_seed = random_seed
        self._live: dict[str, Live] = {}
        self._lock = threading.Lock()

    # -- starting -------------------------------------------------------------------

    def start(
        self, name: str, variant: dict[str, object], *, seed: int | None, mode: Mode
    ) -> tuple[Live, str]:
        """A new game and the token that holds it. A timed game without a seed gets a deal
        the solver proved winnable: the catalog's next one (:mod:`.catalog`), or, for the
        games in :data:`CERTIFIED_AT_START` (all that have a solver), one certified now.
        Raises a :class:`PatienceError` for an unknown game, a bad variant or seed."""
        cls = game_class(name)
        checked = cls.check_variant(variant)
        if seed is not None and not 0 <= seed < 2**63:
            raise PatienceError(f"a seed is a whole number from 0 to 2**63 - 1, not {seed}")
        game_id = secrets.token_hex(8)
        certified = False
        if seed is None and mode == "timed":
            with self._engine.begin() as connection:
                seed = take(connection, name, checked, game_id)
            certified = seed is not None
            if seed is None and name in CERTIFIED_AT_START:
                seed = self._certified_seed(name, checked)
                certified = True
        if seed is None:
            seed = self._random_seed()
        game = new_game(name, seed=seed, variant=checked)
        token = secrets.token_urlsafe(24)
        live = Live(
            id=game_id,
            token_hash=_hash(token),
            session=Session(game, clock=self._clock, time_limit=self._time_limit),
            mode=mode,
            seed=seed,
            certified=certified,
            saved=0,
            lock=threading.Lock(),
        )
        with self._engine.begin() as connection:
            connection.execute(
                insert(sessions).values(
                    id=live.id,
                    token_hash=live.token_hash,
                    game=name,
                    variant=json.dumps(game.variant),
                    deal=" ".join(str(card) for card in game.deal),
                    seed=str(seed),
                    mode=mode,
                    certified=certified,
                    time_limit=live.session.time_limit,
                    created_at=self._clock(),
                )
            )
            self._save(connection, live)
        with self._lock:
            self._live[live.id] = live
        return live, token

    def _certified_seed(self, name: str, variant: dict[str, object]) -> int:
        seconds = min(self._certify_seconds, CERTIFY_TRY_SECONDS.get(name, math.inf))
        for _ in range(CERTIFY_TRIES):
            seed = self._random_seed()
            game = new_game(name, seed=seed, variant=variant)
            if solve(game, time_limit=seconds, wins_only=True).outcome == "solved":
                return seed
        raise PatienceError(f"no winnable {name} deal found in {CERTIFY_TRIES} tries; try again")

    # -- finding --------------------------------------------------------------------

    def get(self, game_id: str, token: str | None) -> Live:
        """The game ``game_id`` if ``token`` holds it: raises :class:`GameNotFoundError` or
        :class:`NotYourGameError`. A game not in memory (the server restarted) is rebuilt from its
        log."""
        with self._lock:
            live = self._live.get(game_id)
        if live is None:
            live = self._load(game_id)
        if token is None or not secrets.compare_digest(_hash(token), live.token_hash):
            raise NotYourGameError("this token does not hold that game")
        return live

    def _load(self, game_id: str) -> Live:
        with self._engine.connect() as connection:
            row = connection.execute(select(sessions).where(sessions.c.id == game_id)).first()
            if row is None:
                raise GameNotFoundError(f"no game {game_id!r}")
            log = connection.execute(
                select(events).where(events.c.session_id == game_id).order_by(events.c.seq)
            ).all()
        game = new_game(row.game, deal=row.deal, variant=json.loads(row.variant))
        session = Session.rebuild(
            game,
            [Event(item.kind, item.at, item.move) for item in log],
            clock=self._clock,
            time_limit=row.time_limit,
        )
        live = Live(
            id=row.id,
            token_hash=row.token_hash,
            session=session,
            mode=row.mode,
            seed=None if row.seed is None else int(row.seed),
            certified=row.certified,
            saved=len(log),
            lock=threading.Lock(),
        )
        with self._lock:
            return self._live.setdefault(game_id, live)

    # -- playing --------------------------------------------------------------------

    def play(self, live: Live, move: str) -> Played:
        """Play ``move`` (``undo`` and ``end`` included) and write it down before returning;
        a refused move raises and changes nothing."""
        with live.lock:
            try:
                played = live.session.play(move)
            finally:
                self.flush(live)  # a timeout found on the way is an event too
            return played

    def flush(self, live: Live) -> None:
        """Write the events of ``live`` not yet in the database (a timeout noticed while
        reading the game, say)."""
        if len(live.session.log) > live.saved:
            with self._engine.begin() as connection:
                self._save(connection, live)

    def _save(self, connection: Any, live: Live) -> None:
        log = live.session.log
        rows = [
            {"session_id": live.id, "seq": seq, "kind": e.kind, "at": e.at, "move": e.move}
            for seq, e in enumerate(log[live.saved :], start=live.saved)
        ]
        if rows:
            connection.execute(insert(events), rows)
        live.saved = len(log)
