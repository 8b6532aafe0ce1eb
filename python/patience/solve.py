"""Solving deals with the native core, and never trusting an answer unchecked.

:func:`solve` asks the Rust solver (``patience._core``) about a game's position with every
card known. A ``solved`` answer carries a certificate, the moves of a win in the notation
of docs/rules.md, which is replayed through the Python engine of record before it is returned; a
certificate that does not replay to a win raises :class:`CertificateError` (a bug in the
solver, never a "winnable" answer). ``unsolvable`` means the search space was exhausted;
``unknown`` that a budget ran out first.

>>> from patience.games import new_game
>>> result = solve(new_game("klondike", seed=2, variant={"draw": 1}))
>>> result.outcome, result.won_game().outcome()
('solved', Outcome(won=True, reason='won'))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, cast

from patience import _core
from patience.cards import Card
from patience.errors import PatienceError
from patience.games import GAMES, Budgets, Game, new_game

__all__ = [
    "SOLVABLE_GAMES",
    "CertificateError",
    "NoSolverError",
    "SolveResult",
    "cap_states",
    "replayed",
    "solve",
    "solve_deal",
]

SolveOutcome = Literal["solved", "unsolvable", "unknown"]

SOLVABLE_GAMES = tuple(name for name, cls in GAMES.items() if cls.solver)
"""Games the native core has a solver for (:attr:`Game.solver <patience.games.Game.solver>`)."""
"""Games with a native solver so far."""


class CertificateError(AssertionError):
    """A solver's certificate did not replay to a win: a solver bug, reported loudly."""


class NoSolverError(PatienceError):
    """The game has no native solver yet."""


@dataclass(frozen=True, slots=True)
class SolveResult:
    """What the solver found for one position, with the evidence.

    ``moves`` is the certificate (for ``solved``), already replayed by the engine of record
    from ``start`` to a win; ``nodes`` and ``seconds`` are the search's work.
    """

    outcome: SolveOutcome
    moves: tuple[str, ...]
    nodes: int
    seconds: float
    reason: str | None
    start: Game = field(repr=False, compare=False)

    @property
    def decided(self) -> bool:
        """Whether the solver answered (``solved`` or ``unsolvable``)."""
        return self.outcome != "unknown"

    def won_game(self) -> Game:
        """The start position with the certificate played: a won game."""
        if self.outcome != "solved":
            raise ValueError(f"no certificate: the outcome is {self.outcome}")
        game = self.start.copy()
        for move in self.moves:
            game.play(move)
        return game

    def to_json(self) -> dict[str, Any]:
        """The result as ``patience solve --json`` prints it."""
        return {
            "outcome": self.outcome,
            "moves": list(self.moves),
            "game": self.start.name,
            "deal": [str(card) for card in self.start.deal],
            "variant": self.start.variant,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "reason": self.reason,
        }


def _native_solve(
    game: Game, *, max_nodes: int, max_seconds: float, max_states: int, wins_only: bool
) -> tuple[str, list[str], int, float, str | None]:
    """The native solver's answer for ``game``'s position."""
    if game.name not in SOLVABLE_GAMES:
        raise NoSolverError(f"no solver for {game.name} yet (solvers: {', '.join(SOLVABLE_GAMES)})")
    return _core.solve(
        game.name,
        game.native_position(),
        max_nodes=max_nodes,
        max_seconds=max_seconds,
        max_states=max_states,
        wins_only=wins_only,
    )


#: Positions a solver's table holds at most, unless the caller or the game's
#: :attr:`Budgets.solve_states <patience.games.Budgets.solve_states>` says otherwise.
DEFAULT_MAX_STATES = Budgets().solve_states


_state_cap: int | None = None


def cap_states(limit: int | None) -> None:
    """Bound every later :func:`solve` of this process to ``limit`` positions in its table,
    whatever its caller asks (None: no bound): the server's solver processes keep their
    memory within a budget so (a table costs up to about 100 bytes a position)."""
    global _state_cap
    _state_cap = limit


def solve(
    game: Game,
    *,
    time_limit: float = 10.0,
    node_limit: int = 50_000_000,
    max_states: int | None = None,
    wins_only: bool = False,
) -> SolveResult:
    """Solve ``game`` from its current position, every hidden card known to the solver.

    ``max_states`` bounds the solver's table of positions searched (by default
    the game's ``budgets.solve_states``).
    ``wins_only`` is for callers that want winnable deals and nothing else (certifying a
    deal, filling the catalog): Kansas's solver then spends the whole budget looking for a
    win, which wins more deals on a short budget and proves fewer lost; an ``unsolvable``
    answer is still a proof. The other games' solvers find wins first anyway and ignore it.
    Raises :class:`NoSolverError` for a game without a native solver, and
    :class:`CertificateError` if a certificate fails to replay (a solver bug).
    """
    if max_states is None:
        max_states = game.budgets.solve_states
    if _state_cap is not None:
        max_states = min(max_states, _state_cap)
    if time_limit <= 0 or node_limit <= 0 or max_states <= 0:
        raise ValueError("the time, node and state limits must be positive")
    start = game.copy()
    outcome, moves, nodes, seconds, reason = _native_solve(
        start,
        max_nodes=node_limit,
        max_seconds=time_limit,
        max_states=max_states,
        wins_only=wins_only,
    )
    if outcome not in ("solved", "unsolvable", "unknown"):  # pragma: no cover - glue contract
        raise CertificateError(f"the solver answered {outcome!r}")
    certificate = replayed(start, moves) if outcome == "solved" else ()
    return SolveResult(cast(SolveOutcome, outcome), certificate, nodes, seconds, reason, start)


def replayed(start: Game, moves: list[str]) -> tuple[str, ...]:
    """The certificate as the engine of record plays it: every move legal, ending in a won
    game (the engine plays out a solved position by itself, so the solver's last moves may
    be ones the engine made on its own)."""
    game = start.copy()
    count, refusal = game.play_through(moves)
    if refusal is not None:
        raise CertificateError(
            f"solver certificate move {count} ({moves[count]!r}) was refused: {refusal}"
        ) from refusal
    outcome = game.outcome()
    if outcome is None or not outcome.won:
        raise CertificateError(
            f"solver certificate of {len(moves)} moves does not win "
            f"({game.cards_on_foundation()} cards home)"
        )
    return tuple(moves[:count])


def solve_deal(
    name: str,
    deal: tuple[Card, ...] | list[str] | str,
    variant: dict[str, object] | None = None,
    **limits: Any,
) -> SolveResult:
    """Solve a deal of game ``name`` from its start; ``limits`` as for :func:`solve`."""
    return solve(new_game(name, deal=deal, variant=variant), **limits)
