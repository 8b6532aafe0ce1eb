"""Type stub of the native core (``rust/patience-py``). Only ``patience`` itself imports it."""

__version__: str

def seeded_deck(key: str, seed: int, *, decks: int = 1, version: int = 1) -> list[int]:
    """The deal for ``(key, seed)`` as card indices (``suit * 13 + rank - 1``)."""
