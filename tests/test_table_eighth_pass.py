"""The table's eighth pass, after a picky player's review and our own reading: one test
each of its findings, in real headless Chromium at the desktop size (1366x768).

1. A hint refused for the limit on hints says how long to wait, and a press before then
   says how long is left without asking the server again.
2. A press on the felt inside the stock's box but off its card (outside the card's rounded
   corner, where the board's own corner is) does not draw.
3. A reload of a table's history entry reopens that entry's own game, not the tab's
   latest; a game over since shows its result (the address names the game).
5. The history's Tier of a numbered deal says what it is, not "unrated".

(4., a tournament attempt resumed from Continue told of the close, is in
``test_tournaments_browser.py``; 6. is ``test_table.py``'s game left past its clock.)

Screenshots are written to ``artifacts/screenshots/table/`` to be looked at.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page

from page_checks import WAIT
from tables import Table, answered, settled, shot, start_server

PASSWORD = "correct horse battery"


def at_lobby(page: Page) -> None:
    """Wait until the lobby shows (the table hidden)."""
    page.wait_for_selector("#lobby:not([hidden])", timeout=WAIT)
    assert page.is_hidden("#table")


def at_table(page: Page, game_id: str) -> None:
    """Wait until the table shows the game ``game_id`` (and the tab holds it)."""
    page.wait_for_function(
        """(id) => !document.getElementById('table').hidden
             && document.querySelector('#board .card')
             && JSON.parse(sessionStorage.getItem('patience-game') ?? 'null')?.id === id""",
        arg=game_id,
        timeout=WAIT,
    )
    assert page.is_hidden("#lobby")


def deal_from_lobby(desk: Table, game: str, seed: int) -> str:
    """Deal a practice game from the lobby's form: its id."""
    page = desk.page
    page.wait_for_selector("#game-choice input")
    page.check(f"input[name=game][value={game}]")
    page.check("input[name=mode][value=practice]")
    page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_selector("#table:not([hidden]) #board .card", timeout=WAIT)
    settled(page)
    return desk.held()["id"]


# -- 1. a hint refused for the limit says how long to wait ------------------------------------


@pytest.fixture(scope="module")
def one_hint_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server that gives each game one hint a minute."""
    yield from start_server(tmp_path_factory, PATIENCE_RATE_HINTS="1/m,1")


def test_1_a_hint_over_the_limit_says_how_long_to_wait(
    chromium: Browser, one_hint_server: str
) -> None:
    desk = Table(chromium, one_hint_server, "desktop")
    page = desk.page
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/hint") else None)
    page.goto(f"{one_hint_server}/?game=golf&seed=3")
    page.wait_for_selector("#board .card")
    settled(page)
    page.click("#hint")  # the one hint of this minute, whatever the solver finds
    page.wait_for_function(
        "document.getElementById('hint').getAttribute('aria-busy') === 'false'", timeout=30_000
    )
    assert "Ask again" not in page.inner_text("#error")
    answered(page, lambda: page.click("#board [data-action]"))  # a draw: a board to ask about
    page.click("#hint")
    page.wait_for_function(
        "/Ask again in/.test(document.getElementById('error').textContent)", timeout=WAIT
    )
    said = page.inner_text("#error")
    found = re.fullmatch(
        r"That is all the hints for now \(1 at once, 1 a minute\)\. Ask again in (\d+) seconds\.",
        said,
    )
    assert found, said
    assert 50 <= int(found.group(1)) <= 60
    assert said in page.inner_text("#announce")
    shot(page, "eighth-1-hint-limit")
    # pressed again before then: how long is left, without asking the server
    page.evaluate("document.getElementById('error').textContent = ''")
    page.click("#hint")
    page.wait_for_function(
        "/Ask again in/.test(document.getElementById('error').textContent)", timeout=WAIT
    )
    assert len(asked) == 2, asked
    assert not page.is_disabled("#hint")
    desk.close()


# -- 2. the felt by the stock is not the stock -------------------------------------------------


def stock_cards(page: Page) -> int:
    label = page.get_attribute("#board [data-action]", "aria-label") or ""
    found = re.search(r"(\d+) cards?", label)
    return int(found.group(1)) if found else 0


@pytest.mark.parametrize("game", ["klondike", "golf"])
def test_2_a_press_on_the_felt_by_the_stock_does_not_draw(
    table: Callable[..., Table], game: str
) -> None:
    desk = table("desktop")
    page = desk.deal(game, 11)
    before = stock_cards(page)
    corner = page.evaluate(
        """() => {
             const stock = document.querySelector('#board [data-action]');
             const r = stock.getBoundingClientRect();
             const x = r.left + 1, y = r.top + 1;
             return { x, y, inBox: x < r.right && y < r.bottom,
                      onStock: document.elementsFromPoint(x, y).some((e) => stock.contains(e)) };
           }"""
    )
    assert corner["inBox"], corner  # inside the stock's box...
    assert not corner["onStock"], corner  # ...on the felt by the card's rounded corner
    page.mouse.click(corner["x"], corner["y"])
    board = page.locator("#board").bounding_box()
    assert board is not None
    page.mouse.click(board["x"] + 1, board["y"] + 1)  # the board's own corner
    # then the stock itself, once: one draw in all, not three
    answered(page, lambda: page.click("#board [data-action]"))
    assert stock_cards(page) < before
    counted = httpx.get(
        f"{desk.server}/api/sessions/{desk.held()['id']}",
        headers={"Authorization": f"Bearer {desk.held()['token']}"},
    ).json()["move_count"]
    assert counted == 1


# -- 3. a table's history entry reopens its own game on reload -----------------------------


def test_3_a_reload_of_a_table_entry_reopens_its_own_game(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    page = desk.page
    page.goto(desk.server)
    older = deal_from_lobby(desk, "klondike", 11)
    older_token = desk.held()["token"]
    page.click("#back-to-lobby")
    at_lobby(page)
    newer = deal_from_lobby(desk, "golf", 3)
    # Back twice: the older game's entry; a reload keeps its game, not the tab's newer one
    page.go_back()
    at_lobby(page)
    page.go_back()
    at_table(page, older)
    page.reload()
    at_table(page, older)
    # Forward twice across the reload, and a reload there: the newer game
    page.go_forward()
    at_lobby(page)
    page.go_forward()
    at_table(page, newer)
    page.reload()
    at_table(page, newer)
    # Back twice across that reload: the older game again, and after a reload still
    page.go_back()
    at_lobby(page)
    page.go_back()
    at_table(page, older)
    page.reload()
    at_table(page, older)
    # the older game ended meanwhile (elsewhere): its entry, reloaded, is that game's page
    # (its address names it) and shows its result
    page.go_forward()
    at_lobby(page)
    page.go_forward()
    at_table(page, newer)
    ended = httpx.post(
        f"{desk.server}/api/sessions/{older}/end",
        headers={"Authorization": f"Bearer {older_token}"},
    )
    assert ended.status_code == 200, ended.text
    page.go_back()
    at_lobby(page)
    page.go_back()  # (Back shows the game as it stands: its result)
    page.wait_for_selector("#result:not([hidden])", timeout=WAIT)
    page.reload()
    page.wait_for_selector("#result:not([hidden])", timeout=WAIT)
    assert desk.held()["id"] == older
    shot(page, "eighth-3-reloaded-entry-of-a-game-over")
    # and the lobby, Forward, still offers the newer game to continue
    page.go_forward()
    at_lobby(page)
    page.wait_for_selector(f'#lobby button[data-id="{newer}"]', timeout=WAIT)


# -- 5. the history's Tier of a numbered deal -------------------------------------------------


def test_5_the_history_s_tier_of_a_numbered_deal(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    page = desk.page
    page.goto(f"{desk.server}/#/account")
    page.fill("#signup-name", "Numbered")
    page.fill("#signup-password", PASSWORD)
    page.click("#signup button[type=submit]")
    page.wait_for_selector("#nav a.who")
    page.goto(f"{desk.server}/?game=freecell&numbering=microsoft&number=617")
    page.wait_for_selector("#board .card")
    settled(page)
    game_id = desk.held()["id"]
    page.click("#end")
    answered(page, lambda: page.click("#confirm-yes"))
    page.wait_for_selector("#result:not([hidden])")
    page.goto(f"{desk.server}/#/history")
    row = f"#history tr[data-id='{game_id}']"
    page.wait_for_selector(row, timeout=WAIT)
    tier = page.locator(f"{row} td[data-label=Tier]")
    assert tier.inner_text() == "numbered deal"
    title = tier.locator("span").get_attribute("title") or ""
    assert "617" in title, title
    assert "no difficulty tier" in title, title
    shot(page, "eighth-5-history-numbered-tier")
