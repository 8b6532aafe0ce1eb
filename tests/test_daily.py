"""The daily deal: one catalog deal a game, variant and UTC day, of a middle tier, the same
for everyone; its seed and tier in no answer until the day is over; a signed-in player's one
game of it; its standing; its games open to replay once revealed; the daily streak; and
the statistics' totals. Store tests run on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, func, select

from patience.daily import (
    GRACE_SECONDS,
    Daily,
    DailyNotReadyError,
    DailyPlayedError,
    DailySignInError,
    day_bounds,
)
from patience.players import Accounts
from patience.server import Settings, create_app
from patience.store.catalog import Certified, add
from patience.store.db import deals, make_engine, migrate, migrate_url, sessions
from patience.store.games import GameStore, Live

GOLF = {"wrap": False}
PASSWORD = "correct horse battery"
NOON = day_bounds("2030-06-15")[0] + 12 * 3600  # a Saturday, midday UTC


class Clock:
    """Wall-clock seconds the test moves."""

    def __init__(self, now: float = NOON) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def stock(engine: Engine, tiers: list[int], first: int = 1000, game: str = "golf") -> None:
    """Golf (no wrap) deals in the catalog, one of each tier in ``tiers``: seed ``first`` up."""
    with engine.begin() as connection:
        for offset, tier in enumerate(tiers):
            rating = {"tier": tier, "score": tier / 10, "version": 1}
            add(
                connection,
                game,
                GOLF,
                Certified(first + offset, 9, 0.01, 40, rating),
                at=1.0,
                origin="random",
            )


@pytest.fixture
def world(database_url: str) -> Iterator[tuple[Engine, Clock, GameStore, Daily, Accounts]]:
    engine = make_engine(database_url)
    migrate(engine)
    clock = Clock()
    store = GameStore(engine, clock=clock)
    yield engine, clock, store, Daily(store, clock=clock), Accounts(engine, clock=clock)
    engine.dispose()


def finish(store: GameStore, clock: Clock, live: Live, seconds: float, plays: int = 0) -> None:
    """Play ``plays`` of the game's first legal plays (not draws), then end it ``seconds``
    after it was dealt."""
    for _ in range(plays):
        legal = [str(move) for move in live.game.legal_moves() if str(move) != "draw"]
        store.play(live, legal[0] if legal else "draw")
    clock.now = live.session.log[0].at + seconds
    if not live.session.is_over():
        store.play(live, "end")


def test_one_deal_for_everyone_of_a_middle_tier(
    world: tuple[Engine, Clock, GameStore, Daily, Accounts],
) -> None:
    engine, clock, _store, daily, accounts = world
    stock(engine, [1, 9, 5, 2])
    ada, bob = accounts.create("Ada", PASSWORD), accounts.create("Bob", PASSWORD)
    first, _ = daily.start("golf", GOLF, user_id=ada.id)
    second, _ = daily.start("golf", {}, user_id=bob.id)  # the variant's default, checked
    assert first.seed == second.seed == 1002  # the tier-5 deal
    assert first.tier is None  # its tier is as secret as its seed
    # the catalog marks it the day's: no other game is dealt it
    with engine.connect() as connection:
        marked = connection.execute(select(deals.c.session_id).where(deals.c.seed == "1002"))
        assert marked.scalar_one() == "daily-2030-06-15"
    # tomorrow, another deal: no tier 4 to 6 is left, nor 3 to 7; 2 to 8 has the tier 2
    clock.now += 86_400
    tomorrow, _ = daily.start("golf", GOLF, user_id=ada.id)
    assert tomorrow.seed == 1003


def test_a_signed_in_player_plays_it_once(
    world: tuple[Engine, Clock, GameStore, Daily, Accounts],
) -> None:
    engine, clock, store, daily, accounts = world
    stock(engine, [5])
    ada = accounts.create("Ada", PASSWORD)
    live, token = daily.start("golf", GOLF, user_id=ada.id)
    assert token is not None
    # whatever outage is credited to its clock, it never runs past the deal's reveal
    # (its seal was a fixed time; before, a credited clock could carry it beyond)
    reveal = day_bounds(daily.today())[1] + GRACE_SECONDS
    assert live.session.ends_at == reveal
    assert store.load(live.id).session.ends_at == reveal
    again, again_token = daily.start("golf", GOLF, user_id=ada.id)
    assert again.id == live.id
    assert again_token is None
    finish(store, clock, live, 60, plays=2)
    with pytest.raises(DailyPlayedError):
        daily.start("golf", GOLF, user_id=ada.id)


def test_no_deal_in_the_catalog_is_said(
    world: tuple[Engine, Clock, GameStore, Daily, Accounts],
) -> None:
    _, _, _, daily, accounts = world
    ada = accounts.create("Ada", PASSWORD)
    with pytest.raises(DailyNotReadyError, match="not ready yet"):
        daily.start("golf", GOLF, user_id=ada.id)


def test_a_guest_is_refused_before_anything_is_dealt(
    world: tuple[Engine, Clock, GameStore, Daily, Accounts],
) -> None:
    """The attack: a guest's games of the daily deal counted nowhere and had no limit, so
    a player could end one and start another until every card was known (the stock by
    drawing, the face-down cards by playing different lines), then sign in, or send their
    session cookie again, and play it for the standing with the cards known."""
    engine, _, _, daily, accounts = world
    stock(engine, [5])
    with pytest.raises(DailySignInError, match="sign in to play today's deal of Golf"):
        daily.start("golf", GOLF, user_id=None, address="10.0.0.1")
    assert daily.find("golf", GOLF, daily.today()) is None  # nothing dealt, nothing claimed
    with engine.connect() as connection:
        assert connection.execute(select(func.count()).select_from(sessions)).scalar_one() == 0
    ada = accounts.create("Ada", PASSWORD)
    live, token = daily.start("golf", GOLF, user_id=ada.id)
    assert token is not None
    assert live.seed == 1000


def test_the_seed_is_secret_until_the_day_is_over_and_then_the_best_games_replay(
    world: tuple[Engine, Clock, GameStore, Daily, Accounts],
) -> None:
    engine, clock, store, daily, accounts = world
    stock(engine, [5])
    ada, bob, cyd = (accounts.create(name, PASSWORD) for name in ("Ada", "Bob", "Cyd"))
    games = {}
    for user, seconds, plays in ((ada, 100, 3), (bob, 90, 3), (cyd, 50, 1)):
        live, _ = daily.start("golf", GOLF, user_id=user.id)
        finish(store, clock, live, seconds, plays)
        games[user.name] = live
    dee = accounts.create("Dee", PASSWORD)
    late, _ = daily.start("golf", GOLF, user_id=dee.id)  # still playing at midnight
    board = daily.public("golf", GOLF, "2030-06-15", user_id=ada.id)
    assert board["seed"] is None
    assert board["tier"] is None
    assert not board["revealed"]
    assert "1000" not in json.dumps(board)
    assert [row["name"] for row in board["standing"][:3]] == ["Bob", "Ada", "Cyd"]
    assert [row["rank"] for row in board["standing"]] == [1, 2, 3]
    assert all(row["game"] is None for row in board["standing"])
    assert board["me"]["rank"] == 2
    assert board["me"]["game"] == games["Ada"].id
    assert board["games"] == 4
    assert board["ranked"] == 3
    # midnight: the day is over, but not its grace, nor the guest's game
    end = day_bounds("2030-06-15")[1]
    clock.now = end + 10
    assert not daily.public("golf", GOLF, "2030-06-15")["revealed"]
    assert store.sealed(games["Ada"])
    clock.now = end + GRACE_SECONDS + 1
    store.expire()
    board = daily.public("golf", GOLF, "2030-06-15")
    assert board["revealed"]
    assert board["seed"] == "1000"
    assert board["tier"] == 5
    assert board["standing"][0]["game"] == games["Bob"].id
    assert not store.sealed(games["Bob"])
    assert late.session.is_over()


def test_the_daily_streak(world: tuple[Engine, Clock, GameStore, Daily, Accounts]) -> None:
    engine, clock, store, daily, accounts = world
    ada = accounts.create("Ada", PASSWORD)
    stock(engine, [5] * 6)
    for day in range(5):
        clock.now = NOON + day * 86_400
        live, _ = daily.start("golf", GOLF, user_id=ada.id)
        finish(store, clock, live, 30)
        if day != 2:  # day 2's is lost; the others are written down as won
            with engine.begin() as connection:
                connection.execute(
                    sessions.update().where(sessions.c.id == live.id).values(won=True)
                )
    figures = daily.streaks(ada.id)
    assert figures == {"played": 5, "won": 4, "current_streak": 2, "best_streak": 2}
    clock.now += 2 * 86_400  # two days without a daily deal won
    assert daily.streaks(ada.id)["current_streak"] == 0


# -- through the API ---------------------------------------------------------------------


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[TestClient, Path]]:
    path = tmp_path / "games.sqlite3"
    migrate_url(f"sqlite:///{path}")
    settings = Settings(
        database_url=f"sqlite:///{path}", catalog_refill=0, rate_starts=None, guest_timed=0
    )
    with TestClient(create_app(settings)) as client:
        yield client, path


def _sign_up(client: TestClient, name: str) -> dict[str, str]:
    answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return {"X-CSRF-Token": answer.json()["csrf"]}


def test_the_api_never_names_today_s_seed(served: tuple[TestClient, Path]) -> None:
    client, path = served
    engine = make_engine(f"sqlite:///{path}")
    guest = client.post("/api/daily/golf", json={"variant": GOLF})
    assert guest.status_code == 401, guest.text
    assert "sign in to play" in guest.json()["detail"]
    headers = _sign_up(client, "Ada")
    assert (
        client.post("/api/daily/golf", json={"variant": GOLF}, headers=headers).status_code == 503
    )
    stock(engine, [5], first=987_654_321)
    answers: list[Any] = []
    started = client.post("/api/daily/golf", json={"variant": GOLF}, headers=headers)
    assert started.status_code == 201, started.text
    body = started.json()
    answers.append(body)
    game = f"/api/sessions/{body['id']}"
    again = client.post("/api/daily/golf", json={"variant": GOLF}, headers=headers)
    assert again.status_code == 200
    assert again.json()["id"] == body["id"]
    answers.append(client.post(f"{game}/end", headers=headers).json())
    assert (
        client.post("/api/daily/golf", json={"variant": GOLF}, headers=headers).status_code == 409
    )
    answers.append(client.get(game).json())
    answers.append(client.get("/api/daily").json())
    answers.append(client.get("/api/daily/golf", params={"variant": json.dumps(GOLF)}).json())
    answers.append(client.get("/api/me/games").json())
    answers.append(client.get("/api/me/stats").json())
    for refused in (f"{game}/record", f"{game}/replay", f"/api/replays/{body['id']}"):
        answer = client.get(refused)
        assert answer.status_code in (404, 409), refused
        answers.append(answer.json())
    text = json.dumps(answers)
    assert "987654321" not in text
    ended = answers[1]
    assert ended["seed"] is None
    assert ended["result"] is not None
    daily = answers[4]
    assert daily["standing"][0]["name"] == "Ada"
    assert daily["seed"] is None
    kinds = {(d["game"], json.dumps(d["variant"])): d for d in answers[3]["deals"]}
    assert kinds[("golf", json.dumps(GOLF))]["me"]["won"] is False
    assert client.get("/api/daily/golf", params={"day": "2999-01-01"}).status_code == 400
    last = client.get("/api/daily/golf", params={"day": "9999-12-31"})  # a date overflowed
    assert last.status_code == 400
    assert "so far ahead" in last.json()["detail"]
    assert client.get("/api/daily/golf", params={"day": "tomorrow"}).status_code == 400
    assert client.get("/api/daily/golf", params={"variant": "{"}).status_code == 400
    assert client.get("/api/daily/chess").status_code == 400
    engine.dispose()


def test_yesterday_s_games_replay_for_everyone(served: tuple[TestClient, Path]) -> None:
    client, path = served
    engine = make_engine(f"sqlite:///{path}")
    stock(engine, [5])
    # a game of a daily deal two days ago, played in the same database
    clock = Clock(day_bounds("2020-01-01")[0] + 3600)
    store = GameStore(engine, clock=clock)
    ada = Accounts(engine, clock=clock).create("Ada", PASSWORD)
    live, _ = Daily(store, clock=clock).start("golf", GOLF, user_id=ada.id)
    finish(store, clock, live, 40, plays=2)
    answer = client.get(f"/api/replays/{live.id}")
    assert answer.status_code == 200, answer.text
    replay = answer.json()
    assert replay["player"] == "Ada"
    assert replay["seed"] == 1000
    assert len(replay["steps"]) == len(live.session.record().moves) + 1
    board = client.get("/api/daily/golf", params={"day": "2020-01-01"}).json()
    assert board["revealed"]
    assert board["standing"][0]["game"] == live.id
    # a practice game is nobody else's to replay
    practice = client.post("/api/sessions", json={"game": "golf", "mode": "practice"}).json()
    client.post(
        f"/api/sessions/{practice['id']}/end",
        headers={"Authorization": f"Bearer {practice['token']}"},
    )
    assert client.get(f"/api/replays/{practice['id']}").status_code == 404
    engine.dispose()


def test_statistics_totals_time_and_lobby_order(served: tuple[TestClient, Path]) -> None:
    client, _ = served
    _sign_up(client, "Ada")
    headers = {"X-CSRF-Token": client.get("/api/me").json()["csrf"]}
    for request in (
        {"game": "kansas", "mode": "practice", "seed": 1},
        {"game": "golf", "mode": "relaxed", "seed": 2},
        {"game": "golf", "mode": "practice", "seed": 3},
        {"game": "klondike", "variant": {"draw": 3}, "mode": "practice", "seed": 4},
    ):
        body = client.post("/api/sessions", json=request, headers=headers).json()
        client.post(
            f"/api/sessions/{body['id']}/moves",
            json={"move": body["legal_moves"][0]},
            headers=headers,
        )
        client.post(f"/api/sessions/{body['id']}/end", headers=headers)
    stats = client.get("/api/me/stats").json()
    order = [(g["game"], g["mode"]) for g in stats["stats"]]
    assert order == [
        ("klondike", "practice"),
        ("golf", "practice"),
        ("golf", "relaxed"),
        ("kansas", "practice"),
    ]
    relaxed = stats["stats"][2]
    assert relaxed["best_score"] is None
    assert relaxed["average_score"] is None
    assert relaxed["recent"][0]["score"] is None
    assert stats["totals"]["games"] == 4
    assert stats["totals"]["timed"]["games"] == 0
    assert stats["totals"]["time_played"] == pytest.approx(  # each figure to the ms
        sum(g["time_played"] for g in stats["stats"]), abs=0.001 * len(stats["stats"])
    )
    assert stats["daily"] == {"played": 0, "won": 0, "current_streak": 0, "best_streak": 0}


def test_the_history_shows_a_daily_deal_s_tier_once_it_is_revealed(
    served: tuple[TestClient, Path],
) -> None:
    client, path = served
    engine = make_engine(f"sqlite:///{path}")
    stock(engine, [5, 4], first=555_000)
    # a game of a daily deal long ago (its day over): its deal, seed and tier, are public
    clock = Clock(day_bounds("2020-01-01")[0] + 3600)
    store = GameStore(engine, clock=clock)
    ada = Accounts(engine, clock=clock).create("Ada", PASSWORD)
    old, _ = Daily(store, clock=clock).start("golf", GOLF, user_id=ada.id)
    finish(store, clock, old, 40, plays=2)
    login = client.post("/api/accounts/login", json={"name": "Ada", "password": PASSWORD})
    assert login.status_code == 200, login.text
    headers = {"X-CSRF-Token": login.json()["csrf"]}
    # and today's, still sealed: neither its seed nor its tier is given
    started = client.post("/api/daily/golf", json={"variant": GOLF}, headers=headers)
    assert started.status_code == 201, started.text
    client.post(f"/api/sessions/{started.json()['id']}/end", headers=headers)
    games = {game["id"]: game for game in client.get("/api/me/games").json()["games"]}
    assert games[old.id]["seed"] == "555000"
    assert games[old.id]["tier"] == 5
    assert games[old.id]["occasion"] == {"daily": "2020-01-01"}
    today = games[started.json()["id"]]
    assert today["seed"] is None
    assert today["tier"] is None
    engine.dispose()


def test_today_s_list_gives_the_player_s_result_rank_and_streak(
    served: tuple[TestClient, Path],
) -> None:
    client, path = served
    engine = make_engine(f"sqlite:///{path}")
    stock(engine, [5])
    assert client.get("/api/daily").json()["streak"] is None  # a guest has none
    for name in ("Bob", "Ada"):  # Bob plays first and scores more; Ada second
        headers = _sign_up(client, name)
        body = client.post("/api/daily/golf", json={"variant": GOLF}, headers=headers).json()
        if name == "Bob":
            for _ in range(3):
                legal = [move for move in body["legal_moves"] if move != "draw"]
                body = client.post(
                    f"/api/sessions/{body['id']}/moves",
                    json={"move": legal[0] if legal else "draw"},
                    headers=headers,
                ).json()
        client.post(f"/api/sessions/{body['id']}/end", headers=headers)
        if name == "Bob":
            client.post("/api/accounts/logout", headers=headers)
    answer = client.get("/api/daily").json()
    mine = next(d for d in answer["deals"] if d["game"] == "golf" and d["variant"] == GOLF)["me"]
    board = client.get("/api/daily/golf", params={"variant": json.dumps(GOLF)}).json()
    assert (mine["rank"], mine["ranked"]) == (board["me"]["rank"], board["ranked"]) == (2, 2)
    assert mine["score"] == board["me"]["score"]
    assert mine["elapsed"] == board["me"]["elapsed"]
    assert mine["won"] is False
    assert answer["streak"] == {"played": 1, "won": 0, "current_streak": 0, "best_streak": 0}
    engine.dispose()
