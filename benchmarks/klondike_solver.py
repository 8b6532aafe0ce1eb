"""Klondike solvers on the same seeded deals: patience against Klondike-Solver (pyksolve).

    .venv/bin/pip install pyksolve   # the peer, for this benchmark only
    .venv/bin/python benchmarks/klondike_solver.py --count 200 --time-limit 10

Both solvers get every deal of seeds ``first .. first + count - 1`` of each variant, one
at a time on one core. Prints, per solver and variant, the share of deals decided (solved
or proven unsolvable), the median, p90 and max time a deal, and patience's speed-up at the
median. patience's certificates are replayed by the engine of record inside ``solve``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from patience.games.klondike import Klondike
from patience.solve import solve

PEER_SETTINGS = "pyksolve Solitaire.solve_minimal() at its default max_closed_count (5,000,000)"


def peer_code(game: Klondike) -> str:
    """The deal in Klondike-Solver's deck format: rank as 2 digits, suit 1-4 (c d h s)."""
    return "".join(f"{card.rank:02d}{'cdhs'.index(card.suit.value) + 1}" for card in game.deal)


def run_peer(game: Klondike) -> tuple[str, float]:
    from pyksolve.solver import Solitaire, SolveResult

    solver = Solitaire()
    solver.load_solitaire(peer_code(game))
    solver.reset_game(game.draw_count)
    started = time.perf_counter()
    result = solver.solve_minimal()
    seconds = time.perf_counter() - started
    verdict = {
        SolveResult.SolvedMinimal: "solved",
        SolveResult.SolvedMayNotBeMinimal: "solved",
        SolveResult.Impossible: "unsolvable",
    }.get(result, "unknown")
    return verdict, seconds


def run_patience(game: Klondike, time_limit: float) -> tuple[str, float]:
    started = time.perf_counter()
    result = solve(game, time_limit=time_limit)
    return result.outcome, time.perf_counter() - started


def summary(name: str, draw: int, results: list[tuple[str, float]]) -> float:
    times = sorted(seconds for _, seconds in results)
    decided = sum(outcome != "unknown" for outcome, _ in results)
    solved = sum(outcome == "solved" for outcome, _ in results)
    median = statistics.median(times)
    print(
        f"{name:<10} draw {draw}  decided {decided}/{len(results)} "
        f"({100 * decided / len(results):.1f}%), winnable {solved}  "
        f"median {1000 * median:.2f} ms  p90 {1000 * times[int(0.9 * (len(times) - 1))]:.2f} ms"
        f"  max {1000 * times[-1]:.1f} ms"
    )
    return median


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--time-limit", type=float, default=10.0)
    args = parser.parse_args()
    try:
        import pyksolve  # noqa: F401
    except ImportError:
        print("the peer is missing: pip install pyksolve (benchmark only)", file=sys.stderr)
        return 2
    print(f"patience: solve(time_limit={args.time_limit}); peer: {PEER_SETTINGS}")
    seeds = range(args.first, args.first + args.count)
    for draw in (1, 3):
        games = [Klondike.from_seed(seed, {"draw": draw}) for seed in seeds]
        ours = [run_patience(game, args.time_limit) for game in games]
        theirs = [run_peer(game) for game in games]
        mine = summary("patience", draw, ours)
        peer = summary("pyksolve", draw, theirs)
        disagree = [
            seed
            for seed, (a, _), (b, _) in zip(seeds, ours, theirs, strict=True)
            if "unknown" not in (a, b) and a != b
        ]
        print(
            f"           draw {draw}  median ratio pyksolve/patience: {peer / mine:.1f}x;"
            f" verdicts differ on seeds {disagree or 'none'}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
