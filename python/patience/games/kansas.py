"""Kansas, as GNOME Aisleriot plays it: the engine of record (docs/rules.md, "Kansas").

A reserve of 12 cards (only its top card visible), a base card on the first foundation that
sets the rank every foundation starts from, three columns of one card, and a stock of 36
turned one at a time with no redeal. Foundations build up by suit from the base rank, King
followed by Ace; columns build down regardless of suit, Ace followed by King, and any group
of a column's cards down to its exposed card moves when its first card fits (as in
Aisleriot, the group itself need not be in sequence). An emptied column is refilled at once
from the reserve; once the reserve is empty, only the waste's top card may fill it.

>>> game = Kansas.from_seed(2026)
>>> game.observation()["base"], game.score()
('Q', 1)
>>> game.observation()["reserve"]
{'cards': 12, 'top': '7d'}
>>> [str(move) for move in game.legal_moves()]
['t1>t3', 't3>t2', 'draw']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Final, Literal, cast

from patience.cards import Card, Rank, Suit
from patience.errors import IllegalMoveError, InvalidMoveError
from patience.games.base import Budgets, ClientLayout, Game, Outcome, Played, reveal_barrier
from patience.games.layout import Pile
from patience.moves import DRAW, Move, Place

__all__ = ["Kansas", "kansas_builds_on"]

COLUMNS: Final = 3
RESERVE: Final = 12
SUITS: Final = tuple(Suit)


def kansas_builds_on(card: Card, target: Card) -> bool:
    """Whether ``card`` goes on a column whose exposed card is ``target``: one rank lower,
    any suit, a King on an Ace.

    >>> from patience.cards import Card
    >>> kansas_builds_on(Card.parse("9s"), Card.parse("Th")), kansas_builds_on(
    ...     Card.parse("Kc"), Card.parse("Ad"))
    (True, True)
    """
    if target.rank == Rank.ACE:
        return card.rank == Rank.KING
    return card.rank == target.rank - 1


def _next_rank(rank: int) -> int:
    return rank % 13 + 1


@dataclass(frozen=True, slots=True)
class _Snapshot:
    reserve: tuple[Card, ...]
    columns: tuple[tuple[Card, ...], ...]
    waste: tuple[Card, ...]
    counts: tuple[int, ...]
    slots: tuple[Suit | None, ...]
    revealed: bool


# The board's piles, each declared once: the layout and its upright arrangement place the
# same piles (tests/test_game_declarations.py holds them to it).
_RESERVE: Final[Pile] = {"kind": "reserve", "field": "reserve"}
_STOCK: Final[Pile] = {"kind": "stock", "field": "stock", "name": "stock"}
_WASTE: Final[Pile] = {"kind": "waste", "fan": 1, "take": True}
_FOUNDATIONS: Final[Pile] = {
    "kind": "foundation",
    "by": "pile",
    "name": "foundation",
    "count": True,
    "base": "base",
    "wrap": True,
    "group": True,
}


_Source = Literal["w", "r", "t"]


@dataclass(frozen=True, slots=True)
class _Action:
    move: Move  # canonical
    source: _Source | None  # None for draw
    column: int = 0  # source column index, for "t"
    start: int = 0  # first card moved, for "t"
    dest: int | None = None  # destination column index; None for the foundation


class Kansas(Game):
    """Kansas, with Aisleriot's rules; it has no variant options."""

    name: ClassVar[str] = "kansas"
    title: ClassVar[str] = "Kansas"
    time_limit: ClassVar[int] = 300
    budgets: ClassVar[Budgets] = Budgets(
        # its search fills 8 million positions in 5 to 7 seconds; 24 million let a
        # 10-second budget run out (up to about 0.9 GB for the table while it grows)
        solve_states=24_000_000,
        catalog_nodes=5_000_000,
        # looking for wins only, it wins about one random deal in four within 0.3 s
        # (docs/server.md)
        certify_try_seconds=0.3,
    )
    # greedy and lookahead draw no random number, so one playout is all of them
    playouts: ClassVar[Mapping[str, int]] = {"random": 16, "greedy": 1, "lookahead": 1}
    # version 2: lookahead, clearly stronger than greedy, in place of rollout, which was
    # not (docs/rating.md, "Kansas is seldom won")
    rating_version: ClassVar[int] = 2
    former_playouts: ClassVar[Mapping[int, Mapping[str, int]]] = {
        1: {"random": 16, "greedy": 1, "rollout": 8}
    }
    rated_by_progress: ClassVar[bool] = True
    cheap_players: ClassVar[tuple[str, ...]] = ("random", "greedy")
    status: ClassVar[tuple[tuple[str, str], ...]] = (("Base", "base"),)
    terminal_help: ClassVar[str] = """\
Moves, in the notation of game records (r is the reserve, w the waste):
  t1>t3     the cards of column 1 that fit onto column 3 (t1:Qh>t3 names the first)
  r>t2      reserve to column 2     w>f  waste home     t3>f  column 3 home
  draw      turn the stock's top card (Enter too); there is no redeal
  Qh, r, 3  tap a card, the reserve or a column: it goes home if it can
"""
    layout: ClassVar[ClientLayout] = {
        "rows": [
            {
                "name": "top",
                "piles": [
                    _RESERVE,
                    _STOCK,
                    _WASTE,
                    {"kind": "spacer"},
                    _FOUNDATIONS,
                ],
            },
            {"name": "tableau"},
        ],
        "tableau": {
            "pick": "run",
            "packed": True,
            "build": {"colours": "any", "wrap": True, "empty": "any"},
        },
        "across": 7.3,
        # (a phone in portrait: the foundations two by two beside the reserve, stock and
        # waste, for cards half as wide again)
        "narrow": {"width": 500, "across": 5.3, "fold": 2},
        # (three columns of up to 21 cards: the height bounds the cards, not the width; on a
        # wide window the piles stand beside the columns, which get the whole height)
        "beside_when_wide": True,
        # (a phone held upright: the four foundations alone across the top, the reserve,
        # the waste and the stock at the foot, the stock at its right end where a right
        # thumb rests: four cards across, for cards half as wide again)
        "upright": {
            "rows": [
                {
                    "name": "top",
                    "piles": [
                        {"kind": "spacer"},
                        _FOUNDATIONS,
                    ],
                },
                {"name": "tableau"},
                {
                    "name": "bottom",
                    "piles": [
                        _RESERVE,
                        {"kind": "spacer"},
                        _WASTE,
                        _STOCK,
                    ],
                },
            ],
            "across": 4.3,
        },
        "design": {"down": 0, "up": 16},
        # (its columns, built round the corner, have no small bound: the solver's winning
        # lines of 60 deals reached 37 cards; past 21 a column fans to slivers of corners)
        "longest": {"down": 0, "up": 20},
        "direct": False,
        "counter": None,
        "recycle_cost": [],
        "watch_stuck": False,
        "picture": [
            (2, 2, "up", True, None),
            (13, 2, "down", False, None),
            (24, 2, "up", False, None),
            (46, 2, "up", False, None),
            *((46 + k * 8, 2, "slot", False, None) for k in range(1, 4)),
            *((2 + c * 14, 19, "up", c % 3 == 1, None) for c in range(3)),
        ],
        "words": {
            "one_line": "A reserve, three columns, a dealt base.",
            "rules": [
                "Build the four foundations up by suit from the base rank (the first card "
                "dealt to them), turning the corner from king to ace.",
                "The three columns build down in any suit, an ace under a two and a king under "
                "an ace; move any run of cards together.",
                "An emptied column fills itself from the reserve; once the reserve is gone, the "
                "waste's top card may fill it.",
                "Tap the stock to turn one card onto the waste; there is no redeal. One point a "
                "card home, 52 to win.",
            ],
            "options": [],
            "help_pointer": "Click a card to play it where it fits best (home first, else a "
            "column); drag it (with the cards on it) to choose the place. Keys: arrows, Enter "
            "to pick and Enter to place, d draw, u undo.",
            "move_example": "r>t1, w>f",
            "help_touch": "Tap a card to play it where it fits best; drag it to choose the place.",
            "foundation": "the foundation",
            "home": "home",
            "bonus_lines": [],
        },
    }

    def __init__(self, deal: Sequence[Card] | str | Iterable[str]) -> None:
        super().__init__(deal)
        cards = list(self._deal)
        self._reserve: list[Card] = cards[:RESERVE]  # its top card is the last, the 12th dealt
        base = cards[RESERVE]
        self._base: Rank = base.rank
        self._counts = [0] * len(SUITS)  # cards on each suit's foundation
        self._counts[base.suit.index] = 1
        self._slots: list[Suit | None] = [base.suit, None, None, None]  # in the order founded
        self._columns: list[list[Card]] = [[card] for card in cards[RESERVE + 1 : RESERVE + 4]]
        self._stock: list[Card] = cards[RESERVE + 4 :][::-1]  # top of the stock is last
        self._waste: list[Card] = []
        self._history: list[_Snapshot] = []

    @property
    def variant(self) -> dict[str, object]:
        """Kansas has no options: ``{}``."""
        return {}

    @property
    def base(self) -> Rank:
        """The rank every foundation starts from, set by the 13th card dealt."""
        return self._base

    # -- reading the state --------------------------------------------------------------

    def score(self) -> int:
        """One point for each card on the foundations, the base card included."""
        return self.cards_on_foundation()

    def cards_on_foundation(self) -> int:
        """Cards on the four foundations."""
        return sum(self._counts)

    def outcome(self) -> Outcome | None:
        """Won with all 52 home; ended by ``end``; stuck when no move is left at all."""
        if self.cards_on_foundation() == 52:
            return Outcome(won=True, reason="won")
        if self._ended:
            return Outcome(won=False, reason="ended")
        if not self._stock and not self._actions():
            return Outcome(won=False, reason="stuck")
        return None

    def observation(self) -> dict[str, Any]:
        """The table as the player sees it: the reserve's top card and count, the stock as a
        count, every foundation by the order it was founded."""
        return {
            "game": self.name,
            "variant": {},
            "base": self._base.letter,
            "reserve": {
                "cards": len(self._reserve),
                "top": str(self._reserve[-1]) if self._reserve else None,
            },
            "tableau": [{"hidden": 0, "cards": [str(card) for card in c]} for c in self._columns],
            "stock": len(self._stock),
            "waste": [str(card) for card in self._waste],
            "foundation": [
                None
                if suit is None
                else {"top": str(self._foundation_top(suit)), "cards": self._counts[suit.index]}
                for suit in self._slots
            ],
            "score": self.score(),
            **self._status(),
        }

    def native_position(self) -> tuple[Any, ...]:
        """``(base rank, reserve, columns, stock, waste, foundation heights)``: each pile's
        top (or next) card last."""
        piles = self.piles()
        return (
            self.base.value,
            [card.index for card in piles["reserve"]],
            [[card.index for card in piles[f"t{k}"]] for k in range(1, 4)],
            [card.index for card in reversed(piles["stock"])],
            [card.index for card in piles["waste"]],
            [len(piles[f"f:{suit}"]) for suit in "cdhs"],
        )

    def piles(self) -> dict[str, list[Card]]:
        """``reserve`` (top last), ``t1``..``t3``, ``stock`` (next card first), ``waste``
        (top last), and ``f:c``..``f:s`` (first-placed first)."""
        piles = {"reserve": list(self._reserve)}
        piles |= {f"t{index + 1}": list(column) for index, column in enumerate(self._columns)}
        piles["stock"] = self._stock[::-1]
        piles["waste"] = list(self._waste)
        for suit in SUITS:
            ranks, rank = [], self._base.value
            for _ in range(self._counts[suit.index]):
                ranks.append(rank)
                rank = _next_rank(rank)
            piles[f"f:{suit.value}"] = [Card(r, suit) for r in ranks]
        return piles

    def hidden_cards(self) -> list[Card]:
        """The reserve below its top card, and the stock."""
        return self._reserve[:-1] + self._stock[::-1]

    def _foundation_top(self, suit: Suit) -> Card:
        count = self._counts[suit.index]
        return Card((self._base - 1 + count - 1) % 13 + 1, suit)

    def _takes(self, card: Card) -> bool:
        """Whether a foundation takes ``card`` now."""
        count = self._counts[card.suit.index]
        if count == 0:
            return card.rank == self._base
        return count < 13 and card.rank == _next_rank(self._foundation_top(card.suit).rank)

    # -- moves --------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """To the foundation (waste, reserve, columns), onto columns (waste, reserve, then
        column to column), then ``draw``."""
        if self._ended or self.cards_on_foundation() == 52:
            return []
        return [action.move for action in self._actions()]

    def _actions(self) -> list[_Action]:
        actions: list[_Action] = []
        waste = self._waste[-1] if self._waste else None
        reserve = self._reserve[-1] if self._reserve else None
        tops = [column[-1] if column else None for column in self._columns]
        if waste is not None and self._takes(waste):
            actions.append(_Action(_W_TO_F, "w"))
        if reserve is not None and self._takes(reserve):
            actions.append(_Action(_R_TO_F, "r"))
        for i, top in enumerate(tops):
            if top is not None and self._takes(top):
                actions.append(_Action(_T_TO_F[i], "t", column=i, start=len(self._columns[i]) - 1))
        for j, target in enumerate(tops):
            if waste is not None and (
                (target is None and not self._reserve)
                or (target is not None and kansas_builds_on(waste, target))
            ):
                actions.append(_Action(_W_TO_T[j], "w", dest=j))
        for j, target in enumerate(tops):
            if reserve is not None and target is not None and kansas_builds_on(reserve, target):
                actions.append(_Action(_R_TO_T[j], "r", dest=j))
        for i, column in enumerate(self._columns):
            for j, target in enumerate(tops):
                if i == j or target is None:
                    continue
                starts = [k for k, card in enumerate(column) if kansas_builds_on(card, target)]
                for start in starts:
                    move = (
                        _T_TO_T[i][j]
                        if len(starts) == 1
                        else Move(source=Place("t", i + 1, card=column[start]), dest=_column(j))
                    )
                    actions.append(_Action(move, "t", column=i, start=start, dest=j))
        if self._stock:
            actions.append(_Action(DRAW, None))
        return actions

    def _resolve(self, move: Move) -> _Action:
        """The action ``move`` stands for now; raises if it is not legal."""
        if move.word == "draw":
            if not self._stock:
                raise IllegalMoveError("the stock is empty (Kansas has no redeal)")
            return _Action(DRAW, None)
        if move.word is not None:
            raise InvalidMoveError(f"{move.word!r} is not a Kansas move")
        source, dest = move.source, move.dest
        assert source is not None
        if dest is None:
            raise InvalidMoveError(f"{move}: say where to, as {source.bare}>f or {source.bare}>t1")
        for place in (source, dest):
            if place.kind == "t" and (place.column or 0) > COLUMNS:
                raise InvalidMoveError(f"there is no {place.bare}: Kansas has {COLUMNS} columns")
            if place.kind == "h":
                raise InvalidMoveError(f"Kansas has no {place.bare} (places: t1-t3, r, w, f)")
        if source.kind == "f":
            raise IllegalMoveError("cards never leave a Kansas foundation")
        if dest.kind in ("w", "r"):
            raise InvalidMoveError(f"{move}: cards go to a column (t1..t3) or the foundation (f)")
        if dest.kind == "f" and dest.suit is not None:
            raise InvalidMoveError(f"{move}: write the foundation as f; the engine picks the pile")
        kind = cast(_Source, source.kind)  # h and f were refused above
        card, column_index, starts = self._source_cards(source)
        if dest.kind == "f":
            if len(starts) and starts[-1] != len(self._columns[column_index]) - 1:
                raise IllegalMoveError(f"{move}: only the exposed card of a column goes home")
            if not self._takes(card):
                raise IllegalMoveError(f"{card} has no place on the foundations yet")
            canonical = Move(source=source.bare, dest=Place("f"))
            start = len(self._columns[column_index]) - 1 if source.kind == "t" else 0
            return _Action(canonical, kind, column=column_index, start=start)
        assert dest.column is not None
        dest_index = dest.column - 1
        target = self._columns[dest_index][-1] if self._columns[dest_index] else None
        if source.kind == "t" and column_index == dest_index:
            raise IllegalMoveError(f"{move}: cards cannot move onto their own column")
        if target is None:
            if source.kind != "w":
                raise IllegalMoveError(
                    f"{move}: an empty column takes only the waste's top card"
                    " (and only once the reserve is empty)"
                )
            return _Action(Move(source=source.bare, dest=dest), "w", dest=dest_index)
        fitting = [k for k in starts if kansas_builds_on(self._columns[column_index][k], target)]
        if source.kind != "t":
            if not kansas_builds_on(card, target):
                raise IllegalMoveError(_building_error(card, target, dest))
            return _Action(Move(source=source.bare, dest=dest), kind, dest=dest_index)
        if not fitting:
            if source.card is not None:
                raise IllegalMoveError(_building_error(source.card, target, dest))
            raise IllegalMoveError(f"{move}: no card of {source.bare} goes on {target}")
        if len(fitting) > 1 and source.card is None:
            named = " or ".join(
                f"{source.bare}:{self._columns[column_index][k]}>{dest}" for k in fitting
            )
            raise IllegalMoveError(
                f"{move}: more than one group fits; name its first card: {named}"
            )
        canonical = _T_TO_T[column_index][dest_index]
        every_fit = [
            k for k, c in enumerate(self._columns[column_index]) if kansas_builds_on(c, target)
        ]
        if len(every_fit) > 1:
            first = self._columns[column_index][fitting[0]]
            canonical = Move(source=Place("t", column_index + 1, card=first), dest=dest)
        return _Action(canonical, "t", column=column_index, start=fitting[0], dest=dest_index)

    def _source_cards(self, source: Place) -> tuple[Card, int, list[int]]:
        """The card a move takes from ``source`` (the exposed or named card), the column
        index, and for a column the positions the moved group may start at."""
        if source.kind == "w":
            if not self._waste:
                raise IllegalMoveError("the waste is empty")
            return self._waste[-1], 0, []
        if source.kind == "r":
            if not self._reserve:
                raise IllegalMoveError("the reserve is empty")
            return self._reserve[-1], 0, []
        assert source.column is not None
        index = source.column - 1
        column = self._columns[index]
        if not column:
            raise IllegalMoveError(f"{source.bare} is empty")
        if source.card is None:
            return column[-1], index, list(range(len(column)))
        if source.card not in column:
            raise IllegalMoveError(f"{source.card} is not in {source.bare}")
        position = column.index(source.card)
        return source.card, index, [position]

    def _check(self, move: Move) -> None:
        self._resolve(move)

    def _play(self, move: Move) -> Played:
        action = self._resolve(move)
        snapshot = self._snapshot()
        revealed: list[Card] = []
        points = 0
        if action.source is None:
            card = self._stock.pop()
            self._waste.append(card)
            revealed.append(card)
        else:
            moved = self._take(action)
            if action.dest is None:
                (card,) = moved
                if self._counts[card.suit.index] == 0:
                    self._slots[self._slots.index(None)] = card.suit
                self._counts[card.suit.index] += 1
                points = 1
            else:
                self._columns[action.dest].extend(moved)
            if action.source == "r" and self._reserve:
                revealed.append(self._reserve[-1])
            if action.source == "t" and not self._columns[action.column] and self._reserve:
                self._columns[action.column].append(self._reserve.pop())
                if self._reserve:
                    revealed.append(self._reserve[-1])
        self._history.append(replace(snapshot, revealed=bool(revealed)))
        return Played(action.move, points, tuple(revealed))

    def _take(self, action: _Action) -> list[Card]:
        if action.source == "w":
            return [self._waste.pop()]
        if action.source == "r":
            return [self._reserve.pop()]
        column = self._columns[action.column]
        moved = column[action.start :]
        del column[action.start :]
        return moved

    def tap(self, place: Place | str) -> Move | None:
        """The foundation move for the top card at ``place`` (``w``, ``r``, ``t1``..``t3``)."""
        if isinstance(place, str):
            place = Place.parse(place)
        if place.kind not in ("w", "r", "t") or self.is_over():
            return None
        move = Move(source=place.bare, dest=Place("f"))
        return move if self.is_legal(move) else None

    # -- undo ---------------------------------------------------------------------------

    def _undo_refusal(self) -> str | None:
        """Nothing played yet, or the last move turned up a card (a draw, or a new
        reserve card)."""
        return reveal_barrier(self._history)

    def _undo(self) -> None:
        snapshot = self._history.pop()
        self._reserve = list(snapshot.reserve)
        self._columns = [list(column) for column in snapshot.columns]
        self._waste = list(snapshot.waste)
        self._counts = list(snapshot.counts)
        self._slots = list(snapshot.slots)
        # the stock only changes by draws, which are never undone

    def _snapshot(self) -> _Snapshot:
        return _Snapshot(
            reserve=tuple(self._reserve),
            columns=tuple(tuple(column) for column in self._columns),
            waste=tuple(self._waste),
            counts=tuple(self._counts),
            slots=tuple(self._slots),
            revealed=False,
        )


def _column(index: int) -> Place:
    return Place("t", index + 1)


def _building_error(card: Card, target: Card, dest: Place) -> str:
    return f"{card} cannot go on {target} ({dest}): columns build down by one rank, K on A"


_FOUNDATION: Final = Place("f")
_W_TO_F: Final = Move(source=Place("w"), dest=_FOUNDATION)
_R_TO_F: Final = Move(source=Place("r"), dest=_FOUNDATION)
_T_TO_F: Final = tuple(Move(source=_column(i), dest=_FOUNDATION) for i in range(COLUMNS))
_W_TO_T: Final = tuple(Move(source=Place("w"), dest=_column(j)) for j in range(COLUMNS))
_R_TO_T: Final = tuple(Move(source=Place("r"), dest=_column(j)) for j in range(COLUMNS))
_T_TO_T: Final = tuple(
    tuple(Move(source=_column(i), dest=_column(j)) for j in range(COLUMNS)) for i in range(COLUMNS)
)
