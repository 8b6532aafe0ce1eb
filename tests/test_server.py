"""The web server against a real database (a SQLite file, then PostgreSQL): every endpoint,
refusals with reasons that change nothing, tokens, what the player may see, and restart
safety with a real process."""

from __future__ import annotations

import json
import random
import re
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from prometheus_client import REGISTRY

from patience.games import GAMES, new_game
from patience.server import Settings, create_app, launch
from patience.solve import solve

CARD = re.compile(r"\b([A2-9TJQK][cdhs])\b")


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    """The application on a fresh SQLite file, then on a fresh PostgreSQL database."""
    settings = Settings(
        database_url=database_url,
        catalog_refill=0,
        # one client plays hundreds of games here as fast as it can (test_hardening.py
        # tests the limits per client)
        rate_starts=None,
        rate_moves=None,
        rate_hints=None,
        rate_address=None,
        # a hint answers within its budget however busy the machine: the budget is
        # generous here (and the solver at the server's own priority: the session's
        # `solver_priority` fixture), so that a test's hint is a move found, not "no hint
        # found in time"
        hint_seconds=30,  # (10 s fell short once, at a load of 8, for a solver at low priority)
    )
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def start(client: TestClient, **request: Any) -> tuple[dict[str, Any], dict[str, str]]:
    response = client.post("/api/sessions", json=request)
    assert response.status_code == 201, response.text
    body = response.json()
    return body, {"Authorization": f"Bearer {body['token']}"}


def test_the_catalog_lists_every_game(client: TestClient) -> None:
    games = {game["name"]: game for game in client.get("/api/games").json()}
    assert set(games) == set(GAMES)
    assert games["klondike"]["options"] == [{"name": "draw", "values": [1, 3], "default": 1}]
    assert games["golf"]["time_limit"] == 180


def test_the_client_and_the_openapi_docs_are_served(client: TestClient) -> None:
    assert "patience" in client.get("/").text
    assert client.head("/").status_code == 200  # as monitors and link checkers ask
    plain = client.post(
        "/api/sessions", content='{"game": "golf"}', headers={"Content-Type": "text/plain"}
    )
    assert plain.status_code == 422
    assert "application/json" in plain.json()["detail"][0]["msg"]
    assert client.get("/static/app.js").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    refusals = {"400", "401", "403", "404", "409", "413", "422", "429"}
    assert set(paths["/api/sessions/{game_id}/moves"]["post"]["responses"]) >= refusals
    assert set(paths["/api/sessions"]["post"]["responses"]) >= {"400", "413", "422", "429", "503"}
    assert client.get("/docs").status_code == 200


def test_a_timed_game_gets_a_certified_deal_and_a_secret_seed(client: TestClient) -> None:
    body, headers = start(client, game="klondike", variant={"draw": 3})
    assert body["certified"] is True
    assert body["seed"] is None  # the seed would tell every hidden card
    assert body["mode"] == "timed"
    assert body["clock"]["limit"] == 300
    assert body["clock"]["running"]
    assert body["can_undo"] is False
    ended = client.post(f"/api/sessions/{body['id']}/end", headers=headers).json()
    assert ended["outcome"] == {"won": False, "reason": "ended"}
    assert ended["seed"] is not None  # shown once the game is over
    deal = new_game("klondike", seed=ended["seed"], variant={"draw": 3})
    assert solve(deal).outcome == "solved"
    record = client.get(f"/api/sessions/{body['id']}/record", headers=headers).json()
    assert record["deal"] == [str(card) for card in deal.deal]
    assert record["moves"] == ["end"]


def test_moves_undo_and_scores(client: TestClient) -> None:
    body, headers = start(client, game="golf", seed=3, mode="practice")
    game = new_game("golf", seed=3)
    url = f"/api/sessions/{body['id']}"
    assert body["seed"] == 3
    assert body["legal_moves"] == [str(move) for move in game.legal_moves()]
    play = next(move for move in body["legal_moves"] if move != "draw")
    moved = client.post(f"{url}/moves", json={"move": play}, headers=headers).json()
    game.play(play)
    assert moved["last"]["move"] == play
    assert moved["last"]["points"] == 10
    assert moved["board"] == game.observation()
    assert moved["can_undo"] is True
    undone = client.post(f"{url}/undo", headers=headers).json()
    game.undo()
    assert undone["board"] == game.observation()
    assert undone["can_undo"] is False
    assert client.get(url, headers=headers).json()["board"] == game.observation()


def test_bad_requests_are_refused_with_a_reason_and_change_nothing(client: TestClient) -> None:
    body, headers = start(client, game="klondike", seed=5, mode="practice")
    url = f"/api/sessions/{body['id']}"
    before = client.get(url, headers=headers).json()
    cases = [
        (client.post(f"{url}/moves", content=b"{not json", headers=headers), 422),
        (client.post(f"{url}/moves", json={"mvoe": "draw"}, headers=headers), 422),
        (client.post(f"{url}/moves", json={"move": "t1>t1"}, headers=headers), 409),
        (client.post(f"{url}/moves", json={"move": "t9>f"}, headers=headers), 400),
        (client.post(f"{url}/moves", json={"move": "fly"}, headers=headers), 400),
        (client.post(f"{url}/undo", headers=headers), 409),
        (client.post(f"{url}/moves", json={"move": "draw"}), 401),
        (client.post(f"{url}/moves", json={"move": "draw"}, headers={"Authorization": "x"}), 401),
        (client.get(f"{url}/record", headers=headers), 409),
        (client.post("/api/sessions/nope/moves", json={"move": "draw"}, headers=headers), 404),
    ]
    for response, status in cases:
        assert response.status_code == status, response.text
        assert response.json()["detail"], response.text
    after = client.get(url, headers=headers).json()
    assert {**after, "clock": None} == {**before, "clock": None}
    for request, reason in [
        ({"game": "poker"}, "unknown game"),
        ({"game": "klondike", "variant": {"draw": 2}}, "draw"),
        ({"game": "klondike", "seed": -1}, "seed"),
        ({"game": "golf", "mode": "blitz"}, "mode"),
    ]:
        response = client.post("/api/sessions", json=request)
        assert response.status_code in (400, 422)
        assert reason in response.text


def test_a_token_holds_only_its_own_game(client: TestClient) -> None:
    mine, my_headers = start(client, game="kansas", seed=1, mode="practice")
    theirs, their_headers = start(client, game="kansas", seed=1, mode="practice")
    url = f"/api/sessions/{theirs['id']}"
    before = client.get(url, headers=their_headers).json()["board"]
    assert client.get(url, headers=my_headers).status_code == 403
    response = client.post(f"{url}/moves", json={"move": "draw"}, headers=my_headers)
    assert response.status_code == 403
    assert "token" in response.json()["detail"]
    assert client.get(url, headers=their_headers).json()["board"] == before
    assert mine["id"] != theirs["id"]


def test_hints_in_practice_only(client: TestClient) -> None:
    body, headers = start(client, game="klondike", seed=2, mode="practice")
    hint = client.post(f"/api/sessions/{body['id']}/hint", headers=headers).json()
    assert hint["move"] in body["legal_moves"]
    timed, timed_headers = start(client, game="golf")
    assert (
        client.post(f"/api/sessions/{timed['id']}/hint", headers=timed_headers).status_code == 409
    )
    expert, expert_headers = start(client, game="expert", seed=2, mode="practice")
    answer = client.post(f"/api/sessions/{expert['id']}/hint", headers=expert_headers).json()
    assert answer == {"move": None, "reason": "no winning line is left from here"}


def test_a_player_who_follows_the_hints_wins_with_one_search(client: TestClient) -> None:
    """The server keeps a hint's winning line: each later hint on it is its next move, with
    no search; a move off the line makes the next hint search again."""

    def searches() -> float:
        return REGISTRY.get_sample_value("patience_hints_total", {"source": "search"}) or 0.0

    body, headers = start(client, game="golf", seed=3, mode="practice", variant={"wrap": True})
    url = f"/api/sessions/{body['id']}"
    before, answer, hints = searches(), body, 0
    while answer["outcome"] is None:
        hint = client.post(f"{url}/hint", headers=headers).json()
        assert hint["move"] in answer["legal_moves"], hint
        answer = client.post(f"{url}/moves", json={"move": hint["move"]}, headers=headers).json()
        hints += 1
    assert answer["outcome"]["won"], answer["outcome"]
    assert hints > 10
    assert searches() == before + 1
    # off the line: another deal, its first hint's move not played but another move
    body, headers = start(client, game="golf", seed=3, mode="practice", variant={"wrap": True})
    url = f"/api/sessions/{body['id']}"
    first = client.post(f"{url}/hint", headers=headers).json()["move"]
    other = next(move for move in body["legal_moves"] if move != first)
    client.post(f"{url}/moves", json={"move": other}, headers=headers)
    client.post(f"{url}/hint", headers=headers)
    assert searches() == before + 3


def test_a_play_out_names_each_card_it_sends_home(client: TestClient) -> None:
    body, headers = start(client, game="klondike", seed=2, mode="practice")
    answer = body
    for move in solve(new_game("klondike", seed=2)).moves:
        before = answer["board"]["foundation"]
        answer = client.post(
            f"/api/sessions/{body['id']}/moves", json={"move": move}, headers=headers
        ).json()
        if answer["last"]["auto"]:
            break
    steps = answer["last"]["auto"]
    assert answer["outcome"] == {"won": True, "reason": "won"}
    # the cards not home before the play-out, each suit in rank order, each exactly once
    ranks = "A23456789TJQK"
    home = {suit: ranks.index(top[0]) + 1 if top else 0 for suit, top in before.items()}
    assert all(step["move"].endswith(">f") for step in steps)
    for suit in "cdhs":
        cards = [step["card"] for step in steps if step["card"][1] == suit]
        assert cards == [rank + suit for rank in ranks[len(ranks) - len(cards) :]], suit
    sent_by_the_move = answer["last"]["move"].endswith(">f")
    assert len(steps) + sum(home.values()) + sent_by_the_move == 52


@pytest.mark.slow_on_postgresql
@pytest.mark.parametrize("name", sorted(GAMES))
def test_no_response_shows_a_card_the_player_has_not_seen(client: TestClient, name: str) -> None:
    rng = random.Random(name)
    responses = 0
    # a game that deals every card face up needs fewer sessions to show it hides nothing
    hides = bool(new_game(name, seed=0).hidden_cards())
    for index in range(60 if hides else 15):
        seed = rng.getrandbits(32)
        body, headers = start(client, game=name, seed=seed, mode="practice")
        mirror = new_game(name, seed=seed, variant=body["variant"])
        seen: set[str] = set()
        answer = body
        for _ in range(rng.randint(5, 60)):
            hidden = {str(card) for card in mirror.hidden_cards()}
            seen |= {str(card) for card in mirror.deal} - hidden
            shown = set(CARD.findall(json.dumps({k: v for k, v in answer.items() if k != "token"})))
            assert not (shown - seen), (name, index, shown - seen)
            responses += 1
            if not answer["legal_moves"]:
                break
            move = rng.choice(answer["legal_moves"])
            answer = client.post(
                f"/api/sessions/{body['id']}/moves", json={"move": move}, headers=headers
            ).json()
            mirror.play(move)
    assert responses > 200


def test_a_killed_server_resumes_every_game_exactly(tmp_path: Path) -> None:
    database, port = tmp_path / "games.sqlite3", launch.free_port()
    base = f"http://127.0.0.1:{port}/api/sessions"
    certificate = solve(new_game("klondike", seed=2)).moves
    server = launch.start(database, port, PATIENCE_CATALOG_REFILL="0")
    try:
        body = httpx.post(base, json={"game": "klondike", "seed": 2, "mode": "practice"}).json()
        headers = {"Authorization": f"Bearer {body['token']}"}
        half = len(certificate) // 2
        for move in certificate[:half]:
            answer = httpx.post(f"{base}/{body['id']}/moves", json={"move": move}, headers=headers)
            assert answer.status_code == 200, answer.text
        before = httpx.get(f"{base}/{body['id']}", headers=headers).json()
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait()
    server = launch.start(database, port, PATIENCE_CATALOG_REFILL="0")
    try:
        after = httpx.get(f"{base}/{body['id']}", headers=headers).json()
        assert after["board"] == before["board"]
        assert after["score"] == before["score"]
        assert after["clock"]["remaining"] <= before["clock"]["remaining"]
        for move in certificate[half:]:
            answer = httpx.post(f"{base}/{body['id']}/moves", json={"move": move}, headers=headers)
            if answer.json()["outcome"] is not None:
                break
        final = answer.json()
        expected = new_game("klondike", seed=2)
        for move in certificate:
            if expected.is_over():
                break
            expected.play(move)
        assert final["outcome"] == {"won": True, "reason": "won"}
        assert final["result"]["points"] == expected.score()
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait()
