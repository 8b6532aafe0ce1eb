"""Ratings at catalog scale: the rating model rates most deals, the full ladder a sample
and the deals near a tier's edge; every rating says how it was made; a model file that
cannot be used is refused with the reason."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from patience.catalog import CERTIFY_NODES, public_seed_stream, rated_again
from patience.dealkey import DealKey
from patience.games import GAMES, new_game
from patience.rating import NotCertifiedError, difficulty_score, rate, rating_version
from patience.ratings import FULL, ModelError, RatingPolicy, load_model, shipped_model
from patience.ratings.cheap import in_sample, rate_for_catalog, rate_many_for_catalog
from patience.ratings.evidence import RATING_FIRST_MOVES, FirstMoveSearch, gather, gather_many
from patience.ratings.model import model_file_name
from patience.ratings.training import refresh
from patience.store.catalog import generate, model_agreement
from patience.store.db import deals, make_engine, migrate

GOLF_WRAP = {"wrap": True}
CHEAP = RatingPolicy(full_share=0.0, edge_margin=0.0)
"""The model alone: no sample, no edges."""


def golf(seed: int) -> Any:
    return new_game("golf", seed=seed, variant=GOLF_WRAP)


def shipped() -> Any:
    model = shipped_model("golf", GOLF_WRAP)
    assert model is not None, "the package ships a Golf (wrap) rating model"
    return model


def test_the_cheap_path_gives_a_tier_and_records_the_model() -> None:
    model = shipped()
    rating = rate_for_catalog(golf(3), 3, node_limit=2_000_000, policy=CHEAP)
    assert rating is not None
    assert rating["method"] == "cheap"
    assert rating["model"] == model.version
    assert rating["version"] == rating_version("golf")
    assert 1 <= rating["tier"] <= 10
    # the strong player did not play: its progress is the model's
    assert set(rating["players"]) == {"random", "greedy"}
    assert set(rating["predicted"]) == {"hindsight"}
    progress = rating["progress"] | rating["predicted"]
    score = difficulty_score(progress, rating["first_moves"], rating["nodes"])
    assert rating["score"] == pytest.approx(score, abs=1e-5)
    # the evidence it shares with a full rating is the full rating's; its first moves are
    # searched as the model's features were
    full = rate(golf(3), seed=3)
    assert (rating["nodes"], rating["moves"]) == (full.nodes, full.moves)
    own = gather(golf(3), node_limit=2_000_000, first_moves=model.first_moves)
    assert rating["first_moves"] == pytest.approx(own.first_moves, abs=1e-6)
    if model.first_moves == RATING_FIRST_MOVES:
        assert rating["first_moves"] == pytest.approx(full.first_moves, abs=1e-6)
    assert rating["players"] == {p: full.players[p] for p in ("random", "greedy")}
    assert rate_for_catalog(golf(3), 3, node_limit=2_000_000, policy=CHEAP) == rating


def test_sampled_deals_get_the_full_rating_beside_the_models_verdict() -> None:
    model = shipped()
    rating = rate_for_catalog(golf(3), 3, node_limit=2_000_000, policy=RatingPolicy(full_share=1.0))
    cheap = rate_for_catalog(golf(3), 3, node_limit=2_000_000, policy=CHEAP)
    assert rating is not None
    assert cheap is not None
    assert rating["method"] == "full"
    assert rating["full_reason"] == "sample"
    assert rating["model"] == model.version
    assert (rating["model_score"], rating["model_tier"]) == (cheap["score"], cheap["tier"])
    full = rate(golf(3), seed=3).to_json()
    assert {k: rating[k] for k in full} == full  # the full ladder's rating, untouched


def test_deals_near_a_tiers_edge_get_the_full_rating() -> None:
    seeds = range(1, 40)
    cheap = {s: rate_for_catalog(golf(s), s, node_limit=2_000_000, policy=CHEAP) for s in seeds}
    model = shipped()
    found = {s: gather(golf(s), node_limit=2_000_000) for s in seeds if cheap[s] is not None}
    edges = {s: model.predict(e).edge for s, e in found.items()}
    near = min(edges, key=lambda s: edges[s] or 1.0)
    far = max(edges, key=lambda s: edges[s] or 0.0)
    margin = ((edges[near] or 0.0) + (edges[far] or 0.0)) / 2
    policy = RatingPolicy(full_share=0.0, edge_margin=margin)
    at_edge = rate_for_catalog(golf(near), near, node_limit=2_000_000, policy=policy)
    inside = rate_for_catalog(golf(far), far, node_limit=2_000_000, policy=policy)
    assert at_edge is not None
    assert inside is not None
    assert (at_edge["method"], at_edge["full_reason"]) == ("full", "edge")
    assert inside["method"] == "cheap"


# Deals of every game (a few of the slow ones), from a public stream of their own.
BATCHES = [("golf", GOLF_WRAP, 120), ("golf", {"wrap": False}, 40), ("klondike", {"draw": 3}, 12)]
BATCHES += [("klondike", {"draw": 1}, 6), ("expert", {}, 3), ("kansas", {}, 2)]


@pytest.mark.parametrize(("name", "variant", "count"), BATCHES)
def test_the_batched_evidence_is_the_per_deal_evidence(
    name: str, variant: dict[str, object], count: int
) -> None:
    """gather_many (one native call for the lot) gives, deal by deal, what gather gives,
    certified or not; and every certificate it gives, replayed by the engine of record,
    wins."""
    seeds = public_seed_stream(name, variant, 6)
    games = [GAMES[name].from_seed(next(seeds), variant) for _ in range(count)]
    many = gather_many(games, node_limit=CERTIFY_NODES[name])
    certified = 0
    for game, item in zip(games, many, strict=True):
        try:
            one = gather(game, node_limit=CERTIFY_NODES[name])
        except NotCertifiedError:
            assert item.evidence is None
            assert item.certificate == ()
            continue
        certified += 1
        assert item.evidence == one
        replay = game.copy()
        for move in item.certificate:
            replay.play(move)
        outcome = replay.outcome()
        assert outcome is not None
        assert outcome.won
        assert len(item.certificate) == one.moves
    assert certified > 0


def test_a_chunk_rated_at_once_gets_each_deals_own_rating() -> None:
    """A catalog job's chunk rated at once (the model's verdicts in one call, the sampled
    and edge deals in full) gets, seed by seed, the rating rate_for_catalog gives alone."""
    policy = RatingPolicy(full_share=0.1, edge_margin=0.0)
    seeds = [3_000 + k for k in range(30)]
    games = [golf(seed) for seed in seeds]
    many = rate_many_for_catalog(games, seeds, node_limit=2_000_000, policy=policy)
    one = [rate_for_catalog(golf(s), s, node_limit=2_000_000, policy=policy) for s in seeds]
    assert many == one
    methods = {rating["method"] for rating in many if rating is not None}
    assert methods == {"cheap", "full"}
    assert any(rating is None for rating in many)


def test_the_sample_is_chosen_by_seed_and_holds_its_share() -> None:
    picked = [seed for seed in range(20_000) if in_sample(seed, 0.05)]
    assert 0.04 < len(picked) / 20_000 < 0.06
    assert picked == [seed for seed in range(20_000) if in_sample(seed, 0.05)]


def test_a_catalog_job_records_how_each_deal_was_rated(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'catalog.sqlite3'}")
    migrate(engine)
    key = DealKey.fresh()
    policy = RatingPolicy(full_share=0.25)
    generate(engine, "golf", GOLF_WRAP, 8, key=key, stream=1, jobs=1, policy=policy)
    with engine.connect() as connection:
        ratings = [json.loads(r) for r in connection.execute(select(deals.c.rating)).scalars()]
        agreement = model_agreement(connection)
    version = shipped().version
    assert len(ratings) == 8
    assert {r["model"] for r in ratings} == {version}
    assert {r["method"] for r in ratings} <= {"cheap", "full"}
    for rating in ratings:
        sampled = in_sample(rating["seed"], 0.25)
        assert (rating["method"] == "full") >= sampled
        assert ("hindsight" in rating["players"]) == (rating["method"] == "full")
    both = [r for r in ratings if r["method"] == "full"]
    [figures] = agreement
    assert (figures.model, figures.cheap, figures.full) == (version, 8 - len(both), len(both))
    engine.dispose()

    env = os.environ | {"PATIENCE_DATABASE_URL": f"sqlite:///{tmp_path / 'catalog.sqlite3'}"}
    report = subprocess.run(
        [sys.executable, "-m", "patience.cli", "deals", "report", "--json"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert report.returncode == 0, report.stderr
    [models] = json.loads(report.stdout)["models"]
    assert (models["model"], models["cheap"], models["full"]) == (
        version,
        8 - len(both),
        len(both),
    )


def test_without_a_model_or_with_full_every_deal_is_rated_in_full() -> None:
    rating = rate_for_catalog(golf(3), 3, node_limit=2_000_000, policy=FULL)
    assert rating is not None
    assert (rating["method"], rating["model"]) == ("full", None)
    assert model_file_name("golf", {"wrap": False}) == "golf-no-wrap.json"


def _model_text(**changes: Any) -> str:
    data = json.loads(Path(shipped().source).read_text())
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("{not json", "not JSON"),
        ("[1, 2]", "not a JSON object"),
        (json.dumps({"format": "something else"}), "not a rating model of format"),
        ("FORMAT_ONLY", "is missing"),
        ("OLD_VERSION", "rating version 99"),
        ("WRONG_PLAYERS", "strong players"),
        ("EDITED", "SHA-256 does not match"),
        ("NOT_A_BOOSTER", "not a LightGBM model"),
        ("BAD_SHARE", "shares from 0 to 1"),
        ("BAD_FIRST_MOVES", "'first_moves'"),
        ("NO_NODES", "'first_moves'"),
    ],
)
def test_bad_model_files_are_refused_with_the_reason(
    tmp_path: Path, text: str, reason: str
) -> None:
    garbage = "tree\nnonsense"
    made = {
        "FORMAT_ONLY": lambda: json.dumps({"format": "patience-rating-model/1"}),
        "OLD_VERSION": lambda: _model_text(rating_version=99),
        "WRONG_PLAYERS": lambda: _model_text(strong_players=["random"]),
        "EDITED": lambda: _model_text(booster="tree\n"),
        "NOT_A_BOOSTER": lambda: _model_text(
            booster=garbage, booster_sha256=hashlib.sha256(garbage.encode()).hexdigest()
        ),
        "BAD_SHARE": lambda: _model_text(full_share=5.0),
        "BAD_FIRST_MOVES": lambda: _model_text(first_moves={"nodes": 5000}),
        "NO_NODES": lambda: _model_text(
            first_moves={"nodes": 0, "shared": True, "undecided_win": False}
        ),
    }
    path = tmp_path / "model.json"
    path.write_text(made[text]() if text in made else text)
    with pytest.raises(ModelError, match=reason):
        load_model(path)


def test_a_model_reads_the_evidence_its_features_were_gathered_with(tmp_path: Path) -> None:
    """A model file that names no search of the first moves (as golf-wrap-1's) reads the
    full rating's; one that names one reads it, and a catalog job gathers so."""
    data = json.loads(Path(shipped().source).read_text())
    data.pop("first_moves", None)
    older = tmp_path / "older.json"
    older.write_text(json.dumps(data))
    assert load_model(older).first_moves == RATING_FIRST_MOVES
    cheap = FirstMoveSearch(5_000, shared=True)
    newer = tmp_path / "newer.json"
    newer.write_text(json.dumps(data | {"first_moves": cheap.to_json()}))
    assert load_model(newer).first_moves == cheap
    for path, search in ((older, RATING_FIRST_MOVES), (newer, cheap)):
        policy = RatingPolicy(full_share=0.0, edge_margin=0.0, model_path=str(path))
        rating = rate_for_catalog(golf(11), 11, node_limit=2_000_000, policy=policy)
        assert rating is not None
        own = gather(golf(11), node_limit=2_000_000, first_moves=search)
        assert rating["first_moves"] == round(own.first_moves, 6)
        (many,) = rate_many_for_catalog([golf(11)], [11], node_limit=2_000_000, policy=policy)
        assert many == rating


def test_first_moves_searched_sharing_a_table() -> None:
    """The searches of a deal's first moves sharing one table (Golf): what the core gives
    in one call for many deals is what it gives deal by deal; within the full rating's
    budget it finds every first move the rating finds winning (and perhaps some the
    rating's own searches leave undecided); within a small budget it finds fewer, and
    counting the undecided as winning more."""
    seeds = list(range(40))
    games = [golf(seed) for seed in seeds]
    searches = {
        "rating": RATING_FIRST_MOVES,
        "shared": FirstMoveSearch(shared=True),
        "small": FirstMoveSearch(300, shared=True),
        "small, undecided win": FirstMoveSearch(300, shared=True, undecided_win=True),
        "small alone, undecided win": FirstMoveSearch(300, undecided_win=True),
    }
    found: dict[str, list[float]] = {}
    for label, search in searches.items():
        many = gather_many(games, node_limit=CERTIFY_NODES["golf"], first_moves=search)
        shares = []
        for game, item in zip(games, many, strict=True):
            if item.evidence is None:
                continue
            one = gather(game, node_limit=CERTIFY_NODES["golf"], first_moves=search)
            assert item.evidence == one, label
            assert one.features["first_moves"] == one.first_moves
            shares.append(one.first_moves)
        found[label] = shares
    pairs = list(zip(found["rating"], found["shared"], strict=True))
    assert all(shared >= rating for rating, shared in pairs)
    assert sum(shared == rating for rating, shared in pairs) >= len(pairs) - 2
    small = found["small"]
    assert all(a <= b for a, b in zip(small, found["shared"], strict=True))
    assert small != found["shared"]
    assert all(a >= b for a, b in zip(found["small, undecided win"], small, strict=True))
    assert found["small, undecided win"] != small
    assert all(a > 0 for a in found["small alone, undecided win"])


def test_a_retired_model_still_rates_its_deals_again() -> None:
    """A deal a catalog rated with golf-wrap-1 (the model golf-wrap-2 replaced) is rated
    again by golf-wrap-1, kept in the package retired, as the catalog rated it."""
    retired = shipped_model("golf", GOLF_WRAP, "golf-wrap-1")
    assert retired is not None
    assert retired.version == "golf-wrap-1"
    assert retired.first_moves == RATING_FIRST_MOVES
    assert shipped_model("golf", GOLF_WRAP, shipped().version) is shipped()
    assert shipped_model("golf", {"wrap": False}, "golf-wrap-1") is None  # another variant's
    policy = RatingPolicy(full_share=0.0, edge_margin=0.0, model_path=retired.source)
    for seed in range(1, 30):
        rating = rate_for_catalog(golf(seed), seed, node_limit=2_000_000, policy=policy)
        if rating is None:
            continue
        assert rating["model"] == "golf-wrap-1"
        assert rated_again("golf", GOLF_WRAP, seed, "golf-wrap-1") == rating["tier"]


def test_only_golf_shares_a_table_among_the_first_moves() -> None:
    klondike = GAMES["klondike"].from_seed(3, {"draw": 3})
    with pytest.raises(ValueError, match="shares its table"):
        gather_many(
            [klondike],
            node_limit=CERTIFY_NODES["klondike"],
            first_moves=FirstMoveSearch(shared=True),
        )


def test_a_model_for_another_game_or_variant_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "model.json"
    path.write_text(_model_text())
    assert load_model(path, game="golf", variant=GOLF_WRAP).version == shipped().version
    with pytest.raises(ModelError, match="not golf"):
        load_model(path, game="golf", variant={"wrap": False})


def test_the_command_refuses_a_bad_model_and_changes_nothing(tmp_path: Path) -> None:
    database = tmp_path / "catalog.sqlite3"
    migrate(make_engine(f"sqlite:///{database}"))
    bad = tmp_path / "model.json"
    bad.write_text("{not json")
    env = os.environ | {
        "PATIENCE_DATABASE_URL": f"sqlite:///{database}",
        "PATIENCE_DEAL_KEY_FILE": str(tmp_path / "key"),
    }
    command = [sys.executable, "-m", "patience.cli", "deals", "generate", "golf", "--wrap"]
    answer = subprocess.run(
        [*command, "--count", "2", "--model", str(bad), "--quiet"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert answer.returncode == 1
    assert "is not a rating model: not JSON" in answer.stderr
    assert "Traceback" not in answer.stderr
    engine = make_engine(f"sqlite:///{database}")
    with engine.connect() as connection:
        assert connection.execute(select(deals.c.id)).first() is None
    engine.dispose()
    wrong = subprocess.run(
        [*command, "--count", "2", "--full", "--full-share", "0.1"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert wrong.returncode == 1
    assert "--full rates every deal in full" in wrong.stderr


UNCERTIFIED_GOLF_WRAP = 14
"""A Golf (wrap) seed the solver proves lost: no training set may hold it."""


def test_refresh_drops_a_deal_no_longer_certified_and_keeps_the_others(tmp_path: Path) -> None:
    """A row an older solver certified and today's does not (made here by giving a lost
    deal a real row's features and ratings) is dropped; the rows kept are unchanged."""
    source = Path(__file__).resolve().parent.parent / "benchmarks/rating-training/golf-wrap.jsonl"
    lines = source.read_text().splitlines(keepends=True)[:3]
    stale = json.loads(lines[0]) | {"seed": UNCERTIFIED_GOLF_WRAP}
    training = tmp_path / "training.jsonl"
    training.write_text(lines[0] + json.dumps(stale) + "\n" + "".join(lines[1:]))

    refreshed = refresh(training, "golf", GOLF_WRAP, jobs=1)

    assert refreshed.dropped == (UNCERTIFIED_GOLF_WRAP,)
    assert refreshed.changed == 0
    assert training.read_text() == "".join(
        json.dumps(json.loads(line), sort_keys=True) + "\n" for line in lines
    )
    again = refresh(training, "golf", GOLF_WRAP, jobs=1)
    assert not again  # nothing left to drop or change: the file is not written


def test_train_model_makes_a_model_the_catalog_can_use(tmp_path: Path) -> None:
    """From the first 40 deals of the shipped training set (rated in full already, so only
    the cheap evidence is gathered again), one of them replaced by a deal the solver no
    longer certifies: it is dropped, and a deal of the stream rated in its place."""
    source = Path(__file__).resolve().parent.parent / "benchmarks/rating-training/golf-wrap.jsonl"
    training = tmp_path / "training.jsonl"
    lines = source.read_text().splitlines(keepends=True)[:40]
    lines[5] = json.dumps(json.loads(lines[5]) | {"seed": UNCERTIFIED_GOLF_WRAP}) + "\n"
    training.write_text("".join(lines))
    written = tmp_path / "model.json"
    command = [sys.executable, "-m", "patience.cli", "deals", "train-model", "golf", "--wrap"]
    options = ["--training-set", str(training), "--count", "40", "--jobs", "1"]
    made = subprocess.run(
        [*command, *options, "--version", "golf-wrap-test", "--write", str(written)],
        capture_output=True,
        text=True,
    )
    assert made.returncode == 0, made.stderr
    assert f"were dropped (seeds {UNCERTIFIED_GOLF_WRAP})" in made.stderr
    summary = json.loads(made.stdout)
    assert "booster" not in summary  # the trees are in the file, not on the screen
    assert summary["training"]["deals"] == 40
    seeds = [json.loads(line)["seed"] for line in training.read_text().splitlines()]
    assert len(seeds) == 40
    assert UNCERTIFIED_GOLF_WRAP not in seeds
    model = load_model(written, game="golf", variant=GOLF_WRAP)
    assert model.version == "golf-wrap-test"
    assert model.data["training"]["sha256"] == hashlib.sha256(training.read_bytes()).hexdigest()
    policy = RatingPolicy(full_share=0.0, edge_margin=0.0, model_path=str(written))
    rating = rate_for_catalog(golf(3), 3, node_limit=2_000_000, policy=policy)
    assert rating is not None
    assert (rating["method"], rating["model"]) == ("cheap", "golf-wrap-test")

    refused = subprocess.run(
        [*command, *options, "--version", "Not A Version"], capture_output=True, text=True
    )
    assert refused.returncode == 1

    assert "a model's version is" in refused.stderr

    # features with the first moves searched another way: recorded in the model
    cheap = tmp_path / "cheap.json"
    search = ["--first-move-nodes", "5000", "--share-first-moves"]
    made = subprocess.run(
        [*command, *options, *search, "--version", "golf-wrap-cheap", "--write", str(cheap)],
        capture_output=True,
        text=True,
    )
    assert made.returncode == 0, made.stderr
    assert load_model(cheap).first_moves == FirstMoveSearch(5_000, shared=True)
    assert json.loads(made.stdout)["first_moves"] == {
        "nodes": 5000,
        "shared": True,
        "undecided_win": False,
    }
    klondike = [sys.executable, "-m", "patience.cli", "deals", "train-model", "klondike"]
    asked = ["--training-set", str(tmp_path / "k.jsonl"), "--version", "k-1"]
    refused = subprocess.run(
        [*klondike, *asked, "--share-first-moves"],
        capture_output=True,
        text=True,
    )
    assert refused.returncode == 1
    assert "does not share a table" in refused.stderr
    # the shipped Klondike training set holds ratings of Klondike's version 1: a model
    # trained on it would stand for a rating that is no longer Klondike's
    old = source.parent / "klondike-draw-3.jsonl"
    before = old.read_bytes()
    refused = subprocess.run(
        [*klondike, "--draw", "3", "--training-set", str(old), "--version", "k-1"],
        capture_output=True,
        text=True,
    )
    assert refused.returncode == 1
    assert "holds full ratings of rating version 1; Solitaire Rush is rated with version 2" in (
        refused.stderr
    )
    assert old.read_bytes() == before  # refused before anything was gathered or written


def _won_within(name: str, position: Any, nodes: int) -> bool:
    from patience import _core

    outcome, *_ = _core.solve(
        name, position, max_nodes=nodes, max_seconds=60.0, max_states=4 * nodes, wins_only=True
    )
    return bool(outcome == "solved")


def test_a_playout_is_followed_to_the_move_that_lost_the_deal() -> None:
    """``_core.still_won`` against a walk through the playout in Python, one search a
    position: the playout is the cheap player's own (the same moves as ``_core.playout``
    with its seed), the position after the moves it counts is won within the budget and
    the one after the next move is not."""
    from patience import _core
    from patience.ratings.evidence import STILL_WON_NODES

    seeds = public_seed_stream("klondike", {"draw": 3}, 7)
    followed = 0
    while followed < 6:
        game = GAMES["klondike"].from_seed(next(seeds), {"draw": 3})
        start = game.native_position()
        if not _won_within("klondike", start, 200_000):
            continue
        for player, seed in (("greedy", 1_000_003), ("random", followed)):
            _won, moves = _core.playout("klondike", start, player, seed, 500)
            [(kept, length)] = _core.still_won(
                "klondike", start, player, [seed], max_moves=500, max_nodes=STILL_WON_NODES
            )
            assert length == len(moves)
            assert 0 <= kept <= length
            positions = [start]
            for move in moves:
                positions.append(dict(_core.successors("klondike", positions[-1]))[move])
            assert kept == 0 or _won_within("klondike", positions[kept], STILL_WON_NODES)
            if kept < length:
                assert not _won_within("klondike", positions[kept + 1], STILL_WON_NODES)
            followed += 1


def test_klondike_evidence_follows_the_cheap_players_to_their_loss() -> None:
    """The share of its moves each cheap player made before the deal was lost is a feature
    of Klondike's evidence (its first 16 random playouts and its greedy one, those of the
    full rating), from 0 to 1; it reads the hidden cards, as certifying does: the solver
    judges each position with every card known, which a rating of a deal may (the players
    themselves see only what a person sees). Golf's evidence has no such feature."""
    from patience import _core
    from patience.rating import MAX_MOVES, _seeds
    from patience.ratings.evidence import STILL_WON_NODES

    game = GAMES["klondike"].from_seed(17, {"draw": 3})
    found = gather(game, node_limit=CERTIFY_NODES["klondike"])
    start = game.native_position()
    for player, index, count in (("random", 0, 16), ("greedy", 1, 1)):
        seeds = _seeds(0, index, 16)[:count]
        kept = _core.still_won(
            "klondike", start, player, seeds, max_moves=MAX_MOVES, max_nodes=STILL_WON_NODES
        )
        share = sum(k / n if n else 1.0 for k, n in kept) / count
        assert found.features[f"{player}_still_won"] == pytest.approx(share)
        assert 0.0 <= share <= 1.0
    assert not any("still_won" in name for name in gather(golf(5), node_limit=2_000_000).features)
