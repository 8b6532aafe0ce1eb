"""Deals by a numbering players know from elsewhere (``Game.numberings``: FreeCell's
Microsoft deals) through the API: listed in ``GET /api/games``, dealt for practice and
relaxed play only (never a timed game: competitive deals stay secret-seeded,
docs/fairness.md), refused with a reason when malformed, and named by their number in the
view, the replay and the history. Generic: every game that declares a numbering is
covered, and one that declares none refuses one."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from patience.games import GAMES
from patience.server import Settings, create_app
from patience.store.db import make_engine, sessions
from test_players import sign_up

NUMBERED = [(cls, name) for cls in GAMES.values() for name in cls.numberings]
PLAIN = [cls for cls in GAMES.values() if not cls.numberings]


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    settings = Settings(
        database_url=database_url,
        catalog_refill=0,
        rate_starts=None,
        rate_moves=None,
        rate_hints=None,
        rate_address=None,
    )
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def test_some_game_declares_a_numbering_and_some_none() -> None:
    assert NUMBERED
    assert PLAIN


def test_the_games_list_says_each_numbering(client: TestClient) -> None:
    listed = {game["name"]: game for game in client.get("/api/games").json()}
    for cls in GAMES.values():
        described = listed[cls.name]["numberings"]
        assert [item["name"] for item in described] == list(cls.numberings)
        for item in described:
            numbering = cls.numberings[item["name"]]
            assert item["title"] == numbering.title
            assert (item["first"], item["last"]) == (numbering.first, numbering.last)
            assert item["rule"] == numbering.rule


@pytest.mark.parametrize("mode", ["practice", "relaxed"])
@pytest.mark.parametrize(("cls", "name"), NUMBERED, ids=[f"{c.name}-{n}" for c, n in NUMBERED])
def test_a_numbered_deal_is_dealt_and_named_by_its_number(
    client: TestClient, cls: Any, name: str, mode: str
) -> None:
    numbering = cls.numberings[name]
    number = min(numbering.first + 11_981, numbering.last)
    words = f"{numbering.title} {number}"
    expected = cls.from_number(name, number)
    # the number as the client sends what a player typed: a string of digits
    answer = client.post(
        "/api/sessions",
        json={
            "game": cls.name,
            "mode": mode,
            "numbered": {"numbering": name, "number": str(number)},
        },
    )
    assert answer.status_code == 201, answer.text
    view = answer.json()
    assert view["numbered"] == {"numbering": name, "number": number, "title": words}
    assert view["seed"] is None
    assert view["board"] == expected.observation()
    headers = {"Authorization": f"Bearer {view['token']}"}
    url = f"/api/sessions/{view['id']}"
    assert client.get(url, headers=headers).json()["numbered"]["title"] == words
    ended = client.post(f"{url}/end", json={}, headers=headers)
    assert ended.status_code == 200, ended.text
    assert ended.json()["numbered"]["title"] == words
    replay = client.get(f"{url}/replay", headers=headers).json()
    assert replay["numbered"]["title"] == words
    assert replay["steps"][0]["board"] == expected.observation()
    record = client.get(f"{url}/record", headers=headers)
    assert record.status_code == 200
    assert str(expected.deal[0]) in record.text


def test_a_signed_in_player_s_history_names_the_numbered_deal(client: TestClient) -> None:
    cls, name = NUMBERED[0]
    headers = sign_up(client, "Grace")
    number = cls.numberings[name].first + 616
    answer = client.post(
        "/api/sessions",
        json={
            "game": cls.name,
            "mode": "practice",
            "numbered": {"numbering": name, "number": number},
        },
        headers=headers,
    )
    assert answer.status_code == 201, answer.text
    view = answer.json()
    ended = client.post(f"/api/sessions/{view['id']}/end", json={}, headers=headers)
    assert ended.status_code == 200, ended.text
    games = client.get("/api/me/games").json()["games"]
    assert games[0]["id"] == view["id"]
    assert games[0]["numbered"]["title"] == f"{cls.numberings[name].title} {number}"
    assert games[0]["seed"] is None


def _refusal(client: TestClient, request: dict[str, Any]) -> str:
    """The reason a refused start gives; asserts it was a 4xx."""
    answer = client.post("/api/sessions", json=request)
    assert 400 <= answer.status_code < 500, answer.text
    detail = answer.json()["detail"]
    return detail if isinstance(detail, str) else " ".join(item["msg"] for item in detail)


@pytest.mark.parametrize(("cls", "name"), NUMBERED, ids=[f"{c.name}-{n}" for c, n in NUMBERED])
def test_a_bad_numbered_deal_is_refused_with_a_reason_and_deals_nothing(
    client: TestClient, database_url: str, cls: Any, name: str
) -> None:
    numbering = cls.numberings[name]
    good = {"numbering": name, "number": numbering.first}
    practice = {"game": cls.name, "mode": "practice"}
    cases: list[tuple[dict[str, Any], str]] = [
        ({**practice, "numbered": {**good, "number": numbering.first - 1}}, numbering.rule),
        ({**practice, "numbered": {**good, "number": -1}}, numbering.rule),
        ({**practice, "numbered": {**good, "number": 10**12}}, numbering.rule),
        ({**practice, "numbered": {**good, "number": numbering.last + 1}}, numbering.rule),
        ({**practice, "numbered": {**good, "number": "abc"}}, "whole number"),
        ({**practice, "numbered": {**good, "number": 1.5}}, "whole number"),
        ({**practice, "numbered": {**good, "number": True}}, "whole number"),
        ({**practice, "numbered": {**good, "number": None}}, "whole number"),
        ({**practice, "numbered": {"numbering": "nope", "number": 1}}, "no deal numbering 'nope'"),
        ({**practice, "numbered": {**good}, "seed": 5}, "not with a seed"),
        ({**practice, "mode": "timed", "numbered": good}, "timed game is dealt by the server"),
        ({"game": cls.name, "numbered": good}, "timed game is dealt by the server"),
    ]
    for request, reason in cases:
        said = _refusal(client, request)
        assert reason in said, (request, said)
    for other in PLAIN:
        said = _refusal(client, {"game": other.name, "mode": "practice", "numbered": good})
        assert "no deal numbering" in said
    # nothing was dealt: no game, running or finished, was written down
    engine = make_engine(database_url)
    try:
        with engine.connect() as connection:
            assert connection.execute(select(func.count()).select_from(sessions)).scalar() == 0
    finally:
        engine.dispose()
