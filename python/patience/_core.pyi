"""Type stub of the native core (``rust/patience-py``). Only ``patience`` itself imports it."""

from typing import Any

__version__: str

def seeded_deck(key: str, seed: int, *, decks: int = 1, version: int = 1) -> list[int]:
    """The deal for ``(key, seed)`` as card indices (``suit * 13 + rank - 1``)."""

Position = tuple[Any, ...]
"""A game's position as its module's ``native_position()`` gives it, every card known."""

def successors(game: str, position: Position) -> list[tuple[str, Position]]:
    """Every legal move of a position of ``game``, in notation, with the position it leads
    to."""

def solve(
    game: str,
    position: Position,
    *,
    max_nodes: int,
    max_seconds: float,
    max_states: int,
    wins_only: bool = False,
) -> tuple[str, list[str], int, float, str | None]:
    """``(outcome, moves, nodes, seconds, reason)`` for a position with every card known;
    with ``wins_only``, a solver that proves losses by another search than it finds wins
    looks for a win only."""

def players(game: str) -> list[str]:
    """The reference players of ``game``, weakest first."""

def choose(
    game: str, position: Position, player: str, seed: int, information: str = "person"
) -> str | None:
    """The move reference player ``player`` makes, seeing only what the model of
    information shows: ``person`` (what a person sees), or for Klondike ``known-stock``
    (the hand's order too, as the published Klondike players assume)."""

def playout(
    game: str,
    position: Position,
    player: str,
    seed: int,
    max_moves: int,
    information: str = "person",
) -> tuple[bool, list[str]]:
    """``(won, moves)``: a game played from ``position`` by reference player ``player``."""

def results(
    game: str,
    position: Position,
    player: str,
    seeds: list[int],
    max_moves: int,
    information: str = "person",
) -> list[float]:
    """How far reference player ``player`` gets from ``position`` with each seed: 1.0 for
    a win, else the game's progress (the share of cards home in a game rated by progress,
    ``Game.rated_by_progress``; the others: 0.0)."""

def evidence(
    game: str,
    positions: list[Position],
    *,
    max_nodes: int,
    max_seconds: float,
    max_states: int,
    first_move_nodes: int,
    players: list[tuple[str, list[int]]],
    max_moves: int,
    prefixes: list[str],
    suffixes: list[str],
    still_won: list[int] = ...,
    still_won_nodes: int = 0,
    share_first_moves: bool = False,
    undecided_first_moves_win: bool = False,
) -> list[tuple[str, list[str], int, int, int, list[list[tuple[bool, int, int, int | None]]]]]:
    """The cheap evidence of each position in one call: ``(outcome, certificate, nodes,
    first moves that still win, legal first moves, playouts)``, each certificate replayed
    in the core's engine, each playout ``(won, counted moves, moves, moves still won)``:
    the last for the first ``still_won[i]`` playouts of the ``i``-th player (as
    :func:`still_won`), else None. With ``share_first_moves`` (for a game whose solver
    can) the searches of a deal's first moves keep one table of what the certifying search
    and those before them learnt; with ``undecided_first_moves_win`` a first move not
    decided within ``first_move_nodes`` counts as winning."""

def still_won(
    game: str,
    position: Position,
    player: str,
    seeds: list[int],
    *,
    max_moves: int,
    max_nodes: int,
) -> list[tuple[int, int]]:
    """For each playout of ``player`` from a position the solver wins: ``(moves still won,
    moves)``, the moves it made before the table was lost (each position judged by the
    solver within ``max_nodes`` nodes, found by bisection) and its length."""
