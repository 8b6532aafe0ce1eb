"""``/api/sessions``: start a game, read it, move, undo, end, ask for a hint, get its record.

Every request about a game carries its token (``Authorization: Bearer TOKEN``); every
refused request is a 4xx with a reason in ``detail`` and leaves the game as it was.

The game endpoints are ``async`` and answer with the view serialised directly: a move is
a fraction of a millisecond of work, less than a hop to a worker thread and FastAPI's
generic encoder would add (``benchmarks/server.py`` measures the round trip). The move's
commit is the store's writing thread's (:meth:`GameStore.play_async`), and starting a game
reads and writes the database in a worker thread: the event loop never waits for the disk.
Solver work (a timed deal certified when the catalog has none, a hint) runs in the bounded
pool (:mod:`..pool`); a request that finds it full is answered 503 with ``Retry-After``.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from functools import partial
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, HTTPException, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, BeforeValidator, Field
from starlette.concurrency import run_in_threadpool

from patience.errors import IllegalMoveError, PatienceError
from patience.games import GAMES, game_class
from patience.rating import DIFFICULTIES
from patience.session import RELAXED_SECONDS
from patience.solve import SOLVABLE_GAMES
from patience.store.games import (
    Live,
    MoveConflictError,
    UnfinishedGameError,
    certify_deal,
    new_game_id,
    variant_text,
)
from patience.store.pauses import pause, resume

from ..deps import GUEST_COOKIE, AppSettings, Hints, LiveGame, Player, Pool, Store
from ..http import client_address
from ..metrics import HINTS
from ..pool import PoolFullError, winning_line
from ..views import replay_json, session_json

router = APIRouter(prefix="/api/sessions", tags=["sessions"])

REFUSALS: dict[int | str, dict[str, Any]] = {
    400: {"description": "Malformed: the reason is in `detail`"},
    401: {"description": "No token: send `Authorization: Bearer TOKEN`"},
    403: {"description": "The token does not hold this game"},
    404: {"description": "No such game"},
    409: {"description": "Not legal now, or the request was made from an older view"},
    413: {"description": "The body is larger than the server takes"},
    422: {"description": "The body is not of the shape asked for"},
    429: {"description": "Too many requests from this client: see `Retry-After`"},
}
"""Every refusal a game's route can answer, for the OpenAPI document."""


def _refusals(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: REFUSALS[code] for code in codes}


BUSY: dict[int | str, dict[str, Any]] = {
    503: {"description": "The solver pool is full: try again after `Retry-After` seconds"}
}


PRACTICE_DEALS = 1_000_000
"""A practice or relaxed game dealt without a deal number gets one below this: six digits at
most, a number a player can read out and type (a timed game's deal, from the catalog, is
a secret 63-bit number)."""


def practice_seed() -> int:
    """A fresh deal number for a practice or relaxed game."""
    return secrets.randbelow(PRACTICE_DEALS)


_SEED_DIGITS = 40
"""More digits than any seed has (2**64 has 20): a longer string is refused unread."""


def _seed(value: object) -> object:
    """A seed as a whole number: given as one, or as a string of decimal digits (as a
    JavaScript client sends it, since its numbers hold integers exactly only up to 2**53).
    Anything else is refused with a reason that does not echo it."""
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    if isinstance(value, str):
        digits = value.strip()
        if 0 < len(digits) <= _SEED_DIGITS and digits.isascii() and digits.isdigit():
            return int(digits)
    raise ValueError('a seed is a whole number, given as a number or a string of digits ("42")')


Seed = Annotated[int | None, BeforeValidator(_seed)]


def _deal_number(value: object) -> object:
    """A numbered deal's number as a whole number: given as one, or as a string of decimal
    digits (as the client sends what a player typed). Anything else is refused with a
    reason that does not echo it; the range is the numbering's, checked with the game."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        digits = value.strip()
        if 0 < len(digits) <= _SEED_DIGITS and digits.isascii() and digits.isdigit():
            return int(digits)
    raise ValueError(
        'a deal\'s number is a whole number, given as a number or a string of digits ("617")'
    )


class Numbered(BaseModel):
    """A deal by a numbering players know from elsewhere (a game's ``numberings`` in
    ``GET /api/games``)."""

    numbering: str = Field(description='the numbering\'s name, e.g. "microsoft"', max_length=32)
    number: Annotated[int, BeforeValidator(_deal_number)] = Field(
        description="the deal's number, in the numbering's range (its `first` to `last`), "
        'a whole number or a string of its decimal digits ("11982")'
    )


class NewGame(BaseModel):
    """A request for a new game."""

    game: str = Field(description=f"a game's name: {', '.join(GAMES)}", max_length=32)
    variant: dict[str, Any] = Field(default_factory=dict, description='e.g. {"draw": 3}')
    seed: Seed = Field(
        default=None,
        description="practice and relaxed games only: a seeded deal (none for a fresh one: "
        "a deal number of at most six digits), a whole "
        'number or a string of its decimal digits ("42"); a timed game is always dealt by '
        "the server",
    )
    mode: Literal["timed", "practice", "relaxed"] = Field(
        default="timed",
        description="timed (the rules of record: the clock, the score, the undo limits), "
        "practice (the same rules, a deal of your choice, hints; counts apart) or relaxed "
        "(no clock or score shown, undo as far back as you like; counts in no standing)",
    )
    numbered: Numbered | None = Field(
        default=None,
        description="practice and relaxed games only, without a seed or a difficulty: the "
        "deal numbered so by one of the game's numberings (its `numberings` in "
        '`GET /api/games`), e.g. {"numbering": "microsoft", "number": 11982}; a timed game '
        "is always dealt by the server",
    )
    difficulty: Literal["easy", "medium", "hard", "expert"] | None = Field(
        default=None,
        description="a deal of this difficulty from the rated catalog (easy: tiers 1-3, "
        "medium 4-6, hard 7-8, expert 9-10), for the games whose deals are rated; without "
        "it, a timed game gets the catalog's next deal of any tier",
    )


class MoveCount(BaseModel):
    """Which view a request was made from, so that a retried request applies once."""

    move_count: int | None = Field(
        default=None,
        ge=0,
        description="the `move_count` of the view this request was made from; a retry of a "
        "request already applied is answered as the first time, and a request from an older "
        "view is refused (409)",
    )


class MoveRequest(MoveCount):
    """One move in the games' notation (``t3>t5``, ``w>f``, ``draw``, ``undo``, ``end``...)."""

    move: str = Field(min_length=1, max_length=40)


def _refused(error: PatienceError) -> HTTPException:
    """An illegal move now, or one from an old view, is a conflict (409); a malformed one a
    bad request (400)."""
    conflict = isinstance(error, IllegalMoveError | MoveConflictError)
    return HTTPException(409 if conflict else 400, str(error))


def _busy(error: PoolFullError) -> HTTPException:
    return HTTPException(503, str(error), headers={"Retry-After": str(error.retry_after)})


START_REFUSALS = _refusals(400, 409, 413, 422, 429) | BUSY
START_REFUSALS[409] = {
    "description": "No unused deal of the difficulty asked for is left in the catalog now, "
    "or the signed-in player has a timed game of this kind running"
}
START_REFUSALS[403] = {
    "description": "Signed in, but without the session's CSRF token or from another site"
}


@router.post("", status_code=201, responses=START_REFUSALS)
async def start_game(
    request: NewGame, store: Store, pool: Pool, player: Player, http: Request
) -> JSONResponse:
    """Start a game; the answer holds the token that every later request must carry. A
    timed game gets the catalog's next certified deal, or one certified now; a game of a
    difficulty (timed or practice) gets the catalog's next deal of that difficulty. A
    signed-in player's game is theirs (on any device, with the session cookie), and a
    player has one timed game of a game and variant running at most (409)."""
    user_id = None if player is None else player.id
    address = client_address(http)
    guest = new_guest = None
    if player is None:
        guest = http.cookies.get(GUEST_COOKIE)
        if not guest or len(guest) > 64:
            guest = new_guest = secrets.token_urlsafe(32)
    game_id = new_game_id()
    try:
        variant, seed, tier, certified = await run_in_threadpool(
            _deal, store, request, game_id, user_id, address, guest
        )
        if seed is None and request.mode == "timed":  # the catalog had none: certify one
            deal = await pool.run(certify_deal, **store.certify_request(request.game, variant))
            seed = deal.seed
        live, token = await run_in_threadpool(
            partial(
                store.open,
                request.game,
                variant,
                seed=seed,
                mode=request.mode,
                certified=certified,
                game_id=game_id,
                tier=tier,
                user_id=user_id,
                address=address,
                guest=guest,
                time_limit=RELAXED_SECONDS if request.mode == "relaxed" else None,
                numbered=_numbered(request),
                one_timed=True,
            )
        )
    except UnfinishedGameError as error:
        raise HTTPException(409, str(error)) from None
    except PoolFullError as error:
        raise _busy(error) from None
    except PatienceError as error:
        raise HTTPException(400, str(error)) from None
    if request.mode != "timed":  # a hint may come: have a solver process ready for it
        pool.warm()
    answer = JSONResponse({"token": token, **session_json(live)}, status_code=201)
    if new_guest is not None:
        answer.set_cookie(
            GUEST_COOKIE,
            new_guest,
            max_age=400 * 86_400,
            path="/",
            secure=http.url.scheme == "https",
            httponly=True,
            samesite="strict",
        )
    return answer


def _numbered(request: NewGame) -> tuple[str, int] | None:
    """The request's numbered deal as ``(numbering, number)``, if it asks for one."""
    if request.numbered is None:
        return None
    return request.numbered.numbering, request.numbered.number


def _deal(
    store: Store,
    request: NewGame,
    game_id: str,
    user_id: str | None,
    address: str | None,
    guest: str | None,
) -> tuple[dict[str, object], int | None, int | None, bool]:
    """The checked variant, seed, tier and whether the deal is certified, for a new game:
    a timed game's or a difficulty's from the catalog (a timed game's seed is None when
    the catalog has none: the caller certifies one; after a deal of a difficulty not won,
    the next timed one of it is of the same tier), or a practice game's chosen seed with
    the tier shown only once the deal is public. In a worker thread: it reads and writes
    the database."""
    variant = store.check_start(
        request.game,
        request.variant,
        seed=request.seed,
        mode=request.mode,
        difficulty=request.difficulty,
        user_id=user_id,
        address=address,
        numbered=_numbered(request),
    )
    seed, certified = request.seed, False
    if request.numbered is not None:  # a practice deal players know by its number
        return variant, None, None, certified
    if request.difficulty is not None:
        taken = None
        if request.mode == "timed":
            again = store.same_tier_again(
                request.game,
                variant,
                DIFFICULTIES[request.difficulty],
                user_id=user_id,
                guest=guest,
            )
            if again is not None:
                taken = store.claim(request.game, variant, game_id, tier=again)
        if taken is None:
            taken = store.claim(request.game, variant, game_id, request.difficulty)
        if taken is None:
            title = game_class(request.game).title + variant_text(variant)
            raise HTTPException(
                409,
                f"no {request.difficulty.capitalize()} deal of {title} is left right now; "
                "choose another difficulty, or try again later",
            )
        return variant, taken.seed, taken.tier, True
    if request.mode == "timed":
        taken = store.claim(request.game, variant, game_id)
        if taken is None:
            return variant, None, None, True
        return variant, taken.seed, taken.tier, True
    if seed is None:
        return variant, practice_seed(), None, certified  # a number a player can read out
    return variant, seed, store.practice_tier(request.game, variant, seed, game_id), certified


@router.get("/{game_id}", responses=_refusals(401, 403, 404))
async def read_game(live: LiveGame, store: Store) -> JSONResponse:
    """The game as its player sees it now (the clock included)."""
    async with live.turn:  # after a move of it being committed
        with live.lock:
            store.refresh(live)
            return JSONResponse(session_json(live))


async def _play(live: Live, store: Store, move: str, move_count: int | None) -> JSONResponse:
    try:
        answer = await store.play_async(live, move, move_count=move_count)
    except PatienceError as error:
        raise _refused(error) from None
    return JSONResponse(session_json(live, answer))


MOVE_REFUSALS = _refusals(400, 401, 403, 404, 409, 413, 422, 429)


@router.post("/{game_id}/moves", responses=MOVE_REFUSALS)
async def make_move(request: MoveRequest, live: LiveGame, store: Store) -> JSONResponse:
    """Play one move; refused moves change nothing."""
    return await _play(live, store, request.move, request.move_count)


@router.post("/{game_id}/undo", responses=MOVE_REFUSALS)
async def undo(
    live: LiveGame, store: Store, request: Annotated[MoveCount | None, Body()] = None
) -> JSONResponse:
    """Take back the last move, when the rules allow it."""
    return await _play(live, store, "undo", None if request is None else request.move_count)


@router.post("/{game_id}/end", responses=MOVE_REFUSALS)
async def end(
    live: LiveGame, store: Store, request: Annotated[MoveCount | None, Body()] = None
) -> JSONResponse:
    """Stop playing and collect the time bonus."""
    return await _play(live, store, "end", None if request is None else request.move_count)


@router.post("/{game_id}/pause", responses=_refusals(401, 403, 404, 409, 429))
async def pause_clock(live: LiveGame, store: Store) -> JSONResponse:
    """Practice and relaxed games: stop the clock (the player's page is hidden). A move, or
    ``resume``, starts it again. A timed game's clock never stops (409)."""
    async with live.turn:  # after a move of it being committed; the change is written
        try:  # off the event loop, as a move is
            await run_in_threadpool(pause, store, live)
        except PatienceError as error:
            raise HTTPException(409, str(error)) from None
        with live.lock:
            return JSONResponse(session_json(live))


@router.post("/{game_id}/resume", responses=_refusals(401, 403, 404, 409, 429))
async def resume_clock(live: LiveGame, store: Store) -> JSONResponse:
    """Practice and relaxed games: start the clock again after ``pause``."""
    async with live.turn:  # after a move of it being committed; the change is written
        try:  # off the event loop, as a move is
            await run_in_threadpool(resume, store, live)
        except PatienceError as error:
            raise HTTPException(409, str(error)) from None
        with live.lock:
            return JSONResponse(session_json(live))


HINT_WAIT_SECONDS = 1.5
"""How much longer than the search's budget a hint may take: the wait for a free solver
process and the trip to it. A player is never left waiting longer than the two (and
:data:`HINT_START_SECONDS` when no solver process is up yet)."""

HINT_START_SECONDS = 8.0
"""How long a hint waits, first, for a solver process that is still starting: the first
hint of a fresh server, or one after a solver process was replaced, on a busy machine.
A practice deal starts one (``SolverPool.warm``), so a player's first hint seldom waits."""

NO_HINT_IN_TIME = "no hint found in time; try again in a moment"


@router.post("/{game_id}/hint", responses=_refusals(401, 403, 404, 409, 413, 429) | BUSY)
async def hint(
    live: LiveGame, store: Store, pool: Pool, settings: AppSettings, limits: Hints
) -> dict[str, Any]:
    """Practice and relaxed games only: the solver's next move from here, or none with a
    reason. Answered within ``hint_seconds`` (the search's budget) and
    :data:`HINT_WAIT_SECONDS` more, however busy the solver pool is: a hint still waiting
    for a solver process then is withdrawn and answered "no hint found in time". (Counted
    from a solver process that is up: one still starting is waited for first, at most
    :data:`HINT_START_SECONDS`.)

    A player over their hints (``rate_hints``: a signed-in player's across their games, a
    guest's in this game) is answered 429 with ``Retry-After``, before any search, and the
    game is unchanged; a refusal for another reason (a timed game, a game over, a game
    with no solver) costs no hint.

    The server keeps the winning line of a hint's search: a player who has played its
    moves since is given the line's next move at once, with no search (it still counts as
    a hint), so a player who follows the hints is led to a win however busy the machine."""
    if live.mode == "timed":
        raise HTTPException(409, "hints are for practice and relaxed games only")
    async with live.turn:
        with live.lock:
            store.refresh(live)
            if live.session.is_over():
                raise HTTPException(409, "the game is over")
            position = live.game.copy()
            played = live.session.record().moves
    if live.game.name not in SOLVABLE_GAMES:
        return {"move": None, "reason": f"no solver for {live.game.title} yet"}
    # the player's own count, taken only for a hint the solver will look for
    over = limits.take(user_id=live.user_id, game_id=live.id, now=time.monotonic())
    if over is not None:
        detail, retry = over
        raise HTTPException(429, detail, headers={"Retry-After": str(retry)})
    # a solver process still starting (the server's first hint; a busy machine) is waited
    # for apart, so that the grace below is counted from one that can search
    known = live.next_on_hint_line(played)
    if known is not None:  # the player followed the last hint's line: its next move
        HINTS.labels(source="line").inc()
        return {"move": known, "reason": None}
    await pool.ready(HINT_START_SECONDS)
    try:
        line, outcome = await asyncio.wait_for(
            pool.run(
                winning_line,
                position,
                time_limit=settings.hint_seconds,
                start_by=time.time() + HINT_WAIT_SECONDS,
            ),
            timeout=settings.hint_seconds + HINT_WAIT_SECONDS,
        )
    except PoolFullError as error:
        raise _busy(error) from None
    except TimeoutError:  # queued behind other solver work (then cancelled), or slow
        return {"move": None, "reason": NO_HINT_IN_TIME}
    if line:
        live.hint_line = (played, line)
        HINTS.labels(source="search").inc()
        return {"move": line[0], "reason": None}
    reasons = {"unsolvable": "no winning line is left from here"}
    return {"move": None, "reason": reasons.get(outcome, NO_HINT_IN_TIME)}


@router.get("/{game_id}/replay", responses=_refusals(401, 403, 404, 409))
def replay(live: LiveGame, store: Store) -> dict[str, Any]:
    """A finished game step by step, for the replay viewer: the board as its player saw it
    at the deal and after each move of its record (face-down cards stay face down), with
    the move and the points so far. Replayed by the engine of record from the record."""
    with live.lock:
        store.refresh(live)
        if not live.session.is_over():
            raise HTTPException(409, "a game is replayed once it is over")
        try:
            store.check_unsealed(live)
        except PatienceError as error:
            raise HTTPException(409, str(error)) from None
        return replay_json(live)


@router.get("/{game_id}/record", responses=_refusals(401, 403, 404, 409))
async def record(live: LiveGame, store: Store) -> dict[str, Any]:
    """The game record (game, variant, deal, moves, elapsed) of a finished game, to replay
    and verify."""
    async with live.turn:
        return _record(live, store)


def _record(live: Live, store: Store) -> dict[str, Any]:
    with live.lock:
        store.refresh(live)
        if not live.session.is_over():
            raise HTTPException(
                409, "the record is shown once the game is over (it holds the deal)"
            )
        try:
            store.check_unsealed(live)
        except PatienceError as error:
            raise HTTPException(409, str(error)) from None
        return live.session.record().to_json()
