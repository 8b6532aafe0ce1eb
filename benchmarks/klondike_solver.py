"""Klondike solvers on the same seeded deals: patience against lonelybot and Klondike-Solver.

    LONELYBOT_SOURCE=... benchmarks/setup_lonelybot.sh   # prints the driver's path
    LONELYBOT_DRIVER=... .venv/bin/python benchmarks/klondike_solver.py
    LONELYBOT_DRIVER=... .venv/bin/python benchmarks/klondike_solver.py --draw 3 \\
        --ranges 770000 --time-limit 10
    .venv/bin/pip install pyksolve   # for --peers pyksolve (slow: seconds a deal)

The deals are the seeds of several ranges of ``--count`` (200) seeds, far apart and chosen
once, before the solver was measured on them (``RANGES``; ``--ranges`` picks some, or
others): a solver tuned to one range shows it on the others. Every solver gets every deal
of a range and variant, one at a time on one core, the solvers taking turns deal by deal
(so a busy spell of the machine falls on both). Prints, per range, variant and solver, the
share of deals decided (solved or proven unsolvable), the median, p90 and max time a deal,
the total wall time and the CPU time, then the ratios of the peers' figures to patience's
(above 1: patience faster) and the seeds on which two decided verdicts differ; at the end
a table of the ratios of every range.

What is timed is the same for every solver: from the deal, in memory in the form the solver
takes, to its verdict. patience and lonelybot (github.com/vuonghy2442/lonelybot, Rust) each
run in a process of their own for each range and variant, behind the same line protocol,
doing nothing else between deals: patience through ``examples/klondike_driver.rs`` (built
here with cargo), lonelybot through our driver for it (benchmarks/peers/lonelybot_driver.rs,
built outside the repository by benchmarks/setup_lonelybot.sh). Each driver times its
solver's construction of its position and its search; the CPU time is the process's own.
patience's certificates come back with its verdicts and are replayed by the engine of
record, as ``patience.solve`` does, once every deal of the range and variant is timed.

``patience-py`` is the same solver called the way the platform calls it, in this process
(``patience._core.solve`` with the position tuple, converting it and the certificate
included): it pays the Python call and shares its caches with the interpreter, so it is
reported beside the drivers' figures, not compared in their place. pyksolve is called in
this process.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from patience import _core
from patience.games.klondike import Klondike
from patience.solve import DEFAULT_MAX_STATES, replayed

PEERS = ("lonelybot", "pyksolve")
OURS = ("patience", "patience-py")
PEER_SETTINGS = {
    "lonelybot": "lonelybot solver::solve_with_tracking (its full pruning), stopped at the limit",
    "pyksolve": "pyksolve Solitaire.solve_minimal() at its default max_closed_count (5,000,000)",
}

#: The first seeds of the ranges measured, chosen once and far apart: 5,000 (the range of
#: the earlier measurements), 770,000 (where lonelybot was first seen ahead), and two
#: chosen before the solver was ever run on them.
RANGES = (5_000, 770_000, 31_000_000, 4_100_000_000)

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


class Driver:
    """A solver's driver process, one deal a line (the protocol of lonelybot_driver.rs):
    the deal is written, the answer's fields read back."""

    def __init__(self, driver: str) -> None:
        self._process = subprocess.Popen(
            [driver], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def ask(self, game: Klondike, time_limit: float) -> list[str]:
        """The driver's answer to ``game``, split into its fields."""
        assert self._process.stdin is not None
        assert self._process.stdout is not None
        cards = " ".join(str(card.index) for card in game.deal)
        self._process.stdin.write(f"{time_limit} {game.draw_count} {cards}\n")
        self._process.stdin.flush()
        return self._process.stdout.readline().split()

    def close(self) -> None:
        """Ends the driver."""
        assert self._process.stdin is not None
        self._process.stdin.close()
        self._process.wait()


class Lonelybot(Driver):
    """The lonelybot driver process (see lonelybot_driver.rs)."""

    def __call__(self, game: Klondike, time_limit: float) -> Result:
        verdict, micros = self.ask(game, time_limit)
        return verdict, float(micros) / 1e6


class PatienceDriver(Driver):
    """patience's driver process (examples/klondike_driver.rs); the certificates are kept,
    to be replayed after the timing."""

    def __init__(self, driver: str) -> None:
        super().__init__(driver)
        self.certificates: list[tuple[Klondike, list[str]]] = []

    def __call__(self, game: Klondike, time_limit: float) -> Result:
        verdict, micros, nodes, *moves = self.ask(game, time_limit)
        if verdict == "error":
            raise RuntimeError(f"the driver refused the deal: {micros} {nodes} {moves}")
        if verdict == "solved":
            self.certificates.append((game, moves))
        return verdict, float(micros) / 1e6

    def replay(self) -> int:
        """Replays the certificates kept (``CertificateError`` if one does not win)."""
        for game, moves in self.certificates:
            replayed(game, moves)
        count, self.certificates = len(self.certificates), []
        return count


def build_driver() -> str:
    """Builds examples/klondike_driver.rs (release) and returns its path."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    subprocess.run(
        [
            "cargo",
            "build",
            "--release",
            "-q",
            "-p",
            "patience-core",
            "--example",
            "klondike_driver",
        ],
        cwd=root,
        check=True,
    )
    metadata = subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--no-deps"],
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    target = json.loads(metadata)["target_directory"]
    return os.path.join(target, "release", "examples", "klondike_driver")


class Patience:
    """patience's native solver called in this process; its certificates are kept, to be
    replayed after the timing."""

    def __init__(self) -> None:
        self.certificates: list[tuple[Klondike, list[str]]] = []

    def __call__(self, game: Klondike, time_limit: float) -> Result:
        position = game.native_position()
        started = time.perf_counter()
        outcome, moves, _nodes, _seconds, _reason = _core.solve(
            "klondike",
            position,
            max_nodes=200_000_000,
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
            replayed(game, moves)
        count, self.certificates = len(self.certificates), []
        return count


@dataclass
class Run:
    """One solver's results on one range and variant."""

    results: list[Result] = field(default_factory=list)
    cpu: float = 0.0

    def figures(self) -> dict[str, float]:
        """Median, p90 and total seconds a deal."""
        times = sorted(seconds for _, seconds in self.results)
        return {
            "median": statistics.median(times),
            "p90": times[int(0.9 * (len(times) - 1))],
            "total": sum(times),
        }


def summary(name: str, draw: int, run: Run) -> None:
    """Prints one solver's line for one range and variant."""
    results = run.results
    times = sorted(seconds for _, seconds in results)
    decided = sum(outcome != "unknown" for outcome, _ in results)
    solved = sum(outcome == "solved" for outcome, _ in results)
    figures = run.figures()
    print(
        f"  {name:<10} draw {draw}  decided {decided}/{len(results)}, winnable {solved}  "
        f"median {1000 * figures['median']:.3f} ms  p90 {1000 * figures['p90']:.3f} ms"
        f"  max {1000 * times[-1]:.1f} ms  total {figures['total']:.2f} s"
        f" (CPU {run.cpu:.2f} s)"
    )


def compare(
    seeds: range, our_name: str, ours: Run, name: str, theirs: Run
) -> tuple[str, str, dict[str, float], tuple[int, int]]:
    """Prints a peer's figures over ours and the seeds whose decided verdicts differ;
    returns the row of the final table."""
    ratios = {
        key: theirs.figures()[key] / ours.figures()[key] for key in ("median", "p90", "total")
    }
    disagree = [
        seed
        for seed, (a, _), (b, _) in zip(seeds, ours.results, theirs.results, strict=True)
        if "unknown" not in (a, b) and a != b
    ]
    undecided = (
        sum(outcome == "unknown" for outcome, _ in ours.results),
        sum(outcome == "unknown" for outcome, _ in theirs.results),
    )
    for who, run in ((our_name, ours), (name, theirs)):
        left = [s for s, (o, _) in zip(seeds, run.results, strict=True) if o == "unknown"]
        if left:
            print(f"  undecided by {who}: seeds {', '.join(f'{s:,}' for s in left)}")
    print(
        f"  {name}/{our_name}: "
        + ", ".join(f"{key} {ratio:.2f}x" for key, ratio in ratios.items())
        + f"; verdicts differ on seeds {disagree or 'none'}"
    )
    return our_name, name, ratios, undecided


def children_cpu() -> float:
    """CPU seconds of the child processes waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=200, help="seeds a range (default 200)")
    parser.add_argument(
        "--ranges",
        type=lambda text: [int(first) for first in text.split(",")],
        default=list(RANGES),
        help="comma-separated first seeds (default: "
        + ", ".join(f"{first:,}" for first in RANGES)
        + ")",
    )
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument(
        "--ours",
        default=",".join(OURS),
        help="comma-separated, of patience (its driver process) and patience-py (called in"
        " this process); default both",
    )
    parser.add_argument("--draw", type=int, choices=(1, 3), action="append")
    parser.add_argument(
        "--peers",
        default="lonelybot",
        help=f"comma-separated, of {', '.join(PEERS)} (default lonelybot)",
    )
    args = parser.parse_args()
    driver = ""
    peers = [name for name in args.peers.split(",") if name]
    for name in peers:
        if name == "lonelybot":
            driver = os.environ.get("LONELYBOT_DRIVER", "")
            if not os.access(driver, os.X_OK):
                print(
                    "the peer is missing: set LONELYBOT_DRIVER to the driver that "
                    "benchmarks/setup_lonelybot.sh builds",
                    file=sys.stderr,
                )
                return 2
        elif name == "pyksolve":
            try:
                import pyksolve  # noqa: F401
            except ImportError:
                print("the peer is missing: pip install pyksolve (benchmark only)", file=sys.stderr)
                return 2
        else:
            parser.error(f"unknown peer {name!r}: the peers are {', '.join(PEERS)}")
    ours = [name for name in args.ours.split(",") if name]
    for name in ours:
        if name not in OURS:
            parser.error(f"unknown way of ours {name!r}: they are {', '.join(OURS)}")
    if not ours:
        parser.error("--ours needs at least one of " + ", ".join(OURS))
    patience_driver = build_driver() if "patience" in ours else ""
    if patience_driver:
        print(f"patience: {patience_driver} (max_seconds={args.time_limit}), certificates replayed")
    if "patience-py" in ours:
        print(f"patience-py: _core.solve(max_seconds={args.time_limit}) in this process")
    for name in peers:
        print(f"{name}: {PEER_SETTINGS[name]}")
    table: list[tuple[int, int, str, str, dict[str, float], tuple[int, int]]] = []
    for first in args.ranges:
        seeds = range(first, first + args.count)
        for draw in args.draw or (1, 3):
            print(f"seeds {first:,} to {first + args.count - 1:,}, draw {draw}")
            solvers: dict[str, Callable[[Klondike, float], Result]] = {}
            closers: dict[str, Callable[[], None]] = {}
            replayers: dict[str, Callable[[], int]] = {}
            if patience_driver:
                driven = PatienceDriver(patience_driver)
                solvers["patience"] = driven
                closers["patience"] = driven.close
                replayers["patience"] = driven.replay
            if "patience-py" in ours:
                called = Patience()
                solvers["patience-py"] = called
                replayers["patience-py"] = called.replay
            for name in peers:
                if name == "lonelybot":
                    lonelybot = Lonelybot(driver)
                    solvers[name] = lonelybot
                    closers[name] = lonelybot.close
                else:
                    solvers[name] = run_pyksolve
            runs = {name: Run() for name in solvers}
            order = list(solvers)
            for seed in seeds:
                game = Klondike.from_seed(seed, {"draw": draw})
                for name in order:
                    cpu = time.thread_time()
                    runs[name].results.append(solvers[name](game, args.time_limit))
                    runs[name].cpu += time.thread_time() - cpu
                order.reverse()
            for name, close in closers.items():
                before = children_cpu()
                close()
                runs[name].cpu = children_cpu() - before
            for name, run in runs.items():
                summary(name, draw, run)
            for name, replay in replayers.items():
                print(f"  {name}'s certificates replayed: {replay()}")
            for our_name in ours:
                for name in peers:
                    row = compare(seeds, our_name, runs[our_name], name, runs[name])
                    table.append((first, draw, *row))
    if table:
        print("\npeer / ours (above 1: ours faster); undecided ours / peer")
        print(
            f"{'seeds':>15} {'draw':>4} {'ours':<11} {'peer':<10} {'median':>7} {'p90':>7}"
            f" {'total':>7}  undecided"
        )
        for first, draw, our_name, name, ratios, (ours_unknown, theirs_unknown) in table:
            print(
                f"{first:>15,} {draw:>4} {our_name:<11} {name:<10} {ratios['median']:>6.2f}x"
                f" {ratios['p90']:>6.2f}x {ratios['total']:>6.2f}x"
                f"  {ours_unknown} / {theirs_unknown}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
