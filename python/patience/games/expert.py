"""Solitaire Expert: the engine of record (docs/rules.md, "Solitaire Expert").

Two decks, every card face up: ten columns of ten cards and a hand of four. A string (a run
descending one rank a card in alternating colours, ending at a column's exposed card) moves
onto a card one rank above its first card and of the other colour; only a King, or a string
headed by one, fills an empty column. Eight piles build up by suit from the Ace and give
nothing back. The hand holds at most four cards. The game is won once every column is empty
or a single string; then every card plays out to the piles by itself.

>>> game = Expert.from_seed(7)
>>> game.observation()["hand"]
['Kd', '6s', '3c', '6d']
>>> [str(move) for move in game.legal_moves()]
['t6>f', 't2>t7', 't4>t9', 't5>t4', 't8>t7']
>>> game.play("t6>f").points, game.observation()["foundation"][0]
(1, {'top': 'Ad', 'cards': 1})
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Final, Literal

from patience.cards import Card, Rank, Suit
from patience.errors import IllegalMoveError, InvalidMoveError
from patience.games.base import Budgets, ClientLayout, Game, Outcome, Played
from patience.moves import Move, Place

__all__ = ["Expert", "expert_builds_on"]

COLUMNS: Final = 10
ROWS: Final = 10
HAND_LIMIT: Final = 4
PILES: Final = 8
CARDS: Final = 104


def expert_builds_on(card: Card, target: Card | None) -> bool:
    """Whether ``card`` (heading a string) goes on a column whose exposed card is
    ``target``: one rank lower and of the other colour; only a King fills an empty column.

    >>> from patience.cards import Card
    >>> expert_builds_on(Card.parse("Jh"), Card.parse("Qs")), expert_builds_on(
    ...     Card.parse("Jh"), Card.parse("Qd")), expert_builds_on(Card.parse("Kd"), None)
    (True, False, True)
    """
    if target is None:
        return card.rank == Rank.KING
    return card.rank == target.rank - 1 and card.is_red != target.is_red


def string_start(column: Sequence[Card]) -> int:
    """Where the string ending at the column's exposed card begins (0 for an empty column).

    >>> from patience.cards import parse_cards
    >>> string_start(parse_cards("9c Kh Qs Jd"))
    1
    """
    start = len(column) - 1
    while start > 0 and expert_builds_on(column[start], column[start - 1]):
        start -= 1
    return max(start, 0)


@dataclass(frozen=True, slots=True)
class _Snapshot:
    columns: tuple[tuple[Card, ...], ...]
    hand: tuple[Card, ...]
    pile_suits: tuple[Suit | None, ...]
    pile_counts: tuple[int, ...]


_Kind = Literal["to_pile", "to_column", "to_hand"]


@dataclass(frozen=True, slots=True)
class _Action:
    kind: _Kind
    move: Move  # canonical
    column: int | None = None  # source column index; None when the card leaves the hand
    start: int = 0  # first card moved out of the source column
    card: Card | None = None  # the hand card moved
    dest: int | None = None  # destination column index


class Expert(Game):
    """Solitaire Expert (two decks); it has no variant options."""

    name: ClassVar[str] = "expert"
    title: ClassVar[str] = "Solitaire Expert"
    decks: ClassVar[int] = 2
    time_limit: ClassVar[int] = 300
    # its solver wins most deals in milliseconds (median 2.5 ms, 85% of random deals won
    # within a second), so a timed deal is certified as it starts when the catalog has none
    budgets: ClassVar[Budgets] = Budgets(catalog_nodes=5_000_000)
    # its players hide nothing from themselves and vary only in how they break ties, so a
    # few playouts do
    playouts: ClassVar[Mapping[str, int]] = {"greedy": 4, "lookahead": 4, "solver": 4}
    cheap_players: ClassVar[tuple[str, ...]] = ("greedy",)
    terminal_help: ClassVar[str] = """\
Moves, in the notation of game records (h is the hand, at most 4 cards):
  t3>t5     the string of column 3 that fits onto column 5 (t3:Qh>t5 names it)
  t4>h      column 4's card to the hand     h:Qs>t2  a hand card to column 2
  t4>f      column 4's card to the piles    h:Qs>f   a hand card to the piles
  Qh, 3     tap a card or a column: it goes to the piles if it can
"""
    layout: ClassVar[ClientLayout] = {
        "rows": [
            {
                "name": "top",
                "piles": [
                    {"kind": "cell", "field": "hand", "name": "hand", "size": HAND_LIMIT},
                    {"kind": "spacer"},
                    {"kind": "foundation", "by": "pile", "name": "pile", "group": True},
                ],
            },
            {"name": "tableau"},
        ],
        "tableau": {
            "pick": "sequence",
            "packed": False,
            "build": {"colours": "alternate", "wrap": False, "empty": "king"},
        },
        "across": 11,
        "narrow": {"width": 560, "across": 10},
        # (ten columns and two rows of four piles: on a phone on its side the piles stand
        # beside the columns)
        "beside_when_short": True,
        "beside_when_wide": True,
        # (a phone held upright: the eight piles in one row across the top, the hand at the
        # foot's right end, where a right thumb rests)
        "upright": {
            "rows": [
                {
                    "name": "top",
                    "piles": [{"kind": "foundation", "by": "pile", "name": "pile", "group": True}],
                },
                {"name": "tableau"},
                {
                    "name": "bottom",
                    "piles": [
                        {"kind": "spacer"},
                        {"kind": "cell", "field": "hand", "name": "hand", "size": HAND_LIMIT},
                    ],
                },
            ],
            "across": 10,
        },
        "design": {"down": 0, "up": 16},
        # (21 cards: the longest column of the solver's winning lines of 60 deals)
        "longest": {"down": 0, "up": 20},
        "direct": False,
        "counter": None,
        "recycle_cost": [],
        "watch_stuck": False,
        "picture": [
            *((2 + k * 2.6, 2, "up", k % 3 == 1, 6.6) for k in range(4)),
            *((17 + k * 7.7, 2, "slot", False, 6.6) for k in range(8)),
            *(
                (2 + c * 7.7, 15 + r * 3, "up", (c + r) % 3 == 1, 6.6)
                for c in range(COLUMNS)
                for r in range(7)
            ),
        ],
        "words": {
            "one_line": "Two decks, all face up, a hand of four.",
            "rules": [
                "Two decks, all face up. Build eight piles up by suit, from the ace to the king.",
                "In the columns, build down in alternating colours; move a whole string "
                "together. Only a king, or a string headed by one, fills an empty column.",
                "The hand holds up to four cards: put a column's card there to free what lies "
                "under it, and play it back later.",
                "You win when every column is empty or one string; then the cards play "
                "themselves home. One point a card on the piles.",
            ],
            "options": [],
            "help_pointer": "Click a card to play it where it fits best (the piles first, else "
            "a column, else the hand); drag a string to choose the place, or drop a card on "
            "the hand to hold it. Keys: arrows, Enter to pick and Enter to place, u undo.",
            "move_example": "t3>t5, t1>h",
            "help_touch": "Tap a card to play it where it fits best; drag a string to choose "
            "the place, or a card onto the hand to hold it.",
            "foundation": "the piles",
            "home": "home",
            "bonus_lines": [],
        },
    }

    def __init__(self, deal: Sequence[Card] | str | Iterable[str]) -> None:
        super().__init__(deal)
        cards = list(self._deal)
        self._columns: list[list[Card]] = [
            [cards[row * COLUMNS + column] for row in range(ROWS)] for column in range(COLUMNS)
        ]
        self._hand: list[Card] = cards[COLUMNS * ROWS :]
        self._pile_suits: list[Suit | None] = [None] * PILES
        self._pile_counts = [0] * PILES
        self._history: list[_Snapshot] = []

    @property
    def variant(self) -> dict[str, object]:
        """Solitaire Expert has no options: ``{}``."""
        return {}

    # -- reading the state --------------------------------------------------------------

    def score(self) -> int:
        """One point for each card on the piles."""
        return self.cards_on_foundation()

    def cards_on_foundation(self) -> int:
        """Cards on the eight piles."""
        return sum(self._pile_counts)

    def is_solved(self) -> bool:
        """Every column empty or a single string (the goal of docs/rules.md): the rest plays out."""
        return all(string_start(column) == 0 for column in self._columns)

    def outcome(self) -> Outcome | None:
        """Won once all 104 cards are on the piles; ended by ``end``; stuck when no move
        is left at all."""
        if self.cards_on_foundation() == CARDS:
            return Outcome(won=True, reason="won")
        if self._ended:
            return Outcome(won=False, reason="ended")
        if not self._has_move():
            return Outcome(won=False, reason="stuck")
        return None

    def _has_move(self) -> bool:
        if len(self._hand) < HAND_LIMIT and any(self._columns):
            return True  # a column's exposed card can always go to the hand
        return next(self._iter_actions(), None) is not None

    def observation(self) -> dict[str, Any]:
        """The whole table (nothing in Solitaire Expert is hidden)."""
        return {
            "game": self.name,
            "variant": {},
            "tableau": [{"hidden": 0, "cards": [str(card) for card in c]} for c in self._columns],
            "hand": [str(card) for card in self._hand],
            "foundation": [
                None if suit is None else {"top": str(Card(count, suit)), "cards": count}
                for suit, count in zip(self._pile_suits, self._pile_counts, strict=True)
            ],
            "score": self.score(),
            **self._status(),
        }

    def native_position(self) -> tuple[Any, ...]:
        """``(columns, hand, pile suits, pile heights)``: card indices (a card's two
        copies share one), each column's exposed card last, each pile's suit index (None
        while empty) in the engine's order."""
        piles = self.piles()
        pile_cards = [piles[f"f{k}"] for k in range(1, 9)]
        return (
            [[card.index for card in piles[f"t{k}"]] for k in range(1, 11)],
            [card.index for card in piles["hand"]],
            [cards[0].suit.index if cards else None for cards in pile_cards],
            [len(cards) for cards in pile_cards],
        )

    def piles(self) -> dict[str, list[Card]]:
        """``t1``..``t10``, ``hand``, and the piles ``f1``..``f8`` (first-placed first)."""
        piles = {f"t{index + 1}": list(column) for index, column in enumerate(self._columns)}
        piles["hand"] = list(self._hand)
        for index, (suit, count) in enumerate(
            zip(self._pile_suits, self._pile_counts, strict=True)
        ):
            piles[f"f{index + 1}"] = (
                [] if suit is None else [Card(r, suit) for r in range(1, count + 1)]
            )
        return piles

    def hidden_cards(self) -> list[Card]:
        """None: every card is face up."""
        return []

    def _pile_for(self, card: Card) -> int | None:
        """The pile that takes ``card`` now, if one does (the first, when two could)."""
        for index, (suit, count) in enumerate(
            zip(self._pile_suits, self._pile_counts, strict=True)
        ):
            if suit is None:
                if card.rank == Rank.ACE:
                    return index
            elif suit == card.suit and count == card.rank - 1:
                return index
        return None

    # -- moves --------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """To the piles (columns, then the hand), column to column, hand to column, then
        column to hand."""
        if self._ended or self.cards_on_foundation() == CARDS:
            return []
        return [action.move for action in self._actions()]

    def _actions(self) -> list[_Action]:
        return list(self._iter_actions())

    def _iter_actions(self) -> Iterator[_Action]:
        tops = [column[-1] if column else None for column in self._columns]
        hand = list(dict.fromkeys(self._hand))  # each distinct card once
        wanted = self._wanted()
        for i, top in enumerate(tops):
            if top in wanted:
                yield _Action("to_pile", _T_TO_F[i], column=i, start=len(self._columns[i]) - 1)
        for card in hand:
            if card in wanted:
                yield _Action("to_pile", _hand_move(card, _PILE), card=card)
        for i, column in enumerate(self._columns):
            if not column:
                continue
            first = string_start(column)
            for j, target in enumerate(tops):
                if i == j:
                    continue
                start = self._fitting_start(i, first, target)
                if start is not None:
                    yield _Action("to_column", _T_TO_T[i][j], column=i, start=start, dest=j)
        for card in hand:
            for j, target in enumerate(tops):
                if expert_builds_on(card, target):
                    yield _Action("to_column", _hand_move(card, _column(j)), card=card, dest=j)
        if len(self._hand) < HAND_LIMIT:
            for i, top in enumerate(tops):
                if top is not None:
                    yield _Action("to_hand", _T_TO_H[i], column=i, start=len(self._columns[i]) - 1)

    def _wanted(self) -> set[Card]:
        """The cards some pile takes now."""
        wanted = {
            Card(count + 1, suit)
            for suit, count in zip(self._pile_suits, self._pile_counts, strict=True)
            if suit is not None and count < Rank.KING
        }
        if None in self._pile_suits:
            wanted |= {Card(Rank.ACE, suit) for suit in Suit}
        return wanted

    def _fitting_start(self, index: int, first: int, target: Card | None) -> int | None:
        """Where the part of column ``index``'s string (which begins at ``first``) that fits
        on ``target`` begins, if any part fits."""
        column = self._columns[index]
        if target is None:
            return first if column[first].rank == Rank.KING else None
        # the string descends one rank a card, so only one of its cards can fit
        start = first + column[first].rank - (target.rank - 1)
        if first <= start < len(column) and expert_builds_on(column[start], target):
            return start
        return None

    def _resolve(self, move: Move) -> _Action:
        """The action ``move`` stands for now; raises if it is not legal."""
        if move.word is not None:
            raise InvalidMoveError(f"{move.word!r} is not a Solitaire Expert move (no stock)")
        source, dest = move.source, move.dest
        assert source is not None
        if dest is None:
            raise InvalidMoveError(f"{move}: say where to, as {source.bare}>f or {source.bare}>t1")
        for place in (source, dest):
            if place.kind == "t" and (place.column or 0) > COLUMNS:
                raise InvalidMoveError(
                    f"there is no {place.bare}: Solitaire Expert has {COLUMNS} columns"
                )
            if place.kind in ("w", "r"):
                raise InvalidMoveError(
                    f"Solitaire Expert has no {place.bare} (places: t1-t10, h, f)"
                )
        if source.kind == "f":
            raise IllegalMoveError("cards never leave the piles")
        if dest.kind == "f" and dest.suit is not None:
            raise InvalidMoveError(f"{move}: write the piles as f; the engine picks the pile")
        if source.kind == "h":
            return self._resolve_from_hand(source, dest)
        assert source.column is not None
        index = source.column - 1
        column = self._columns[index]
        if not column:
            raise IllegalMoveError(f"{source.bare} is empty")
        if dest.kind in ("f", "h"):
            if source.card is not None and source.card != column[-1]:
                raise IllegalMoveError(f"{source.card} is not the exposed card of {source.bare}")
            if dest.kind == "f":
                if self._pile_for(column[-1]) is None:
                    raise IllegalMoveError(f"{column[-1]} has no place on the piles yet")
                return _Action("to_pile", _T_TO_F[index], column=index, start=len(column) - 1)
            if len(self._hand) >= HAND_LIMIT:
                raise IllegalMoveError(f"the hand is full ({HAND_LIMIT} cards)")
            return _Action("to_hand", _T_TO_H[index], column=index, start=len(column) - 1)
        assert dest.column is not None
        dest_index = dest.column - 1
        if dest_index == index:
            raise IllegalMoveError(f"{move}: a string cannot move onto its own column")
        target = self._columns[dest_index][-1] if self._columns[dest_index] else None
        first = string_start(column)
        start = self._fitting_start(index, first, target)
        if source.card is not None:
            named = [k for k in range(first, len(column)) if column[k] == source.card]
            if not named:
                raise IllegalMoveError(
                    f"{source.card} does not head a string ending at {source.bare}'s exposed card"
                )
            if start != named[0]:
                raise IllegalMoveError(_building_error(source.card, target, dest))
        if start is None:
            if target is None:
                raise IllegalMoveError(
                    f"{move}: only a King, or a string headed by one, fills an empty column"
                )
            raise IllegalMoveError(f"{move}: no string of {source.bare} goes on {target}")
        return _Action(
            "to_column", _T_TO_T[index][dest_index], column=index, start=start, dest=dest_index
        )

    def _resolve_from_hand(self, source: Place, dest: Place) -> _Action:
        if dest.kind == "h":
            raise InvalidMoveError("a hand card goes to a column or the piles")
        target = None
        if dest.kind == "t":
            assert dest.column is not None
            column = self._columns[dest.column - 1]
            target = column[-1] if column else None
        if source.card is not None:
            if source.card not in self._hand:
                raise IllegalMoveError(f"{source.card} is not in the hand")
            candidates = [source.card]
        else:
            candidates = list(dict.fromkeys(self._hand))
            if not candidates:
                raise IllegalMoveError("the hand is empty")
        if dest.kind == "f":
            fitting = [card for card in candidates if self._pile_for(card) is not None]
        else:
            fitting = [card for card in candidates if expert_builds_on(card, target)]
        if not fitting:
            if source.card is None:
                raise IllegalMoveError(f"no hand card goes to {dest}")
            if dest.kind == "f":
                raise IllegalMoveError(f"{source.card} has no place on the piles yet")
            raise IllegalMoveError(_building_error(source.card, target, dest))
        if len(fitting) > 1:
            named = " or ".join(str(_hand_move(card, dest)) for card in fitting)
            raise IllegalMoveError(f"more than one hand card fits: name it, as {named}")
        card = fitting[0]
        if dest.kind == "f":
            return _Action("to_pile", _hand_move(card, _PILE), card=card)
        assert dest.column is not None
        return _Action("to_column", _hand_move(card, dest.bare), card=card, dest=dest.column - 1)

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
        if action.column is None:
            assert action.card is not None
            self._hand.remove(action.card)
            moved = [action.card]
        else:
            column = self._columns[action.column]
            moved = column[action.start :]
            del column[action.start :]
        points = 0
        pile = None
        if action.kind == "to_pile":
            (card,) = moved
            pile = self._pile_for(card)
            assert pile is not None
            self._pile_suits[pile] = card.suit
            self._pile_counts[pile] += 1
            points = 1
        elif action.kind == "to_hand":
            self._hand.extend(moved)
        else:
            assert action.dest is not None
            self._columns[action.dest].extend(moved)
        return Played(action.move, points, pile=pile)

    def _play_out(self) -> tuple[Played, ...]:
        """Every card to the piles, lowest rank first (always possible once solved)."""
        steps = []
        while self.cards_on_foundation() < CARDS:
            actions = [a for a in self._actions() if a.kind == "to_pile"]
            if not actions:  # pragma: no cover - impossible by the rules; fail loudly
                raise AssertionError("a solved Solitaire Expert game could not play out")
            best = min(actions, key=lambda action: self._card_moved(action).rank)
            card = self._card_moved(best)
            steps.append(replace(self._apply(best), card=card))
        return tuple(steps)

    def _card_moved(self, action: _Action) -> Card:
        if action.card is not None:
            return action.card
        assert action.column is not None
        return self._columns[action.column][-1]

    def tap(self, place: Place | str) -> Move | None:
        """The pile move for the exposed card of ``tN``, or the named hand card ``h:Qs``."""
        if isinstance(place, str):
            place = Place.parse(place)
        if place.kind not in ("t", "h") or self.is_over():
            return None
        if place.kind == "h" and place.card is None:
            return None
        try:
            return self._resolve(Move(source=place, dest=_PILE)).move
        except (IllegalMoveError, InvalidMoveError):
            return None

    # -- undo ---------------------------------------------------------------------------

    def _undo_refusal(self) -> str | None:
        """Only when nothing was played: undo is otherwise unlimited."""
        if not self._history:
            return "nothing to undo"
        return None

    def _undo(self) -> None:
        snapshot = self._history.pop()
        self._columns = [list(column) for column in snapshot.columns]
        self._hand = list(snapshot.hand)
        self._pile_suits = list(snapshot.pile_suits)
        self._pile_counts = list(snapshot.pile_counts)

    def _snapshot(self) -> _Snapshot:
        return _Snapshot(
            columns=tuple(tuple(column) for column in self._columns),
            hand=tuple(self._hand),
            pile_suits=tuple(self._pile_suits),
            pile_counts=tuple(self._pile_counts),
        )


def _column(index: int) -> Place:
    return Place("t", index + 1)


def _hand_move(card: Card, dest: Place) -> Move:
    return Move(source=Place("h", card=card), dest=dest)


def _building_error(card: Card, target: Card | None, dest: Place) -> str:
    if target is None:
        return f"{card} cannot fill the empty column {dest}: only a King can"
    return f"{card} cannot go on {target} ({dest}): strings build down in alternating colours"


_PILE: Final = Place("f")
_HAND: Final = Place("h")
_T_TO_F: Final = tuple(Move(source=_column(i), dest=_PILE) for i in range(COLUMNS))
_T_TO_H: Final = tuple(Move(source=_column(i), dest=_HAND) for i in range(COLUMNS))
_T_TO_T: Final = tuple(
    tuple(Move(source=_column(i), dest=_column(j)) for j in range(COLUMNS)) for i in range(COLUMNS)
)
