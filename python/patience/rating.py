"""Reference players and how often they win: the evidence behind a deal's difficulty.

Each game with reference players has a ladder of them, weakest first (:func:`players`).
A player sees only what a person sees: the native core hands it the game's observation and
what a person remembers of the cards already seen, never a face-down card or the order of
an unseen stock, and it is deterministic given a seed. Every game a player plays here is
replayed through the engine of record: a move it refuses raises :class:`PlayerError` (a
bug in the player, never a result).

>>> from patience.games import new_game
>>> players("golf")
('random', 'greedy', 'hindsight')
>>> game = playout(new_game("golf", seed=1, variant={"wrap": True}), "greedy", seed=0)
>>> game.won, game.moves[:3]
(False, ('t4', 't6', 'draw'))
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from patience import _core
from patience.errors import PatienceError
from patience.games import Game

__all__ = [
    "PLAYER_GAMES",
    "NoPlayersError",
    "PlayerError",
    "Playout",
    "WinRate",
    "choose",
    "players",
    "playout",
    "win_rate",
]

PLAYER_GAMES = ("golf",)
"""Games with reference players so far."""

#: Moves a playout may take before it is stopped (a player that draws forever in a game
#: with unlimited passes through the stock loses).
MAX_MOVES = 1000


class PlayerError(AssertionError):
    """A reference player chose a move the engine of record refuses: a bug, reported
    loudly."""


class NoPlayersError(PatienceError):
    """The game has no reference players yet."""


def players(name: str) -> tuple[str, ...]:
    """The reference players of game ``name``, weakest first."""
    if name not in PLAYER_GAMES:
        raise NoPlayersError(
            f"no reference players for {name} yet (games with players: {', '.join(PLAYER_GAMES)})"
        )
    return tuple(_core.players(name))


def _check_player(game: Game, player: str) -> None:
    ladder = players(game.name)
    if player not in ladder:
        raise ValueError(f"no {game.name} player {player!r} (players: {', '.join(ladder)})")


def _check_seed(seed: int) -> None:
    if not 0 <= seed < 2**64:
        raise ValueError(f"a player's seed is an integer from 0 to 2**64 - 1, not {seed}")


def choose(game: Game, player: str, seed: int) -> str | None:
    """The move ``player`` makes from ``game``'s position (its randomness seeded by
    ``seed``), in notation; ``None`` when it has none."""
    _check_player(game, player)
    _check_seed(seed)
    return _core.choose(game.name, game.native_position(), player, seed)


@dataclass(frozen=True, slots=True)
class Playout:
    """One game played by a reference player from a position, replayed by the engine of
    record."""

    player: str
    seed: int
    won: bool
    moves: tuple[str, ...]


def playout(game: Game, player: str, seed: int, *, max_moves: int = MAX_MOVES) -> Playout:
    """``game`` played on from its position by ``player`` with seed ``seed`` until won, out
    of moves, or ``max_moves`` moves long; ``game`` itself is unchanged. Raises
    :class:`PlayerError` if the engine of record refuses a move or disagrees about the
    result."""
    _check_player(game, player)
    _check_seed(seed)
    won, moves = _core.playout(game.name, game.native_position(), player, seed, max_moves)
    replay = game.copy()
    for index, move in enumerate(moves):
        try:
            replay.play(move)
        except ValueError as error:
            raise PlayerError(
                f"{game.name} player {player} (seed {seed}) chose move {index} ({move!r}), "
                f"which the engine refuses: {error}"
            ) from error
    outcome = replay.outcome()
    if won != (outcome is not None and outcome.won):
        raise PlayerError(
            f"{game.name} player {player} (seed {seed}): the core says won={won}, "
            f"the engine says {outcome}"
        )
    return Playout(player, seed, won, tuple(moves))


@dataclass(frozen=True, slots=True)
class WinRate:
    """Games won of games played, with the Wilson score interval at 95%."""

    wins: int
    games: int

    @property
    def rate(self) -> float:
        """The share of games won."""
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson score interval of the rate (Wilson, 1927): unlike the normal
        approximation it stays within 0 and 1 and is sound at rates near either.

        >>> low, high = WinRate(0, 100).interval
        >>> round(low, 3), round(high, 3)
        (0.0, 0.037)
        """
        if not self.games:
            return (0.0, 1.0)
        z = 1.959964
        n = self.games
        p = self.rate
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return (max(0.0, centre - half), min(1.0, centre + half))


def win_rate(game: Game, player: str, *, games: int, seed: int = 0) -> WinRate:
    """How often ``player`` wins ``game`` from its position in ``games`` playouts, seeded
    ``seed``, ``seed + 1``, ..."""
    if games <= 0:
        raise ValueError("a win rate needs at least one game")
    wins = sum(playout(game, player, seed + k).won for k in range(games))
    return WinRate(wins, games)
