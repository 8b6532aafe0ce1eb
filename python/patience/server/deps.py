"""Typed dependencies of the routers: the store, the settings, the solver pool, the
caller's game.

They are ``async`` so that FastAPI runs them on the event loop rather than in a worker
thread: each is a dictionary lookup, or one indexed read of the database. A game not in
memory is rebuilt from its log in a worker thread, and only once the token is checked, so
a long game's rebuild never holds up other players and nobody without the token can cause
one.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, HTTPException, Request
from starlette.concurrency import run_in_threadpool

from patience.store.games import GameNotFoundError, GameStore, Live, NotYourGameError

from .pool import SolverPool
from .settings import Settings

__all__ = [
    "AppSettings",
    "LiveGame",
    "Pool",
    "Store",
    "get_live",
    "get_pool",
    "get_settings",
    "get_store",
]


async def get_store(request: Request) -> GameStore:
    """The application's game store."""
    store: GameStore = request.app.state.store
    return store


async def get_settings(request: Request) -> Settings:
    """The application's settings."""
    settings: Settings = request.app.state.settings
    return settings


async def get_pool(request: Request) -> SolverPool:
    """The application's bounded pool for solver work."""
    pool: SolverPool = request.app.state.pool
    return pool


Store = Annotated[GameStore, Depends(get_store)]
AppSettings = Annotated[Settings, Depends(get_settings)]
Pool = Annotated[SolverPool, Depends(get_pool)]


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
        live = store.authorize(game_id, token)
        if live is None:
            live = await run_in_threadpool(store.load, game_id)
    except GameNotFoundError as error:
        raise HTTPException(404, str(error)) from None
    except NotYourGameError as error:
        raise HTTPException(403, str(error)) from None
    return live


LiveGame = Annotated[Live, Depends(get_live)]
