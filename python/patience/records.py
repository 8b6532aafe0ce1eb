"""Game records and their replay through the engine of record (docs/rules.md, "Game records").

A record is a JSON object: ``game``, ``variant``, ``deal`` (card strings), ``moves`` (move
strings) and optionally ``elapsed`` (seconds used when the game ended). Replaying applies
the moves one by one and stops at the first one the rules refuse:

>>> from patience.games import new_game
>>> game = new_game("klondike", seed=5)
>>> record = GameRecord.from_json({"game": "klondike", "variant": {"draw": 1},
...     "deal": [str(card) for card in game.deal], "moves": ["draw", "t9>f"]})
>>> result = replay(record)
>>> result.moves, result.error
(1, ReplayError(index=1, move='t9>f', reason='there is no t9: Klondike has 7 columns'))
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from patience.cards import Card
from patience.errors import InvalidRecordError
from patience.games import Game, game_class

__all__ = ["GameRecord", "ReplayError", "ReplayResult", "replay", "replay_json"]

_KEYS = {"game", "variant", "deal", "moves", "elapsed"}


@dataclass(frozen=True)
class GameRecord:
    """A game as a record holds it (docs/rules.md). :meth:`from_json` checks the shape and
    the deal."""

    game: str
    variant: Mapping[str, object]
    deal: tuple[Card, ...]
    moves: tuple[str, ...] = ()
    elapsed: float | None = None
    _cls: type[Game] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_cls", game_class(self.game))

    def new_game(self) -> Game:
        """The game as dealt, before any move."""
        return self._cls.from_variant(self.deal, self.variant)

    @classmethod
    def from_json(cls, data: object) -> GameRecord:
        """The record in ``data`` (a parsed JSON object); raises a ``ValueError`` subclass
        (:class:`InvalidRecordError`, ``InvalidDealError``, ``InvalidVariantError``) saying
        what is wrong."""
        if not isinstance(data, Mapping):
            raise InvalidRecordError("a game record is a JSON object")
        missing = [key for key in ("game", "variant", "deal", "moves") if key not in data]
        if missing:
            raise InvalidRecordError(f"the record has no {', '.join(missing)}")
        unknown = sorted(set(data) - _KEYS)
        if unknown:
            raise InvalidRecordError(f"the record has unknown fields: {', '.join(unknown)}")
        game, variant, deal, moves = data["game"], data["variant"], data["deal"], data["moves"]
        if not isinstance(game, str):
            raise InvalidRecordError(f"'game' is a string, not {game!r}")
        cls_ = game_class(game)
        if not isinstance(variant, Mapping):
            raise InvalidRecordError("'variant' is an object, such as {\"draw\": 3}")
        if not isinstance(deal, list):
            raise InvalidRecordError("'deal' is a list of card strings")
        if not isinstance(moves, list) or not all(isinstance(move, str) for move in moves):
            raise InvalidRecordError("'moves' is a list of move strings")
        elapsed = data.get("elapsed")
        if elapsed is not None and (
            not isinstance(elapsed, (int, float))
            or isinstance(elapsed, bool)
            or not math.isfinite(elapsed)
            or elapsed < 0
        ):
            raise InvalidRecordError(f"'elapsed' is a number of seconds, not {elapsed!r}")
        checked_game = cls_.from_variant(deal, variant)  # checks deal and variant
        return cls(
            game=game,
            variant=checked_game.variant,
            deal=checked_game.deal,
            moves=tuple(moves),
            elapsed=None if elapsed is None else float(elapsed),
        )

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON object."""
        data: dict[str, Any] = {
            "game": self.game,
            "variant": dict(self.variant),
            "deal": [str(card) for card in self.deal],
            "moves": list(self.moves),
        }
        if self.elapsed is not None:
            data["elapsed"] = self.elapsed
        return data

    def dumps(self) -> str:
        """The record as JSON text."""
        return json.dumps(self.to_json())


@dataclass(frozen=True)
class ReplayError:
    """The first problem of a replay: the index and text of the refused move (both None
    when the record itself is malformed) and why."""

    index: int | None
    move: str | None
    reason: str


@dataclass(frozen=True)
class ReplayResult:
    """What replaying a record gives, as ``patience replay --json`` prints it."""

    won: bool
    score: int
    foundation: int
    moves: int
    error: ReplayError | None = None
    game: Game | None = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        """``won``, ``score``, ``foundation``, ``moves`` and ``error``."""
        error = None
        if self.error is not None:
            error = {
                "index": self.error.index,
                "move": self.error.move,
                "reason": self.error.reason,
            }
        return {
            "won": self.won,
            "score": self.score,
            "foundation": self.foundation,
            "moves": self.moves,
            "error": error,
        }


def replay(record: GameRecord) -> ReplayResult:
    """Replay ``record``'s moves; stop at the first refused one. The time bonus counts for
    a game that ended (won, stuck or ``end``) when the record gives ``elapsed``."""
    game = record.new_game()
    error = None
    applied = 0
    for index, move in enumerate(record.moves):
        try:
            game.play(move)
        except ValueError as exc:
            error = ReplayError(index, move, str(exc))
            break
        applied += 1
    outcome = game.outcome()
    return ReplayResult(
        won=outcome is not None and outcome.won,
        score=game.final_score(record.elapsed),
        foundation=game.cards_on_foundation(),
        moves=applied,
        error=error,
        game=game,
    )


def replay_json(data: object) -> ReplayResult:
    """Replay a record given as parsed JSON; a malformed record gives an error with index
    None instead of raising."""
    try:
        record = GameRecord.from_json(data)
    except ValueError as exc:
        return ReplayResult(False, 0, 0, 0, ReplayError(None, None, str(exc)))
    return replay(record)
