"""Klondike as "Solitaire Rush": the engine of record (docs/rules.md, "Klondike").

Seven columns dealt row by row (1 to 7 cards, the last of each face up), the other 24 cards
in the hand, first of them on top. Draw 1 or draw 3, unlimited passes, the points table of
the seed, undo that never passes a reveal, and automatic play-out once solved.

A card's foundation points are earned once per game, the first time it goes home; a card
brought back to the tableau costs 10 each time and earns nothing when it goes home again.
So no game scores more than ``MAX_POINTS`` (1,610) before the time bonus, nor more than
``MAX_POINTS + 300`` with it.

>>> game = Klondike.from_seed(1, {"draw": 3})
>>> game.play("draw").points, len(game.observation()["waste"])
(0, 3)
>>> game.can_undo()  # those three cards were never seen before
False
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Final, Literal

from patience.cards import Card, Rank, Suit
from patience.errors import (
    IllegalMoveError,
    InvalidDealError,
    InvalidMoveError,
    InvalidVariantError,
)
from patience.games.base import (
    ClientLayout,
    Game,
    Outcome,
    Played,
    VariantOption,
    coerce_deal,
    reveal_barrier,
    scaled_time_bonus,
)
from patience.moves import DRAW, RECYCLE, Move, Place

__all__ = ["MAX_POINTS", "Klondike", "foundation_points"]

COLUMNS: Final = 7
SUITS: Final = tuple(Suit)
WASTE_BONUS: Final = 10
FLIP_POINTS: Final = 10
FOUNDATION_TO_TABLEAU: Final = -10
DRAW1_RECYCLE: Final = -100
DRAW3_RECYCLE: Final = -20
DRAW3_FREE_RECYCLES: Final = 2


def foundation_points(rank: Rank) -> int:
    """Points for a card of ``rank`` reaching a foundation: Ace 50, 2 45, ... 9 10, then 5.
    Paid once per card per game, the first time it goes home (the 13 ranks sum to 290).

    >>> [foundation_points(rank) for rank in (Rank.ACE, Rank.TWO, Rank.NINE, Rank.TEN, Rank.KING)]
    [50, 45, 10, 5, 5]
    """
    return 55 - 5 * rank if rank <= Rank.NINE else 5


# The most points a game can hold, time bonus apart: every card's foundation value once
# (4 suits x 290), every face-down card turned up (21 x 10) and every hand card leaving the
# waste (24 x 10); nothing else gains. 1,160 + 210 + 240 = 1,610. The time bonus adds at
# most floor(300 * 52 / 52) = 300 (T = 0, all 52 home), so 1,910 in all.
MAX_POINTS: Final = (
    len(SUITS) * sum(foundation_points(rank) for rank in Rank)
    + FLIP_POINTS * sum(range(COLUMNS))
    + WASTE_BONUS * (52 - sum(range(1, COLUMNS + 1)))
)


def _fits_on(card: Card, target: Card | None) -> bool:
    """Whether ``card`` may be placed on a column whose exposed card is ``target``."""
    if target is None:
        return card.rank == Rank.KING
    return card.rank == target.rank - 1 and card.is_red != target.is_red


@dataclass(frozen=True, slots=True)
class _Snapshot:
    columns: tuple[tuple[Card, ...], ...]
    hidden: tuple[int, ...]
    stock: tuple[Card, ...]
    waste: tuple[Card, ...]
    foundation: tuple[int, ...]
    score: int
    earned: frozenset[Card]  # cards that have earned their foundation points
    recycles: int
    revealed: bool  # the move taken after this snapshot turned up an unseen card


_Kind = Literal["draw", "recycle", "to_foundation", "to_column", "from_foundation"]


@dataclass(frozen=True, slots=True)
class _Action:
    """A move resolved against the current state."""

    kind: _Kind
    move: Move  # canonical
    source: int | None = None  # column index (0-based) or None for the waste
    start: int = 0  # first card of the moved run, for moves out of a column
    dest: int | None = None  # destination column index
    suit: Suit | None = None  # foundation suit, for moves out of a foundation


class Klondike(Game):
    """Klondike by the Solitaire Rush rules; ``draw`` is 1 or 3."""

    name: ClassVar[str] = "klondike"
    title: ClassVar[str] = "Solitaire Rush"
    time_limit: ClassVar[int] = 300
    has_time_bonus: ClassVar[bool] = True
    options: ClassVar[tuple[VariantOption, ...]] = (VariantOption("draw", (1, 3), 1),)
    playouts: ClassVar[Mapping[str, int]] = {"random": 16, "greedy": 16, "hindsight": 12}
    # version 2: 12 playouts of hindsight, not 8 (two ratings of 1,000 draw-3 deals agree to
    # a Spearman 0.920, against 0.881: docs/rating.md), and the solver's draw-3 recycle rule
    rating_version: ClassVar[int] = 2
    former_playouts: ClassVar[Mapping[int, Mapping[str, int]]] = {
        1: {"random": 16, "greedy": 16, "hindsight": 8}
    }
    cheap_players: ClassVar[tuple[str, ...]] = ("random", "greedy")
    redeals: ClassVar[int] = 0  # 8 redeals of the hidden cards added nothing the model used
    still_won: ClassVar[Mapping[str, int]] = {"random": 16, "greedy": 1}
    information: ClassVar[tuple[str, ...]] = ("person", "known-stock")
    status: ClassVar[tuple[tuple[str, str], ...]] = (("Recycles", "recycles"),)
    score_order: ClassVar[tuple[str, ...]] = (
        "Cards sent home",
        "Cards turned up",
        "Cards from the waste",
        "Cards moved off the foundations",
        "Waste turned over",
    )
    terminal_help: ClassVar[str] = """\
Moves, in the notation of game records:
  t3>t5     the run of column 3 that fits onto column 5 (t3:Qh>t5 names its card)
  w>t2      waste to column 2     t4>f  column 4 home     f:h>t1  foundation back
  draw      turn from the hand (Enter too); once it is empty, recycle the waste
  Qh, t3, 3 tap a card or a column: it goes home if it has a place there
"""
    layout: ClassVar[ClientLayout] = {
        "rows": [
            {
                "name": "top",
                "piles": [
                    {"kind": "stock", "field": "hand", "name": "hand", "recycle": True},
                    {"kind": "waste", "fan_option": "draw", "take": True},
                    {"kind": "spacer"},
                    {"kind": "foundation", "by": "suit", "take": True},
                ],
            },
            {"name": "tableau"},
        ],
        "tableau": {
            "pick": "run",
            "packed": False,
            "build": {"colours": "alternate", "wrap": False, "empty": "king"},
        },
        "across": 7,
        # (a phone held upright: the foundations alone across the top, and the hand at the
        # foot's right end with the waste beside it, where a right thumb rests)
        "upright": {
            "rows": [
                {
                    "name": "top",
                    "piles": [
                        {"kind": "spacer"},
                        {"kind": "foundation", "by": "suit", "take": True},
                    ],
                },
                {"name": "tableau"},
                {
                    "name": "bottom",
                    "piles": [
                        {"kind": "spacer"},
                        {"kind": "waste", "fan_option": "draw", "take": True},
                        {"kind": "stock", "field": "hand", "name": "hand", "recycle": True},
                    ],
                },
            ],
            "across": 7,
        },
        "design": {"down": 6, "up": 9},
        # the seventh column's six face-down cards under a king and the twelve cards down to
        # an ace on it
        "longest": {"down": 6, "up": 12},
        "direct": False,
        "counter": {"label": "Recycles", "field": "recycles"},
        "recycle_cost": [
            {"variant": {"draw": 1}, "points": -DRAW1_RECYCLE, "free": 0},
            {"variant": {"draw": 3}, "points": -DRAW3_RECYCLE, "free": DRAW3_FREE_RECYCLES},
        ],
        "watch_stuck": True,
        "picture": [
            (2, 2, "down", False, None),
            (13, 2, "up", True, None),
            *((35 + k * 11, 2, "slot", False, None) for k in range(4)),
            *(
                (2 + c * 11, 17 + r * 2.2, "down" if r < c else "up", r == c and c % 3 == 1, None)
                for c in range(COLUMNS)
                for r in range(c + 1)
            ),
        ],
        "words": {
            "one_line": "The classic: build down, red on black.",
            "rules": [
                "Build the four foundations up by suit, from the ace to the king.",
                "In the columns, build down in alternating colours (a red six on a black "
                "seven); move a run of cards together. Only a king fills an empty column.",
                "Tap the hand to turn cards onto the waste: one at a time with draw 1, three "
                "with draw 3. An empty hand turns the waste over again (draw 1: -100 points "
                "each time; draw 3: -20 from the third time).",
                "A tap sends a card home when it can go there, else to the column it fits.",
                "A face-down card turns up when it is uncovered (+10). Undo never takes back a "
                "card you have seen turned up.",
                "Once every card is face up and the hand is done, the rest plays itself home. "
                "5 minutes; the time left adds a bonus.",
            ],
            "options": [
                {
                    "name": "draw",
                    "label": "Cards drawn",
                    "values": [
                        {
                            "value": 1,
                            "label": "Draw 1 (one card at a time)",
                            "short": "draw 1",
                            "rule": "Draw 1: one card at a time from the hand.",
                        },
                        {
                            "value": 3,
                            "label": "Draw 3 (three at a time)",
                            "short": "draw 3",
                            "rule": "Draw 3: three cards at a time; only the top one plays.",
                        },
                    ],
                }
            ],
            "help_pointer": "Click a card to play it where it fits best (home first, else a "
            "column); drag it to choose the place. Click the hand to draw. Keys: arrows, "
            "Enter to pick and Enter to place, d draw, u undo.",
            "move_example": "t3>t5, draw",
            "help_touch": "Tap a card to play it where it fits best; drag it to choose the "
            "place. Tap the hand to draw.",
            "foundation": "the foundation",
            "home": "home",
            "bonus_lines": [],
        },
    }

    def __init__(self, deal: Sequence[Card] | str | Iterable[str], *, draw: int = 1) -> None:
        if draw not in (1, 3) or isinstance(draw, bool):
            raise InvalidVariantError(f"klondike option 'draw' takes 1 or 3, not {draw!r}")
        super().__init__(deal)
        self._draw = draw
        cards = iter(self._deal)
        self._columns: list[list[Card]] = [[] for _ in range(COLUMNS)]
        for row in range(COLUMNS):
            for column in range(row, COLUMNS):
                self._columns[column].append(next(cards))
        self._hidden = [len(column) - 1 for column in self._columns]
        self._stock: list[Card] = list(cards)[::-1]  # top of the hand is the last item
        self._waste: list[Card] = []
        self._foundation = [0] * len(SUITS)  # top rank on each suit's pile, 0 when empty
        self._score = 0
        self._earned: set[Card] = set()  # cards whose foundation points are already paid
        self._recycles = 0
        self._seen: set[Card] = set()  # hand cards the player has seen turned up
        self._history: list[_Snapshot] = []

    @property
    def variant(self) -> dict[str, object]:
        """``{"draw": 1}`` or ``{"draw": 3}``."""
        return {"draw": self._draw}

    @property
    def draw_count(self) -> int:
        """Cards turned by one ``draw``: 1 or 3."""
        return self._draw

    # -- reading the state --------------------------------------------------------------

    def score(self) -> int:
        """The score so far, without the time bonus."""
        return self._score

    def cards_on_foundation(self) -> int:
        """Cards on the four foundations."""
        return sum(self._foundation)

    def is_solved(self) -> bool:
        """Hand empty, at most one card in the waste, no face-down card in the tableau."""
        return not self._stock and len(self._waste) <= 1 and not any(self._hidden)

    def outcome(self) -> Outcome | None:
        """Won once all 52 cards are home; ended by ``end``; else None."""
        if self.cards_on_foundation() == 52:
            return Outcome(won=True, reason="won")
        if self._ended:
            return Outcome(won=False, reason="ended")
        return None

    def score_parts(self, played: Played) -> Iterator[tuple[str, int, int]]:
        """A move's points as the result's lines: cards home, cards turned up, cards from the
        waste, cards moved off the foundations, the waste turned over."""
        move = played.move
        if move.word is not None:  # draw, recycle, end
            if move.word == "recycle":
                yield "Waste turned over", 1, played.points
            return
        source = move.source
        assert source is not None
        if source.kind == "f":
            yield "Cards moved off the foundations", 1, played.points
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
            yield "Cards sent home", 1, rest
        elif rest:
            yield "Other points", 0, rest  # none by the rules; kept so the lines add up

    def time_bonus(self, elapsed: float) -> int:
        """``floor((300 - T) * CP / 52)``, T the seconds used, CP the cards home."""
        return scaled_time_bonus(
            limit=self.time_limit, elapsed=elapsed, done=self.cards_on_foundation(), total=52
        )

    @property
    def recycles(self) -> int:
        """How many times the waste was turned back into the hand."""
        return self._recycles

    def observation(self) -> dict[str, Any]:
        """The table as the player sees it: face-down cards and the hand only as counts."""
        return {
            "game": self.name,
            "variant": self.variant,
            "tableau": [
                {"hidden": hidden, "cards": [str(card) for card in column[hidden:]]}
                for column, hidden in zip(self._columns, self._hidden, strict=True)
            ],
            "hand": len(self._stock),
            "waste": [str(card) for card in self._waste],
            "foundation": {
                suit.value: (str(Card(top, suit)) if top else None)
                for suit, top in zip(SUITS, self._foundation, strict=True)
            },
            "score": self._score,
            "recycles": self._recycles,
            **self._status(),
        }

    @classmethod
    def rating_features(cls, position: tuple[Any, ...]) -> dict[str, float]:
        """Low cards buried, cards above a lower card of their suit, kings face down, and
        what the hand offers in its first pass."""
        draw, columns, face_down, hand = position[0], position[1], position[2], position[3]
        buried_aces = buried_twos = blocked = kings_down = 0
        for column, down in zip(columns, face_down, strict=True):
            for depth, card in enumerate(column):
                above = len(column) - 1 - depth
                if card % 13 == 0:
                    buried_aces += above
                elif card % 13 == 1:
                    buried_twos += above
                if card % 13 == 12 and 0 < depth < down:
                    kings_down += 1
                blocked += any(
                    other // 13 == card // 13 and other % 13 > card % 13
                    for other in column[depth + 1 :]
                )
        step = max(1, int(draw))
        first_pass = [hand[i] for i in range(step - 1, len(hand), step)]
        tops = [column[-1] for column in columns if column]
        fits = sum(
            a % 13 + 1 == b % 13 and (a // 13 in (0, 3)) != (b // 13 in (0, 3))
            for a in tops
            for b in tops
        )
        return {
            "klondike_buried_aces": buried_aces,
            "klondike_buried_twos": buried_twos,
            "klondike_blocked_by_own_suit": blocked,
            "klondike_kings_face_down": kings_down,
            "klondike_first_pass_low": sum(card % 13 <= 2 for card in first_pass),
            "klondike_aces_up": sum(card % 13 == 0 for card in tops),
            "klondike_tops_that_fit": fits,
        }

    @classmethod
    def redealt(cls, position: tuple[Any, ...], rng: random.Random) -> tuple[Any, ...]:
        """The face-down cards and the hand dealt again among their places."""
        columns, face_down, hand = position[1], position[2], position[3]
        hidden = [
            card for column, down in zip(columns, face_down, strict=True) for card in column[:down]
        ]
        hidden += list(hand)
        rng.shuffle(hidden)
        cards = iter(hidden)
        again = [
            [next(cards) for _ in range(down)] + list(column[down:])
            for column, down in zip(columns, face_down, strict=True)
        ]
        return (position[0], again, face_down, [next(cards) for _ in hand], *position[4:])

    def native_position(self) -> tuple[Any, ...]:
        """``(draw, columns, hidden counts, stock, waste, foundation heights)``: each
        column's exposed card, the stock's next card and the waste's top card last; the
        sequences as ``bytes`` of card indices and counts, which the native core reads at
        once (lists of ints are accepted too, more slowly)."""
        return (
            self.draw_count,
            [bytes(card.index for card in column) for column in self._columns],
            bytes(self.hidden_counts()),
            bytes(card.index for card in self._stock),
            bytes(card.index for card in self._waste),
            bytes(self._foundation),
        )

    def piles(self) -> dict[str, list[Card]]:
        """Every pile, hidden cards included: ``t1``..``t7``, ``hand`` (next card first),
        ``waste`` (top last), ``f:c``..``f:s``."""
        piles = {f"t{index + 1}": list(column) for index, column in enumerate(self._columns)}
        piles["hand"] = self._stock[::-1]
        piles["waste"] = list(self._waste)
        for suit, top in zip(SUITS, self._foundation, strict=True):
            piles[f"f:{suit.value}"] = [Card(rank, suit) for rank in range(1, top + 1)]
        return piles

    def hidden_cards(self) -> list[Card]:
        """Face-down tableau cards and the whole hand (its order is never shown)."""
        hidden = [
            card
            for column, count in zip(self._columns, self._hidden, strict=True)
            for card in column[:count]
        ]
        return hidden + self._stock[::-1]

    @staticmethod
    def deal_from_layout(
        columns: Sequence[Sequence[str | Card]], hand: Sequence[str | Card]
    ) -> tuple[Card, ...]:
        """The deal that lays out ``columns`` (column ``k`` holds ``k`` cards, first-dealt
        first, so its exposed card is last) and ``hand`` (first-drawn first): the inverse of
        the deal. Useful for building positions.

        >>> game = Klondike.from_seed(9)
        >>> piles = game.piles()
        >>> columns = [piles[f"t{k}"] for k in range(1, 8)]
        >>> Klondike.deal_from_layout(columns, piles["hand"]) == game.deal
        True
        """
        if [len(column) for column in columns] != list(range(1, COLUMNS + 1)):
            raise InvalidDealError("a Klondike layout has columns of 1 to 7 cards")
        deal = [columns[column][row] for row in range(COLUMNS) for column in range(row, COLUMNS)]
        return coerce_deal([str(card) for card in [*deal, *hand]], decks=1)

    def hidden_counts(self) -> list[int]:
        """Face-down cards at the bottom of each column."""
        return list(self._hidden)

    # -- moves --------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move: to the foundation, waste to columns, column to column,
        foundation to columns, then ``draw`` or ``recycle``."""
        if self.is_over():
            return []
        moves = [action.move for action in self._actions()]
        return moves

    def _actions(self) -> list[_Action]:
        """Every legal action, generated directly (``_resolve`` checks typed moves; the
        tests hold the two to the same answers)."""
        actions: list[_Action] = []
        foundation = self._foundation
        waste = self._waste[-1] if self._waste else None
        tops = [column[-1] if column else None for column in self._columns]
        if waste is not None and foundation[waste.suit.index] == waste.rank - 1:
            actions.append(_Action("to_foundation", _WASTE_TO_FOUNDATION))
        for i, top in enumerate(tops):
            if top is not None and foundation[top.suit.index] == top.rank - 1:
                actions.append(
                    _Action(
                        "to_foundation",
                        _COLUMN_TO_FOUNDATION[i],
                        source=i,
                        start=len(self._columns[i]) - 1,
                    )
                )
        if waste is not None:
            for j, target in enumerate(tops):
                if _fits_on(waste, target):
                    actions.append(_Action("to_column", _WASTE_TO_COLUMN[j], dest=j))
        for i, column in enumerate(self._columns):
            if not column:
                continue
            first = self._hidden[i]
            head = column[first]
            for j, target in enumerate(tops):
                if j == i:
                    continue
                if target is None:
                    start = first if head.rank == Rank.KING else -1
                else:
                    # the face-up run descends one rank a card, so only one card can fit
                    start = first + head.rank - (target.rank - 1)
                if first <= start < len(column) and _fits_on(column[start], target):
                    actions.append(
                        _Action("to_column", _COLUMN_TO_COLUMN[i][j], source=i, start=start, dest=j)
                    )
        for suit in SUITS:
            top_rank = foundation[suit.index]
            if top_rank:
                card = Card(top_rank, suit)
                for j, target in enumerate(tops):
                    if _fits_on(card, target):
                        actions.append(
                            _Action(
                                "from_foundation", _FOUNDATION_TO_COLUMN[suit][j], dest=j, suit=suit
                            )
                        )
        if self._stock:
            actions.append(_Action("draw", DRAW))
        elif self._waste:
            actions.append(_Action("recycle", RECYCLE))
        return actions

    def _resolve(self, move: Move) -> _Action:
        """The action ``move`` stands for here; raises if it is not legal."""
        if move.word == "draw":
            if not self._stock:
                raise IllegalMoveError("the hand is empty: recycle the waste first")
            return _Action("draw", DRAW)
        if move.word == "recycle":
            if self._stock:
                raise IllegalMoveError("recycle only once the hand is empty")
            if not self._waste:
                raise IllegalMoveError("the waste is empty: nothing to recycle")
            return _Action("recycle", RECYCLE)
        if move.word is not None:
            raise InvalidMoveError(f"{move.word!r} is not a Klondike move here")
        source, dest = move.source, move.dest
        assert source is not None
        if dest is None:
            raise InvalidMoveError(f"{move}: say where to, as {source.bare}>f or {source.bare}>t1")
        self._check_place(source)
        self._check_place(dest)
        if dest.kind == "f":
            return self._resolve_to_foundation(source)
        if dest.kind != "t":
            raise InvalidMoveError(f"{move}: cards go to a column (t1..t7) or the foundation (f)")
        assert dest.column is not None
        dest_index = dest.column - 1
        target = self._exposed(dest_index)
        if source.kind == "w":
            card = self._waste_top()
            if not _fits_on(card, target):
                raise IllegalMoveError(_placing_error(card, target, dest))
            return _Action("to_column", Move(source=source, dest=dest), dest=dest_index)
        if source.kind == "f":
            return self._resolve_from_foundation(source, dest_index)
        if source.kind != "t":
            raise InvalidMoveError(f"{move}: cards leave a column, the waste or the foundation")
        assert source.column is not None
        index = source.column - 1
        if index == dest_index:
            raise IllegalMoveError(f"{move}: a run cannot move onto its own column")
        column = self._columns[index]
        if not column:
            raise IllegalMoveError(f"{source.bare} is empty")
        face_up = range(self._hidden[index], len(column))
        starts = [i for i in face_up if _fits_on(column[i], target)]
        if source.card is not None:
            if source.card not in column[self._hidden[index] :]:
                raise IllegalMoveError(f"{source.card} is not a face-up card of {source.bare}")
            named = column.index(source.card)
            if named not in starts:
                raise IllegalMoveError(_placing_error(source.card, target, dest))
            starts = [named]
        if not starts:
            if target is None:
                raise IllegalMoveError(
                    f"{move}: only a king, with what is built on it, fills an empty column"
                )
            raise IllegalMoveError(f"{move}: no face-up card of {source.bare} fits on {target}")
        canonical = Move(source=source.bare, dest=dest)
        return _Action("to_column", canonical, source=index, start=starts[0], dest=dest_index)

    def _resolve_to_foundation(self, source: Place) -> _Action:
        if source.kind == "w":
            card = self._waste_top()
            column_index = None
        elif source.kind == "t":
            assert source.column is not None
            column_index = source.column - 1
            card_or_none = self._exposed(column_index)
            if card_or_none is None:
                raise IllegalMoveError(f"{source.bare} is empty")
            card = card_or_none
            if source.card is not None and source.card != card:
                raise IllegalMoveError(f"{source.card} is not the exposed card of {source.bare}")
        else:
            raise InvalidMoveError(
                f"{source}>f: only the waste or a column plays to the foundation"
            )
        if self._foundation[card.suit.index] != card.rank - 1:
            raise IllegalMoveError(f"{card} has no place on the foundation yet")
        canonical = Move(source=source.bare, dest=Place("f"))
        return _Action(
            "to_foundation",
            canonical,
            source=column_index,
            start=len(self._columns[column_index]) - 1 if column_index is not None else 0,
        )

    def _resolve_from_foundation(self, source: Place, dest_index: int) -> _Action:
        target = self._exposed(dest_index)
        dest = _column(dest_index)
        if source.suit is not None:
            suits = [source.suit]
        else:  # `f>t3`: accepted when exactly one foundation card fits
            suits = [
                suit
                for suit in SUITS
                if self._foundation[suit.index]
                and _fits_on(Card(self._foundation[suit.index], suit), target)
            ]
            if len(suits) != 1:
                raise IllegalMoveError(f"f>{dest}: name the foundation's suit, as f:h>{dest}")
        suit = suits[0]
        top = self._foundation[suit.index]
        if not top:
            raise IllegalMoveError(f"the {suit.name.lower()} foundation is empty")
        card = Card(top, suit)
        if not _fits_on(card, target):
            raise IllegalMoveError(_placing_error(card, target, dest))
        return _Action(
            "from_foundation",
            Move(source=Place("f", suit=suit), dest=dest),
            dest=dest_index,
            suit=suit,
        )

    def _check_place(self, place: Place) -> None:
        if place.kind in ("r", "h"):
            what = "reserve" if place.kind == "r" else "hand place"
            raise InvalidMoveError(
                f"Klondike has no {what} ({place.kind!r}); the hand is drawn with 'draw'"
            )
        if place.kind == "t" and place.column is not None and place.column > COLUMNS:
            raise InvalidMoveError(f"there is no {place.bare}: Klondike has {COLUMNS} columns")

    def _exposed(self, index: int) -> Card | None:
        column = self._columns[index]
        return column[-1] if column else None

    def _waste_top(self) -> Card:
        if not self._waste:
            raise IllegalMoveError("the waste is empty")
        return self._waste[-1]

    def _check(self, move: Move) -> None:
        self._resolve(move)

    def _play(self, move: Move) -> Played:
        action = self._resolve(move)
        snapshot = self._snapshot()
        played = self._apply(action)
        self._history.append(replace(snapshot, revealed=bool(played.revealed)))
        if self.is_solved() and self.cards_on_foundation() < 52:
            played = Played(played.move, played.points, played.revealed, self._play_out())
        return played

    def _apply(self, action: _Action) -> Played:
        points = 0
        revealed: list[Card] = []
        if action.kind == "draw":
            for _ in range(min(self._draw, len(self._stock))):
                card = self._stock.pop()
                self._waste.append(card)
                if card not in self._seen:
                    self._seen.add(card)
                    revealed.append(card)
        elif action.kind == "recycle":
            self._stock = self._waste[::-1]
            self._waste = []
            self._recycles += 1
            if self._draw == 1:
                points += DRAW1_RECYCLE
            elif self._recycles > DRAW3_FREE_RECYCLES:
                points += DRAW3_RECYCLE
        elif action.kind == "from_foundation":
            assert action.suit is not None
            assert action.dest is not None
            card = Card(self._foundation[action.suit.index], action.suit)
            self._foundation[action.suit.index] -= 1
            self._columns[action.dest].append(card)
            points += FOUNDATION_TO_TABLEAU  # every time; the card's points stay earned
        else:
            moved = self._take(action.source, action.start)
            if action.source is None:
                points += WASTE_BONUS
            if action.kind == "to_foundation":
                (card,) = moved
                self._foundation[card.suit.index] += 1
                if card not in self._earned:  # foundation points once per card per game
                    self._earned.add(card)
                    points += foundation_points(card.rank)
            else:
                assert action.dest is not None
                self._columns[action.dest].extend(moved)
            flipped = self._flip(action.source)
            if flipped is not None:
                points += FLIP_POINTS
                revealed.append(flipped)
        self._score += points
        return Played(action.move, points, tuple(revealed))

    def _take(self, source: int | None, start: int) -> list[Card]:
        if source is None:
            return [self._waste.pop()]
        column = self._columns[source]
        moved = column[start:]
        del column[start:]
        return moved

    def _flip(self, source: int | None) -> Card | None:
        """Turn up the column's exposed card if it is face down; returns it."""
        if source is None:
            return None
        column = self._columns[source]
        if column and self._hidden[source] == len(column):
            self._hidden[source] -= 1
            return column[-1]
        return None

    def _play_out(self) -> tuple[Played, ...]:
        """Every card to the foundations, lowest rank first (always possible once solved)."""
        steps = []
        while self.cards_on_foundation() < 52:
            actions = [a for a in self._actions() if a.kind == "to_foundation"]
            if not actions:  # pragma: no cover - impossible by the rules; fail loudly
                raise AssertionError("a solved Klondike game could not play out")
            best = min(actions, key=lambda a: self._card_of(a).rank)
            card = self._card_of(best)
            steps.append(replace(self._apply(best), card=card))
        return tuple(steps)

    def _card_of(self, action: _Action) -> Card:
        if action.source is None:
            return self._waste[-1]
        return self._columns[action.source][-1]

    def tap(self, place: Place | str) -> Move | None:
        """The foundation move for the exposed card at ``place`` (``w`` or ``t1``..``t7``),
        if that card has a place there; None otherwise."""
        if isinstance(place, str):
            place = Place.parse(place)
        if place.kind not in ("w", "t") or self.is_over():
            return None
        try:
            self._check_place(place)
            return self._resolve_to_foundation(place).move
        except (IllegalMoveError, InvalidMoveError):
            return None

    # -- undo ---------------------------------------------------------------------------

    def _undo_refusal(self) -> str | None:
        """Nothing played yet, or the last move revealed a card."""
        return reveal_barrier(self._history)

    def _undo(self) -> None:
        snapshot = self._history.pop()
        self._columns = [list(column) for column in snapshot.columns]
        self._hidden = list(snapshot.hidden)
        self._stock = list(snapshot.stock)
        self._waste = list(snapshot.waste)
        self._foundation = list(snapshot.foundation)
        self._score = snapshot.score
        self._earned = set(snapshot.earned)
        self._recycles = snapshot.recycles

    def _snapshot(self) -> _Snapshot:
        return _Snapshot(
            columns=tuple(tuple(column) for column in self._columns),
            hidden=tuple(self._hidden),
            stock=tuple(self._stock),
            waste=tuple(self._waste),
            foundation=tuple(self._foundation),
            score=self._score,
            earned=frozenset(self._earned),
            recycles=self._recycles,
            revealed=False,
        )


def _column(index: int) -> Place:
    return Place("t", index + 1)


_FOUNDATION: Final = Place("f")
_WASTE: Final = Place("w")
_WASTE_TO_FOUNDATION: Final = Move(source=_WASTE, dest=_FOUNDATION)
_COLUMN_TO_FOUNDATION: Final = tuple(
    Move(source=_column(i), dest=_FOUNDATION) for i in range(COLUMNS)
)
_WASTE_TO_COLUMN: Final = tuple(Move(source=_WASTE, dest=_column(j)) for j in range(COLUMNS))
_COLUMN_TO_COLUMN: Final = tuple(
    tuple(Move(source=_column(i), dest=_column(j)) for j in range(COLUMNS)) for i in range(COLUMNS)
)
_FOUNDATION_TO_COLUMN: Final = {
    suit: tuple(Move(source=Place("f", suit=suit), dest=_column(j)) for j in range(COLUMNS))
    for suit in SUITS
}


def _placing_error(card: Card, target: Card | None, dest: Place) -> str:
    if target is None:
        return f"{card} cannot fill the empty column {dest}: only a king can"
    return f"{card} cannot go on {target} ({dest}): a column builds down in alternating colours"
