"""Golf: the engine of record (docs/rules.md, "Golf").

Seven columns of five cards, all face up; the 36th card starts the waste and the 16 left
are the stock, first of them on top. A column's exposed card goes to the waste when it is
one rank above or below the waste's top card, whatever its suit. Without ``wrap`` (the
default) an Ace plays only on a 2 and nothing plays on a King; with ``wrap`` Ace and King
are neighbours both ways. Points: +10 a card, a streak bonus of +5 x (k - 1) for the k-th
card played since the last draw, +100 and +20 a stock card for clearing the tableau, and a
time bonus at the end. Undo takes back plays, never a draw.

>>> game = Golf.from_seed(3)
>>> game.observation()["waste"], game.observation()["stock"]
(['8s'], 16)
>>> [str(move) for move in game.legal_moves()]
['t1', 't2', 'draw']
>>> game.play("t1").points, game.play("draw").points, game.can_undo()
(10, 0, False)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, ClassVar, Final, NamedTuple

from patience.cards import Card, Rank
from patience.errors import IllegalMoveError, InvalidMoveError, InvalidVariantError
from patience.games.base import (
    ClientLayout,
    Game,
    Outcome,
    OutcomeReason,
    Played,
    VariantOption,
    scaled_time_bonus,
)
from patience.moves import DRAW, Move, Place

__all__ = ["Golf", "golf_neighbours"]

COLUMNS: Final = 7
ROWS: Final = 5
TABLEAU_CARDS: Final = COLUMNS * ROWS
CARD_POINTS: Final = 10
STREAK_POINTS: Final = 5
CLEAR_BONUS: Final = 100
STOCK_CARD_BONUS: Final = 20
_RANK_WORDS: Final = dict(
    zip(
        Rank,
        [
            "an ace",
            "a two",
            "a three",
            "a four",
            "a five",
            "a six",
            "a seven",
            "an eight",
            "a nine",
            "a ten",
            "a jack",
            "a queen",
            "a king",
        ],
        strict=True,
    )
)


def golf_neighbours(card: Card, top: Card, *, wrap: bool) -> bool:
    """Whether ``card`` may go onto the waste whose top card is ``top``.

    >>> from patience.cards import Card
    >>> golf_neighbours(Card.parse("Qh"), Card.parse("Kc"), wrap=False)
    False
    >>> golf_neighbours(Card.parse("Kh"), Card.parse("Qc"), wrap=False)
    True
    >>> golf_neighbours(Card.parse("Ah"), Card.parse("Kc"), wrap=True)
    True
    """
    if top.rank == Rank.KING and not wrap:
        return False
    gap = abs(card.rank - top.rank)
    return gap == 1 or (wrap and gap == Rank.KING - Rank.ACE)


class _Snapshot(NamedTuple):
    """What undoing a play needs: the column its card came from (the card is the waste's
    top until then: the plays since the last draw are undone last first), and the score
    and streak before it. A named tuple: one is made at every play, a certificate's
    replay included, and a tuple is made in little more than half a frozen dataclass's
    time."""

    column: int
    score: int
    streak: int


class Golf(Game):
    """Golf; ``wrap`` makes Ace and King neighbours."""

    name: ClassVar[str] = "golf"
    title: ClassVar[str] = "Golf"
    time_limit: ClassVar[int] = 180
    has_time_bonus: ClassVar[bool] = True
    options: ClassVar[tuple[VariantOption, ...]] = (VariantOption("wrap", (False, True), False),)
    playouts: ClassVar[Mapping[str, int]] = {"random": 16, "greedy": 16, "hindsight": 8}
    cheap_players: ClassVar[tuple[str, ...]] = ("random", "greedy")
    cleared_moves: ClassVar[tuple[tuple[str, ...], tuple[str, ...]]] = (("t",), ())
    cleared_cards: ClassVar[int | None] = 35
    shares_first_moves: ClassVar[bool] = True
    status: ClassVar[tuple[tuple[str, str], ...]] = (("Streak", "streak"),)
    score_order: ClassVar[tuple[str, ...]] = ("Cards cleared", "Streak bonus", "Tableau cleared")
    terminal_help: ClassVar[str] = """\
Play a free card one rank above or below the waste's top card, any suit:
  1 .. 7    play that column's free card (t3 works too)
  space     draw the stock's top card (Enter, d and draw do the same)
"""
    layout: ClassVar[ClientLayout] = {
        "rows": [
            {"name": "tableau"},
            {
                "name": "bottom",
                "piles": [
                    {"kind": "stock", "field": "stock", "name": "stock"},
                    {"kind": "waste", "fan": 1, "take": False, "drop": True},
                    {"kind": "spacer"},
                ],
            },
        ],
        "tableau": {
            "pick": "exposed",
            "packed": False,
            "build": {"colours": "any", "wrap": False, "empty": "any"},
        },
        "across": COLUMNS,
        # (a phone held upright: the stock at the foot's right end, where a right thumb
        # rests, the waste beside it, both as large as the height under the columns
        # allows, up to two and a half times the columns' cards: the card played on read at a
        # glance)
        "upright": {
            "rows": [
                {"name": "tableau"},
                {
                    "name": "bottom",
                    "grow": 2.5,
                    "piles": [
                        {"kind": "spacer"},
                        {"kind": "waste", "fan": 1, "take": False, "drop": True},
                        {"kind": "stock", "field": "stock", "name": "stock"},
                    ],
                },
            ],
            "across": COLUMNS,
        },
        "design": {"down": 0, "up": ROWS - 1},
        "longest": {"down": 0, "up": ROWS - 1},  # (nothing is built on a column)
        "direct": True,
        "counter": {"label": "Run", "field": "streak"},
        "recycle_cost": [],
        "watch_stuck": False,
        "picture": [
            *(
                (2 + c * 11, 2 + r * 4, "up", (c + r) % 3 == 1, None)
                for c in range(COLUMNS)
                for r in range(ROWS)
            ),
            (2, 36, "down", False, None),
            (13, 36, "up", True, None),
        ],
        "words": {
            "one_line": "Clear the columns a rank up or down.",
            "rules": [
                "Clear the seven columns: play a column's bottom card onto the waste when it is "
                "one rank above or below the waste's top card, whatever its suit.",
                "With wrap off, nothing plays on a king and an ace plays only on a two; with "
                "wrap on, the ace and king are next to each other.",
                "Tap the stock to turn its next card onto the waste; there is no redeal. A "
                "streak of plays without drawing scores more.",
                "3 minutes; the time left adds a bonus.",
            ],
            "options": [
                {
                    "name": "wrap",
                    "label": "Ace and King",
                    "values": [
                        {
                            "value": False,
                            "label": "No wrap (nothing plays on a King)",
                            "short": "no wrapping",
                            "rule": "No wrap: the ace is low and the king is high.",
                        },
                        {
                            "value": True,
                            "label": "Wrap (Ace and King touch)",
                            "short": "wrapping",
                            "rule": "Wrap: the ace and king are next to each other.",
                        },
                    ],
                }
            ],
            "help_pointer": "Click a column's bottom card (or press 1-7) to play it on the "
            "waste; space draws; u undoes.",
            "move_example": "t3, draw",
            "help_touch": "Tap a column's bottom card to play it on the waste; tap the stock "
            "to draw.",
            "foundation": "the waste",
            "home": "cleared",
            "bonus_lines": ["Streak bonus", "Tableau cleared"],
            "drop_rule": "a card plays on the waste one rank above or below its top card, "
            "whatever its suit (with no wrap, nothing plays on a King)",
        },
    }

    def __init__(self, deal: Sequence[Card] | str | Iterable[str], *, wrap: bool = False) -> None:
        if not isinstance(wrap, bool):
            raise InvalidVariantError(f"golf option 'wrap' takes false or true, not {wrap!r}")
        super().__init__(deal)
        self._wrap = wrap
        cards = list(self._deal)
        self._columns: list[list[Card]] = [
            [cards[row * COLUMNS + column] for row in range(ROWS)] for column in range(COLUMNS)
        ]
        self._waste: list[Card] = [cards[TABLEAU_CARDS]]
        self._stock: list[Card] = cards[TABLEAU_CARDS + 1 :][::-1]  # top of the stock is last
        self._score = 0
        self._streak = 0  # tableau cards played since the last draw (or the deal)
        self._history: list[_Snapshot] = []  # plays since the last draw: what undo can take

    @property
    def variant(self) -> dict[str, object]:
        """``{"wrap": false}`` or ``{"wrap": true}``."""
        return {"wrap": self._wrap}

    # -- reading the state --------------------------------------------------------------

    def score(self) -> int:
        """The score so far, without the time bonus."""
        return self._score

    def cards_on_foundation(self) -> int:
        """Cards cleared from the tableau (Golf's waste is its foundation)."""
        return TABLEAU_CARDS - sum(map(len, self._columns))

    def outcome(self) -> Outcome | None:
        """Won when the tableau is empty; stuck when the stock is empty and no card moves;
        ended by ``end``; else None."""
        reason = self._end(cleared=self.cards_on_foundation() == TABLEAU_CARDS)
        return None if reason is None else Outcome(won=reason == "won", reason=reason)

    def _end(self, *, cleared: bool) -> OutcomeReason | None:
        """Why the game is over ("won", "ended", "stuck"), or None: ``cleared`` when the
        tableau is empty (the caller knows it, counted or worked out)."""
        if cleared:
            return "won"
        if self._ended:
            return "ended"
        if not self._stock and not self._playable():
            return "stuck"
        return None

    def stuck_words(self) -> str | None:
        """Why a stuck game has no move, in Golf's terms: what the waste's top card is,
        which ranks would play on it (none on a King without wrap), that no free card is
        one of them, and that the hand is empty.

        >>> game = Golf.from_seed(1)
        >>> for _ in range(16):
        ...     _ = game.play("draw")
        >>> print(game.stuck_words())  # doctest: +NORMALIZE_WHITESPACE
        Ks is on the waste: nothing plays on a king without wrap, and the hand is empty
        >>> game = Golf.from_seed(3)
        >>> for _ in range(16):
        ...     _ = game.play("draw")
        >>> print(game.stuck_words())  # doctest: +NORMALIZE_WHITESPACE
        Jc is on the waste: only a ten or a queen would play on it, none of the free cards
        is one, and the hand is empty
        >>> Golf.from_seed(3).stuck_words() is None  # (a game going on)
        True
        """
        if self.outcome() != Outcome(won=False, reason="stuck"):
            return None
        top = self._waste[-1]
        if top.rank == Rank.KING and not self._wrap:
            return (
                f"{top} is on the waste: nothing plays on a king without wrap, and the hand "
                "is empty"
            )
        ranks = [
            rank for rank in Rank if golf_neighbours(Card(rank, top.suit), top, wrap=self._wrap)
        ]
        wanted = " or ".join(_RANK_WORDS[rank] for rank in ranks)
        return (
            f"{top} is on the waste: only {wanted} would play on it, none of the free cards "
            "is one, and the hand is empty"
        )

    def score_parts(self, played: Played) -> Iterator[tuple[str, int, int]]:
        """A move's points as the result's lines: cards cleared, the streak bonus, the
        tableau cleared."""
        if played.move.word == "draw" or not played.points:
            return
        rest = played.points - CARD_POINTS
        yield "Cards cleared", 1, CARD_POINTS
        if self.cards_on_foundation() == TABLEAU_CARDS:
            bonus = CLEAR_BONUS + STOCK_CARD_BONUS * len(self._stock)
            yield "Tableau cleared", 1, bonus
            rest -= bonus
        if rest:
            yield "Streak bonus", 1, rest

    def time_bonus(self, elapsed: float) -> int:
        """``floor((180 - T) * C / 35)``, T the seconds used, C the cards cleared."""
        return scaled_time_bonus(
            limit=self.time_limit, elapsed=elapsed, done=self.cards_on_foundation(), total=35
        )

    def observation(self) -> dict[str, Any]:
        """The table as the player sees it: the stock only as a count."""
        return {
            "game": self.name,
            "variant": self.variant,
            "tableau": [{"hidden": 0, "cards": [str(card) for card in c]} for c in self._columns],
            "stock": len(self._stock),
            "waste": [str(card) for card in self._waste],
            "score": self._score,
            "streak": self._streak,
            **self._status(),
        }

    @classmethod
    def rating_features(cls, position: tuple[Any, ...]) -> dict[str, float]:
        """How the 35 table cards chain to one another (ranks next to each other, Ace and
        King too with wrap) and what the stock holds."""
        wrap, columns, stock, start = position[0], position[1], position[2], position[3]

        # the ranks (0 to 12) next to each rank
        near = [[r for r in (k - 1, k + 1) if 0 <= r < 13] for k in range(13)]
        if wrap:
            near[0].append(12)
            near[12].append(0)
        chains = sum(
            col[i + 1] % 13 in near[col[i] % 13] for col in columns for i in range(len(col) - 1)
        )
        tops = [col[-1] % 13 for col in columns if col]
        stock_ranks = [card % 13 + 1 for card in stock]
        in_stock = [stock_ranks.count(rank) for rank in range(1, 14)]
        features: dict[str, float] = {
            "golf_chains_in_columns": chains,
            "golf_tops_next_to_start": sum(start % 13 in near[top] for top in tops),
            "golf_tops_next_to_stock": sum(in_stock[r] for top in tops for r in near[top]),
            "golf_kings_on_table": sum(card % 13 == 12 for col in columns for card in col),
            # under another card: in a game without wrap a king ends a chain
            "golf_kings_buried": sum(card % 13 == 12 for col in columns for card in col[:-1]),
            "golf_stock_distinct_ranks": len(set(stock_ranks)),
        }
        for rank in range(1, 14):
            features[f"golf_stock_rank_{rank}"] = in_stock[rank - 1]
        return features

    def native_position(self) -> tuple[Any, ...]:
        """``(wrap, columns, stock, waste top)``: each column's exposed card and the
        stock's next card last."""
        piles = self.piles()
        return (
            bool(self.variant["wrap"]),
            [[card.index for card in piles[f"t{k}"]] for k in range(1, 8)],
            [card.index for card in reversed(piles["stock"])],
            piles["waste"][-1].index,
        )

    def piles(self) -> dict[str, list[Card]]:
        """``t1``..``t7``, ``stock`` (next card first) and ``waste`` (top last)."""
        piles = {f"t{index + 1}": list(column) for index, column in enumerate(self._columns)}
        piles["stock"] = self._stock[::-1]
        piles["waste"] = list(self._waste)
        return piles

    def hidden_cards(self) -> list[Card]:
        """The stock: its order is never shown."""
        return self._stock[::-1]

    # -- moves --------------------------------------------------------------------------

    def _playable(self) -> list[int]:
        top = self._waste[-1]
        return [
            index
            for index, column in enumerate(self._columns)
            if column and golf_neighbours(column[-1], top, wrap=self._wrap)
        ]

    def legal_moves(self) -> list[Move]:
        """Each playable column (``t1``..``t7``), then ``draw`` while the stock lasts."""
        if self.is_over():
            return []
        moves = [_PLAYS[index] for index in self._playable()]
        if self._stock:
            moves.append(DRAW)
        return moves

    def _resolve(self, move: Move) -> int | None:
        """The column a play takes from, or None for ``draw``; raises if not legal."""
        if move.word == "draw":
            if not self._stock:
                raise IllegalMoveError("the stock is empty")
            return None
        if move.word is not None:
            raise InvalidMoveError(f"{move.word!r} is not a Golf move")
        source = move.source
        assert source is not None
        if source.kind != "t" or move.dest not in (None, _WASTE):
            raise InvalidMoveError(f"{move}: in Golf a column's card goes to the waste, as t3")
        assert source.column is not None
        if source.column > COLUMNS:
            raise InvalidMoveError(f"there is no {source.bare}: Golf has {COLUMNS} columns")
        index = source.column - 1
        column = self._columns[index]
        if not column:
            raise IllegalMoveError(f"{source.bare} is empty")
        card, top = column[-1], self._waste[-1]
        if source.card is not None and source.card != card:
            raise IllegalMoveError(f"{source.card} is not the free card of {source.bare}")
        if not golf_neighbours(card, top, wrap=self._wrap):
            if top.rank == Rank.KING and not self._wrap:
                raise IllegalMoveError(f"nothing plays on a King ({top}): draw")
            raise IllegalMoveError(f"{card} is not one rank above or below {top}")
        return index

    def _check(self, move: Move) -> None:
        self._resolve(move)

    def _play(self, move: Move) -> Played:
        index = self._resolve(move)
        points = self._take(index)
        if index is None:
            return Played(DRAW, 0, (self._waste[-1],))
        return Played(_PLAYS[index], points)

    def _take(self, index: int | None) -> int:
        """Play what :meth:`_resolve` found legal (column ``index``'s card, or ``draw`` for
        None): the points it scores."""
        if index is None:
            self._waste.append(self._stock.pop())
            self._streak = 0
            self._history.clear()
            return 0
        self._history.append(_Snapshot(index, self._score, self._streak))
        column = self._columns[index]
        self._waste.append(column.pop())
        self._streak += 1
        points = CARD_POINTS + STREAK_POINTS * (self._streak - 1)
        if not column and not any(self._columns):  # the tableau cleared
            points += CLEAR_BONUS + STOCK_CARD_BONUS * len(self._stock)
        self._score += points
        return points

    def play_through(self, moves: Iterable[Move | str]) -> tuple[int, ValueError | None]:
        """:meth:`Game.play_through`, each move decided by :meth:`_resolve` as :meth:`play`
        decides it, without a :class:`Played` made a move or the end of the game worked
        out again from the whole table: the cards left in the columns are counted down, and
        whether a card plays asked only once the stock is empty.

        >>> game = Golf.from_seed(3)
        >>> game.play_through(["t1", "draw", "t2", "undo"])
        (4, None)
        >>> game.observation()["waste"], game.score()
        (['8s', '9d', '6s'], 10)
        """
        columns = self._columns
        left = sum(map(len, columns))
        played = 0
        for text in moves:
            if self._end(cleared=not left) is not None:
                break  # the game is over
            try:
                move = Move.parse(text) if isinstance(text, str) else text
                if move.word == "undo" or move.word == "end":
                    self.play(move)
                    left = sum(map(len, columns))
                    played += 1
                    continue
                self._check_places(move)
                index = self._resolve(move)
            except ValueError as error:
                return played, error
            self._take(index)
            left -= index is not None
            played += 1
        return played, None

    def tap(self, place: Place | str) -> Move | None:
        """The play of column ``tN``'s free card, if it is legal now."""
        if isinstance(place, str):
            place = Place.parse(place)
        if place.kind != "t" or self.is_over():
            return None
        move = Move(source=place)
        return _PLAYS[place.column - 1] if self.is_legal(move) and place.column else None

    # -- undo ---------------------------------------------------------------------------

    def _undo_refusal(self) -> str | None:
        """Nothing played since the deal, or the last move was a draw."""
        if not self._history:
            if len(self._stock) < len(self._deal) - TABLEAU_CARDS - 1:
                return "a draw cannot be taken back"
            return "nothing to undo"
        return None

    def _undo(self) -> None:
        snapshot = self._history.pop()
        self._columns[snapshot.column].append(self._waste.pop())
        self._score = snapshot.score
        self._streak = snapshot.streak


_WASTE: Final = Place("w")
_PLAYS: Final = tuple(Move(source=Place("t", index + 1)) for index in range(COLUMNS))
