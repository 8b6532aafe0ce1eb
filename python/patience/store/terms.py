"""A game's terms beyond its clock: a tournament's (or a daily deal's) seal, which keeps the
deal secret until a moment, and a wall-clock end, which a tournament's close brings forward.

The terms live in the game's row (``sealed_until``, ``ends_at``), so that a close made
through one server process holds in every other: a process asks the database before it
shows a sealed deal, and :meth:`TournamentTerms.close_games` writes each game's end into
its log, where no process can add a move after it.
"""

from __future__ import annotations

import math
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError

from patience.errors import GameOverError, PatienceError

from .db import events, sessions
from .live import Live, LiveGames
from .log import WRITE_TRIES, EventLog, MoveConflictError

__all__ = ["TournamentTerms"]


class TournamentTerms:
    """Seals and early ends of the games of ``log``; a copy ``cache`` holds of a game
    closed is let go (the database has moved on)."""

    def __init__(self, log: EventLog, cache: LiveGames) -> None:
        self._log = log
        self._cache = cache

    def sealed(self, live: Live) -> bool:
        """Whether ``live``'s deal is still secret (a tournament game before the close; the
        close may have come early, through another server process: asked of the
        database)."""
        clock = self._log.clock
        if live.sealed_until is None or clock() >= live.sealed_until:
            return False
        self._log.read_terms(live)
        return clock() < live.sealed_until

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
        with self._log.engine.begin() as connection:
            ended = connection.execute(
                select(sessions.c.ended_at).where(sessions.c.id == game_id)
            ).first()
            if ended is None:
                return at
            latest = connection.execute(
                select(func.max(events.c.at)).where(events.c.session_id == game_id)
            ).scalar()
            # a move logged after ``at`` (between the tournament's close and this game's)
            # stays: the game ends just after it (a move at its game's very end is refused)
            end = (
                at
                if ended.ended_at is not None or latest is None or latest < at
                else math.nextafter(latest, math.inf)
            )
            values: dict[str, Any] = {"sealed_until": end}
            if ended.ended_at is None:
                values["ends_at"] = end
            connection.execute(update(sessions).where(sessions.c.id == game_id).values(**values))
        if ended.ended_at is not None:
            self._cache.drop(game_id)
            # over already: before the close, or at its new end, logged by a process whose
            # move this close's end refused (which then ends the game there itself)
            return max(at, float(ended.ended_at))
        live = self._log.read(game_id)  # with its new end (GameOverError: a later move came in)
        with live.lock:
            self._log.flush(live, strict=True)
        self._cache.drop(game_id)
        return end
