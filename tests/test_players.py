"""Players: accounts (sign up, log in, expiry, log out, password change), no secret kept in
plain text, CSRF, nobody reads another's games, statistics and streaks worked out by hand,
and timed deals that count (on SQLite, then PostgreSQL). The limits on log-ins and
sign-ups are tested in ``test_login_limits.py``."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, String, Text, select

from patience.players import (
    Accounts,
    BadCredentialsError,
    NameTakenError,
)
from patience.players.accounts import AccountError
from patience.players.history import Finished, statistics_of
from patience.server import Settings, create_app
from patience.server.settings import Rate
from patience.store.db import make_engine, metadata, migrate, sessions
from test_hardening import refilled_in

PASSWORD = "correct horse battery"


class Clock:
    """Wall-clock seconds the test moves."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    made = make_engine(database_url)
    migrate(made)
    yield made
    made.dispose()


def test_sign_up_log_in_expire_log_out_and_change_the_password(engine: Engine) -> None:
    clock = Clock()
    accounts = Accounts(engine, session_days=1.0, clock=clock)
    signed = accounts.sign_up("Ada Lovelace", PASSWORD)
    assert accounts.session(signed.token) == signed.user
    with pytest.raises(NameTakenError):
        accounts.sign_up("ADA LOVELACE", "another password")  # names compare without case
    with pytest.raises(NameTakenError):  # nor by full-width look-alikes
        accounts.sign_up("\uff41da lovelace", "another password")
    accounts.sign_up("Copy", PASSWORD)
    with pytest.raises(NameTakenError):  # nor by letters of another alphabet drawn alike
        accounts.sign_up("\u0421\u043e\u0440\u0443", "another password")  # Cyrillic
    with pytest.raises(BadCredentialsError):
        accounts.log_in("ada lovelace", "wrong password", address="10.0.0.1")
    again = accounts.log_in("ada lovelace", PASSWORD, address="10.0.0.1")
    assert again.user == signed.user
    assert again.token != signed.token
    clock.now += 86_400 + 1  # a day later both sessions have expired
    assert accounts.session(signed.token) is None
    assert accounts.session(again.token) is None
    third = accounts.log_in("Ada Lovelace", PASSWORD, address="10.0.0.1")
    fourth = accounts.log_in("Ada Lovelace", PASSWORD, address="10.0.0.2")
    accounts.log_out(third.token)
    assert accounts.session(third.token) is None
    assert accounts.session(fourth.token) == signed.user  # only that browser logged out
    with pytest.raises(BadCredentialsError):
        accounts.change_password(signed.user, "not the old one", "a new password")
    with pytest.raises(AccountError, match="at least 8"):
        accounts.change_password(signed.user, PASSWORD, "short")
    accounts.change_password(signed.user, PASSWORD, "a new password")
    assert accounts.session(fourth.token) is None  # every session ended with the change
    with pytest.raises(BadCredentialsError):
        accounts.log_in("Ada Lovelace", PASSWORD, address="10.0.0.1")
    assert accounts.log_in("Ada Lovelace", "a new password", address="10.0.0.1").user.id == (
        signed.user.id
    )


@pytest.mark.parametrize(
    ("name", "password", "reason"),
    [
        ("a", PASSWORD, "2 to 24"),
        ("x" * 25, PASSWORD, "2 to 24"),
        ("Robert'); DROP TABLE users;--", PASSWORD, "2 to 24"),
        ("semi;colon", PASSWORD, "letters, digits"),
        ("two  spaces", PASSWORD, "single spaces"),
        ("Gr\u0430ce", PASSWORD, "one alphabet"),  # a Cyrillic a among Latin letters
        ("Grace", "short", "at least 8"),
        ("Grace", "x" * 257, "at most 256"),
        ("Grace Hopper", "grace hopper", "not the name"),
    ],
)
def test_bad_names_and_passwords_are_refused_with_a_reason(
    engine: Engine, name: str, password: str, reason: str
) -> None:
    with pytest.raises(AccountError, match=reason):
        Accounts(engine).sign_up(name, password)


def test_no_password_or_session_token_is_stored_in_plain_text(engine: Engine) -> None:
    accounts = Accounts(engine)
    signed = accounts.sign_up("Grace Hopper", PASSWORD)
    with pytest.raises(BadCredentialsError):
        accounts.log_in("Grace Hopper", "guessed password", address="10.0.0.9")
    secrets = [PASSWORD, "guessed password", signed.token, signed.csrf]
    found = []
    with engine.connect() as connection:
        for table in metadata.sorted_tables:
            texts = [c for c in table.columns if isinstance(c.type, String | Text)]
            if not texts:
                continue
            for row in connection.execute(select(*texts)):
                for value in row:
                    found += [s for s in secrets if value is not None and s in str(value)]
    assert found == []
    with engine.connect() as connection:
        stored = connection.execute(select(metadata.tables["users"].c.password_hash)).scalar()
    assert str(stored).startswith("$argon2id$")


def test_statistics_and_streaks_from_a_constructed_history() -> None:
    golf, klondike = {"wrap": True}, {"draw": 3}
    history = [  # (game, variant, mode, tier, won, score, seconds), in the order they ended
        ("golf", golf, "timed", 2, True, 30, 50.0),
        ("golf", golf, "timed", 2, True, 25, 70.0),
        ("golf", golf, "timed", 5, False, 12, 180.0),  # abandoned: ran out of time
        ("golf", golf, "timed", 5, True, 28, 40.0),
        ("golf", golf, "timed", None, True, 31, 65.0),
        ("golf", golf, "timed", 9, True, 20, 90.0),
        ("golf", golf, "timed", 9, False, 8, 60.0),
        ("golf", golf, "timed", 2, True, 27, 45.0),
        ("golf", golf, "practice", None, False, 5, 10.0),
        ("klondike", klondike, "timed", 4, False, 300, 300.0),
    ]
    games = [
        Finished(f"g{i}", name, variant, mode, tier, float(i), won, score, seconds)
        for i, (name, variant, mode, tier, won, score, seconds) in enumerate(history)
    ]
    stats = {(s.game, s.mode): s.to_json() for s in statistics_of(reversed(games))}
    timed = stats[("golf", "timed")]
    # worked out by hand: W W L W W W L W
    assert timed["games"] == 8
    assert timed["wins"] == 6
    assert timed["win_rate"] == 0.75
    assert timed["current_streak"] == 1
    assert timed["best_streak"] == 3
    assert timed["best_score"] == 31
    assert timed["fastest_win"] == 40.0
    assert timed["average_score"] == (30 + 25 + 12 + 28 + 31 + 20 + 8 + 27) / 8  # 22.625
    assert timed["tiers"] == [
        {"tier": 2, "games": 3, "wins": 3},
        {"tier": 5, "games": 2, "wins": 1},
        {"tier": 9, "games": 2, "wins": 1},
    ]
    practice = stats[("golf", "practice")]
    assert (practice["games"], practice["wins"], practice["best_streak"]) == (1, 0, 0)
    assert practice["fastest_win"] is None
    assert stats[("klondike", "timed")]["current_streak"] == 0
    assert len(stats) == 3


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    settings = Settings(
        database_url=database_url,
        catalog_refill=0,
        time_limit=2.0,  # a timed game runs out quickly here
        rate_starts=None,
        rate_moves=None,
        rate_hints=None,
        rate_address=None,
    )
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def sign_up(client: TestClient, name: str, **extra: Any) -> dict[str, str]:
    """Sign ``client`` up as ``name``: the headers its changes must carry."""
    answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD, **extra})
    assert answer.status_code == 201, answer.text
    assert answer.json()["name"] == name
    cookie = answer.headers["set-cookie"].lower()
    assert "httponly" in cookie
    assert "samesite=strict" in cookie
    assert "secure" not in cookie  # plain HTTP here; Secure over TLS
    return {"X-CSRF-Token": answer.json()["csrf"]}


def test_a_signed_in_player_s_hints_are_counted_across_their_games(database_url: str) -> None:
    """A signed-in player's hints are theirs, whichever game they ask in (a new game gives
    no fresh hints); a guest on the same address keeps their own."""
    settings = Settings(
        database_url=database_url,
        catalog_refill=0,
        hint_seconds=0.2,
        rate_starts=None,
        rate_moves=None,
        rate_address=None,
        rate_hints=Rate(1 / 60, 2),
    )
    with TestClient(create_app(settings)) as client:
        headers = sign_up(client, "Hinter")
        games = []
        for seed in (5, 6):
            made = client.post(
                "/api/sessions",
                json={"game": "golf", "mode": "practice", "seed": seed},
                headers=headers,
            )
            assert made.status_code == 201, made.text
            games.append(made.json()["id"])
        since = time.monotonic()
        for _ in range(2):
            assert client.post(f"/api/sessions/{games[0]}/hint", headers=headers).status_code == 200
        refused = client.post(f"/api/sessions/{games[1]}/hint", headers=headers)
        assert refused.status_code == 429
        assert refilled_in(int(refused.headers["retry-after"]), since)
        assert refused.json()["detail"].startswith("too many hints: at most 2 at once")
        assert client.get(f"/api/sessions/{games[1]}").json()["move_count"] == 0
        # a guest on the same address (here, after signing out) is not counted with them
        assert client.post("/api/accounts/logout", headers=headers).status_code == 204
        made = client.post("/api/sessions", json={"game": "golf", "mode": "practice", "seed": 5})
        token = {"Authorization": f"Bearer {made.json()['token']}"}
        answer = client.post(f"/api/sessions/{made.json()['id']}/hint", headers=token)
        assert answer.status_code == 200


def test_a_signed_in_change_needs_the_csrf_token_and_this_origin(client: TestClient) -> None:
    headers = sign_up(client, "Ada")
    golf = {"game": "golf", "variant": {"wrap": True}, "mode": "practice", "seed": 5}
    refused = client.post("/api/sessions", json=golf)
    assert refused.status_code == 403
    assert "X-CSRF-Token" in refused.json()["detail"]
    wrong = client.post("/api/sessions", json=golf, headers={"X-CSRF-Token": "0" * 64})
    assert wrong.status_code == 403
    other_site = client.post(
        "/api/sessions", json=golf, headers={**headers, "Origin": "https://evil.example"}
    )
    assert other_site.status_code == 403
    assert client.get("/api/me/games").json()["games"] == []  # nothing was made
    made = client.post("/api/sessions", json=golf, headers=headers)
    assert made.status_code == 201
    logout = client.post("/api/accounts/logout")  # logging out is a change too
    assert logout.status_code == 403
    assert client.get("/api/me").status_code == 200
    assert client.post("/api/accounts/logout", headers=headers).status_code == 204
    assert client.get("/api/me").status_code == 401
    login_elsewhere = client.post(
        "/api/accounts/login",
        json={"name": "Ada", "password": PASSWORD},
        headers={"Origin": "https://evil.example"},
    )
    assert login_elsewhere.status_code == 403


def play_out(client: TestClient, game_id: str, headers: dict[str, str]) -> dict[str, Any]:
    """End game ``game_id`` at once (``end``): its view."""
    answer = client.post(f"/api/sessions/{game_id}/end", headers=headers)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def test_nobody_reads_another_players_games(client: TestClient) -> None:
    ada = sign_up(client, "Ada")
    game = client.post(
        "/api/sessions",
        json={"game": "golf", "variant": {"wrap": False}, "mode": "practice", "seed": 9},
        headers=ada,
    ).json()
    # Ada's game is hers on any device: her cookie without the game's token is enough
    assert client.get(f"/api/sessions/{game['id']}").status_code == 200
    play_out(client, game["id"], ada)
    assert client.get(f"/api/sessions/{game['id']}/record").status_code == 200
    replay = client.get(f"/api/sessions/{game['id']}/replay").json()
    assert [step["move"] for step in replay["steps"]] == [None, "end"]
    assert replay["steps"][0]["board"]["game"] == "golf"
    mine = client.get("/api/me/games").json()["games"]
    assert [g["id"] for g in mine] == [game["id"]]
    assert mine[0]["seed"] == "9"
    assert mine[0]["occasion"] is None  # a game of her own
    assert mine[0]["won"] is False
    client.post("/api/accounts/logout", headers=ada)

    grace = sign_up(client, "Grace")
    assert client.get(f"/api/sessions/{game['id']}").status_code == 403
    assert client.get(f"/api/sessions/{game['id']}/record").status_code == 403
    assert client.get(f"/api/sessions/{game['id']}/replay").status_code == 403
    moved = client.post(f"/api/sessions/{game['id']}/end", headers=grace)
    assert moved.status_code == 403
    assert client.get("/api/me/games").json()["games"] == []
    assert client.get("/api/me/stats").json()["stats"] == []
    assert client.get("/api/me/export").text == ""
    client.post("/api/accounts/logout", headers=grace)
    for path in ("/api/me", "/api/me/games", "/api/me/stats", "/api/me/export"):
        assert client.get(path).status_code == 401  # a guest has none of these


def test_a_guest_who_signs_up_keeps_every_game_of_that_browser_or_none(
    client: TestClient,
) -> None:
    """All of a browser's guest games, or none: naming only the win claimed just the win
    (1 game, 100% won); now the abandoned ones come too."""
    won = client.post("/api/sessions", json={"game": "kansas", "mode": "practice", "seed": 4})
    left = client.post("/api/sessions", json={"game": "kansas", "mode": "practice", "seed": 5})
    won, left = won.json(), left.json()
    client.post(
        f"/api/sessions/{won['id']}/end", headers={"Authorization": f"Bearer {won['token']}"}
    )
    elsewhere = TestClient(client.app)  # another browser, guest games of its own
    theirs = elsewhere.post(
        "/api/sessions", json={"game": "kansas", "mode": "practice", "seed": 6}
    ).json()
    answer = client.post(
        "/api/accounts",
        json={
            "name": "Katherine",
            "password": PASSWORD,
            "claim": [{"id": won["id"], "token": won["token"]}],  # only one named
        },
    )
    assert answer.status_code == 201
    assert answer.json()["claimed"] == 2  # both of this browser's
    assert client.get(f"/api/sessions/{left['id']}").status_code == 200  # hers, abandoned
    assert [g["id"] for g in client.get("/api/me/games").json()["games"]] == [won["id"]]
    assert client.get(f"/api/sessions/{theirs['id']}").status_code == 403  # not claimed
    declined = elsewhere.post(
        "/api/accounts", json={"name": "Grace", "password": PASSWORD, "claim": False}
    )
    assert declined.status_code == 201
    assert declined.json()["claimed"] == 0
    assert elsewhere.get(f"/api/sessions/{theirs['id']}").status_code == 403


def test_a_timed_deal_counts_once_dealt(client: TestClient) -> None:
    headers = sign_up(client, "Alan")
    golf = {"game": "golf", "variant": {"wrap": True}}
    first = client.post("/api/sessions", json=golf, headers=headers)
    assert first.status_code == 201, first.text
    second = client.post("/api/sessions", json=golf, headers=headers)
    assert second.status_code == 409
    assert "running" in second.json()["detail"]
    other_kind = client.post(
        "/api/sessions", json={"game": "golf", "variant": {"wrap": False}}, headers=headers
    )
    assert other_kind.status_code == 201  # one of each kind
    practice = client.post("/api/sessions", json={**golf, "mode": "practice"}, headers=headers)
    assert practice.status_code == 201  # practice does not count
    # both timed games run out, left alone, and the sweep ends them (the test's calls or
    # the server's own background sweep, whichever comes first)
    store = client.app.state.store  # type: ignore[attr-defined]
    timed = [first.json()["id"], other_kind.json()["id"]]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        store.expire()
        with store.engine.connect() as connection:
            # read every row: a result left half-read keeps SQLite's pooled connection
            # reading an old snapshot (its later queries would not see the games end)
            ends = connection.execute(
                select(sessions.c.ended_at).where(sessions.c.id.in_(timed))
            ).all()
            if all(end is not None for (end,) in ends):
                break
        time.sleep(0.1)
    else:
        raise AssertionError("the timed games were never ended")
    stats = {
        (s["game"], str(s["variant"]), s["mode"]): s
        for s in client.get("/api/me/stats").json()["stats"]
    }
    abandoned = stats[("golf", str({"wrap": True}), "timed")]
    assert (abandoned["games"], abandoned["wins"], abandoned["current_streak"]) == (1, 0, 0)
    again = client.post("/api/sessions", json=golf, headers=headers)
    assert again.status_code == 201  # the clock ended it: a new timed deal may be dealt


def test_the_export_is_one_game_record_a_line(client: TestClient) -> None:
    headers = sign_up(client, "Mary")
    for seed in (3, 4):
        game = client.post(
            "/api/sessions",
            json={"game": "golf", "variant": {"wrap": True}, "mode": "practice", "seed": seed},
            headers=headers,
        ).json()
        play_out(client, game["id"], headers)
    lines = client.get("/api/me/export").text.splitlines()
    assert len(lines) == 2
    records = [json.loads(line) for line in lines]
    assert [r["moves"][-1] for r in records] == ["end", "end"]
    assert all(r["game"] == "golf" and len(r["deal"]) == 52 for r in records)


def test_the_first_operator_is_made_on_the_command_line(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'players.sqlite3'}"
    command = [sys.executable, "-m", "patience.cli", "users", "create", "Root Admin", "--operator"]
    env = {"PATIENCE_DATABASE_URL": url, "PATH": "/usr/bin:/bin"}
    migrated = subprocess.run(
        [sys.executable, "-m", "patience.cli", "db", "migrate"], capture_output=True, env=env
    )
    assert migrated.returncode == 0, migrated.stderr
    made = subprocess.run(command, input=PASSWORD + "\n", capture_output=True, text=True, env=env)
    assert made.returncode == 0, made.stderr
    assert "operator Root Admin created" in made.stdout
    taken = subprocess.run(command, input=PASSWORD + "\n", capture_output=True, text=True, env=env)
    assert taken.returncode == 1
    assert "taken" in taken.stderr
    assert "Traceback" not in taken.stderr
    engine = make_engine(url)
    try:
        signed = Accounts(engine).log_in("root admin", PASSWORD, address="127.0.0.1")
        assert signed.user.operator
    finally:
        engine.dispose()


def test_guests_timed_games_are_limited_per_address(database_url: str) -> None:
    settings = Settings(
        database_url=database_url, catalog_refill=0, guest_timed=2, rate_starts=None
    )
    with TestClient(create_app(settings)) as client:
        golf = {"game": "golf", "variant": {"wrap": True}}
        for _ in range(2):
            assert client.post("/api/sessions", json=golf).status_code == 201
        third = client.post("/api/sessions", json=golf)
        assert third.status_code == 409
        assert "guests at your address" in third.json()["detail"]
        other = client.post("/api/sessions", json={"game": "golf", "variant": {"wrap": False}})
        assert other.status_code == 201  # counted per game and variant
        assert client.post("/api/sessions", json={**golf, "mode": "practice"}).status_code == 201
        # a guest who signs up takes over the browser's running games, so with claim false
        headers = sign_up(client, "Edsger", claim=False)
        assert client.post("/api/sessions", json=golf, headers=headers).status_code == 201
