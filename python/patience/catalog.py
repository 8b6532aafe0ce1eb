"""Building catalogs of certified, rated deals: what one deal costs and where seeds come from.

:func:`catalog_deal` certifies one seed (the solver looks for a win within a node budget,
the certificate replayed by the engine of record) and rates it
(:func:`patience.rating.rate`) where the game has reference players. Node budgets, never
time limits, decide both, so the same seeds give the same catalog on every machine and in
every run: a job killed and run again ends with exactly the catalog of an uninterrupted
one (``patience deals generate``).

The seeds of deals that players compete on come from the operator's keyed stream
(:mod:`patience.dealkey`), which nobody without the key can predict. The *public* streams
here (:func:`public_seed_stream`: the game, the variant and a stream number fix every seed)
are for research and benchmarks only, where anyone should be able to reproduce a run:
calibrating the tiers, studies, measurements. Their seeds never enter the catalog. The
database side is :mod:`patience.store.catalog`; running many seeds at once is
:mod:`patience.batch`.

>>> one = public_seed_stream("golf", {"wrap": True}, 0)
>>> two = public_seed_stream("golf", {"wrap": True}, 0)
>>> [next(one) for _ in range(3)] == [next(two) for _ in range(3)]
True
>>> deal = catalog_deal("golf", {"wrap": True}, next(one))
>>> deal is None or deal.rating["version"] == 1
True
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from patience.cards import SplitMix64, fnv1a64
from patience.errors import PatienceError
from patience.games import GAMES, game_class
from patience.rating import PLAYER_GAMES, Rating, rate
from patience.ratings.cheap import MODEL, RatingPolicy, rate_for_catalog, rate_many_for_catalog
from patience.solve import solve

__all__ = [
    "CERTIFY_NODES",
    "CatalogDeal",
    "catalog_deal",
    "catalog_deals",
    "public_seed_stream",
    "rated_again",
    "rating_witness",
]

CERTIFY_NODES: Mapping[str, int] = {name: cls.budgets.catalog_nodes for name, cls in GAMES.items()}
"""Nodes the solver may search to certify a catalog deal, by game (a node limit, not a
time limit, so that a catalog is the same on every machine), as each game declares them
(:attr:`Budgets.catalog_nodes <patience.games.Budgets.catalog_nodes>`)."""


def rated_again(
    name: str,
    variant: Mapping[str, object],
    seed: int,
    model: str | None = None,
    version: int | None = None,
    *,
    model_path: str | None = None,
) -> int | None:
    """The tier of the deal of ``seed``, rated again the way a catalog rated it, with
    version ``version`` of the game's rating (the current one when None): in full
    at the catalog's node limit when ``model`` is None, else by the verdict of the rating
    model of version ``model`` (the shipped one, one it replaced, kept retired, or the file
    ``model_path``) on the deal's cheap evidence: what a tournament's check needs, since
    most catalog deals' tiers are a model's. Raises
    :class:`patience.errors.PatienceError` when this patience has no model of that version
    or does not know the rating version, and :class:`patience.rating.NotCertifiedError`
    when the solver does not win the deal within the catalog's node limit."""
    from patience.rating import NotCertifiedError, playouts_of, rating_version

    game = game_class(name).from_seed(seed, dict(variant))
    node_limit = CERTIFY_NODES[name]
    playouts_of(name, version)  # a version the game never had is refused before any work
    if model is None:
        return _rated_in_full(name, variant, seed, version).tier
    if version is not None and version != rating_version(name):
        raise PatienceError(
            f"seed {seed} was rated by rating model {model} of {name}'s rating version "
            f"{version}; this patience's models are of version {rating_version(name)}"
        )
    # the model's verdict alone: no sample, no edge sent to the full ladder (a deal whose
    # tier was the model's was in neither)
    policy = RatingPolicy(
        full_share=0.0,
        edge_margin=0.0,
        model_path=model_path,
        model_version=None if model_path is not None else model,
    )
    found = policy.model(game)
    if found is None or found.version != model:
        have = "no rating model" if found is None else f"rating model {found.version}"
        raise PatienceError(
            f"seed {seed} was rated by rating model {model}, and this patience has {have}"
            " for the game: give the model's file (--model), or use a patience that ships it"
        )
    rating = rate_for_catalog(game, seed, node_limit=node_limit, policy=policy)
    if rating is None:
        raise NotCertifiedError(f"seed {seed}: the solver does not win it within {node_limit}")
    tier = rating["tier"]
    return None if tier is None else int(tier)


WITNESS_SEEDS = range(1, 65)
"""Where a game's reference deal for :func:`rating_witness` is looked for: the first of
these seeds that the catalog's node limit certifies."""


def rating_witness(
    name: str,
    variant: Mapping[str, object],
    seed: int | None = None,
    version: int | None = None,
) -> dict[str, Any]:
    """What this patience's full rating makes of one reference deal of ``name`` and
    ``variant`` (checked), with version ``version`` of the game's rating (the current one
    when None): ``{"seed": "S", "nodes": N, "moves": M, "score": "0.dddddd", "tier": T}``,
    the seed a decimal string and the score six decimals as text, so that the JSON is the
    same bytes in every language. The deal is ``seed``'s, or when None the first seed of
    :data:`WITNESS_SEEDS` that the catalog certifies.

    A tournament's document keeps its creator's witness; a checker computes its own, and
    when the two differ its patience does not rate as the creator's did (a rating depends
    on the solver's search as well as on the rating's version), so its tiers cannot judge
    the document's (docs/fairness.md). Raises :class:`patience.errors.PatienceError` for an
    unknown game or rating version, and :class:`patience.rating.NotCertifiedError` when the
    solver does not win ``seed`` within the catalog's node limit.

    >>> witness = rating_witness("golf", {"wrap": False})
    >>> sorted(witness), witness == rating_witness("golf", {"wrap": False}, int(witness["seed"]))
    (['moves', 'nodes', 'score', 'seed', 'tier'], True)
    """
    cls = game_class(name)
    key = json.dumps(cls.check_variant(dict(variant)), sort_keys=True)
    return dict(_witness(name, key, seed, version))


@functools.lru_cache(maxsize=64)
def _witness(
    name: str, variant_json: str, seed: int | None, version: int | None
) -> tuple[tuple[str, Any], ...]:
    """:func:`rating_witness`, remembered: a deal's full rating costs up to a second or
    two, and every tournament of the game and variant a process makes needs the same one."""
    from patience.rating import NotCertifiedError, playouts_of

    variant = json.loads(variant_json)
    playouts_of(name, version)  # a version the game never had is refused before any work
    candidates = WITNESS_SEEDS if seed is None else (seed,)
    for candidate in candidates:
        try:
            rating = _rated_in_full(name, variant, candidate, version)
        except NotCertifiedError:
            if seed is not None:
                raise
            continue
        return (
            ("seed", str(candidate)),
            ("nodes", rating.nodes),
            ("moves", rating.moves),
            ("score", f"{rating.score:.6f}"),
            ("tier", rating.tier),
        )
    raise NotCertifiedError(
        f"no seed of {WITNESS_SEEDS.start} to {WITNESS_SEEDS.stop - 1} is certified within "
        f"{CERTIFY_NODES[name]} nodes"
    )


def _rated_in_full(
    name: str, variant: Mapping[str, object], seed: int, version: int | None
) -> Rating:
    """The deal of ``seed`` rated in full as the catalog rates it (certified within
    :data:`CERTIFY_NODES`), with version ``version`` of the game's rating."""
    game = game_class(name).from_seed(seed, dict(variant))
    return rate(game, seed=seed, node_limit=CERTIFY_NODES[name], version=version)


def public_seed_stream(name: str, variant: Mapping[str, object], stream: int) -> Iterator[int]:
    """The seeds of public stream ``stream`` for ``name`` and ``variant``: SplitMix64 from
    the FNV-1a hash of the game and variant, mixed with the stream number; 63-bit seeds.

    For research and benchmarks only: anyone can compute these seeds (and SplitMix64's
    output gives its state away, so one seed gives the next), so a deal a player competes
    on never comes from here (:mod:`patience.dealkey` makes those)."""
    key = json.dumps({"game": name, "variant": dict(variant)}, sort_keys=True)
    rng = SplitMix64(fnv1a64(f"patience-catalog:{key}".encode()) ^ stream)
    while True:
        yield rng.next() >> 1


@dataclass(frozen=True, slots=True)
class CatalogDeal:
    """A certified deal as the catalog keeps it (plain values, to cross processes)."""

    seed: int
    nodes: int
    seconds: float
    moves: int
    rating: dict[str, Any] | None


def catalog_deal(
    name: str,
    variant: Mapping[str, object],
    seed: int,
    *,
    node_limit: int | None = None,
    policy: RatingPolicy = MODEL,
) -> CatalogDeal | None:
    """Certify the deal of ``seed`` and, where the game has reference players, rate it as
    ``policy`` says (:mod:`patience.ratings.cheap`: by default the rating model, the full
    ladder on a sample and near tiers' edges); None when the solver does not win it within
    ``node_limit`` nodes (by default :data:`CERTIFY_NODES`)."""
    limit = node_limit or CERTIFY_NODES[name]
    game = game_class(name).from_seed(seed, dict(variant))
    if name in PLAYER_GAMES:
        # ratings at catalog scale: patience.ratings.cheap decides cheap or full
        rating = rate_for_catalog(game, seed, node_limit=limit, policy=policy)
        if rating is None:
            return None
        return CatalogDeal(seed, rating["nodes"], 0.0, rating["moves"], rating)
    result = solve(game, time_limit=600.0, node_limit=limit, wins_only=True)
    if result.outcome != "solved":
        return None
    return CatalogDeal(seed, result.nodes, result.seconds, len(result.moves), None)


def catalog_deals(
    name: str,
    variant: Mapping[str, object],
    seeds: Sequence[int],
    *,
    node_limit: int | None = None,
    policy: RatingPolicy = MODEL,
) -> list[CatalogDeal | None]:
    """:func:`catalog_deal` for each of ``seeds``, the same deals, made together: where
    the game and variant have a rating model, one call into the native core certifies the
    deals and gathers their cheap evidence and one call into the model rates them
    (:func:`patience.ratings.cheap.rate_many_for_catalog`), for a catalog job's chunk of
    seeds at a fraction of the cost of one deal at a time."""
    limit = node_limit or CERTIFY_NODES[name]
    cls = game_class(name)
    first = cls.from_seed(seeds[0], dict(variant)) if seeds else None
    if name not in PLAYER_GAMES or first is None or policy.model(first) is None:
        return [
            catalog_deal(name, variant, seed, node_limit=limit, policy=policy) for seed in seeds
        ]
    games = [cls.from_seed(seed, dict(variant)) for seed in seeds]
    ratings = rate_many_for_catalog(games, seeds, node_limit=limit, policy=policy)
    return [
        None if rating is None else CatalogDeal(seed, rating["nodes"], 0.0, rating["moves"], rating)
        for seed, rating in zip(seeds, ratings, strict=True)
    ]
