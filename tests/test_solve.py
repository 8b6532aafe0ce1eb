"""The native solvers of all four games through ``patience.solve``: certificates
replayed by the engine of record, the three outcomes, budgets, and the command line."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from layouts import solved_deal
from patience.games import GAMES, new_game
from patience.games.base import Outcome
from patience.games.golf import Golf
from patience.games.klondike import Klondike
from patience.solve import SOLVABLE_GAMES, CertificateError, _replayed, solve

PATIENCE = Path(sys.executable).parent / "patience"


@pytest.mark.parametrize("draw", [1, 3])
def test_certificates_replay_to_a_win(draw: int) -> None:
    solved = 0
    for seed in range(12):
        result = solve(Klondike.from_seed(seed, {"draw": draw}), node_limit=300_000)
        assert result.nodes > 0
        if result.outcome == "solved":
            solved += 1
            game = result.won_game()
            assert game.outcome() is not None
            assert game.outcome().won
            assert game.cards_on_foundation() == 52
    assert solved >= 6


@pytest.mark.parametrize("seed", [36_408, 39_230, 75_069, 95_401])
def test_draw_3_deals_a_withdrawn_rule_called_lost_are_won(seed: int) -> None:
    """Sending the talon's last card home without branching in draw 3 lost these wins (the
    100,000-deal rule check of docs/klondike-solver.md found them); each is won, its
    certificate replayed by the engine of record."""
    result = solve(Klondike.from_seed(seed, {"draw": 3}), time_limit=60)
    assert result.outcome == "solved"


def test_klondike_certificates_name_every_kind_of_move() -> None:
    # The native side names Klondike's moves from a table made once a process; these
    # deals' certificates hold every kind of move, and each replays in the engine of record.
    kinds = set()
    for seed, draw in [(1, 1), (11, 3), (19, 1), (53, 3), (2, 1), (5, 3)]:
        result = solve(Klondike.from_seed(seed, {"draw": draw}))
        assert result.outcome == "solved"
        assert result.won_game().outcome() == Outcome(won=True, reason="won")
        kinds |= {re.sub(r"\d", "N", re.sub(r"f:[cdhs]", "f:S", move)) for move in result.moves}
    assert kinds == {"draw", "recycle", "w>f", "w>tN", "tN>f", "tN>tN", "f:S>tN"}


def test_solving_from_the_middle_of_a_game() -> None:
    game = Klondike(solved_deal(), draw=1)
    for _ in range(5):
        game.play("draw")
    before = game.observation()
    result = solve(game)
    assert game.observation() == before  # the game itself is untouched
    assert result.outcome == "solved"
    assert result.won_game().outcome() is not None


def test_a_proven_unsolvable_deal() -> None:
    # found by `patience deals stats klondike --draw 3`: seed 4 cannot be won in draw 3
    result = solve(Klondike.from_seed(4, {"draw": 3}))
    assert result.outcome == "unsolvable"
    assert result.moves == ()
    with pytest.raises(ValueError, match="no certificate"):
        result.won_game()


def test_a_budget_gives_unknown_with_a_reason() -> None:
    result = solve(Klondike.from_seed(4, {"draw": 1}), node_limit=1000)
    assert result.outcome == "unknown"
    assert result.reason == "node limit"
    assert not result.decided


def test_a_broken_certificate_fails_loudly() -> None:
    game = Klondike.from_seed(2, {"draw": 1})
    result = solve(game)
    moves = list(result.moves)
    with pytest.raises(CertificateError, match="does not win"):
        _replayed(game, moves[:-1])
    with pytest.raises(CertificateError, match="was refused"):
        _replayed(game, ["t1>t1", *moves])


def test_every_game_has_a_solver() -> None:
    assert set(SOLVABLE_GAMES) == set(GAMES)


def test_expert_certificates_and_verdicts() -> None:
    # seeds found by `cargo run --release --example solve_seeds -- expert 0 20`
    won = solve(new_game("expert", seed=5))
    assert won.outcome == "solved"
    game = won.won_game()
    assert game.outcome() == Outcome(won=True, reason="won")
    assert game.cards_on_foundation() == 104
    assert solve(new_game("expert", seed=2)).outcome == "unsolvable"


def test_kansas_certificate_and_verdicts() -> None:
    # seeds found by `cargo run --release --example solve_seeds -- kansas 0 30`
    won = solve(new_game("kansas", seed=27))
    assert won.outcome == "solved"
    assert won.won_game().outcome() == Outcome(won=True, reason="won")
    assert won.won_game().score() == 52
    lost = solve(new_game("kansas", seed=5))
    assert lost.outcome == "unsolvable"
    assert solve(new_game("kansas", seed=0), node_limit=5000).reason == "node limit"


def test_kansas_looking_for_wins_only() -> None:
    # seed 1014 within 300,000 nodes: won by the best-first pass given them all, not by the
    # two passes that share them (the cargo test looking_for_wins_only_wins_more_deals...)
    game = new_game("kansas", seed=1014)
    assert solve(game, node_limit=300_000).outcome == "unknown"
    won = solve(game, node_limit=300_000, wins_only=True)
    assert won.outcome == "solved"
    assert won.won_game().score() == 52
    lost = solve(new_game("kansas", seed=5), wins_only=True)
    assert lost.outcome == "unsolvable"  # a pass that runs dry still proves the deal lost
    # the other games' solvers find wins first anyway: the same search either way
    golf = new_game("golf", seed=3)
    assert solve(golf, wins_only=True).nodes == solve(golf).nodes


def test_solve_command_looks_for_wins_only() -> None:
    command = [str(PATIENCE), "solve", "kansas", "--seed", "1014", "--node-limit", "300000"]
    runs = [
        subprocess.run(command + extra, capture_output=True, text=True, timeout=600)
        for extra in (["--json"], ["--json", "--wins-only"])
    ]
    assert [json.loads(run.stdout)["outcome"] for run in runs] == ["unknown", "solved"]


def test_the_table_of_positions_has_a_limit() -> None:
    # seed 0 is lost, proved so in 1.25 million nodes
    full = solve(new_game("kansas", seed=0), max_states=2000)
    assert (full.outcome, full.reason) == ("unknown", "transposition table full")
    assert solve(new_game("kansas", seed=0)).outcome == "unsolvable"  # the default is larger
    with pytest.raises(ValueError, match="limits must be positive"):
        solve(new_game("kansas", seed=0), max_states=0)


def test_kansas_solving_from_the_middle_of_a_game() -> None:
    game = new_game("kansas", seed=27)
    certificate = solve(game).moves
    for move in certificate[:60]:
        game.play(move)
    before = game.observation()
    result = solve(game)
    assert game.observation() == before
    assert result.outcome == "solved"
    assert result.won_game().score() == 52


def _golf_winnable(game: Golf) -> bool:
    """Exhaustive search with the engine of record (small positions only)."""
    outcome = game.outcome()
    if outcome is not None:
        return outcome.won
    for move in game.legal_moves():
        after = game.copy()
        after.play(move)
        if _golf_winnable(after):
            return True
    return False


@pytest.mark.parametrize("wrap", [False, True])
def test_golf_certificates_and_verdicts(wrap: bool) -> None:
    verdicts = set()
    for seed in range(16):
        result = solve(Golf.from_seed(seed, {"wrap": wrap}))
        assert result.decided, "Golf's search is exact: no budget is reached here"
        verdicts.add(result.outcome)
        if result.outcome == "solved":
            assert result.won_game().outcome() == Outcome(won=True, reason="won")
    assert verdicts == {"solved", "unsolvable"}


def test_golf_verdicts_match_an_exhaustive_search_of_the_engine() -> None:
    # late positions: random plays (a draw only when nothing plays) until 15 cards are left
    agreed = {True: 0, False: 0}
    for seed in range(60):
        game = Golf.from_seed(seed, {"wrap": seed % 2 == 1})
        rng = random.Random(seed)
        while (
            game.outcome() is None
            and 35 - game.cards_on_foundation() + len(game.hidden_cards()) > 15
        ):
            moves = game.legal_moves()
            plays = [move for move in moves if str(move) != "draw"]
            game.play(rng.choice(plays or moves))
        if game.outcome() is not None:
            continue
        exact = _golf_winnable(game)
        assert (solve(game).outcome == "solved") == exact, seed
        agreed[exact] += 1
    assert agreed[True], agreed
    assert agreed[False], agreed


def test_solve_command_json() -> None:
    run = subprocess.run(
        [str(PATIENCE), "solve", "klondike", "--draw", "3", "--seed", "7", "--json"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["outcome"] == "solved"
    assert data["variant"] == {"draw": 3}
    assert data["deal"] == [str(card) for card in Klondike.from_seed(7).deal]
    assert data["nodes"] > 0
    assert data["seconds"] >= 0
    record = {"game": "klondike", "variant": data["variant"], "deal": data["deal"]}
    replayed = subprocess.run(
        [str(PATIENCE), "replay", "-", "--json"],
        input=json.dumps(record | {"moves": data["moves"]}),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert json.loads(replayed.stdout)["won"] is True


def test_solve_command_bad_input() -> None:
    run = subprocess.run(
        [str(PATIENCE), "solve", "klondike", "--deal", "Ah Kd"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 1
    assert "52 cards" in run.stderr
    assert "Traceback" not in run.stderr


def test_deals_stats_names_the_undecided_seeds() -> None:
    """A budget of 300 nodes leaves most Expert deals undecided; the text and the JSON name
    exactly those seeds."""
    command = [str(PATIENCE), "deals", "stats", "expert", "--count", "6"]
    command += ["--node-limit", "300", "--jobs", "1"]
    data = json.loads(subprocess.run([*command, "--json"], capture_output=True, text=True).stdout)
    undecided = data["unknown_seeds"]
    assert len(undecided) == data["unknown"] >= 3
    for seed in undecided:
        result = solve(new_game("expert", seed=seed), node_limit=300)
        assert result.outcome == "unknown", seed
    text = subprocess.run(command, capture_output=True, text=True).stdout
    assert text.splitlines()[0] == "Solitaire Expert: seeds 0..5"
    assert "(budget 10 s and 300 nodes a deal)" in text
    assert f"undecided: seeds {' '.join(map(str, undecided))}" in text


def test_deals_stats_command() -> None:
    run = subprocess.run(
        [
            str(PATIENCE),
            "deals",
            "stats",
            "klondike",
            "--draw",
            "3",
            "--count",
            "6",
            "--time-limit",
            "0.5",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["deals"] == 6
    assert data["solved"] + data["unsolvable"] + data["unknown"] == 6
    assert len(data["unknown_seeds"]) == data["unknown"]
    assert set(data["unknown_seeds"]) <= set(range(6))
    assert data["unsolvable"] >= 1  # seed 4
    low, high = data["interval95"]
    assert 0 <= low <= data["winnable"] <= high <= 1
