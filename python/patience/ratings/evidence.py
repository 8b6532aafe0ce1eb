"""The cheap evidence about a deal: what the solver and the cheap reference players say.

Everything here costs a few milliseconds a deal (certifying, the share of winning first
moves, the playouts of the players that do not search), against the best part of a second
for the strong player's playouts (:data:`patience.rating.PLAYOUTS`). :func:`gather` certifies
a deal and returns its :class:`Evidence`: the parts of a full rating that it shares exactly
(the solver's nodes and certificate, the first moves, the cheap players' playouts with the
very seeds :func:`patience.rating.rate` gives them) and numeric features for a learned model
(:mod:`patience.ratings.model`), among them structural ones read off the deal: low cards
buried, cards stacked on a lower card of their own suit, the ranks left for Golf's stock.

Every feature is a pure function of the deal, the node budget and the playout seed, so the
same deal gives the same features on every machine.

>>> from patience.games import new_game
>>> found = gather(new_game("golf", seed=5, variant={"wrap": True}), node_limit=2_000_000)
>>> sorted(found.progress), found.features["cert_moves"] == found.moves
(['greedy', 'random'], True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from patience import _core
from patience.games import Game
from patience.rating import (
    MAX_MOVES,
    PLAYOUTS,
    NotCertifiedError,
    _seeds,
    _winning_first_moves,
    players,
)
from patience.solve import solve

__all__ = ["CHEAP_PLAYERS", "Evidence", "feature_names", "gather", "rated_ladder", "strong_players"]

CHEAP_PLAYERS: Mapping[str, tuple[str, ...]] = {
    "golf": ("random", "greedy"),
    "klondike": ("random", "greedy"),
    "kansas": ("random", "greedy"),
    "expert": ("greedy",),
}
"""The reference players whose playouts are cheap (well under a millisecond a game): they
play in the cheap rating exactly as in the full one. The others (``hindsight``,
``rollout``, Solitaire Expert's ``lookahead`` and ``solver``) are what a model stands in
for."""


def rated_ladder(name: str) -> list[str]:
    """The reference players a full rating of game ``name`` plays, weakest first (those of
    :data:`patience.rating.PLAYOUTS`; a player that rates no deal is left out), in the order
    that gives each its playout seeds.

    >>> rated_ladder("golf")
    ['random', 'greedy', 'hindsight']
    """
    return [player for player in players(name) if player in PLAYOUTS[name]]


def strong_players(name: str) -> list[str]:
    """The rated players of ``name`` that are not cheap: what a rating model stands in for.

    >>> strong_players("expert")
    ['lookahead', 'solver']
    """
    return [player for player in rated_ladder(name) if player not in CHEAP_PLAYERS[name]]


@dataclass(frozen=True, slots=True)
class Evidence:
    """A certified deal's cheap evidence."""

    nodes: int
    """The solver's positions to find a win (as in :attr:`patience.rating.Rating.nodes`)."""
    moves: int
    """The certificate's length."""
    first_moves: float
    """The share of legal first moves after which the deal is still won."""
    rates: dict[str, float]
    """Each cheap player's share of playouts won."""
    progress: dict[str, float]
    """Each cheap player's mean progress (a win counts 1; Kansas: the share of cards home)."""
    playouts: dict[str, int]
    features: dict[str, float]
    """The model's inputs, by name (:func:`feature_names`)."""


def _cards_progress(name: str, moves: list[str]) -> float:
    """How far a playout got by its moves: the share of the cards it cleared (Golf: the 35
    table cards; Klondike, Kansas, Expert: cards sent home, of 52 or 104)."""
    if name == "golf":
        return sum(move.startswith("t") for move in moves) / 35
    home = sum(move.endswith(">f") or move.endswith(">h") for move in moves)
    return home / (104 if name == "expert" else 52)


def _rank(card: int) -> int:
    return card % 13 + 1


def _suit(card: int) -> int:
    return card // 13


def _golf_structure(position: tuple[Any, ...]) -> dict[str, float]:
    """Golf: how the 35 table cards chain to one another and what the stock holds."""
    wrap, columns, stock, start = position[0], position[1], position[2], position[3]

    def next_to(a: int, b: int) -> bool:
        gap = abs(_rank(a) - _rank(b))
        return gap == 1 or (bool(wrap) and gap == 12)

    chains = sum(next_to(col[i], col[i + 1]) for col in columns for i in range(len(col) - 1))
    tops = [col[-1] for col in columns if col]
    stock_ranks = [_rank(card) for card in stock]
    table_ranks = [_rank(card) for col in columns for card in col]
    features: dict[str, float] = {
        "golf_chains_in_columns": chains,
        "golf_tops_next_to_start": sum(next_to(card, start) for card in tops),
        "golf_tops_next_to_stock": sum(next_to(card, s) for card in tops for s in stock),
        "golf_kings_on_table": sum(rank == 13 for rank in table_ranks),
        "golf_kings_buried": sum(
            _rank(card) == 13 for col in columns for card in col[:-1]
        ),  # under another card: in a game without wrap a king ends a chain
        "golf_stock_distinct_ranks": len(set(stock_ranks)),
    }
    for rank in range(1, 14):
        features[f"golf_stock_rank_{rank}"] = stock_ranks.count(rank)
    return features


def _klondike_structure(position: tuple[Any, ...]) -> dict[str, float]:
    """Klondike: low cards buried, cards above a lower card of their suit, kings face down,
    and what the hand offers in its first pass."""
    draw, columns, face_down, hand = position[0], position[1], position[2], position[3]
    buried_aces = buried_twos = blocked = kings_down = 0
    for column, down in zip(columns, face_down, strict=True):
        for depth, card in enumerate(column):
            above = len(column) - 1 - depth
            if _rank(card) == 1:
                buried_aces += above
            elif _rank(card) == 2:
                buried_twos += above
            if _rank(card) == 13 and depth < down and depth > 0:
                kings_down += 1
            blocked += any(
                _suit(other) == _suit(card) and _rank(other) > _rank(card)
                for other in column[depth + 1 :]
            )
    step = max(1, int(draw))
    first_pass = [hand[i] for i in range(step - 1, len(hand), step)]
    tops = [column[-1] for column in columns if column]
    fits = sum(
        _rank(a) + 1 == _rank(b) and (_suit(a) in (0, 3)) != (_suit(b) in (0, 3))
        for a in tops
        for b in tops
    )
    return {
        "klondike_buried_aces": buried_aces,
        "klondike_buried_twos": buried_twos,
        "klondike_blocked_by_own_suit": blocked,
        "klondike_kings_face_down": kings_down,
        "klondike_first_pass_low": sum(_rank(card) <= 3 for card in first_pass),
        "klondike_aces_up": sum(_rank(card) == 1 for card in tops),
        "klondike_tops_that_fit": fits,
    }


_STRUCTURE = {"golf": _golf_structure, "klondike": _klondike_structure}


def _golf_redealt(position: tuple[Any, ...], rng: random.Random) -> tuple[Any, ...]:
    """Golf with its stock in another order (what a player cannot see)."""
    stock = list(position[2])
    rng.shuffle(stock)
    return (position[0], position[1], stock, *position[3:])


def _klondike_redealt(position: tuple[Any, ...], rng: random.Random) -> tuple[Any, ...]:
    """Klondike with its face-down cards and its hand dealt again among their places."""
    columns, face_down, hand = position[1], position[2], position[3]
    hidden = [
        card for column, down in zip(columns, face_down, strict=True) for card in column[:down]
    ]
    hidden += list(hand)
    rng.shuffle(hidden)
    cards = iter(hidden)
    again = [
        [next(cards) for _ in range(down)] + list(column[down:])
        for column, down in zip(columns, face_down, strict=True)
    ]
    return (position[0], again, face_down, [next(cards) for _ in hand], *position[4:])


_REDEALT: dict[str, Callable[[tuple[Any, ...], random.Random], tuple[Any, ...]]] = {
    "golf": _golf_redealt,
    "klondike": _klondike_redealt,
}

REDEALS: Mapping[str, int] = {"golf": 0, "klondike": 8}
"""How many times :func:`gather` deals the hidden cards again (Golf's stock; Klondike's
face-down cards and hand) and asks the solver whether the table still wins: a deal that
wins with most orders of what a player cannot see leaves a player less to luck. Not in
Golf: on 145 training deals it moved the model's agreement by 0.004 (within the noise) and
doubled the cost of the cheap evidence."""

REDEAL_NODES = 20_000
"""The solver's budget for each of those (an answer it cannot find counts as a loss)."""


def _redeals(name: str, position: tuple[Any, ...], seed: int) -> dict[str, float]:
    """The share of :data:`REDEALS` deals of the hidden cards that the solver wins within
    :data:`REDEAL_NODES` nodes, and their mean log nodes; seeded by the playout seed."""
    redealt = _REDEALT.get(name)
    count = REDEALS.get(name, 0)
    if redealt is None or count == 0:
        return {}
    rng = random.Random(seed)
    wins, effort = 0, 0.0
    for _ in range(count):
        outcome, _moves, nodes, _seconds, _reason = _core.solve(
            name,
            redealt(position, rng),
            max_nodes=REDEAL_NODES,
            max_seconds=60.0,
            max_states=4 * REDEAL_NODES,
            wins_only=True,
        )
        wins += outcome == "solved"
        effort += math.log10(1 + nodes)
    return {"redeals_won": wins / count, "redeals_log_nodes": effort / count}


def gather(
    game: Game, *, node_limit: int, playout_seed: int = 0, time_limit: float = 60.0
) -> Evidence:
    """Certify ``game`` (the solver looking for a win within ``node_limit`` nodes, its
    certificate replayed by the engine of record) and gather its cheap evidence; raises
    :class:`patience.rating.NotCertifiedError` when the solver does not win it. The cheap
    players play with the seeds :func:`patience.rating.rate` gives them for
    ``playout_seed``."""
    certified = solve(game, time_limit=time_limit, node_limit=node_limit, wins_only=True)
    if certified.outcome != "solved":
        raise NotCertifiedError(
            f"not certified: the solver answered {certified.outcome}"
            + (f" ({certified.reason})" if certified.reason else "")
        )
    position = game.native_position()
    ladder = rated_ladder(game.name)
    features: dict[str, float] = {
        "log_nodes": math.log10(1 + certified.nodes),
        "cert_moves": len(certified.moves),
    }
    rates, progress, counts = {}, {}, {}
    for index, player in enumerate(ladder):
        if player not in CHEAP_PLAYERS[game.name]:
            continue
        count = PLAYOUTS[game.name][player]
        wins, results, cleared, lengths = 0, 0.0, 0.0, 0
        for seed in _seeds(playout_seed, index, count):
            won, moves = _core.playout(game.name, position, player, seed, MAX_MOVES)
            wins += won
            share = _cards_progress(game.name, moves)
            results += 1.0 if won else (share if game.name == "kansas" else 0.0)
            cleared += 1.0 if won else share
            lengths += len(moves)
        rates[player] = wins / count
        progress[player] = results / count
        counts[player] = count
        features[f"{player}_wins"] = rates[player]
        features[f"{player}_cleared"] = cleared / count
        features[f"{player}_length"] = lengths / count
    first_moves = _winning_first_moves(game)
    features["first_moves"] = first_moves
    features["legal_first_moves"] = len(game.legal_moves())
    features.update(_redeals(game.name, position, playout_seed))
    structure = _STRUCTURE.get(game.name)
    if structure is not None:
        features.update(structure(position))
    return Evidence(
        nodes=certified.nodes,
        moves=len(certified.moves),
        first_moves=first_moves,
        rates=rates,
        progress=progress,
        playouts=counts,
        features=features,
    )


def feature_names(name: str) -> list[str]:
    """The names of the features :func:`gather` gives for game ``name``, in a fixed order
    (one deal's evidence is gathered to learn them)."""
    from patience.games import game_class

    variants: dict[str, dict[str, object]] = {"golf": {"wrap": True}, "klondike": {"draw": 3}}
    game = game_class(name).from_seed(1, variants.get(name, {}))
    for seed in range(1, 200):
        game = game_class(name).from_seed(seed, variants.get(name, {}))
        try:
            return list(gather(game, node_limit=200_000).features)
        except NotCertifiedError:
            continue
    raise AssertionError(f"no {name} deal of seeds 1-199 certified")  # pragma: no cover
