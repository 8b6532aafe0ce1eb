"""The catalog of certified winnable deals, dealt to timed games.

A timed game promises a winnable deal. The server can certify one as the game starts
(:data:`.store.CERTIFIED_AT_START`), but that keeps the player waiting: Klondike's, Golf's
and Solitaire Expert's solvers win most random deals in milliseconds, Kansas's takes about
a second on average to find a deal it wins. This catalog, filled ahead of time by
``patience deals generate GAME --count N``, is dealt first in every game.
Every seed in it was solved and its certificate replayed by the engine of record
(:func:`patience.solve.solve`); each is dealt to one game at most.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, and_, case, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from patience.batch import run, solve_seeds
from patience.catalog import CatalogDeal, catalog_deal, seed_stream
from patience.games import game_class, variant_key

from .db import deals

__all__ = [
    "Certified",
    "Filled",
    "Generated",
    "Taken",
    "Tiers",
    "add",
    "counts",
    "export",
    "fill",
    "generate",
    "stored",
    "take",
    "tier_of_seed",
    "unused",
    "variant_key",
]


@dataclass(frozen=True, slots=True)
class Filled:
    """What :func:`fill` did: deals added, seeds tried, and the deals unused after it."""

    added: int
    tried: int
    unused: int


def fill(
    engine: Engine,
    name: str,
    variant: Mapping[str, Any],
    count: int,
    *,
    time_limit: float = 2.0,
    jobs: int | None = None,
    max_tries: int | None = None,
    random_seed: Callable[[], int] = lambda: secrets.randbits(63),
) -> Filled:
    """Add ``count`` certified winnable deals of ``name`` to the catalog, solving random
    seeds on ``jobs`` processes with ``time_limit`` seconds each; stops early after
    ``max_tries`` seeds (by default 1,000 times ``count``). The solver looks for wins only
    (``wins_only`` of :func:`patience.solve.solve`). Raises a
    :class:`patience.errors.PatienceError` for an unknown game or a bad variant."""
    checked = game_class(name).check_variant(dict(variant))
    key = variant_key(checked)
    limit = max_tries if max_tries is not None else 1000 * count
    added = tried = 0
    while added < count and tried < limit:
        batch = [random_seed() for _ in range(min(limit - tried, max(8, 4 * (count - added))))]
        tried += len(batch)
        rows = [
            {
                "game": name,
                "variant": key,
                "seed": str(result.seed),
                "nodes": result.nodes,
                "seconds": result.seconds,
                "moves": result.moves,
                "added_at": time.time(),
            }
            for result in solve_seeds(
                name, checked, batch, time_limit=time_limit, jobs=jobs, wins_only=True
            )
            if result.outcome == "solved"
        ][: count - added]
        if rows:
            with engine.begin() as connection:
                connection.execute(insert(deals), rows)
            added += len(rows)
    with engine.connect() as connection:
        return Filled(added, tried, unused(connection, name, checked))


@dataclass(frozen=True, slots=True)
class Generated:
    """What :func:`generate` did: deals added now, deals of the stream found stored by an
    earlier run of the job, and seeds of the stream certified or looked at."""

    added: int
    present: int
    tried: int


def _catalog_task(task: tuple[str, dict[str, Any], int]) -> CatalogDeal | None:
    name, variant, seed = task
    return catalog_deal(name, variant, seed)


def generate(
    engine: Engine,
    name: str,
    variant: Mapping[str, Any],
    count: int,
    *,
    stream: int = 0,
    jobs: int | None = None,
    scheduler: str | None = None,
    chunk: int = 64,
    progress: Callable[[int, int], None] | None = None,
) -> Generated:
    """Make the catalog hold the first ``count`` deals of ``stream`` (:func:`seed_stream`)
    that the solver certifies, each rated (:func:`patience.catalog.catalog_deal`).

    Seeds are taken in chunks of ``chunk``, in stream order; a chunk's seeds already in the
    catalog (an earlier run of the same job, killed) are counted and not solved again, the
    others are certified and rated on ``jobs`` local processes or on the Dask cluster at
    ``scheduler``, and the chunk's new deals are written in one transaction as soon as it is
    done. Certifying and rating depend on node budgets only, so a job killed at any moment
    and run again ends with exactly the catalog of an uninterrupted run. ``progress`` is
    called with ``(deals so far, count)`` after each chunk."""
    checked = game_class(name).check_variant(dict(variant))
    seeds = seed_stream(name, checked, stream)
    have = added = present = tried = 0
    while have < count:
        batch = [next(seeds) for _ in range(chunk)]
        with engine.connect() as connection:
            done = stored(connection, name, checked, batch)
        todo = [seed for seed in batch if seed not in done]
        found = {
            deal.seed: deal
            for deal in run(
                _catalog_task, [(name, checked, s) for s in todo], jobs=jobs, scheduler=scheduler
            )
            if deal is not None
        }
        rows = []
        for seed in batch:
            if have >= count:
                break
            if seed in done:
                have += 1
                present += 1
            elif seed in found:
                have += 1
                rows.append(found[seed])
            tried += 1
        if rows:
            at = time.time()
            with engine.begin() as connection:
                for deal in rows:
                    certified = Certified(
                        deal.seed, deal.nodes, deal.seconds, deal.moves, deal.rating
                    )
                    added += add(connection, name, checked, certified, at=at)
        if progress is not None:
            progress(have, count)
    return Generated(added, present, tried)


@dataclass(frozen=True, slots=True)
class Certified:
    """A seed the solver won, its certificate replayed, with the work it took and, where
    the game has reference players, its difficulty rating: what the catalog keeps of a deal
    (plain values, small enough to come back from a solver process)."""

    seed: int
    nodes: int
    seconds: float
    moves: int  # the certificate's length
    rating: dict[str, Any] | None = None  # patience.rating.Rating.to_json()


def _rating_columns(rating: Mapping[str, Any] | None) -> dict[str, Any]:
    if rating is None:
        return {"tier": None, "score": None, "rating": None, "rating_version": None}
    return {
        "tier": rating["tier"],
        "score": rating["score"],
        "rating": json.dumps(rating, sort_keys=True),
        "rating_version": rating["version"],
    }


def add(
    connection: Connection,
    name: str,
    variant: Mapping[str, Any],
    certified: Certified,
    *,
    at: float,
) -> bool:
    """Add the ``certified`` deal of ``name`` and ``variant`` (checked) to the catalog;
    False when it is there already."""
    try:
        with connection.begin_nested():
            connection.execute(
                insert(deals).values(
                    game=name,
                    variant=variant_key(variant),
                    seed=str(certified.seed),
                    nodes=certified.nodes,
                    seconds=certified.seconds,
                    moves=certified.moves,
                    added_at=at,
                    **_rating_columns(certified.rating),
                )
            )
    except IntegrityError:
        return False
    return True


Tiers = tuple[int, int]
"""A range of difficulty tiers, both ends included: ``(1, 3)`` is Easy."""


def unused(
    connection: Connection, name: str, variant: Mapping[str, Any], tiers: Tiers | None = None
) -> int:
    """How many deals of ``name`` and ``variant`` (checked), of a tier in ``tiers`` if given,
    the catalog has not dealt yet."""
    query = select(func.count()).where(_unused(name, variant, tiers))
    return int(connection.execute(query).scalar_one())


@dataclass(frozen=True, slots=True)
class Taken:
    """A deal claimed from the catalog: its seed, and its tier when it was rated."""

    seed: int
    tier: int | None


def take(
    connection: Connection,
    name: str,
    variant: Mapping[str, Any],
    session_id: str,
    tiers: Tiers | None = None,
) -> Taken | None:
    """Deal the catalog's oldest unused seed of ``name`` and ``variant`` (checked), of a
    tier in ``tiers`` if given, to the game ``session_id``, in the caller's transaction; None
    when there is none. The update claims the row only while it is still unused, so two
    games never get the same deal."""
    while True:
        row = connection.execute(
            select(deals.c.id, deals.c.seed, deals.c.tier)
            .where(_unused(name, variant, tiers))
            .order_by(deals.c.id)
            .limit(1)
            # PostgreSQL: a row another server is claiming is passed over, not waited for
            # (SQLite has one writer at a time and renders nothing for this).
            .with_for_update(skip_locked=True)
        ).first()
        if row is None:
            return None
        claimed = connection.execute(
            update(deals)
            .where(and_(deals.c.id == row.id, deals.c.session_id.is_(None)))
            .values(session_id=session_id)
        )
        if claimed.rowcount == 1:
            return Taken(int(row.seed), row.tier)


def _unused(name: str, variant: Mapping[str, Any], tiers: Tiers | None = None) -> Any:
    condition = and_(
        deals.c.game == name,
        deals.c.variant == variant_key(variant),
        deals.c.session_id.is_(None),
    )
    if tiers is not None:
        condition = and_(condition, deals.c.tier.between(*tiers))
    return condition


def tier_of_seed(
    connection: Connection, name: str, variant: Mapping[str, Any], seed: int
) -> int | None:
    """The tier of the catalog's deal ``seed`` of ``name`` and ``variant`` (checked), or None
    when the catalog does not hold it rated."""
    query = select(deals.c.tier).where(
        and_(
            deals.c.game == name,
            deals.c.variant == variant_key(variant),
            deals.c.seed == str(seed),
        )
    )
    tier = connection.execute(query).scalar()
    return None if tier is None else int(tier)


def stored(
    connection: Connection, name: str, variant: Mapping[str, Any], seeds: list[int]
) -> set[int]:
    """Which of ``seeds`` the catalog holds for ``name`` and ``variant`` (checked)."""
    if not seeds:
        return set()
    query = select(deals.c.seed).where(
        and_(
            deals.c.game == name,
            deals.c.variant == variant_key(variant),
            deals.c.seed.in_([str(seed) for seed in seeds]),
        )
    )
    return {int(seed) for seed in connection.execute(query).scalars()}


def export(
    connection: Connection, name: str, variant: Mapping[str, Any]
) -> Iterator[dict[str, Any]]:
    """Every catalog deal of ``name`` and ``variant`` (checked), oldest first, as
    ``patience deals export`` prints it: ``seed``, ``tier``, ``score``, ``players`` (name
    to win rate), ``progress`` (name to mean progress: the win rate but in Kansas, the
    share of cards home), ``moves``, ``nodes``, ``version`` (of the rating; None when
    unrated) and whether it was ``dealt``."""
    query = (
        select(deals)
        .where(and_(deals.c.game == name, deals.c.variant == variant_key(variant)))
        .order_by(deals.c.id)
    )
    for row in connection.execute(query):
        rating = json.loads(row.rating) if row.rating else {}
        yield {
            "seed": int(row.seed),
            "tier": row.tier,
            "score": row.score,
            "players": rating.get("players"),
            "progress": rating.get("progress", rating.get("players")),
            "first_moves": rating.get("first_moves"),
            "moves": row.moves,
            "nodes": row.nodes,
            "version": row.rating_version,
            "dealt": row.session_id is not None,
        }


def counts(connection: Connection) -> list[dict[str, Any]]:
    """Deals per game, variant and tier (None: unrated), with how many are unused."""
    unused_count = func.sum(case((deals.c.session_id.is_(None), 1), else_=0))
    query = (
        select(deals.c.game, deals.c.variant, deals.c.tier, func.count(), unused_count)
        .group_by(deals.c.game, deals.c.variant, deals.c.tier)
        .order_by(deals.c.game, deals.c.variant, deals.c.tier)
    )
    return [
        {
            "game": game,
            "variant": json.loads(variant),
            "tier": tier,
            "deals": int(total),
            "unused": int(free or 0),
        }
        for game, variant, tier, total, free in connection.execute(query)
    ]
