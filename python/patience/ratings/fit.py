"""Training a rating model from a training set, and how well two ratings agree.

:func:`train` fits a LightGBM regressor to the strong players' mean progress in the
deals' full ratings (:mod:`patience.ratings.training`), from their cheap evidence, and
returns the model file's contents (:mod:`patience.ratings.model`). LightGBM runs on one
thread with a fixed seed, so the same training set makes the same model.
:func:`agreement` compares two sets of scores and tiers of the same deals: Spearman's rank
correlation of the scores, and the shares of deals whose tier is the same, moves by one, or
moves by more.
"""

from __future__ import annotations

import datetime
import hashlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from patience.rating import rating_version
from patience.ratings.evidence import RATING_FIRST_MOVES, FirstMoveSearch, strong_players
from patience.ratings.model import FORMAT

__all__ = ["PARAMS", "Agreement", "agreement", "strong_progress", "train"]

PARAMS: Mapping[str, Any] = {
    "objective": "regression",
    "learning_rate": 0.03,
    "num_leaves": 8,
    "min_data_in_leaf": 15,
    "feature_fraction": 0.8,
    "bagging_fraction": 0.8,
    "bagging_freq": 1,
    "lambda_l2": 1.0,
    "num_threads": 1,
    "deterministic": True,
    "force_row_wise": True,
    "seed": 0,
    "verbosity": -1,
}
"""LightGBM's parameters: small trees, a slow rate, and bagging, for a few hundred noisy
targets (each the win rate of a few playouts)."""


@dataclass(frozen=True, slots=True)
class Agreement:
    """How two ratings of the same deals agree."""

    deals: int
    spearman: float
    same_tier: float
    """The share of deals with the same tier in both."""
    within_one: float
    """The share whose tiers differ by at most one."""
    moved: int
    """Deals whose tier moved by more than one."""

    def to_json(self) -> dict[str, Any]:
        """The figures as plain values, rounded."""
        return {
            key: (None if math.isnan(value) else round(value, 4))
            if isinstance(value, float)
            else value
            for key, value in asdict(self).items()
        }


def agreement(
    first: Sequence[float],
    second: Sequence[float],
    first_tiers: Sequence[int | None],
    second_tiers: Sequence[int | None],
) -> Agreement:
    """The agreement of two ratings of the same deals: their scores and tiers, in order
    (Spearman's correlation is NaN when either side's scores are all the same).

    >>> a = agreement([0.1, 0.2, 0.3, 0.4], [0.1, 0.3, 0.2, 0.4], [1, 2, 3, 4], [1, 3, 2, 7])
    >>> round(a.spearman, 6), a.same_tier, a.moved
    (0.8, 0.25, 1)
    """
    from scipy.stats import spearmanr  # type: ignore[import-untyped]

    if len(first) != len(second) or len(first) < 2:
        raise ValueError("agreement needs two ratings of the same two deals or more")
    rho = float(spearmanr(first, second).statistic)
    pairs = [(a, b) for a, b in zip(first_tiers, second_tiers, strict=True) if a and b]
    gaps = [abs(a - b) for a, b in pairs]
    count = max(1, len(gaps))
    return Agreement(
        deals=len(first),
        spearman=rho,
        same_tier=sum(gap == 0 for gap in gaps) / count,
        within_one=sum(gap <= 1 for gap in gaps) / count,
        moved=sum(gap > 1 for gap in gaps),
    )


def strong_progress(name: str, rating: Mapping[str, Any]) -> float:
    """The mean progress of the strong players in a full rating (those of
    :func:`~patience.ratings.evidence.strong_players`): what a model of ``name`` predicts."""
    strong = strong_players(name)
    progress = rating.get("progress", rating["players"])
    return float(sum(progress[p] for p in strong)) / len(strong)


def train(
    name: str,
    variant: Mapping[str, object],
    rows: Sequence[Mapping[str, Any]],
    *,
    version: str,
    training: Mapping[str, Any],
    edge_margin: float,
    full_share: float,
    rounds: int | None = None,
    first_moves: FirstMoveSearch = RATING_FIRST_MOVES,
) -> dict[str, Any]:
    """A model file's contents, trained on the training set ``rows`` (each a deal's
    ``features`` and its ``full`` ratings, the first the target). ``rounds`` of boosting,
    by default as many as five-fold cross-validation finds best (at most 2,000).
    ``first_moves`` is the search of the first moves the rows' features were gathered with,
    recorded in the file when it is not the full rating's (a catalog job then gathers its
    deals' evidence so)."""
    import lightgbm
    import numpy as np

    if len(rows) < 20:
        raise ValueError(f"a model needs 20 training deals or more, not {len(rows)}")
    features = sorted(rows[0]["features"])
    x = np.asarray([[row["features"][f] for f in features] for row in rows], dtype=float)
    y = np.asarray([strong_progress(name, row["full"][0]) for row in rows])
    data = lightgbm.Dataset(x, y, feature_name=features, free_raw_data=False)
    curve: list[float] | None = None
    if rounds is None:
        cv = lightgbm.cv(
            dict(PARAMS),
            data,
            num_boost_round=2000,
            nfold=5,
            stratified=False,
            seed=0,
            callbacks=[lightgbm.early_stopping(50, verbose=False)],
        )
        curve = [float(value) for value in cv["valid l2-mean"]]  # type: ignore[union-attr]
        rounds = len(curve)
    booster = lightgbm.train(dict(PARAMS), data, num_boost_round=rounds)
    text = booster.model_to_string()
    strong = strong_players(name)
    return {
        "format": FORMAT,
        "model": version,
        "game": name,
        "variant": dict(variant),
        "rating_version": rating_version(name),
        "target": f"mean progress of {', '.join(strong)} in the full rating",
        "strong_players": strong,
        "features": features,
        **({} if first_moves == RATING_FIRST_MOVES else {"first_moves": first_moves.to_json()}),
        "edge_margin": edge_margin,
        "full_share": full_share,
        "training": {
            **training,
            "deals": len(rows),
            "rounds": rounds,
            "cv_rmse": None if curve is None else round(curve[-1] ** 0.5, 4),
            "params": dict(PARAMS),
            "lightgbm": lightgbm.__version__,
            "made": datetime.date.today().isoformat(),
        },
        "booster": text,
        "booster_sha256": hashlib.sha256(text.encode()).hexdigest(),
    }
