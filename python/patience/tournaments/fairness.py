"""Fairness anyone can verify: the commitment a tournament publishes when it is created,
and the check of everything it reveals when it closes (docs/fairness.md).

The commitment is the SHA-256 of the tournament's *document*, a JSON object written in one
canonical way (keys sorted, no spaces, UTF-8): the rules it is played by, the versions of
the shuffle and the rating, its deals (seeds, as strings, with their tiers) and a secret
salt of 32 random bytes (hex), so that the hash tells nothing about the seeds before the
close. After the close the document is published whole; anybody can hash it again.

>>> doc = {"deals": [{"seed": "7", "tier": 3}], "salt": "00"}
>>> canonical(doc)
b'{"deals":[{"seed":"7","tier":3}],"salt":"00"}'
>>> commitment(doc)[:16]
'a512066a29465323'
"""

from __future__ import annotations

import bisect
import hashlib
import json
from collections.abc import Callable, Mapping
from typing import Any

import patience
from patience.errors import PatienceError
from patience.games import GAMES
from patience.rating import RATING_VERSIONS
from patience.records import GameRecord, replay

__all__ = ["SCHEME_VERSION", "canonical", "commitment", "notices", "rank_entries", "verify"]

SCHEME_VERSION = 3
"""The version of this scheme: the document's fields, its canonical form, the hash. 3: the
document keeps its creator's ``rating_witness`` and names its ``patience``; 2 had neither,
and a deal whose tier is a rating model's verdict names the model (``"model"``); 1 had no
such field, and its tiers are checked by the full rating."""


def canonical(document: Mapping[str, Any]) -> bytes:
    """The one byte string of ``document``: JSON, keys sorted, no spaces, UTF-8."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def commitment(document: Mapping[str, Any]) -> str:
    """The SHA-256 of the canonical ``document``, in hex."""
    return hashlib.sha256(canonical(document)).hexdigest()


def rank_entries(entries: list[dict[str, Any]]) -> list[int | None]:
    """The ranks of ``entries`` (each with ``score``, ``elapsed`` and ``finished_at`` of its
    best attempt, or a ``score`` of None): by score (higher first), then time used (less
    first), then who finished first; entries equal on all three share a rank, and one
    without a finished attempt has none.

    >>> rank_entries([{"score": 5, "elapsed": 9.0, "finished_at": 2.0},
    ...               {"score": 7, "elapsed": 9.0, "finished_at": 3.0},
    ...               {"score": 5, "elapsed": 9.0, "finished_at": 2.0},
    ...               {"score": None, "elapsed": None, "finished_at": None}])
    [2, 1, 2, None]
    """

    def key(entry: Mapping[str, Any]) -> tuple[float, float, float]:
        return (-entry["score"], entry["elapsed"], entry["finished_at"])

    keys = [None if e["score"] is None else key(e) for e in entries]
    ordered = sorted(k for k in keys if k is not None)
    # one more than the entries strictly ahead: where the first equal key sits, sorted
    return [None if mine is None else 1 + bisect.bisect_left(ordered, mine) for mine in keys]


def _is_version(value: object) -> bool:
    """Whether ``value`` is a rating version: a whole number of at least 1 (not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def _witness_problems(
    document: Mapping[str, Any],
    witness_of: Callable[[str, dict[str, Any], int, int | None], Mapping[str, Any]],
) -> list[str]:
    """Whether this patience rates the document's reference deal as its creator did
    (:func:`verify`); a witness that is not one is a problem too, never a traceback."""
    committed = document["rating_witness"]
    seed = committed.get("seed") if isinstance(committed, dict) else None
    if not (isinstance(seed, str) and seed.isdigit() and seed.isascii()):
        return [f"the document's rating_witness is not a rated deal: {committed!r}"]
    maker = document.get("patience")
    by = f"patience {maker}" if isinstance(maker, str) else "the patience"
    try:
        mine = dict(
            witness_of(document["game"], document["variant"], int(seed), document["rating_version"])
        )
    except PatienceError as error:
        mine = {"error": str(error)}
    if mine == committed:
        return []

    def said(witness: Mapping[str, Any]) -> str:
        if "error" in witness:
            return str(witness["error"])
        return ", ".join(f"{k} {witness.get(k)}" for k in ("nodes", "moves", "score", "tier"))

    return [
        f"this patience ({patience.__version__}) rates the reference deal, seed {seed}, "
        f"otherwise than {by} that committed the document did ({said(mine)} here; "
        f"{said(committed)} there): its tiers are not the committing patience's, so a tier "
        f"it disputes below may be its own doing; check the tiers with {by}"
    ]


def verify(
    published: Mapping[str, Any],
    *,
    tier_of: Callable[[str, dict[str, Any], int, str | None, int | None], int | None] | None = None,
    witness_of: Callable[[str, dict[str, Any], int, int | None], Mapping[str, Any]] | None = None,
) -> list[str]:
    """Check a closed tournament's publication (``GET /api/tournaments/{id}/verification``)
    and return what is wrong (nothing: it verifies):

    - the document hashes to the commitment published at the creation;
    - every deal's tier is what rating its seed gives, the way the catalog rated it
      (``tier_of(game, variant, seed, model, version)``, ``model`` the version of the rating
      model whose verdict the tier is, or None for the full rating, ``version`` the
      document's ``rating_version``; skipped when None; a
      :class:`patience.errors.PatienceError` it raises, such as a model it does not have,
      is a problem);
    - when the tiers are checked and the document keeps its creator's ``rating_witness``,
      this patience rates that reference deal the same (``witness_of(game, variant, seed,
      version)``, :func:`patience.catalog.rating_witness`): else its tiers are not the
      creator's, and that comes first among the problems, naming the creator's patience;
    - every attempt's record is of a committed deal and replays in the engine of record to
      the published score, and it finished by the close (the committed one, or the earlier
      one the publication states);
    - every entry's best attempt and rank follow from those scores by the published rule
      (a cancelled tournament ranks nobody).
    """
    problems: list[str] = []
    document = published["document"]
    if commitment(document) != published["commitment"]:
        problems.append("the document does not hash to the published commitment")
    closing = published.get("closing") or {}
    closed_at = document["closes_at"]
    if closing.get("at") is not None:
        if closing["at"] > document["closes_at"]:
            problems.append("the tournament closed after its committed closing time")
        closed_at = min(closed_at, closing["at"])
    cancelled = bool(closing.get("cancelled"))
    game, variant = document["game"], document["variant"]
    if game not in GAMES:
        return [*problems, f"no game {game!r}"]
    seeds = [int(deal["seed"]) for deal in document["deals"]]
    version = document.get("rating_version")
    if tier_of is not None and game in RATING_VERSIONS and not _is_version(version):
        problems.append(f"the document's rating_version is not a version number: {version!r}")
    elif tier_of is not None:
        if witness_of is not None and document.get("rating_witness") is not None:
            problems.extend(_witness_problems(document, witness_of))
        for deal, seed in zip(document["deals"], seeds, strict=True):
            model = deal.get("model")
            try:
                tier = tier_of(
                    game,
                    variant,
                    seed,
                    None if model is None else str(model),
                    version,
                )
            except PatienceError as error:
                problems.append(f"cannot check the tier of seed {seed}: {error}")
                continue
            if tier != deal["tier"]:
                how = "in full" if model is None else f"by rating model {model}"
                problems.append(f"seed {seed} is of tier {tier} rated {how}, not {deal['tier']}")
    best_of: list[dict[str, Any]] = []
    for entry in published["entries"]:
        best: dict[str, Any] | None = None
        for attempt in entry["attempts"]:
            where = f"{entry['name']}'s attempt {attempt['attempt']}"
            if attempt["finished_at"] is None or attempt["finished_at"] > closed_at:
                problems.append(f"{where} finished after the close, yet counts")
            index = attempt["deal"]
            if not 0 <= index < len(seeds):
                problems.append(f"{where} is of no committed deal")
                continue
            record = GameRecord.from_json(attempt["record"])
            expected = GAMES[game].from_seed(seeds[index], variant)
            if list(record.deal) != list(expected.deal) or record.variant != expected.variant:
                problems.append(f"{where} was not dealt committed deal {index}")
            result = replay(record)
            if result.error is not None:
                problems.append(f"{where} does not replay: {result.error.reason}")
            if result.score != attempt["score"]:
                problems.append(f"{where} replays to {result.score} points, not {attempt['score']}")
            mine = {
                "score": result.score,
                "elapsed": attempt["elapsed"],
                "finished_at": attempt["finished_at"],
            }
            if best is None or (-mine["score"], mine["elapsed"], mine["finished_at"]) < (
                -best["score"],
                best["elapsed"],
                best["finished_at"],
            ):
                best = mine
        best_of.append(best or {"score": None, "elapsed": None, "finished_at": None})
        if (best or {}).get("score") != entry["score"]:
            problems.append(f"{entry['name']}'s best score is not {entry['score']}")
    ranks = [None] * len(best_of) if cancelled else rank_entries(best_of)
    for entry, rank in zip(published["entries"], ranks, strict=True):
        if rank != entry["rank"]:
            problems.append(f"{entry['name']} ranks {rank}, not {entry['rank']}")
    return problems


def notices(published: Mapping[str, Any]) -> list[str]:
    """What a verified publication says that its reader should know: a close before the
    committed time (when, and by whom), or a cancellation.

    >>> notices({"document": {"closes_at": 1000}, "closing": {"at": 400, "committed": 1000,
    ...     "early": True, "by": "Ada", "cancelled": False}})
    ['closed early by Ada, 600 s before its committed close: games running then ended there']
    """
    closing = published.get("closing") or {}
    said = []
    if closing.get("early"):
        ahead = published["document"]["closes_at"] - closing["at"]
        said.append(
            f"closed early by {closing.get('by') or 'an operator'}, {ahead:.0f} s before its "
            "committed close: games running then ended there"
        )
    if closing.get("cancelled"):
        said.append("cancelled: nobody is ranked")
    return said
