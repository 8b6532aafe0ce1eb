"""The daily deal: for each game and variant, one deal a UTC day, the same for everyone.

Each day's deal is claimed from the deal catalog the first time someone asks for it (the
catalog's own claim, :func:`patience.store.catalog.take`, of a middle tier where the deals
are rated), and is then dealt to every player who plays it that day; the catalog marks it
``daily-DAY``, so no other game gets it. It is played as a timed game by the rules of
record, one game a signed-in player (a guest may play it too, in no standing).

Its seed and tier stay secret until the day is over: from UTC midnight plus
:data:`GRACE_SECONDS` (for the games still running at midnight), and once every game of it
has ended. Until then each game of it is sealed (its view, record and replay hide the
deal, as a tournament's do), and nothing published names the seed. Then the deal, its
tier and its best games are open to everyone, to replay.

>>> day_of(86_400 * 365 + 3_600)
'1971-01-01'
>>> day_bounds('1971-01-01') == (86_400.0 * 365, 86_400.0 * 366)
True
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, and_, func, insert, or_, select
from sqlalchemy.exc import IntegrityError

from patience.errors import PatienceError
from patience.games import GAMES, game_class, variant_key
from patience.rating import difficulty_of, is_rated
from patience.store.catalog import Tiers, take
from patience.store.db import daily_deals, daily_games, sessions, users
from patience.store.games import GameStore, Live, new_game_id

__all__ = [
    "GRACE_SECONDS",
    "MIDDLE_TIERS",
    "STANDING_SIZE",
    "Daily",
    "DailyDeal",
    "DailyError",
    "DailyNotReadyError",
    "DailyPlayedError",
    "day_bounds",
    "day_of",
    "streaks",
]

GRACE_SECONDS = 3_600.0
"""How long after UTC midnight a day's deal stays secret (a game started just before
midnight is still being played): its games are sealed until then, and its seed and tier
are published no sooner, nor while any game of it still runs. A daily game whose clock
would run past this is not dealt."""

MIDDLE_TIERS: tuple[Tiers, ...] = ((5, 5), (4, 6), (3, 7), (2, 8), (1, 10))
"""The tiers a daily deal is looked for in, in turn: the middle one first, then wider."""

STANDING_SIZE = 20
"""Rows of a daily standing shown (the player's own row is always given besides)."""

DAY = 86_400.0


class DailyError(PatienceError):
    """A daily deal cannot be played as asked."""


class DailyNotReadyError(DailyError):
    """The catalog holds no deal of the kind to make today's deal from yet."""


class DailyPlayedError(DailyError):
    """The player has played this daily deal already."""


class DailySignInError(DailyError):
    """A guest asked for a game of a daily deal: only signed-in players play them (each
    once), since a guest's games could not be counted, and so could show the day's cards
    to anyone before they play it for the standing."""


def day_of(at: float) -> str:
    """The UTC day of Unix time ``at``, as ``YYYY-MM-DD``."""
    return datetime.fromtimestamp(at, UTC).date().isoformat()


def day_bounds(day: str) -> tuple[float, float]:
    """The Unix times at which UTC day ``day`` begins and ends. Raises :class:`DailyError`
    for a day not written ``YYYY-MM-DD``, or the calendar's last.

    >>> day_bounds("2026-11-27")
    (1795737600.0, 1795824000.0)
    >>> day_bounds("9999-12-31")
    Traceback (most recent call last):
    ...
    patience.daily.DailyError: no daily deal is dealt so far ahead
    """
    try:
        start = datetime.combine(date.fromisoformat(day), datetime.min.time(), UTC)
    except (TypeError, ValueError):
        raise DailyError("a day is written YYYY-MM-DD") from None
    if len(day) != 10:
        raise DailyError("a day is written YYYY-MM-DD")
    if start.date() == date.max:  # the calendar's last day has no day after it
        raise DailyError("no daily deal is dealt so far ahead")
    return start.timestamp(), (start + timedelta(days=1)).timestamp()


@dataclass(frozen=True, slots=True)
class DailyDeal:
    """One day's deal of a game and variant (the seed and tier: never shown before
    :meth:`Daily.revealed`)."""

    id: int
    game: str
    variant: dict[str, Any]
    day: str
    seed: int
    tier: int | None


class Daily:
    """The daily deals of the games of ``store``."""

    def __init__(
        self,
        store: GameStore,
        *,
        time_limit: float | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._store = store
        self._engine = store.engine
        self._time_limit = time_limit  # the server's one clock for every game, if set
        self._clock = clock

    def today(self) -> str:
        """Today's UTC day."""
        return day_of(self._clock())

    # -- the deals --------------------------------------------------------------------

    def find(self, name: str, variant: dict[str, Any], day: str) -> DailyDeal | None:
        """The deal of ``name`` and ``variant`` (checked) of ``day``, if it was dealt."""
        with self._engine.connect() as connection:
            return self._find(connection, name, variant, day)

    def _find(
        self, connection: Connection, name: str, variant: dict[str, Any], day: str
    ) -> DailyDeal | None:
        row = connection.execute(
            select(daily_deals).where(
                and_(
                    daily_deals.c.game == name,
                    daily_deals.c.variant == variant_key(variant),
                    daily_deals.c.day == day,
                )
            )
        ).first()
        if row is None:
            return None
        return DailyDeal(
            row.id, row.game, json.loads(row.variant), row.day, int(row.seed), row.tier
        )

    def deal(self, name: str, variant: dict[str, Any]) -> DailyDeal:
        """Today's deal of ``name`` and ``variant`` (checked), claimed from the catalog if
        nobody has asked for it yet today (a middle tier first where the deals are rated).
        Raises :class:`DailyNotReadyError` when the catalog has none."""
        day = self.today()
        found = self.find(name, variant, day)
        if found is not None:
            return found
        tiers: Iterable[Tiers | None] = MIDDLE_TIERS if is_rated(name, variant) else (None,)
        try:
            with self._engine.begin() as connection:
                for wanted in tiers:
                    taken = take(connection, name, variant, f"daily-{day}", wanted)
                    if taken is not None:
                        break
                else:
                    title = game_class(name).title
                    raise DailyNotReadyError(
                        f"today's deal of {title} is not ready yet: the server is still "
                        "making its deals; try again in a minute"
                    )
                connection.execute(
                    insert(daily_deals).values(
                        game=name,
                        variant=variant_key(variant),
                        day=day,
                        seed=str(taken.seed),
                        tier=taken.tier,
                        created_at=self._clock(),
                    )
                )
        except IntegrityError:
            pass  # another request dealt it first (and this claim was rolled back)
        found = self.find(name, variant, day)
        assert found is not None
        return found

    def reveal_at(self, day: str) -> float:
        """When ``day``'s deals may be published at the earliest."""
        return day_bounds(day)[1] + GRACE_SECONDS

    def revealed(self, deal: DailyDeal) -> bool:
        """Whether ``deal``'s seed, tier and games are public: its day is over, the grace
        has passed and none of its games still runs."""
        now = self._clock()
        if now < self.reveal_at(deal.day):
            return False
        with self._engine.connect() as connection:
            running = connection.execute(
                select(func.count())
                .select_from(daily_games.join(sessions, sessions.c.id == daily_games.c.session_id))
                .where(
                    and_(
                        daily_games.c.daily_id == deal.id,
                        sessions.c.ended_at.is_(None),
                        sessions.c.created_at + sessions.c.paused + sessions.c.time_limit > now,
                    )
                )
            ).scalar_one()
        return running == 0

    # -- playing ----------------------------------------------------------------------

    def mine(self, deal: DailyDeal, user_id: str) -> str | None:
        """The id of player ``user_id``'s game of ``deal``, if they have one."""
        with self._engine.connect() as connection:
            found: str | None = connection.execute(
                select(daily_games.c.session_id).where(
                    and_(daily_games.c.daily_id == deal.id, daily_games.c.user_id == user_id)
                )
            ).scalar()
        return found

    def start(
        self,
        name: str,
        variant: dict[str, Any],
        *,
        user_id: str | None,
        address: str | None = None,
    ) -> tuple[Live, str | None]:
        """A game of today's deal of ``name`` and ``variant``, and the token that holds it,
        for a signed-in player (a guest is refused: :class:`DailySignInError`). A player
        who has a game of it running gets that game back (no token: the
        session holds it); one whose game is over is refused (:class:`DailyPlayedError`).
        Raises :class:`DailyNotReadyError` when there is no deal to make it from, and the
        store's refusals of a timed game (another timed game of the kind running, too many
        guests' games at one address)."""
        checked = game_class(name).check_variant(variant)
        title = game_class(name).title
        if user_id is None:
            raise DailySignInError(
                f"sign in to play today's deal of {title}: each player plays it once, for "
                "the day's standing"
            )
        deal = self.deal(name, checked)
        mine = self.mine(deal, user_id)
        if mine is not None:
            live = self._store.authorize(mine, None, user_id=user_id) or self._store.load(mine)
            with live.lock:
                self._store.refresh(live)
                over = live.session.is_over()
            if over:
                raise DailyPlayedError(
                    f"you have played today's deal of {title}: a new one comes at midnight (UTC)"
                )
            return live, None
        self._store.check_start(
            name, checked, seed=None, mode="timed", user_id=user_id, address=address
        )
        day_end = day_bounds(deal.day)[1]
        clock = self._time_limit or game_class(name).time_limit
        if self._clock() + clock > day_end + GRACE_SECONDS - 60:
            raise DailyError(
                f"today's deal of {title} has closed: a new one comes at midnight (UTC)"
            )
        game_id = new_game_id()

        def count_it(connection: Connection, live: Live) -> None:
            # the game and its place in the day's games are written together or not at all
            connection.execute(
                insert(daily_games).values(
                    session_id=live.id,
                    daily_id=deal.id,
                    user_id=user_id,
                    created_at=self._clock(),
                )
            )

        try:
            return self._store.open(
                name,
                checked,
                seed=deal.seed,
                mode="timed",
                certified=True,
                game_id=game_id,
                user_id=user_id,
                address=address,
                sealed_until=day_end + GRACE_SECONDS,
                # never past the reveal, whatever outage is credited to its clock: its
                # deal is shown then
                ends_at=day_end + GRACE_SECONDS,
                within=count_it,
                one_timed=True,
            )
        except IntegrityError:  # the same player's second request, at the same moment
            raise DailyPlayedError(f"you have a game of today's deal of {title}") from None

    # -- what everyone may see --------------------------------------------------------

    def public(
        self, name: str, variant: dict[str, Any], day: str, *, user_id: str | None = None
    ) -> dict[str, Any]:
        """A day's deal of ``name`` and ``variant`` (checked) as anyone may see it: when it
        ends and is revealed, its seed and tier once revealed, how many played, the
        standing of signed-in players (the best :data:`STANDING_SIZE`, each with its game
        to replay once revealed) and ``user_id``'s own game."""
        start, end = day_bounds(day)
        cls = game_class(name)
        deal = self.find(name, variant, day)
        answer: dict[str, Any] = {
            "game": name,
            "title": cls.title,
            "variant": variant,
            "day": day,
            "today": day == self.today(),
            "starts_at": start,
            "ends_at": end,
            "reveal_at": end + GRACE_SECONDS,
            "dealt": deal is not None,
            "revealed": False,
            "seed": None,
            "tier": None,
            "difficulty": None,
            "games": 0,
            "ranked": 0,
            "standing": [],
            "me": None,
        }
        if deal is None:
            return answer
        revealed = self.revealed(deal)
        if revealed:
            answer |= {
                "revealed": True,
                "seed": str(deal.seed),
                "tier": deal.tier,
                "difficulty": difficulty_of(deal.tier),
            }
        self._store.expire()  # games whose clock ran out unwatched are over
        game = daily_games.c
        with self._engine.connect() as connection:
            answer["games"] = connection.execute(
                select(func.count()).where(game.daily_id == deal.id)
            ).scalar_one()
            rows = connection.execute(
                select(
                    game.session_id,
                    game.user_id,
                    users.c.name,
                    sessions.c.score,
                    sessions.c.elapsed,
                    sessions.c.ended_at,
                    sessions.c.won,
                )
                .select_from(
                    daily_games.join(sessions, sessions.c.id == game.session_id).join(
                        users, users.c.id == game.user_id
                    )
                )
                .where(and_(game.daily_id == deal.id, sessions.c.ended_at.is_not(None)))
                .order_by(sessions.c.score.desc(), sessions.c.elapsed, sessions.c.ended_at)
            ).all()
            mine = None
            if user_id is not None:
                mine = connection.execute(
                    select(game.session_id, sessions.c.ended_at)
                    .join(sessions, sessions.c.id == game.session_id)
                    .where(and_(game.daily_id == deal.id, game.user_id == user_id))
                ).first()
        answer["ranked"] = len(rows)
        standing = []
        previous: tuple[Any, ...] | None = None
        rank = 0
        for place, row in enumerate(rows, start=1):
            key = (row.score, row.elapsed)
            if key != previous:
                rank = place
            previous = key
            entry = {
                "rank": rank,
                "name": row.name,
                "score": row.score,
                "elapsed": None if row.elapsed is None else round(row.elapsed, 3),
                "won": bool(row.won),
                "game": row.session_id if revealed else None,
                "mine": row.user_id == user_id,
            }
            if place <= STANDING_SIZE:
                standing.append(entry)
            if row.user_id == user_id:
                answer["me"] = entry
        answer["standing"] = standing
        if mine is not None:
            answer["me"] = {
                **(answer["me"] or {}),
                "game": mine.session_id,
                "running": mine.ended_at is None,
            }
        return answer

    def kinds_today(self, user_id: str | None = None) -> dict[str, Any]:
        """Today's daily deals, one a game and variant: whether dealt yet, how many played,
        and ``user_id``'s own game of each (running, or its score, time, and rank among the
        signed-in players' finished games); and ``user_id``'s daily figures
        (:meth:`streaks`)."""
        today = self.today()
        start, end = day_bounds(today)
        with self._engine.connect() as connection:
            dealt = connection.execute(
                select(daily_deals.c.id, daily_deals.c.game, daily_deals.c.variant).where(
                    daily_deals.c.day == today
                )
            ).all()
            counts: dict[int, int] = dict(
                connection.execute(
                    select(daily_games.c.daily_id, func.count())
                    .where(daily_games.c.daily_id.in_([row.id for row in dealt]))
                    .group_by(daily_games.c.daily_id)
                ).all()
            )
            played: dict[int, Any] = {}
            ranks: dict[int, dict[str, int]] = {}
            if user_id is not None:
                for row in connection.execute(
                    select(
                        daily_games.c.daily_id,
                        daily_games.c.session_id,
                        sessions.c.ended_at,
                        sessions.c.score,
                        sessions.c.elapsed,
                        sessions.c.won,
                    )
                    .join(sessions, sessions.c.id == daily_games.c.session_id)
                    .where(
                        and_(
                            daily_games.c.user_id == user_id,
                            daily_games.c.daily_id.in_([row.id for row in dealt]),
                        )
                    )
                ):
                    played[row.daily_id] = row
                ranks = {
                    daily_id: self._rank(connection, daily_id, row.score, row.elapsed)
                    for daily_id, row in played.items()
                    if row.ended_at is not None
                }
        by_kind = {(row.game, row.variant): row.id for row in dealt}
        deals = []
        for cls_name, variant in _kinds():
            daily_id = by_kind.get((cls_name, variant_key(variant)))
            own = played.get(daily_id) if daily_id is not None else None
            deals.append(
                {
                    "game": cls_name,
                    "title": game_class(cls_name).title,
                    "variant": variant,
                    "games": counts.get(daily_id, 0) if daily_id is not None else 0,
                    "me": None
                    if own is None
                    else {
                        "game": own.session_id,
                        "running": own.ended_at is None,
                        "score": own.score,
                        "elapsed": None if own.elapsed is None else round(own.elapsed, 3),
                        "won": None if own.ended_at is None else bool(own.won),
                        **ranks.get(own.daily_id, {"rank": None, "ranked": None}),
                    },
                }
            )
        return {
            "day": today,
            "yesterday": day_of(start - 1),
            "starts_at": start,
            "ends_at": end,
            "reveal_at": end + GRACE_SECONDS,
            "deals": deals,
            "streak": None if user_id is None else self.streaks(user_id),
        }

    @staticmethod
    def _rank(
        connection: Connection, daily_id: int, score: int | None, elapsed: float | None
    ) -> dict[str, int]:
        """Where a finished game of score ``score`` in ``elapsed`` seconds stands among
        daily deal ``daily_id``'s finished games of signed-in players (the standing's rule:
        by score, then by the time used; equal games share a rank), and how many are
        ranked."""
        game = daily_games.c
        ranked = and_(
            game.daily_id == daily_id,
            game.user_id.is_not(None),
            sessions.c.ended_at.is_not(None),
        )
        joined = daily_games.join(sessions, sessions.c.id == game.session_id)
        better = or_(
            sessions.c.score > (score or 0),
            and_(sessions.c.score == (score or 0), sessions.c.elapsed < (elapsed or 0.0)),
        )
        ahead = connection.execute(
            select(func.count()).select_from(joined).where(and_(ranked, better))
        ).scalar_one()
        total = connection.execute(
            select(func.count()).select_from(joined).where(ranked)
        ).scalar_one()
        return {"rank": int(ahead) + 1, "ranked": int(total)}

    def streaks(self, user_id: str) -> dict[str, Any]:
        """Player ``user_id``'s daily figures: daily deals played and won, and the days in a
        row with a daily deal won (the current run, alive through today, and the best)."""
        with self._engine.connect() as connection:
            rows = connection.execute(
                select(daily_deals.c.day, sessions.c.won, sessions.c.ended_at)
                .select_from(
                    daily_games.join(daily_deals, daily_deals.c.id == daily_games.c.daily_id).join(
                        sessions, sessions.c.id == daily_games.c.session_id
                    )
                )
                .where(daily_games.c.user_id == user_id)
            ).all()
        finished = [row for row in rows if row.ended_at is not None]
        won_days = {row.day for row in finished if row.won}
        return {
            "played": len(finished),
            "won": sum(1 for row in finished if row.won),
            **streaks(won_days, self.today()),
        }


def streaks(days: set[str], today: str) -> dict[str, int]:
    """The current and best runs of consecutive days in ``days`` (``YYYY-MM-DD``); the
    current run ends today, or yesterday while today's may still be played.

    >>> streaks({"2025-01-01", "2025-01-02", "2025-01-04"}, "2025-01-05")
    {'current_streak': 1, 'best_streak': 2}
    >>> streaks({"2025-01-03", "2025-01-04"}, "2025-01-06")
    {'current_streak': 0, 'best_streak': 2}
    """
    ordered = sorted(date.fromisoformat(day) for day in days)
    best = run = 0
    previous: date | None = None
    for day in ordered:
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    current = 0
    last = date.fromisoformat(today)
    if last not in set(ordered):
        last -= timedelta(days=1)
    while last in set(ordered):
        current += 1
        last -= timedelta(days=1)
    return {"current_streak": current, "best_streak": best}


def _kinds() -> list[tuple[str, dict[str, Any]]]:
    """Every game and variant, in the games' order."""
    return [(cls.name, variant) for cls in GAMES.values() for variant in cls.variants()]
