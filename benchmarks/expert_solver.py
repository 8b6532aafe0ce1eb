"""patience's Solitaire Expert solver against Shlomi Fish's Freecell Solver (fc-solve), on
the same seeded deals in one run.

    .venv/bin/python benchmarks/expert_solver.py [--count 200] [--seconds 10]

The peer is Debian's ``freecell-solver-bin`` (``apt-get install freecell-solver-bin``; it
is installed for the benchmark only), run as a process a deal with the game set to
Solitaire Expert's rules: two decks, ten columns, four free cells (the hand, which starts
with the deal's last four cards in it), strings built down in alternate colours, strings of
any length moved as one, only Kings (or strings headed by one) into an empty column. Its
search is the ``-l lg`` preset ("looking glass"): the default scan left deal 1, which
patience wins in 446 nodes, unsolved after 300,000 states. Its time is the process's wall
clock (a few milliseconds of it starting up). Both get ``--seconds`` a deal; fc-solve is
stopped when it runs out. fc-solve answers "solveable" or "could not solve"; the second,
when it came before the time ran out, means its scan ended, which proves the deal lost only
if its preset tries every move, so a deal patience wins and fc-solve could not is not a
contradiction, while a deal patience calls unsolvable and fc-solve wins is a bug in one of
them (patience's certificates are replayed; its losses rest on its complete pass). Without
fc-solve the peer is skipped with a message.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import time

from patience import _core
from patience.games.expert import Expert
from patience.solve import DEFAULT_MAX_STATES

PEER_RULES = [
    "--decks-num",
    "2",
    "--stacks-num",
    "10",
    "--freecells-num",
    "4",
    "--sequences-are-built-by",
    "alternate_color",
    "--sequence-move",
    "unlimited",
    "--empty-stacks-filled-by",
    "kings",
]
PEER_PRESET = ["-l", "lg"]
PEER_OUTPUT = ["-m"]  # the moves only: printing the states of a two-deck win crashed it


def _card(card: object) -> str:
    text = str(card)
    return text[:-1] + text[-1].upper()


def board_of(game: Expert) -> str:
    """The deal in fc-solve's format: the free cells (the hand), then each column, its
    first-dealt card first."""
    piles = game.piles()
    lines = ["Freecells: " + " ".join(_card(card) for card in piles["hand"])]
    lines += [" ".join(_card(card) for card in piles[f"t{k}"]) for k in range(1, 11)]
    return "\n".join(lines) + "\n"


def run_peer(board: str, seconds: float) -> tuple[str, float]:
    """fc-solve's verdict on ``board`` (solved, gave up or unknown) and its wall-clock time."""
    started = time.perf_counter()
    try:
        run = subprocess.run(
            ["fc-solve", *PEER_RULES, *PEER_PRESET, *PEER_OUTPUT, "-"],
            input=board,
            capture_output=True,
            text=True,
            timeout=seconds,
            env={**os.environ, "FREECELL_SOLVER_QUIET": "1"},
        )
    except subprocess.TimeoutExpired:
        return "unknown", time.perf_counter() - started
    elapsed = time.perf_counter() - started
    if "This game is solveable." in run.stdout:
        return "solved", elapsed
    if "I could not solve this game." in run.stdout:
        return "gave up", elapsed
    tail = (run.stdout + run.stderr)[-2000:]
    raise RuntimeError(f"fc-solve (exit {run.returncode}) answered:\n{tail}\nto the board\n{board}")


def _summary(name: str, verdicts: list[str], times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    p90 = ms[min(len(ms) - 1, int(0.9 * len(ms)))]
    counts = {verdict: verdicts.count(verdict) for verdict in sorted(set(verdicts))}
    return (
        f"  {name:<10} {counts}; median {statistics.median(ms):.3f} ms, p90 {p90:.3f} ms, "
        f"max {ms[-1]:.3f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=200, help="seeded deals (seeds 0..)")
    parser.add_argument("--first", type=int, default=0, help="the first seed")
    parser.add_argument("--seconds", type=float, default=10.0, help="budget a deal, each")
    args = parser.parse_args()
    peer = shutil.which("fc-solve") is not None
    if not peer:
        print("fc-solve: skipped (apt-get install freecell-solver-bin)")
    else:
        starts = []
        for _ in range(5):
            started = time.perf_counter()
            subprocess.run(["fc-solve", "--version"], capture_output=True, check=True)
            starts.append(time.perf_counter() - started)
        print(
            f"fc-solve {' '.join(PEER_RULES + PEER_PRESET + PEER_OUTPUT)}; a process started "
            f"and ended (--version) takes {statistics.median(starts) * 1000:.1f} ms here"
        )
    ours: list[str] = []
    our_times: list[float] = []
    theirs: list[str] = []
    their_times: list[float] = []
    contradictions = []
    for seed in range(args.first, args.first + args.count):
        game = Expert.from_seed(seed)
        started = time.perf_counter()
        outcome = _core.solve(
            "expert",
            game.native_position(),
            max_nodes=50_000_000,
            max_seconds=args.seconds,
            max_states=DEFAULT_MAX_STATES,
        )[0]
        ours.append(outcome)
        our_times.append(time.perf_counter() - started)
        if peer:
            verdict, seconds = run_peer(board_of(game), args.seconds)
            theirs.append(verdict)
            their_times.append(seconds)
            if outcome == "unsolvable" and verdict == "solved":
                contradictions.append(seed)
    print(
        f"Solitaire Expert: {args.count} seeded deals from seed {args.first}, "
        f"{args.seconds:g} s a deal each"
    )
    print(_summary("patience", ours, our_times))
    if peer:
        print(_summary("fc-solve", theirs, their_times))
        ratio = statistics.median(their_times) / statistics.median(our_times)
        print(f"  median ratio (fc-solve / patience): {ratio:.1f}x")
        pairs = list(zip(range(args.first, args.first + args.count), ours, theirs, strict=True))
        only_ours = [seed for seed, a, b in pairs if a == "solved" and b != "solved"]
        only_theirs = [seed for seed, a, b in pairs if a != "solved" and b == "solved"]
        gave_up_lost = sum(1 for _, a, b in pairs if a == "unsolvable" and b == "gave up")
        print(f"  won by patience only: {len(only_ours)} {only_ours[:10]}")
        print(f"  won by fc-solve only: {len(only_theirs)} {only_theirs[:10]}")
        print(f"  proved lost by patience, fc-solve gave up: {gave_up_lost}")
        print(
            f"  patience unsolvable, fc-solve solved (a bug in one): {len(contradictions)} "
            f"{contradictions[:10]}"
        )


if __name__ == "__main__":
    main()
