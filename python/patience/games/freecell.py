"""FreeCell: the engine of record (docs/freecell.md).

Eight columns dealt row by row (the first four get seven cards, the others six), every card
face up; four free cells that hold one card each; four foundations built up by suit from
the Ace, which give nothing back. Columns build down in alternating colours. A run (cards
descending one rank a card in alternating colours, ending at a column's exposed card) moves
as one move as far as the free cells and empty columns would let it move a card at a time:
``(free cells + 1) * 2 ** (empty columns)`` cards, half that into an empty column. Any card
or run fills an empty column. Once every column is empty or one run, the cards play out to
the foundations by themselves. Nothing is hidden, so undo is unlimited.

Deals come from the project's seeded shuffle (:meth:`FreeCell.from_seed`) or, for the deals
players know by number, from Microsoft's (:func:`microsoft_deal`,
:meth:`FreeCell.from_microsoft`, the numbering ``microsoft`` of
:meth:`~patience.games.base.Game.from_number`):

>>> game = FreeCell.from_microsoft(1)
>>> game.observation()["tableau"][0]["cards"]
['Jd', 'Kd', '2s', '4c', '3s', '6d', '6s']
>>> len(game.legal_moves()), str(game.legal_moves()[0])
(32, 't1>c1')
>>> str(game.play("t6>c").move), game.observation()["cells"]
('t6>c1', ['3d', None, None, None])
>>> game.play("t6>f")
Traceback (most recent call last):
...
patience.errors.IllegalMoveError: 2c has no place on the foundations yet
>>> game.play("t7>t6")
Traceback (most recent call last):
...
patience.errors.IllegalMoveError: t7>t6: no run of t7 goes on 2c
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Final, Literal

from patience.cards import Card, Rank, Suit
from patience.errors import IllegalMoveError, InvalidDealError, InvalidMoveError
from patience.games.base import (
    Budgets,
    ClientLayout,
    DealNumbering,
    Game,
    Outcome,
    Played,
    coerce_deal,
    scaled_time_bonus,
)
from patience.moves import Move, Place, PlaceKind

__all__ = [
    "CARD_POINTS",
    "MICROSOFT_DEALS",
    "FreeCell",
    "freecell_builds_on",
    "microsoft_deal",
    "run_start",
    "supermove_limit",
]

COLUMNS: Final = 8
CELLS: Final = 4
CARDS: Final = 52
SUITS: Final = tuple(Suit)
CARD_POINTS: Final = 10
"""Points for each card that reaches a foundation (cards never leave one)."""

MICROSOFT_DEALS: Final = range(1, 2**31)
"""The numbers of Microsoft's deals: its generator's state has 31 bits that matter, so a
number from 2**31 on would repeat a deal below it."""


def microsoft_deal(number: int) -> tuple[Card, ...]:
    """The deal Microsoft FreeCell numbers ``number``, first-dealt card first.

    Microsoft's shuffle, as Jim Horne disclosed it: the generator of Microsoft's C library
    (``state = (214013 * state + 2531011) mod 2**31``, each draw ``state >> 16``), seeded
    with the deal's number, picks cards from a deck ordered Ace of clubs, Ace of diamonds,
    Ace of hearts, Ace of spades, 2 of clubs, ... King of spades: each draw, modulo the cards
    left, picks one, which is dealt, and the deck's last card takes its place. Dealt row by
    row into eight columns, as every FreeCell deal is.

    >>> from patience.cards import format_cards
    >>> format_cards(microsoft_deal(1)[:8])
    'Jd 2d 9h Jc 5d 7h 7c 5h'
    >>> microsoft_deal(0)
    Traceback (most recent call last):
    ...
    patience.errors.InvalidDealError: Microsoft's deal numbers run from 1 to 2147483647, not 0
    """
    if isinstance(number, bool) or not isinstance(number, int) or number not in MICROSOFT_DEALS:
        raise InvalidDealError(
            f"Microsoft's deal numbers run from 1 to {MICROSOFT_DEALS[-1]}, not {number!r}"
        )
    deck = [Card(rank, suit) for rank in Rank for suit in SUITS]
    state = number
    dealt = []
    for left in range(CARDS, 0, -1):
        state = (214013 * state + 2531011) % 2**31
        pick = (state >> 16) % left
        dealt.append(deck[pick])
        deck[pick] = deck[left - 1]
    return tuple(dealt)


def freecell_builds_on(card: Card, target: Card | None) -> bool:
    """Whether ``card`` (heading a run) goes on a column whose exposed card is ``target``:
    one rank lower and of the other colour; any card fills an empty column.

    >>> freecell_builds_on(Card.parse("Jh"), Card.parse("Qs")), freecell_builds_on(
    ...     Card.parse("Jh"), Card.parse("Qd")), freecell_builds_on(Card.parse("5d"), None)
    (True, False, True)
    """
    if target is None:
        return True
    return card.rank == target.rank - 1 and card.is_red != target.is_red


def _in_sequence(card: Card, under: Card) -> bool:
    """Whether ``card`` lies on ``under`` as part of a run."""
    return card.rank == under.rank - 1 and card.is_red != under.is_red


def run_start(column: Sequence[Card]) -> int:
    """Where the run ending at the column's exposed card begins (0 for an empty column).

    >>> from patience.cards import parse_cards
    >>> run_start(parse_cards("9c Kh Qs Jd"))
    1
    """
    start = len(column) - 1
    while start > 0 and _in_sequence(column[start], column[start - 1]):
        start -= 1
    return max(start, 0)


def supermove_limit(*, free_cells: int, empty_columns: int, to_empty: bool) -> int:
    """The longest run one move may carry: as many cards as could move one at a time
    through the free cells and the empty columns, ``(free_cells + 1) * 2 ** empty_columns``,
    the destination not counted among the empty columns when it is one of them.

    >>> supermove_limit(free_cells=4, empty_columns=0, to_empty=False)
    5
    >>> supermove_limit(free_cells=2, empty_columns=2, to_empty=False)
    12
    >>> supermove_limit(free_cells=2, empty_columns=2, to_empty=True)
    6
    """
    empty = empty_columns - 1 if to_empty else empty_columns
    return (free_cells + 1) << max(empty, 0)


@dataclass(frozen=True, slots=True)
class _Snapshot:
    columns: tuple[tuple[Card, ...], ...]
    cells: tuple[Card | None, ...]
    foundation: tuple[int, ...]


_Kind = Literal["home", "to_column", "to_cell"]


@dataclass(frozen=True, slots=True)
class _Action:
    """A move resolved against the current state."""

    kind: _Kind
    move: Move  # canonical
    column: int | None = None  # source column index; None when the card leaves a cell
    start: int = 0  # first card moved out of the source column
    cell: int | None = None  # the source cell, or the destination cell of a move to a cell
    dest: int | None = None  # destination column index


class FreeCell(Game):
    """FreeCell (four free cells, eight columns); it has no variant options."""

    name: ClassVar[str] = "freecell"
    title: ClassVar[str] = "FreeCell"
    time_limit: ClassVar[int] = 600
    has_time_bonus: ClassVar[bool] = True
    place_kinds: ClassVar[frozenset[PlaceKind]] = frozenset(("t", "c", "f"))
    numberings: ClassVar[Mapping[str, DealNumbering]] = {
        "microsoft": DealNumbering(
            "Microsoft deal", MICROSOFT_DEALS[0], MICROSOFT_DEALS[-1], microsoft_deal
        )
    }
    # its solver wins most deals in milliseconds and proves the rare lost one
    # (docs/freecell.md), so the defaults do: a timed deal is certified as it starts
    budgets: ClassVar[Budgets] = Budgets()
    # its players see every card and vary only in how they break ties, so a few playouts do
    playouts: ClassVar[Mapping[str, int]] = {"greedy": 4, "lookahead": 4, "solver": 4}
    status: ClassVar[tuple[tuple[str, str], ...]] = (
        ("Free cells", "free_cells"),
        ("Runs of up to", "longest_run"),
    )
    terminal_help: ClassVar[str] = """\
Moves, in the notation of game records (c1..c4 are the free cells):
  t3>t5     the run of column 3 that fits onto column 5 (t3:Qh>t5 names its first card)
  t4>c      column 4's card to a free cell (t4>c2 names the cell)
  c2>t5     a free cell's card to column 5     t4>f, c2>f  a card home
  Qh, 3, c2 tap a card, a column or a cell: its card goes home if it can
"""
    layout: ClassVar[ClientLayout] = {
        "rows": [
            {
                "name": "top",
                "piles": [
                    {
                        "kind": "cell",
                        "field": "cells",
                        "name": "free cell",
                        "size": CELLS,
                        "slots": True,
                    },
                    {"kind": "spacer"},
                    {"kind": "foundation", "by": "suit"},
                ],
            },
            {"name": "tableau"},
        ],
        "tableau": {
            "pick": "sequence",
            "packed": False,
            "build": {"colours": "alternate", "wrap": False, "empty": "any"},
        },
        "across": 8.6,
        # (a phone held upright: the free cells and the foundations across the top, where a
        # FreeCell player looks for them, eight piles above the eight columns, which set the
        # cards' width; the columns have the height under them to the foot)
        "upright": {
            "rows": [
                {
                    "name": "top",
                    "piles": [
                        {
                            "kind": "cell",
                            "field": "cells",
                            "name": "free cell",
                            "size": CELLS,
                            "slots": True,
                        },
                        {"kind": "spacer"},
                        {"kind": "foundation", "by": "suit"},
                    ],
                },
                {"name": "tableau"},
            ],
            "across": 8,
        },
        "design": {"down": 0, "up": 13},
        # (19 cards at most: seven dealt, the last a king, and the queen to the ace on it)
        "longest": {"down": 0, "up": 18},
        "direct": False,
        "counter": None,
        "recycle_cost": [],
        "watch_stuck": False,
        "picture": [
            *((2 + k * 9, 2, "slot", False, 8) for k in range(CELLS)),
            *((42 + k * 9, 2, "slot", False, 8) for k in range(len(SUITS))),
            *(
                (2 + c * 9.5, 16 + r * 3.5, "up", (c + r) % 3 == 1, 8)
                for c in range(COLUMNS)
                for r in range(7 if c < 4 else 6)
            ),
        ],
        "words": {
            "one_line": "Every card face up, four free cells.",
            "rules": [
                "Every card is dealt face up into eight columns. Build the four foundations up "
                "by suit, from the ace to the king.",
                "In the columns, build down in alternating colours. Any card, or any run, "
                "fills an empty column.",
                "A free cell holds one card. A run moves together when the free cells and "
                "empty columns would let it move a card at a time.",
                "Undo is free. Once every column is one run, the cards play themselves home. "
                "Ten points a card home, and a time bonus.",
            ],
            "options": [],
            "help_pointer": "Click a card to play it where it fits best (home first, else a "
            "column, else a free cell); drag a run to choose the place. Keys: arrows, Enter "
            "to pick and Enter to place, u undo.",
            "move_example": "t3>t5, t1>c1",
            "help_touch": "Tap a card to play it where it fits best (home, a column, a free "
            "cell); drag a run to choose the place.",
            "foundation": "the foundation",
            "home": "home",
            "bonus_lines": [],
        },
    }

    def __init__(self, deal: Sequence[Card] | str | Iterable[str]) -> None:
        super().__init__(deal)
        self._columns: list[list[Card]] = [list(self._deal[k::COLUMNS]) for k in range(COLUMNS)]
        self._cells: list[Card | None] = [None] * CELLS
        self._foundation = [0] * len(SUITS)  # top rank on each suit's pile, 0 when empty
        self._history: list[_Snapshot] = []

    @classmethod
    def from_microsoft(cls, number: int) -> FreeCell:
        """The game of Microsoft FreeCell's deal ``number`` (:func:`microsoft_deal`)."""
        return cls(microsoft_deal(number))

    @staticmethod
    def deal_from_layout(columns: Sequence[Sequence[str | Card]]) -> tuple[Card, ...]:
        """The deal that lays out ``columns`` (seven cards in each of the first four, six in
        the others, first-dealt first): the inverse of the deal, for building positions.

        >>> game = FreeCell.from_seed(4)
        >>> piles = game.piles()
        >>> FreeCell.deal_from_layout([piles[f"t{k}"] for k in range(1, 9)]) == game.deal
        True
        """
        if [len(column) for column in columns] != [7] * 4 + [6] * 4:
            raise InvalidDealError("a FreeCell layout has four columns of 7 cards, then four of 6")
        deal = [columns[k % COLUMNS][k // COLUMNS] for k in range(CARDS)]
        return coerce_deal([str(card) for card in deal], decks=1)

    @property
    def variant(self) -> dict[str, object]:
        """FreeCell has no options: ``{}``."""
        return {}

    # -- reading the state --------------------------------------------------------------

    def score(self) -> int:
        """Ten points for each card on the foundations."""
        return CARD_POINTS * self.cards_on_foundation()

    def cards_on_foundation(self) -> int:
        """Cards on the four foundations."""
        return sum(self._foundation)

    def score_parts(self, played: Played) -> Iterator[tuple[str, int, int]]:
        """A move's points as the result's line: the cards home, ten points each."""
        if played.points:
            yield "Cards home", played.points // CARD_POINTS, played.points

    def is_solved(self) -> bool:
        """Every column empty or one run: every card can then go home, lowest first."""
        return all(run_start(column) == 0 for column in self._columns)

    def outcome(self) -> Outcome | None:
        """Won once all 52 cards are home; ended by ``end``; else None. A game with no move
        left is not over: undo is always there to take a way out (docs/freecell.md)."""
        if self.cards_on_foundation() == CARDS:
            return Outcome(won=True, reason="won")
        if self._ended:
            return Outcome(won=False, reason="ended")
        return None

    def time_bonus(self, elapsed: float) -> int:
        """``floor((600 - T) * C / 52)``, T the seconds used, C the cards home."""
        return scaled_time_bonus(
            limit=self.time_limit, elapsed=elapsed, done=self.cards_on_foundation(), total=CARDS
        )

    def observation(self) -> dict[str, Any]:
        """The whole table (nothing in FreeCell is hidden), with the empty free cells and the
        longest run one move may carry onto a card now (the terminal's counters)."""
        return {
            "game": self.name,
            "variant": {},
            "tableau": [{"hidden": 0, "cards": [str(card) for card in c]} for c in self._columns],
            "cells": [None if card is None else str(card) for card in self._cells],
            "foundation": {
                suit.value: (str(Card(top, suit)) if top else None)
                for suit, top in zip(SUITS, self._foundation, strict=True)
            },
            "free_cells": self.free_cells(),
            "longest_run": self._limit(to_empty=False),
            "score": self.score(),
            **self._status(),
        }

    def native_position(self) -> tuple[Any, ...]:
        """``(columns, cells, foundation heights)``: card indices, each column's exposed
        card last, each cell's card or None, the foundations' heights in suit order."""
        return (
            [[card.index for card in column] for column in self._columns],
            [None if card is None else card.index for card in self._cells],
            list(self._foundation),
        )

    def piles(self) -> dict[str, list[Card]]:
        """``t1``..``t8``, the cells ``c1``..``c4`` (a card or none), and the foundations
        ``f:c``..``f:s`` (first-placed first)."""
        piles = {f"t{index + 1}": list(column) for index, column in enumerate(self._columns)}
        for index, card in enumerate(self._cells):
            piles[f"c{index + 1}"] = [] if card is None else [card]
        for suit, top in zip(SUITS, self._foundation, strict=True):
            piles[f"f:{suit.value}"] = [Card(rank, suit) for rank in range(1, top + 1)]
        return piles

    def hidden_cards(self) -> list[Card]:
        """None: every card is face up."""
        return []

    def free_cells(self) -> int:
        """Empty free cells."""
        return self._cells.count(None)

    def empty_columns(self) -> int:
        """Empty columns."""
        return sum(1 for column in self._columns if not column)

    def _goes_home(self, card: Card) -> bool:
        return self._foundation[card.suit.index] == card.rank - 1

    def _limit(self, *, to_empty: bool) -> int:
        return supermove_limit(
            free_cells=self.free_cells(), empty_columns=self.empty_columns(), to_empty=to_empty
        )

    # -- moves --------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Home (columns, then cells), column to column, cell to column, then column to
        cell. Into an empty column, every run that may move there, each named by its first
        card when there is more than one."""
        if self.is_over():
            return []
        return [action.move for action in self._iter_actions()]

    def _iter_actions(self) -> Iterator[_Action]:
        tops = [column[-1] if column else None for column in self._columns]
        for i, top in enumerate(tops):
            if top is not None and self._goes_home(top):
                yield _Action("home", _T_TO_F[i], column=i, start=len(self._columns[i]) - 1)
        for k, card in enumerate(self._cells):
            if card is not None and self._goes_home(card):
                yield _Action("home", _C_TO_F[k], cell=k)
        to_filled, to_empty = self._limit(to_empty=False), self._limit(to_empty=True)
        for i, column in enumerate(self._columns):
            if not column:
                continue
            first = run_start(column)
            for j, target in enumerate(tops):
                if i == j:
                    continue
                if target is None:
                    starts = range(max(first, len(column) - to_empty), len(column))
                    for begin in starts:
                        move = (
                            _T_TO_T[i][j]
                            if len(starts) == 1
                            else Move(source=Place("t", i + 1, card=column[begin]), dest=_column(j))
                        )
                        yield _Action("to_column", move, column=i, start=begin, dest=j)
                    continue
                fitting = _fitting_start(column, first, target)
                if fitting is not None and len(column) - fitting <= to_filled:
                    yield _Action("to_column", _T_TO_T[i][j], column=i, start=fitting, dest=j)
        for k, card in enumerate(self._cells):
            if card is None:
                continue
            for j, target in enumerate(tops):
                if freecell_builds_on(card, target):
                    yield _Action("to_column", _C_TO_T[k][j], cell=k, dest=j)
        for i, top in enumerate(tops):
            if top is None:
                continue
            for k, card in enumerate(self._cells):
                if card is None:
                    yield _Action(
                        "to_cell", _T_TO_C[i][k], column=i, start=len(self._columns[i]) - 1, cell=k
                    )

    def _resolve(self, move: Move) -> _Action:
        """The action ``move`` stands for now; raises if it is not legal."""
        if move.word is not None:
            raise InvalidMoveError(f"{move.word!r} is not a FreeCell move (there is no stock)")
        source, dest = move.source, move.dest
        assert source is not None
        if dest is None:
            raise InvalidMoveError(f"{move}: say where to, as {source.bare}>f or {source.bare}>t1")
        for place in (source, dest):
            limit = {"t": COLUMNS, "c": CELLS}.get(place.kind)
            if limit is not None and (place.column or 0) > limit:
                raise InvalidMoveError(f"FreeCell has no {place.bare} (places: t1-t8, c1-c4, f)")
        if source.kind == "f":
            raise IllegalMoveError("cards never leave the foundations")
        if source.kind == "c" and source.column is None:
            raise InvalidMoveError(f"{move}: name the free cell a card leaves, as c1")
        if dest.kind == "f" and dest.suit is not None:
            raise InvalidMoveError(f"{move}: write the foundations as f; the engine picks the pile")
        if source.kind == "c":
            return self._resolve_from_cell(source, dest)
        assert source.column is not None
        index = source.column - 1
        column = self._columns[index]
        if not column:
            raise IllegalMoveError(f"{source.bare} is empty")
        if dest.kind in ("f", "c"):
            if source.card is not None and source.card != column[-1]:
                raise IllegalMoveError(f"{source.card} is not the exposed card of {source.bare}")
            if dest.kind == "f":
                if not self._goes_home(column[-1]):
                    raise IllegalMoveError(f"{column[-1]} has no place on the foundations yet")
                return _Action("home", _T_TO_F[index], column=index, start=len(column) - 1)
            cell = self._empty_cell(dest)
            return _Action(
                "to_cell", _T_TO_C[index][cell], column=index, start=len(column) - 1, cell=cell
            )
        assert dest.column is not None
        dest_index = dest.column - 1
        if dest_index == index:
            raise IllegalMoveError(f"{move}: a run cannot move onto its own column")
        return self._resolve_run(source, index, dest_index)

    def _resolve_run(self, source: Place, index: int, dest_index: int) -> _Action:
        """A run of column ``index`` to column ``dest_index``: onto a card, the one run that
        fits it; into an empty column, the named run or else the longest that may move."""
        column = self._columns[index]
        dest = _column(dest_index)
        target = self._columns[dest_index][-1] if self._columns[dest_index] else None
        first = run_start(column)
        limit = self._limit(to_empty=target is None)
        if target is None:
            starts = range(max(first, len(column) - limit), len(column))
            start = starts[0]
        else:
            fitting = _fitting_start(column, first, target)
            if fitting is None:
                if source.card is not None:
                    raise IllegalMoveError(_building_error(source.card, target, dest))
                raise IllegalMoveError(
                    f"{source.bare}>{dest}: no run of {source.bare} goes on {target}"
                )
            start = fitting
            starts = range(start, start + 1)
        if source.card is not None:
            named = [k for k in range(first, len(column)) if column[k] == source.card]
            if not named:
                raise IllegalMoveError(
                    f"{source.card} does not head a run ending at {source.bare}'s exposed card"
                )
            if target is not None and named[0] != start:
                raise IllegalMoveError(_building_error(source.card, target, dest))
            start = named[0]
        moved = len(column) - start
        if moved > limit:
            raise IllegalMoveError(_too_long(moved, limit, self.free_cells(), target is None))
        move = _T_TO_T[index][dest_index]
        if len(starts) > 1:
            move = Move(source=Place("t", index + 1, card=column[start]), dest=dest)
        return _Action("to_column", move, column=index, start=start, dest=dest_index)

    def _resolve_from_cell(self, source: Place, dest: Place) -> _Action:
        assert source.column is not None
        cell = source.column - 1
        card = self._cells[cell]
        if card is None:
            raise IllegalMoveError(f"{source} is empty")
        if dest.kind == "c":
            raise IllegalMoveError(
                f"{source}>{dest}: a card in a free cell goes to a column or home"
            )
        if dest.kind == "f":
            if not self._goes_home(card):
                raise IllegalMoveError(f"{card} has no place on the foundations yet")
            return _Action("home", _C_TO_F[cell], cell=cell)
        assert dest.column is not None
        dest_index = dest.column - 1
        target = self._columns[dest_index][-1] if self._columns[dest_index] else None
        if not freecell_builds_on(card, target):
            raise IllegalMoveError(_building_error(card, target, dest))
        return _Action("to_column", _C_TO_T[cell][dest_index], cell=cell, dest=dest_index)

    def _empty_cell(self, dest: Place) -> int:
        """The cell a card sent to ``dest`` (``c`` or ``c2``) lands in."""
        if dest.column is None:
            if None not in self._cells:
                raise IllegalMoveError("every free cell holds a card")
            return self._cells.index(None)
        cell = dest.column - 1
        held = self._cells[cell]
        if held is not None:
            raise IllegalMoveError(f"{dest} holds {held}")
        return cell

    def _check(self, move: Move) -> None:
        self._resolve(move)

    def _play(self, move: Move) -> Played:
        action = self._resolve(move)
        self._history.append(self._snapshot())
        played = self._apply(action)
        if self.is_solved() and self.cards_on_foundation() < CARDS:
            played = Played(played.move, played.points, (), self._play_out())
        return played

    def _apply(self, action: _Action) -> Played:
        moved: list[Card]
        if action.column is None:
            assert action.cell is not None
            held = self._cells[action.cell]
            assert held is not None
            moved = [held]
            self._cells[action.cell] = None
        else:
            column = self._columns[action.column]
            moved = column[action.start :]
            del column[action.start :]
        points = 0
        if action.kind == "home":
            (card,) = moved
            self._foundation[card.suit.index] += 1
            points = CARD_POINTS
        elif action.kind == "to_cell":
            assert action.cell is not None
            (self._cells[action.cell],) = moved
        else:
            assert action.dest is not None
            self._columns[action.dest].extend(moved)
        return Played(action.move, points)

    def _play_out(self) -> tuple[Played, ...]:
        """Every card home, lowest rank first (always possible once solved)."""
        steps = []
        while self.cards_on_foundation() < CARDS:
            homes = [action for action in self._iter_actions() if action.kind == "home"]
            if not homes:  # pragma: no cover - impossible by the rules; fail loudly
                raise AssertionError("a solved FreeCell game could not play out")
            best = min(homes, key=lambda action: self._card_moved(action).rank)
            card = self._card_moved(best)
            steps.append(replace(self._apply(best), card=card))
        return tuple(steps)

    def _card_moved(self, action: _Action) -> Card:
        if action.column is None:
            assert action.cell is not None
            card = self._cells[action.cell]
            assert card is not None
            return card
        return self._columns[action.column][-1]

    def tap(self, place: Place | str) -> Move | None:
        """The move home for the exposed card of ``tN`` or the card in ``cK``, if it has a
        place there."""
        if isinstance(place, str):
            place = Place.parse(place)
        if place.kind not in ("t", "c") or place.column is None or self.is_over():
            return None
        try:
            return self._resolve(Move(source=place.bare, dest=_HOME)).move
        except (IllegalMoveError, InvalidMoveError):
            return None

    # -- undo ---------------------------------------------------------------------------

    def _undo_refusal(self) -> str | None:
        """Only when nothing was played: nothing is hidden, so undo is otherwise free."""
        if not self._history:
            return "nothing to undo"
        return None

    def _undo(self) -> None:
        snapshot = self._history.pop()
        self._columns = [list(column) for column in snapshot.columns]
        self._cells = list(snapshot.cells)
        self._foundation = list(snapshot.foundation)

    def _snapshot(self) -> _Snapshot:
        return _Snapshot(
            columns=tuple(tuple(column) for column in self._columns),
            cells=tuple(self._cells),
            foundation=tuple(self._foundation),
        )


def _fitting_start(column: Sequence[Card], first: int, target: Card) -> int | None:
    """Where the part of the run of ``column`` (which begins at ``first``) that goes on
    ``target`` begins, if a part does: the run descends one rank a card, so one card at
    most can fit."""
    start = first + column[first].rank - (target.rank - 1)
    if first <= start < len(column) and freecell_builds_on(column[start], target):
        return start
    return None


def _building_error(card: Card, target: Card | None, dest: Place) -> str:
    if target is None:  # pragma: no cover - any card fills an empty column
        return f"{card} cannot go to {dest}"
    return f"{card} cannot go on {target} ({dest}): columns build down in alternating colours"


def _too_long(moved: int, limit: int, free: int, to_empty: bool) -> str:
    cells = f"{free} free cell{'' if free == 1 else 's'}"
    where = "into an empty column " if to_empty else ""
    return (
        f"a run of {moved} cards cannot move {where}now: with {cells} and the empty columns, "
        f"at most {limit} can"
    )


def _column(index: int) -> Place:
    return Place("t", index + 1)


_HOME: Final = Place("f")
_T_TO_F: Final = tuple(Move(source=_column(i), dest=_HOME) for i in range(COLUMNS))
_C_TO_F: Final = tuple(Move(source=Place("c", k + 1), dest=_HOME) for k in range(CELLS))
_T_TO_T: Final = tuple(
    tuple(Move(source=_column(i), dest=_column(j)) for j in range(COLUMNS)) for i in range(COLUMNS)
)
_C_TO_T: Final = tuple(
    tuple(Move(source=Place("c", k + 1), dest=_column(j)) for j in range(COLUMNS))
    for k in range(CELLS)
)
_T_TO_C: Final = tuple(
    tuple(Move(source=_column(i), dest=Place("c", k + 1)) for k in range(CELLS))
    for i in range(COLUMNS)
)
