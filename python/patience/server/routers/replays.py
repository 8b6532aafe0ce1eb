"""Other players' games, open to everyone once their deal is public: the games of a
closed tournament, and those of a daily deal whose day is over (``/api/replays/ID``, and a
closed tournament's games listed at ``/api/tournaments/ID/games``). A game still sealed,
running, or of another kind is answered 404, as one that does not exist."""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, HTTPException
from sqlalchemy import and_, select

from patience.daily import Daily, DailyDeal
from patience.errors import PatienceError
from patience.store.db import (
    daily_deals,
    daily_games,
    sessions,
    tournament_games,
    tournaments,
    users,
)
from patience.store.games import GameNotFoundError, GameStore

from ..deps import Store
from ..views import replay_json

router = APIRouter(tags=["replays"])

NOT_OPEN = (
    "no game open to everyone has that id (a tournament's opens at its close, a daily "
    "deal's once its day is over)"
)


def _open_to_all(store: GameStore, game_id: str) -> str | None:
    """Whose game ``game_id`` is, by name, when its deal is public; None otherwise."""
    now = time.time()
    with store.engine.connect() as connection:
        closed = connection.execute(
            select(tournaments.c.closes_at)
            .join(tournament_games, tournament_games.c.tournament_id == tournaments.c.id)
            .where(tournament_games.c.session_id == game_id)
        ).scalar()
        daily = connection.execute(
            select(daily_deals)
            .join(daily_games, daily_games.c.daily_id == daily_deals.c.id)
            .where(daily_games.c.session_id == game_id)
        ).first()
        name = connection.execute(
            select(users.c.name)
            .join(sessions, sessions.c.user_id == users.c.id)
            .where(sessions.c.id == game_id)
        ).scalar()
    if closed is not None and closed <= now:
        return name or "a guest"
    if daily is not None:
        deal = DailyDeal(daily.id, daily.game, {}, daily.day, int(daily.seed), daily.tier)
        if Daily(store).revealed(deal):
            return name or "a guest"
    return None


@router.get("/api/replays/{game_id}", responses={404: {"description": NOT_OPEN}})
def public_replay(game_id: str, store: Store) -> dict[str, Any]:
    """A finished game of a closed tournament, or of a daily deal whose day is over, step by
    step (as ``/api/sessions/ID/replay``), with its player's name."""
    if len(game_id) > 32:
        raise HTTPException(404, NOT_OPEN)
    player = _open_to_all(store, game_id)
    if player is None:
        raise HTTPException(404, NOT_OPEN)
    try:
        live = store.load(game_id)
    except GameNotFoundError:
        raise HTTPException(404, NOT_OPEN) from None
    with live.lock:
        store.refresh(live)
        try:
            if not live.session.is_over():
                raise PatienceError("running")
            store.check_unsealed(live)
        except PatienceError:
            raise HTTPException(404, NOT_OPEN) from None
        return {**replay_json(live), "player": player}


@router.get(
    "/api/tournaments/{tournament_id}/games",
    responses={404: {"description": "No such tournament, or not closed yet"}},
)
def tournament_games_list(tournament_id: str, store: Store) -> dict[str, Any]:
    """Every finished attempt of a closed tournament, to replay: its player, attempt,
    score, time used and game id (``/api/replays/ID``)."""
    now = time.time()
    with store.engine.connect() as connection:
        closes = connection.execute(
            select(tournaments.c.closes_at).where(tournaments.c.id == tournament_id)
        ).scalar()
        if closes is None or closes > now:
            raise HTTPException(404, "no closed tournament has that id")
        rows = connection.execute(
            select(
                tournament_games.c.session_id,
                tournament_games.c.attempt,
                users.c.name,
                sessions.c.score,
                sessions.c.elapsed,
                sessions.c.ended_at,
            )
            .join(sessions, sessions.c.id == tournament_games.c.session_id)
            .join(users, users.c.id == tournament_games.c.user_id)
            .where(
                and_(
                    tournament_games.c.tournament_id == tournament_id,
                    sessions.c.ended_at.is_not(None),
                )
            )
            .order_by(sessions.c.score.desc(), sessions.c.elapsed, sessions.c.ended_at)
        ).all()
    return {
        "games": [
            {
                "game": row.session_id,
                "name": row.name,
                "attempt": row.attempt + 1,
                "score": row.score,
                "elapsed": None if row.elapsed is None else round(row.elapsed, 3),
            }
            for row in rows
        ]
    }
