"""Typed dependencies of the routers: the store, the settings, the solver pool, the
signed-in player, the caller's game.

They are ``async`` so that FastAPI runs them on the event loop rather than in a worker
thread: each is a dictionary lookup, or one indexed read of the database. A game not in
memory is rebuilt from its log in a worker thread, and only once the token is checked, so
a long game's rebuild never holds up other players and nobody without the token can cause
one.
"""

from __future__ import annotations

import secrets
from typing import Annotated

from fastapi import Depends, Header, HTTPException, Request
from starlette.concurrency import run_in_threadpool

from patience.players import Accounts, User, csrf_token
from patience.store.games import GameNotFoundError, GameStore, Live, NotYourGameError

from .http import HintLimits
from .pool import SolverPool
from .settings import Settings

__all__ = [
    "COOKIE",
    "CSRF_HEADER",
    "GUEST_COOKIE",
    "AccountStore",
    "AppSettings",
    "Hints",
    "LiveGame",
    "Player",
    "Pool",
    "Store",
    "get_accounts",
    "get_hint_limits",
    "get_live",
    "get_player",
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


async def get_hint_limits(request: Request) -> HintLimits:
    """The application's counts of each player's hints."""
    limits: HintLimits = request.app.state.hint_limits
    return limits


async def get_accounts(request: Request) -> Accounts:
    """The application's accounts."""
    accounts: Accounts = request.app.state.accounts
    return accounts


COOKIE = "patience_session"
GUEST_COOKIE = "patience_guest"
"""A guest browser's random token: its guest games are marked with its hash, so that a
sign-up from that browser takes over all of them (and only those)."""
"""The cookie of a signed-in session: ``HttpOnly``, ``SameSite=Strict``, ``Secure`` over TLS."""

CSRF_HEADER = "X-CSRF-Token"
"""The header a signed-in page sends its CSRF token in, on every request that changes
anything (the token comes with the sign-in and with ``GET /api/me``)."""

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def same_origin(request: Request) -> bool:
    """Whether the request's ``Origin`` (when the browser sent one) is this server's."""
    origin = request.headers.get("origin")
    if origin is None:
        return True
    own = f"{request.url.scheme}://{request.url.netloc}"
    return origin == own


async def get_player(request: Request) -> User | None:
    """The signed-in player, from the session cookie; None for a guest (or a session that
    expired). A request that changes anything while signed in must come from this origin
    and carry the session's CSRF token in :data:`CSRF_HEADER`, or it is refused (403):
    another site's page can make a browser send the cookie only where ``SameSite`` is not
    honoured, and can never read the token."""
    token = request.cookies.get(COOKIE)
    if not token:
        return None
    accounts: Accounts = request.app.state.accounts
    user = accounts.session(token)
    if user is None:
        return None
    if request.method not in SAFE_METHODS:
        sent = request.headers.get(CSRF_HEADER, "")
        if not same_origin(request) or not secrets.compare_digest(sent, csrf_token(token)):
            raise HTTPException(
                403,
                f"a signed-in request that changes anything needs the {CSRF_HEADER} header "
                "of this page's session (and to come from this site)",
            )
    return user


Store = Annotated[GameStore, Depends(get_store)]
AccountStore = Annotated[Accounts, Depends(get_accounts)]
Player = Annotated[User | None, Depends(get_player)]
AppSettings = Annotated[Settings, Depends(get_settings)]
Pool = Annotated[SolverPool, Depends(get_pool)]
Hints = Annotated[HintLimits, Depends(get_hint_limits)]


async def get_live(
    game_id: str,
    store: Store,
    player: Player,
    authorization: Annotated[str | None, Header()] = None,
) -> Live:
    """The game ``game_id``, if the request's ``Authorization: Bearer TOKEN`` holds it, or,
    without a token, if it is the signed-in player's."""
    token = None
    if authorization is not None:
        scheme, _, value = authorization.partition(" ")
        if scheme.lower() == "bearer" and value:
            token = value.strip()
    if token is None and player is None:
        raise HTTPException(
            401, "send the game's token as 'Authorization: Bearer TOKEN', or sign in"
        )
    try:
        live = store.authorize(game_id, token, user_id=None if player is None else player.id)
        if live is None:
            live = await run_in_threadpool(store.load, game_id)
    except GameNotFoundError as error:
        raise HTTPException(404, str(error)) from None
    except NotYourGameError as error:
        raise HTTPException(403, str(error)) from None
    return live


LiveGame = Annotated[Live, Depends(get_live)]
