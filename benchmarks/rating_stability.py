"""How many playouts of a player does a stable rating need? Two ratings of the same deals,
for several playout counts at once.

    .venv/bin/python benchmarks/rating_stability.py klondike --draw 3 \
        --seeds benchmarks/rating-training/klondike-draw-3-study-1000.jsonl \
        --player hindsight --counts 8,10,12,16

Takes the deals of ``--seeds`` (a JSON-lines file whose lines each hold a deal's ``seed``,
such as a rating study's file: certified deals of the study stream) or, without it, the
first ``--count`` certified deals of the study stream, and rates each twice as
:func:`patience.rating.rate` does, with playout seeds 0 and 1, but with ``--player``
playing as many games as the largest of ``--counts``. A rating's playout seeds for a count
are the first ones of its seeds for any larger count (:func:`patience.rating._seeds`), so
the same games give the ratings of every count: each is exactly the rating that count of
playouts would give. For each count it prints the agreement of the two ratings (Spearman
on the scores, and, where the variant has a calibration, the tiers by the cuts of the
deciles of the first rating's scores over these deals, as ``deals calibrate`` makes
them) and the CPU time the player's playouts cost a rating. ``--save FILE`` writes each
deal's evidence (the solver's figures and every playout's result), a JSON line a deal.
"""

from __future__ import annotations

import argparse
import bisect
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from common import game_and_variant  # benchmarks/common.py, beside this script
from patience import _core
from patience.batch import run
from patience.catalog import public_seed_stream
from patience.games import GAMES, game_class
from patience.rating import (
    MAX_MOVES,
    _seeds,
    _winning_first_moves,
    decile_cuts,
    difficulty_score,
    playouts_of,
    rated_players,
)
from patience.ratings.fit import agreement
from patience.solve import solve

STUDY_STREAM = 2_000_000


def _deal(task: tuple[str, dict[str, object], int, str, int]) -> dict[str, Any] | None:
    """One deal's evidence: the solver's, and every rated player's playout results for
    both ratings (``--player`` as many as the largest count)."""
    name, variant, seed, player, most = task
    game = game_class(name).from_seed(seed, dict(variant))
    certified = solve(game, time_limit=60.0, node_limit=2_000_000, wins_only=True)
    if certified.outcome != "solved":
        return None
    position = game.native_position()
    counts = dict(playouts_of(name)) | {player: most}
    results: list[dict[str, list[float]]] = []
    spent = 0.0
    for playout_seed in (0, 1):
        ours: dict[str, list[float]] = {}
        for index, rated in enumerate(rated_players(name)):
            started = time.process_time()
            seeds = _seeds(playout_seed, index, counts[rated])
            ours[rated] = list(_core.results(name, position, rated, seeds, MAX_MOVES))
            if rated == player:
                spent += time.process_time() - started
        results.append(ours)
    return {
        "seed": seed,
        "nodes": certified.nodes,
        "first_moves": _winning_first_moves(game),
        "results": results,
        "player_seconds": spent / (2 * most),
    }


def _score(deal: dict[str, Any], rating: int, player: str, count: int) -> float:
    progress = {
        name: statistics.fmean(games[:count] if name == player else games)
        for name, games in deal["results"][rating].items()
    }
    return difficulty_score(progress, deal["first_moves"], deal["nodes"])


def _tiers(scores: list[float], cuts: list[float]) -> list[int]:
    """Each score's tier by ``cuts``, as :func:`patience.rating.tier_of` places it."""
    return [1 + bisect.bisect_right(cuts, score) for score in scores]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=Path, help="a JSON-lines file of deals' seeds")
    parser.add_argument("--count", type=int, default=1000, help="deals (without --seeds)")
    parser.add_argument("--player", required=True, help="the player whose playouts vary")
    parser.add_argument("--counts", default="8,12", help="playout counts, comma separated")
    parser.add_argument("--jobs", type=int)
    parser.add_argument("--save", type=Path, help="also write each deal's evidence here")
    known, variant = game_and_variant(parser, sorted(GAMES))
    counts = sorted({int(part) for part in known.counts.split(",")})
    if known.player not in rated_players(known.game) or counts[0] < 1:
        parser.error(f"--player is one of {', '.join(rated_players(known.game))}; counts >= 1")
    if known.seeds is not None:
        lines = known.seeds.read_text().splitlines()
        seeds = [int(json.loads(line)["seed"]) for line in lines if line.strip()]
    else:
        stream = public_seed_stream(known.game, variant, STUDY_STREAM)
        seeds = [next(stream) for _ in range(known.count)]
    started, cpu = time.perf_counter(), time.process_time()
    tasks = [(known.game, variant, seed, known.player, counts[-1]) for seed in seeds]
    deals = [deal for deal in run(_deal, tasks, jobs=known.jobs) if deal is not None]
    wall = time.perf_counter() - started
    if known.save is not None:
        known.save.write_text("".join(json.dumps(deal) + "\n" for deal in deals))
    print(
        f"{GAMES[known.game].title} {variant}: {len(deals)} certified deals of {len(seeds)}, "
        f"rated twice; {known.player} up to {counts[-1]} playouts a rating; {wall:.0f} s "
        f"wall ({time.process_time() - cpu:.0f} s of this process's CPU, workers apart)"
    )
    cost = statistics.fmean(deal["player_seconds"] for deal in deals)
    print(f"{known.player}: {cost * 1000:.0f} CPU ms a game (mean)")
    for count in counts:
        first = [_score(deal, 0, known.player, count) for deal in deals]
        second = [_score(deal, 1, known.player, count) for deal in deals]
        cuts = decile_cuts(first)
        found = agreement(first, second, _tiers(first, cuts), _tiers(second, cuts))
        print(
            f"{count:3} playouts: Spearman {found.spearman:.3f}; same tier {found.same_tier:.1%}, "
            f"within one {found.within_one:.1%}, moved by more than one {found.moved} "
            f"({found.moved / found.deals:.1%}); {known.player} {count * cost:.2f} CPU s a rating"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
