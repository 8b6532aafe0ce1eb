"""Golf's cheap rating as a catalog job's worker makes it, for counting instructions.

    PYTHONPATH=python valgrind --tool=callgrind .venv/bin/python \\
        benchmarks/cheap_rating_calls.py --wrap --count 200
    PYTHONPATH=python valgrind --tool=callgrind .venv/bin/python \\
        benchmarks/cheap_rating_calls.py --wrap --count 0      # the imports and warm-up alone

Rates the first ``--count`` seeds of public stream 3,000,000 (the catalog benchmark's) in
groups of 64, as a worker of ``catalog.py --build N --chunk 512`` gets them: with the
shipped model alone (:func:`patience.catalog.catalog_deals`, no sample, no edges), or,
with ``--evidence`` (or for a variant without a model), the cheap evidence alone
(:func:`patience.ratings.evidence.gather_many`). The difference between a run's
instructions and those of ``--count 0`` is the deals' cost, which load does not change.
"""

from __future__ import annotations

import argparse
import itertools

from patience.catalog import CERTIFY_NODES, catalog_deals, public_seed_stream
from patience.games import GAMES
from patience.ratings import shipped_model
from patience.ratings.cheap import RatingPolicy
from patience.ratings.evidence import gather_many

STREAM = 3_000_000
GROUP = 64


def main() -> None:
    """Rate the seeds as the command line says and print how many were certified."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wrap", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--evidence", action="store_true", help="the cheap evidence alone")
    args = parser.parse_args()
    variant = {"wrap": args.wrap}
    cls = GAMES["golf"]
    seeds = list(itertools.islice(public_seed_stream("golf", variant, STREAM), args.count))
    policy = RatingPolicy(full_share=0.0, edge_margin=0.0)
    by_model = not args.evidence and shipped_model("golf", variant) is not None
    nodes = CERTIFY_NODES["golf"]

    def certified_of(group: list[int]) -> int:
        if by_model:
            deals = catalog_deals("golf", variant, group, policy=policy)
            return sum(deal is not None for deal in deals)
        games = [cls.from_seed(seed, variant) for seed in group]
        return sum(item.evidence is not None for item in gather_many(games, node_limit=nodes))

    certified_of([1])  # warm: the model loaded and the modules imported, as a worker has them
    certified = sum(certified_of(seeds[at : at + GROUP]) for at in range(0, len(seeds), GROUP))
    print(f"{certified} of {len(seeds)} certified ({'model' if by_model else 'evidence'})")


if __name__ == "__main__":
    main()
