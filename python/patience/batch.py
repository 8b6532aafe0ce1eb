"""Work over many deals: on all local cores by default, or on a Dask distributed cluster;
and summaries of what was found.

:func:`run` maps a plain function over tasks in order, on local processes or, given a
scheduler address (``tcp://host:port``), on the cluster's workers (which need this package
installed). :func:`solve_seeds` solves seeded deals with it.

>>> low, high = wilson_interval(820, 1000)
>>> round(low, 4), round(high, 4)
(0.795, 0.8426)
"""

from __future__ import annotations

import os
import statistics
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from patience.games import game_class
from patience.rating import wilson_interval
from patience.solve import solve

__all__ = [
    "SeedResult",
    "Summary",
    "Workers",
    "run",
    "solve_seeds",
    "summarise",
    "wilson_interval",
]

T = TypeVar("T")
R = TypeVar("R")


def run(
    function: Callable[[T], R],
    tasks: Sequence[T],
    *,
    jobs: int | None = None,
    scheduler: str | None = None,
) -> Iterator[R]:
    """``function`` applied to each of ``tasks``, the results yielded in the tasks' order as
    they are ready: on ``jobs`` local processes (all cores by default; one runs in this
    process), or on the Dask distributed cluster whose scheduler is at ``scheduler``.
    ``function`` must be a module-level function (it is pickled by name).

    >>> list(run(abs, [-2, 3, -4], jobs=1))
    [2, 3, 4]
    """
    if scheduler is not None:
        yield from _run_on_cluster(function, tasks, scheduler)
        return
    workers = jobs or os.cpu_count() or 1
    if workers == 1 or len(tasks) <= 1:
        yield from map(function, tasks)
        return
    with ProcessPoolExecutor(max_workers=min(workers, len(tasks))) as pool:
        yield from pool.map(function, tasks, chunksize=max(1, len(tasks) // (8 * workers)))


class Workers:
    """Where :func:`run` runs its tasks, kept for many calls (a catalog job's chunks): local
    processes started once, which keep what they load (the rating model, the native core's
    tables), or one client of the Dask cluster at ``scheduler``. A context manager.

    >>> with Workers(jobs=1) as workers:
    ...     list(workers.map(abs, [-2, 3])), list(workers.map(abs, [-4]))
    ([2, 3], [4])
    """

    def __init__(self, *, jobs: int | None = None, scheduler: str | None = None) -> None:
        self.jobs = jobs or os.cpu_count() or 1
        self.scheduler = scheduler
        self._pool: ProcessPoolExecutor | None = None
        self._client: Any = None

    def __enter__(self) -> Workers:
        if self.scheduler is not None:
            from distributed import Client  # imported here: only cluster runs need it

            self._client = Client(self.scheduler, timeout="20s")  # type: ignore[no-untyped-call]
        elif self.jobs > 1:
            self._pool = ProcessPoolExecutor(max_workers=self.jobs)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._client is not None:
            self._client.close()
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)

    def map(self, function: Callable[[T], R], tasks: Sequence[T]) -> Iterator[R]:
        """``function`` applied to each of ``tasks``, the results in the tasks' order."""
        if self._client is not None:
            futures = self._client.map(function, list(tasks), pure=False)
            try:
                for future in futures:
                    yield future.result()
            finally:
                self._client.cancel(futures)
        elif self._pool is not None and len(tasks) > 1:
            chunksize = max(1, len(tasks) // (8 * self.jobs))
            yield from self._pool.map(function, tasks, chunksize=chunksize)
        else:
            yield from map(function, tasks)


def _run_on_cluster(function: Callable[[T], R], tasks: Sequence[T], scheduler: str) -> Iterator[R]:
    """:func:`run` on a Dask distributed cluster: every task submitted at once (the
    scheduler spreads them over the workers), the results gathered in order."""
    from distributed import Client  # imported here: only cluster runs need it

    with Client(scheduler, timeout="20s") as client:  # type: ignore[no-untyped-call]
        futures = client.map(function, list(tasks), pure=False)
        try:
            for future in futures:
                yield future.result()
        finally:
            client.cancel(futures)


@dataclass(frozen=True, slots=True)
class SeedResult:
    """One seeded deal's answer: outcome, work done, and the certificate's length."""

    seed: int
    outcome: str
    nodes: int
    seconds: float
    moves: int


def _solve_one(task: tuple[str, dict[str, Any], int, float, int, bool]) -> SeedResult:
    name, variant, seed, time_limit, node_limit, wins_only = task
    result = solve(
        game_class(name).from_seed(seed, variant),
        time_limit=time_limit,
        node_limit=node_limit,
        wins_only=wins_only,
    )
    return SeedResult(seed, result.outcome, result.nodes, result.seconds, len(result.moves))


def solve_seeds(
    name: str,
    variant: dict[str, Any],
    seeds: Iterable[int],
    *,
    time_limit: float = 10.0,
    node_limit: int = 50_000_000,
    jobs: int | None = None,
    wins_only: bool = False,
) -> Iterator[SeedResult]:
    """Solve the seeded deals of ``name`` on ``jobs`` processes (all cores by default),
    yielding results in seed order. Every certificate is replayed in its worker;
    ``wins_only`` as for :func:`patience.solve.solve`."""
    tasks = [(name, variant, seed, time_limit, node_limit, wins_only) for seed in seeds]
    workers = jobs or os.cpu_count() or 1
    if workers == 1:
        yield from map(_solve_one, tasks)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(_solve_one, tasks, chunksize=8)


@dataclass(frozen=True, slots=True)
class Summary:
    """What a run of many deals found; ``unknown_seeds`` are the deals left undecided, in
    seed order (the hard ones, to study or to give a larger budget)."""

    deals: int
    solved: int
    unsolvable: int
    unknown: int
    winnable: float
    interval: tuple[float, float]
    median_seconds: float
    p90_seconds: float
    max_seconds: float
    unknown_seeds: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The summary as a JSON object."""
        return {
            "deals": self.deals,
            "solved": self.solved,
            "unsolvable": self.unsolvable,
            "unknown": self.unknown,
            "winnable": self.winnable,
            "interval95": list(self.interval),
            "median_seconds": self.median_seconds,
            "p90_seconds": self.p90_seconds,
            "max_seconds": self.max_seconds,
            "unknown_seeds": list(self.unknown_seeds),
        }


def summarise(results: list[SeedResult]) -> Summary:
    """Counts, the winnable share among decided deals with its 95% Wilson interval, the
    time per deal, and which deals were left undecided.

    >>> results = [SeedResult(3, "solved", 10, 0.5, 90), SeedResult(4, "unknown", 99, 2.0, 0)]
    >>> summary = summarise(results)
    >>> summary.solved, summary.unknown, summary.unknown_seeds, summary.winnable
    (1, 1, (4,), 1.0)
    """
    solved = sum(r.outcome == "solved" for r in results)
    unsolvable = sum(r.outcome == "unsolvable" for r in results)
    decided = solved + unsolvable
    times = sorted(r.seconds for r in results) or [0.0]
    return Summary(
        deals=len(results),
        solved=solved,
        unsolvable=unsolvable,
        unknown=len(results) - decided,
        winnable=solved / decided if decided else 0.0,
        interval=wilson_interval(solved, decided),
        median_seconds=statistics.median(times),
        p90_seconds=times[min(len(times) - 1, int(0.9 * len(times)))],
        max_seconds=times[-1],
        unknown_seeds=tuple(r.seed for r in results if r.outcome == "unknown"),
    )
