"""Players in the browser: a guest plays, signs up and finds that game claimed;
a signed-in game to its end (every change carries the CSRF token); the statistics and the
history update; the replay steps through the game, its board matching the record's
positions; log out, log in and a password change. Every page at desktop and phone size,
checked with axe-core and for sideways scrolling, with screenshots under
artifacts/screenshots/."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from page_checks import DESKTOP, PHONE, check, shot
from patience.server import launch
from patience.store.catalog import Certified, add
from patience.store.db import make_engine, migrate
from test_browser import BYPASS_CSP, browser  # noqa: F401 (the fixture)

PASSWORD = "correct horse battery"
SEED = 7  # a Golf deal: practice games by its seed


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose catalog holds one rated Golf (wrap) deal, of tier 2 (Easy)."""
    database = tmp_path_factory.mktemp("accounts") / "games.sqlite3"
    engine = make_engine(f"sqlite:///{database}")
    migrate(engine)
    with engine.begin() as connection:
        rating = {"tier": 2, "score": 0.2, "version": 1, "players": {}}
        add(
            connection,
            "golf",
            {"wrap": True},
            Certified(11, 9, 0.01, 40, rating),
            at=1.0,
            origin="random",
        )
    engine.dispose()
    port = launch.free_port()
    process = launch.start(database, port, PATIENCE_CATALOG_REFILL="0")
    yield f"http://127.0.0.1:{port}"
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=120)


def new_context(browser: Browser, viewport: dict[str, int], **options: Any) -> BrowserContext:  # noqa: F811
    return browser.new_context(viewport=viewport, bypass_csp=BYPASS_CSP, **options)


def watched(context: BrowserContext, server: str) -> tuple[Page, list[str]]:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server)
    return page, errors


def play_golf(page: Page, draws: int) -> None:
    """Deal practice Golf of ``SEED`` from the lobby, draw ``draws`` times, end the game
    and go back to the lobby."""
    page.goto(page.url.split("#")[0])
    page.check("input[name=game][value=golf]")
    page.check("input[name=mode][value=practice]")
    page.fill("#seed", str(SEED))
    page.click("#start")
    page.wait_for_selector("#board .card")
    for _ in range(draws):
        version = page.get_attribute("#board", "data-version")
        page.keyboard.press("Space")
        page.wait_for_function(f"document.querySelector('#board').dataset.version !== '{version}'")
    page.click("#end")  # ending a game asks first
    page.click("#confirm-yes")
    page.wait_for_selector("#result:not([hidden])")
    page.click("#to-lobby")


def stat(page: Page, name: str) -> str:
    """A figure of the first statistics group, by its term."""
    return page.locator(
        f"#stats .stat-group[data-game=golf][data-mode=practice] dt:text-is('{name}') + dd"
    ).inner_text()


def test_sign_up_play_see_statistics_history_and_replay(browser: Browser, server: str) -> None:  # noqa: F811
    context = new_context(browser, DESKTOP)
    page, errors = watched(context, server)
    # a guest's game first
    play_golf(page, draws=1)
    assert page.inner_text("#nav").count("Sign in") == 1

    page.click("#nav >> text=Sign in")
    page.wait_for_selector("#signup")
    check(page, "account-guest-desktop")
    page.fill("#signup-name", "Ada")
    page.fill("#signup-password", PASSWORD)
    page.click("#signup button[type=submit]")
    page.wait_for_selector("#stats")
    assert page.inner_text("#nav a.who") == "Ada"
    assert "1 game you played as a guest" in page.inner_text("#page")
    assert stat(page, "Games") == "1"

    # a rated timed deal (Easy: the catalog's tier 2), ended at once
    page.goto(server)
    page.check("input[name=game][value=golf]")
    page.check("#options input[value='true']")
    page.check("input[name=difficulty][value=easy]")
    page.click("#start")
    page.wait_for_selector("#board .card")
    page.click("#end")  # ending a game asks first
    page.click("#confirm-yes")
    page.wait_for_selector("#result:not([hidden])")
    page.click("#to-lobby")
    # a game signed in: its start and moves carry the CSRF token, or the server refuses them
    play_golf(page, draws=3)
    page.click("#nav >> text=Statistics")
    page.wait_for_selector("#stats")
    assert stat(page, "Games") == "2"
    assert stat(page, "Wins") == "0"
    assert stat(page, "Win rate") == "0.0%"
    assert stat(page, "Current streak") == "0"
    timed = page.locator("#stats .stat-group[data-game=golf][data-mode=timed]")
    # the variant named as the table and the lobby name it, never "wrapping"
    assert "Golf, wrap (timed)" in timed.locator("h3").inner_text()
    tiers = timed.locator("table.tiers tbody tr")
    assert tiers.count() == 1
    assert tiers.first.inner_text().split() == ["2", "1", "0", "0.0%"]
    check(page, "stats-desktop")

    page.click("#nav >> text=History")
    rows = page.locator("#history tbody tr")
    rows.first.wait_for()
    assert rows.count() == 3
    newest = rows.first
    assert newest.locator("td[data-label=Deal]").inner_text() == str(SEED)
    assert newest.locator("td[data-label=Result]").inner_text() == "Lost"
    rated = rows.nth(1)
    assert rated.locator("td[data-label=Deal]").inner_text() == "11"
    assert rated.locator("td[data-label=Tier]").inner_text() == "2"
    assert page.get_attribute("#export", "href") == "/api/me/export"
    check(page, "history-desktop")
    game_id = newest.get_attribute("data-id")
    exported = page.request.get(f"{server}/api/me/export").text().splitlines()
    assert len(exported) == 3

    # the replay: step forward and back, each board the record's position
    newest.locator("a", has_text="Replay").click()
    page.wait_for_selector("#replay-board .card")
    replay = page.request.get(f"{server}/api/sessions/{game_id}/replay").json()
    steps = replay["steps"]
    assert [step["move"] for step in steps] == [None, "draw", "draw", "draw", "end"]
    check(page, "replay-desktop")
    seen = []
    for index in range(len(steps)):
        assert page.get_attribute("#replay-board", "data-step") == str(index)
        drawn = drawn_position(page)
        assert drawn == position(steps[index]["board"]), index
        seen.append(drawn)
        if index < len(steps) - 1:
            page.click("#replay-forward")
    assert all(seen[i] != seen[i + 1] for i in range(3)), "every draw changes the board"
    assert page.is_disabled("#replay-forward")
    page.click("#replay-back")
    assert page.get_attribute("#replay-board", "data-step") == str(len(steps) - 2)
    page.keyboard.press("Home")
    assert page.get_attribute("#replay-board", "data-step") == "0"
    assert drawn_position(page) == position(steps[0]["board"])
    page.keyboard.press("ArrowRight")
    assert page.get_attribute("#replay-board", "data-step") == "1"
    # a focused button pressed with space does what it says, once
    page.focus("#replay-forward")
    page.keyboard.press("Space")
    assert page.get_attribute("#replay-board", "data-step") == "2"
    assert page.get_attribute("#replay-play", "aria-label") == "Play"
    # play runs to the last position by itself, then stops
    page.click("#replay-play")
    page.wait_for_selector(f"#replay-board[data-step='{len(steps) - 1}']")
    page.wait_for_selector("#replay-play[aria-label=Play]")
    context.close()
    assert not errors, errors


def position(board: dict[str, Any]) -> dict[str, Any]:
    """What a Golf board shows: each column's cards and the waste's top card."""
    return {
        "columns": [column["cards"] for column in board["tableau"]],
        "waste": board["waste"][-1] if board["waste"] else None,
    }


def drawn_position(page: Page) -> dict[str, Any]:
    """The same, read from the drawn board."""
    drawn: dict[str, Any] = page.evaluate(
        """() => {
            const board = document.querySelector('#replay-board');
            const names = (cards) => [...cards].map((card) => card.dataset.card);
            const columns = [...board.querySelectorAll('.column')].map(
                (column) => names(column.querySelectorAll('.card[data-card]')));
            const waste = names(board.querySelectorAll('.waste .card[data-card]'));
            return { columns, waste: waste.length ? waste[waste.length - 1] : null };
        }"""
    )
    return drawn


def test_log_out_log_in_and_change_the_password_on_a_phone(
    browser: Browser,  # noqa: F811
    server: str,
) -> None:
    context = new_context(browser, PHONE, has_touch=True)
    page, errors = watched(context, server)
    page.goto(f"{server}/#/account")
    page.wait_for_selector("#signup")
    check(page, "account-guest-phone")
    page.fill("#signup-name", "Bea")
    page.fill("#signup-password", PASSWORD)
    page.click("#signup button[type=submit]")
    page.wait_for_selector("#no-stats")
    check(page, "stats-empty-phone")
    page.goto(f"{server}/#/account")
    page.wait_for_selector("#password")
    check(page, "account-phone")
    page.fill("#old-password", "not the password")
    page.fill("#new-password", "a new long password")
    page.click("#password button[type=submit]")
    page.wait_for_selector("#password-error:not(:empty)")
    page.fill("#old-password", PASSWORD)
    page.click("#password button[type=submit]")
    page.wait_for_selector("#password-done:text('Password changed')")
    # once changed, no password stays typed in the form
    assert page.input_value("#old-password") == ""
    assert page.input_value("#new-password") == ""
    page.click("#logout")
    page.wait_for_selector("#login")
    assert "Sign in" in page.inner_text("#nav")
    page.fill("#login-name", "Bea")
    page.fill("#login-password", PASSWORD)  # the old one
    page.click("#login button[type=submit]")
    page.wait_for_selector("#login-error:not(:empty)")
    page.fill("#login-password", "a new long password")
    page.click("#login button[type=submit]")
    page.wait_for_selector("#nav a.who")
    assert page.inner_text("#nav a.who") == "Bea"
    # a page that lost the mark of being signed in learns its CSRF token when refused
    page.evaluate("localStorage.removeItem('patience-signed-in')")
    page.reload()
    assert "Sign in" in page.inner_text("#nav")
    play_golf(page, draws=0)  # signed in again: a change with the new CSRF token
    assert page.inner_text("#nav a.who") == "Bea"
    page.goto(f"{server}/#/history")
    page.wait_for_selector("#history tbody tr[data-id]")
    check(page, "history-phone")
    page.click("#history a >> text=Replay")
    page.wait_for_selector("#replay-board .card")
    page.click("#replay-last")
    assert page.inner_text("#replay-step") == "Move 1 of 1: Ended the game. Points so far: 0."
    check(page, "replay-phone")
    context.close()
    assert not errors, errors


def test_signing_up_by_keyboard_alone(browser: Browser, server: str) -> None:  # noqa: F811
    context = new_context(browser, DESKTOP)
    page, errors = watched(context, server)
    page.goto(f"{server}/#/account")
    page.wait_for_selector("#signup")
    # the page's heading has the focus, as after a page load; Tab reaches every field
    assert page.evaluate("document.activeElement.tagName") == "H2"
    for _ in range(12):
        if page.evaluate("document.activeElement.id") == "signup-name":
            break
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "signup-name"
    page.keyboard.type("Cyd")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "signup-password"
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_selector("#no-stats")
    assert page.inner_text("#nav a.who") == "Cyd"
    context.close()
    assert not errors, errors


def test_the_pages_break_no_rule_of_the_content_security_policy(
    browser: Browser,  # noqa: F811
    server: str,
) -> None:
    """With the server's policy enforced (the other tests bypass it), every page loads
    and works with no violation and no page error."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_init_script(
        "window.__violations = [];"
        "document.addEventListener('securitypolicyviolation',"
        " (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));"
    )
    page.goto(f"{server}/#/account")
    page.fill("#signup-name", "Eve")
    page.fill("#signup-password", PASSWORD)
    page.click("#signup button[type=submit]")
    page.wait_for_selector("#no-stats")
    play_golf(page, draws=0)  # (waiting for a drawn move evaluates a string: no eval here)
    page.goto(f"{server}/#/history")
    page.click("#history a >> text=Replay")
    page.wait_for_selector("#replay-board .card")
    page.click("#replay-last")
    page.goto(f"{server}/#/tournaments")
    page.wait_for_selector("#tournaments-finished")
    assert page.evaluate("window.__violations") == []
    context.close()
    assert not errors, errors


REPLAY_SCREENS = {
    "desktop": ({"width": 1366, "height": 768}, False),
    "phone": ({"width": 390, "height": 844}, True),
    "landscape": ({"width": 844, "height": 390}, True),
}


@pytest.mark.parametrize("screen", list(REPLAY_SCREENS))
def test_the_whole_replay_fits_in_view(browser: Browser, server: str, screen: str) -> None:  # noqa: F811
    """The replay's board and its controls are all in view, with nothing to scroll, on a
    desktop, a phone upright and on its side: at the deal and at every later step."""
    viewport, touch = REPLAY_SCREENS[screen]
    context = new_context(browser, viewport, has_touch=touch, is_mobile=touch)
    page, errors = watched(context, server)
    page.goto(f"{server}/#/account")
    page.fill("#signup-name", f"Replay {screen}")
    page.fill("#signup-password", PASSWORD)
    page.click("#signup button[type=submit]")
    page.wait_for_selector("#nav a.who")
    page.goto(server)
    play_golf(page, draws=2)
    game_id = page.request.get(f"{server}/api/me/games").json()["games"][0]["id"]
    page.goto(f"{server}/#/replay/{game_id}")
    page.wait_for_selector("#replay-board .card")
    for step in range(4):
        page.wait_for_selector(f"#replay-board[data-step='{step}']")
        shot(page, f"replay-{screen}-{step}")
        overflow = page.evaluate("document.documentElement.scrollHeight - innerHeight")
        assert overflow <= 0, f"step {step}: the page is {overflow} px taller than the window"
        outside = page.evaluate(
            """() => [...document.querySelectorAll(
                 '#replay-board .card, .replay-controls button, #replay-slider, #replay-step')]
               .filter((e) => {
                 const r = e.getBoundingClientRect();
                 return r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth;
               }).map((e) => e.id || e.dataset.card || e.className)"""
        )
        assert not outside, (step, outside)
        if step < 3:
            page.click("#replay-forward")
    context.close()
    assert not errors, errors
