"""Does the rating model place deals as the full ladder does? The figures of docs/rating.md
on the cheap rating, for one game and variant.

    .venv/bin/python benchmarks/rating_model_study.py golf --wrap --holdout golf-holdout.jsonl

Rates the first ``--count`` certified deals of the study stream (2,000,000: the deals of
``rating_study.py``, neither the training set's nor a catalog job's) in full, twice with
``--twice`` (playout seeds 0 and 1), into the ``--holdout`` file (kept: a run goes on where
the file left off), then compares the shipped model's cheap rating of each (or the model of
``--model``) with the full ratings:

- agreement: Spearman's rank correlation of the scores, the share of deals in the same
  tier, and the deals whose tier moves by more than one; cheap against full, and (with
  ``--twice``) full against full, the yardstick;
- the catalog's rating as ``patience deals generate`` makes it (the model, the sample and
  the deals near an edge rated in full) against the *second* full rating, for a few
  margins: what a margin buys, and the share of deals it sends to the full ladder;
- the strong player's win rate per cheap tier, from playouts the model never saw (the
  second rating's with ``--twice``, else the first's), with 95% Wilson intervals.

With ``--folds K --holdout TRAINING_SET`` it instead cross-validates on a training set:
each fold's deals rated by a model trained on the other folds (``patience.ratings.fit``),
then the same figures (no second rating: a training set has one).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from common import game_and_variant  # benchmarks/common.py, beside this script
from patience.batch import wilson_interval
from patience.games import GAMES
from patience.rating import tier_of
from patience.ratings import RatingModel, load_model, shipped_model
from patience.ratings.cheap import in_sample
from patience.ratings.evidence import RATING_FIRST_MOVES, Evidence, FirstMoveSearch
from patience.ratings.fit import agreement, train
from patience.ratings.training import collect, read, refresh

STUDY_STREAM = 2_000_000


def _evidence(row: dict[str, Any], cheap: list[str]) -> Evidence:
    full = row["full"][0]
    return Evidence(
        nodes=full["nodes"],
        moves=full["moves"],
        # the evidence's own (the full rating's unless the model's features search the
        # first moves another way)
        first_moves=row["features"]["first_moves"],
        rates={p: full["players"][p] for p in cheap},
        progress={p: full["progress"][p] for p in cheap},
        playouts={p: full["playouts"][p] for p in cheap},
        features=row["features"],
    )


def _line(label: str, figures: Any) -> str:
    return (
        f"  {label:<34} Spearman {figures.spearman:.3f}; same tier {figures.same_tier:.1%}, "
        f"within one {figures.within_one:.1%}; moved by more than one: {figures.moved} of "
        f"{figures.deals} ({figures.moved / figures.deals:.1%})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=150)
    parser.add_argument("--holdout", type=Path, required=True)
    parser.add_argument("--twice", action="store_true", help="rate each deal in full twice")
    parser.add_argument("--model", type=Path, help="a model file (default: the shipped one)")
    parser.add_argument("--jobs", type=int)
    parser.add_argument("--folds", type=int, help="cross-validate on the file instead")
    known, variant = game_and_variant(parser, sorted(GAMES))
    name = known.game
    model = (
        load_model(known.model, game=name, variant=variant)
        if known.model
        else shipped_model(name, variant)
    )
    if known.folds:
        first_moves = RATING_FIRST_MOVES if model is None else model.first_moves
        verdicts, rows, fold = _cross_validated(
            name, variant, known.holdout, known.folds, first_moves
        )
        _figures(name, variant, fold, rows, verdicts, f"{known.folds}-fold cross-validation")
        return
    if model is None:
        sys.exit(f"no rating model for {name} {variant}")

    def fill() -> None:
        collect(
            known.holdout,
            name,
            variant,
            known.count,
            stream=STUDY_STREAM,
            ratings=2 if known.twice else 1,
            jobs=known.jobs,
            first_moves=model.first_moves,
        )

    fill()
    refreshed = refresh(
        known.holdout, name, variant, jobs=known.jobs, first_moves=model.first_moves
    )
    if refreshed.dropped:
        # deals an older solver certified and today's does not: others take their place
        print(f"dropped, no longer certified: {list(refreshed.dropped)}", file=sys.stderr)
        fill()
    rows = read(known.holdout)[: known.count]
    cheap_players = [p for p in rows[0]["full"][0]["players"] if p not in model.strong_players]
    verdicts = model.predict_many([_evidence(row, cheap_players) for row in rows])
    _figures(name, variant, model, rows, verdicts, f"stream {STUDY_STREAM}")


def _cross_validated(
    name: str, variant: dict[str, object], path: Path, folds: int, first_moves: FirstMoveSearch
) -> tuple[list[Any], list[dict[str, Any]], RatingModel]:
    """Each deal of the training set ``path`` judged by a model trained on the other folds
    (its features gathered with the first moves searched as ``first_moves`` says)."""
    refresh(path, name, variant, first_moves=first_moves)
    rows = read(path)
    verdicts: list[Any] = [None] * len(rows)
    for fold in range(folds):
        trained = [row for index, row in enumerate(rows) if index % folds != fold]
        data = train(
            name,
            variant,
            trained,
            version="a fold's",
            training={"stream": "the other folds'"},
            edge_margin=0.0,
            full_share=0.0,
            first_moves=first_moves,
        )
        model = RatingModel(data, source=f"fold {fold}")
        cheap = [p for p in rows[0]["full"][0]["players"] if p not in model.strong_players]
        for index in range(fold, len(rows), folds):
            verdicts[index] = model.predict(_evidence(rows[index], cheap))
    return verdicts, rows, model


def _figures(
    name: str,
    variant: dict[str, object],
    model: Any,
    rows: list[dict[str, Any]],
    verdicts: list[Any],
    where: str,
) -> None:
    first = [row["full"][0] for row in rows]
    twice = all(len(row["full"]) > 1 for row in rows)
    print(
        f"{GAMES[name].title} {variant}: model {model.version} on {len(rows)} deals ({where}; "
        f"the shipped model was trained on {model.data['training']['deals']} deals of stream "
        f"{model.data['training']['stream']})"
    )

    def compare(scores_a: list[float], tiers_a: list[Any], other: list[dict[str, Any]]) -> Any:
        return agreement(scores_a, [r["score"] for r in other], tiers_a, [r["tier"] for r in other])

    cheap_scores = [v.score for v in verdicts]
    cheap_tiers = [v.tier for v in verdicts]
    print(_line("cheap against full (rating 1)", compare(cheap_scores, cheap_tiers, first)))
    if twice:
        second = [row["full"][1] for row in rows]
        print(_line("cheap against full (rating 2)", compare(cheap_scores, cheap_tiers, second)))
        full_tiers = [r["tier"] for r in first]
        print(
            _line(
                "full against full (the yardstick)",
                compare([r["score"] for r in first], full_tiers, second),
            )
        )
        print("the catalog's rating (model; sample and edges in full) against full rating 2:")
        for share, margin in (
            (0.01, 0.0),
            (0.01, 0.001),
            (0.05, 0.0),
            (0.01, 0.005),
            (0.05, 0.01),
            (0.2, 0.02),
        ):
            routed = [
                in_sample(row["seed"], share) or (v.edge is not None and v.edge < margin)
                for row, v in zip(rows, verdicts, strict=True)
            ]
            scores = [
                r["score"] if full else v.score
                for r, v, full in zip(first, verdicts, routed, strict=True)
            ]
            tiers = [tier_of(name, variant, score) for score in scores]
            label = f"share {share:.0%}, margin {margin}: {sum(routed) / len(rows):.0%} in full"
            print(_line(label, compare(scores, tiers, second)))
    unseen = [row["full"][-1] for row in rows]
    print(
        "\nthe strong players' win rate per cheap tier, from playouts the model never saw "
        f"(full rating {len(rows[0]['full'])}), 95% intervals:"
    )
    for tier in range(1, 11):
        of_tier = [r for r, t in zip(unseen, cheap_tiers, strict=True) if t == tier]
        cells = []
        for player in model.strong_players:
            games = sum(r["playouts"][player] for r in of_tier)
            wins = round(sum(r["players"][player] * r["playouts"][player] for r in of_tier))
            low, high = wilson_interval(wins, games)
            rate = wins / games if games else 0.0
            cells.append(f"{player} {rate:6.1%} [{low:5.1%}, {high:5.1%}]")
        print(f"  tier {tier:2}: {len(of_tier):4} deals  " + "  ".join(cells))


if __name__ == "__main__":
    sys.exit(main())
