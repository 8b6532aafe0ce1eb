"""A result's lines add up to the game's points in every game, undo included, and say what
scored."""

from __future__ import annotations

import random

import pytest

from patience.games import GAMES, new_game
from patience.records import GameRecord
from patience.scoring import score_lines
from patience.solve import solve


def _playout(name: str, variant: dict[str, object], seed: int) -> GameRecord:
    """A random game of up to 300 moves with undos among them (where the rules allow)."""
    game = new_game(name, seed=seed, variant=variant)
    chooser = random.Random(seed)
    moves: list[str] = []
    for _ in range(300):
        if game.is_over():
            break
        if game.can_undo() and chooser.random() < 0.1:
            move = "undo"
        else:
            legal = [str(move) for move in game.legal_moves()]
            if not legal:  # no move left in a game that does not end there (FreeCell)
                break
            home = [move for move in legal if move.endswith(">f")]
            move = home[0] if home and chooser.random() < 0.7 else chooser.choice(legal)
        game.play(move)
        moves.append(move)
    if not game.is_over():
        game.play("end")
        moves.append("end")
    return GameRecord(name, game.variant, game.deal, tuple(moves))


@pytest.mark.parametrize(
    ("name", "variant"), [(cls.name, v) for cls in GAMES.values() for v in cls.variants()]
)
def test_the_lines_add_up_to_the_points(name: str, variant: dict[str, object]) -> None:
    for seed in range(12):
        record = _playout(name, variant, seed)
        game = record.new_game()
        for move in record.moves:
            game.play(move)
        lines = score_lines(record)
        assert sum(line.points for line in lines) == game.score(), (seed, lines)
        assert all(line.label != "Other points" for line in lines)


def test_a_won_klondike_game_s_lines() -> None:
    moves = solve(new_game("klondike", seed=2)).moves
    game = new_game("klondike", seed=2)
    for move in moves:
        game.play(move)
    lines = {
        line.label: line
        for line in score_lines(GameRecord("klondike", {"draw": 1}, game.deal, tuple(moves)))
    }
    assert lines["Cards sent home"].count == 52
    assert lines["Cards turned up"].count == 21
    assert lines["Cards turned up"].points == 210
    assert sum(line.points for line in lines.values()) == game.score()


def test_a_cleared_golf_tableau_scores_its_bonus() -> None:
    seed = next(s for s in range(50) if solve(new_game("golf", seed=s)).outcome == "solved")
    moves = solve(new_game("golf", seed=seed)).moves
    game = new_game("golf", seed=seed)
    for move in moves:
        game.play(move)
    lines = {
        line.label: line
        for line in score_lines(GameRecord("golf", {"wrap": False}, game.deal, tuple(moves)))
    }
    assert lines["Cards cleared"].count == 35
    assert lines["Tableau cleared"].points == 100 + 20 * game.observation()["stock"]
    assert sum(line.points for line in lines.values()) == game.score()
