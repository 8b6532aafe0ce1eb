"""A game's points line by line, as the result shows them: each kind of move that scored,
how many, and what they made (cards home, cards turned up, cards played from the waste,
cards moved off the foundations, the waste turned over, Golf's streaks and clearing bonus).

The lines are worked out by playing the game's record through the engine of record, each
move's points split by what the move did; a move taken back takes its lines back with it.
They add up to the game's points exactly:

>>> from patience.games import new_game
>>> game = new_game("golf", seed=3)
>>> for move in ("t1", "t3", "draw"):
...     _ = game.play(move)
>>> record = GameRecord("golf", game.variant, game.deal, ("t1", "t3", "draw"))
>>> [(line.label, line.count, line.points) for line in score_lines(record)]
[('Cards cleared', 2, 20), ('Streak bonus', 1, 5)]
>>> game.score()
25
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from patience.moves import UNDO, Move
from patience.records import GameRecord

__all__ = ["ScoreLine", "score_lines"]


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One line of a score: what scored, how many times, and the points it made."""

    label: str
    count: int
    points: int

    def to_json(self) -> dict[str, Any]:
        """The line as a result's ``lines`` list it."""
        return {"label": self.label, "count": self.count, "points": self.points}


Parts = list[tuple[str, int, int]]  # (label, count, points)


def score_lines(record: GameRecord) -> list[ScoreLine]:
    """The lines of ``record``'s points, in the game's order (:attr:`Game.score_order`,
    split by :meth:`Game.score_parts`), those that scored or counted something; a record
    the rules refuse raises as its replay would."""
    game = record.new_game()
    dealt = game.score()  # a game may deal a card home: a point before any move
    made: list[Parts] = [[("Cards home", dealt, dealt)]] if dealt else []
    for text in record.moves:
        move = Move.parse(text)
        if move == UNDO:
            game.play(move)
            made.pop()
            continue
        played = game.play(move)
        parts: Parts = []
        for step in (played, *played.auto):
            parts.extend(game.score_parts(step))
        made.append(parts)
    totals: dict[str, list[int]] = {}
    for parts in made:
        for label, count, points in parts:
            total = totals.setdefault(label, [0, 0])
            total[0] += count
            total[1] += points
    order = [*game.score_order, *sorted(set(totals) - set(game.score_order))]
    return [ScoreLine(label, *totals[label]) for label in order if label in totals]
