"""Typed dependencies of the routers: the store, the settings, the caller's game.

They are ``async`` so that FastAPI runs them on the event loop rather than in a worker
thread: each is a dictionary lookup (a game not in memory is read from the database once).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, HTTPException, Request

from patience.store.games import GameNotFoundError, GameStore, Live, NotYourGameError

from .settings import Settings

__all__ = ["AppSettings", "LiveGame", "Store", "get_live", "get_settings", "get_store"]


async def get_store(request: Request) -> GameStore:
    """The application's game store."""
    store: GameStore = request.app.state.store
    return store


async def get_settings(request: Request) -> Settings:
    """The application's settings."""
    settings: Settings = request.app.state.settings
    return settings


Store = Annotated[GameStore, Depends(get_store)]
AppSettings = Annotated[Settings, Depends(get_settings)]


async def get_live(
    game_id: str,
    store: Store,
    authorization: Annotated[str | None, Header()] = None,
) -> Live:
    """The game ``game_id``, if the request's ``Authorization: Bearer TOKEN`` holds it."""
    token = None
    if authorization is not None:
        scheme, _, value = authorization.partition(" ")
        if scheme.lower() == "bearer" and value:
            token = value.strip()
    if token is None:
        raise HTTPException(401, "send the game's token as 'Authorization: Bearer TOKEN'")
    try:
        return store.get(game_id, token)
    except GameNotFoundError as error:
        raise HTTPException(404, str(error)) from None
    except NotYourGameError as error:
        raise HTTPException(403, str(error)) from None


LiveGame = Annotated[Live, Depends(get_live)]
