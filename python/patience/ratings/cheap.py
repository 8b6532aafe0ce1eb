"""Rating catalog deals at catalog scale: the model on most deals, the full ladder on a
sample and near the tiers' edges.

:func:`rate_for_catalog` certifies a deal and gathers its cheap evidence
(:func:`patience.ratings.evidence.gather`, a few milliseconds). Where the game and variant
have a rating model (:func:`patience.ratings.model.shipped_model`) and the policy allows it,
the model predicts the strong players' progress and so the score and tier: a *cheap*
rating. The deal is rated in full instead (:func:`patience.rating.rate`, the best part of a
second) when

- it falls in the job's sample: a share (:attr:`RatingPolicy.full_share`, by default the
  model's) of deals chosen by a hash of the seed, so a job run again picks the same ones and
  the catalog stays the same; these measure the model's agreement (``patience deals
  report``);
- or the model places it within :attr:`RatingPolicy.edge_margin` of a tier's edge, where a
  small error would change its tier.

Every rating records how it was made: ``method`` (``cheap`` or ``full``), ``model`` (the
model's version, None when there was none), and for a full rating made beside the model,
the model's own verdict (``model_score``, ``model_tier``) and why it was rated in full
(``full_reason``: ``sample`` or ``edge``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from patience.cards import fnv1a64
from patience.games import Game
from patience.rating import NotCertifiedError, rate, rating_version
from patience.ratings.evidence import Evidence, gather, gather_many
from patience.ratings.model import Prediction, RatingModel, load_model, shipped_model

__all__ = [
    "FULL",
    "MODEL",
    "RatingPolicy",
    "in_sample",
    "rate_for_catalog",
    "rate_many_for_catalog",
]


@dataclass(frozen=True, slots=True)
class RatingPolicy:
    """How a catalog job rates its deals (plain values, to cross processes)."""

    use_model: bool = True
    """Rate with the model where there is one; False rates every deal in full."""
    full_share: float | None = None
    """The share of deals rated in full as a sample (None: the model's own)."""
    edge_margin: float | None = None
    """How near a tier's edge (in score) the model's verdict sends a deal to the full
    ladder (None: the model's own)."""
    model_path: str | None = None
    """A model file to use instead of the shipped one."""
    model_version: str | None = None
    """The version of the shipped model to use (the current one, or one it replaced);
    None: the current one. A policy without such a model rates in full."""

    def __post_init__(self) -> None:
        for name in ("full_share", "edge_margin"):
            value = getattr(self, name)
            if value is not None and not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} is a share from 0 to 1, not {value}")

    def model(self, game: Game) -> RatingModel | None:
        """The model this policy rates ``game``'s deals with, if any."""
        if not self.use_model:
            return None
        if self.model_path is not None:
            return _loaded(self.model_path, game.name, game.variant)
        return shipped_model(game.name, game.variant, self.model_version)


MODEL = RatingPolicy()
"""The default: the model where there is one, its sample and edges rated in full."""
FULL = RatingPolicy(use_model=False)
"""Every deal rated in full."""

_models: dict[tuple[str, str], RatingModel] = {}


def _loaded(path: str, name: str, variant: dict[str, object]) -> RatingModel:
    key = (path, name)
    if key not in _models:
        _models[key] = load_model(path, game=name, variant=variant)
    return _models[key]


def in_sample(seed: int, share: float) -> bool:
    """Whether the deal of ``seed`` is in a job's sample of ``share`` of its deals: a hash
    of the seed, so the same deals every run.

    >>> sum(in_sample(seed, 0.05) for seed in range(10_000))
    468
    >>> in_sample(7, 0.0), in_sample(7, 1.0)
    (False, True)
    """
    return fnv1a64(f"patience-full-rating:{seed}".encode()) % 1_000_000 < share * 1_000_000


def rate_for_catalog(
    game: Game, seed: int, *, node_limit: int, policy: RatingPolicy = MODEL
) -> dict[str, Any] | None:
    """Certify ``game`` (the deal of ``seed``) within ``node_limit`` nodes and rate it as
    ``policy`` says; the rating as JSON (with ``method`` and ``model``), or None when the
    solver does not win the deal. :func:`rate_many_for_catalog` rates many deals at once
    and gives the same ratings."""
    model = policy.model(game)
    if model is None:
        return _full(game, seed, node_limit)
    try:
        evidence = gather(game, node_limit=node_limit, first_moves=model.first_moves)
    except NotCertifiedError:
        return None
    return _rated(game, seed, evidence, model.predict(evidence), model, policy, node_limit)


def rate_many_for_catalog(
    games: Sequence[Game], seeds: Sequence[int], *, node_limit: int, policy: RatingPolicy = MODEL
) -> list[dict[str, Any] | None]:
    """:func:`rate_for_catalog` for many deals of one game and variant (the deals of
    ``seeds``): with a model, their cheap evidence in one call into the native core
    (:func:`patience.ratings.evidence.gather_many`) and the model's verdicts in one call
    into LightGBM; the same ratings as :func:`rate_for_catalog` gives one by one."""
    if not games:
        return []
    model = policy.model(games[0])
    if model is None:
        return [_full(game, seed, node_limit) for game, seed in zip(games, seeds, strict=True)]
    gathered = gather_many(games, node_limit=node_limit, first_moves=model.first_moves)
    found = [item.evidence for item in gathered if item.evidence is not None]
    verdicts = iter(model.predict_many(found))
    return [
        None
        if item.evidence is None
        else _rated(game, seed, item.evidence, next(verdicts), model, policy, node_limit)
        for game, seed, item in zip(games, seeds, gathered, strict=True)
    ]


def _full(game: Game, seed: int, node_limit: int) -> dict[str, Any] | None:
    try:
        full = rate(game, seed=seed, node_limit=node_limit)
    except NotCertifiedError:
        return None
    return full.to_json() | {"method": "full", "model": None}


def _rated(
    game: Game,
    seed: int,
    evidence: Evidence,
    verdict: Prediction,
    model: RatingModel,
    policy: RatingPolicy,
    node_limit: int,
) -> dict[str, Any]:
    """A certified deal's rating from its cheap ``evidence`` and the model's ``verdict``:
    in full if it is in the sample or near a tier's edge, else the model's."""
    share = model.full_share if policy.full_share is None else policy.full_share
    margin = model.edge_margin if policy.edge_margin is None else policy.edge_margin
    reason = (
        "sample"
        if in_sample(seed, share)
        else "edge"
        if verdict.edge is not None and verdict.edge < margin
        else None
    )
    if reason is not None:
        full = rate(game, seed=seed, node_limit=node_limit)
        return full.to_json() | {
            "method": "full",
            "model": model.version,
            "model_score": round(verdict.score, 6),
            "model_tier": verdict.tier,
            "full_reason": reason,
        }
    return {
        "game": game.name,
        "variant": game.variant,
        "seed": seed,
        "version": rating_version(game.name),
        "method": "cheap",
        "model": model.version,
        "tier": verdict.tier,
        "score": round(verdict.score, 6),
        "players": {name: round(value, 6) for name, value in evidence.rates.items()},
        "progress": {name: round(value, 6) for name, value in evidence.progress.items()},
        "predicted": {name: round(verdict.strong, 6) for name in model.strong_players},
        "playouts": evidence.playouts,
        "nodes": evidence.nodes,
        "moves": evidence.moves,
        "first_moves": round(evidence.first_moves, 6),
    }
