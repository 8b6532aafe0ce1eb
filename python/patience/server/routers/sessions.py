"""``/api/sessions``: start a game, read it, move, undo, end, ask for a hint, get its record.

Every request about a game carries its token (``Authorization: Bearer TOKEN``); every
refused request is a 4xx with a reason in ``detail`` and leaves the game as it was.

The game endpoints are ``async`` and answer with the view serialised directly: a move is
a fraction of a millisecond of work, less than a hop to a worker thread and FastAPI's
generic encoder would add (``benchmarks/server.py`` measures the round trip).
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, HTTPException
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from patience.errors import IllegalMoveError, PatienceError
from patience.solve import SOLVABLE_GAMES, solve
from patience.store.games import Live

from ..deps import AppSettings, LiveGame, Store
from ..views import session_json

router = APIRouter(prefix="/api/sessions", tags=["sessions"])


class NewGame(BaseModel):
    """A request for a new game."""

    game: str = Field(description="klondike, golf, kansas or expert")
    variant: dict[str, Any] = Field(default_factory=dict, description='e.g. {"draw": 3}')
    seed: int | None = Field(default=None, description="a seeded deal; none for a fresh one")
    mode: Literal["timed", "practice"] = "timed"


class MoveRequest(BaseModel):
    """One move in RULES.md notation (``t3>t5``, ``draw``, ``undo``, ``end``...)."""

    move: str = Field(min_length=1, max_length=40)


def _refused(error: PatienceError) -> HTTPException:
    """An illegal move now is a conflict (409); a malformed one a bad request (400)."""
    return HTTPException(409 if isinstance(error, IllegalMoveError) else 400, str(error))


@router.post("", status_code=201)
def start_game(request: NewGame, store: Store) -> dict[str, Any]:
    """Start a game; the answer holds the token that every later request must carry."""
    try:
        live, token = store.start(
            request.game, request.variant, seed=request.seed, mode=request.mode
        )
    except PatienceError as error:
        raise HTTPException(400, str(error)) from None
    return {"token": token, **session_json(live)}


@router.get("/{game_id}")
async def read_game(live: LiveGame, store: Store) -> JSONResponse:
    """The game as its player sees it now (the clock included)."""
    view = session_json(live)
    store.flush(live)
    return JSONResponse(view)


def _play(live: Live, store: Store, move: str) -> JSONResponse:
    try:
        played = store.play(live, move)
    except PatienceError as error:
        raise _refused(error) from None
    return JSONResponse(session_json(live, played))


@router.post("/{game_id}/moves")
async def make_move(request: MoveRequest, live: LiveGame, store: Store) -> JSONResponse:
    """Play one move; refused moves change nothing."""
    return _play(live, store, request.move)


@router.post("/{game_id}/undo")
async def undo(live: LiveGame, store: Store) -> JSONResponse:
    """Take back the last move, when the rules allow it."""
    return _play(live, store, "undo")


@router.post("/{game_id}/end")
async def end(live: LiveGame, store: Store) -> JSONResponse:
    """Stop playing and collect the time bonus."""
    return _play(live, store, "end")


@router.post("/{game_id}/hint")
def hint(live: LiveGame, settings: AppSettings) -> dict[str, Any]:
    """Practice games only: the solver's next move from here, or none with a reason."""
    if live.mode != "practice":
        raise HTTPException(409, "hints are for practice games only")
    if live.session.is_over():
        raise HTTPException(409, "the game is over")
    if live.game.name not in SOLVABLE_GAMES:
        return {"move": None, "reason": f"no solver for {live.game.title} yet"}
    with live.lock:
        position = live.game.copy()
    result = solve(position, time_limit=settings.hint_seconds, wins_only=True)
    if result.outcome == "solved" and result.moves:
        return {"move": result.moves[0], "reason": None}
    reasons = {"unsolvable": "no winning line is left from here"}
    return {"move": None, "reason": reasons.get(result.outcome, "the solver found no line in time")}


@router.get("/{game_id}/record")
def record(live: LiveGame) -> dict[str, Any]:
    """The game record (RULES.md) of a finished game, to replay and verify."""
    if not live.session.is_over():
        raise HTTPException(409, "the record is shown once the game is over (it holds the deal)")
    return live.session.record().to_json()
