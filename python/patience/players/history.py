"""What a player has played: finished games, statistics and streaks.

Every number comes from the games' rows, whose result (won, score, seconds used) the game
store writes when a game ends, whether the player ended it, won it, or left it to run out
of time: an abandoned timed game is a loss like any other.

>>> rows = [
...     Finished("a", "golf", {"wrap": True}, "timed", None, 1.0, True, 30, 50.0),
...     Finished("b", "golf", {"wrap": True}, "timed", None, 2.0, False, 12, 180.0),
...     Finished("c", "golf", {"wrap": True}, "timed", None, 3.0, True, 25, 70.0),
... ]
>>> [group.to_json()["current_streak"] for group in statistics_of(rows)]
[1]
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine, and_, select

from patience.games import game_class
from patience.store.db import daily_deals, daily_games, sessions, tournament_games, tournaments
from patience.store.log import numbered_of
from patience.store.timekeeping import runs_until

__all__ = ["RECENT", "Finished", "Statistics", "finished_games", "statistics_of", "totals_of"]

RECENT = 20
"""Games a group's chart of recent scores shows."""


@dataclass(frozen=True, slots=True)
class Finished:
    """A finished game as a player's history lists it."""

    id: str
    game: str
    variant: dict[str, Any]
    mode: str
    tier: int | None
    ended_at: float
    won: bool
    score: int
    elapsed: float
    seed: int | None = None
    created_at: float = 0.0
    numbered: tuple[str, int] | None = None
    occasion: dict[str, Any] | None = None
    """A tournament's attempt (``{"tournament": id, "name": ..., "attempt": n}``, ``n``
    from 1) or a daily deal's game (``{"daily": day}``); None for a game of one's own."""

    def to_json(self) -> dict[str, Any]:
        """The game as ``GET /api/me/games`` lists it (the seed as a string: it may not fit
        a JavaScript number)."""
        return {
            "id": self.id,
            "game": self.game,
            "variant": self.variant,
            "mode": self.mode,
            "tier": self.tier,
            "seed": None if self.seed is None else str(self.seed),
            "numbered": None
            if self.numbered is None
            else {
                "numbering": self.numbered[0],
                "number": self.numbered[1],
                "title": game_class(self.game).numbered_words(*self.numbered),
            },
            "started_at": self.created_at,
            "ended_at": self.ended_at,
            "won": self.won,
            "score": self.score,
            "elapsed": round(self.elapsed, 3),
            "occasion": self.occasion,
        }


@dataclass(slots=True)
class Statistics:
    """One player's figures for one game, variant and mode (and, in ``tiers``, per
    difficulty tier)."""

    game: str
    variant: dict[str, Any]
    mode: str
    games: int = 0
    wins: int = 0
    current_streak: int = 0
    best_streak: int = 0
    best_score: int | None = None
    fastest_win: float | None = None
    total_score: int = 0
    time_played: float = 0.0
    tiers: dict[int, list[int]] = field(default_factory=dict)  # tier: [games, wins]
    recent: list[Finished] = field(default_factory=list)  # the last RECENT games

    def add(self, game: Finished) -> None:
        """Count ``game``, which ended after every game counted so far."""
        self.games += 1
        self.time_played += game.elapsed
        self.recent = [*self.recent[1 - RECENT :], game]
        self.total_score += game.score
        self.best_score = (
            game.score if self.best_score is None else max(self.best_score, game.score)
        )
        if game.won:
            self.wins += 1
            self.current_streak += 1
            self.best_streak = max(self.best_streak, self.current_streak)
            if self.fastest_win is None or game.elapsed < self.fastest_win:
                self.fastest_win = game.elapsed
        else:
            self.current_streak = 0
        if game.tier is not None:
            counts = self.tiers.setdefault(game.tier, [0, 0])
            counts[0] += 1
            counts[1] += game.won

    def to_json(self) -> dict[str, Any]:
        """The figures as ``GET /api/me/stats`` gives them. A relaxed game has no score and
        no clock of its own: its group gives no score, speed or streak."""
        relaxed = self.mode == "relaxed"
        return {
            "game": self.game,
            "variant": self.variant,
            "mode": self.mode,
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.wins / self.games, 6) if self.games else 0.0,
            "time_played": round(self.time_played, 3),
            "current_streak": None if relaxed else self.current_streak,
            "best_streak": None if relaxed else self.best_streak,
            "best_score": None if relaxed else self.best_score,
            "fastest_win": None
            if self.fastest_win is None or relaxed
            else round(self.fastest_win, 3),
            "average_score": round(self.total_score / self.games, 3)
            if self.games and not relaxed
            else None,
            "recent": [
                {
                    "id": game.id,
                    "ended_at": game.ended_at,
                    "won": game.won,
                    "score": None if relaxed else game.score,
                }
                for game in self.recent
            ],
            "tiers": [
                {"tier": tier, "games": games, "wins": wins}
                for tier, (games, wins) in sorted(self.tiers.items())
            ],
        }


def statistics_of(games: Iterable[Finished]) -> list[Statistics]:
    """The statistics of ``games`` (in the order they ended), one entry per game, variant
    and mode, in the order each was first played."""
    groups: dict[tuple[str, str, str], Statistics] = {}
    for game in sorted(games, key=lambda g: (g.ended_at, g.id)):
        key = (game.game, json.dumps(game.variant, sort_keys=True), game.mode)
        if key not in groups:
            groups[key] = Statistics(game.game, game.variant, game.mode)
        groups[key].add(game)
    return list(groups.values())


def totals_of(groups: list[Statistics]) -> dict[str, Any]:
    """Totals across every game and mode: games, wins, the win rate and the time played;
    and each mode's own: ``timed`` (the competitive games, a player's record: the table's
    headline), ``practice`` and ``relaxed`` (counted apart, never in the record).

    >>> group = Statistics("golf", {"wrap": True}, "timed")
    >>> group.add(Finished("a", "golf", {"wrap": True}, "timed", None, 1.0, True, 30, 50.0))
    >>> totals = totals_of([group])
    >>> totals["timed"]["wins"], totals["practice"]["games"], totals["relaxed"]["games"]
    (1, 0, 0)
    """

    def total(chosen: list[Statistics]) -> dict[str, Any]:
        games = sum(group.games for group in chosen)
        wins = sum(group.wins for group in chosen)
        return {
            "games": games,
            "wins": wins,
            "win_rate": round(wins / games, 6) if games else 0.0,
            "time_played": round(sum(group.time_played for group in chosen), 3),
        }

    modes = ("timed", "practice", "relaxed")
    by_mode = {mode: total([g for g in groups if g.mode == mode]) for mode in modes}
    return {**total(groups), **by_mode}


def finished_games(
    engine: Engine, user_id: str, *, before: float | None = None, limit: int | None = None
) -> Iterator[Finished]:
    """Player ``user_id``'s finished games, the newest first; with ``before``, only those
    that ended before it (the next page), ``limit`` at most.

    A daily deal's or a tournament's game keeps its deal sealed until the day is over or
    the tournament closes: its seed, and its tier where the game itself was dealt none
    (a daily deal's, a shared tournament deal's), are given only once it is unsealed, and
    are then the day's deal's and the committed document's (docs/fairness.md)."""
    condition = and_(sessions.c.user_id == user_id, sessions.c.ended_at.is_not(None))
    if before is not None:
        condition = and_(condition, sessions.c.ended_at < before)
    query = (
        select(
            sessions,
            daily_deals.c.tier.label("daily_tier"),
            daily_deals.c.day.label("daily_day"),
            tournament_games.c.deal.label("tournament_deal"),
            tournament_games.c.attempt.label("tournament_attempt"),
            tournaments.c.id.label("tournament_id"),
            tournaments.c.name.label("tournament_name"),
            tournaments.c.secret.label("tournament_document"),
        )
        .select_from(
            sessions.outerjoin(daily_games, daily_games.c.session_id == sessions.c.id)
            .outerjoin(daily_deals, daily_deals.c.id == daily_games.c.daily_id)
            .outerjoin(tournament_games, tournament_games.c.session_id == sessions.c.id)
            .outerjoin(tournaments, tournaments.c.id == tournament_games.c.tournament_id)
        )
        .where(condition)
        .order_by(sessions.c.ended_at.desc())
    )
    if limit is not None:
        query = query.limit(limit)
    with engine.connect() as connection:
        rows = connection.execute(query).all()
    now = time.time()
    for row in rows:
        # a tournament's or a daily deal's deal stays secret until its close
        sealed = row.sealed_until is not None and row.sealed_until > now
        yield Finished(
            id=row.id,
            game=row.game,
            variant=json.loads(row.variant),
            mode=row.mode,
            tier=row.tier if row.tier is not None or sealed else _unsealed_tier(row),
            ended_at=row.ended_at,
            won=bool(row.won),
            score=row.score or 0,
            elapsed=row.elapsed or 0.0,
            seed=None if row.seed is None or sealed else int(row.seed),
            created_at=row.created_at,
            numbered=None if row.numbered is None else numbered_of(row.numbered),
            occasion=_occasion(row),
        )


def _occasion(row: Any) -> dict[str, Any] | None:
    """What a finished game was played for: a tournament's attempt, a daily deal, or
    neither."""
    if row.tournament_id is not None:
        return {
            "tournament": row.tournament_id,
            "name": row.tournament_name,
            "attempt": row.tournament_attempt + 1,  # counted from 1, as the pages count them
        }
    if row.daily_day is not None:
        return {"daily": row.daily_day}
    return None


def _unsealed_tier(row: Any) -> int | None:
    """The tier of an unsealed game's deal where its row has none: a daily deal's, or the
    one a tournament committed to (every deal in its document has its tier)."""
    if row.daily_tier is not None:
        return int(row.daily_tier)
    if row.tournament_document is None or row.tournament_deal is None:
        return None
    deals = json.loads(row.tournament_document).get("deals", [])
    tier = deals[row.tournament_deal].get("tier") if row.tournament_deal < len(deals) else None
    return None if tier is None else int(tier)


@dataclass(frozen=True, slots=True)
class Running:
    """A game of a player's that has not ended, as the lobby lists it: which it is, and
    whether it is a daily deal's or a tournament's attempt (then which tournament, and
    which attempt, counted from 1)."""

    id: str
    daily: bool
    tournament: dict[str, Any] | None  # {"id", "name", "attempt"}


RUNNING_LISTED = 10
"""The most running games :func:`running_games` lists (the newest)."""


def running_games(engine: Engine, user_id: str, *, limit: int = RUNNING_LISTED) -> list[Running]:
    """Player ``user_id``'s games not ended whose clock may still run, the newest first
    (their clocks are read from the games themselves: a game whose time ran out unwatched
    is ended when it is read)."""
    query = (
        select(
            sessions.c.id,
            daily_games.c.daily_id,
            tournaments.c.id.label("tournament_id"),
            tournaments.c.name.label("tournament_name"),
            tournament_games.c.attempt,
        )
        .select_from(
            sessions.outerjoin(daily_games, daily_games.c.session_id == sessions.c.id)
            .outerjoin(tournament_games, tournament_games.c.session_id == sessions.c.id)
            .outerjoin(tournaments, tournaments.c.id == tournament_games.c.tournament_id)
        )
        .where(
            and_(
                sessions.c.user_id == user_id,
                sessions.c.ended_at.is_(None),
                runs_until() > time.time(),
            )
        )
        .order_by(sessions.c.created_at.desc())
        .limit(limit)
    )
    with engine.connect() as connection:
        rows = connection.execute(query).all()
    return [
        Running(
            id=row.id,
            daily=row.daily_id is not None,
            tournament=None
            if row.tournament_id is None
            else {
                "id": row.tournament_id,
                "name": row.tournament_name,
                "attempt": row.attempt + 1,  # counted from 1, as the pages count them
            },
        )
        for row in rows
    ]
