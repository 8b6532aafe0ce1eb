"""The games, behind one protocol (:class:`Game`), found by name in an explicit registry.

>>> sorted(GAMES)
['expert', 'freecell', 'golf', 'kansas', 'klondike']
>>> game = new_game("klondike", seed=42, variant={"draw": 1})
>>> type(game).__name__, game.variant
('Klondike', {'draw': 1})
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from patience.cards import Card
from patience.errors import InvalidDealError, InvalidRecordError
from patience.games.base import Game, Outcome, Played, VariantOption
from patience.games.expert import Expert
from patience.games.freecell import FreeCell
from patience.games.golf import Golf
from patience.games.kansas import Kansas
from patience.games.klondike import Klondike
from patience.games.layout import Budgets, ClientLayout

__all__ = [
    "GAMES",
    "Budgets",
    "ClientLayout",
    "Expert",
    "FreeCell",
    "Game",
    "Golf",
    "Kansas",
    "Klondike",
    "Outcome",
    "Played",
    "VariantOption",
    "game_class",
    "new_game",
    "variant_key",
    "variant_words",
]

GAMES: Final[Mapping[str, type[Game]]] = {
    Klondike.name: Klondike,
    Golf.name: Golf,
    Kansas.name: Kansas,
    Expert.name: Expert,
    FreeCell.name: FreeCell,
}
"""Every game by its record name: the one line a game adds on the Python side (and one in
the native core's registry, ``rust/patience-py/src/lib.rs``); everything else the platform
knows of a game it reads from the game's class (docs/adding-a-game.md)."""


def game_class(name: str) -> type[Game]:
    """The game registered as ``name``; raises :class:`InvalidRecordError` if none is."""
    try:
        return GAMES[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(GAMES))
        raise InvalidRecordError(f"unknown game {name!r} (games: {known})") from None


def new_game(
    name: str,
    *,
    deal: Sequence[Card] | str | Iterable[str] | None = None,
    seed: int | None = None,
    variant: Mapping[str, object] | None = None,
) -> Game:
    """A new game of ``name`` from a ``deal`` or a ``seed`` (exactly one of them)."""
    cls = game_class(name)
    if (deal is None) == (seed is None):
        raise InvalidDealError("give a deal or a seed, not both or neither")
    if seed is not None:
        return cls.from_seed(seed, variant)
    assert deal is not None
    return cls.from_variant(deal, variant)


def variant_key(variant: Mapping[str, Any]) -> str:
    """The key of a checked variant wherever variants are stored or looked up (the deal
    catalog, the calibration): its JSON, keys sorted.

    >>> variant_key({"wrap": True}), variant_key({})
    ('{"wrap": true}', '{}')
    """
    return json.dumps(dict(variant), sort_keys=True)


def variant_words(variant: Mapping[str, Any]) -> list[str]:
    """A variant's options in plain words, one an option: a true flag by its name, a false
    one with "no", any other value after its name.

    >>> variant_words({"wrap": False}), variant_words({"draw": 3}), variant_words({})
    (['no wrap'], ['draw 3'], [])
    """
    words = []
    for key, value in variant.items():
        if value is True:
            words.append(key)
        elif value is False:
            words.append(f"no {key}")
        else:
            words.append(f"{key} {value}")
    return words
