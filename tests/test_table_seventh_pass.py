"""The table's seventh pass, after a picky player's review: one test each of its findings,
in real headless Chromium at the desktop size (1366x768).

1. Every click on the stock draws, however quick (a player rattling the stock, as in
   Microsoft Solitaire Collection): a click that fell on the card still flying off the
   stock had been lost.
2. The browser's Back and Forward go between the lobby and the table.

Screenshots are written to ``artifacts/screenshots/table/`` to be looked at.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import CDPSession, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from page_checks import WAIT
from patience.games import new_game
from tables import Table, box, settled, shot, waste_landing

# -- 1. quick clicks on the stock each draw ------------------------------------------------

STOCK = "#board [data-action]"

RATTLED = {
    "klondike-draw-1": ("game=klondike&draw=1&seed=11", 24, 1),
    "klondike-draw-3": ("game=klondike&draw=3&seed=11", 24, 3),
    "golf": ("game=golf&seed=11", 16, 1),
}
"""A deal of each game with a stock: its link, the stock's cards when dealt, and the cards
a draw turns."""


def stock_count(page: Page) -> int:
    """The stock's cards, as the stock's label says them ("hand, 24 cards: draw")."""
    label = page.get_attribute(STOCK, "aria-label") or ""
    found = re.search(r"(\d+) cards?", label)
    return int(found.group(1)) if found else 0


def wait_for_stock(page: Page, count: int) -> None:
    """Wait until the stock holds ``count`` cards (the answers of the clicks drawn); fail
    with what it holds when it does not get there."""
    try:
        page.wait_for_function(
            """([selector, count]) => {
                 const label = document.querySelector(selector)?.getAttribute('aria-label');
                 return new RegExp(`\\\\b${count} cards?`).test(label ?? '');
               }""",
            arg=[STOCK, count],
            timeout=WAIT,
        )
    except PlaywrightTimeout:
        pytest.fail(f"the stock holds {stock_count(page)} cards, not {count}")


def moves_made(desk: Table) -> int:
    """The moves the server has taken in the game on the table (it says so itself)."""
    held = desk.held()
    count: int = desk.page.evaluate(
        """async ([id, token]) => {
             const { api } = await import('/static/api.js');
             return (await api.read(id, token)).move_count;
           }""",
        [held["id"], held["token"]],
    )
    return count


def click(page: Page, x: float, y: float, count: int) -> None:
    """One click of a real mouse at (x, y), the ``count``-th of a quick run: the browser
    counts a run of clicks in one place (``event.detail``: 2 for the second, which makes a
    double-click), as it does for a player's mouse."""
    page.mouse.move(x, y)
    page.mouse.down(click_count=count)
    page.mouse.up(click_count=count)


def rattle(page: Page, cdp: CDPSession, clicks: int, rhythm: str) -> None:
    """Click the stock's middle ``clicks`` times: all at once (``together``), 100 ms apart
    (``100ms``), or each as soon as the card the click before drew is on the board
    (``in-flight``). Except all at once, a drawn card is held on its way off the stock (the
    browser's animations stopped, so that a busy machine cannot let it land first)."""
    stock = box(page, STOCK)
    x, y = stock["x"] + stock["width"] / 2, stock["y"] + stock["height"] / 2
    if rhythm != "together":
        cdp.send("Animation.setPlaybackRate", {"playbackRate": 0})
    for count in range(1, clicks + 1):
        if rhythm == "in-flight":
            version = page.get_attribute("#board", "data-version")
            click(page, x, y, count)
            if count < clicks:
                page.wait_for_function(
                    f"document.querySelector('#board').dataset.version !== '{version}'"
                    " && document.querySelector('#board .card.moving')",
                    timeout=WAIT,
                )
        else:
            click(page, x, y, count)
            if rhythm == "100ms" and count < clicks:
                page.wait_for_timeout(100)  # the player's rhythm, not a wait for the page
    cdp.send("Animation.setPlaybackRate", {"playbackRate": 1})


@pytest.mark.parametrize("rhythm", ["together", "100ms", "in-flight"])
@pytest.mark.parametrize("deal", list(RATTLED))
def test_1_every_quick_click_on_the_stock_draws(
    table: Callable[..., Table], deal: str, rhythm: str
) -> None:
    desk = table("desktop")
    page = desk.page
    link, dealt, turned = RATTLED[deal]
    page.goto(f"{desk.server}/?{link}")
    page.wait_for_selector("#board .card")
    settled(page)
    assert stock_count(page) == dealt
    cdp = desk.context.new_cdp_session(page)
    cdp.send("Animation.enable")
    rattle(page, cdp, 5, rhythm)
    wait_for_stock(page, dealt - 5 * turned)
    settled(page)
    assert page.inner_text("#error") == ""
    assert moves_made(desk) == 5, "five clicks, five draws: no other move was made"
    shot(page, f"seventh-1-rattle-{deal}-{rhythm}")


def draws_to_an_ace(seed: int) -> tuple[int, str]:
    """How many draws from the deal (Klondike, draw 1) turn an ace onto the waste, and the
    ace."""
    position = new_game("klondike", seed=seed, variant={"draw": 1})
    for draws in range(1, 25):
        position.play("draw")
        top = str(position.piles()["waste"][-1])
        if top.startswith("A"):
            return draws, top
    raise AssertionError(f"no ace in the stock of deal {seed}")


def test_1_a_card_drawn_by_a_rattle_is_still_sent_home_by_a_double_click(
    table: Callable[..., Table],
) -> None:
    """The stock rattled until an ace is drawn, then the ace double-clicked while it still
    flies to the waste: it goes home, once, and nothing else moves (no draw taken from the
    double-click, no second card sent)."""
    desk = table("desktop")
    page = desk.page
    draws, ace = draws_to_an_ace(3)
    page.goto(f"{desk.server}/?game=klondike&draw=1&seed=3")
    page.wait_for_selector("#board .card")
    settled(page)
    cdp = desk.context.new_cdp_session(page)
    cdp.send("Animation.enable")
    rattle(page, cdp, draws - 1, "in-flight")
    wait_for_stock(page, 24 - (draws - 1))
    settled(page)
    cdp.send("Animation.setPlaybackRate", {"playbackRate": 0})
    version = page.get_attribute("#board", "data-version")
    stock = box(page, STOCK)
    click(page, stock["x"] + stock["width"] / 2, stock["y"] + stock["height"] / 2, 1)
    page.wait_for_function(
        f"document.querySelector('#board').dataset.version !== '{version}'"
        f' && document.querySelector(\'#board [data-src="w"][data-card="{ace}"].moving\')',
        timeout=WAIT,
    )
    # where the ace lands: the waste's place (its flight ends there)
    landed = waste_landing(page)
    landing = {"x": landed["x"] + landed["width"] / 2, "y": landed["y"] + landed["height"] / 2}
    version = page.get_attribute("#board", "data-version")
    page.mouse.dblclick(landing["x"], landing["y"])
    cdp.send("Animation.setPlaybackRate", {"playbackRate": 1})
    page.wait_for_function(
        f"document.querySelector('#board').dataset.version !== '{version}'", timeout=WAIT
    )
    page.wait_for_selector(f'#board [data-src^="f"][data-card="{ace}"]', timeout=WAIT)
    settled(page)
    assert stock_count(page) == 24 - draws
    assert page.inner_text("#error") == ""
    assert moves_made(desk) == draws + 1, "the draws and the ace sent home, nothing more"


# -- 2. Back and Forward go between the lobby and the table ---------------------------------


def at_lobby(page: Page) -> None:
    """Wait until the lobby shows (the table hidden), still on this site."""
    page.wait_for_selector("#lobby:not([hidden])", timeout=WAIT)
    assert page.is_hidden("#table")


def at_table(page: Page, game_id: str) -> None:
    """Wait until the table shows the game ``game_id``."""
    page.wait_for_selector("#table:not([hidden]) #board .card", timeout=WAIT)
    assert page.is_hidden("#lobby")
    held = page.evaluate("JSON.parse(sessionStorage.getItem('patience-game')).id")
    assert held == game_id


def test_2_back_and_forward_go_between_the_lobby_and_the_table(
    table: Callable[..., Table],
) -> None:
    desk = table("desktop")
    page = desk.page
    page.goto(desk.server)
    page.wait_for_selector("#game-choice input")
    # a game dealt from the lobby: Back goes to the lobby, which offers it to continue
    page.check("input[name=game][value=klondike]")
    page.check("input[name=mode][value=practice]")
    page.fill("#seed", "11")
    page.click("#start")
    page.wait_for_selector("#table:not([hidden]) #board .card", timeout=WAIT)
    game_id = desk.held()["id"]
    page.go_back()
    at_lobby(page)
    assert page.url.startswith(desk.server)
    page.wait_for_selector(f'#lobby button[data-id="{game_id}"]', timeout=WAIT)
    shot(page, "seventh-2-back-to-the-lobby")
    # Forward: the table again, the same game
    page.go_forward()
    at_table(page, game_id)
    # the table's Lobby button, then Back: the table again
    page.click("#back-to-lobby")
    at_lobby(page)
    page.go_back()
    at_table(page, game_id)
    # a reload of the table keeps the table; Back then still goes to the lobby
    page.reload()
    at_table(page, game_id)
    page.go_back()
    at_lobby(page)
    # a reload of the lobby keeps the lobby, and Forward still goes to the table
    page.reload()
    at_lobby(page)
    page.go_forward()
    at_table(page, game_id)
    assert page.url.startswith(desk.server)


def test_2_a_pages_back_still_goes_where_it_came_from(table: Callable[..., Table]) -> None:
    """The pages' hash routes keep their Back: the daily page opened from the lobby goes
    back to the lobby, opened from the table back to the table (its game the same)."""
    desk = table("desktop")
    page = desk.page
    page.goto(desk.server)
    page.wait_for_selector("#game-choice input")
    page.click('#nav a[href="#/daily"]')
    page.wait_for_selector("#page:not([hidden]) h2", timeout=WAIT)
    page.go_back()
    page.wait_for_selector("#page", state="hidden", timeout=WAIT)
    at_lobby(page)
    page.check("input[name=game][value=klondike]")
    page.check("input[name=mode][value=practice]")
    page.fill("#seed", "11")
    page.click("#start")
    page.wait_for_selector("#table:not([hidden]) #board .card", timeout=WAIT)
    game_id = desk.held()["id"]
    page.click('#nav a[href="#/daily"]')
    page.wait_for_selector("#page:not([hidden]) h2", timeout=WAIT)
    page.go_back()
    page.wait_for_selector("#page", state="hidden", timeout=WAIT)
    at_table(page, game_id)
    page.go_forward()
    page.wait_for_selector("#page:not([hidden]) h2", timeout=WAIT)
    assert page.url.endswith("#/daily")
    page.go_back()
    page.wait_for_selector("#page", state="hidden", timeout=WAIT)
    at_table(page, game_id)
    page.go_back()
    at_lobby(page)
