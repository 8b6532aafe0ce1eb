"""``/api/daily``: the daily deals (one a game and variant a UTC day, the same for
everyone), each day's standing of signed-in players, and a game of today's deal.

A daily deal's seed and tier are never in an answer before its day is over
(:mod:`patience.daily`); its games are sealed until then.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from patience.daily import (
    Daily,
    DailyError,
    DailyNotReadyError,
    DailyPlayedError,
    DailySignInError,
    day_bounds,
)
from patience.errors import PatienceError
from patience.games import game_class
from patience.store.games import UnfinishedGameError

from ..deps import AppSettings, Player, Store
from ..http import client_address
from ..views import session_json

router = APIRouter(prefix="/api/daily", tags=["daily"])

REFUSALS: dict[int | str, dict[str, Any]] = {
    400: {"description": "An unknown game or variant, or a day not begun: see `detail`"},
    401: {"description": "Not signed in: only signed-in players play a daily deal"},
    403: {"description": "A signed-in request without its CSRF token, or from another site"},
    409: {"description": "Played already today, or another timed game of the kind running"},
    422: {"description": "The body is not of the shape asked for"},
    503: {"description": "Today's deal is not ready yet: try again after `Retry-After`"},
}


def _refusals(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: REFUSALS[code] for code in codes}


async def get_daily(store: Store, settings: AppSettings) -> Daily:
    """The daily deals of the application's game store."""
    return Daily(store, time_limit=settings.time_limit)


DailyDeals = Annotated[Daily, Depends(get_daily)]


def _variant(name: str, text: str | None) -> dict[str, Any]:
    try:
        variant = {} if text is None else json.loads(text)
        return game_class(name).check_variant(variant)
    except json.JSONDecodeError:
        raise HTTPException(400, 'a variant is a JSON object, as {"draw": 3}') from None
    except PatienceError as error:
        raise HTTPException(400, str(error)) from None


@router.get("")
def today(daily: DailyDeals, player: Player) -> dict[str, Any]:
    """Today's daily deals, one a game and variant (each dealt when first played): how many
    have played it, and the signed-in player's own game of it."""
    return daily.kinds_today(None if player is None else player.id)


@router.get("/{game}", responses=_refusals(400))
def one_day(
    game: str,
    daily: DailyDeals,
    player: Player,
    variant: Annotated[
        str | None, Query(max_length=200, description='the variant as JSON: {"draw": 3}')
    ] = None,
    day: Annotated[
        str | None, Query(max_length=10, description="the UTC day, YYYY-MM-DD; today's if none")
    ] = None,
) -> dict[str, Any]:
    """A day's deal of ``game``: when its day ends and when it is revealed, its seed and
    tier once revealed, the standing of signed-in players (each game open to replay once
    revealed) and the signed-in player's own game."""
    checked = _variant(game, variant)
    when = day or daily.today()
    try:
        start, _ = day_bounds(when)
    except DailyError as error:
        raise HTTPException(400, str(error)) from None
    if start > day_bounds(daily.today())[0]:
        raise HTTPException(400, "that day has not begun")
    return daily.public(game, checked, when, user_id=None if player is None else player.id)


class DailyStart(BaseModel):
    """A game of today's deal."""

    variant: dict[str, Any] = Field(default_factory=dict, description='e.g. {"draw": 3}')


@router.post("/{game}", status_code=201, responses=_refusals(400, 401, 403, 409, 422, 503))
def play_today(
    game: str, body: DailyStart, daily: DailyDeals, player: Player, http: Request
) -> JSONResponse:
    """A timed game of today's deal of ``game`` (201, with its token), for a signed-in
    player (401 for a guest, whose games could not be counted: played again and again,
    they would show the day's cards before a game for the standing). Each plays it once:
    their game still running is answered again (200, no token: the session holds it), and
    one over is refused (409)."""
    try:
        game_class(game)
        live, token = daily.start(
            game,
            body.variant,
            user_id=None if player is None else player.id,
            address=client_address(http),
        )
    except DailySignInError as error:
        raise HTTPException(401, str(error)) from None
    except DailyNotReadyError as error:
        raise HTTPException(503, str(error), headers={"Retry-After": "30"}) from None
    except (DailyPlayedError, UnfinishedGameError) as error:
        raise HTTPException(409, str(error)) from None
    except PatienceError as error:
        raise HTTPException(400, str(error)) from None
    with live.lock:
        view = session_json(live)
    if token is None:
        return JSONResponse({"token": None, **view, "daily": True}, status_code=200)
    return JSONResponse({"token": token, **view, "daily": True}, status_code=201)
