"""Tournaments (docs/architecture.md, layer 10): the same deal or deals of the same tier for
every entrant, standings with fair ties, and a commitment anyone can verify
(:mod:`.fairness`, docs/fairness.md)."""

from .core import RULE, CatalogShortError, Standing, TournamentError, Tournaments
from .fairness import SCHEME_VERSION, canonical, commitment, notices, rank_entries, verify

__all__ = [
    "RULE",
    "SCHEME_VERSION",
    "CatalogShortError",
    "Standing",
    "TournamentError",
    "Tournaments",
    "canonical",
    "commitment",
    "notices",
    "rank_entries",
    "verify",
]
