"""The bounded pool that runs solver work for requests: certifying a timed deal when the
catalog has none, practice hints, and the catalog's background refill.

A solver call takes milliseconds to seconds of a core. Run on the event loop, or in an
unbounded pool, a few clients asking for Kansas deals would take every core and slow every
player's moves; so solver work runs in ``workers`` processes of their own, at the lowest
CPU priority (the Python part of a solver call, replaying its certificate, never holds the
event loop's GIL), with at most ``queue`` requests waiting, and a request that finds the
pool full is refused at once (503 with ``Retry-After``) instead of waiting without bound.

>>> import asyncio
>>> pool = SolverPool(workers=1, queue=0)
>>> asyncio.run(pool.run(sum, [1, 2, 3]))
6
>>> pool.close()
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from typing import ParamSpec, TypeVar

from patience.games import Game
from patience.solve import solve

from .metrics import SOLVER_JOBS

__all__ = ["PoolFullError", "SolverPool", "first_winning_move"]

P = ParamSpec("P")
T = TypeVar("T")


def _lower_priority() -> None:
    """Give this solver process the lowest CPU priority, so that on a machine with few
    cores the event loop answering moves runs first whenever both want a core."""
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, 0, 19)


def first_winning_move(position: Game, *, time_limit: float) -> tuple[str | None, str]:
    """A hint: the solver's first move of a win from ``position`` (None when it finds
    none), and the outcome of its search. Plain values, for a solver process."""
    result = solve(position, time_limit=time_limit, wins_only=True)
    if result.outcome == "solved" and result.moves:
        return result.moves[0], result.outcome
    return None, result.outcome


class PoolFullError(RuntimeError):
    """Every worker is busy and the queue is full: try again in ``retry_after`` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__("the server is busy with solver work; try again shortly")
        self.retry_after = retry_after


class SolverPool:
    """``workers`` processes for solver work, with at most ``queue`` calls waiting; what
    they run and return must be picklable."""

    def __init__(self, *, workers: int = 1, queue: int = 4, retry_after: int = 2) -> None:
        self._executor = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context("spawn"),  # no copy of the server's threads
            initializer=_lower_priority,
        )
        self._workers = workers
        self._slots = threading.BoundedSemaphore(workers + queue)
        self._busy = 0
        self._lock = threading.Lock()
        self._retry_after = retry_after

    def submit(self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        """Start ``function`` on the pool; raises :class:`PoolFullError` when it is full."""
        if not self._slots.acquire(blocking=False):
            raise PoolFullError(self._retry_after)
        with self._lock:
            self._busy += 1
        SOLVER_JOBS.inc()
        try:
            future = self._executor.submit(function, *args, **kwargs)
        except BaseException:
            self._release()
            raise
        future.add_done_callback(lambda _: self._release())
        return future

    def try_idle(
        self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs
    ) -> Future[T] | None:
        """Start ``function`` only if no request's work is running or waiting (background
        work such as refilling the catalog yields to players); None when it did not."""
        with self._lock:
            if self._busy:
                return None
        try:
            return self.submit(function, *args, **kwargs)
        except PoolFullError:
            return None

    async def run(self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run ``function`` on the pool and wait for it without blocking the event loop;
        raises :class:`PoolFullError` at once when the pool is full."""
        return await asyncio.wrap_future(self.submit(function, *args, **kwargs))

    def busy(self) -> int:
        """Calls running or waiting now."""
        with self._lock:
            return self._busy

    def _release(self) -> None:
        with self._lock:
            self._busy -= 1
        SOLVER_JOBS.dec()
        self._slots.release()

    def close(self) -> None:
        """Stop taking work; waits for what is running."""
        self._executor.shutdown(wait=True, cancel_futures=True)
