"""The protocol, tested once for every registered game and variant (random legal play).

Checked after every step: cards are conserved, ``undo`` inverts ``play`` wherever it is
allowed, ``observation()`` shows no hidden card and is plain JSON, every legal move is
accepted, a move that turned up a hidden card cannot be undone, and at the end the
session's log and its game record both rebuild the game.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from patience.cards import Card
from patience.errors import InvalidCardError
from patience.games import GAMES, Game
from patience.records import GameRecord, replay
from patience.session import Session

CASES = [(name, variant) for name, cls in GAMES.items() for variant in cls.variants()]
IDS = [f"{name}-{'-'.join(f'{k}{v}' for k, v in variant.items())}" for name, variant in CASES]


def referee_view(game: Game) -> tuple[object, ...]:
    return (
        game.piles(),
        game.score(),
        json.dumps(game.observation(), sort_keys=True),
        game.can_undo(),
        game.outcome(),
        [str(m) for m in game.legal_moves()],
    )


def cards_in(value: Any) -> list[Card]:
    """Every card named anywhere in a JSON value."""
    if isinstance(value, dict):
        return [card for item in value.values() for card in cards_in(item)]
    if isinstance(value, list):
        return [card for item in value for card in cards_in(item)]
    if isinstance(value, str):
        try:
            return [Card.parse(value)]
        except InvalidCardError:
            return []
    return []


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize(("name", "variant"), CASES, ids=IDS)
@given(seed=st.integers(min_value=0, max_value=2**64 - 1), data=st.data())
def test_random_play_keeps_every_invariant(
    name: str, variant: dict[str, object], seed: int, data: st.DataObject
) -> None:
    cls = GAMES[name]
    clock = FakeClock()
    session = Session(cls.from_seed(seed, variant), clock=clock, time_limit=10**9)
    game = session.game
    dealt = Counter(game.deal)
    for _ in range(data.draw(st.integers(min_value=0, max_value=120), label="steps")):
        moves = game.legal_moves()
        if not moves:
            break
        move = data.draw(st.sampled_from(moves), label="move")
        before = referee_view(game)
        clock.now += 0.5
        played = session.play(move)  # a legal move is always accepted
        assert str(played.move) == str(move)
        after = referee_view(game)
        if played.revealed:  # every game refuses to take back what turned up a hidden card
            assert not game.can_undo(), f"{move} turned up {played.revealed} yet can be undone"
        if game.can_undo():
            session.undo()
            assert referee_view(game) == before, f"undo of {move} did not restore the state"
            session.play(move)
            assert referee_view(game) == after
        assert Counter(card for pile in game.piles().values() for card in pile) == dealt
        observation = game.observation()
        assert json.loads(json.dumps(observation)) == observation
        shown = set(cards_in(observation))
        assert not shown & set(game.hidden_cards()), "observation shows a hidden card"
    log_rebuilt = Session.rebuild(
        cls.from_variant(game.deal, variant), session.log, clock=clock, time_limit=10**9
    )
    assert referee_view(log_rebuilt.game) == referee_view(game)
    assert log_rebuilt.score() == session.score()
    record = GameRecord.from_json(json.loads(session.record().dumps()))
    result = replay(record)
    assert result.error is None
    assert result.game is not None
    assert referee_view(result.game) == referee_view(game)
    assert result.score == session.score()


@pytest.mark.parametrize(("name", "variant"), CASES, ids=IDS)
def test_legal_moves_are_canonical_and_round_trip(name: str, variant: dict[str, object]) -> None:
    from patience.moves import Move

    for seed in range(20):
        game = GAMES[name].from_seed(seed, variant)
        for move in game.legal_moves():
            assert Move.parse(str(move)) == move
            assert game.is_legal(str(move).upper())
