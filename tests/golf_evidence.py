"""Golf's cheap evidence, seed by seed, as digests to hold a faster solver to the same
answers (tests/test_golf_evidence.py).

``tests/data/golf_evidence.json`` holds, for two sets of 2,000 seeds (seeds 0-1,999 and
the first 2,000 of public stream 3,000,000, the catalog benchmark's) of each variant, every
deal's certifying outcome and nodes and a digest of everything
:func:`patience.ratings.evidence.gather_many` returns for it: the native core's answer
(outcome, certificate, nodes, first moves that still win, legal first moves, every
playout) and the evidence's features, floats written exactly (``float.hex``). It was
written by the solver as it was before its per-search costs were cut (and before a first
move proven lost by the deal's own searches was no longer searched again), so a test that
compares against it compares against that solver, bit for bit.

    PYTHONPATH=python .venv/bin/python tests/golf_evidence.py --write   # only to re-baseline
"""

from __future__ import annotations

import hashlib
import itertools
import json
import sys
from pathlib import Path
from typing import Any

from patience.catalog import CERTIFY_NODES, public_seed_stream
from patience.games import GAMES
from patience.ratings.evidence import gather_many, native_answers

REFERENCE = Path(__file__).parent / "data" / "golf_evidence.json"
COUNT = 2_000
STREAM = 3_000_000


def variant_name(wrap: bool) -> str:
    return "wrap" if wrap else "nowrap"


def seed_sets(wrap: bool, count: int = COUNT) -> dict[str, list[int]]:
    """The seed sets, by name: seeds 0 up, and the catalog benchmark's public stream."""
    stream = public_seed_stream("golf", {"wrap": wrap}, STREAM)
    return {"low": list(range(count)), "stream": list(itertools.islice(stream, count))}


def _exact(value: Any) -> Any:
    """``value`` with every float written exactly, for a digest."""
    if isinstance(value, float):
        return value.hex()
    if isinstance(value, dict):
        return {key: _exact(item) for key, item in sorted(value.items())}
    if isinstance(value, list | tuple):
        return [_exact(item) for item in value]
    return value


def answers(seeds: list[int], wrap: bool, chunk: int = 500) -> list[list[Any]]:
    """``[outcome, nodes, digest]`` for each seed's deal: the native core's answer and the
    evidence's features, through :func:`gather_many` as a catalog job calls it."""
    cls = GAMES["golf"]
    found: list[list[Any]] = []
    for at in range(0, len(seeds), chunk):
        games = [cls.from_seed(seed, {"wrap": wrap}) for seed in seeds[at : at + chunk]]
        raw = native_answers(
            cls,
            [game.native_position() for game in games],
            node_limit=CERTIFY_NODES["golf"],
            time_limit=600.0,
        )
        gathered = gather_many(games, node_limit=CERTIFY_NODES["golf"])
        for answer, item in zip(raw, gathered, strict=True):
            features = None if item.evidence is None else item.evidence.features
            text = json.dumps(_exact([answer, features, item.certificate]), sort_keys=True)
            digest = hashlib.sha256(text.encode()).hexdigest()[:16]
            found.append([answer[0], answer[2], digest])
    return found


def write() -> None:
    reference: dict[str, Any] = {}
    for wrap in (True, False):
        for name, seeds in seed_sets(wrap).items():
            reference[f"{variant_name(wrap)}/{name}"] = {
                "seeds": [seeds[0], seeds[-1]],
                "answers": answers(seeds, wrap),
            }
    REFERENCE.write_text(json.dumps(reference, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: golf_evidence.py --write (re-baselines the reference: see its docstring)")
    write()
