"""The refill's measured rate of deals made (patience.server.refill), which an operator's
estimate of a short tournament's wait is made from, and the words of that estimate."""

from __future__ import annotations

import threading

from patience.server.refill import RefillRates
from patience.server.routers.tournaments import catalog_short_words
from patience.tournaments import CatalogShortError

GOLF = ("golf", "wrap=false")


def test_nothing_measured_is_none_and_each_kind_has_its_own_rate() -> None:
    rates = RefillRates(pause=2.0)
    assert rates.per_minute(GOLF, now=0.0) is None
    rates.finished(GOLF, submitted=0.0, made=True, now=6.0)  # one deal in 6 s
    assert rates.per_minute(GOLF, now=6.0) == 10.0
    assert rates.per_minute(("freecell", ""), now=6.0) is None
    assert rates.measured(GOLF, now=6.0) == 1


def test_the_wait_between_jobs_counts_up_to_the_refills_pause() -> None:
    rates = RefillRates(pause=2.0)
    rates.finished(GOLF, submitted=0.0, made=True, now=1.0)
    rates.finished(GOLF, submitted=2.0, made=True, now=3.0)  # waited 1 s: counts
    assert rates.per_minute(GOLF, now=3.0) == 60.0 * 2 / 3.0
    # an hour with nothing to make is not work: only the pause counts
    rates.finished(GOLF, submitted=3603.0, made=True, now=3604.0)
    assert rates.per_minute(GOLF, now=3604.0) == 60.0 * 1 / 3.0  # the first two forgotten


def test_a_job_of_another_kind_between_counts_as_the_wait() -> None:
    rates = RefillRates(pause=5.0)
    rates.finished(GOLF, submitted=0.0, made=True, now=2.0)
    rates.finished(("kansas", ""), submitted=2.0, made=True, now=10.0)
    rates.finished(GOLF, submitted=10.5, made=True, now=12.5)  # waited 0.5 s after kansas
    assert rates.per_minute(GOLF, now=12.5) == 60.0 * 2 / (2.0 + 2.5)


def test_a_try_that_made_no_deal_costs_its_time() -> None:
    rates = RefillRates(pause=0.0)
    rates.finished(GOLF, submitted=0.0, made=False, now=4.0)
    assert rates.per_minute(GOLF, now=4.0) == 0.0  # measured, and none made
    rates.finished(GOLF, submitted=4.0, made=True, now=6.0)
    assert rates.per_minute(GOLF, now=6.0) == 10.0  # one deal in 6 s


def test_only_the_recent_window_counts() -> None:
    rates = RefillRates(window=3, pause=0.0)
    for k in range(3):  # slow deals: 10 s each
        rates.finished(GOLF, submitted=10.0 * k, made=True, now=10.0 * k + 10.0)
    for k in range(3):  # then fast ones: 1 s each
        rates.finished(GOLF, submitted=30.0 + k, made=True, now=31.0 + k)
    assert rates.per_minute(GOLF, now=33.0) == 60.0
    assert rates.measured(GOLF, now=33.0) == 3


def test_jobs_ending_in_many_threads_are_all_counted() -> None:
    rates = RefillRates(window=10_000, pause=0.0)

    def end_jobs() -> None:
        for _ in range(500):
            rates.finished(GOLF, submitted=0.0, made=True, now=1.0)

    threads = [threading.Thread(target=end_jobs) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert rates.measured(GOLF, now=1.0) == 2000


def test_the_operators_words_come_from_the_measured_rate() -> None:
    short = CatalogShortError(
        "golf", {"wrap": False}, 4, have=0, wanted=500, attempts=5, entrants=100
    )
    unknown = catalog_short_words(short, None, 0)
    assert "about 5000 made" in unknown
    assert "How long the 5000 to make take is unknown yet" in unknown
    assert "Fewer attempts or fewer entrants" in unknown
    # 5000 deals at 50 a minute: 100 minutes
    measured = catalog_short_words(short, 50.0, 20)
    assert (
        "Lately it has made about 50 Golf deals a minute (measured over its last 20 tries)"
        in measured
    )
    assert "take roughly 1.7 hours" in measured
    assert "unknown" not in measured
    # twice as fast, half the wait: the figure is the rate's, not a constant's
    assert "take roughly 50 minutes" in catalog_short_words(short, 100.0, 20)
    # a few deals made fast: a minute
    few = CatalogShortError("golf", {"wrap": False}, None, have=9, wanted=10)
    assert "take about a minute: create the tournament again then" in catalog_short_words(
        few, 3.0, 5
    )
    # tries that made nothing: no rate to promise
    none = catalog_short_words(few, 0.0, 7)
    assert "unknown yet: its last 7 tries at Golf deals made none" in none
