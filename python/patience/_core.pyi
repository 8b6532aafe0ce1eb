"""Type stub of the native core (``rust/patience-py``). Only ``patience`` itself imports it."""

__version__: str

def seeded_deck(key: str, seed: int, *, decks: int = 1, version: int = 1) -> list[int]:
    """The deal for ``(key, seed)`` as card indices (``suit * 13 + rank - 1``)."""

KlondikePosition = tuple[int, list[list[int]], list[int], list[int], list[int], list[int]]

def klondike_successors(position: KlondikePosition) -> list[tuple[str, KlondikePosition]]:
    """Every legal move of a position, in notation, with the position it leads to."""

def klondike_solve(
    position: KlondikePosition, *, max_nodes: int, max_seconds: float, max_states: int
) -> tuple[str, list[str], int, float, str | None]:
    """``(outcome, moves, nodes, seconds, reason)`` for a position with every card known."""

GolfPosition = tuple[bool, list[list[int]], list[int], int]

def golf_successors(position: GolfPosition) -> list[tuple[str, GolfPosition]]:
    """Every legal move of a Golf position, in notation, with the position it leads to."""

def golf_solve(
    position: GolfPosition, *, max_nodes: int, max_seconds: float, max_states: int
) -> tuple[str, list[str], int, float, str | None]:
    """``(outcome, moves, nodes, seconds, reason)`` for a Golf position (exact search)."""

KansasPosition = tuple[int, list[int], list[list[int]], list[int], list[int], list[int]]

def kansas_successors(position: KansasPosition) -> list[tuple[str, KansasPosition]]:
    """Every legal move of a Kansas position, in notation, with the position it leads to."""

def kansas_solve(
    position: KansasPosition,
    *,
    max_nodes: int,
    max_seconds: float,
    max_states: int,
    wins_only: bool = False,
) -> tuple[str, list[str], int, float, str | None]:
    """``(outcome, moves, nodes, seconds, reason)`` for a Kansas position, every card known;
    with ``wins_only``, the search looks for a win only (its best-first pass alone)."""

ExpertPosition = tuple[list[list[int]], list[int], list[int | None], list[int]]

def expert_successors(position: ExpertPosition) -> list[tuple[str, ExpertPosition]]:
    """Every legal move of a Solitaire Expert position, with the position it leads to."""

def expert_solve(
    position: ExpertPosition, *, max_nodes: int, max_seconds: float, max_states: int
) -> tuple[str, list[str], int, float, str | None]:
    """``(outcome, moves, nodes, seconds, reason)``: moves to a position the engine plays out."""
