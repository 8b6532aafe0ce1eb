"""The reference players on random deals (not only certified ones), beside published figures.

    .venv/bin/python benchmarks/players.py klondike --draw 3 --count 2000 [--players planner]
    .venv/bin/python benchmarks/players.py klondike --draw 3 --information known-stock
    .venv/bin/python benchmarks/players.py golf --wrap --count 2000

Plays each player once on each of the seeded deals ``--first`` .. ``--first + --count - 1``
(playout seed = deal seed), on all cores, and prints the share won with its 95% Wilson
interval and the seconds a deal. ``--information`` is the model the players play under:
``person`` (the default: what a person sees) or, for Klondike, ``known-stock`` (the hand's
order known from the start). The published strong Klondike draw-3 players both know the
hand's order, so they are measured against ``known-stock``: lonelybot's player, 47.58% ±
0.80% of 15,024 deals at about 3 s a deal (its README), and Bjarnason, Fern and
Tadepalli's (ICAPS 2009), 36.97% for their best (ensemble UCT).
"""

from __future__ import annotations

import argparse
import sys
import time

from common import game_and_variant  # benchmarks/common.py, beside this script
from patience import rating
from patience.batch import run, wilson_interval
from patience.games import GAMES, variant_key

PUBLISHED = {
    ("klondike", '{"draw": 3}', "known-stock"): "lonelybot 47.58% ± 0.80% (15,024 deals, "
    "about 3 s a deal); Bjarnason, Fern and Tadepalli 36.97% (ensemble UCT)",
}


def _play(task: tuple[str, dict[str, object], str, int, str]) -> tuple[bool, float]:
    name, variant, player, seed, information = task
    game = GAMES[name].from_seed(seed, variant)
    started = time.perf_counter()
    won = rating.playout(game, player, seed, information=information).won
    return won, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--jobs", type=int)
    parser.add_argument("--players", help="comma-separated (default: the whole ladder)")
    parser.add_argument(
        "--information", default="person", help="person (default) or, for Klondike, known-stock"
    )
    known, variant = game_and_variant(parser, rating.PLAYER_GAMES)
    if known.information not in rating.INFORMATION[known.game]:
        parser.error(f"{known.game} players play under {', '.join(rating.INFORMATION[known.game])}")
    cls = GAMES[known.game]
    ladder = known.players.split(",") if known.players else list(rating.players(known.game))
    seeds = range(known.first, known.first + known.count)
    print(f"{cls.title} {variant}, seeds {known.first}-{seeds[-1]}, {known.information}")
    for player in ladder:
        started = time.perf_counter()
        tasks = [(known.game, variant, player, seed, known.information) for seed in seeds]
        results = list(run(_play, tasks, jobs=known.jobs))
        wall = time.perf_counter() - started
        wins = sum(won for won, _ in results)
        low, high = wilson_interval(wins, len(results))
        per_deal = sum(seconds for _, seconds in results) / len(results)
        print(
            f"{player:>10}: {wins}/{len(results)} won, {wins / len(results):.2%} "
            f"[{low:.2%}, {high:.2%}]; {per_deal:.3f} s a deal on one core ({wall:.0f} s wall)"
        )
    published = PUBLISHED.get((known.game, variant_key(variant), known.information))
    if published:
        print(f"published: {published}")


if __name__ == "__main__":
    sys.exit(main())
