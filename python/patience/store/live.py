"""The games a server process holds in memory: a cache of the database, never the record.

:class:`Live` is one game as a process holds it (its session, the token's hash, its deal's
terms); :class:`LiveGames` keeps the recently used ones, least recently used first, and
lets go of those finished or idle (:meth:`LiveGames.sweep`): the database has every event,
so a game that left memory is rebuilt from its log when next asked for
(:meth:`.log.EventLog.read`).
"""

from __future__ import annotations

import asyncio
import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Literal

from patience.games import Game
from patience.session import Session

__all__ = ["Live", "LiveGames", "Mode", "digest"]

Mode = Literal["timed", "practice", "relaxed"]


def digest(secret: str) -> str:
    """The SHA-256 of ``secret`` (a token, an address, a browser's cookie) as the database
    keeps it: the secret itself is never written down.

    >>> digest("abc")[:16]
    'ba7816bf8f01cfea'
    """
    return hashlib.sha256(secret.encode()).hexdigest()


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
    # a practice game dealt by a numbering players know: (numbering, number); seed is None
    numbered: tuple[str, int] | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)
    touched: float = field(default_factory=time.monotonic)
    # The event loop's requests about this game, one at a time (GameStore.play_async).
    turn: asyncio.Lock = field(default_factory=asyncio.Lock)
    # A move of this process is being committed: the copy is newer than the database.
    writing: bool = False
    # A write of this copy failed: it may be ahead of the database, and is rebuilt from it.
    stale: bool = False
    # The last hint's search: the moves played when it was asked and the solver's winning
    # line from there (see :meth:`next_on_hint_line`).
    hint_line: tuple[tuple[str, ...], tuple[str, ...]] | None = None

    def next_on_hint_line(self, played: tuple[str, ...]) -> str | None:
        """The next move of the last hint's winning line when the moves ``played`` so far
        are the moves played when it was asked followed by the line's first moves (the
        game being dealt from a fixed deal, the same moves reach the same position, from
        which the rest of the line still wins); None otherwise.

        >>> live = Live("g", "h", None, "practice", 1, True, 0)  # type: ignore[arg-type]
        >>> live.hint_line = (("draw",), ("t1>f", "t2>t1", "w>f"))
        >>> live.next_on_hint_line(("draw",)), live.next_on_hint_line(("draw", "t1>f"))
        ('t1>f', 't2>t1')
        >>> live.next_on_hint_line(("draw", "t2>t1")) is None  # left the line
        True
        >>> live.next_on_hint_line(("draw", "t1>f", "t2>t1", "w>f")) is None  # its end
        True
        """
        if self.hint_line is None:
            return None
        asked, line = self.hint_line
        if played[: len(asked)] != asked:
            return None
        followed = played[len(asked) :]
        if len(followed) >= len(line) or line[: len(followed)] != followed:
            return None
        return line[len(followed)]

    @property
    def game(self) -> Game:
        """The game of record."""
        return self.session.game


class LiveGames:
    """The games held in memory, by id, least recently used first: at most ``max_live``;
    :meth:`sweep` drops those unused for ``idle_seconds`` (a finished one:
    ``finished_seconds``). Safe to use from several threads."""

    def __init__(
        self, *, max_live: int = 10_000, idle_seconds: float = 600.0, finished_seconds: float = 30.0
    ) -> None:
        self._max_live = max_live
        self._idle_seconds = idle_seconds
        self._finished_seconds = finished_seconds
        self._live: OrderedDict[str, Live] = OrderedDict()
        self._lock = threading.Lock()

    def count(self) -> int:
        """How many games are held."""
        with self._lock:
            return len(self._live)

    def get(self, game_id: str) -> Live | None:
        """The game ``game_id`` if it is in memory (its place in the order unchanged)."""
        with self._lock:
            return self._live.get(game_id)

    def use(self, game_id: str) -> Live | None:
        """The game ``game_id`` if it is in memory, now the most recently used."""
        with self._lock:
            live = self._live.get(game_id)
            if live is not None:
                self._live.move_to_end(game_id)
            return live

    def keep(self, live: Live) -> None:
        """Hold ``live`` (a new game), the most recently used."""
        with self._lock:
            self._live[live.id] = live
        self._evict_over_limit()

    def adopt(self, live: Live) -> Live:
        """Hold ``live`` (rebuilt from the database) unless another thread has put a copy of
        the same game in meanwhile: the copy held."""
        with self._lock:
            kept = self._live.setdefault(live.id, live)
        if kept is live:
            self._evict_over_limit()
        return kept

    def drop(self, game_id: str) -> None:
        """Let go of game ``game_id``'s copy, if held (the database has moved on)."""
        with self._lock:
            self._live.pop(game_id, None)

    def forget(self, live: Live) -> None:
        """Let go of ``live`` itself, if it is the copy held (not a newer one)."""
        with self._lock:
            if self._live.get(live.id) is live:
                del self._live[live.id]

    def reassign(self, game_ids: Iterable[str], user_id: str) -> None:
        """Make the copies held of games ``game_ids`` player ``user_id``'s."""
        with self._lock:
            for game_id in game_ids:
                live = self._live.get(game_id)
                if live is not None:
                    live.user_id = user_id

    def sweep(self, flush: Callable[[Live], None]) -> int:
        """Drop the games finished more than ``finished_seconds`` ago and those unused for
        ``idle_seconds``, first writing with ``flush`` (holding the game's lock) the events
        of each not yet in the database (a timeout the clock reached). A game a request or
        a commit is using is not idle. How many games left memory."""
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
                    flush(live)
            finally:
                live.lock.release()
            if now - live.touched > (self._finished_seconds if over else self._idle_seconds):
                gone.append(live.id)
        with self._lock:
            for game_id in gone:
                self._live.pop(game_id, None)
        return len(gone)

    def _evict_over_limit(self) -> None:
        with self._lock:
            while len(self._live) > self._max_live:
                self._live.popitem(last=False)  # the least recently used
