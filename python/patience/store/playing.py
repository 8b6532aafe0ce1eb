"""A move played and written down before it is answered: :func:`play` in the caller's
thread, :func:`play_async` on the server's event loop with the commit in the writing thread.

Both play the move on the copy in memory, write it as the game's next event, and, when
another server process wrote that place first, read the game again and play the move again
(up to :data:`.log.WRITE_TRIES` times). A request that names the move count of the view it
was made from is answered from the log when the move is already there (a retry after a
lost answer), and refused when it does not fit (:class:`.log.MoveConflictError`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import Future
from functools import partial
from typing import Any

from sqlalchemy.exc import IntegrityError

from patience.errors import PatienceError

from .live import Live, LiveGames
from .log import WRITE_TRIES, Answer, EventLog, MoveConflictError

__all__ = ["play", "play_async"]


def play(log: EventLog, live: Live, move: str, *, move_count: int | None = None) -> Answer:
    """Play ``move`` (``undo`` and ``end`` included) on ``live`` and write it to ``log``
    before returning; a refused move raises and changes nothing.

    ``move_count``, when given, is the number of moves of the view the request was made
    from: a request whose move is already in the log at that place (a retry after a lost
    answer) is answered as the first time and not played again; one made from an older
    view, or a newer one than the game has, raises :class:`.log.MoveConflictError`."""
    with live.lock:
        live.touched = time.monotonic()
        fresh = False  # whether this copy was brought up to date during this request
        for _ in range(WRITE_TRIES):
            if move_count is not None and move_count != live.session.move_count:
                if not fresh:  # another process may have played it: look first
                    log.refresh(live)
                    fresh = True
                    continue
                return log.repeated(live, move, move_count)
            try:
                played = live.session.play(move)
            except PatienceError:
                if not fresh:  # refused by a copy that may be behind: look again
                    log.refresh(live)
                    fresh = True
                    continue
                log.flush(live)  # a clock that ran out on the way is a timeout to log
                raise
            reply = played.to_json()
            try:
                log.write(live, reply=reply)
            except IntegrityError:
                # Another process wrote this game's next event first: this copy of the
                # game is wrong from there on. Rebuild it and play the move again.
                log.replace(live)
                fresh = True
                continue
            return Answer(reply)
        raise MoveConflictError("the game is being played elsewhere at the same time; retry")


async def play_async(
    log: EventLog, cache: LiveGames, live: Live, move: str, *, move_count: int | None = None
) -> Answer:
    """:func:`play` for the server's event loop: the move is played in memory here and
    committed by ``log``'s writing thread, with other requests' moves, while the loop goes
    on; the answer comes once it is committed. Requests about one game are taken one at a
    time; the rare paths that read the database (a copy behind another process's, a
    retried request) run in a worker thread. A copy whose commit failed otherwise leaves
    ``cache``, to be rebuilt from the database when next asked for."""
    writer = log.writer
    if writer is None:
        raise RuntimeError("play_async needs the writing thread: call start_writer()")
    async with live.turn:
        live.touched = time.monotonic()
        fresh = False  # whether this copy was brought up to date during this request
        for _ in range(WRITE_TRIES):
            if move_count is not None and move_count != live.session.move_count:
                if not fresh:  # another process may have played it: look first
                    await asyncio.to_thread(_locked, log.refresh, live)
                    fresh = True
                    continue
                return await asyncio.to_thread(_locked, log.repeated, live, move, move_count)
            with live.lock:
                try:
                    played = live.session.play(move)
                except PatienceError as error:
                    refused: PatienceError | None = error
                else:
                    refused = None
                    reply = played.to_json()
                    rows, end = log.pending(live, reply)
                    live.writing = True
            if refused is not None:
                if not fresh:  # refused by a copy that may be behind: look again
                    await asyncio.to_thread(_locked, log.refresh, live)
                    fresh = True
                    continue
                # a clock that ran out on the way is a timeout to log
                await asyncio.to_thread(_locked, log.flush, live)
                raise refused
            committed = writer.submit(partial(log.store_events, live=live, rows=rows, end=end))
            committed.add_done_callback(partial(_committed, live, len(rows)))
            try:
                await asyncio.shield(asyncio.wrap_future(committed))
            except IntegrityError:
                # Another process wrote this game's next event first: this copy of the
                # game is wrong from there on. Rebuild it and play the move again.
                await asyncio.to_thread(_locked, log.replace, live)
                fresh = True
                continue
            except Exception:
                cache.forget(live)  # rebuilt from the database when next asked for
                raise
            return Answer(reply)
        raise MoveConflictError("the game is being played elsewhere at the same time; retry")


def _committed(live: Live, count: int, committed: Future[None]) -> None:
    """After the writing thread's commit (or failure) of ``count`` events of ``live``."""
    with live.lock:
        live.writing = False
        if not committed.cancelled() and committed.exception() is None:
            live.saved += count
        else:
            live.stale = True


def _locked(action: Callable[..., Any], live: Live, *args: Any) -> Any:
    """``action(live, *args)`` holding ``live.lock``."""
    with live.lock:
        return action(live, *args)
