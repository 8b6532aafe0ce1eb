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
