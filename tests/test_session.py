"""Timed sessions: the injected clock, time-out, the clock stopping when the game ends,
and rebuilding a session from its log."""

from __future__ import annotations

import json
import random

import pytest

from layouts import CLUBS, klondike_deal, solved_deal
from patience.errors import GameOverError, InvalidRecordError, TimeUpError
from patience.games import Outcome, new_game
from patience.games.klondike import Klondike
from patience.session import Event, Session


class Clock:
    def __init__(self, now: float = 50.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_time_out_ends_the_game_without_bonus() -> None:
    clock = Clock()
    session = Session(Klondike(klondike_deal(hand=CLUBS)), clock=clock)
    for _ in range(4):
        clock.now += 10
        session.play("draw")
        session.play("w>f")
    assert session.remaining() == 260
    clock.now += 299
    assert session.outcome() == Outcome(won=False, reason="timeout")
    assert session.elapsed() == 300
    with pytest.raises(TimeUpError):
        session.play("draw")
    assert session.time_bonus() == 0
    assert session.score() == session.game.score() == (50 + 45 + 40 + 35) + 40
    assert [event.kind for event in session.log][-1] == "timeout"


def test_end_collects_the_time_bonus_and_stops_the_clock() -> None:
    clock = Clock()
    session = Session(Klondike(klondike_deal(hand=CLUBS)), clock=clock)
    for _ in range(13):
        session.play("draw")
        session.play("w>f")
    clock.now += 100
    session.end()
    clock.now += 1000
    assert session.elapsed() == 100
    assert session.outcome() == Outcome(won=False, reason="ended")
    assert session.time_bonus() == 200 * 13 // 52
    with pytest.raises(GameOverError):
        session.play("draw")


def test_clock_stops_when_solved() -> None:
    clock = Clock()
    session = Session(Klondike(solved_deal()), clock=clock)
    for _ in range(24):
        clock.now += 1
        session.play("draw")
        session.play("w>f")
    for k in range(1, 8):
        for _ in range(k):
            if session.is_over():
                break
            clock.now += 1
            session.play(f"t{k}>f")
    solved_at = session.elapsed()
    clock.now += 500
    assert session.is_over()
    assert session.outcome() == Outcome(won=True, reason="won")
    assert session.elapsed() == solved_at
    assert session.score() == 1610 + int(300 - solved_at)


def test_rejected_moves_are_not_logged() -> None:
    session = Session(new_game("klondike", seed=2), clock=Clock())
    with pytest.raises(ValueError, match="recycle"):
        session.play("recycle")
    assert [event.kind for event in session.log] == ["start"]


def test_rebuild_from_the_log_is_exact_including_timeout() -> None:
    clock = Clock()
    session = Session(new_game("klondike", seed=21, variant={"draw": 3}), clock=clock)
    for move in ["draw", "draw", "draw"]:
        clock.now += 7.25
        session.play(move)
    clock.now += 400
    assert session.is_over()
    data = json.loads(json.dumps(session.to_json()))
    rebuilt = Session.from_json(data, clock=lambda: 10**9)
    assert rebuilt.log == session.log
    assert rebuilt.elapsed() == 300
    assert rebuilt.outcome() == Outcome(won=False, reason="timeout")
    assert rebuilt.game.piles() == session.game.piles()


def test_rebuild_refuses_a_bad_log() -> None:
    game = new_game("klondike", seed=1)
    with pytest.raises(InvalidRecordError, match="starts with a start event"):
        Session.rebuild(game, [Event("move", 1.0, "draw")])
    with pytest.raises(InvalidRecordError, match="before the clock ran out"):
        Session.rebuild(game, [Event("start", 0.0), Event("timeout", 10.0)])
    with pytest.raises(InvalidRecordError, match="unknown event kind"):
        Event.from_json({"kind": "jump", "at": 1})


def test_record_of_a_session_replays_to_the_same_score() -> None:
    from patience.records import replay

    clock = Clock()
    session = Session(Klondike(klondike_deal(hand=CLUBS)), clock=clock)
    for _ in range(5):
        session.play("draw")
        session.play("w>f")
    clock.now += 30
    session.end()
    result = replay(session.record())
    assert (result.score, result.foundation) == (session.score(), 5)


def test_a_clock_run_out_after_an_outage_rebuilds_at_a_real_clock_s_readings() -> None:
    """A timeout is logged at start + outages + limit, a sum of real clock readings (about
    1.8e9 s), and the replay must find the clock run out at exactly that reading (else it
    refuses the log: "timeout logged ... before the clock ran out"). Random readings and
    outages."""
    rng = random.Random(7)
    for _ in range(200):
        start = 1.7e9 + rng.random() * 1e8
        clock = Clock(start)
        session = Session(new_game("golf", seed=1), clock=clock)
        down = start + rng.random() * 60
        session.pause(down)
        session.resume(down + rng.random() * 10)
        clock.now = start + 1000.0  # long past the 180 s
        assert session.outcome() == Outcome(won=False, reason="timeout")
        rebuilt = Session.rebuild(new_game("golf", seed=1), session.log, clock=clock)
        assert rebuilt.log == session.log
        assert rebuilt.elapsed() == session.elapsed() == 180.0
