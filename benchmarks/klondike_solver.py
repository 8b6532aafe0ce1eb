"""Klondike solvers on the same seeded deals: patience against lonelybot and Klondike-Solver.

    LONELYBOT_SOURCE=... benchmarks/setup_lonelybot.sh   # prints the driver's path
    LONELYBOT_DRIVER=... .venv/bin/python benchmarks/klondike_solver.py \\
        --count 200 --first 5000 --time-limit 10
    .venv/bin/pip install pyksolve   # for --peers pyksolve (slow: seconds a deal)

Every solver gets every deal of seeds ``first .. first + count - 1`` of each variant, one at
a time on one core, the solvers taking turns deal by deal (so a busy spell of the machine
falls on both). Prints, per solver and variant, the share of deals decided (solved or
proven unsolvable), the median, p90 and max time a deal and the total, the ratios of the
peers' figures to patience's, and the seeds on which two decided verdicts differ.

What is timed is the same for every solver: from the deal, in memory in the form the solver
takes, to its verdict. For patience that is the call into the native core
(``patience._core.solve`` with the position tuple, converting it included); its certificates
are replayed by the engine of record, as ``patience.solve`` does, once every deal of the
variant is timed (replaying each between deals, milliseconds of Python, left the solver to
start from cold caches at every deal, which tripled its median).
lonelybot (github.com/vuonghy2442/lonelybot, Rust) runs in its own process through our
driver (benchmarks/peers/lonelybot_driver.rs), which times its state's construction and
search; pyksolve is called in this process.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

from patience import _core
from patience.games.klondike import Klondike
from patience.solve import DEFAULT_MAX_STATES, _replayed

PEERS = ("lonelybot", "pyksolve")
PEER_SETTINGS = {
    "lonelybot": "lonelybot solver::solve_with_tracking (its full pruning), stopped at the limit",
    "pyksolve": "pyksolve Solitaire.solve_minimal() at its default max_closed_count (5,000,000)",
}

Result = tuple[str, float]


def pyksolve_code(game: Klondike) -> str:
    """The deal in Klondike-Solver's deck format: rank as 2 digits, suit 1-4 (c d h s)."""
    return "".join(f"{card.rank:02d}{'cdhs'.index(card.suit.value) + 1}" for card in game.deal)


def run_pyksolve(game: Klondike, time_limit: float) -> Result:
    """pyksolve's verdict and seconds (it has no time limit; its state limit stops it)."""
    from pyksolve.solver import Solitaire, SolveResult

    solver = Solitaire()
    solver.load_solitaire(pyksolve_code(game))
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


class Lonelybot:
    """The lonelybot driver process, one deal a line (see lonelybot_driver.rs)."""

    def __init__(self, driver: str) -> None:
        self._process = subprocess.Popen(
            [driver], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def __call__(self, game: Klondike, time_limit: float) -> Result:
        assert self._process.stdin is not None
        assert self._process.stdout is not None
        cards = " ".join(str(card.index) for card in game.deal)
        self._process.stdin.write(f"{time_limit} {game.draw_count} {cards}\n")
        self._process.stdin.flush()
        verdict, micros = self._process.stdout.readline().split()
        return verdict, float(micros) / 1e6

    def close(self) -> None:
        """Ends the driver."""
        assert self._process.stdin is not None
        self._process.stdin.close()
        self._process.wait()


class Patience:
    """patience's native solver; its certificates are kept, to be replayed after the timing."""

    def __init__(self) -> None:
        self.certificates: list[tuple[Klondike, list[str]]] = []

    def __call__(self, game: Klondike, time_limit: float) -> Result:
        position = game.native_position()
        started = time.perf_counter()
        outcome, moves, _nodes, _seconds, _reason = _core.solve(
            "klondike",
            position,
            max_nodes=50_000_000,
            max_seconds=time_limit,
            max_states=DEFAULT_MAX_STATES,
            wins_only=False,
        )
        seconds = time.perf_counter() - started
        if outcome == "solved":
            self.certificates.append((game, moves))
        return outcome, seconds

    def replay(self) -> int:
        """Replays the certificates kept (``CertificateError`` if one does not win)."""
        for game, moves in self.certificates:
            _replayed(game, moves)
        replayed, self.certificates = len(self.certificates), []
        return replayed


def summary(name: str, draw: int, results: list[Result]) -> dict[str, float]:
    """Prints one solver's line for one variant; returns its median, p90 and total."""
    times = sorted(seconds for _, seconds in results)
    decided = sum(outcome != "unknown" for outcome, _ in results)
    solved = sum(outcome == "solved" for outcome, _ in results)
    figures = {
        "median": statistics.median(times),
        "p90": times[int(0.9 * (len(times) - 1))],
        "total": sum(times),
    }
    print(
        f"{name:<10} draw {draw}  decided {decided}/{len(results)} "
        f"({100 * decided / len(results):.1f}%), winnable {solved}  "
        f"median {1000 * figures['median']:.3f} ms  p90 {1000 * figures['p90']:.3f} ms"
        f"  max {1000 * times[-1]:.1f} ms  total {figures['total']:.2f} s"
    )
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--draw", type=int, choices=(1, 3), action="append")
    parser.add_argument(
        "--peers",
        default="lonelybot",
        help=f"comma-separated, of {', '.join(PEERS)} (default lonelybot)",
    )
    args = parser.parse_args()
    peers: dict[str, Callable[[Klondike, float], Result]] = {}
    closers: list[Callable[[], None]] = []
    for name in filter(None, args.peers.split(",")):
        if name == "lonelybot":
            driver = os.environ.get("LONELYBOT_DRIVER", "")
            if not os.access(driver, os.X_OK):
                print(
                    "the peer is missing: set LONELYBOT_DRIVER to the driver that "
                    "benchmarks/setup_lonelybot.sh builds",
                    file=sys.stderr,
                )
                return 2
            lonelybot = Lonelybot(driver)
            peers[name] = lonelybot
            closers.append(lonelybot.close)
        elif name == "pyksolve":
            try:
                import pyksolve  # noqa: F401
            except ImportError:
                print("the peer is missing: pip install pyksolve (benchmark only)", file=sys.stderr)
                return 2
            peers[name] = run_pyksolve
        else:
            parser.error(f"unknown peer {name!r}: the peers are {', '.join(PEERS)}")
    print(f"patience: _core.solve(max_seconds={args.time_limit}), certificates replayed after")
    for name in peers:
        print(f"{name}: {PEER_SETTINGS[name]}")
    seeds = range(args.first, args.first + args.count)
    patience = Patience()
    solvers: dict[str, Callable[[Klondike, float], Result]] = {"patience": patience}
    solvers.update(peers)
    for draw in args.draw or (1, 3):
        games = [Klondike.from_seed(seed, {"draw": draw}) for seed in seeds]
        results: dict[str, list[Result]] = {name: [] for name in solvers}
        order = list(solvers)
        for game in games:
            for name in order:
                results[name].append(solvers[name](game, args.time_limit))
            order.reverse()
        figures = {name: summary(name, draw, results[name]) for name in solvers}
        print(f"           draw {draw}  patience's certificates replayed: {patience.replay()}")
        ours = results["patience"]
        for name in peers:
            ratios = ", ".join(
                f"{key} {figures[name][key] / figures['patience'][key]:.2f}x"
                for key in ("median", "p90", "total")
            )
            disagree = [
                seed
                for seed, (a, _), (b, _) in zip(seeds, ours, results[name], strict=True)
                if "unknown" not in (a, b) and a != b
            ]
            print(
                f"           draw {draw}  {name}/patience: {ratios};"
                f" verdicts differ on seeds {disagree or 'none'}"
            )
    for close in closers:
        close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
