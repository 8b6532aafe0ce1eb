"""The rating model: a learned stand-in for the strong reference players' playouts.

A model file is JSON: what the model is (``format``, ``model``: its version, e.g.
``golf-wrap-1``), what it rates (``game``, ``variant``, ``rating_version``), what it reads
(``features``, by name, from :func:`patience.ratings.evidence.gather`, and, when they
were not gathered with the full rating's search of the first moves, ``first_moves``: the
:class:`~patience.ratings.evidence.FirstMoveSearch` they were), what it predicts
(the mean progress of the ``strong_players`` of :data:`patience.rating.PLAYOUTS`: their
mean share of playouts won, or of cards home in Kansas), how the catalog job uses it
(``edge_margin``, ``full_share``), what it was trained on (``training``: the public stream,
the deals, the SHA-256 of the training set) and how well it did on deals it never saw
(``holdout``); and the model itself, ``booster``, a LightGBM model in LightGBM's own text
format with its SHA-256. Nothing in the file is executed: a file that is not such a model
is refused with :class:`ModelError`, which says why.

The models shipped with the package are in ``patience/ratings/models/``, one a game and
variant (:func:`shipped_model`); ``patience deals train-model`` makes them. A model a newer
one replaced stays in ``models/retired/``, as ``VERSION.json``, so that a catalog's deals
rated by it can still be rated again as they were (:func:`patience.catalog.rated_again`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from patience.errors import PatienceError
from patience.games import variant_key
from patience.rating import (
    calibration_entry,
    difficulty_score,
    players,
    rating_version,
    tier_of,
)
from patience.ratings.evidence import (
    RATING_FIRST_MOVES,
    Evidence,
    FirstMoveSearch,
    strong_players,
)

__all__ = [
    "FORMAT",
    "ModelError",
    "Prediction",
    "RatingModel",
    "load_model",
    "model_file_name",
    "shipped_model",
]

FORMAT = "patience-rating-model/1"
"""The ``format`` of a model file this package reads."""

_REQUIRED = {
    "format": str,
    "model": str,
    "game": str,
    "variant": dict,
    "rating_version": int,
    "features": list,
    "strong_players": list,
    "edge_margin": float,
    "full_share": float,
    "training": dict,
    "booster": str,
    "booster_sha256": str,
}


class ModelError(PatienceError):
    """A rating model file that cannot be used: not a model, damaged, or for another game,
    variant or rating version."""


@dataclass(frozen=True, slots=True)
class Prediction:
    """What a model says of a deal."""

    strong: float
    """The predicted mean progress of the strong players, 0 to 1."""
    score: float
    """The difficulty score with the strong players' progress predicted."""
    tier: int | None
    edge: float | None
    """How far the score lies from the nearest of the calibration's cut scores (None when
    the variant has no calibration)."""


class RatingModel:
    """A loaded, checked rating model (:func:`load_model`)."""

    def __init__(self, data: Mapping[str, Any], *, source: str) -> None:
        import lightgbm

        self.data = dict(data)
        self.source = source
        self.version: str = data["model"]
        self.game: str = data["game"]
        self.variant: dict[str, object] = data["variant"]
        self.features: list[str] = data["features"]
        self.strong_players: list[str] = data["strong_players"]
        self.edge_margin: float = data["edge_margin"]
        self.full_share: float = data["full_share"]
        self.first_moves: FirstMoveSearch = (
            FirstMoveSearch.from_json(data["first_moves"])
            if "first_moves" in data
            else RATING_FIRST_MOVES
        )
        """How the deals' first moves are searched for the evidence the model reads (the
        full rating's search when the file does not say)."""
        try:
            self._booster = lightgbm.Booster(model_str=data["booster"])
        except lightgbm.basic.LightGBMError as error:
            raise ModelError(f"{source}: the booster is not a LightGBM model: {error}") from None
        if self._booster.num_feature() != len(self.features):
            raise ModelError(
                f"{source}: the booster reads {self._booster.num_feature()} features, "
                f"the file names {len(self.features)}"
            )

    def predict(self, evidence: Evidence) -> Prediction:
        """The model's verdict on a deal from its cheap ``evidence``."""
        return self.predict_many([evidence])[0]

    def predict_many(self, found: list[Evidence]) -> list[Prediction]:
        """:meth:`predict` for many deals at once (one call into LightGBM).

        >>> shipped_model("golf", {"wrap": True}).predict_many([])
        []
        """
        import numpy as np

        if not found:
            return []

        try:
            rows = [[evidence.features[name] for name in self.features] for evidence in found]
        except KeyError as error:
            raise ModelError(f"{self.source}: the evidence has no feature {error}") from None
        raw = self._booster.predict(np.asarray(rows, dtype=float), num_threads=1)
        cuts = _cuts(self.game, self.variant)
        answers = []
        for evidence, value in zip(found, raw, strict=True):
            strong = min(1.0, max(0.0, float(value)))
            progress = dict(evidence.progress) | dict.fromkeys(self.strong_players, strong)
            score = difficulty_score(progress, evidence.first_moves, evidence.nodes)
            edge = None if cuts is None else min(abs(score - cut) for cut in cuts)
            answers.append(Prediction(strong, score, tier_of(self.game, self.variant, score), edge))
        return answers

    def near_edge(self, prediction: Prediction) -> bool:
        """Whether the predicted score lies within :attr:`edge_margin` of a tier's edge."""
        return prediction.edge is not None and prediction.edge < self.edge_margin


def _cuts(name: str, variant: Mapping[str, object]) -> list[float] | None:
    entry = calibration_entry(name, variant)
    return None if entry is None else list(entry["cuts"])


def _check(data: Any, source: str) -> None:
    if not isinstance(data, dict):
        raise ModelError(f"{source} is not a rating model: not a JSON object")
    if data.get("format") != FORMAT:
        raise ModelError(
            f"{source} is not a rating model of format {FORMAT} (it says {data.get('format')!r})"
        )
    for key, kind in _REQUIRED.items():
        value = data.get(key)
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise ModelError(f"{source}: {key!r} is missing or not a {kind.__name__}")
    try:
        players(data["game"])
    except PatienceError as error:
        raise ModelError(f"{source}: {error}") from None
    current = rating_version(data["game"])
    if data["rating_version"] != current:
        raise ModelError(
            f"{source} is a model of {data['game']}'s rating version "
            f"{data['rating_version']}; this patience rates it with version {current}"
        )
    strong = strong_players(data["game"])
    if data["strong_players"] != strong:
        raise ModelError(f"{source}: the strong players of {data['game']} are {strong}")
    if not all(isinstance(name, str) for name in data["features"]) or not data["features"]:
        raise ModelError(f"{source}: 'features' must be a list of names")
    if not 0.0 <= data["full_share"] <= 1.0 or not 0.0 <= data["edge_margin"] <= 1.0:
        raise ModelError(f"{source}: full_share and edge_margin are shares from 0 to 1")
    if "first_moves" in data:
        try:
            FirstMoveSearch.from_json(data["first_moves"])
        except ValueError as error:
            raise ModelError(f"{source}: 'first_moves': {error}") from None
    actual = hashlib.sha256(data["booster"].encode()).hexdigest()
    if actual != data["booster_sha256"]:
        raise ModelError(f"{source}: the booster's SHA-256 does not match (damaged or edited)")


def load_model(
    path: Path | str, *, game: str | None = None, variant: Mapping[str, object] | None = None
) -> RatingModel:
    """The rating model in the file ``path``, checked; with ``game`` and ``variant``, also
    that it rates them. Raises :class:`ModelError` with the reason when it cannot be used.

    >>> load_model("/nonexistent/model.json")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    patience.ratings.model.ModelError: cannot read the rating model ...: No such file or directory
    """
    source = str(path)
    try:
        text = Path(path).read_text()
    except OSError as error:
        raise ModelError(f"cannot read the rating model {source}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise ModelError(f"{source} is not a rating model: not text") from None
    try:
        data = json.loads(text)
    except ValueError as error:
        raise ModelError(f"{source} is not a rating model: not JSON ({error})") from None
    _check(data, source)
    if (game is not None and variant is not None) and (
        data["game"] != game or variant_key(data["variant"]) != variant_key(variant)
    ):
        raise ModelError(
            f"{source} rates {data['game']} {data['variant']}, not {game} {dict(variant)}"
        )
    return RatingModel(data, source=source)


def model_file_name(name: str, variant: Mapping[str, object]) -> str:
    """The file name of the shipped model of ``name`` and ``variant``.

    >>> model_file_name("klondike", {"draw": 3})
    'klondike-draw-3.json'
    >>> model_file_name("golf", {"wrap": True})
    'golf-wrap.json'
    """
    parts = [name]
    for key, value in sorted(variant.items()):
        if value is True:
            parts.append(key)
        elif value is False:
            parts.append(f"no-{key}")
        else:
            parts.append(f"{key}-{value}")
    return "-".join(parts) + ".json"


def shipped_model(
    name: str, variant: Mapping[str, object], version: str | None = None
) -> RatingModel | None:
    """The model shipped with the package for ``name`` and ``variant`` (checked), loaded once
    a process; None when there is none (those deals are rated in full). With ``version``,
    the shipped model of that version: the current one, or one it replaced (kept retired),
    None when the package has no such model.

    >>> shipped_model("golf", {"wrap": True}, "golf-wrap-1").version
    'golf-wrap-1'
    >>> shipped_model("golf", {"wrap": True}, "golf-wrap-0") is None
    True
    """
    current = _shipped(name, variant_key(variant))
    if version is None or (current is not None and current.version == version):
        return current
    return _retired(name, variant_key(variant), version)


@cache
def _shipped(name: str, key: str) -> RatingModel | None:
    variant = json.loads(key)
    folder = resources.files("patience.ratings").joinpath("models")
    entry = folder.joinpath(model_file_name(name, variant))
    if not entry.is_file():
        return None
    with resources.as_file(entry) as path:
        return load_model(path, game=name, variant=variant)


@cache
def _retired(name: str, key: str, version: str) -> RatingModel | None:
    folder = resources.files("patience.ratings").joinpath("models", "retired")
    entry = folder.joinpath(f"{version}.json")
    if "/" in version or not entry.is_file():
        return None
    with resources.as_file(entry) as path:
        found = load_model(path)
    mine = found.game == name and variant_key(found.variant) == key
    return found if mine and found.version == version else None
