"""Cards, decks and deals, and the versioned seeded shuffle.

A card is written rank then suit (``Th``, ``Ac``); input also takes ``10`` for ``T`` and
either case, output is always canonical:

>>> str(Card.parse("10H")), str(Card.parse("th")), str(Card.parse("Ks"))
('Th', 'Th', 'Ks')
>>> Card.parse("Qd").rank, Card.parse("Qd").suit, Card.parse("Qd").is_red
(<Rank.QUEEN: 12>, <Suit.DIAMONDS: 'd'>, True)

A deal is the deck order, first-dealt card first. :func:`shuffled_deck` turns a game's name
and a seed into a deal with the documented shuffle (``docs/shuffle.md``), the same one the
native core implements:

>>> format_cards(shuffled_deck("klondike", 1)[:5])
'Ah 8s 3h 4h 5s'
"""

from __future__ import annotations

import enum
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Final

from patience.errors import InvalidCardError, InvalidDealError

__all__ = [
    "DECK_SIZE",
    "SHUFFLE_VERSION",
    "Card",
    "Rank",
    "SplitMix64",
    "Suit",
    "checked_deal",
    "fnv1a64",
    "format_cards",
    "ordered_deck",
    "parse_cards",
    "parse_deal",
    "shuffled_deck",
]

DECK_SIZE: Final = 52
SHUFFLE_VERSION: Final = 1
"""The newest shuffle version; every older one keeps dealing what it always dealt."""

_MASK64: Final = (1 << 64) - 1


class Suit(enum.Enum):
    """A suit, valued by its letter. Clubs and spades are black."""

    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"

    @property
    def index(self) -> int:
        """Position in the order clubs, diamonds, hearts, spades (0 to 3)."""
        return _SUIT_INDEX[self]

    @property
    def is_red(self) -> bool:
        """Whether the suit is red (diamonds, hearts)."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @property
    def symbol(self) -> str:
        """The suit's symbol, e.g. ``♥``."""
        return _SUIT_SYMBOL[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """The suit written as one letter, either case.

        >>> Suit.parse("H")
        <Suit.HEARTS: 'h'>
        """
        try:
            return cls(text.strip().lower())
        except ValueError:
            raise InvalidCardError(f"{text!r} is not a suit (c, d, h, s)") from None


_SUIT_INDEX: Final = {suit: index for index, suit in enumerate(Suit)}
_SUIT_SYMBOL: Final = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}


class Rank(enum.IntEnum):
    """A rank, Ace (1) to King (13)."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def letter(self) -> str:
        """The rank's canonical letter (``A 2 .. 9 T J Q K``)."""
        return _RANK_LETTERS[self - 1]


_RANK_LETTERS: Final = "A23456789TJQK"
_CARD_PATTERN: Final = re.compile(r"^(10|[2-9tjqka])([cdhs])$", re.IGNORECASE)


class Card:
    """One playing card. There are exactly 52 instances; compare them with ``==`` or ``is``.

    ``Card(rank, suit)`` returns the shared instance:

    >>> Card(Rank.TEN, Suit.HEARTS) is Card.parse("Th")
    True
    >>> Card.from_index(Card.parse("Th").index) == Card.parse("Th")
    True
    """

    __slots__ = ("_text", "index", "is_red", "rank", "suit")
    rank: Rank
    suit: Suit
    index: int
    is_red: bool
    _text: str

    def __new__(cls, rank: Rank | int, suit: Suit) -> Card:
        """The card of this rank and suit."""
        return _CARDS[_SUIT_INDEX[suit] * 13 + int(rank) - 1]

    @classmethod
    def _make(cls, rank: Rank, suit: Suit) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "index", suit.index * 13 + rank - 1)
        object.__setattr__(card, "is_red", suit.is_red)
        object.__setattr__(card, "_text", rank.letter + suit.value)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[Rank, Suit]]:
        return (Card, (self.rank, self.suit))

    @classmethod
    def parse(cls, text: str) -> Card:
        """The card written as rank then suit: ``Th``, ``10h``, ``TH`` and ``th`` are one card.

        >>> Card.parse("xx")
        Traceback (most recent call last):
        ...
        patience.errors.InvalidCardError: 'xx' is not a card (rank A 2-9 T J Q K, suit c d h s)
        """
        match = _CARD_PATTERN.match(text.strip()) if isinstance(text, str) else None
        if match is None:
            raise InvalidCardError(f"{text!r} is not a card (rank A 2-9 T J Q K, suit c d h s)")
        rank_text, suit_text = match.groups()
        rank_letter = "T" if rank_text == "10" else rank_text.upper()
        return Card(Rank(_RANK_LETTERS.index(rank_letter) + 1), Suit(suit_text.lower()))

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card numbered ``suit * 13 + rank - 1`` (the native core's numbering)."""
        if not 0 <= index < DECK_SIZE:
            raise InvalidCardError(f"{index} is not a card index (0 to 51)")
        return _CARDS[index]

    @property
    def pretty(self) -> str:
        """The card with its suit symbol, e.g. ``10♥``, ``Q♠``."""
        rank = "10" if self.rank == Rank.TEN else self.rank.letter
        return rank + self.suit.symbol

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card.parse({self._text!r})"

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __hash__(self) -> int:
        return self.index


_CARDS: Final[tuple[Card, ...]] = tuple(Card._make(rank, suit) for suit in Suit for rank in Rank)


def ordered_deck(decks: int = 1) -> list[Card]:
    """``decks`` decks in the canonical order: clubs, diamonds, hearts, spades, each A to K.

    >>> format_cards(ordered_deck()[:3]), len(ordered_deck(2))
    ('Ac 2c 3c', 104)
    """
    return list(_CARDS) * decks


def parse_cards(cards: str | Iterable[str]) -> list[Card]:
    """Cards from a string (separated by spaces or commas) or a sequence of card strings.

    >>> format_cards(parse_cards("Ah, 10c  ks"))
    'Ah Tc Ks'
    """
    items = re.split(r"[\s,]+", cards.strip()) if isinstance(cards, str) else list(cards)
    result = []
    for position, item in enumerate(items, start=1):
        if not isinstance(item, str):
            raise InvalidCardError(f"card {position} is {item!r}, not a card string")
        try:
            result.append(Card.parse(item))
        except InvalidCardError as error:
            raise InvalidCardError(f"card {position}: {error}") from None
    return result


def parse_deal(cards: str | Iterable[str], *, decks: int = 1) -> tuple[Card, ...]:
    """A deal of ``decks`` full decks: every card exactly ``decks`` times.

    >>> len(parse_deal(format_cards(ordered_deck())))
    52
    >>> parse_deal("Ah Ah")
    Traceback (most recent call last):
    ...
    patience.errors.InvalidDealError: a deal has 52 cards, this one has 2
    """
    try:
        parsed = parse_cards(cards)
    except InvalidCardError as error:
        raise InvalidDealError(str(error)) from None
    return checked_deal(parsed, decks=decks)


def checked_deal(cards: Sequence[Card], *, decks: int = 1) -> tuple[Card, ...]:
    """``cards`` checked as a deal of ``decks`` full decks, as :func:`parse_deal` checks
    one (for cards that are cards already, such as :func:`shuffled_deck` deals).

    >>> len(checked_deal(ordered_deck(2), decks=2))
    104
    >>> checked_deal(ordered_deck()[:51] + [Card.parse("Ac")])
    Traceback (most recent call last):
    ...
    patience.errors.InvalidDealError: every card must appear once; found Ac twice, Ks never
    """
    expected = DECK_SIZE * decks
    if len(cards) != expected:
        raise InvalidDealError(f"a deal has {expected} cards, this one has {len(cards)}")
    counts = Counter(card.index for card in cards)
    wrong = [card for card in _CARDS if counts[card.index] != decks]
    if wrong:
        found = ", ".join(f"{card} {_times(counts[card.index])}" for card in wrong)
        raise InvalidDealError(f"every card must appear {_times(decks)}; found {found}")
    return tuple(cards)


def _times(count: int) -> str:
    return {0: "never", 1: "once", 2: "twice"}.get(count, f"{count} times")


def format_cards(cards: Iterable[Card]) -> str:
    """Cards as canonical text separated by spaces."""
    return " ".join(str(card) for card in cards)


def fnv1a64(data: bytes) -> int:
    """FNV-1a, 64-bit, exactly as ``rust/patience-core``'s ``shuffle::fnv1a64``."""
    value = 0xCBF29CE484222325
    for byte in data:
        value = ((value ^ byte) * 0x100000001B3) & _MASK64
    return value


class SplitMix64:
    """SplitMix64 (Steele, Lea and Flood, 2014), exactly as ``rust/patience-core``."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """Uniform in ``range(bound)``: outputs past the last whole multiple are rejected."""
        limit = (1 << 64) - (1 << 64) % bound
        while True:
            value = self.next()
            if value < limit:
                return value % bound


def shuffled_deck(
    key: str, seed: int, *, decks: int = 1, version: int = SHUFFLE_VERSION
) -> list[Card]:
    """The deal for ``(key, seed)``: ``decks`` decks shuffled by shuffle ``version``.

    ``key`` is the game's name, so one seed deals different cards in different games.
    Version 1: SplitMix64 from ``fnv1a64(b"patience:" + key) ^ seed``, then Fisher-Yates
    from the last position down, each swap partner drawn without bias.
    """
    if version != 1:
        raise InvalidDealError(f"unknown shuffle version {version} (known: 1)")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= _MASK64:
        raise InvalidDealError(f"a seed is a whole number from 0 to 2**64 - 1, not {seed!r}")
    cards = ordered_deck(decks)
    rng = SplitMix64(fnv1a64(b"patience:" + key.encode()) ^ seed)
    for i in range(len(cards) - 1, 0, -1):
        j = rng.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards
