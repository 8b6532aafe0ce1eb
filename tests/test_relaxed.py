"""Relaxed play (no clock or score shown, undo as far back as the player likes) and a
practice game's clock paused while its page is hidden. Each store test runs on SQLite and
on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, select

from patience.games import new_game
from patience.records import GameRecord, replay
from patience.server import Settings, create_app
from patience.solve import solve
from patience.store.db import events, make_engine, migrate, migrate_url, sessions
from patience.store.games import GameStore
from patience.store.pauses import pause, resume
from test_fair_play import Clock
from test_server import start


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    made = make_engine(database_url)
    migrate(made)
    yield made
    made.dispose()


@pytest.fixture
def client(tmp_path: Any) -> Iterator[TestClient]:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    migrate_url(url)
    settings = Settings(
        database_url=url,
        catalog_refill=0,
        rate_moves=None,
        rate_address=None,
        rate_starts=None,
    )
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def _reveal(seed: int = 7) -> tuple[list[str], dict[str, Any]]:
    """The solver's winning moves of Klondike deal ``seed`` (draw 1) up to and including
    the first that turns a column's card up, and the board before that move."""
    game = new_game("klondike", seed=seed)
    moves: list[str] = []
    for move in solve(new_game("klondike", seed=seed)).moves:
        before = game.observation()
        played = game.play(move)
        moves.append(move)
        if move != "draw" and played.revealed:
            return moves, before
    raise AssertionError("no card turned up")


def test_a_relaxed_game_undoes_past_a_turned_up_card(client: TestClient) -> None:
    body, headers = start(client, game="klondike", mode="relaxed", seed=7)
    assert body["mode"] == "relaxed"
    assert body["seed"] == 7
    assert body["clock"]["limit"] >= 86_400  # no clock a player sees runs out
    url = f"/api/sessions/{body['id']}"
    moves, before = _reveal()
    view = body
    for move in moves:
        view = client.post(f"{url}/moves", json={"move": move}, headers=headers).json()
    assert view["board"]["can_undo"] is False  # the rules of record refuse it...
    assert view["can_undo"] is True  # ...a relaxed game does not
    undone = client.post(f"{url}/undo", headers=headers).json()
    assert undone["board"]["tableau"] == before["tableau"]
    # all the way back to the deal, the draws included
    for _ in range(len(moves) - 1):
        undone = client.post(f"{url}/undo", headers=headers).json()
    assert undone["board"] == new_game("klondike", seed=7).observation()
    assert undone["can_undo"] is False
    assert undone["undo_refusal"] == "nothing to undo"
    refused = client.post(f"{url}/undo", headers=headers)
    assert refused.status_code == 409


def test_a_timed_game_keeps_the_rules_undo_limit_and_says_why(client: TestClient) -> None:
    body, headers = start(client, game="klondike", mode="practice", seed=7)
    url = f"/api/sessions/{body['id']}"
    assert body["undo_refusal"] == "nothing to undo"
    moves, _ = _reveal()
    for move in moves:
        view = client.post(f"{url}/moves", json={"move": move}, headers=headers).json()
    assert view["can_undo"] is False
    assert view["undo_refusal"] == "the last move turned up a card that was hidden"
    assert client.post(f"{url}/undo", headers=headers).status_code == 409


def test_a_relaxed_golf_game_takes_back_a_draw(client: TestClient) -> None:
    body, headers = start(client, game="golf", mode="relaxed", seed=3)
    url = f"/api/sessions/{body['id']}"
    drawn = client.post(f"{url}/moves", json={"move": "draw"}, headers=headers).json()
    assert drawn["can_undo"] is True
    back = client.post(f"{url}/undo", headers=headers).json()
    assert back["board"] == body["board"]


def test_a_relaxed_game_s_record_is_its_line_and_replays(engine: Engine) -> None:
    clock = Clock()
    store = GameStore(engine, clock=clock)
    live, _ = store.open("klondike", {"draw": 3}, seed=11, mode="relaxed", certified=False)
    game = new_game("klondike", seed=11, variant={"draw": 3})
    line: list[str] = []
    for step in range(40):
        clock.now += 1
        legal = [str(m) for m in game.legal_moves()]
        move = legal[step % len(legal)]
        store.play(live, move)
        game.play(move)
        line.append(move)
        if step % 3 == 2:  # take one back every third move, whatever it turned up
            store.play(live, "undo")
            line.pop()
            game = new_game("klondike", seed=11, variant={"draw": 3})
            for kept in line:
                game.play(kept)
    store.play(live, "end")
    record = live.session.record()
    assert list(record.moves) == [*line, "end"]
    result = replay(GameRecord.from_json(record.to_json()))
    assert result.error is None
    # rebuilt from the database by another process, exactly
    again = GameStore(engine, clock=clock).load(live.id)
    assert again.session.record() == record
    assert again.game.observation() == live.game.observation()


def test_a_practice_clock_pauses_while_the_page_is_hidden(engine: Engine) -> None:
    clock = Clock()
    store = GameStore(engine, clock=clock)
    live, _ = store.open("golf", {"wrap": False}, seed=3, mode="practice", certified=False)
    clock.now += 10
    assert pause(store, live, clock=clock)
    assert not pause(store, live, clock=clock)  # paused already
    clock.now += 1_000  # the page hidden for longer than the whole clock
    assert store.expire() == 0  # not ended meanwhile
    assert live.session.remaining() == pytest.approx(170)
    assert resume(store, live, clock=clock)
    clock.now += 5
    assert live.session.remaining() == pytest.approx(165)
    with engine.connect() as connection:
        kinds = list(
            connection.execute(
                select(events.c.kind).where(events.c.session_id == live.id).order_by(events.c.seq)
            ).scalars()
        )
        paused = connection.execute(
            select(sessions.c.paused).where(sessions.c.id == live.id)
        ).scalar_one()
    assert kinds[:3] == ["start", "pause", "resume"]
    # rebuilt from its log, the clock is where it was
    again = GameStore(engine, clock=clock).load(live.id)
    assert again.session.remaining() == pytest.approx(live.session.remaining())
    assert paused >= 1_000


def test_a_pause_straight_after_a_resume_is_not_taken(engine: Engine) -> None:
    clock = Clock()
    store = GameStore(engine, clock=clock)
    live, _ = store.open("golf", {"wrap": False}, seed=3, mode="practice", certified=False)
    assert pause(store, live, clock=clock)
    clock.now += 3
    assert resume(store, live, clock=clock)
    clock.now += 0.2
    assert not pause(store, live, clock=clock)
    clock.now += 1
    assert pause(store, live, clock=clock)


def test_an_outage_during_a_player_s_pause_rebuilds_exactly(engine: Engine) -> None:
    clock = Clock()
    store = GameStore(engine, clock=clock)
    store.beat("a", started=True)
    live, _ = store.open("golf", {"wrap": False}, seed=3, mode="practice", certified=False)
    clock.now += 5
    pause(store, live, clock=clock)
    clock.now += 60  # every server down meanwhile
    later = GameStore(engine, clock=clock)
    assert later.credit_outage(stale_after=2) is not None
    again = later.load(live.id)
    with engine.connect() as connection:
        logged = connection.execute(
            select(events.c.kind).where(events.c.session_id == live.id)
        ).all()
    assert again.session.log_length == len(logged)
    later.play(again, "draw")  # a move after it is written where it belongs
    assert GameStore(engine, clock=clock).load(live.id).session.move_count == 1


def test_the_api_pauses_practice_and_relaxed_games_only(client: TestClient) -> None:
    for mode in ("practice", "relaxed"):
        body, headers = start(client, game="golf", mode=mode, seed=4)
        url = f"/api/sessions/{body['id']}"
        paused = client.post(f"{url}/pause", headers=headers)
        assert paused.status_code == 200
        assert paused.json()["clock"]["running"] is False  # the page's clock stops too
        assert client.get(url, headers=headers).json()["clock"]["running"] is False
        resumed = client.post(f"{url}/resume", headers=headers)
        assert resumed.status_code == 200
        assert resumed.json()["clock"]["running"] is True
    body, headers = start(client, game="golf", mode="timed")
    refused = client.post(f"/api/sessions/{body['id']}/pause", headers=headers)
    assert refused.status_code == 409
    assert "never stops" in refused.json()["detail"]


def test_a_practice_deal_without_a_number_gets_a_short_one(client: TestClient) -> None:
    for mode in ("practice", "relaxed"):
        body, _ = start(client, game="golf", mode=mode)
        assert 0 <= body["seed"] < 1_000_000
