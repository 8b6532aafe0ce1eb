"""Differential tests: the Rust solvers' Klondike, Golf, Kansas and Expert and the engines of record
agree on the legal moves and on the position each move leads to, over random reachable
positions.

``make test`` checks a few thousand positions per variant; the marked run
(``make test-slow``) checks 100,000 per variant.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from patience import _core
from patience.games import Game
from patience.games.expert import Expert
from patience.games.golf import Golf
from patience.games.kansas import Kansas
from patience.games.klondike import Klondike
from patience.solve import (
    _expert_position,
    _golf_position,
    _kansas_position,
    _klondike_position,
)


def compare_walks(
    deal: Callable[[int], Game],
    successors: Callable[[Any], list[tuple[str, Any]]],
    position: Callable[[Any], Any],
    count: int,
    seed: int,
    *,
    steps: Callable[[random.Random], int] = lambda rng: 10**9,
    finished_too: bool = True,
) -> tuple[int, int]:
    """Walk random games (each dealt by ``deal`` from a random seed, at most ``steps`` moves
    long) until ``count`` positions have been compared: at each, the Rust engine's moves
    must be the engine of record's and each move must lead to the same position (except,
    unless ``finished_too``, moves after which the engine played out by itself: Rust stops
    at solved). Returns ``(positions, moves compared)``."""
    rng = random.Random(seed)
    positions = compared = 0
    while positions < count:
        game = deal(rng.getrandbits(64))
        for _ in range(steps(rng)):
            python_moves = [str(move) for move in game.legal_moves()]
            if not python_moves or positions >= count:
                break
            rust = dict(successors(position(game)))
            assert sorted(rust) == sorted(python_moves), game.observation()
            for move in python_moves:
                after = game.copy()
                after.play(move)
                if after.is_over() and not finished_too:
                    continue
                assert rust[move] == position(after), move
                compared += 1
            positions += 1
            game.play(rng.choice(python_moves))
    return positions, compared


def check_positions(draw: int, count: int, seed: int) -> int:
    """Klondike: returns how many moves were compared."""
    return compare_walks(
        lambda s: Klondike.from_seed(s, {"draw": draw}),
        _core.klondike_successors,
        _klondike_position,
        count,
        seed,
        steps=lambda rng: rng.randint(20, 400),
        finished_too=False,
    )[1]


@pytest.mark.parametrize("draw", [1, 3])
def test_rust_and_python_agree(draw: int) -> None:
    assert check_positions(draw, 3000, seed=draw) > 3000


@pytest.mark.slow
@pytest.mark.parametrize("draw", [1, 3])
def test_rust_and_python_agree_at_scale(draw: int) -> None:
    assert check_positions(draw, 100_000, seed=100 + draw) > 100_000


def test_the_native_side_refuses_a_broken_position() -> None:
    position = _klondike_position(Klondike.from_seed(1))
    draw, columns, hidden, stock, waste, foundation = position
    with pytest.raises(ValueError, match="exactly one place"):
        _core.klondike_successors((draw, columns, hidden, [*stock, stock[0]], waste, foundation))
    with pytest.raises(ValueError, match="7 columns"):
        _core.klondike_successors((draw, columns[:6], hidden, stock, waste, foundation))


def check_golf_positions(wrap: bool, count: int, seed: int) -> int:
    """Golf: returns how many positions were compared."""
    return compare_walks(
        lambda s: Golf.from_seed(s, {"wrap": wrap}),
        _core.golf_successors,
        _golf_position,
        count,
        seed,
    )[0]


@pytest.mark.parametrize("wrap", [False, True])
def test_golf_rust_and_python_agree(wrap: bool) -> None:
    assert check_golf_positions(wrap, 3000, seed=int(wrap)) == 3000


@pytest.mark.slow
@pytest.mark.parametrize("wrap", [False, True])
def test_golf_rust_and_python_agree_at_scale(wrap: bool) -> None:
    assert check_golf_positions(wrap, 100_000, seed=100 + int(wrap)) == 100_000


def check_kansas_positions(count: int, seed: int) -> int:
    """Kansas: returns how many positions were compared."""
    return compare_walks(Kansas.from_seed, _core.kansas_successors, _kansas_position, count, seed)[
        0
    ]


def test_kansas_rust_and_python_agree() -> None:
    assert check_kansas_positions(3000, seed=3) == 3000


@pytest.mark.slow
def test_kansas_rust_and_python_agree_at_scale() -> None:
    assert check_kansas_positions(100_000, seed=103) == 100_000


def test_the_native_side_refuses_a_broken_kansas_position() -> None:
    base, reserve, columns, stock, waste, foundation = _kansas_position(Kansas.from_seed(1))
    with pytest.raises(ValueError, match="more than one place"):
        _core.kansas_successors((base, reserve, columns, [*stock, reserve[0]], waste, foundation))
    with pytest.raises(ValueError, match="empty while the reserve"):
        _core.kansas_successors(
            (base, reserve, [[], *columns[1:]], [*stock, *columns[0]], waste, foundation)
        )


def check_expert_positions(count: int, seed: int) -> int:
    """Solitaire Expert (games at most 200 moves long): returns the positions compared."""
    return compare_walks(
        Expert.from_seed,
        _core.expert_successors,
        _expert_position,
        count,
        seed,
        steps=lambda rng: 200,
        finished_too=False,
    )[0]


def test_expert_rust_and_python_agree() -> None:
    assert check_expert_positions(1500, seed=4) == 1500


@pytest.mark.slow
def test_expert_rust_and_python_agree_at_scale() -> None:
    assert check_expert_positions(100_000, seed=104) == 100_000


def test_the_native_side_refuses_a_broken_expert_position() -> None:
    columns, hand, suits, counts = _expert_position(Expert.from_seed(1))
    with pytest.raises(ValueError, match="twice"):
        _core.expert_successors((columns, [*hand[:3], hand[0]], suits, counts))
    with pytest.raises(ValueError, match="at most 4"):
        _core.expert_successors(
            ([columns[0][1:], *columns[1:]], [*hand, columns[0][0]], suits, counts)
        )
