"""Ratings at catalog scale: cheap evidence, a learned model, and the full ladder where it
matters.

- :mod:`patience.ratings.evidence`: what the solver and the cheap players say of a deal;
- :mod:`patience.ratings.model`: the rating model files (LightGBM, versioned, checked);
- :mod:`patience.ratings.cheap`: how a catalog job rates a deal (:func:`rate_for_catalog`);
- :mod:`patience.ratings.training`: training sets of deals rated in full on a public stream;
- :mod:`patience.ratings.fit`: training a model, and how well cheap and full ratings agree.

The rating itself (the reference players, the score, the tiers) is :mod:`patience.rating`.
"""

from patience.ratings.cheap import FULL, MODEL, RatingPolicy, rate_for_catalog
from patience.ratings.model import ModelError, RatingModel, load_model, shipped_model

__all__ = [
    "FULL",
    "MODEL",
    "ModelError",
    "RatingModel",
    "RatingPolicy",
    "load_model",
    "rate_for_catalog",
    "shipped_model",
]
