"""Training sets for the rating model: deals of a public stream, each with its cheap
evidence and its rating in full.

A training set is a JSON-lines file, one certified deal a line: its ``seed``, the cheap
evidence's ``features`` (:func:`patience.ratings.evidence.gather`) and its ``full`` ratings
(:meth:`patience.rating.Rating.to_json`, with playout seeds 0, 1, ...). Its seeds come from
a public stream (:func:`patience.catalog.public_seed_stream`), never a deal key's, so anyone
can make the same set again, and no deal a player competes on is in it.
:func:`collect` appends to the file as deals are rated, and goes on where a file left off.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from patience.batch import run
from patience.catalog import CERTIFY_NODES, public_seed_stream
from patience.games import game_class
from patience.rating import NotCertifiedError, rate
from patience.ratings.evidence import RATING_FIRST_MOVES, FirstMoveSearch, gather

__all__ = ["TRAINING_STREAM", "Refreshed", "collect", "digest", "read", "refresh"]

TRAINING_STREAM = 4_000_000
"""The public stream training sets come from by default: apart from the catalog jobs'
(keyed, 0 and up), the calibration's (1,000,000) and the studies' (2,000,000, 3,000,000)."""


def _training_row(
    task: tuple[str, dict[str, object], int, int, FirstMoveSearch],
) -> dict[str, Any] | None:
    name, variant, seed, ratings, first_moves = task
    game = game_class(name).from_seed(seed, dict(variant))
    limit = CERTIFY_NODES[name]
    try:
        evidence = gather(game, node_limit=limit, first_moves=first_moves)
    except NotCertifiedError:
        return None
    full = [
        rate(game, seed=seed, node_limit=limit, playout_seed=k).to_json() for k in range(ratings)
    ]
    return {"seed": seed, "features": evidence.features, "full": full}


def _features(task: tuple[str, dict[str, object], int, FirstMoveSearch]) -> dict[str, float] | None:
    name, variant, seed, first_moves = task
    game = game_class(name).from_seed(seed, dict(variant))
    try:
        return gather(game, node_limit=CERTIFY_NODES[name], first_moves=first_moves).features
    except NotCertifiedError:
        return None


@dataclass(frozen=True, slots=True)
class Refreshed:
    """What :func:`refresh` did to a training set: how many deals' features changed, and
    the seeds of the deals it dropped because the solver no longer certifies them within
    the catalog's budget (a row made by an older solver; no catalog would hold the deal
    now, so no model should learn from it). True when the file was written again."""

    changed: int
    dropped: tuple[int, ...]

    def __bool__(self) -> bool:
        return bool(self.changed or self.dropped)


def refresh(
    path: Path,
    name: str,
    variant: Mapping[str, object],
    *,
    jobs: int | None = None,
    first_moves: FirstMoveSearch = RATING_FIRST_MOVES,
) -> Refreshed:
    """Gather the cheap evidence of every deal of the training set ``path`` again (a few
    milliseconds a deal; the first moves searched as ``first_moves`` says) and write the
    file again if a feature changed (its full ratings are kept): so a model is always
    trained on the features this code gives. A deal the solver
    no longer certifies within the catalog's node limit is dropped from the file (a
    :func:`collect` after it tops the file up again).

    >>> bool(Refreshed(changed=0, dropped=())), bool(Refreshed(changed=0, dropped=(7,)))
    (False, True)
    """
    rows = read(path)
    tasks = [(name, dict(variant), int(row["seed"]), first_moves) for row in rows]
    fresh = list(run(_features, tasks, jobs=jobs))
    pairs = list(zip(rows, fresh, strict=True))
    dropped = tuple(int(row["seed"]) for row, features in pairs if features is None)
    changed = sum(
        1 for row, features in pairs if features is not None and row["features"] != features
    )
    refreshed = Refreshed(changed=changed, dropped=dropped)
    if refreshed:
        path.write_text(
            "".join(
                json.dumps(row | {"features": features}, sort_keys=True) + "\n"
                for row, features in pairs
                if features is not None
            )
        )
    return refreshed


def read(path: Path) -> list[dict[str, Any]]:
    """The rows of the training set ``path``."""
    with path.open() as lines:
        return [json.loads(line) for line in lines if line.strip()]


def digest(path: Path) -> str:
    """The SHA-256 of the training set ``path``, as the model records it."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def collect(
    path: Path,
    name: str,
    variant: Mapping[str, object],
    count: int,
    *,
    stream: int = TRAINING_STREAM,
    ratings: int = 1,
    jobs: int | None = None,
    progress: Callable[[int], None] | None = None,
    first_moves: FirstMoveSearch = RATING_FIRST_MOVES,
) -> int:
    """Make the training set ``path`` hold the first ``count`` certified deals of public
    stream ``stream`` of ``name`` and ``variant``, each rated in full ``ratings`` times
    (playout seeds 0, 1, ...), its features gathered with the first moves searched as
    ``first_moves`` says; rows already in the file are kept. How many rows it holds."""
    have = read(path) if path.exists() else []
    done = {row["seed"] for row in have}
    seeds = public_seed_stream(name, dict(variant), stream)
    rows = len(have)
    with path.open("a") as out:
        while rows < count:
            batch: list[int] = []
            while len(batch) < max(8, min(64, count - rows)):
                seed = next(seeds)
                if seed not in done:
                    batch.append(seed)
                done.add(seed)
            tasks = [(name, dict(variant), seed, ratings, first_moves) for seed in batch]
            for row in run(_training_row, tasks, jobs=jobs):
                if row is not None and rows < count:
                    out.write(json.dumps(row, sort_keys=True) + "\n")
                    rows += 1
            out.flush()
            if progress is not None:
                progress(rows)
    return rows
