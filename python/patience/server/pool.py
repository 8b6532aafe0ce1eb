"""The bounded pool that runs solver work for requests: certifying a timed deal when the
catalog has none, and practice hints.

A solver call takes milliseconds to seconds of a core. Run on the event loop, or in an
unbounded pool, a few clients asking for Kansas deals would take every core and slow every
player's moves; so solver work runs on ``workers`` threads (the native solver releases the
GIL) with at most ``queue`` requests waiting, and a request that finds the pool full is
refused at once (503 with ``Retry-After``) instead of waiting without bound.

>>> import asyncio
import contextlib
import os
>>> pool = SolverPool(workers=1, queue=0)
>>> asyncio.run(pool.run(sum, [1, 2, 3]))
6
>>> pool.close()
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import ParamSpec, TypeVar

__all__ = ["PoolFullError", "SolverPool"]

P = ParamSpec("P")
T = TypeVar("T")


def _lower_priority() -> None:
    """Give this thread the lowest CPU priority (Linux: a thread's nice value is its own), so
    that on a machine with few cores the event loop answering moves runs before solver
    work whenever both want a core."""
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)


class PoolFullError(RuntimeError):
    """Every worker is busy and the queue is full: try again in ``retry_after`` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__("the server is busy with solver work; try again shortly")
        self.retry_after = retry_after


class SolverPool:
    """``workers`` threads for solver work, with at most ``queue`` calls waiting."""

    def __init__(self, *, workers: int = 1, queue: int = 4, retry_after: int = 2) -> None:
        self._executor = ThreadPoolExecutor(
            max_workers=workers, thread_name_prefix="solver", initializer=_lower_priority
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
        try:
            future = self._executor.submit(function, *args, **kwargs)
        except BaseException:
            self._release()
            raise
        future.add_done_callback(lambda _: self._release())
        return future

    def try_idle(self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> bool:
        """Start ``function`` only if no request's work is running or waiting (background
        work such as refilling the catalog yields to players); whether it started."""
        with self._lock:
            if self._busy:
                return False
        try:
            self.submit(function, *args, **kwargs)
        except PoolFullError:
            return False
        return True

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
        self._slots.release()

    def close(self) -> None:
        """Stop taking work; waits for what is running."""
        self._executor.shutdown(wait=True, cancel_futures=True)
