"""Golf's cheap evidence is the same, bit for bit, as the solver gave before its search
was made cheaper: the certifying verdicts and nodes, the certificates, the first moves
that still win within their budget, every playout and every feature, on 2,000 seeds of
each of two sets of each variant (the reference: tests/golf_evidence.py)."""

from __future__ import annotations

import json

import pytest

from golf_evidence import REFERENCE, answers, seed_sets, variant_name

SETS = [(wrap, name) for wrap in (True, False) for name in ("low", "stream")]


def _compare(wrap: bool, name: str, count: int) -> None:
    reference = json.loads(REFERENCE.read_text())[f"{variant_name(wrap)}/{name}"]
    seeds = seed_sets(wrap)[name][:count]
    assert reference["seeds"][0] == seeds[0], "the seed set is the reference's"
    expected = reference["answers"][:count]
    found = answers(seeds, wrap)
    differing = [
        (seed, want, got)
        for seed, want, got in zip(seeds, expected, found, strict=True)
        if want != got
    ]
    assert not differing, f"{len(differing)} deals differ, first {differing[:3]}"
    # the reference holds both verdicts and easy and hard deals
    assert {outcome for outcome, _nodes, _digest in found} >= {"solved"}
    assert max(nodes for _outcome, nodes, _digest in found) > 10_000


@pytest.mark.parametrize(("wrap", "name"), SETS)
def test_the_first_deals_of_each_set_give_the_reference_evidence(wrap: bool, name: str) -> None:
    _compare(wrap, name, 150)


@pytest.mark.slow
@pytest.mark.parametrize(("wrap", "name"), SETS)
def test_every_reference_deal_gives_the_reference_evidence(wrap: bool, name: str) -> None:
    _compare(wrap, name, 2_000)
