"""The catalog of certified winnable deals, dealt to timed games.

A timed game promises a winnable deal. The server can certify one as the game starts
(:data:`.store.CERTIFIED_AT_START`), but that keeps the player waiting: Klondike's, Golf's
and Solitaire Expert's solvers win most random deals in milliseconds, Kansas's takes about
a second on average to find a deal it wins. This catalog, filled ahead of time by
``patience deals generate GAME --count N``, is dealt first in every game.
Every seed in it was solved and its certificate replayed by the engine of record
(:func:`patience.solve.solve`); each is dealt to one game at most.

Only a seed nobody can predict is dealt: one drawn from the operating system's generator
(``origin`` ``random``: the server's refill, :func:`fill`) or from the deal key's keyed
stream (``key:FINGERPRINT``: :func:`generate`, :mod:`patience.dealkey`). A deal can be
retired (:func:`retire`), and is never dealt after that; the deals made before origins were
recorded were retired by the migration that began recording them.
"""

from __future__ import annotations

import json
import math
import os
import secrets
import time
from collections.abc import Callable, Generator, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Engine,
    and_,
    case,
    false,
    func,
    insert,
    not_,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from patience.batch import Workers, solve_seeds
from patience.catalog import CatalogDeal, catalog_deals
from patience.dealkey import DealKey
from patience.errors import PatienceError
from patience.games import game_class, variant_key
from patience.rating import RATING_VERSIONS
from patience.ratings.cheap import MODEL, RatingPolicy
from patience.ratings.fit import Agreement, agreement

from .db import catalog_jobs, deals, sessions, tournaments

__all__ = [
    "RANDOM",
    "TOURNAMENT_HOLDER",
    "Certified",
    "Filled",
    "Generated",
    "ModelAgreement",
    "Taken",
    "Tiers",
    "add",
    "add_many",
    "counts",
    "export",
    "fill",
    "generate",
    "model_agreement",
    "practice_tier",
    "retire",
    "stored",
    "take",
    "unused",
    "variant_key",
]


RANDOM = "random"
"""The origin of a seed drawn from the operating system's generator."""


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
                "origin": RANDOM,
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
    """What :func:`generate` did: deals added now, deals of the stream made by earlier runs
    of the job, seeds of the stream solved now, and the deals the catalog holds unused."""

    added: int
    present: int
    tried: int
    rerated: int = 0
    """Deals of the game and variant that had been rated with an earlier version of its
    rating and never dealt, rated again now with the current one (their row kept)."""


def _catalog_tasks(
    task: tuple[str, dict[str, Any], list[int], RatingPolicy],
) -> list[CatalogDeal | None]:
    """Certify and rate a group of seeds: one task for many deals, since a deal rated by the
    model costs milliseconds and a task on a Dask cluster about as much."""
    name, variant, seeds, policy = task
    return catalog_deals(name, variant, seeds, policy=policy) if seeds else []


def generate(
    engine: Engine,
    name: str,
    variant: Mapping[str, Any],
    count: int,
    *,
    key: DealKey,
    stream: int = 0,
    jobs: int | None = None,
    scheduler: str | None = None,
    chunk: int = 64,
    progress: Callable[[int, int], None] | None = None,
    policy: RatingPolicy = MODEL,
) -> Generated:
    """Make the catalog hold the first ``count`` deals of ``key``'s stream ``stream``
    (:meth:`patience.dealkey.DealKey.stream`) that the solver certifies, each rated as
    ``policy`` says (:func:`patience.catalog.catalog_deal`; by default with the rating
    model, the full ladder on a sample and near tiers' edges: :mod:`patience.ratings.cheap`).

    The job's place in its stream is kept in the database (``catalog_jobs``), written in
    the same transaction as the deals found, so a job run again goes on where it stopped and
    one already done returns at once. Seeds are solved in chunks of at most ``chunk``
    (fewer when fewer deals are missing), on ``jobs`` local processes or on the Dask
    cluster at ``scheduler``, and taken in stream order. Certifying and rating depend on
    node budgets only, so a job killed at any moment and run again ends with exactly the
    catalog of an uninterrupted run. ``progress`` is called with ``(deals so far, count)``
    at the start and after each deal found. Raises :class:`PatienceError` when another job
    of the same stream moved on meanwhile."""
    checked = game_class(name).check_variant(dict(variant))
    job = and_(
        catalog_jobs.c.game == name,
        catalog_jobs.c.variant == variant_key(checked),
        catalog_jobs.c.origin == key.origin,
        catalog_jobs.c.stream == stream,
    )
    with engine.connect() as connection:
        row = connection.execute(
            select(catalog_jobs.c.next_index, catalog_jobs.c.found).where(job)
        ).first()
    position, have = (0, 0) if row is None else (int(row.next_index), int(row.found))
    present, added, tried = min(have, count), 0, 0
    if progress is not None:
        progress(min(have, count), count)
    workers = 8 if scheduler is not None else (jobs or os.cpu_count() or 1)
    with Workers(jobs=jobs, scheduler=scheduler) as pool:
        rerated = _rerate(engine, name, checked, pool, policy, workers)
        while have < count:
            size = min(chunk, max(2 * workers, math.ceil(1.25 * (count - have))))
            batch = [
                key.seed(name, checked, stream, index) for index in range(position, position + size)
            ]
            with engine.connect() as connection:
                done = stored(connection, name, checked, batch)
            todo = [seed for seed in batch if seed not in done]
            results = _rated(pool, workers, name, checked, todo, policy)
            rows: list[CatalogDeal] = []
            start = position
            for seed in batch:
                position += 1
                if seed in done:
                    have += 1
                else:
                    tried += 1
                    deal = next(results)
                    if deal is None:
                        continue
                    rows.append(deal)
                    have += 1
                if progress is not None:
                    progress(have, count)
                if have >= count:
                    break
            results.close()  # its tasks' futures let go while the workers are there
            at = time.time()
            with engine.begin() as connection:
                certified = [
                    Certified(deal.seed, deal.nodes, deal.seconds, deal.moves, deal.rating)
                    for deal in rows
                ]
                added += add_many(connection, name, checked, certified, at=at, origin=key.origin)
                _advance(connection, job, name, checked, key, stream, start, position, have)
    return Generated(added, present, tried, rerated)


def _rated(
    pool: Workers,
    workers: int,
    name: str,
    variant: dict[str, Any],
    seeds: list[int],
    policy: RatingPolicy,
) -> Generator[CatalogDeal | None]:
    """Each of ``seeds`` certified and rated as ``policy`` says, in order, on ``pool``'s
    ``workers`` in groups of seeds (about four tasks a worker: :func:`_catalog_tasks`)."""
    size = max(1, math.ceil(len(seeds) / (4 * workers)))
    groups = [(name, variant, seeds[i : i + size], policy) for i in range(0, len(seeds), size)]
    return (deal for group in pool.map(_catalog_tasks, groups) for deal in group)


def _rerate(
    engine: Engine,
    name: str,
    variant: Mapping[str, Any],
    pool: Workers,
    policy: RatingPolicy,
    workers: int,
) -> int:
    """Rate again, with the game's current rating, the deals of ``name`` and ``variant``
    that an earlier version rated and nobody was dealt (:func:`_superseded`; a job's own and
    the server's refill's alike): nothing was committed to them, so the row takes the new
    rating in place, as a job run now would have rated the seed. A deal the solver no
    longer certifies within the budget is retired. How many were rated."""
    where = and_(
        deals.c.game == name,
        deals.c.variant == variant_key(variant),
        _undealt(),
        _superseded(),
    )
    with engine.connect() as connection:
        seeds = [
            int(seed) for seed in connection.execute(select(deals.c.seed).where(where)).scalars()
        ]
    if not seeds:
        return 0
    found = list(_rated(pool, workers, name, dict(variant), seeds, policy))
    at = time.time()
    with engine.begin() as connection:
        for seed, deal in zip(seeds, found, strict=True):
            row = and_(where, deals.c.seed == str(seed))
            if deal is None:
                connection.execute(update(deals).where(row).values(retired_at=at))
                continue
            connection.execute(
                update(deals)
                .where(row)
                .values(
                    nodes=deal.nodes,
                    seconds=deal.seconds,
                    moves=deal.moves,
                    **_rating_columns(deal.rating),
                )
            )
    return len(seeds)


def _advance(
    connection: Connection,
    job: Any,
    name: str,
    variant: Mapping[str, Any],
    key: DealKey,
    stream: int,
    was: int,
    position: int,
    found: int,
) -> None:
    """Move a catalog job's place in its stream from ``was`` to ``position``."""
    moved = connection.execute(
        update(catalog_jobs)
        .where(and_(job, catalog_jobs.c.next_index == was))
        .values(next_index=position, found=found)
    ).rowcount
    if moved:
        return
    try:
        with connection.begin_nested():
            connection.execute(
                insert(catalog_jobs).values(
                    game=name,
                    variant=variant_key(variant),
                    origin=key.origin,
                    stream=stream,
                    next_index=position,
                    found=found,
                )
            )
    except IntegrityError:
        raise PatienceError(
            f"another job is generating stream {stream} of this game and variant; "
            "run one job a stream at a time"
        ) from None
    if was != 0:  # pragma: no cover - the row was there when the job began
        raise PatienceError("the catalog job's record went away while it ran")


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
    origin: str,
) -> bool:
    """Add the ``certified`` deal of ``name`` and ``variant`` (checked), whose seed came
    from ``origin`` (:data:`RANDOM` or a deal key's :attr:`~patience.dealkey.DealKey.origin`),
    to the catalog; False when it is there already."""
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
                    origin=origin,
                    **_rating_columns(certified.rating),
                )
            )
    except IntegrityError:
        return False
    return True


def add_many(
    connection: Connection,
    name: str,
    variant: Mapping[str, Any],
    certified: list[Certified],
    *,
    at: float,
    origin: str,
) -> int:
    """:func:`add` for many deals in one statement (a catalog job's chunk); one at a time
    when one of them is there already. How many were added."""
    if not certified:
        return 0
    rows = [
        {
            "game": name,
            "variant": variant_key(variant),
            "seed": str(deal.seed),
            "nodes": deal.nodes,
            "seconds": deal.seconds,
            "moves": deal.moves,
            "added_at": at,
            "origin": origin,
            **_rating_columns(deal.rating),
        }
        for deal in certified
    ]
    try:
        with connection.begin_nested():
            connection.execute(insert(deals), rows)
    except IntegrityError:
        return sum(add(connection, name, variant, deal, at=at, origin=origin) for deal in certified)
    return len(rows)


Tiers = tuple[int, int]
"""A range of difficulty tiers, both ends included: ``(1, 3)`` is Easy."""


def unused(
    connection: Connection, name: str, variant: Mapping[str, Any], tiers: Tiers | None = None
) -> int:
    """How many deals of ``name`` and ``variant`` (checked), of a tier in ``tiers`` if given,
    the catalog may still deal (not dealt, not retired)."""
    query = select(func.count()).where(_unused(name, variant, tiers))
    return int(connection.execute(query).scalar_one())


@dataclass(frozen=True, slots=True)
class Taken:
    """A deal claimed from the catalog: its seed, its tier when it was rated, and the
    version of the rating model whose verdict that tier is (None when the deal was rated
    in full, or not at all): what anyone needs to rate it again the same way."""

    seed: int
    tier: int | None
    model: str | None = None


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
            select(deals.c.id, deals.c.seed, deals.c.tier, deals.c.rating)
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
            return Taken(int(row.seed), row.tier, rated_by_model(row.rating))


def rated_by_model(rating: str | None) -> str | None:
    """The version of the model whose verdict a catalog row's ``rating`` (JSON) is, or None
    when the deal was rated in full (its tier is then the full rating's, whatever model
    chose to send it there) or not rated.

    >>> rated_by_model('{"method": "cheap", "model": "golf-wrap-1", "tier": 4}')
    'golf-wrap-1'
    >>> rated_by_model('{"method": "full", "model": "golf-wrap-1", "tier": 4}') is None
    True
    >>> rated_by_model(None) is None
    True
    """
    if rating is None:
        return None
    data = json.loads(rating)
    if data.get("method") != "cheap":
        return None
    model = data.get("model")
    return str(model) if model is not None else None


def _unused(name: str, variant: Mapping[str, Any], tiers: Tiers | None = None) -> Any:
    condition = and_(deals.c.game == name, deals.c.variant == variant_key(variant), _unused_any())
    if tiers is not None:
        condition = and_(condition, deals.c.tier.between(*tiers))
    return condition


def practice_tier(
    connection: Connection,
    name: str,
    variant: Mapping[str, Any],
    seed: int,
    game_id: str,
    now: float,
) -> int | None:
    """The tier to show for a practice game ``game_id`` dealt from chosen ``seed``, in the
    caller's transaction: the catalog's tier of that deal once its seed is public (dealt to a
    practice game, or to a game that is over and not sealed, or to a tournament that has
    closed), else None. A
    deal the catalog has not dealt becomes this game's, so that a seed played in practice
    is never dealt competitively afterwards; the answer is the same whether or not the seed
    was in the catalog, so practice tells nobody which seeds are."""
    match = and_(
        deals.c.game == name, deals.c.variant == variant_key(variant), deals.c.seed == str(seed)
    )
    connection.execute(
        update(deals).where(and_(match, deals.c.session_id.is_(None))).values(session_id=game_id)
    )
    row = connection.execute(select(deals.c.tier, deals.c.session_id).where(match)).first()
    if row is None or row.tier is None or row.session_id == game_id:
        return None
    holder = str(row.session_id)
    if holder.startswith(TOURNAMENT_HOLDER):
        closes = connection.execute(
            select(tournaments.c.closes_at).where(
                tournaments.c.id == holder.removeprefix(TOURNAMENT_HOLDER)
            )
        ).scalar()
        public = closes is not None and closes <= now
    else:
        game = connection.execute(
            select(sessions.c.mode, sessions.c.ended_at, sessions.c.sealed_until).where(
                sessions.c.id == holder
            )
        ).first()
        public = (
            game is not None
            and (game.mode == "practice" or game.ended_at is not None)  # its seed is shown
            and (game.sealed_until is None or game.sealed_until <= now)
        )
    return int(row.tier) if public else None


TOURNAMENT_HOLDER = "tournament-"
"""What a tournament's deals hold in place of a game id: this and the tournament's id."""


def _retirable(origin: str, game: str | None) -> ColumnElement[bool]:
    """The unused, unretired deals of ``origin`` (of ``game`` if given)."""
    condition = and_(
        deals.c.origin == origin, deals.c.session_id.is_(None), deals.c.retired_at.is_(None)
    )
    return condition if game is None else and_(condition, deals.c.game == game)


def retirable(connection: Connection, *, origin: str, game: str | None = None) -> int:
    """How many deals :func:`retire` would retire now."""
    query = select(func.count()).select_from(deals).where(_retirable(origin, game))
    return int(connection.execute(query).scalar_one())


def retire(connection: Connection, *, origin: str, at: float, game: str | None = None) -> int:
    """Retire every unused deal whose seed came from ``origin`` (a deal key's
    ``key:FINGERPRINT``, ``random`` or ``unrecorded``), of ``game`` if given: it is never
    dealt from then on (a key thought to be leaked). How many."""
    condition = _retirable(origin, game)
    return int(connection.execute(update(deals).where(condition).values(retired_at=at)).rowcount)


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
    unrated), how it was rated (``method``: ``cheap`` by the rating model or ``full`` by the
    reference players; ``model``: the model's version) and whether it was ``dealt``."""
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
            "method": rating.get("method", "full") if rating else None,
            "model": rating.get("model"),
            "model_score": rating.get("model_score"),
            "model_tier": rating.get("model_tier"),
            "dealt": row.session_id is not None,
            "origin": row.origin,
            "retired": row.retired_at is not None,
        }


@dataclass(frozen=True, slots=True)
class ModelAgreement:
    """How a rating model agrees with the full ladder on the catalog's deals of one game
    and variant rated both ways (the job's sample and the deals near a tier's edge)."""

    game: str
    variant: dict[str, Any]
    model: str
    cheap: int
    """Deals rated by the model alone."""
    full: int
    """Deals rated in full beside the model."""
    sample: Agreement | None
    """On the sample alone (chosen by seed, so unbiased): None under two deals."""
    all_full: Agreement | None
    """On every deal rated both ways (the edge deals are the hardest to place)."""


def model_agreement(connection: Connection) -> list[ModelAgreement]:
    """For each game, variant and rating model in the catalog, how the model's verdicts
    agree with the full ratings of the deals rated both ways."""
    query = select(deals.c.game, deals.c.variant, deals.c.rating).where(deals.c.rating.is_not(None))
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for game, variant, text in connection.execute(query):
        rating = json.loads(text)
        if rating.get("model"):
            groups.setdefault((game, variant, rating["model"]), []).append(rating)
    answers = []
    for (game, variant, model), ratings in sorted(groups.items()):
        both = [r for r in ratings if r.get("method") == "full" and "model_score" in r]
        sample = [r for r in both if r.get("full_reason") == "sample"]
        answers.append(
            ModelAgreement(
                game=game,
                variant=json.loads(variant),
                model=model,
                cheap=sum(r.get("method") == "cheap" for r in ratings),
                full=len(both),
                sample=_agreement(sample),
                all_full=_agreement(both),
            )
        )
    return answers


def _agreement(ratings: list[dict[str, Any]]) -> Agreement | None:
    if len(ratings) < 2:
        return None
    return agreement(
        [r["model_score"] for r in ratings],
        [r["score"] for r in ratings],
        [r["model_tier"] for r in ratings],
        [r["tier"] for r in ratings],
    )


def counts(connection: Connection) -> list[dict[str, Any]]:
    """Deals per game, variant and tier (None: unrated), with how many may still be dealt
    (``unused``), how many were retired unused (``retired``) and how many were rated with an
    earlier version of the game's rating and are kept undealt (``superseded``)."""
    unused_count = func.sum(case((_unused_any(), 1), else_=0))
    retired_count = func.sum(
        case((and_(deals.c.session_id.is_(None), deals.c.retired_at.is_not(None)), 1), else_=0)
    )
    superseded_count = func.sum(case((and_(_undealt(), _superseded()), 1), else_=0))
    query = (
        select(
            deals.c.game,
            deals.c.variant,
            deals.c.tier,
            func.count(),
            unused_count,
            retired_count,
            superseded_count,
        )
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
            "retired": int(retired or 0),
            "superseded": int(superseded or 0),
        }
        for game, variant, tier, total, free, retired, superseded in connection.execute(query)
    ]


def _unused_any() -> Any:
    """Deals of any game that may still be dealt: not dealt, not retired, and not rated
    with an earlier version of their game's rating (:func:`_superseded`)."""
    return and_(_undealt(), not_(_superseded()))


def _undealt() -> Any:
    return and_(
        deals.c.session_id.is_(None),
        deals.c.retired_at.is_(None),
        or_(deals.c.origin == RANDOM, deals.c.origin.like("key:%")),
    )


def _superseded() -> Any:
    """Deals rated with an earlier version of their game's rating than this patience's.
    They are kept but never dealt: a tier of one version is not a tier of another, and a
    tournament commits to one version for all its deals (the refill makes new ones)."""
    return or_(
        false(),
        *(
            and_(
                deals.c.game == name,
                deals.c.rating_version.is_not(None),
                deals.c.rating_version != version,
            )
            for name, version in RATING_VERSIONS.items()
        ),
    )
