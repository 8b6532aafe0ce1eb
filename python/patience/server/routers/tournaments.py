"""``/api/tournaments``: list, create (operators), join, play an attempt, standings (a page,
or around me), close and cancel (operators), and the verification once closed (made once,
then served as stored, and rate limited per address: ``PATIENCE_RATE_VERIFICATIONS``)."""

from __future__ import annotations

import gzip
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Annotated, Any, Literal, NamedTuple

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field

from patience.errors import PatienceError
from patience.games import GAMES, game_class, variant_key
from patience.players import User
from patience.tournaments import CatalogShortError, Tournaments

from ..deps import Player
from ..views import session_json

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])

REFUSALS: dict[int | str, dict[str, Any]] = {
    400: {"description": "Not possible now, or malformed: the reason is in `detail`"},
    401: {"description": "Sign in first"},
    403: {"description": "Operators only, or a signed-in request without its CSRF token"},
    404: {"description": "No such tournament"},
    422: {"description": "The body is not of the shape asked for"},
}


def _refusals(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: REFUSALS[code] for code in codes}


class NewTournament(BaseModel):
    """A tournament to make."""

    name: str = Field(max_length=64)
    game: str = Field(max_length=32, description=f"a game's name: {', '.join(GAMES)}")
    variant: dict[str, Any] = Field(default_factory=dict)
    policy: Literal["shared", "tier"] = Field(
        description="one deal shared by every entrant, or one deal of `tier` per attempt"
    )
    tier: int | None = Field(default=None, ge=1, le=10)
    opens_at: float = Field(description="Unix time", allow_inf_nan=False)
    closes_at: float = Field(description="Unix time", allow_inf_nan=False)
    attempts: int = Field(default=1, ge=1, le=100)
    max_entrants: int = Field(default=100, ge=1, le=100_000)
    clock: float | None = Field(
        default=None, description="seconds; the game's own by default", allow_inf_nan=False
    )


def _tournaments(request: Request) -> Tournaments:
    tournaments: Tournaments = request.app.state.tournaments
    return tournaments


def _need(player: User | None) -> User:
    if player is None:
        raise HTTPException(401, "sign in first")
    return player


def _refused(error: PatienceError) -> HTTPException:
    text = str(error)
    if text.startswith("no tournament"):
        return HTTPException(404, text)
    if text.startswith("only an operator"):
        return HTTPException(403, text)
    return HTTPException(400, text)


@router.get("")
def list_tournaments(request: Request) -> dict[str, Any]:
    """Every tournament (open, running, finished), the latest to close first."""
    return {"tournaments": _tournaments(request).all()}


@router.post("", status_code=201, responses=_refusals(400, 401, 403, 422))
def create(body: NewTournament, request: Request, player: Player) -> dict[str, Any]:
    """Make a tournament (operators): its deals are claimed from the catalog and its
    commitment published at once."""
    user = _need(player)
    try:
        return _tournaments(request).create(
            user,
            name=body.name,
            game=body.game,
            variant=body.variant,
            policy=body.policy,
            tier=body.tier,
            opens_at=body.opens_at,
            closes_at=body.closes_at,
            attempts=body.attempts,
            max_entrants=body.max_entrants,
            time_limit=body.clock,
        )
    except CatalogShortError as short:
        raise HTTPException(400, _catalog_short(short, request)) from None
    except PatienceError as error:
        raise _refused(error) from None


TIERS = 10
"""The tiers a rated game's deals fall in, a tenth of them in each."""


def _catalog_short(short: CatalogShortError, request: Request) -> str:
    """What an operator is told of a tournament refused for want of deals: the refill is
    asked to make them before any other (and this says so, and how long it may take at the
    rate the refill measured for that game and variant), or, with the refill off, the
    command that makes them."""
    background = getattr(request.app.state, "background", None)
    if background is None or not background.refilling:
        return (
            f"{short} This server does not refill its catalog (PATIENCE_CATALOG_REFILL is 0): "
            f"on the server, `patience deals generate {short.game}` with the variant's "
            "options makes more; then create the tournament again."
        )
    background.want(short.game, short.variant, short.tier, short.wanted)
    kind = (short.game, variant_key(short.variant))
    rate = background.rates.per_minute(kind)
    return catalog_short_words(short, rate, background.rates.measured(kind))


def catalog_short_words(short: CatalogShortError, rate: float | None, jobs: int) -> str:
    """The words of :func:`_catalog_short` for a refill that makes deals of the kind at
    ``rate`` a minute (measured over its last ``jobs`` jobs; None: not measured yet).

    >>> short = CatalogShortError("golf", {"wrap": False}, None, have=2, wanted=10)
    >>> print(catalog_short_words(short, None, 0))  # doctest: +NORMALIZE_WHITESPACE
    Not enough Golf deals are ready for this tournament: it needs 10, and the catalog has 2
    unused. The server is making them now, ahead of its other deals: one at a time while no
    player is waiting for the solver. How long the 8 missing take is unknown yet: this
    server has not made Golf deals lately, so it has no rate of its own to go by. Create the
    tournament again once they are made.
    >>> print(catalog_short_words(short, 2.0, 12))  # doctest: +NORMALIZE_WHITESPACE
    Not enough Golf deals are ready for this tournament: it needs 10, and the catalog has 2
    unused. The server is making them now, ahead of its other deals: one at a time while no
    player is waiting for the solver. Lately it has made about 2 Golf deals a minute
    (measured over its last 12 tries). At that rate the 8 missing take roughly 4 minutes,
    longer while players keep the solver busy. Create the tournament again once they are
    made.
    """
    missing = short.wanted - short.have
    # a tier holds a tenth of the deals (rating's deciles): ten made for each one of a tier
    made = missing * (TIERS if short.tier is not None else 1)
    title = game_class(short.game).title
    parts = [
        f"{short} The server is making them now, ahead of its other deals: one at a time "
        "while no player is waiting for the solver."
    ]
    if short.tier is not None:
        parts.append(
            f"A deal made falls in tier {short.tier} about one time in {TIERS}, so {missing} "
            f"of that tier take about {made} made."
        )
    needed = f"the {made} to make" if short.tier is not None else f"the {missing} missing"
    if rate is None or rate <= 0:
        why = (
            f"this server has not made {title} deals lately, so it has no rate of its own to go by"
            if rate is None
            else f"its last {jobs} tries at {title} deals made none"
        )
        parts.append(f"How long {needed} take is unknown yet: {why}.")
        seconds = None
    else:
        shown = f"{rate:.0f}" if rate >= 10 else f"{rate:.1f}".removesuffix(".0")
        parts.append(
            f"Lately it has made about {shown} {title} deals a minute (measured over its last "
            f"{jobs} tr{'y' if jobs == 1 else 'ies'})."
        )
        seconds = 60.0 * made / rate
        if seconds <= 60:
            parts.append(
                f"At that rate {needed} take about a minute: create the tournament again then."
            )
            return " ".join(parts)
        parts.append(
            f"At that rate {needed} take roughly {_duration(seconds)}, longer while players "
            "keep the solver busy."
        )
    if short.attempts is not None and (seconds is None or seconds > 600):
        parts.append(
            "Fewer attempts or fewer entrants at most need fewer deals, and one deal "
            "shared by every entrant needs one; or create the tournament again once "
            "they are made."
        )
    else:
        parts.append("Create the tournament again once they are made.")
    return " ".join(parts)


def _duration(seconds: float) -> str:
    """A wait in rough words.

    >>> _duration(70), _duration(90), _duration(5000), _duration(40_000)
    ('1 minute', '2 minutes', '1.4 hours', '11 hours')
    """
    if seconds < 3600:
        minutes = max(1, round(seconds / 60))
        return f"{minutes} minute{'' if minutes == 1 else 's'}"
    hours = seconds / 3600
    return f"{hours:.1f} hours" if hours < 10 else f"{round(hours)} hours"


@router.get("/{tournament_id}", responses=_refusals(404))
def read(tournament_id: str, request: Request, player: Player) -> dict[str, Any]:
    """A tournament: rules, status, entrants, commitment (and once closed, its document);
    for a signed-in player, ``me``: joined or not, attempts dealt and left, best score, and
    the id of an attempt still running."""
    tournaments = _tournaments(request)
    try:
        described = tournaments.public(tournament_id)
        if player is not None:
            described["me"] = tournaments.entrant(tournament_id, player.id)
    except PatienceError as error:
        raise _refused(error) from None
    return described


@router.post("/{tournament_id}/join", responses=_refusals(400, 401, 403, 404))
def join(tournament_id: str, request: Request, player: Player) -> dict[str, Any]:
    """Enter the tournament."""
    user = _need(player)
    try:
        return _tournaments(request).join(user, tournament_id)
    except PatienceError as error:
        raise _refused(error) from None


@router.post("/{tournament_id}/attempts", status_code=201, responses=_refusals(400, 401, 403, 404))
def attempt(tournament_id: str, request: Request, player: Player) -> JSONResponse:
    """Deal the next attempt: a timed game, played with the game endpoints like any other
    (its seed, record and replay stay hidden until the tournament closes)."""
    user = _need(player)
    try:
        live, token = _tournaments(request).start_attempt(user, tournament_id)
    except PatienceError as error:
        raise _refused(error) from None
    return JSONResponse({"token": token, **session_json(live)}, status_code=201)


@router.get("/{tournament_id}/standings", responses=_refusals(400, 401, 404))
def standings(
    tournament_id: str,
    request: Request,
    player: Player,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    around: Annotated[Literal["me"] | None, Query(description="the player's own rows")] = None,
) -> dict[str, Any]:
    """The standings, a page at a time, or around the signed-in player's own row; live
    while the tournament runs. The rule is in `rule`."""
    tournaments = _tournaments(request)
    try:
        if around == "me":
            return tournaments.around(tournament_id, _need(player).id)
        return tournaments.standings(tournament_id, offset=offset, limit=limit)
    except PatienceError as error:
        raise _refused(error) from None


@router.post("/{tournament_id}/close", responses=_refusals(400, 401, 403, 404))
def close(tournament_id: str, request: Request, player: Player) -> dict[str, Any]:
    """Close the tournament now (operators): running games end here with what they had;
    the early close (when, by whom) is published with the document."""
    user = _need(player)
    try:
        return _tournaments(request).close(user, tournament_id)
    except PatienceError as error:
        raise _refused(error) from None


@router.post("/{tournament_id}/cancel", responses=_refusals(400, 401, 403, 404))
def cancel(tournament_id: str, request: Request, player: Player) -> dict[str, Any]:
    """Cancel the tournament (operators): closed now, without results (nobody ranked)."""
    user = _need(player)
    try:
        return _tournaments(request).cancel(user, tournament_id)
    except PatienceError as error:
        raise _refused(error) from None


VERIFICATION_REFUSALS = _refusals(400, 404) | {
    429: {"description": "Too many requests from this address: see `Retry-After`"}
}


class Published(NamedTuple):
    """A publication as it is sent: its ETag, its bytes, and the same gzipped."""

    etag: str
    body: bytes
    gzipped: bytes


PUBLISHED_KEPT = 16
"""Publications each server process keeps ready to send (the most recently asked for)."""


class PublishedCache:
    """The latest publications asked for, ready to send: a publication never changes once
    made, so each is read from the database and compressed once per process, not per
    request (at 10,000 entrants it is 0.75 MB of JSON, about a tenth of that gzipped, and
    sending it whole to every request held the event loop from other players' moves).

    >>> cache = PublishedCache(kept=1)
    >>> first = cache.get("t1", lambda: '{"a": 1}')
    >>> cache.get("t1", lambda: "never read") is first, first.etag == cache.get("t1", str).etag
    (True, True)
    >>> _ = cache.get("t2", lambda: "{}"); cache.get("t1", lambda: "[]").body  # t1 was let go
    b'[]'
    """

    def __init__(self, kept: int = PUBLISHED_KEPT) -> None:
        self._kept = kept
        self._items: OrderedDict[str, Published] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str, make: Callable[[], str]) -> Published:
        """The publication ``key``, made with ``make`` when it is not kept."""
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
                return found
        body = make().encode()
        published = Published(
            etag='"' + hashlib.sha256(body).hexdigest()[:32] + '"',
            body=body,
            gzipped=gzip.compress(body, compresslevel=6, mtime=0),
        )
        with self._lock:
            self._items[key] = published
            while len(self._items) > self._kept:
                self._items.popitem(last=False)
        return published


@router.get("/{tournament_id}/verification", responses=VERIFICATION_REFUSALS)
def verification(tournament_id: str, request: Request) -> Response:
    """Once closed: the committed document, the commitment, how it closed (`closing`), and
    every entry's attempts with their game records, scores and ranks (check it with
    `patience tournament verify`). It never changes once made: it carries an ETag (a
    request with ``If-None-Match`` of it is answered 304, with no body) and is sent gzipped
    to a client that takes gzip."""
    cache: PublishedCache | None = getattr(request.app.state, "published", None)
    if cache is None:
        cache = request.app.state.published = PublishedCache()
    try:
        published = cache.get(
            tournament_id, lambda: _tournaments(request).verification_text(tournament_id)
        )
    except PatienceError as error:
        raise _refused(error) from None
    headers = {
        "ETag": published.etag,
        "Cache-Control": "public, max-age=3600",
        "Vary": "Accept-Encoding",
    }
    if published.etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    if "gzip" in request.headers.get("accept-encoding", "").lower():
        headers["Content-Encoding"] = "gzip"
        return Response(published.gzipped, media_type="application/json", headers=headers)
    return Response(published.body, media_type="application/json", headers=headers)
