"""A game's points line by line, as the result shows them: each kind of move that scored,
how many, and what they made (cards home, cards turned up, cards played from the waste,
cards taken back, the waste turned over, Golf's streaks and clearing bonus).

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

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from patience.games import Game, Played
from patience.games.golf import CARD_POINTS, CLEAR_BONUS, STOCK_CARD_BONUS, TABLEAU_CARDS
from patience.games.klondike import FLIP_POINTS, WASTE_BONUS
from patience.moves import UNDO, Move
from patience.records import GameRecord

__all__ = ["ScoreLine", "score_lines"]

# The lines of each game, in the order a result shows them.
_ORDER = {
    "klondike": (
        "Cards home",
        "Cards turned up",
        "Cards from the waste",
        "Cards taken back",
        "Waste turned over",
    ),
    "golf": ("Cards cleared", "Streak bonus", "Tableau cleared"),
    "kansas": ("Cards home",),
    "expert": ("Cards home",),
}


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


def _klondike(played: Played, game: Game) -> Iterator[tuple[str, int, int]]:
    move = played.move
    if move.word is not None:  # draw, recycle, end
        if move.word == "recycle":
            yield "Waste turned over", 1, played.points
        return
    source = move.source
    assert source is not None
    if source.kind == "f":
        yield "Cards taken back", 1, played.points
        return
    rest = played.points
    flips = len(played.revealed)
    if flips:
        yield "Cards turned up", flips, flips * FLIP_POINTS
        rest -= flips * FLIP_POINTS
    if source.kind == "w":
        yield "Cards from the waste", 1, WASTE_BONUS
        rest -= WASTE_BONUS
    if move.dest is not None and move.dest.kind == "f":
        yield "Cards home", 1, rest
    elif rest:
        yield "Other points", 0, rest  # none by the rules; kept so the lines add up


def _golf(played: Played, game: Game) -> Iterator[tuple[str, int, int]]:
    if played.move.word == "draw" or not played.points:
        return
    rest = played.points - CARD_POINTS
    yield "Cards cleared", 1, CARD_POINTS
    if game.cards_on_foundation() == TABLEAU_CARDS:
        bonus = CLEAR_BONUS + STOCK_CARD_BONUS * game.observation()["stock"]
        yield "Tableau cleared", 1, bonus
        rest -= bonus
    if rest:
        yield "Streak bonus", 1, rest


def _home(played: Played, game: Game) -> Iterator[tuple[str, int, int]]:
    if played.points:
        yield "Cards home", played.points, played.points


_SPLIT = {"klondike": _klondike, "golf": _golf, "kansas": _home, "expert": _home}


def score_lines(record: GameRecord) -> list[ScoreLine]:
    """The lines of ``record``'s points, in the game's order, those that scored or counted
    something; a record the rules refuse raises as its replay would."""
    game = record.new_game()
    split = _SPLIT[game.name]
    dealt = game.score()  # Kansas deals its base card home: a point before any move
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
            parts.extend(split(step, game))
        made.append(parts)
    totals: dict[str, list[int]] = {}
    for parts in made:
        for label, count, points in parts:
            total = totals.setdefault(label, [0, 0])
            total[0] += count
            total[1] += points
    order = [*_ORDER[game.name], *sorted(set(totals) - set(_ORDER[game.name]))]
    return [ScoreLine(label, *totals[label]) for label in order if label in totals]
