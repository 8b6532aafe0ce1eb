"""Where a game's deal comes from: the catalog's claims and the certifying of fresh deals.

A timed game gets the catalog's next unused deal (:func:`.catalog.take`, claimed for the
game in the same transaction) or, when the catalog has none, a fresh seed whose deal the
solver proves winnable as the game starts (:func:`certify_deal`); the server's background
refills the catalog with rated deals (:func:`rate_deal`, :meth:`DealClaims.add_to_catalog`).
The seeds tried come from the store's unpredictable source, never from public values.
:func:`certify_deal` and :func:`rate_deal` are plain functions of plain values, so that the
server runs them in its solver process.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from sqlalchemy import and_, select

from patience.catalog import catalog_deal
from patience.errors import PatienceError
from patience.games import GAMES, new_game
from patience.rating import DIFFICULTIES
from patience.ratings.cheap import FULL
from patience.solve import solve

from .catalog import RANDOM, Certified, Taken, add, practice_tier, take
from .db import sessions
from .live import digest
from .log import EventLog

__all__ = [
    "CERTIFIED_AT_START",
    "CERTIFY_TRIES",
    "CERTIFY_TRY_SECONDS",
    "DealClaims",
    "certify_deal",
    "rate_deal",
]

CERTIFY_TRIES = 40
"""Seeds tried, at most, to find a certified winnable deal for a timed game."""

CERTIFIED_AT_START = tuple(n for n, cls in GAMES.items() if cls.budgets.certify_at_start)
"""Games whose timed deals are certified winnable as the game starts when the catalog has
none (:attr:`Budgets.certify_at_start <patience.games.Budgets.certify_at_start>`)."""

CERTIFY_TRY_SECONDS = {
    n: s for n, cls in GAMES.items() if (s := cls.budgets.certify_try_seconds) is not None
}
"""Seconds a try, at most, for games whose solver leaves many deals undecided
(:attr:`Budgets.certify_try_seconds <patience.games.Budgets.certify_try_seconds>`)."""


class DealClaims:
    """Claims catalog deals for games and certifies fresh ones, writing through ``log``;
    ``random_seed`` gives the seeds tried, ``certify_seconds`` bounds a certifying try."""

    def __init__(
        self, log: EventLog, *, random_seed: Callable[[], int], certify_seconds: float
    ) -> None:
        self._log = log
        self._random_seed = random_seed
        self._certify_seconds = certify_seconds

    def claim(
        self,
        name: str,
        variant: dict[str, object],
        game_id: str,
        difficulty: str | None = None,
        *,
        tier: int | None = None,
    ) -> Taken | None:
        """The catalog's next unused deal of ``name`` and ``variant`` (checked), of a tier of
        ``difficulty`` if given (of ``tier`` itself, if given), claimed for the game
        ``game_id``; None when the catalog has none."""
        tiers = None if difficulty is None else DIFFICULTIES[difficulty]
        if tier is not None:
            tiers = (tier, tier)
        taken: Taken | None = self._log.transaction(
            lambda connection: take(connection, name, variant, game_id, tiers)
        )
        return taken

    def certify(self, name: str, variant: dict[str, object]) -> int:
        """A fresh seed whose deal the solver proved winnable (its certificate replayed), in
        this thread. Raises a :class:`PatienceError` when no seed of :data:`CERTIFY_TRIES`
        was won in time. (The server runs :func:`certify_deal` in its solver process with
        :meth:`certify_request`'s arguments instead.)"""
        return certify_deal(**self.certify_request(name, variant)).seed

    def certify_request(self, name: str, variant: dict[str, object]) -> dict[str, Any]:
        """The arguments of :func:`certify_deal` for a deal of ``name`` and ``variant``."""
        seconds = min(self._certify_seconds, CERTIFY_TRY_SECONDS.get(name, math.inf))
        seeds = [self._random_seed() for _ in range(CERTIFY_TRIES)]
        return {"name": name, "variant": variant, "try_seconds": seconds, "seeds": seeds}

    def practice_tier(
        self, name: str, variant: dict[str, object], seed: int, game_id: str
    ) -> int | None:
        """The tier to show for practice game ``game_id`` of chosen ``seed`` of ``name`` and
        ``variant`` (checked): the catalog's, once the deal is public; an unused catalog deal
        becomes this game's (:func:`.catalog.practice_tier`)."""
        with self._log.engine.begin() as connection:
            return practice_tier(connection, name, variant, seed, game_id, self._log.clock())

    def rate_request(self, name: str, variant: dict[str, object]) -> dict[str, Any]:
        """The arguments of :func:`rate_deal` for a deal of ``name`` and ``variant``: one
        seed, so that a background job holds the solver pool for one certifying search and
        one rating at most (seconds for Kansas and Klondike), never for a run of seeds a
        player's timed start would wait behind; a seed not certified leaves the refill to
        try again."""
        return {"name": name, "variant": variant, "seeds": [self._random_seed()]}

    def add_to_catalog(self, name: str, variant: dict[str, object], deal: Certified) -> bool:
        """Add a certified deal to the catalog (the server's background refill); whether it
        was new."""
        at = self._log.clock()
        added: bool = self._log.transaction(
            lambda connection: add(connection, name, variant, deal, at=at, origin=RANDOM)
        )
        return added

    def same_tier_again(
        self,
        name: str,
        variant: dict[str, object],
        tiers: tuple[int, int],
        *,
        user_id: str | None,
        guest: str | None,
    ) -> int | None:
        """The tier of the last timed deal of ``name`` and ``variant`` in ``tiers`` (a
        difficulty) that player ``user_id`` (or the guest browser ``guest``) did not win,
        if that was their last game of the difficulty: their next deal of it is of that
        tier, so leaving a deal of a hard tier does not buy one of an easier tier."""
        if user_id is not None:
            whose = sessions.c.user_id == user_id
        elif guest is not None:
            whose = and_(sessions.c.guest == digest(guest), sessions.c.user_id.is_(None))
        else:
            return None
        with self._log.engine.connect() as connection:
            last = connection.execute(
                select(sessions.c.tier, sessions.c.won)
                .where(
                    and_(
                        whose,
                        sessions.c.mode == "timed",
                        sessions.c.game == name,
                        sessions.c.variant == json.dumps(variant),
                        sessions.c.tier.between(*tiers),
                    )
                )
                .order_by(sessions.c.created_at.desc())
                .limit(1)
            ).first()
        if last is None or last.won:
            return None
        return int(last.tier)


def certify_deal(
    *, name: str, variant: dict[str, object], try_seconds: float, seeds: list[int]
) -> Certified:
    """The first of ``seeds`` whose deal the solver wins within ``try_seconds`` (looking
    for wins only; the certificate replayed by the engine of record). A plain function of
    plain values, so that it can run in another process. Raises a :class:`PatienceError`
    when none is won."""
    for seed in seeds:
        result = solve(
            new_game(name, seed=seed, variant=variant), time_limit=try_seconds, wins_only=True
        )
        if result.outcome == "solved":
            return Certified(seed, result.nodes, result.seconds, len(result.moves))
    raise PatienceError(f"no winnable {name} deal found in {len(seeds)} tries; try again")


def rate_deal(*, name: str, variant: dict[str, object], seeds: list[int]) -> Certified:
    """The first of ``seeds`` whose deal the solver certifies within its node budget, rated
    (:func:`patience.catalog.catalog_deal`) by the full ladder: the server's refill makes
    a few deals at a time, for the games being dealt now, where a model's cheaper and
    rougher tier buys nothing (catalog jobs, ``patience deals generate``, rate by the model).
    A plain function of plain values, so that it can run in another process. Raises a
    :class:`PatienceError` when none is certified."""
    for seed in seeds:
        deal = catalog_deal(name, variant, seed, policy=FULL)
        if deal is not None:
            return Certified(deal.seed, deal.nodes, deal.seconds, deal.moves, deal.rating)
    raise PatienceError(f"no winnable {name} deal found in {len(seeds)} tries; try again")
