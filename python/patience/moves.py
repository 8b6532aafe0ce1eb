"""Move notation, as docs/rules.md fixes it, shared by every game.

A move is ``SOURCE>DEST`` or a word. Places: ``t1``..``tN`` tableau columns, ``w`` the
waste, ``r`` the reserve, ``h`` the hand (a card leaves it as ``h:Qs``), ``c1``..``c4`` the
free cells (``c`` alone, as a destination, is the first empty one), ``f`` the
foundation (a card leaves a Klondike foundation as ``f:h``). A column may name the first
card of the run it moves (``t3:Qh>t5``). In Golf a column's card goes to the waste, written
``t3`` alone. Words: ``draw``, ``recycle``, ``undo``, ``end``.

Input is case-insensitive; output is canonical and round-trips:

>>> str(Move.parse("T3:QH>T5")), str(Move.parse("f:H>t1")), str(Move.parse(" Draw "))
('t3:Qh>t5', 'f:h>t1', 'draw')
>>> str(Move.parse("t2>C3")), str(Move.parse("c3>f")), str(Move.parse("t2>c"))
('t2>c3', 'c3>f', 't2>c')
>>> Move.parse("t3>t5") == Move(source=Place("t", 3), dest=Place("t", 5))
True
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Final, Literal, cast

from patience.cards import Card, Suit
from patience.errors import InvalidCardError, InvalidMoveError

__all__ = ["WORDS", "Move", "Place", "PlaceKind", "Word"]

PlaceKind = Literal["t", "w", "r", "h", "c", "f"]
Word = Literal["draw", "recycle", "undo", "end"]
WORDS: Final[tuple[Word, ...]] = ("draw", "recycle", "undo", "end")

_PLACE: Final = re.compile(
    r"^(?:(?P<numbered>[tc])(?P<column>\d{1,2})|(?P<kind>[wrhcf]))(?::(?P<qualifier>.+))?$"
)


@dataclass(frozen=True, slots=True)
class Place:
    """A place on the table: its kind, a number (a column's, ``t3``, or a free cell's,
    ``c2``; from 1), and optionally the card named at it (``t3:Qh``, ``h:Qs``) or the suit
    of a foundation (``f:h``). A cell without a number (``c``) is the first empty cell,
    where a card goes.

    >>> str(Place("t", 3, card=Card.parse("Qh"))), str(Place("f", suit=Suit.HEARTS))
    ('t3:Qh', 'f:h')
    """

    kind: PlaceKind
    column: int | None = None
    card: Card | None = None
    suit: Suit | None = None

    def __post_init__(self) -> None:
        if self.kind == "t" and self.column is None:
            raise InvalidMoveError("a column number goes with a tableau place (t1, t2, ...)")
        if self.column is not None and self.kind not in ("t", "c"):
            raise InvalidMoveError("a number goes with a column (t1) or a free cell (c1)")
        if self.column is not None and self.column < 1:
            what = "column" if self.kind == "t" else "free cell"
            raise InvalidMoveError(
                f"there is no {what} {self.kind}{self.column}; they start at {self.kind}1"
            )
        if self.card is not None and self.kind not in ("t", "h"):
            raise InvalidMoveError(
                f"a card can be named only at a column or the hand, not {self.kind!r}"
            )
        if self.suit is not None and self.kind != "f":
            raise InvalidMoveError("a suit can be named only at the foundation (f:h)")

    @classmethod
    def parse(cls, text: str) -> Place:
        """A place written in notation (``t3``, ``w``, ``h:Qs``, ``c2``, ``f:h``), either case."""
        match = _PLACE.match(text.strip().lower())
        if match is None:
            raise InvalidMoveError(f"{text!r} is not a place (t1..tN, w, r, h, c1..c4, f)")
        qualifier = match["qualifier"]
        if match["numbered"] == "c":
            if qualifier is not None:
                raise InvalidMoveError(f"{text!r}: a free cell holds one card; name the cell only")
            return cls("c", int(match["column"]))
        if match["column"] is not None:
            column = int(match["column"])
            return cls("t", column, card=_card_of(qualifier, text))
        kind = cast(PlaceKind, match["kind"])
        if qualifier is None:
            return cls(kind)
        if kind == "f":
            try:
                return cls("f", suit=Suit.parse(qualifier))
            except InvalidCardError:
                raise InvalidMoveError(
                    f"{text!r}: a foundation is named by its suit, as f:h"
                ) from None
        if kind == "h":
            return cls("h", card=_card_of(qualifier, text))
        raise InvalidMoveError(f"{text!r}: nothing can be named at {kind!r}")

    @property
    def bare(self) -> Place:
        """The place without the card or suit it names."""
        return Place(self.kind, self.column)

    def __str__(self) -> str:
        text = self.kind if self.column is None else f"{self.kind}{self.column}"
        if self.card is not None:
            return f"{text}:{self.card}"
        if self.suit is not None:
            return f"{text}:{self.suit.value}"
        return text


def _card_of(qualifier: str | None, text: str) -> Card | None:
    if qualifier is None:
        return None
    try:
        return Card.parse(qualifier)
    except InvalidCardError:
        raise InvalidMoveError(f"{text!r}: {qualifier!r} is not a card") from None


@dataclass(frozen=True, slots=True)
class Move:
    """A move: a word, a place alone (Golf's ``t3``), or ``source>dest``.

    >>> Move.parse("t3:Qh")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    patience.errors.InvalidMoveError: 't3:Qh': a card can be named only in a move to ...
    """

    word: Word | None = None
    source: Place | None = None
    dest: Place | None = None

    def __post_init__(self) -> None:
        if (self.word is None) == (self.source is None):
            raise InvalidMoveError("a move is either a word or starts from a place")
        if self.dest is not None and (self.dest.card is not None or self.dest.suit is not None):
            raise InvalidMoveError("a destination is a bare place (t5, f, h, w)")

    @classmethod
    def parse(cls, text: str) -> Move:
        """A move written in notation, either case, spaces around it ignored."""
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move is a string, not {type(text).__name__}")
        if cls is Move:
            return _parsed(text)  # a move is immutable: each text parsed once
        return cls._parse(text)

    @classmethod
    def _parse(cls, text: str) -> Move:
        cleaned = text.strip().lower()
        if cleaned in WORDS:
            return cls(word=cleaned)
        if not cleaned:
            raise InvalidMoveError("empty move")
        source_text, arrow, dest_text = cleaned.partition(">")
        shown = text.strip()
        try:
            source = Place.parse(source_text)
            dest = Place.parse(dest_text) if arrow else None
        except InvalidMoveError as error:
            detail = str(error)
            if "is not a place" in detail:
                detail = "a move is a word (draw, recycle, undo, end) or SOURCE>DEST, as t3>t5"
            raise InvalidMoveError(f"{shown!r} is not a move: {detail}") from None
        if dest is None and (source.card is not None or source.suit is not None):
            raise InvalidMoveError(
                f"{shown!r}: a card can be named only in a move to somewhere (t3:Qh>t5)"
            )
        try:
            return cls(source=source, dest=dest)
        except InvalidMoveError as error:
            raise InvalidMoveError(f"{shown!r} is not a move: {error}") from None

    def __str__(self) -> str:
        if self.word is not None:
            return self.word
        assert self.source is not None
        if self.dest is None:
            return str(self.source)
        return f"{self.source}>{self.dest}"


DRAW: Final = Move(word="draw")
RECYCLE: Final = Move(word="recycle")
UNDO: Final = Move(word="undo")
END: Final = Move(word="end")


@functools.lru_cache(maxsize=4096)
def _parsed(text: str) -> Move:
    """:meth:`Move.parse` of ``text``, remembered (a certificate's replay parses the same
    few moves again and again; a text that is not a move raises each time)."""
    return Move._parse(text)
