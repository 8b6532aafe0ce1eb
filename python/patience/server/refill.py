"""How fast the background refill makes the catalog's deals, measured: for each game and
variant, the deals made per minute over its recent jobs, so that an operator told a
tournament is short of deals is told how long the missing ones take at the rate this server
reaches, or that it is unknown yet.

A job's cost is the wall time from the solver pool taking it to its answer, plus the pause
the refill took before asking for it (the time since the refill's previous job ended, up to
the refill's check interval: a longer gap is a refill with nothing to do, not work). A job
that made no deal (the solver won none of its tries) costs its time and makes nothing.

>>> rates = RefillRates(pause=2.0)
>>> rates.per_minute(("golf", "wrap=false"), now=0.0) is None  # nothing measured yet
True
>>> for k in range(6):  # a deal every 3 s: 1 s of waiting, 2 s of solving
...     rates.finished(("golf", "wrap=false"), submitted=3 * k + 1.0, made=True, now=3 * k + 3.0)
>>> round(rates.per_minute(("golf", "wrap=false"), now=18.0), 1)  # 6 deals in 2 + 5 x 3 s
21.2
>>> rates.per_minute(("klondike", "draw=1"), now=18.0) is None  # another kind's own
True
"""

from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass

__all__ = ["Kind", "RefillRates"]

Kind = tuple[str, str]
"""A game's name and its variant's key (:func:`patience.games.variant_key`)."""


@dataclass(frozen=True)
class _Job:
    ended: float
    cost: float
    made: bool


class RefillRates:
    """The refill's recent jobs of each kind, and the rate they make deals at: the last
    ``window`` jobs of a kind that ended within ``horizon`` seconds count; ``pause`` is the
    refill's check interval (the longest wait between jobs that counts as part of the work).
    Safe to use from several threads (jobs end in the solver pool's)."""

    def __init__(self, *, window: int = 20, horizon: float = 1800.0, pause: float = 2.0) -> None:
        self._window = window
        self._horizon = horizon
        self._pause = pause
        self._jobs: dict[Kind, deque[_Job]] = {}
        self._last_end: float | None = None  # of any kind: the refill makes one at a time
        self._lock = threading.Lock()

    @staticmethod
    def now() -> float:
        """The clock the rates are kept by (monotonic seconds)."""
        return time.monotonic()

    def finished(
        self, kind: Kind, *, submitted: float, made: bool, now: float | None = None
    ) -> None:
        """A job of ``kind`` taken by the pool at ``submitted`` ended (now, by default),
        with a deal made or not."""
        ended = self.now() if now is None else now
        with self._lock:
            waited = 0.0 if self._last_end is None else submitted - self._last_end
            cost = max(0.0, ended - submitted) + min(max(0.0, waited), self._pause)
            self._last_end = ended
            jobs = self._jobs.setdefault(kind, deque(maxlen=self._window))
            jobs.append(_Job(ended, cost, made))

    def per_minute(self, kind: Kind, *, now: float | None = None) -> float | None:
        """Deals of ``kind`` made per minute by its recent jobs; None when none ended lately
        (nothing measured), 0.0 when they made none.

        >>> rates = RefillRates()
        >>> rates.finished(("kansas", ""), submitted=0.0, made=False, now=30.0)
        >>> rates.per_minute(("kansas", ""), now=40.0)
        0.0
        >>> rates.per_minute(("kansas", ""), now=4000.0) is None  # too long ago to count
        True
        """
        at = self.now() if now is None else now
        with self._lock:
            recent = [job for job in self._jobs.get(kind, ()) if at - job.ended <= self._horizon]
        if not recent:
            return None
        spent = sum(job.cost for job in recent)
        made = sum(job.made for job in recent)
        if not made:
            return 0.0
        return 60.0 * made / spent if spent > 0 else float("inf")

    def measured(self, kind: Kind, *, now: float | None = None) -> int:
        """How many recent jobs of ``kind`` the rate is measured over."""
        at = self.now() if now is None else now
        with self._lock:
            return sum(at - job.ended <= self._horizon for job in self._jobs.get(kind, ()))
