"""Building Klondike positions for tests: name the cards that matter, the rest fill in."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from patience.cards import Card, ordered_deck
from patience.games.klondike import Klondike

CLUBS = ["Ac", "2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c", "Tc", "Jc", "Qc", "Kc"]
HEARTS = [card[0] + "h" for card in CLUBS]


def klondike_deal(
    columns: Mapping[int, Sequence[str]] | None = None, hand: Sequence[str] = ()
) -> tuple[Card, ...]:
    """A deal whose column ``k`` (1-based, ``k`` cards, first-dealt first) is
    ``columns[k]`` and whose hand begins with ``hand``; every other place takes the unused
    cards in deck order."""
    columns = dict(columns or {})
    named = [Card.parse(text) for cards in columns.values() for text in cards]
    named += [Card.parse(text) for text in hand]
    assert len(set(named)) == len(named), "a card is named twice"
    spare = iter(card for card in ordered_deck() if card not in named)
    layout = []
    for k in range(1, 8):
        given = [Card.parse(text) for text in columns.get(k, [])]
        assert len(given) in (0, k), f"column {k} holds {k} cards"
        layout.append(given or [next(spare) for _ in range(k)])
    full_hand = [Card.parse(text) for text in hand]
    full_hand += list(spare)
    return Klondike.deal_from_layout(layout, full_hand)


def solved_deal() -> tuple[Card, ...]:
    """A deal that plays out: the hand holds the clubs and the diamonds up to the Jack in
    order; the columns hold Qd, Kd, then hearts and spades, exposed cards playing first."""
    hand = CLUBS + [rank[0] + "d" for rank in CLUBS[:11]]
    order = ["Qd", "Kd"] + [
        card for pair in zip(HEARTS, [c[0] + "s" for c in CLUBS], strict=True) for card in pair
    ]
    columns: dict[int, list[str]] = {}
    position = 0
    for k in range(1, 8):
        columns[k] = list(reversed(order[position : position + k]))
        position += k
    return klondike_deal(columns, hand)


def fill_deal(named: Mapping[int, str], *, decks: int = 1) -> tuple[Card, ...]:
    """A deal with the card ``named[i]`` at position ``i``; the other positions take the
    unused cards in deck order."""
    unused = list(ordered_deck(decks))
    for text in named.values():
        unused.remove(Card.parse(text))  # raises if a card is named too often
    spare = iter(unused)
    return tuple(Card.parse(named[i]) if i in named else next(spare) for i in range(52 * decks))


def golf_deal(
    columns: Mapping[int, Sequence[str]] | None = None,
    waste: str | None = None,
    stock: Sequence[str] = (),
) -> tuple[Card, ...]:
    """A Golf deal: column ``k`` (1-based) holds ``columns[k]`` (five cards, its free card
    last), the waste starts with ``waste``, the stock begins with ``stock``."""
    named: dict[int, str] = {}
    for k, cards in (columns or {}).items():
        assert len(cards) == 5, "a Golf column holds five cards"
        for row, text in enumerate(cards):
            named[row * 7 + k - 1] = text
    if waste is not None:
        named[35] = waste
    for offset, text in enumerate(stock):
        named[36 + offset] = text
    return fill_deal(named)


def kansas_deal(
    reserve: Sequence[str] = (),
    base: str | None = None,
    columns: Sequence[str | None] = (),
    stock: Sequence[str] = (),
) -> tuple[Card, ...]:
    """A Kansas deal: ``reserve`` lists the reserve from its top card down, ``base`` is the
    first foundation card, ``columns`` the three column cards, ``stock`` its first cards."""
    named: dict[int, str] = {11 - offset: text for offset, text in enumerate(reserve)}
    if base is not None:
        named[12] = base
    named |= {13 + k: text for k, text in enumerate(columns) if text is not None}
    named |= {16 + offset: text for offset, text in enumerate(stock)}
    return fill_deal(named)


def expert_deal(columns: Mapping[int, Sequence[str]], hand: Sequence[str]) -> tuple[Card, ...]:
    """A Solitaire Expert deal: column ``k`` holds ``columns[k]`` (ten cards, exposed card
    last), the hand holds ``hand``; the rest fill in from two ordered decks."""
    named: dict[int, str] = {}
    for k, cards in columns.items():
        assert len(cards) == 10, "an Expert column holds ten cards"
        for row, text in enumerate(cards):
            named[row * 10 + k - 1] = text
    named |= {100 + offset: text for offset, text in enumerate(hand)}
    return fill_deal(named, decks=2)
