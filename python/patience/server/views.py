"""What the server answers about a game: only what its player may see.

The board is the game's own observation (face-down cards and the stock only as counts);
the seed of a timed game stays secret until the game is over, since the seeded shuffle is
public and the seed would tell every hidden card.
"""

from __future__ import annotations

import time
from typing import Any

from patience.games import game_class
from patience.rating import difficulty_of
from patience.scoring import score_lines
from patience.store.games import Answer, Live

__all__ = ["replay_json", "running_json", "session_json"]


def _sealed(live: Live) -> bool:
    """A tournament's game before its close: the deal (its seed) stays secret, even to a
    player who has finished (``GameStore.sealed``, on the server's wall clock)."""
    return live.sealed_until is not None and time.time() < live.sealed_until


def numbered_json(game: str, numbered: tuple[str, int] | None) -> dict[str, Any] | None:
    """A game's numbered deal as the API gives it: its ``numbering``, ``number`` and
    ``title`` in words ("Microsoft deal 11982"); None for a game dealt by its seed."""
    if numbered is None:
        return None
    numbering, number = numbered
    return {
        "numbering": numbering,
        "number": number,
        "title": game_class(game).numbered_words(numbering, number),
    }


def session_json(live: Live, answer: Answer | None = None) -> dict[str, Any]:
    """The player's view of ``live``, with the answer to the request's move when given:
    its notation, points and automatic play-out (:meth:`patience.games.Played.to_json`),
    and ``repeated`` when the request was a retry of a move already played."""
    session, game = live.session, live.game
    board = game.observation()  # its outcome and can_undo are worked out once, here
    outcome = session.outcome()  # the game's, or a timeout
    over = outcome is not None
    result = None
    if outcome is not None:
        result = {
            "won": outcome.won,
            "reason": outcome.reason,
            # why no move is left, in the game's terms (cards in notation), or None
            "why": game.stuck_words() if outcome.reason == "stuck" else None,
            "points": game.score(),
            "time_bonus": session.time_bonus(),
            "score": session.score(),
            "cards_home": game.cards_on_foundation(),
            "elapsed": round(session.elapsed(), 3),
            # what made the points, line by line (they add up to ``points``)
            "lines": [line.to_json() for line in score_lines(session.record())],
        }
    return {
        "id": live.id,
        "game": game.name,
        "title": game.title,
        "variant": game.variant,
        "mode": live.mode,
        "certified": live.certified,
        "tier": live.tier,
        "difficulty": difficulty_of(live.tier),
        "seed": live.seed if (live.mode != "timed" or over) and not _sealed(live) else None,
        "numbered": numbered_json(game.name, live.numbered),
        "board": board,
        "legal_moves": [] if over else [str(move) for move in game.legal_moves()],
        "can_undo": not over and session.can_undo(),
        "undo_refusal": None if over else session.undo_refusal(),
        "clock": {
            "limit": session.time_limit,
            "remaining": round(session.remaining(), 3),
            "running": not over and not session.is_paused,
        },
        "score": session.score(),
        "cards_home": game.cards_on_foundation(),
        "outcome": None if outcome is None else outcome.to_json(),
        "result": result,
        "move_count": session.move_count,
        "last": None if answer is None else answer.last,
        "repeated": answer is not None and answer.repeated,
    }


def replay_json(live: Live) -> dict[str, Any]:
    """A finished game step by step, for the replay viewer: the board as its player saw it
    at the deal and after each move of its record (face-down cards stay face down), with
    the move and the points so far; replayed by the engine of record from the record. The
    caller holds ``live.lock`` and has checked that the game is over and not sealed."""
    record = live.session.record()
    game = record.new_game()
    steps: list[dict[str, Any]] = [{"move": None, "board": game.observation(), "points": 0}]
    for move in record.moves:
        game.play(move)
        steps.append({"move": move, "board": game.observation(), "points": game.score()})
    return {
        "id": live.id,
        "game": game.name,
        "title": game.title,
        "variant": game.variant,
        "mode": live.mode,
        "seed": live.seed,
        "numbered": numbered_json(game.name, live.numbered),
        "tier": live.tier,
        "steps": steps,
    }


RUNNING_FIELDS = (
    "id",
    "game",
    "title",
    "variant",
    "mode",
    "tier",
    "difficulty",
    "seed",
    "numbered",
    "clock",
    "score",
    "cards_home",
    "move_count",
)
"""What a list of running games tells of each: no board (no card at all), and the seed only
where :func:`session_json` gives it (a practice or relaxed game's); how far it got in
counts (cards home, moves), and its numbered deal's name."""


def running_json(live: Live) -> dict[str, Any]:
    """A running game as a list of them shows it (a lobby's Continue): the fields of
    :data:`RUNNING_FIELDS` of :func:`session_json`. The caller holds ``live.lock``."""
    view = session_json(live)
    return {name: view[name] for name in RUNNING_FIELDS}
