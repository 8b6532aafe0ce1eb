"""The catalog of certified winnable deals, dealt to timed games.

A timed game promises a winnable deal. The server can certify one as the game starts
(:data:`.store.CERTIFIED_AT_START`), but that keeps the player waiting: Klondike's, Golf's
and Solitaire Expert's solvers win most random deals in milliseconds, Kansas's takes about
a second on average to find a deal it wins. This catalog, filled ahead of time by
``patience deals catalog GAME --count N``, is dealt first in every game.
Every seed in it was solved and its certificate replayed by the engine of record
(:func:`patience.solve.solve`); each is dealt to one game at most.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, and_, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from patience.batch import solve_seeds
from patience.games import game_class

from .db import deals

__all__ = ["Certified", "Filled", "add", "fill", "take", "unused", "variant_key"]


def variant_key(variant: Mapping[str, Any]) -> str:
    """The catalog's key for a checked variant: its JSON, keys sorted.

    >>> variant_key({"wrap": True}), variant_key({})
    ('{"wrap": true}', '{}')
    """
    return json.dumps(dict(variant), sort_keys=True)


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
class Certified:
    """A seed the solver won, its certificate replayed, with the work it took: what the
    catalog keeps of a deal (small enough to come back from a solver process)."""

    seed: int
    nodes: int
    seconds: float
    moves: int  # the certificate's length


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
                )
            )
    except IntegrityError:
        return False
    return True


def unused(connection: Connection, name: str, variant: Mapping[str, Any]) -> int:
    """How many deals of ``name`` and ``variant`` (checked) the catalog has not dealt yet."""
    query = select(func.count()).where(_unused(name, variant))
    return int(connection.execute(query).scalar_one())


def take(
    connection: Connection, name: str, variant: Mapping[str, Any], session_id: str
) -> int | None:
    """Deal the catalog's oldest unused seed of ``name`` and ``variant`` (checked) to the
    game ``session_id``, in the caller's transaction; None when there is none. The update
    claims the row only while it is still unused, so two games never get the same deal."""
    while True:
        row = connection.execute(
            select(deals.c.id, deals.c.seed)
            .where(_unused(name, variant))
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
            return int(row.seed)


def _unused(name: str, variant: Mapping[str, Any]) -> Any:
    return and_(
        deals.c.game == name,
        deals.c.variant == variant_key(variant),
        deals.c.session_id.is_(None),
    )
