"""Building Klondike positions for tests: name the cards that matter, the rest fill in."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from patience.cards import Card, ordered_deck
from patience.games.klondike import Klondike


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
