"""``/api/admin``: the operator's page's API (``/operator`` in the browser), the same as
``patience users``: list and find accounts, disable and enable, rename, reset a password,
promote and demote, delete; and what the server runs with.

Every route needs a signed-in operator (403 otherwise), and every change the session's
CSRF token, as every signed-in change does. An operator cannot disable, demote or delete
their own account here (another operator, or ``patience users`` on the server, can): an
operator page can never lock out the last operator.
"""

from __future__ import annotations

import secrets
import time
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query
from pydantic import BaseModel, Field
from sqlalchemy import func, select

from patience.players import (
    Account,
    AccountError,
    NameTakenError,
    NoSuchAccountError,
    User,
)
from patience.store.catalog import counts
from patience.store.db import sessions

from ..deps import AccountStore, AppSettings, Player, Store

router = APIRouter(prefix="/api/admin", tags=["operators"])

REFUSALS: dict[int | str, dict[str, Any]] = {
    400: {"description": "Not an acceptable name: see `detail`"},
    401: {"description": "Not signed in"},
    403: {"description": "Not an operator, or a change without the session's CSRF token"},
    404: {"description": "No such account (or it was deleted)"},
    409: {"description": "Not on your own account, or the name is taken"},
}

TEMPORARY_PASSWORD_BYTES = 12
"""A reset password: 16 URL-safe characters, shown once to the operator to hand over."""


def _operator(player: User | None) -> User:
    if player is None:
        raise HTTPException(401, "sign in first")
    if not player.operator:
        raise HTTPException(403, "this is for operators")
    return player


def _not_yourself(player: User, user_id: str, what: str) -> None:
    if player.id == user_id:
        raise HTTPException(409, f"you cannot {what} your own account here; another operator can")


def _found(action: Any, *args: Any) -> Account:
    try:
        account: Account = action(*args)
    except NoSuchAccountError as error:
        raise HTTPException(404, str(error)) from None
    except NameTakenError as error:
        raise HTTPException(409, str(error)) from None
    except AccountError as error:
        raise HTTPException(400, str(error)) from None
    return account


@router.get("/users", responses=REFUSALS)
def list_users(
    accounts: AccountStore,
    player: Player,
    search: Annotated[str, Query(max_length=64, description="a part of the name")] = "",
    deleted: Annotated[bool, Query(description="the deleted accounts too")] = False,
    offset: Annotated[int, Query(ge=0, le=10_000_000)] = 0,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> dict[str, Any]:
    """A page of the accounts, by name."""
    _operator(player)
    page, total = accounts.accounts(search=search, deleted=deleted, offset=offset, limit=limit)
    return {"users": [account.to_json() for account in page], "total": total}


@router.get("/users/{user_id}", responses=REFUSALS)
def show_user(user_id: str, accounts: AccountStore, player: Player) -> dict[str, Any]:
    """One account."""
    _operator(player)
    return _found(accounts.account, user_id).to_json()


@router.post("/users/{user_id}/disable", responses=REFUSALS)
def disable(user_id: str, accounts: AccountStore, player: Player) -> dict[str, Any]:
    """The account may no longer sign in; its signed-in sessions end."""
    _not_yourself(_operator(player), user_id, "disable")
    return _found(accounts.set_disabled, user_id, True).to_json()


@router.post("/users/{user_id}/enable", responses=REFUSALS)
def enable(user_id: str, accounts: AccountStore, player: Player) -> dict[str, Any]:
    """The account may sign in again."""
    _operator(player)
    return _found(accounts.set_disabled, user_id, False).to_json()


@router.post("/users/{user_id}/promote", responses=REFUSALS)
def promote(user_id: str, accounts: AccountStore, player: Player) -> dict[str, Any]:
    """Make the account an operator."""
    _operator(player)
    return _found(accounts.set_operator, user_id, True).to_json()


@router.post("/users/{user_id}/demote", responses=REFUSALS)
def demote(user_id: str, accounts: AccountStore, player: Player) -> dict[str, Any]:
    """Make the operator a player again."""
    _not_yourself(_operator(player), user_id, "demote")
    return _found(accounts.set_operator, user_id, False).to_json()


class NewName(BaseModel):
    """An account's new name."""

    name: str = Field(max_length=64, description="2 to 24 characters")


@router.post("/users/{user_id}/rename", responses=REFUSALS)
def rename(user_id: str, body: NewName, accounts: AccountStore, player: Player) -> dict[str, Any]:
    """Give the account another name."""
    _operator(player)
    return _found(accounts.rename, user_id, body.name).to_json()


@router.post("/users/{user_id}/password", responses=REFUSALS)
def reset_password(user_id: str, accounts: AccountStore, player: Player) -> dict[str, Any]:
    """Give the account a new random password, shown once here for the operator to hand
    over; its signed-in sessions end."""
    _operator(player)
    password = secrets.token_urlsafe(TEMPORARY_PASSWORD_BYTES)
    account = _found(accounts.reset_password, user_id, password)
    return {**account.to_json(), "password": password}


@router.delete("/users/{user_id}", responses=REFUSALS)
def delete_user(user_id: str, accounts: AccountStore, player: Player) -> dict[str, Any]:
    """Delete the account: its name and password go; its games and tournament results
    stay, anonymous."""
    _not_yourself(_operator(player), user_id, "delete")
    try:
        accounts.delete_account(user_id)
    except NoSuchAccountError as error:
        raise HTTPException(404, str(error)) from None
    return {"deleted": True}


@router.get("/server", responses=REFUSALS)
def server(
    player: Player, accounts: AccountStore, store: Store, settings: AppSettings
) -> dict[str, Any]:
    """What the server runs with and holds: sign-up open or closed, the accounts and
    operators, the games running, and the catalog's unused deals per game."""
    _operator(player)
    _, players = accounts.accounts()
    with store.engine.connect() as connection:
        clock_runs = sessions.c.created_at + sessions.c.paused + sessions.c.time_limit > time.time()
        running = connection.execute(
            select(func.count()).where(sessions.c.ended_at.is_(None), clock_runs)
        ).scalar_one()
        stock: dict[str, int] = {}
        for row in counts(connection):
            stock[row["game"]] = stock.get(row["game"], 0) + row["unused"]
    return {
        "signup": settings.signup,
        "accounts": players,
        "operators": accounts.operators(),
        "running_games": int(running),
        "catalog_unused": stock,
        "workers": settings.workers,
    }
