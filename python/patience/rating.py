"""Reference players, how often they win, and a deal's difficulty rating.

Each game with reference players has a ladder of them, weakest first (:func:`players`).
A player sees only what a person sees: the native core hands it the game's observation and
what a person remembers of the cards already seen, never a face-down card or the order of
an unseen stock, and it is deterministic given a seed. Every game a player plays here is
replayed through the engine of record: a move it refuses raises :class:`PlayerError` (a
bug in the player, never a result).

A deal's :class:`Rating` (:func:`rate`) holds each reference player's win rate over seeded
playouts, the solver's features (its nodes to find a win, the certificate's length, the
share of first moves that still win), one difficulty score by the formula of
:func:`difficulty_score`, and a tier from 1 (easiest) to 10 (hardest): the score's decile
among the calibration deals of its game and variant (:func:`tier_of`). The players, the
formula and the calibration carry the game's rating version (:func:`rating_version`),
stored with every rated deal; a deal rated with an earlier version can still be rated again
with it (``rate(..., version=N)``), so that what was committed can be checked.

>>> from patience.games import new_game
>>> players("golf")
('random', 'greedy', 'hindsight')
>>> players("kansas")
('random', 'greedy', 'rollout', 'lookahead')
>>> rated_players("kansas"), rated_players("kansas", version=1)
(('random', 'greedy', 'lookahead'), ('random', 'greedy', 'rollout'))
>>> game = playout(new_game("golf", seed=1, variant={"wrap": True}), "greedy", seed=0)
>>> game.won, game.moves[:3]
(False, ('t4', 't6', 'draw'))
"""

from __future__ import annotations

import bisect
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from patience import _core
from patience.errors import PatienceError
from patience.games import GAMES, Game, game_class, variant_key
from patience.solve import solve

__all__ = [
    "DIFFICULTIES",
    "FIRST_MOVE_NODES",
    "INFORMATION",
    "PLAYER_GAMES",
    "PLAYOUTS",
    "RATING_VERSIONS",
    "NoPlayersError",
    "NotCertifiedError",
    "PlayerError",
    "Playout",
    "Rating",
    "UnknownRatingVersionError",
    "WinRate",
    "calibration",
    "calibration_entry",
    "choose",
    "decile_cuts",
    "difficulty_of",
    "difficulty_score",
    "is_rated",
    "players",
    "playout",
    "playouts_of",
    "rate",
    "rate_seed",
    "rated_players",
    "rating_version",
    "tier_of",
    "wilson_interval",
    "win_rate",
]

PLAYER_GAMES = tuple(name for name, cls in GAMES.items() if cls.playouts)
"""Games with reference players (:attr:`Game.playouts <patience.games.Game.playouts>`)."""

#: Moves a playout may take before it is stopped (a player that draws forever in a game
#: with unlimited passes through the stock loses).
MAX_MOVES = 500

RATING_VERSIONS: Mapping[str, int] = {
    name: cls.rating_version for name, cls in GAMES.items() if cls.playouts
}
"""The current version of each rated game's rating (:attr:`Game.rating_version
<patience.games.Game.rating_version>`): its rated players and their playouts, the score's
formula and the calibration. A rated deal keeps the version it was rated with; a change to
any of the three is a new version of that game's rating, never a silent change to old
ratings, and leaves the other games' ratings (and their rating models) as they were."""

DIFFICULTIES: Mapping[str, tuple[int, int]] = {
    "easy": (1, 3),
    "medium": (4, 6),
    "hard": (7, 8),
    "expert": (9, 10),
}
"""The difficulties players choose from, each a range of tiers (both ends included)."""


def difficulty_of(tier: int | None) -> str | None:
    """The difficulty whose tiers hold ``tier``.

    >>> difficulty_of(1), difficulty_of(7), difficulty_of(None)
    ('easy', 'hard', None)
    """
    for name, (low, high) in DIFFICULTIES.items():
        if tier is not None and low <= tier <= high:
            return name
    return None


PLAYOUTS: Mapping[str, Mapping[str, int]] = {
    name: cls.playouts for name, cls in GAMES.items() if cls.playouts
}
"""Playouts a deal is rated with, by game and player, as each game declares them
(:attr:`Game.playouts <patience.games.Game.playouts>`): the strong players cost 50 to 400 ms
a game, the others well under a millisecond, so a game's playouts of them are few, and
enough that two ratings of the same deals agree (with 4 Klondike playouts of its strong
player, two ratings of the same draw-3 deals agreed only to a Spearman 0.825). A player
a game lists but gives no playouts (Klondike's ``planner``: adding its playouts would change
every rating, a new rating version) rates no deal: it is measured against the published
players (``benchmarks/players.py``)."""


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


class UnknownRatingVersionError(PatienceError):
    """A rating version the game never had (or a later one than this patience knows)."""


def rating_version(name: str) -> int:
    """The current version of game ``name``'s rating.

    >>> rating_version("golf"), rating_version("kansas")
    (1, 2)
    """
    players(name)  # a game with no reference players has no rating: NoPlayersError
    return RATING_VERSIONS[name]


def playouts_of(name: str, version: int | None = None) -> Mapping[str, int]:
    """The rated players of game ``name`` and the playouts each gives a deal, in rating
    ``version`` (the current one by default); raises :class:`UnknownRatingVersionError`
    for a version the game never had.

    >>> dict(playouts_of("kansas", version=1))
    {'random': 16, 'greedy': 1, 'rollout': 8}
    """
    current = rating_version(name)
    if version is None or version == current:
        return PLAYOUTS[name]
    former = game_class(name).former_playouts
    if version not in former:
        known = ", ".join(str(v) for v in sorted([*former, current]))
        raise UnknownRatingVersionError(
            f"{name} has no rating version {version} (this patience rates it with version "
            f"{current}, and can rate again with {known})"
        )
    return former[version]


def rated_players(name: str, version: int | None = None) -> tuple[str, ...]:
    """The players a deal of game ``name`` is rated with in rating ``version`` (the current
    one by default), weakest first: the ladder of :func:`players` less those the version
    gives no playouts."""
    counts = playouts_of(name, version)
    return tuple(player for player in players(name) if player in counts)


def _check_player(game: Game, player: str) -> None:
    ladder = players(game.name)
    if player not in ladder:
        raise ValueError(f"no {game.name} player {player!r} (players: {', '.join(ladder)})")


def _check_seed(seed: int) -> None:
    if not 0 <= seed < 2**64:
        raise ValueError(f"a player's seed is an integer from 0 to 2**64 - 1, not {seed}")


INFORMATION: Mapping[str, tuple[str, ...]] = {name: cls.information for name, cls in GAMES.items()}
"""The models of information each game's players play under, as each game declares them
(:attr:`Game.information <patience.games.Game.information>`): ``person`` (what a person
sees: face-down cards, and a stock not yet turned through, unknown) for every game, and
others that published players assume (their win rates are measured that way)."""


def _check_information(game: Game, information: str) -> None:
    models = INFORMATION.get(game.name, ("person",))
    if information not in models:
        raise ValueError(
            f"no {game.name} model of information {information!r} (models: {', '.join(models)})"
        )


def choose(game: Game, player: str, seed: int, *, information: str = "person") -> str | None:
    """The move ``player`` makes from ``game``'s position (its randomness seeded by
    ``seed``, seeing what the model ``information`` shows), in notation; ``None`` when it
    has none."""
    _check_player(game, player)
    _check_seed(seed)
    _check_information(game, information)
    return _core.choose(game.name, game.native_position(), player, seed, information)


@dataclass(frozen=True, slots=True)
class Playout:
    """One game played by a reference player from a position, replayed by the engine of
    record."""

    player: str
    seed: int
    won: bool
    moves: tuple[str, ...]


def playout(
    game: Game,
    player: str,
    seed: int,
    *,
    max_moves: int = MAX_MOVES,
    information: str = "person",
) -> Playout:
    """``game`` played on from its position by ``player`` with seed ``seed`` until won, out
    of moves, or ``max_moves`` moves long, the player seeing what the model of information
    ``information`` shows (:data:`INFORMATION`); ``game`` itself is unchanged. Raises
    :class:`PlayerError` if the engine of record refuses a move or disagrees about the
    result."""
    _check_player(game, player)
    _check_seed(seed)
    _check_information(game, information)
    won, moves = _core.playout(
        game.name, game.native_position(), player, seed, max_moves, information
    )
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
        """The 95% Wilson score interval of the rate (:func:`wilson_interval`).

        >>> low, high = WinRate(0, 100).interval
        >>> round(low, 3), round(high, 3)
        (0.0, 0.037)
        """
        return wilson_interval(self.wins, self.games)


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default; Wilson, 1927): unlike
    the normal approximation it stays within 0 and 1 and is sound at rates near either.

    >>> low, high = wilson_interval(820, 1000)
    >>> round(low, 4), round(high, 4)
    (0.795, 0.8426)
    """
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def win_rate(game: Game, player: str, *, games: int, seed: int = 0) -> WinRate:
    """How often ``player`` wins ``game`` from its position in ``games`` playouts, seeded
    ``seed``, ``seed + 1``, ..."""
    if games <= 0:
        raise ValueError("a win rate needs at least one game")
    wins = sum(playout(game, player, seed + k).won for k in range(games))
    return WinRate(wins, games)


class NotCertifiedError(PatienceError):
    """The deal was not proved winnable within the budget, so it is not rated."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A certified deal's difficulty: the evidence and the verdict."""

    game: str
    variant: dict[str, object]
    seed: int | None
    version: int
    players: dict[str, float]
    """Each reference player's share of playouts won."""
    progress: dict[str, float]
    """Each reference player's mean progress over its playouts, a win counting 1: its
    share of playouts won in Klondike, Golf and Solitaire Expert, which are won or lost;
    in Kansas, whose own score counts the cards home and which a player who cannot see
    the stock seldom wins, the mean share of the 52 cards home."""
    playouts: dict[str, int]
    nodes: int
    """The solver's positions to find a win (looking for wins only)."""
    moves: int
    """The certificate's length: the moves a win needs at least as this solver found it."""
    first_moves: float
    """The share of the legal first moves after which the deal is still won."""
    score: float
    """0 (easiest) to 1 (hardest): :func:`difficulty_score`."""
    tier: int | None = field(default=None)
    """1 (easiest) to 10 (hardest), or None while the variant has no calibration."""

    def to_json(self) -> dict[str, Any]:
        """The rating as ``patience deals rate --json`` prints it."""
        return {
            "game": self.game,
            "variant": self.variant,
            "seed": self.seed,
            "version": self.version,
            "tier": self.tier,
            "score": round(self.score, 6),
            "players": {name: round(rate, 6) for name, rate in self.players.items()},
            "progress": {name: round(share, 6) for name, share in self.progress.items()},
            "playouts": self.playouts,
            "nodes": self.nodes,
            "moves": self.moves,
            "first_moves": round(self.first_moves, 6),
        }


def difficulty_score(progress: Mapping[str, float], first_moves: float, nodes: int) -> float:
    """The difficulty score of version 1, from 0 (easiest) to 1 (hardest)::

        0.8 * (mean over the ladder of 1 - progress)
      + 0.1 * (1 - share of first moves that still win)
      + 0.1 * min(1, log10(1 + solver nodes) / 7)

    Mostly how often the reference players lose, every player weighing the same (a deal
    the weak players lose and the strong one wins sits in the middle): a player's progress
    (:attr:`Rating.progress`) is its win rate but in Kansas, where it is the mean share of
    cards home. The two solver
    terms separate deals the players treat alike: a deal with few winning first moves, or
    whose win the solver had to search for, is harder.

    >>> round(difficulty_score({"a": 1.0, "b": 0.5}, 0.5, 999_999), 4)
    0.3357
    """
    if not progress:
        raise ValueError("a score needs at least one player's progress")
    loss = sum(1 - share for share in progress.values()) / len(progress)
    effort = min(1.0, math.log10(1 + nodes) / 7)
    return 0.8 * loss + 0.1 * (1 - first_moves) + 0.1 * effort


@cache
def calibration() -> dict[str, Any]:
    """The calibration shipped with the package (``calibration.json``): for each game, each
    of its rating versions (``"1"``, ``"2"``, ...) and each variant, the nine scores that
    cut its calibration deals into tenths, with how they were made."""
    text = resources.files("patience").joinpath("calibration.json").read_text()
    data: dict[str, Any] = json.loads(text)
    return data


def calibration_entry(
    name: str, variant: Mapping[str, object], version: int | None = None
) -> dict[str, Any] | None:
    """The calibration of game ``name`` and ``variant`` in rating ``version`` (the game's
    current one by default): its cut scores and how they were made; None when there is
    none.

    >>> len(calibration_entry("golf", {"wrap": True})["cuts"])
    9
    >>> calibration_entry("golf", {"wrap": "sometimes"}) is None
    True
    """
    if name not in PLAYER_GAMES:
        return None
    number = rating_version(name) if version is None else version
    versions = calibration().get("games", {}).get(name, {})
    entry: dict[str, Any] | None = versions.get(str(number), {}).get(variant_key(variant))
    return entry


def is_rated(name: str, variant: Mapping[str, object]) -> bool:
    """Whether deals of ``name`` and ``variant`` (checked) get tiers: the game has reference
    players and the variant a calibration in the game's current rating version."""
    return calibration_entry(name, variant) is not None


def decile_cuts(scores: Sequence[float]) -> list[float]:
    """The nine scores that cut ``scores`` into tenths, as a calibration keeps them (the
    score at each tenth of the sorted list; a tier of :func:`tier_of` holds the scores from
    one cut, included, to the next).

    >>> decile_cuts([k / 20 for k in range(20)])
    [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]
    """
    ordered = sorted(scores)
    return [ordered[(len(ordered) * k) // 10] for k in range(1, 10)]


def tier_of(
    name: str, variant: Mapping[str, object], score: float, version: int | None = None
) -> int | None:
    """The tier, 1 (easiest) to 10 (hardest), of a deal of ``name`` and ``variant`` with
    difficulty ``score`` in rating ``version`` (the game's current one by default): one more
    than the number of the calibration's cut scores at or below it, so each tier holds a
    tenth of the calibration deals. None when the variant has no calibration."""
    entry = calibration_entry(name, variant, version)
    if entry is None:
        return None
    return 1 + bisect.bisect_right(entry["cuts"], score)


def _seeds(playout_seed: int, player_index: int, count: int) -> list[int]:
    """The playout seeds of one player: distinct for every player and playout."""
    base = (playout_seed * 8 + player_index) * 1_000_003
    return [(base + k) % 2**64 for k in range(count)]


def rate(
    game: Game,
    *,
    playouts: Mapping[str, int] | None = None,
    playout_seed: int = 0,
    node_limit: int = 2_000_000,
    time_limit: float = 60.0,
    seed: int | None = None,
    version: int | None = None,
) -> Rating:
    """Certify and rate ``game`` from its position (a deal, usually), with rating
    ``version`` of its game (the current one by default; an earlier one rates a deal again
    as it was rated then, :class:`UnknownRatingVersionError` for one the game never had).

    The solver looks for a win (``wins_only``) within ``node_limit`` nodes (a node limit,
    not a time limit, so that a rating is the same on every machine; ``time_limit`` only
    guards against a runaway); a deal it does not win raises :class:`NotCertifiedError`.
    Each reference player then plays ``playouts[player]`` games from the position
    (the version's, :func:`playouts_of`, by default), seeded from ``playout_seed``; and every legal
    first move is solved again on a small budget for the share that still wins. ``seed`` is
    the deal's seed, kept in the rating.
    """
    number = rating_version(game.name) if version is None else version
    ladder = list(rated_players(game.name, number))
    counts = dict(playouts_of(game.name, number) if playouts is None else playouts)
    if set(counts) != set(ladder) or min(counts.values()) <= 0:
        raise ValueError(f"playouts are needed for each of {', '.join(ladder)}")
    certified = solve(game, time_limit=time_limit, node_limit=node_limit, wins_only=True)
    if certified.outcome != "solved":
        raise NotCertifiedError(
            f"not certified: the solver answered {certified.outcome}"
            + (f" ({certified.reason})" if certified.reason else "")
        )
    position = game.native_position()
    rates, progress = {}, {}
    for index, player in enumerate(ladder):
        results = _core.results(
            game.name, position, player, _seeds(playout_seed, index, counts[player]), MAX_MOVES
        )
        rates[player] = sum(result == 1.0 for result in results) / len(results)
        progress[player] = sum(results) / len(results)
    first_moves = _winning_first_moves(game)
    score = difficulty_score(progress, first_moves, certified.nodes)
    return Rating(
        game=game.name,
        variant=game.variant,
        seed=seed,
        version=number,
        players=rates,
        progress=progress,
        playouts=counts,
        nodes=certified.nodes,
        moves=len(certified.moves),
        first_moves=first_moves,
        score=score,
        tier=tier_of(game.name, game.variant, score, number),
    )


FIRST_MOVE_NODES = 200_000
"""The solver's budget for each first move of :attr:`Rating.first_moves`."""


def _winning_first_moves(game: Game, node_limit: int = FIRST_MOVE_NODES) -> float:
    """The share of ``game``'s legal moves after which the solver still finds a win within
    ``node_limit`` nodes (a move it cannot decide counts as not winning)."""
    moves = game.legal_moves()
    if not moves:
        return 0.0
    won = 0
    for move in moves:
        after = game.copy()
        after.play(move)
        outcome = after.outcome()
        if outcome is not None:
            won += outcome.won
            continue
        answer = _core.solve(
            game.name,
            after.native_position(),
            max_nodes=node_limit,
            max_seconds=60.0,
            max_states=4 * node_limit,
            wins_only=True,
        )
        won += answer[0] == "solved"
    return won / len(moves)


def rate_seed(name: str, variant: Mapping[str, object], seed: int, **options: Any) -> Rating:
    """:func:`rate` for the deal of ``seed`` of game ``name`` and ``variant``."""
    game = game_class(name).from_seed(seed, dict(variant))
    return rate(game, seed=seed, **options)
