"""Differential tests: the native core and the engines of record agree on the legal moves
and on the position each move leads to, over random reachable positions of every variant
of every game in the registry (a game added to ``patience.games.GAMES`` is covered as it
is).

``make test`` checks 3,000 positions per variant; the marked run (``make test-slow``)
checks 100,000 per variant.
"""

from __future__ import annotations

import random
import re

import pytest

from patience import _core
from patience.games import GAMES, Expert, Kansas, Klondike

VARIANTS = [(name, variant) for name, cls in GAMES.items() for variant in cls.variants()]
IDS = [name + "".join(f"-{key}={value}" for key, value in v.items()) for name, v in VARIANTS]


def compare_walks(name: str, variant: dict[str, object], count: int, seed: int) -> int:
    """Walk random games of ``name`` (each dealt from a random seed, 20 to 400 moves long)
    until ``count`` positions have been compared: at each, the native core's moves must be
    the engine of record's and each move must lead to the same position, except that after
    a move that made the engine play out a won game by itself the native side may stop
    short (its Klondike and Expert stop once solved). Returns the positions compared."""
    cls = GAMES[name]
    rng = random.Random(seed)
    positions = 0
    while positions < count:
        game = cls.from_seed(rng.getrandbits(64), variant)
        for _ in range(rng.randint(20, 400)):
            python_moves = [str(move) for move in game.legal_moves()]
            if not python_moves or positions >= count:
                break
            native = dict(_core.successors(name, game.native_position()))
            assert sorted(native) == sorted(python_moves), game.observation()
            for move in python_moves:
                after = game.copy()
                after.play(move)
                outcome = after.outcome()
                played_out = outcome is not None and outcome.won
                if native[move] != after.native_position():
                    assert played_out, move
            positions += 1
            game.play(rng.choice(python_moves))
    return positions


@pytest.mark.parametrize(("name", "variant"), VARIANTS, ids=IDS)
def test_native_and_python_agree(name: str, variant: dict[str, object]) -> None:
    assert compare_walks(name, variant, 3000, seed=len(name)) == 3000


@pytest.mark.slow
@pytest.mark.parametrize(("name", "variant"), VARIANTS, ids=IDS)
def test_native_and_python_agree_at_scale(name: str, variant: dict[str, object]) -> None:
    assert compare_walks(name, variant, 100_000, seed=100 + len(name)) == 100_000


def test_an_unknown_game_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match='no native game "spider"'):
        _core.successors("spider", Klondike.from_seed(1).native_position())
    with pytest.raises(ValueError, match=r"a golf position is a tuple of 4 parts \(wrap, "):
        _core.successors("golf", Klondike.from_seed(1).native_position())


@pytest.mark.parametrize(
    ("part", "value", "reason"),
    [
        (0, "1", "bad draw: '1' is not a number"),
        (0, 300, "bad draw: 300 is out of range"),
        (0, True, "bad draw: True is not a number"),
        (1, "abc", "bad columns: 'abc' is not a list"),
        (2, [1, 2, -1], "bad hidden: item 2: -1 is out of range"),
        (3, None, "bad stock: None is not a list of numbers"),
        (4, [1.5], "bad waste: item 0: 1.5 is not a number"),
    ],
)
def test_a_malformed_part_is_refused_with_its_name(part: int, value: object, reason: str) -> None:
    """Whatever the game, the glue names the part it could not read and why."""
    position = list(Klondike.from_seed(1).native_position())
    position[part] = value
    with pytest.raises(ValueError, match=re.escape(f"a klondike position has a {reason}")):
        _core.successors("klondike", tuple(position))


def test_every_game_reads_lists_and_tuples_as_well_as_what_it_gives() -> None:
    """A position given with tuples for lists (and lists for bytes) reads the same."""

    def loosened(value: object) -> object:
        if isinstance(value, bytes):
            return list(value)
        if isinstance(value, list):
            return tuple(loosened(item) for item in value)
        return value

    for name, cls in GAMES.items():
        position = cls.from_seed(5).native_position()
        loose = tuple(loosened(part) for part in position)
        assert _core.successors(name, loose) == _core.successors(name, position), name


def test_the_native_side_refuses_a_broken_position() -> None:
    draw, columns, hidden, stock, waste, foundation = Klondike.from_seed(1).native_position()
    with pytest.raises(ValueError, match="exactly one place"):
        _core.successors("klondike", (draw, columns, hidden, [*stock, stock[0]], waste, foundation))
    with pytest.raises(ValueError, match="7 columns"):
        _core.successors("klondike", (draw, columns[:6], hidden, stock, waste, foundation))


def test_the_native_side_refuses_a_broken_kansas_position() -> None:
    base, reserve, columns, stock, waste, foundation = Kansas.from_seed(1).native_position()
    with pytest.raises(ValueError, match="more than one place"):
        _core.successors(
            "kansas", (base, reserve, columns, [*stock, reserve[0]], waste, foundation)
        )
    with pytest.raises(ValueError, match="empty while the reserve"):
        _core.successors(
            "kansas",
            (base, reserve, [[], *columns[1:]], [*stock, *columns[0]], waste, foundation),
        )


def test_the_native_side_refuses_a_broken_expert_position() -> None:
    columns, hand, suits, counts = Expert.from_seed(1).native_position()
    with pytest.raises(ValueError, match="twice"):
        _core.successors("expert", (columns, [*hand[:3], hand[0]], suits, counts))
    with pytest.raises(ValueError, match="at most 4"):
        _core.successors(
            "expert", ([columns[0][1:], *columns[1:]], [*hand, columns[0][0]], suits, counts)
        )
