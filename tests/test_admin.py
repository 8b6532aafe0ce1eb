"""Account administration: list, show, disable and enable (a disabled account's sessions
end), rename, reset a password, promote and demote, delete (the account's games and a
closed tournament's standings and verification stay, anonymous); sign-up closed; the same
through the operator's API (operators only, never on their own account) and on the
command line (on SQLite, then PostgreSQL); and the operator's page in Chromium."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Browser
from sqlalchemy import Engine, select

from page_checks import DESKTOP, PHONE, check
from patience.players import (
    Accounts,
    BadCredentialsError,
    DisabledError,
    NameTakenError,
    NoSuchAccountError,
)
from patience.server import Settings, create_app, launch
from patience.store.catalog import Certified, add
from patience.store.db import make_engine, sessions, users
from patience.store.games import GameStore
from patience.tournaments import Tournaments, verify
from test_browser import BYPASS_CSP, browser  # noqa: F401 (the fixture)

PASSWORD = "correct horse battery"


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    made = make_engine(database_url)
    yield made
    made.dispose()


def test_disable_rename_reset_promote_and_delete(engine: Engine) -> None:
    accounts = Accounts(engine)
    ada = accounts.create("Ada", PASSWORD)
    accounts.create("Bob", PASSWORD, operator=True)
    signed = accounts.log_in("ada", PASSWORD, address="192.0.2.1")
    assert accounts.session(signed.token) == signed.user

    page, total = accounts.accounts()
    assert [a.name for a in page] == ["Ada", "Bob"]
    assert total == 2
    assert accounts.accounts(search="BO")[1] == 1
    shown = accounts.find(" ADA ")
    assert (shown.sessions, shown.games, shown.disabled) == (1, 0, False)
    assert shown.last_login_at is not None

    # disabled: the session ends at once, and the right password no longer signs in
    accounts.set_disabled(ada.id, True)
    assert accounts.session(signed.token) is None
    with pytest.raises(DisabledError):
        accounts.log_in("Ada", PASSWORD, address="192.0.2.1")
    with pytest.raises(BadCredentialsError):  # a wrong password says nothing of the state
        accounts.log_in("Ada", "wrong password", address="192.0.2.1")
    accounts.set_disabled(ada.id, False)
    again = accounts.log_in("Ada", PASSWORD, address="192.0.2.1")

    # renamed: the old name is free, the new one must be
    with pytest.raises(NameTakenError):
        accounts.rename(ada.id, "bob")
    assert accounts.rename(ada.id, "Ada Lovelace").name == "Ada Lovelace"
    with pytest.raises(NoSuchAccountError):
        accounts.find("Ada")
    assert accounts.session(again.token) is not None  # a new name keeps the session

    # a reset password: the sessions end, the new one works
    accounts.reset_password(ada.id, "a new password")
    assert accounts.session(again.token) is None
    accounts.log_in("ada lovelace", "a new password", address="192.0.2.1")

    assert accounts.set_operator(ada.id, True).operator
    assert accounts.operators() == 2
    assert not accounts.set_operator(ada.id, False).operator

    # deleted: no name, no password, no sessions; the row stays, anonymous
    accounts.delete_account(ada.id)
    with pytest.raises(NoSuchAccountError):
        accounts.find("Ada Lovelace")
    with pytest.raises(BadCredentialsError):
        accounts.log_in("Ada Lovelace", "a new password", address="192.0.2.1")
    with engine.connect() as connection:
        row = connection.execute(select(users).where(users.c.id == ada.id)).one()
    assert row.name == f"deleted player {ada.id[:8]}"
    assert row.password_hash == ""
    assert row.deleted_at is not None
    assert [a.name for a in accounts.accounts()[0]] == ["Bob"]
    assert accounts.accounts(deleted=True)[1] == 2
    accounts.create("Ada Lovelace", PASSWORD)  # the name is free again
    with pytest.raises(NoSuchAccountError):
        accounts.set_disabled(ada.id, False)  # nothing more is done to a deleted account


def test_a_deleted_players_results_stand_anonymous(tmp_path: Path) -> None:
    import time

    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    from patience.store.db import migrate_url

    migrate_url(url)
    engine = make_engine(url)
    with engine.begin() as connection:
        add(connection, "golf", {"wrap": True}, Certified(11, 9, 0.01, 40), at=1.0, origin="random")
    store = GameStore(engine)
    tournaments = Tournaments(store)
    store.on_game_end(tournaments.game_ended)
    accounts = Accounts(engine)
    operator = accounts.create("Root", PASSWORD, operator=True)
    ada, bob = accounts.create("Ada", PASSWORD), accounts.create("Bob", PASSWORD)
    now = time.time()
    tid = tournaments.create(
        operator,
        name="Friday",
        game="golf",
        variant={"wrap": True},
        policy="shared",
        tier=None,
        opens_at=now - 1,
        closes_at=now + 600,
    )["id"]
    for player, moves in ((ada, 3), (bob, 1)):
        tournaments.join(player, tid)
        live = tournaments.start_attempt(player, tid)[0]
        for _ in range(moves):
            store.play(live, str(live.game.legal_moves()[0]))
        store.play(live, "end")
    before = tournaments.standings(tid)
    tournaments.close(operator, tid)
    accounts.delete_account(ada.id)
    after = tournaments.standings(tid)
    assert [e["rank"] for e in after["entries"]] == [e["rank"] for e in before["entries"]]
    names = [e["name"] for e in after["entries"]]
    assert "Ada" not in names
    assert f"deleted player {ada.id[:8]}" in names
    published = tournaments.verification(tid)
    assert verify(published) == []
    with engine.connect() as connection:
        games = connection.execute(select(sessions.c.id).where(sessions.c.user_id == ada.id)).all()
    assert len(games) == 1  # the game stays, its player anonymous
    assert store.record(games[0].id)["moves"][-1] == "end"
    engine.dispose()


# -- the operator's API -------------------------------------------------------------------


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    settings = Settings(database_url=database_url, catalog_refill=0, rate_starts=None)
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def log_in(client: TestClient, name: str) -> dict[str, str]:
    answer = client.post("/api/accounts/login", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    return {"X-CSRF-Token": answer.json()["csrf"]}


def test_the_operators_api(client: TestClient, database_url: str) -> None:
    engine = make_engine(database_url)
    accounts = Accounts(engine)
    root = accounts.create("Root", PASSWORD, operator=True)
    ada = accounts.create("Ada", PASSWORD)
    engine.dispose()

    # a guest, then a player, are refused
    assert client.get("/api/admin/users").status_code == 401
    player = TestClient(client.app)
    ada_headers = log_in(player, "Ada")
    assert player.get("/api/admin/users").status_code == 403
    assert player.post(f"/api/admin/users/{ada.id}/promote", headers=ada_headers).status_code == 403

    headers = log_in(client, "Root")
    listed = client.get("/api/admin/users").json()
    assert listed["total"] == 2
    assert [u["name"] for u in listed["users"]] == ["Ada", "Root"]
    assert client.get("/api/admin/users?search=ad").json()["total"] == 1
    server = client.get("/api/admin/server").json()
    assert server["signup"] == "open"
    assert (server["accounts"], server["operators"]) == (2, 1)

    # a change needs the CSRF token
    assert client.post(f"/api/admin/users/{ada.id}/disable").status_code == 403
    disabled = client.post(f"/api/admin/users/{ada.id}/disable", headers=headers)
    assert disabled.json()["disabled"] is True
    # Ada's browser is signed out: the session ended in the database, and in memory
    assert player.get("/api/me").status_code == 401
    refused = player.post("/api/accounts/login", json={"name": "Ada", "password": PASSWORD})
    assert refused.status_code == 403
    assert "disabled" in refused.json()["detail"]
    client.post(f"/api/admin/users/{ada.id}/enable", headers=headers)

    renamed = client.post(
        f"/api/admin/users/{ada.id}/rename", headers=headers, json={"name": "Root"}
    )
    assert renamed.status_code == 409
    bad = client.post(f"/api/admin/users/{ada.id}/rename", headers=headers, json={"name": "x"})
    assert bad.status_code == 400
    assert "2 to 24" in bad.json()["detail"]
    renamed = client.post(
        f"/api/admin/users/{ada.id}/rename", headers=headers, json={"name": "Ada L"}
    )
    assert renamed.json()["name"] == "Ada L"

    reset = client.post(f"/api/admin/users/{ada.id}/password", headers=headers).json()
    assert len(reset["password"]) >= 16
    fresh = TestClient(client.app)
    signed = fresh.post(
        "/api/accounts/login", json={"name": "ada l", "password": reset["password"]}
    )
    assert signed.status_code == 200

    assert client.post(f"/api/admin/users/{ada.id}/promote", headers=headers).json()["operator"]
    # not on one's own account
    for action in ("disable", "demote"):
        mine = client.post(f"/api/admin/users/{root.id}/{action}", headers=headers)
        assert mine.status_code == 409
        assert "your own account" in mine.json()["detail"]
    assert client.delete(f"/api/admin/users/{root.id}", headers=headers).status_code == 409

    assert client.delete(f"/api/admin/users/{ada.id}", headers=headers).json() == {"deleted": True}
    assert client.delete(f"/api/admin/users/{ada.id}", headers=headers).status_code == 404
    assert client.get("/api/admin/users/nobody").status_code == 404
    assert client.get("/api/admin/users").json()["total"] == 1
    assert client.get("/api/admin/users?deleted=true").json()["total"] == 2


def test_sign_up_closed(database_url: str) -> None:
    settings = Settings(database_url=database_url, catalog_refill=0, signup="closed")
    with TestClient(create_app(settings)) as client:
        assert client.get("/api/accounts/signup").json() == {"open": False}
        answer = client.post("/api/accounts", json={"name": "Ada", "password": PASSWORD})
        assert answer.status_code == 403
        assert "sign-up is closed" in answer.json()["detail"]
        engine = make_engine(database_url)
        Accounts(engine).create("Ada", PASSWORD)  # an operator's account still signs in
        engine.dispose()
        assert (
            client.post(
                "/api/accounts/login", json={"name": "Ada", "password": PASSWORD}
            ).status_code
            == 200
        )


# -- the command line ---------------------------------------------------------------------


# twenty commands, a process each (50 s); make test makes the first operator on the
# command line (test_players.py) and runs the rest of the users' code through the API
@pytest.mark.slow
def test_the_users_commands(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    env = {key: v for key, v in os.environ.items() if not key.startswith("PATIENCE_")}
    env["PATIENCE_DATABASE_URL"] = url

    def users_command(*args: str, password: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "patience.cli", "users", *args],
            input=None if password is None else password + "\n",
            env=env,
            capture_output=True,
            text=True,
        )

    unmigrated = users_command("list")
    assert unmigrated.returncode == 1
    assert "patience db migrate" in unmigrated.stderr
    subprocess.run([sys.executable, "-m", "patience.cli", "db", "migrate"], env=env, check=True)
    assert users_command("create", "Ada Lovelace", password=PASSWORD).returncode == 0
    assert users_command("create", "Bob", "--operator", password=PASSWORD).returncode == 0

    listed = users_command("list")
    assert listed.returncode == 0
    rows = [line.split() for line in listed.stdout.splitlines()]
    assert rows[0][:3] == ["name", "role", "state"]
    assert rows[1][:4] == ["Ada", "Lovelace", "player", "active"]
    assert rows[2][:3] == ["Bob", "operator", "active"]
    as_json = [json.loads(line) for line in users_command("list", "--json").stdout.splitlines()]
    assert [(u["name"], u["operator"]) for u in as_json] == [("Ada Lovelace", False), ("Bob", True)]

    assert "Ada Lovelace is disabled" in users_command("disable", "ada lovelace").stdout
    assert json.loads(users_command("show", "Ada Lovelace", "--json").stdout)["disabled"]
    assert "is active" in users_command("enable", "Ada Lovelace").stdout
    assert "now named Ada" in users_command("rename", "Ada Lovelace", "Ada").stdout
    taken = users_command("rename", "Ada", "bob")
    assert taken.returncode == 1
    assert "taken" in taken.stderr
    assert "now an operator" in users_command("promote", "Ada").stdout
    assert "now a player" in users_command("demote", "Ada").stdout
    generated = users_command("reset-password", "Ada", "--generate")
    new_password = generated.stdout.split("new password: ")[1].strip()
    asked = users_command("reset-password", "Bob", password="another password")
    assert asked.returncode == 0
    engine = make_engine(url)
    try:
        accounts = Accounts(engine)
        accounts.log_in("Ada", new_password, address="127.0.0.1")
        accounts.log_in("Bob", "another password", address="127.0.0.1")
    finally:
        engine.dispose()

    unconfirmed = users_command("delete", "Ada")
    assert unconfirmed.returncode == 1
    assert "--yes" in unconfirmed.stderr
    deleted = users_command("delete", "Ada", "--yes")
    assert deleted.returncode == 0
    assert "Ada deleted" in deleted.stdout
    missing = users_command("show", "Ada")
    assert missing.returncode == 1
    assert missing.stderr.endswith("patience: no account is named 'Ada'\n")
    assert "deleted" in users_command("list", "--deleted").stdout


# -- the operator's page ------------------------------------------------------------------


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = tmp_path_factory.mktemp("admin") / "games.sqlite3"
    port = launch.free_port()
    process = launch.start(database, port, PATIENCE_CATALOG_REFILL="0")
    engine = make_engine(f"sqlite:///{database}")
    accounts = Accounts(engine)
    accounts.create("Root", PASSWORD, operator=True)
    for name in ("Ada", "Bob", "Cyd"):
        accounts.create(name, PASSWORD)
    engine.dispose()
    yield f"http://127.0.0.1:{port}"
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=30)


def test_the_operators_page(browser: Browser, site: str) -> None:  # noqa: F811
    context = browser.new_context(viewport=DESKTOP, bypass_csp=BYPASS_CSP)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{site}/#/account")
    page.fill("#login-name", "Root")
    page.fill("#login-password", PASSWORD)
    page.click("#login button[type=submit]")
    page.wait_for_selector("#stats, #no-stats")
    page.click("#nav >> text=Operator")
    page.wait_for_selector("#users tbody tr")
    assert page.inner_text("#user-count") == "4 accounts."
    assert "open to anyone" in page.inner_text("#server-facts")
    # one's own account cannot be disabled, demoted or deleted here
    assert page.is_disabled("button[aria-label='Disable Root']")
    check(page, "operator-desktop")

    page.click("button[aria-label='Disable Ada']")
    page.wait_for_selector("#operator-done:has-text('Ada is disabled')")
    assert page.inner_text("#users tr[data-name=Ada] td.state-disabled") == "disabled"

    page.click("button[aria-label='Rename Bob']")
    page.fill("input[aria-label='New name for Bob']", "Robert")
    page.click("#users form.rename button[type=submit]")
    page.wait_for_selector("#users tr[data-name=Robert]")

    page.click("button[aria-label='Give a new password to Cyd']")
    said = page.wait_for_selector("#operator-done:has-text('new password')").inner_text()
    password = said.rsplit(": ", 1)[1]

    page.click("button[aria-label='Delete Robert']")
    page.click("#users tr[data-name=Robert] button.danger")
    page.wait_for_selector("#operator-done:has-text('Robert is deleted')")

    page.fill("#user-search", "cy")
    page.click("form.user-search button[type=submit]")
    page.wait_for_function("document.querySelector('#user-count').textContent.startsWith('1 ')")
    page.set_viewport_size(PHONE)
    check(page, "operator-phone")
    assert errors == []
    context.close()

    # Cyd signs in with the password the page showed; Ada cannot
    other = browser.new_context(viewport=DESKTOP, bypass_csp=BYPASS_CSP)
    page = other.new_page()
    page.goto(f"{site}/#/account")
    page.fill("#login-name", "Cyd")
    page.fill("#login-password", password)
    page.click("#login button[type=submit]")
    page.wait_for_selector("#stats, #no-stats")
    assert "Operator" not in page.inner_text("#nav")
    other.close()
    blocked: Any = browser.new_context(viewport=DESKTOP, bypass_csp=BYPASS_CSP)
    page = blocked.new_page()
    page.goto(f"{site}/#/account")
    page.fill("#login-name", "Ada")
    page.fill("#login-password", PASSWORD)
    page.click("#login button[type=submit]")
    assert "disabled" in page.wait_for_selector("#login-error:not(:empty)").inner_text()
    blocked.close()


def test_the_account_page_says_when_sign_up_is_closed(
    browser: Browser,  # noqa: F811
    tmp_path: Path,
) -> None:
    port = launch.free_port()
    process = launch.start(
        tmp_path / "games.sqlite3", port, PATIENCE_CATALOG_REFILL="0", PATIENCE_SIGNUP="closed"
    )
    try:
        context = browser.new_context(viewport=DESKTOP, bypass_csp=BYPASS_CSP)
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{port}/#/account")
        closed = page.wait_for_selector("#signup-closed")
        assert "Sign-up is closed" in closed.inner_text()
        assert page.locator("#signup").count() == 0
        assert page.locator("#login").count() == 1
        context.close()
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
