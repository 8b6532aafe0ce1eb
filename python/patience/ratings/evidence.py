"""The cheap evidence about a deal: what the solver and the cheap reference players say.

Everything here costs a few milliseconds a deal (certifying, the share of winning first
moves, the playouts of the players that do not search), against the best part of a second
for the strong player's playouts (:data:`patience.rating.PLAYOUTS`). :func:`gather` certifies
a deal and returns its :class:`Evidence`: the parts of a full rating that it shares exactly
(the solver's nodes and certificate, the first moves, the cheap players' playouts with the
very seeds :func:`patience.rating.rate` gives them) and numeric features for a learned model
(:mod:`patience.ratings.model`), among them structural ones read off the deal: low cards
buried, cards stacked on a lower card of their own suit, the ranks left for Golf's stock;
and, for a game that asks (:attr:`patience.games.Game.still_won`), how far into each of a
cheap player's playouts the deal was still won (the solver judging each position with
every card known, as certifying does: a feature of the deal, which the players themselves
never see).

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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from patience import _core
from patience.games import GAMES, Game
from patience.rating import (
    FIRST_MOVE_NODES,
    MAX_MOVES,
    PLAYOUTS,
    NotCertifiedError,
    _seeds,
    _winning_first_moves,
    players,
)
from patience.solve import replayed, solve

__all__ = [
    "RATING_FIRST_MOVES",
    "Evidence",
    "FirstMoveSearch",
    "Gathered",
    "feature_names",
    "gather",
    "gather_many",
    "rated_ladder",
    "strong_players",
]


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
    cheap = GAMES[name].cheap_players
    return [player for player in rated_ladder(name) if player not in cheap]


@dataclass(frozen=True, slots=True)
class FirstMoveSearch:
    """How the cheap evidence searches a certified deal's legal first moves for the share
    that still win (:attr:`Evidence.first_moves`): each within ``nodes`` nodes, a move not
    decided within them counting as not winning (as in the full rating) or, with
    ``undecided_win``, as winning (not shown lost); and with ``shared`` the searches of one
    deal keeping one table of what the certifying search and those before them learnt, so
    that no position is searched out twice (``_core.evidence``'s ``share_first_moves``;
    for a game whose solver can, :attr:`patience.games.Game.shares_first_moves`). A model
    records the search its features were gathered with
    (:attr:`patience.ratings.model.RatingModel.first_moves`).

    >>> FirstMoveSearch.from_json(FirstMoveSearch(5_000, shared=True).to_json())
    FirstMoveSearch(nodes=5000, shared=True, undecided_win=False)
    """

    nodes: int = FIRST_MOVE_NODES
    shared: bool = False
    undecided_win: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.nodes, bool) or not isinstance(self.nodes, int) or self.nodes < 1:
            raise ValueError(
                f"a first move's search needs a whole number of nodes, not {self.nodes!r}"
            )
        for name in ("shared", "undecided_win"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name!r} is true or false, not {getattr(self, name)!r}")

    def to_json(self) -> dict[str, Any]:
        """As a model file keeps it."""
        return {"nodes": self.nodes, "shared": self.shared, "undecided_win": self.undecided_win}

    @classmethod
    def from_json(cls, data: Any) -> FirstMoveSearch:
        """From :meth:`to_json`'s form; ``ValueError`` for anything else."""
        if not isinstance(data, dict) or set(data) != {"nodes", "shared", "undecided_win"}:
            raise ValueError(
                "a first moves' search is {'nodes': N, 'shared': B, 'undecided_win': B}, "
                f"not {data!r}"
            )
        return cls(**data)


RATING_FIRST_MOVES = FirstMoveSearch()
"""The full rating's search of the first moves (:func:`patience.rating.rate`): each alone,
within :data:`patience.rating.FIRST_MOVE_NODES` nodes."""


@dataclass(frozen=True, slots=True)
class Evidence:
    """A certified deal's cheap evidence."""

    nodes: int
    """The solver's positions to find a win (as in :attr:`patience.rating.Rating.nodes`)."""
    moves: int
    """The certificate's length."""
    first_moves: float
    """The share of legal first moves after which the deal is still won (found so by the
    :class:`FirstMoveSearch` it was gathered with; the full rating's by default)."""
    rates: dict[str, float]
    """Each cheap player's share of playouts won."""
    progress: dict[str, float]
    """Each cheap player's mean progress (a win counts 1; Kansas: the share of cards home)."""
    playouts: dict[str, int]
    features: dict[str, float]
    """The model's inputs, by name (:func:`feature_names`)."""


REDEAL_NODES = 20_000
"""The solver's budget for each of those (an answer it cannot find counts as a loss)."""

STILL_WON_NODES = 300
"""The solver's budget for each position a cheap player's playout is followed through to
where it lost the deal (:attr:`patience.games.Game.still_won`; a position not won within
it counts as lost). Small on purpose: the strong player judges its moves by searches of a
few thousand nodes, and a table that needs more than a few hundred to be won is one it
can lose; 300, 1,000 and 3,000 nodes predicted its win rate alike in Klondike."""


def _redeals(name: str, position: tuple[Any, ...], seed: int) -> dict[str, float]:
    """The share of the game's :attr:`~patience.games.Game.redeals` deals of the hidden
    cards that the solver wins within :data:`REDEAL_NODES` nodes, and their mean log nodes;
    seeded by the playout seed. A deal that wins with most orders of what a player cannot
    see leaves a player less to luck."""
    cls = GAMES[name]
    count = cls.redeals
    if count == 0:
        return {}
    rng = random.Random(seed)
    wins, effort = 0, 0.0
    for _ in range(count):
        outcome, _moves, nodes, _seconds, _reason = _core.solve(
            name,
            cls.redealt(position, rng),
            max_nodes=REDEAL_NODES,
            max_seconds=60.0,
            max_states=4 * REDEAL_NODES,
            wins_only=True,
        )
        wins += outcome == "solved"
        effort += math.log10(1 + nodes)
    return {"redeals_won": wins / count, "redeals_log_nodes": effort / count}


def _cheap_ladder(name: str, playout_seed: int) -> list[tuple[str, list[int]]]:
    """The cheap players of game ``name``, each with the playout seeds
    :func:`patience.rating.rate` gives it for ``playout_seed``."""
    cheap = GAMES[name].cheap_players
    return [
        (player, _seeds(playout_seed, index, PLAYOUTS[name][player]))
        for index, player in enumerate(rated_ladder(name))
        if player in cheap
    ]


Played = tuple[bool, int, int, int | None]
"""One playout as evidence: whether it won, the cards its moves cleared (by the game's
:attr:`~patience.games.Game.cleared_moves`), its length in moves, and how many of them
were made before the deal was lost (None for a playout not followed that far:
:attr:`~patience.games.Game.still_won`)."""


def _still_won_counts(name: str, ladder: list[tuple[str, list[int]]]) -> list[int]:
    """How many of each cheap player's playouts are followed to where the deal was lost."""
    follow = GAMES[name].still_won
    return [min(follow.get(player, 0), len(seeds)) for player, seeds in ladder]


def _evidence(
    game: Game,
    position: tuple[Any, ...],
    *,
    nodes: int,
    moves: int,
    first_won: int,
    first_legal: int,
    playouts: Mapping[str, list[Played]],
    playout_seed: int,
) -> Evidence:
    """A certified deal's :class:`Evidence` from what the solver and the cheap players
    said of it (the one place :func:`gather` and :func:`gather_many` turn it into
    features, so the two give the same)."""
    cls = type(game)
    cards = cls.cleared_cards or 52 * cls.decks
    features: dict[str, float] = {"log_nodes": math.log10(1 + nodes), "cert_moves": moves}
    rates, progress, counts = {}, {}, {}
    for player, played in playouts.items():
        count = len(played)
        wins, results, cleared, lengths = 0, 0.0, 0.0, 0
        kept = []
        for won, counted, length, still in played:
            if still is not None:
                kept.append(still / length if length else 1.0)
            wins += won
            share = counted / cards
            results += 1.0 if won else (share if cls.rated_by_progress else 0.0)
            cleared += 1.0 if won else share
            lengths += length
        rates[player] = wins / count
        progress[player] = results / count
        counts[player] = count
        features[f"{player}_wins"] = rates[player]
        features[f"{player}_cleared"] = cleared / count
        features[f"{player}_length"] = lengths / count
        if kept:
            features[f"{player}_still_won"] = sum(kept) / len(kept)
    first_moves = first_won / first_legal if first_legal else 0.0
    features["first_moves"] = first_moves
    features["legal_first_moves"] = first_legal
    features.update(_redeals(game.name, position, playout_seed))
    features.update(cls.rating_features(position))
    return Evidence(
        nodes=nodes,
        moves=moves,
        first_moves=first_moves,
        rates=rates,
        progress=progress,
        playouts=counts,
        features=features,
    )


def gather(
    game: Game,
    *,
    node_limit: int,
    playout_seed: int = 0,
    time_limit: float = 60.0,
    first_moves: FirstMoveSearch = RATING_FIRST_MOVES,
) -> Evidence:
    """Certify ``game`` (the solver looking for a win within ``node_limit`` nodes, its
    certificate replayed by the engine of record) and gather its cheap evidence; raises
    :class:`patience.rating.NotCertifiedError` when the solver does not win it. The cheap
    players play with the seeds :func:`patience.rating.rate` gives them for
    ``playout_seed``; the first moves are searched as ``first_moves`` says (the full
    rating's search by default). The reference for :func:`gather_many`, which a catalog job
    uses (a search of the first moves that shares its table is the core's only, asked of it
    here for this deal alone)."""
    certified = solve(game, time_limit=time_limit, node_limit=node_limit, wins_only=True)
    if certified.outcome != "solved":
        raise NotCertifiedError(
            f"not certified: the solver answered {certified.outcome}"
            + (f" ({certified.reason})" if certified.reason else "")
        )
    position = game.native_position()
    starts, ends = type(game).cleared_moves
    playouts: dict[str, list[Played]] = {}
    ladder = _cheap_ladder(game.name, playout_seed)
    for (player, seeds), follow in zip(ladder, _still_won_counts(game.name, ladder), strict=True):
        playouts[player] = []
        still: list[int | None] = [None] * len(seeds)
        if follow:
            followed = _core.still_won(
                game.name,
                position,
                player,
                seeds[:follow],
                max_moves=MAX_MOVES,
                max_nodes=STILL_WON_NODES,
            )
            still[:follow] = [kept for kept, _length in followed]
        for seed, kept in zip(seeds, still, strict=True):
            won, moves = _core.playout(game.name, position, player, seed, MAX_MOVES)
            counted = sum(move.startswith(starts) or move.endswith(ends) for move in moves)
            playouts[player].append((won, counted, len(moves), kept))
    legal = len(game.legal_moves())
    if first_moves.shared or first_moves.undecided_win:
        (answer,) = _core.evidence(
            game.name,
            [position],
            max_nodes=node_limit,
            max_seconds=time_limit,
            max_states=type(game).budgets.solve_states,
            first_move_nodes=first_moves.nodes,
            players=[],
            max_moves=MAX_MOVES,
            prefixes=[],
            suffixes=[],
            share_first_moves=first_moves.shared,
            undecided_first_moves_win=first_moves.undecided_win,
        )
        first_won = int(answer[3])
    else:
        first_won = round(_winning_first_moves(game, first_moves.nodes) * legal)
    return _evidence(
        game,
        position,
        nodes=certified.nodes,
        moves=len(certified.moves),
        first_won=first_won,
        first_legal=legal,
        playouts=playouts,
        playout_seed=playout_seed,
    )


@dataclass(frozen=True, slots=True)
class Gathered:
    """One deal of :func:`gather_many`: its evidence, or None when the solver did not win
    it, and the certificate (the win's moves) when it did."""

    evidence: Evidence | None
    certificate: tuple[str, ...]
    nodes: int


def native_answers(
    cls: type[Game],
    positions: Sequence[Any],
    *,
    node_limit: int,
    playout_seed: int = 0,
    time_limit: float = 60.0,
    first_moves: FirstMoveSearch = RATING_FIRST_MOVES,
) -> list[Any]:
    """The native core's raw evidence (``_core.evidence``) for ``positions`` of game
    ``cls``, with the rating's budgets and cheap players and the first moves searched as
    ``first_moves`` says: what :func:`gather_many` reads, unreplayed (the tests keep
    digests of it)."""
    ladder = _cheap_ladder(cls.name, playout_seed)
    starts, ends = cls.cleared_moves
    answers: list[Any] = _core.evidence(
        cls.name,
        list(positions),
        max_nodes=node_limit,
        max_seconds=time_limit,
        max_states=cls.budgets.solve_states,
        first_move_nodes=first_moves.nodes,
        share_first_moves=first_moves.shared,
        undecided_first_moves_win=first_moves.undecided_win,
        players=ladder,
        max_moves=MAX_MOVES,
        prefixes=list(starts),
        suffixes=list(ends),
        still_won=_still_won_counts(cls.name, ladder),
        still_won_nodes=STILL_WON_NODES,
    )
    return answers


def gather_many(
    games: Sequence[Game],
    *,
    node_limit: int,
    playout_seed: int = 0,
    time_limit: float = 60.0,
    first_moves: FirstMoveSearch = RATING_FIRST_MOVES,
) -> list[Gathered]:
    """:func:`gather` for many deals of one game in one call into the native core
    (``_core.evidence``), which certifies each, solves each first move, and plays the
    cheap players' playouts, without crossing into Python per deal or per playout: the
    evidence :func:`gather` gives, at a fraction of its cost (the tests hold the two
    equal). Every certificate is then replayed by the engine of record, as :func:`solve`
    replays its own: a deal enters a catalog on a win the rules of record confirm, never
    on the core's word alone (:class:`patience.solve.CertificateError` if one fails)."""
    if not games:
        return []
    cls = type(games[0])
    if any(type(game) is not cls for game in games):
        raise ValueError("gather_many takes deals of one game")
    positions = [game.native_position() for game in games]
    ladder = _cheap_ladder(cls.name, playout_seed)  # (whose playouts the answers hold)
    answers = native_answers(
        cls,
        positions,
        node_limit=node_limit,
        playout_seed=playout_seed,
        time_limit=time_limit,
        first_moves=first_moves,
    )
    found = []
    for game, position, answer in zip(games, positions, answers, strict=True):
        outcome, certificate, nodes, first_won, first_legal, played = answer
        if outcome != "solved":
            found.append(Gathered(None, (), nodes))
            continue
        evidence = _evidence(
            game,
            position,
            nodes=nodes,
            moves=len(certificate),
            first_won=first_won,
            first_legal=first_legal,
            playouts={player: list(p) for (player, _), p in zip(ladder, played, strict=True)},
            playout_seed=playout_seed,
        )
        found.append(Gathered(evidence, replayed(game, list(certificate)), nodes))
    return found


def feature_names(name: str, variant: Mapping[str, object]) -> list[str]:
    """The names of the features :func:`gather` gives for deals of game ``name`` and
    ``variant``, in a fixed order (one deal's evidence is gathered to learn them).

    >>> feature_names("golf", {"wrap": True})[:2]
    ['log_nodes', 'cert_moves']
    """
    cls = GAMES[name]
    for seed in range(1, 200):
        try:
            return list(gather(cls.from_seed(seed, variant), node_limit=200_000).features)
        except NotCertifiedError:
            continue
    raise AssertionError("no deal of seeds 1-199 certified")  # pragma: no cover
