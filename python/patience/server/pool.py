"""The bounded pool that runs solver work for requests: certifying a timed deal when the
catalog has none, practice hints, and the catalog's background refill.

A solver call takes milliseconds to seconds of a core. Run on the event loop, or in an
unbounded pool, a few clients asking for Kansas deals would take every core and slow every
player's moves; so solver work runs in ``workers`` processes of their own (the Python part
of a solver call, replaying its certificate, never holds the event loop's GIL), with at
most ``queue`` requests waiting, and a request that finds the pool full is refused at once
(503 with ``Retry-After``) instead of waiting without bound.

The solver processes run at ``priority`` (``PATIENCE_SOLVER_PRIORITY``): ``idle``, the
default, only on a core nothing else wants (Linux's ``SCHED_IDLE``: a move's request that
wakes the server takes the core back at once, where a process at the lowest ordinary
priority may keep it for the rest of its time slice); ``low``, the lowest ordinary
priority (nice 19), for a machine busy with other work, where ``idle`` would leave the
solver no time at all; ``normal``, the server's own.

Memory is bounded too (``memory_mb``, ``PATIENCE_SOLVER_MEMORY_MB``): a search's table of
positions, which is what grows, is capped so that the process stays within the budget (a
search that fills it stops undecided: no hint, or the next seed), the process's data is
limited to the budget by the kernel (``RLIMIT_DATA``) as a backstop (a search refused
memory there ends undecided as a full table does; the native core never aborts on it), and
a solver process that dies anyway is replaced (its request is answered 503). Workers end
with the server, even one killed with SIGKILL (:func:`_end_with_parent`), and leave Ctrl-C
to it.

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
import resource
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, ParamSpec, TypeVar

from patience.games import Game
from patience.solve import cap_states, solve

from .metrics import SOLVER_JOBS

__all__ = ["PoolFullError", "SolverPool", "first_winning_move", "states_for", "winning_line"]

P = ParamSpec("P")
T = TypeVar("T")


BASE_MB = 128
"""What a solver process holds before it searches (the interpreter and the imports: about
80 MB), with room to spare."""

BYTES_PER_STATE = 110
"""What a search's table costs a position at most, while it grows (measured: Kansas's
searches, the hungriest, about 100 bytes; the others 12 to 24)."""

MAX_TASKS_PER_PROCESS = 500
"""Calls a solver process runs before it is replaced by a fresh one (what the allocator
keeps after large searches is given back)."""


def states_for(memory_mb: int) -> int:
    """Positions a search's table may hold in a process of ``memory_mb`` MiB.

    >>> states_for(512)
    3660483
    """
    return max(100_000, (memory_mb - BASE_MB) * 2**20 // BYTES_PER_STATE)


def _end_with_parent() -> None:
    """End this worker process as soon as the server that started it ends, however it
    ends. A worker waits for work on a queue it holds both ends of, so a server killed
    with SIGKILL (which runs no clean-up) left it, and with it multiprocessing's resource
    tracker, running for many minutes. A thread here waits on the pipe from the parent
    that multiprocessing keeps open in a spawned child (``parent_process().sentinel``),
    which the kernel closes when the parent dies. (``PR_SET_PDEATHSIG`` would fire when
    the *thread* that started the worker ends, and the server starts workers from
    short-lived threads.)"""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        parent.join()
        os._exit(0)  # nothing of a solver call is worth finishing for nobody

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()


def _start_worker(memory_mb: int, priority: str) -> None:
    """In each solver process: end with the server (:func:`_end_with_parent`) and leave
    Ctrl-C to it (a terminal sends it to every process of the command: a worker that died
    of it mid-job broke the pool, and the server, waiting on the pool, never stopped); run
    at ``priority`` (``idle``: only on an otherwise idle core, where Linux can, else nice
    19; ``low``: nice 19; ``normal``: as started), cap the searches' tables to the memory
    budget, and have the kernel refuse data past it."""
    _end_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # see _ctrl_c_held
    if priority != "normal":
        with contextlib.suppress(OSError, AttributeError):
            os.setpriority(os.PRIO_PROCESS, 0, 19)
    if priority == "idle":
        with contextlib.suppress(OSError, AttributeError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    cap_states(states_for(memory_mb))
    limit = memory_mb * 2**20
    with contextlib.suppress(OSError, ValueError, AttributeError):
        resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))


@contextlib.contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """Hold back Ctrl-C (SIGINT) from this thread while the pool may start processes. A
    process starts with its parent's blocked signals, so a Ctrl-C that reaches a solver
    process while it is still loading (a terminal sends it to every process of the
    command) waits until :func:`_start_worker` has it ignored; one that arrived then had
    the process print a traceback as the server stopped. Threads started meanwhile (the
    pool's manager, which starts the replacements) hold it back too; the server's main
    thread, which handles Ctrl-C, never does for longer than this call."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _ready() -> bool:
    """Nothing: a call that makes the pool start a solver process (see
    :meth:`SolverPool.warm`)."""
    return True


def first_winning_move(
    position: Game, *, time_limit: float, start_by: float | None = None
) -> tuple[str | None, str]:
    """A hint: the solver's first move of a win from ``position`` (None when it finds
    none), and the outcome of its search. Plain values, for a solver process. A hint that
    reaches its process after ``start_by`` (a wall-clock time: the player was answered
    without it) is not searched: outcome ``late``."""
    line, outcome = winning_line(position, time_limit=time_limit, start_by=start_by)
    return (line[0] if line else None), outcome


def winning_line(
    position: Game, *, time_limit: float, start_by: float | None = None
) -> tuple[tuple[str, ...], str]:
    """The solver's whole winning line from ``position`` (empty when it finds none) and
    the outcome of its search, as :func:`first_winning_move`: the server keeps the line,
    so that a player who follows its hints is given the next one without a search."""
    if start_by is not None and time.time() > start_by:
        return (), "late"
    result = solve(position, time_limit=time_limit, wins_only=True)
    if result.outcome == "solved" and result.moves:
        return tuple(result.moves), result.outcome
    return (), result.outcome


class PoolFullError(RuntimeError):
    """Every worker is busy and the queue is full: try again in ``retry_after`` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__("the server is busy with solver work; try again shortly")
        self.retry_after = retry_after


class SolverPool:
    """``workers`` processes for solver work, each within ``memory_mb`` MiB, with at most
    ``queue`` calls waiting; what they run and return must be picklable."""

    def __init__(
        self,
        *,
        workers: int = 1,
        queue: int = 4,
        retry_after: int = 2,
        memory_mb: int = 512,
        priority: str = "idle",
    ) -> None:
        self._memory_mb = memory_mb
        self._priority = priority
        self._executor = self._new_executor(workers)
        self._workers = workers
        self._slots = threading.BoundedSemaphore(workers + queue)
        self._busy = 0
        self._lock = threading.Lock()
        self._retry_after = retry_after
        self._closed = False
        self._warm: Future[bool] | None = None

    def _new_executor(self, workers: int) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context("spawn"),  # no copy of the server's threads
            initializer=_start_worker,
            initargs=(self._memory_mb, self._priority),
            max_tasks_per_child=MAX_TASKS_PER_PROCESS,
        )

    def submit(self, function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        """Start ``function`` on the pool; raises :class:`PoolFullError` when it is full
        (or when its processes have just died, and are being replaced)."""
        if not self._slots.acquire(blocking=False):
            raise PoolFullError(self._retry_after)
        with self._lock:
            self._busy += 1
        SOLVER_JOBS.inc()
        try:
            with _ctrl_c_held():
                future = self._executor.submit(function, *args, **kwargs)
        except BrokenProcessPool:
            self._release()
            self._replace_executor()
            raise PoolFullError(self._retry_after) from None
        except BaseException:
            self._release()
            raise
        future.add_done_callback(self._done)
        return future

    def warm(self) -> None:
        """Have a solver process started, if none is, without waiting for it: the first
        hint of a practice game then finds one ready (a process started by that hint took
        more than the hint's 1.5 s of grace on a busy machine, and the player was told
        "no hint found in time"). Takes no slot of the queue; the next call made to the
        pool runs in that process. Called when a practice or relaxed game is dealt."""
        with self._lock:
            if self._closed:
                return
            warm = self._warm
            if warm is not None and not (warm.done() and warm.exception() is not None):
                return
            try:
                with _ctrl_c_held():
                    self._warm = self._executor.submit(_ready)
            except (BrokenProcessPool, RuntimeError):  # being replaced, or shut down
                self._warm = None

    async def ready(self, timeout: float) -> None:
        """Wait, at most ``timeout`` seconds, for a solver process to be up (starting one if
        none is: :meth:`warm`), so that a hint's grace is counted from a process that can
        take it, not from one still loading. Returns as soon as one is, or at once if the
        start failed (the call that follows is then refused or answered as it would be)."""
        self.warm()
        with self._lock:
            warm = self._warm
        if warm is None or warm.done():
            return
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(warm)), timeout)

    def _done(self, future: Future[Any]) -> None:
        self._release()
        if not future.cancelled() and isinstance(future.exception(), BrokenProcessPool):
            self._replace_executor()

    def _replace_executor(self) -> None:
        """A solver process died (its memory limit, a crash): start fresh ones."""
        with self._lock:
            broken = self._executor
            if self._closed or not getattr(broken, "_broken", False):
                return  # replaced already, or the pool is closing
            self._executor = self._new_executor(self._workers)
            self._warm = None  # the new executor has no process yet
        broken.shutdown(wait=False, cancel_futures=True)

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
        raises :class:`PoolFullError` at once when the pool is full, or when its solver
        process died on this call."""
        try:
            return await asyncio.wrap_future(self.submit(function, *args, **kwargs))
        except BrokenProcessPool:
            raise PoolFullError(self._retry_after) from None

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
        """Stop: calls waiting are cancelled, and calls running end with their processes,
        which are stopped (a refill's rating of a deal runs for minutes, and the server's
        stop, Ctrl-C or systemd's, would otherwise wait for it). Their futures fail with
        ``BrokenProcessPool``."""
        with self._lock:
            self._closed = True
            executor = self._executor
        # the executor's own processes: ProcessPoolExecutor has no public way to end them
        # before Python 3.14 (terminate_workers)
        processes = list((getattr(executor, "_processes", None) or {}).values())
        executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join(timeout=10)
