"""patience's FreeCell solver against Shlomi Fish's Freecell Solver (fc-solve), the field's
reference, on the same deals in one run: Microsoft's numbered deals in several ranges and
the project's seeded deals.

    .venv/bin/python benchmarks/freecell_solver.py [--ranges 1-2000,10001-12000,30001-32000]
        [--seeded 1000] [--seconds 10] [--preset lg]

The peer is Debian's ``freecell-solver-bin`` (``apt-get install freecell-solver-bin``;
installed for the benchmark only), whose rules are FreeCell's as here: four free cells,
eight columns built down in alternating colours, runs moved as far as the free cells and
empty columns allow. Its search is a preset (``-l lg``, "looking glass", by default: the
fastest of its presets on these deals, tuned on Microsoft's first 32,000; its default scan
left some deals unsolved for minutes).

Two measures of fc-solve are taken:

- **a process a deal**, the board on its standard input: its verdict, its solution's
  length (its ``-m`` moves: a run moved is one move, every card's move home is one, as in
  patience's notation) and its time; that time includes starting a process, measured
  apart (a board every column of which is one run, solved without search) and printed,
  so the per-deal figures are also given less it;
- **a process a range of Microsoft's deals** (``freecell-solver-range-parallel-solve``,
  which deals them itself): the CPU time of solving the whole range in one process, the
  fairest total.

patience is timed around each native solve (``patience._core.solve``, the GIL released):
wall clock and this process's CPU time. Its certificates are replayed afterwards by the
engine of record (untimed), which also gives the solution's length to the last card home
(the certificate, then the cards the engine plays out by itself once every column is one
run), the unit fc-solve counts in.

Every figure is printed with its ratio (fc-solve / patience: above 1, patience is
faster). Run it on a quiet machine (``when-quiet``); it prints its CPU time by solver.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from patience import _core
from patience.games.freecell import FreeCell
from patience.solve import DEFAULT_MAX_STATES

PEER_ENV = {**os.environ, "FREECELL_SOLVER_QUIET": "1"}


@dataclass
class Runs:
    """One solver's results on one set of deals."""

    verdicts: list[str] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)

    def add(self, verdict: str, wall: float, cpu: float, length: int | None) -> None:
        self.verdicts.append(verdict)
        self.wall.append(wall)
        self.cpu.append(cpu)
        if length is not None:
            self.lengths.append(length)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _card(text: str) -> str:
    return text[:-1] + text[-1].upper()


def board_of(game: FreeCell) -> str:
    """The deal in fc-solve's format: each column a line, its first-dealt card first."""
    piles = game.piles()
    return "\n".join(" ".join(_card(str(c)) for c in piles[f"t{k}"]) for k in range(1, 9)) + "\n"


def run_peer(board: str, seconds: float, preset: Sequence[str]) -> tuple[str, float, float, int]:
    """fc-solve's verdict on ``board`` (solved, gave up or unknown), its wall and CPU
    seconds, and its solution's length (0 unless solved)."""
    started, cpu = time.perf_counter(), _children_cpu()
    try:
        run = subprocess.run(
            ["fc-solve", *preset, "-m", "-"],
            input=board,
            capture_output=True,
            text=True,
            timeout=seconds,
            env=PEER_ENV,
        )
    except subprocess.TimeoutExpired:
        return "unknown", time.perf_counter() - started, _children_cpu() - cpu, 0
    wall, used = time.perf_counter() - started, _children_cpu() - cpu
    if "This game is solveable." in run.stdout:
        length = sum(1 for line in run.stdout.splitlines() if line.startswith("Move "))
        return "solved", wall, used, length
    if "I could not solve this game." in run.stdout:
        return "gave up", wall, used, 0
    tail = (run.stdout + run.stderr)[-2000:]
    raise RuntimeError(f"fc-solve (exit {run.returncode}) answered:\n{tail}\nto\n{board}")


def run_ours(game: FreeCell, seconds: float) -> tuple[str, float, float, int | None]:
    """patience's verdict, wall and CPU seconds of the native solve, and the length of its
    win to the last card home, replayed by the engine of record (untimed)."""
    position = game.native_position()
    started, cpu = time.perf_counter(), time.process_time()
    outcome, moves, _, _, _ = _core.solve(
        "freecell",
        position,
        max_nodes=50_000_000,
        max_seconds=seconds,
        max_states=DEFAULT_MAX_STATES,
    )
    wall, used = time.perf_counter() - started, time.process_time() - cpu
    if outcome != "solved":
        return outcome, wall, used, None
    replay = game.copy()
    length = 0
    for move in moves:
        if replay.is_over():
            break
        played = replay.play(move)
        length += 1 + len(played.auto)
    outcome_after = replay.outcome()
    if outcome_after is None or not outcome_after.won:
        raise AssertionError(f"patience's certificate does not win {game.deal}")
    return outcome, wall, used, length


def _ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _summary(name: str, runs: Runs) -> str:
    counts = {v: runs.verdicts.count(v) for v in sorted(set(runs.verdicts))}
    lengths = (
        f"length median {statistics.median(runs.lengths):g}, max {max(runs.lengths)}"
        if runs.lengths
        else "no wins"
    )
    return (
        f"  {name:<22} {counts}\n"
        f"  {'':<22} wall: median {_ms(runs.wall, 0.5):.3f} ms, p90 {_ms(runs.wall, 0.9):.3f} ms, "
        f"total {sum(runs.wall):.2f} s; CPU total {sum(runs.cpu):.2f} s; {lengths}"
    )


def _ratio(theirs: float, ours: float) -> str:
    return f"{theirs / ours:.2f}x" if ours > 0 else "n/a"


def compare(
    label: str,
    games: list[tuple[int, FreeCell]],
    args: argparse.Namespace,
    startup: float | None,
    preset: Sequence[str],
) -> None:
    ours, theirs = Runs(), Runs()
    contradictions = []
    for number, game in games:
        verdict, wall, cpu, length = run_ours(game, args.seconds)
        ours.add(verdict, wall, cpu, length)
        if startup is not None:
            peer_verdict, peer_wall, peer_cpu, peer_length = run_peer(
                board_of(game), args.seconds, preset
            )
            theirs.add(peer_verdict, peer_wall, peer_cpu, peer_length or None)
            if verdict == "unsolvable" and peer_verdict == "solved":
                contradictions.append(number)
    print(f"{label}: {len(games)} deals, {args.seconds:g} s a deal each")
    print(_summary("patience", ours))
    if startup is None:
        return
    print(_summary(f"fc-solve {' '.join(preset)}", theirs))
    less = [max(0.0, wall - startup) for wall in theirs.wall]
    print(
        f"  {'fc-solve less startup':<22} wall: median {_ms(less, 0.5):.3f} ms, "
        f"p90 {_ms(less, 0.9):.3f} ms, total {sum(less):.2f} s"
    )
    print(
        "  ratios (fc-solve / patience): "
        f"median {_ratio(_ms(less, 0.5), _ms(ours.wall, 0.5))} "
        f"(with its startup {_ratio(_ms(theirs.wall, 0.5), _ms(ours.wall, 0.5))}), "
        f"p90 {_ratio(_ms(less, 0.9), _ms(ours.wall, 0.9))}, "
        f"total {_ratio(sum(less), sum(ours.wall))}"
    )
    if ours.lengths and theirs.lengths:
        print(
            "  solution length (fc-solve / patience): median "
            f"{_ratio(statistics.median(theirs.lengths), statistics.median(ours.lengths))}"
        )
    pairs = list(zip(games, ours.verdicts, theirs.verdicts, strict=True))
    only_ours = [n for (n, _), a, b in pairs if a == "solved" and b != "solved"]
    only_theirs = [n for (n, _), a, b in pairs if a != "solved" and b == "solved"]
    print(f"  won by patience only: {len(only_ours)} {only_ours[:10]}")
    print(f"  won by fc-solve only: {len(only_theirs)} {only_theirs[:10]}")
    print(f"  patience unsolvable, fc-solve solved (a bug in one): {contradictions}")


def range_totals(first: int, last: int, preset: Sequence[str], ours_cpu: float) -> None:
    """fc-solve's CPU time for Microsoft's deals ``first``..``last`` in one process."""
    cpu = _children_cpu()
    started = time.perf_counter()
    subprocess.run(
        ["freecell-solver-range-parallel-solve", str(first), str(last), str(last), *preset],
        capture_output=True,
        check=True,
        env=PEER_ENV,
    )
    used, wall = _children_cpu() - cpu, time.perf_counter() - started
    print(
        f"  deals {first}-{last} in one fc-solve process: CPU {used:.2f} s, wall {wall:.2f} s; "
        f"patience CPU {ours_cpu:.2f} s; ratio {_ratio(used, ours_cpu)}"
    )


def _ranges(text: str) -> list[tuple[int, int]]:
    ranges = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        ranges.append((int(first), int(last or first)))
    return ranges


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--ranges",
        type=_ranges,
        default=_ranges("1-2000,10001-12000,30001-32000"),
        help="ranges of Microsoft's deal numbers (default 1-2000,10001-12000,30001-32000)",
    )
    parser.add_argument("--seeded", type=int, default=1000, help="seeded deals (seeds 0..)")
    parser.add_argument("--seconds", type=float, default=10.0, help="budget a deal, each")
    parser.add_argument("--preset", default="lg", help="fc-solve's preset (default lg)")
    args = parser.parse_args()
    preset = ["-l", args.preset]
    startup = None
    if shutil.which("fc-solve") is None:
        print("fc-solve: skipped (apt-get install freecell-solver-bin)")
    else:
        # a board every column of which is one run: solved with no search, so its time is
        # the process's own (starting, reading the preset, writing 52 moves)
        runs = [
            "KC QH JS TD 9C 8H", "7S 6D 5C 4H 3S 2D AC",
            "KS QD JC TH 9S 8D", "7C 6H 5S 4D 3C 2H AS",
            "KD QC JH TS 9D 8C", "7H 6S 5D 4C 3H 2S AD",
            "KH QS JD TC 9H 8S", "7D 6C 5H 4S 3D 2C AH",
        ]  # fmt: skip
        trivial = "\n".join(runs) + "\n"
        starts = [run_peer(trivial, 10.0, preset)[1] for _ in range(10)]
        startup = statistics.median(starts)
        print(
            f"fc-solve {' '.join(preset)}; a process that solves a board needing no search "
            f"takes {startup * 1000:.1f} ms here"
        )
    for first, last in args.ranges:
        games = [(n, FreeCell.from_microsoft(n)) for n in range(first, last + 1)]
        compare(f"Microsoft deals {first}-{last}", games, args, startup, preset)
        if startup is not None and shutil.which("freecell-solver-range-parallel-solve"):
            # patience's CPU for the range, its own solves only (the replays are untimed)
            ours_cpu = _ours_cpu_of(games, args.seconds)
            range_totals(first, last, preset, ours_cpu)
    if args.seeded:
        games = [(seed, FreeCell.from_seed(seed)) for seed in range(args.seeded)]
        compare(f"Seeded deals 0-{args.seeded - 1}", games, args, startup, preset)


def _ours_cpu_of(games: list[tuple[int, FreeCell]], seconds: float) -> float:
    """patience's CPU time to solve ``games`` once more, solves only, in one loop (what
    fc-solve's range run measures of itself)."""
    cpu = time.process_time()
    for _, game in games:
        _core.solve(
            "freecell",
            game.native_position(),
            max_nodes=50_000_000,
            max_seconds=seconds,
            max_states=DEFAULT_MAX_STATES,
        )
    return time.process_time() - cpu


if __name__ == "__main__":
    main()
