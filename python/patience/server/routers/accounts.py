"""``/api/accounts`` and ``/api/me``: sign up, log in and out, change the password; the
signed-in player's account, finished games, statistics and export.

A signed-in browser holds a cookie (:data:`..deps.COOKIE`: ``HttpOnly``, ``SameSite=Strict``,
``Secure`` over TLS); every request of it that changes anything carries the session's CSRF
token (``X-CSRF-Token``), which sign-up, log-in and ``GET /api/me`` give. A successful
sign-up or log-in also sets :data:`DEVICE_COOKIE`, which lets this browser past the cap on
an account's failed log-ins from new devices (:mod:`patience.players.accounts`). Password
hashing (argon2id, tenths of a second and 64 MiB on purpose) runs in worker threads, never
on the event loop, at most ``PATIENCE_PASSWORD_WORKERS`` at a time.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from patience.daily import Daily
from patience.errors import PatienceError
from patience.games import GAMES
from patience.players import (
    AccountError,
    BadCredentialsError,
    BusyError,
    DisabledError,
    NameTakenError,
    SignedIn,
    TooManyAttemptsError,
    csrf_token,
)
from patience.players.history import (
    Statistics,
    finished_games,
    running_games,
    statistics_of,
    totals_of,
)
from patience.store.games import GameNotFoundError, GameStore

from ..deps import COOKIE, GUEST_COOKIE, AccountStore, AppSettings, Player, Store, same_origin
from ..http import client_address
from ..views import running_json

router = APIRouter(tags=["accounts"])

REFUSALS: dict[int | str, dict[str, Any]] = {
    400: {"description": "Malformed, or not an acceptable name or password: see `detail`"},
    401: {"description": "Not signed in, or a wrong name or password"},
    403: {
        "description": "A signed-in request without its CSRF token, or from another site; "
        "sign-up closed; a disabled account"
    },
    409: {"description": "The name is taken"},
    413: {"description": "The body is larger than the server takes"},
    422: {"description": "The body is not of the shape asked for"},
    429: {"description": "Too many failed log-ins, or sign-ups: see `Retry-After`"},
    503: {"description": "Busy checking passwords; nothing was counted: see `Retry-After`"},
}

DEVICE_COOKIE = "patience_device"
"""The cookie of a browser an account has logged in from: a random token (kept hashed) that
lets it past the cap on the account's failed log-ins from new devices. ``HttpOnly``,
``SameSite=Strict``, ``Secure`` over TLS, for a year; a log-out keeps it."""

DEVICE_SECONDS = 365 * 86_400


def _refusals(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: REFUSALS[code] for code in codes}


class Credentials(BaseModel):
    """A name and a password."""

    name: str = Field(max_length=64, description="2 to 24 characters")
    password: str = Field(max_length=256, description="8 to 256 characters")


class GuestGame(BaseModel):
    """A game played as a guest on this browser: its id and token."""

    id: str = Field(max_length=64)
    token: str = Field(max_length=128)


class SignUp(Credentials):
    """A new account, and whether it takes over the games this browser played as a guest."""

    claim: bool | list[GuestGame] = Field(
        default=True,
        description="whether every game this browser played as a guest (finished, running "
        "or abandoned) becomes the new account's: all of them or none. (A list of games, "
        "the old form, is read as true: the browser's games are claimed, not the list's.)",
    )


class NewPassword(BaseModel):
    """The old password and the new one."""

    old: str = Field(max_length=256)
    new: str = Field(max_length=256)


def _signed_in(request: Request, signed: SignedIn, status: int = 200, **extra: Any) -> JSONResponse:
    """The answer to a sign-in: the account and its CSRF token, the cookie set."""
    answer = JSONResponse(
        {
            "name": signed.user.name,
            "operator": signed.user.operator,
            "csrf": signed.csrf,
            "expires_at": signed.expires_at,
            **extra,
        },
        status_code=status,
    )
    answer.set_cookie(
        COOKIE,
        signed.token,
        max_age=max(0, int(signed.expires_at - time.time())),
        path="/",
        secure=request.url.scheme == "https",
        httponly=True,
        samesite="strict",
    )
    if signed.device is not None:
        answer.set_cookie(
            DEVICE_COOKIE,
            signed.device,
            max_age=DEVICE_SECONDS,
            path="/",
            secure=request.url.scheme == "https",
            httponly=True,
            samesite="strict",
        )
    return answer


def _limited(error: TooManyAttemptsError | BusyError) -> HTTPException:
    """429 (too many) or 503 (busy), each with ``Retry-After``."""
    status = 503 if isinstance(error, BusyError) else 429
    return HTTPException(status, str(error), headers={"Retry-After": str(error.retry_after)})


def _from_this_site(request: Request) -> None:
    if not same_origin(request):
        raise HTTPException(403, "sign-ups and log-ins come from this site's own pages")


def _address(request: Request) -> str:
    return client_address(request) or "unknown"


@router.get("/api/accounts/signup")
def signup_state(settings: AppSettings) -> dict[str, bool]:
    """Whether anyone may make an account here (``PATIENCE_SIGNUP``); when closed, an
    operator makes accounts (``patience users create``)."""
    return {"open": settings.signup == "open"}


@router.post(
    "/api/accounts", status_code=201, responses=_refusals(400, 403, 409, 413, 422, 429, 503)
)
def sign_up(
    body: SignUp,
    request: Request,
    accounts: AccountStore,
    store: Store,
    player: Player,
    settings: AppSettings,
) -> JSONResponse:
    """Make an account and sign in; with ``claim`` (the default), every game this browser
    played as a guest becomes the account's. Sign-ups are limited per address (429 with
    ``Retry-After``), and refused (403) when sign-up is closed (``PATIENCE_SIGNUP``)."""
    _from_this_site(request)
    if settings.signup != "open":
        raise HTTPException(403, "sign-up is closed on this server: ask an operator for an account")
    if player is not None:
        raise HTTPException(400, f"you are signed in as {player.name}: log out first")
    try:
        signed = accounts.sign_up(body.name, body.password, address=_address(request))
    except (TooManyAttemptsError, BusyError) as error:
        raise _limited(error) from None
    except NameTakenError as error:
        raise HTTPException(409, str(error)) from None
    except AccountError as error:
        raise HTTPException(400, str(error)) from None
    guest = request.cookies.get(GUEST_COOKIE)
    claimed = store.claim_guest_games(signed.user.id, guest) if body.claim and guest else 0
    return _signed_in(request, signed, 201, claimed=claimed)


@router.post("/api/accounts/login", responses=_refusals(401, 403, 413, 422, 429, 503))
def log_in(body: Credentials, request: Request, accounts: AccountStore) -> JSONResponse:
    """Sign in with a name and password. Failed attempts back off per account and client,
    and are capped per account for new devices and per address (429 with ``Retry-After``);
    a browser the account has logged in from passes the caps."""
    _from_this_site(request)
    try:
        signed = accounts.log_in(
            body.name,
            body.password,
            address=_address(request),
            device=request.cookies.get(DEVICE_COOKIE),
        )
    except (TooManyAttemptsError, BusyError) as error:
        raise _limited(error) from None
    except DisabledError as error:
        raise HTTPException(403, str(error)) from None
    except (BadCredentialsError, AccountError) as error:
        raise HTTPException(401, str(error)) from None
    return _signed_in(request, signed)


@router.post("/api/accounts/logout", status_code=204, responses=_refusals(403))
def log_out(request: Request, accounts: AccountStore, player: Player) -> Response:
    """End this browser's signed-in session (nothing when not signed in)."""
    token = request.cookies.get(COOKIE)
    if token and player is not None:
        accounts.log_out(token)
    answer = Response(status_code=204)
    answer.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict")
    return answer


@router.post("/api/accounts/password", responses=_refusals(400, 401, 403, 413, 422, 429, 503))
def change_password(
    body: NewPassword, request: Request, accounts: AccountStore, player: Player
) -> JSONResponse:
    """Change the password, given the old one (wrong ones back off like failed log-ins).
    Every signed-in session of the account ends and every device is forgotten; this browser
    is signed in again (a new cookie and CSRF token) and known afresh."""
    user = _need(player)
    try:
        accounts.change_password(user, body.old, body.new, session=request.cookies[COOKIE])
    except (TooManyAttemptsError, BusyError) as error:
        raise _limited(error) from None
    except BadCredentialsError as error:
        raise HTTPException(401, str(error)) from None
    except AccountError as error:
        raise HTTPException(400, str(error)) from None
    return _signed_in(request, accounts.sign_in_again(user))


def _need(player: Player) -> Any:
    if player is None:
        raise HTTPException(401, "sign in first")
    return player


@router.get("/api/me", responses=_refusals(401))
def me(request: Request, player: Player) -> dict[str, Any]:
    """The signed-in account, and the CSRF token this page sends with every change."""
    user = _need(player)
    return {
        "name": user.name,
        "operator": user.operator,
        "csrf": csrf_token(request.cookies[COOKIE]),
    }


@router.get("/api/me/games", responses=_refusals(401))
def my_games(
    store: Store,
    player: Player,
    before: Annotated[
        float | None, Query(description="ended before this (the next page)", allow_inf_nan=False)
    ] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> dict[str, Any]:
    """The signed-in player's finished games, the newest first, ``limit`` a page; the next
    page is asked for with ``before`` = the last game's ``ended_at``."""
    user = _need(player)
    games = [g.to_json() for g in finished_games(store.engine, user.id, before=before, limit=limit)]
    return {"games": games, "more": len(games) == limit}


@router.get("/api/me/running", responses=_refusals(401))
async def my_running(store: Store, player: Player) -> dict[str, Any]:
    """The signed-in player's games still running, the newest first (ten at most), from
    any device: each as the lobby's Continue shows it (the game, its mode, its clock, its
    score and moves; never a card), with ``daily`` and ``tournament`` saying what it was
    dealt for. A game is opened with its id, signed in (no token needed)."""
    user = _need(player)
    games = await run_in_threadpool(_running, store, user.id)
    return {"games": games}


def _running(store: GameStore, user_id: str) -> list[dict[str, Any]]:
    """The running games of player ``user_id`` as :func:`my_running` lists them; their
    clocks read now (a game whose time ran out unwatched ends here and is left out)."""
    listed = []
    for game in running_games(store.engine, user_id):
        try:
            live = store.authorize(game.id, None, user_id=user_id) or store.load(game.id)
        except (GameNotFoundError, PermissionError):
            continue
        with live.lock:
            store.refresh(live)
            if live.session.is_over():
                continue
            view = running_json(live)
        listed.append({**view, "daily": game.daily, "tournament": game.tournament})
    return listed


@router.get("/api/me/stats", responses=_refusals(401))
def my_stats(store: Store, player: Player) -> dict[str, Any]:
    """The signed-in player's statistics per game, variant and mode, in the lobby's order:
    games, wins, win rate, time played, current and best streak, best and average score,
    fastest win, the recent games' scores and per difficulty tier (a relaxed game has no
    score, speed or streak); the totals across them all (and the timed games' alone); and
    the daily deals played and won, with the days in a row won."""
    user = _need(player)
    groups = sorted(statistics_of(finished_games(store.engine, user.id)), key=lobby_order)
    return {
        "stats": [group.to_json() for group in groups],
        "totals": totals_of(groups),
        "daily": Daily(store).streaks(user.id),
    }


_MODES = ("timed", "practice", "relaxed")


def lobby_order(group: Statistics) -> tuple[int, int, int]:
    """Where a group of statistics comes: the lobby's order of games, then of variants,
    then timed, practice and relaxed."""
    names = list(GAMES)
    cls = GAMES.get(group.game)
    variants = [] if cls is None else cls.variants()
    return (
        names.index(group.game) if group.game in names else len(names),
        variants.index(group.variant) if group.variant in variants else len(variants),
        _MODES.index(group.mode) if group.mode in _MODES else len(_MODES),
    )


@router.get("/api/me/export", responses=_refusals(401))
def export(store: Store, player: Player) -> StreamingResponse:
    """Every finished game of the signed-in player as a game record (game, variant, deal,
    moves, elapsed), one JSON object a line, the oldest first."""
    user = _need(player)
    games = list(finished_games(store.engine, user.id))[::-1]

    def lines() -> Iterator[str]:
        for game in games:
            try:
                record = store.record(game.id)
            except PatienceError:
                continue
            yield json.dumps({"id": game.id, **record}) + "\n"

    return StreamingResponse(
        lines(),
        media_type="application/x-ndjson",
        headers={"Content-Disposition": 'attachment; filename="patience-games.jsonl"'},
    )
