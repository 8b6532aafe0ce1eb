"""patience's Golf solver against Shlomi Fish's black-hole-solver, on the same seeded deals
in one run, both variants.

    BLACK_HOLE_SOLVER_LIB=/path/to/libblack_hole_solver.so.1 \\
        .venv/bin/python benchmarks/golf_solver.py [--count 2000]

The peer is its C library (build it outside the repository with
``benchmarks/setup_black_hole_solver.sh``), called through ctypes in this process, as its
PyPI wrapper calls it: golf mode (7 columns of 5), Queens never on Kings, rank
reachability prune on, ``wrap_ranks`` false for our no-wrap variant and true for the wrap
variant, no iteration limit. Without the library the peer is skipped with a message.
patience's solver is called through ``patience._core`` (no certificate replay, so both
sides time the search alone). Printed per variant: deals decided, winnable share, median,
p90 and max time per deal, the ratio of medians, and every deal where the verdicts differ.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import statistics
import time
from pathlib import Path

from patience import _core
from patience.games.golf import Golf

SUCCESS, NOT_SOLVABLE, OUT_OF_ITERS = 0, 8, 10


class BlackHoleSolver:
    """The peer's C API (black_hole_solver.h), one solver instance reused across deals."""

    def __init__(self, path: str) -> None:
        lib = ctypes.CDLL(path)
        pointer = ctypes.c_void_p
        lib.black_hole_solver_create.argtypes = [ctypes.POINTER(pointer)]
        for name in (
            "black_hole_solver_config_setup",
            "black_hole_solver_setup",
            "black_hole_solver_run",
            "black_hole_solver_recycle",
        ):
            getattr(lib, name).argtypes = [pointer]
        for name in (
            "black_hole_solver_enable_wrap_ranks",
            "black_hole_solver_enable_place_queens_on_kings",
            "black_hole_solver_enable_rank_reachability_prune",
        ):
            getattr(lib, name).argtypes = [pointer, ctypes.c_bool]
        lib.black_hole_solver_read_board.argtypes = [
            pointer,
            ctypes.c_char_p,
            ctypes.POINTER(ctypes.c_int),
            ctypes.c_uint,
            ctypes.c_uint,
            ctypes.c_uint,
        ]
        lib.black_hole_solver_get_iterations_num.argtypes = [pointer]
        lib.black_hole_solver_get_iterations_num.restype = ctypes.c_ulong
        self.lib = lib
        self.user = pointer()
        if lib.black_hole_solver_create(ctypes.byref(self.user)) != 0:
            raise RuntimeError("black_hole_solver_create failed")

    def solve(self, board: str, wrap: bool) -> tuple[bool, float]:
        """(winnable, seconds) for one board in the peer's text format."""
        lib, user = self.lib, self.user
        error_line = ctypes.c_int()
        started = time.perf_counter()
        lib.black_hole_solver_enable_rank_reachability_prune(user, True)
        lib.black_hole_solver_enable_wrap_ranks(user, wrap)
        lib.black_hole_solver_enable_place_queens_on_kings(user, False)
        lib.black_hole_solver_config_setup(user)
        if lib.black_hole_solver_read_board(
            user, board.encode(), ctypes.byref(error_line), 7, 5, 3
        ):
            raise ValueError(f"the peer refused the board (line {error_line.value}):\n{board}")
        lib.black_hole_solver_setup(user)
        result = lib.black_hole_solver_run(user)
        seconds = time.perf_counter() - started
        lib.black_hole_solver_recycle(user)
        if result not in (SUCCESS, NOT_SOLVABLE):
            raise RuntimeError(f"the peer answered {result}")
        return result == SUCCESS, seconds


def _card(card: object) -> str:
    text = str(card)
    return text[:-1] + text[-1].upper()


def board_of(game: Golf) -> str:
    """The deal in the peer's format: the talon (next card first), the waste's card as the
    foundation, then the seven columns, first-dealt card first."""
    piles = game.piles()
    lines = [
        "Talon: " + " ".join(_card(card) for card in piles["stock"]),
        "Foundations: " + _card(piles["waste"][-1]),
    ]
    lines += [" ".join(_card(card) for card in piles[f"t{k}"]) for k in range(1, 8)]
    return "\n".join(lines) + "\n"


def _summary(name: str, times: list[float], won: int, decided: int) -> str:
    ms = sorted(t * 1000 for t in times)
    p90 = ms[min(len(ms) - 1, int(0.9 * len(ms)))]
    return (
        f"  {name:<18} decided {decided}/{len(ms)}, winnable {won / max(decided, 1):.2%}, "
        f"median {statistics.median(ms):.3f} ms, p90 {p90:.3f} ms, max {ms[-1]:.3f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=2000, help="seeded deals per variant")
    args = parser.parse_args()
    path = os.environ.get("BLACK_HOLE_SOLVER_LIB")
    peer = None
    if path and Path(path).exists():
        peer = BlackHoleSolver(path)
    else:
        print(
            "black-hole-solver: skipped (set BLACK_HOLE_SOLVER_LIB to its library; build it "
            "with benchmarks/setup_black_hole_solver.sh)"
        )
    for wrap in (False, True):
        ours: list[float] = []
        theirs: list[float] = []
        our_won = their_won = our_decided = 0
        differ = []
        for seed in range(args.count):
            game = Golf.from_seed(seed, {"wrap": wrap})
            started = time.perf_counter()
            outcome = _core.solve(
                "golf", game.native_position(), max_nodes=10**12, max_seconds=600, max_states=1
            )[0]
            ours.append(time.perf_counter() - started)
            our_decided += outcome != "unknown"
            our_won += outcome == "solved"
            if peer is not None:
                won, seconds = peer.solve(board_of(game), wrap)
                theirs.append(seconds)
                their_won += won
                if won != (outcome == "solved"):
                    differ.append((seed, outcome, won))
        print(f"Golf, {'wrap' if wrap else 'no wrap'}: {args.count} seeded deals (seeds 0..)")
        print(_summary("patience", ours, our_won, our_decided))
        if peer is not None:
            print(_summary("black-hole-solver", theirs, their_won, len(theirs)))
            ratio = statistics.median(theirs) / statistics.median(ours)
            print(f"  median ratio (black-hole-solver / patience): {ratio:.1f}x")
            print(f"  verdicts that differ: {len(differ)} {differ[:10]}")


if __name__ == "__main__":
    main()
