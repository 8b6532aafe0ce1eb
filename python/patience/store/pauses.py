"""A practice or relaxed game's clock stopped while its page is hidden, and started again
when it shows: a ``pause`` and a ``resume`` in the game's log, as an outage is credited
(:meth:`patience.session.Session.pause`). A timed game's clock never stops for its player.

While a game is paused, the database's ``paused`` column holds :data:`HELD_SECONDS` more than
the time credited, so that the background's look for games whose time ran out unwatched
(:meth:`.games.GameStore.expire`) passes it over; the resume writes the true figure.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from sqlalchemy import update

from patience.errors import GameOverError, PatienceError

from .db import sessions
from .games import GameStore, Live

__all__ = ["HELD_SECONDS", "MIN_RUN_SECONDS", "pause", "resume"]

HELD_SECONDS = 30 * 86_400.0
"""How long a paused game is kept from the background's look for clocks run out."""

MIN_RUN_SECONDS = 1.0
"""A pause within this long of the clock's last start is not taken: a page flickering
between hidden and shown, or a client pausing in a loop, writes two events a second at
most."""


def pause(store: GameStore, live: Live, *, clock: Callable[[], float] = time.time) -> bool:
    """Stop the clock of ``live`` now; whether it was running. Raises
    :class:`PatienceError` for a timed game and :class:`GameOverError` for one over."""
    return _change(store, live, clock(), stop=True)


def resume(store: GameStore, live: Live, *, clock: Callable[[], float] = time.time) -> bool:
    """Start the clock of ``live`` again now; whether it was paused."""
    return _change(store, live, clock(), stop=False)


def _change(store: GameStore, live: Live, at: float, *, stop: bool) -> bool:
    if live.mode == "timed":
        raise PatienceError("a timed game's clock never stops")
    with live.lock:
        store.refresh(live)
        session = live.session
        if session.is_over():
            raise GameOverError("the game is over")
        length = session.log_length
        last = session.log[-1]
        if stop and last.kind == "resume" and at - last.at < MIN_RUN_SECONDS:
            return False
        if stop:
            session.pause(at)
        else:
            session.resume(at)
        changed = session.log_length > length
        if changed:
            store.flush(live)
            held = HELD_SECONDS if stop else 0.0
            with store.engine.begin() as connection:
                connection.execute(
                    update(sessions)
                    .where(sessions.c.id == live.id)
                    .values(paused=session.paused + held)
                )
        return changed
