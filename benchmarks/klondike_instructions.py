"""Instructions a Klondike deal costs the solver, deal by deal, counted by valgrind's callgrind.

Instruction counts do not move with the machine's load, so this is the measure of the
solver's fixed cost that a busy machine leaves readable (timings are taken by
``benchmarks/klondike_solver.py`` on a quiet machine). Two measures, each over the deals of
seeds ``FIRST .. FIRST + COUNT`` at a node budget (20,000 by default: runs repeat, and the
deals over it are past the p90):

- ``core``: the Rust search alone (``examples/klondike_instructions.rs``, each deal in a
  function of its own);
- ``python``: the call ``patience._core.solve`` from Python, the position tuple built
  beforehand (its conversion, the search, the certificate and the list of names).

Each deal's solve is one callgrind dump (``--toggle-collect`` and ``--dump-after`` on the
function), so nothing between two deals is counted. Usage::

    PYTHONPATH=python .venv/bin/python benchmarks/klondike_instructions.py \\
        --draw 3 --first 5000 --count 200 [--python] [--nodes 20000]

The core binary is built first with ``cargo build --release -p patience-core --example
klondike_instructions`` (``--core PATH`` measures another build of it, for instance one kept
from before a change); the Python measure uses the native module on ``PYTHONPATH``.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORE = ROOT / "target" / "release" / "examples" / "klondike_instructions"


def dumps(directory: Path) -> list[int]:
    """Each dump's instruction count (``summary`` or ``totals`` line), in dump order."""
    counts: list[tuple[int, int]] = []
    for path in directory.glob("callgrind.out.*"):
        match = re.search(r"\.\d+\.(\d+)$", path.name)
        if match is None:
            continue
        text = path.read_text()
        found = re.search(r"^(?:summary|totals):\s+(\d+)", text, re.MULTILINE)
        if found is not None:
            counts.append((int(match.group(1)), int(found.group(1))))
    return [count for _, count in sorted(counts)]


def child(draw: int, first: int, count: int, nodes: int) -> None:
    """The Python side under valgrind: build every position, then solve each in turn."""
    from patience import _core
    from patience.games.klondike import Klondike

    positions = [
        Klondike.from_seed(seed, {"draw": draw}).native_position()
        for seed in range(first, first + count)
    ]
    for position in positions:
        _core.solve("klondike", position, max_nodes=nodes, max_seconds=1e9, max_states=8_000_000)


def measure(
    draw: int, first: int, count: int, nodes: int, python: bool, core: Path = CORE
) -> list[int]:
    """Each deal's instructions, in seed order (``core``: the example's binary)."""
    with tempfile.TemporaryDirectory() as work:
        directory = Path(work)
        if python:
            function = "_core::__pyfunction_solve"
            command = [sys.executable, __file__, "--child", "--draw", str(draw)]
            command += ["--first", str(first), "--count", str(count), "--nodes", str(nodes)]
        else:
            function = "klondike_instructions::one_deal"
            command = [str(core), str(draw), str(first), str(count), str(nodes)]
        subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--collect-atstart=no",
                f"--toggle-collect={function}",
                f"--dump-after={function}",
                f"--callgrind-out-file={directory}/callgrind.out.%p",
                *command,
            ],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        counts = dumps(directory)
    if len(counts) != count:
        raise SystemExit(f"expected {count} dumps, found {len(counts)}")
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--draw", type=int, default=3, choices=(1, 3))
    parser.add_argument("--first", type=int, default=5000)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--python", action="store_true", help="the Python call, not the core")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--each", action="store_true", help="print each deal's count")
    parser.add_argument(
        "--core", type=Path, default=CORE, help="the klondike_instructions binary to measure"
    )
    args = parser.parse_args()
    if args.child:
        child(args.draw, args.first, args.count, args.nodes)
        return
    if not args.python and not args.core.is_file():
        raise SystemExit(f"no binary at {args.core}: build the example first (see --help)")
    counts = measure(args.draw, args.first, args.count, args.nodes, args.python, args.core)
    if args.each:
        for seed, instructions in zip(
            range(args.first, args.first + args.count), counts, strict=True
        ):
            print(seed, instructions)
    ordered = sorted(counts)
    what = "python _core.solve" if args.python else "core one_deal"
    print(
        f"draw {args.draw}, seeds {args.first}..{args.first + args.count} ({what}, "
        f"{args.nodes} nodes): median {int(statistics.median_low(ordered)):,}, "
        f"p90 {ordered[(len(ordered) - 1) * 9 // 10]:,}, total {sum(ordered):,} instructions"
    )


if __name__ == "__main__":
    main()
