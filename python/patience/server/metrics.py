"""The server's own Prometheus metrics (``prometheus-client``), kept by the code that
changes them; :mod:`.ops` serves them at ``/metrics`` with the figures read from the
database.

With several server processes, ``PROMETHEUS_MULTIPROC_DIR`` names a folder where each
process writes its figures (``patience serve --workers N`` makes one), and the gauges are
summed over the live processes.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram, disable_created_metrics

__all__ = ["HINTS", "LIVE_GAMES", "MOVE_SECONDS", "MULTIPROCESS", "REQUESTS", "SOLVER_JOBS"]

# No ``_created`` series beside every counter and histogram: nothing here needs them.
disable_created_metrics()  # type: ignore[no-untyped-call]

MULTIPROCESS = "PROMETHEUS_MULTIPROC_DIR"
"""The environment variable naming the folder of several processes' figures."""

REQUESTS = Counter(
    "patience_requests_total", "HTTP requests answered", ["method", "route", "status"]
)
MOVE_SECONDS = Histogram(
    "patience_move_seconds",
    "Seconds from a move, undo or end request's arrival to its answer's last byte",
    buckets=(0.0005, 0.001, 0.002, 0.003, 0.005, 0.0075, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0),
)
HINTS = Counter(
    "patience_hints_total",
    "Hints answered with a move: by a search, or from the line of an earlier hint the "
    "player followed (no search)",
    ["source"],
)
LIVE_GAMES = Gauge(
    "patience_live_games",
    "Games held in memory (running or lately played)",
    multiprocess_mode="livesum",
)
SOLVER_JOBS = Gauge(
    "patience_solver_jobs",
    "Solver calls running or waiting for a solver process (certifying, hints, refill)",
    multiprocess_mode="livesum",
)
