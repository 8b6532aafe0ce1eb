"""Is the difficulty rating valid? The figures of docs/rating.md for one game and variant.

    .venv/bin/python benchmarks/rating_study.py golf --wrap --count 200
    .venv/bin/python benchmarks/rating_study.py klondike --draw 3 --count 200

Rates ``--count`` certified deals of a stream of their own (not the calibration's, not a
catalog job's) twice, with playout seeds 0 and 1, on all cores, and prints:

- each reference player's win rate per tier, tiers from the first rating, win rates from the
  second one's playouts (not used to rate), with 95% Wilson intervals;
- the skill gap per tier (the strongest player's win rate minus the weakest's);
- for Kansas, where a playout's result is the share of cards home, the same per tier for
  that share (mean over deals, with a 95% normal interval);
- the ladder's steps: each player's progress minus the one's below it, paired over the
  deals, with a 95% bootstrap interval;
- stability: Spearman's rank correlation of the two ratings' scores, and the share of deals
  whose tier moves by more than one;
- the cost of a rating per deal.

``--unseen PLAYER`` also plays a player the rating does not use (Kansas's ``rollout``, say)
``--unseen-playouts`` times on each deal, seeds of its own, and adds it to the tables
(marked ``*``): a player the tiers never saw should still do worse on the harder ones.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time
from typing import Any

import numpy as np

from common import game_and_variant  # benchmarks/common.py, beside this script
from patience import _core
from patience.batch import run, wilson_interval
from patience.catalog import public_seed_stream
from patience.games import GAMES, game_class
from patience.rating import MAX_MOVES, NotCertifiedError, rate_seed

STUDY_STREAM = 2_000_000


#: The unseen player's playout seeds start here (the ratings' own are small numbers).
UNSEEN_SEEDS = 7_000_000_000


def _rate_twice(
    task: tuple[str, dict[str, object], int, str | None, int],
) -> tuple[Any, Any, float] | None:
    name, variant, seed, unseen, count = task
    started = time.perf_counter()
    try:
        first = rate_seed(name, variant, seed, playout_seed=0)
    except NotCertifiedError:
        return None
    seconds = time.perf_counter() - started
    second = rate_seed(name, variant, seed, playout_seed=1).to_json()
    if unseen is not None:  # played beside the second rating, reported as one of its players
        position = game_class(name).from_seed(seed, dict(variant)).native_position()
        seeds = [(UNSEEN_SEEDS + seed * count + k) % 2**64 for k in range(count)]
        results = _core.results(name, position, unseen, seeds, MAX_MOVES)
        label = f"{unseen}*"
        second["players"][label] = sum(result == 1.0 for result in results) / count
        second["progress"][label] = sum(results) / count
        second["playouts"][label] = count
    return first.to_json(), second, seconds


def _ranks(values: list[float]) -> np.ndarray[Any, Any]:
    """Ranks from 1, ties given their average rank."""
    array = np.asarray(values)
    order = array.argsort(kind="stable")
    ranks = np.empty(len(array))
    ranks[order] = np.arange(1, len(array) + 1)
    for value in np.unique(array):
        tied = array == value
        ranks[tied] = ranks[tied].mean()
    return ranks


def spearman(a: list[float], b: list[float]) -> float:
    """Spearman's rank correlation: Pearson's correlation of the ranks."""
    return float(np.corrcoef(_ranks(a), _ranks(b))[0, 1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--jobs", type=int)
    parser.add_argument("--unseen", metavar="PLAYER", help="a player the rating does not use")
    parser.add_argument("--unseen-playouts", type=int, default=8, metavar="N")
    known, variant = game_and_variant(parser, sorted(GAMES))
    cls = GAMES[known.game]
    seeds = public_seed_stream(known.game, variant, STUDY_STREAM)
    results: list[tuple[Any, Any, float]] = []
    tried = 0
    started = time.perf_counter()
    while len(results) < known.count:
        batch = [next(seeds) for _ in range(known.count - len(results))]
        tried += len(batch)
        tasks = [(known.game, variant, seed, known.unseen, known.unseen_playouts) for seed in batch]
        results += [r for r in run(_rate_twice, tasks, jobs=known.jobs) if r is not None]
    wall = time.perf_counter() - started
    print(
        f"{cls.title} {variant}: {len(results)} certified deals of {tried} seeds, "
        f"stream {STUDY_STREAM}; {wall:.0f} s on {known.jobs or 'all'} cores"
    )
    players = list(results[0][1]["players"])
    strongest = len(results[0][0]["players"]) - 1  # the skill gap is the rated ladder's
    print("\nwin rate per tier (tiers from rating 1, playouts of rating 2), 95% intervals:")
    print("tier  deals  " + "  ".join(f"{p:>22}" for p in players) + "   skill gap")
    for tier in range(1, 11):
        rows = [second for first, second, _ in results if first["tier"] == tier]
        cells = []
        rates = []
        for player in players:
            games = sum(r["playouts"][player] for r in rows)
            wins = round(sum(r["players"][player] * r["playouts"][player] for r in rows))
            low, high = wilson_interval(wins, games)
            rate = wins / games if games else 0.0
            rates.append(rate)
            cells.append(f"{rate:6.1%} [{low:5.1%},{high:6.1%}]")
        gap = rates[strongest] - rates[0] if rows else 0.0
        print(
            f"{tier:4}  {len(rows):5}  " + "  ".join(f"{c:>22}" for c in cells) + f"   {gap:+.1%}"
        )
    if any(r["progress"] != r["players"] for _, r, _ in results):
        # Kansas: a playout's result is also the share of cards home, which the score uses
        print("\nmean share of cards home per tier (playouts of rating 2), 95% intervals:")
        print("tier  deals  " + "  ".join(f"{p:>22}" for p in players) + "   skill gap")
        for tier in range(1, 11):
            rows = [second for first, second, _ in results if first["tier"] == tier]
            cells, means = [], []
            for player in players:
                shares = [r["progress"][player] for r in rows]
                mean = statistics.fmean(shares) if shares else 0.0
                half = (
                    1.96 * statistics.stdev(shares) / len(shares) ** 0.5 if len(shares) > 1 else 0.0
                )
                means.append(mean)
                cells.append(f"{mean:6.1%} [{mean - half:5.1%},{mean + half:6.1%}]")
            gap = means[strongest] - means[0] if rows else 0.0
            print(
                f"{tier:4}  {len(rows):5}  "
                + "  ".join(f"{c:>22}" for c in cells)
                + f"   {gap:+.1%}"
            )
    # each rung against the one below it, paired over the deals (the second rating's
    # playouts): a ladder's steps are clear when the interval stays above zero
    print("\nsteps of the ladder (progress, paired over deals, 95% bootstrap interval):")
    rng = np.random.default_rng(0)
    for lower, upper in itertools.pairwise(players):
        differences = np.asarray(
            [second["progress"][upper] - second["progress"][lower] for _, second, _ in results]
        )
        picks = rng.integers(0, len(differences), size=(10_000, len(differences)))
        low, high = np.percentile(differences[picks].mean(axis=1), [2.5, 97.5])
        better = int((differences > 0).sum())
        worse = int((differences < 0).sum())
        print(
            f"{upper} - {lower}: {differences.mean():+.1%} [{low:+.1%}, {high:+.1%}]; "
            f"better on {better} deals, worse on {worse}"
        )
    first_scores = [first["score"] for first, _, _ in results]
    second_scores = [second["score"] for _, second, _ in results]
    moved = sum(
        abs(first["tier"] - second["tier"]) > 1
        for first, second, _ in results
        if first["tier"] is not None and second["tier"] is not None
    )
    print(
        f"\nstability: Spearman {spearman(first_scores, second_scores):.3f} between the two "
        f"ratings' scores; tier moved by more than one: {moved} of {len(results)} "
        f"({moved / len(results):.1%})"
    )
    seconds = [s for _, _, s in results]
    print(
        f"cost of one rating: median {statistics.median(seconds):.3f} s, "
        f"mean {statistics.fmean(seconds):.3f} s a deal (one core)"
    )
    for player in players:
        overall = statistics.fmean(second["players"][player] for _, second, _ in results)
        print(f"{player}: {overall:.1%} of playouts won on these certified deals")


if __name__ == "__main__":
    sys.exit(main())
