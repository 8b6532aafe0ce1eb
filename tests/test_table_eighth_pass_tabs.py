"""The table's eighth pass, after a picky player's review: one test each of its findings,
in real headless Chromium at the desktop size (1366x768).

1. A tab whose game moved on in another tab catches up: a move from its old board is not
   played, the board shows the game as it stands, and says so in plain words; a tab that
   gets the focus back catches up by itself.
2. Where a game lifts only sequences (Solitaire Expert, FreeCell), a press on a card over
   cards out of sequence lifts nothing and says why; the sequence under it still moves.
3. A deal's motion ends within 0.8 s of the deal, whatever the game; any key or press
   ends it at once; with reduced motion nothing moves.
4. The sign-up form says the rule a field breaks on each submit, and typing clears what
   it said before.
5. The question before a costly recycle answers Enter, Escape and Space on its buttons,
   the focus goes back to the board, and d draws again after it.
6. The table has an address of its own (the game's id only): a reload or a second tab
   opens the game for its player; another browser gets the lobby with a word why.
7. Golf's counter is "Run" (the cards played in a row, not to be taken for the lobby's
   daily streak); a long tournament name is cut short in the header, whole in its tooltip.

Screenshots are written to ``artifacts/screenshots/table/`` to be looked at.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import httpx
import pytest
from playwright.sync_api import Browser, Page

from page_checks import WAIT
from tables import LINKS, VARIANTS, Table, answered, settled, shot

STOCK = "#board [data-action]"


def moves_made(desk: Table) -> int:
    """The moves the server has taken in the game this page holds."""
    held = desk.held()
    answer = httpx.get(
        f"{desk.server}/api/sessions/{held['id']}",
        headers={"Authorization": f"Bearer {held['token']}"},
    )
    count: int = answer.json()["move_count"]
    return count


def play(desk: Table, moves: list[str]) -> None:
    """Play ``moves`` through the API, as another tab or device would (this page is not
    told)."""
    held = desk.held()
    headers = {"Authorization": f"Bearer {held['token']}"}
    for move in moves:
        url = f"{desk.server}/api/sessions/{held['id']}/moves"
        assert httpx.post(url, json={"move": move}, headers=headers).status_code == 200


def stock_label(page: Page) -> str:
    return page.get_attribute(STOCK, "aria-label") or ""


# -- 1. a second tab catches up ----------------------------------------------------------


def second_tab(desk: Table) -> Page:
    """A second tab of the same browser, at the first tab's address, its table shown."""
    other = desk.context.new_page()
    other.on("pageerror", lambda error: desk.errors.append(str(error)))
    other.goto(desk.page.url)
    other.wait_for_selector("#table:not([hidden]) #board .card", timeout=WAIT)
    settled(other)
    return other


MOVED_ON = "This game moved on in another tab or device; the table now shows where it stands."


@pytest.mark.parametrize(
    ("elsewhere", "stock"),
    [
        # another move where this tab's draw would be: the server refuses the draw (409)
        (["t1>f", "draw", "draw"], "22 cards"),
        # the same draw there, and more: the server answers it as played, the game beyond
        (["draw", "draw", "draw"], "21 cards"),
    ],
    ids=["refused", "played-already"],
)
def test_1_a_tab_left_behind_catches_up_on_its_next_move(
    table: Callable[..., Table], elsewhere: list[str], stock: str
) -> None:
    desk = table("desktop")
    desk.deal("klondike", 1)
    other = second_tab(desk)
    assert (
        other.evaluate("JSON.parse(sessionStorage.getItem('patience-game')).id")
        == (desk.held()["id"])
    )
    # the first tab plays on; the second still shows the deal
    play(desk, elsewhere)
    assert "24 cards" in stock_label(other)
    # the second tab's click on the stock: its draw was made from the deal, never played
    answered(other, lambda: other.click(STOCK))
    assert moves_made(desk) == len(elsewhere), "the move from the old board was played"
    assert stock in stock_label(other), stock_label(other)
    said = other.inner_text("#error")
    assert said == MOVED_ON
    shot(other, "eighth-1-caught-up")
    # from the board it now shows, its next draw is played
    answered(other, lambda: other.click(STOCK))
    assert moves_made(desk) == len(elsewhere) + 1
    assert other.inner_text("#error") == ""
    other.close()


def test_1_a_tab_catches_up_when_it_gets_the_focus_back(
    table: Callable[..., Table],
) -> None:
    desk = table("desktop")
    desk.deal("klondike", 5)
    other = second_tab(desk)
    play(desk, ["draw", "draw"])
    assert "24 cards" in stock_label(other)
    answered(other, lambda: other.evaluate("window.dispatchEvent(new Event('focus'))"))
    assert "22 cards" in stock_label(other)
    assert other.inner_text("#error") == MOVED_ON
    assert moves_made(desk) == 2
    # focused again with nothing new: nothing is said, nothing drawn again
    version = other.get_attribute("#board", "data-version")
    other.click("#score-box")
    with other.expect_response(lambda response: response.request.method == "GET"):
        other.evaluate("window.dispatchEvent(new Event('focus'))")
    other.evaluate("new Promise((done) => requestAnimationFrame(() => done()))")
    assert other.get_attribute("#board", "data-version") == version
    assert other.inner_text("#error") == ""
    other.close()


# -- 2. only sequences are lifted ---------------------------------------------------------


def lifted_by_drag(page: Page, selector: str, to: str) -> list[str]:
    """Press ``selector``, drag it over ``to``, and say which cards went with it (before
    letting go)."""
    card = page.locator(selector).bounding_box()
    target = page.locator(to).bounding_box()
    assert card is not None
    assert target is not None
    x, y = card["x"] + card["width"] / 2, card["y"] + 8
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 10, y + 10, steps=2)
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + 20, steps=4)
    lifted: list[str] = page.evaluate(
        "[...document.querySelectorAll('#board .card.lifted')].map((card) => card.dataset.card)"
    )
    ghost = page.locator(".dragging").count()
    page.mouse.up()
    return lifted if ghost else []


EXPERT_MOVES = ["t4>f", "t9>t5", "t9>f", "t9>f", "t10>f"]
"""The review's moves of Solitaire Expert's deal 1: column 5 is then Td Jh 3c 3c 8c Kh 9c Qc
Tc 8s 7d, whose last two cards only are in sequence."""


@pytest.mark.parametrize(
    ("game", "moves", "column", "held", "sequence", "words"),
    [
        ("expert", EXPERT_MOVES, "t5", "8c", ["8s", "7d"], ("eight of clubs", "eight of spades")),
        ("freecell", [], "t1", "3c", ["9d", "8c"], ("three of clubs", "nine of diamonds")),
    ],
)
def test_2_a_card_over_cards_out_of_sequence_lifts_nothing(
    table: Callable[..., Table],
    game: str,
    moves: list[str],
    column: str,
    held: str,
    sequence: list[str],
    words: tuple[str, str],
) -> None:
    desk = table("desktop")
    page = desk.deal(game, 1)
    if moves:
        desk.play_through_api(moves)
    count = moves_made(desk)
    at = f'#board .column[data-dest="{column}"] .card[data-card="{held}"]'
    assert page.locator(at).count() == 1
    assert page.get_attribute(at, "data-src") is None  # not a card that moves
    assert lifted_by_drag(page, at, '#board .column[data-dest="t2"]') == []
    said = page.inner_text("#error")
    assert said == (
        f"The {words[0]} does not head a sequence: only cards in sequence move together,"
        f" here from the {words[1]} down."
    ), said
    assert moves_made(desk) == count, "a move was sent"
    shot(page, f"eighth-2-held-{game}")
    # a click on it picks nothing either; a key never reaches it (it is no stop)
    page.click(at, position={"x": 20, "y": 8})
    assert page.locator("#board .picked").count() == 0
    # the sequence under it is lifted whole
    head = f'#board .column[data-dest="{column}"] .card[data-card="{sequence[0]}"]'
    assert lifted_by_drag(page, head, '#board .column[data-dest="t2"]') == sequence
    settled(page)


def test_2_klondike_and_kansas_still_lift_any_face_up_card(
    table: Callable[..., Table],
) -> None:
    desk = table("desktop")
    page = desk.deal("klondike", 7)
    assert page.locator("#board .card.held").count() == 0
    # Kansas moves any group down to the exposed card, in sequence or not
    page = desk.deal("kansas", 2)
    assert page.locator("#board .card.held").count() == 0


# -- 3. the deal's motion -----------------------------------------------------------------

DEAL_TIMES = """() => {
  const flights = document.querySelector('#board').getAnimations({ subtree: true });
  return flights.map((flight) => ({
    start: flight.startTime,
    end: flight.startTime + flight.effect.getComputedTiming().endTime,
  }));
}"""


@pytest.mark.parametrize("game", list(VARIANTS))
def test_3_a_deal_moves_for_at_most_0_8_s_and_a_key_ends_it(
    table: Callable[..., Table], game: str
) -> None:
    desk = table("desktop")
    page = desk.deal(game, 3)
    # the page's animations at a tenth of their speed, so that a busy machine cannot see the
    # deal end before the key below is pressed (the span is read from their own timing)
    desk.context.new_cdp_session(page).send("Animation.setPlaybackRate", {"playbackRate": 0.1})
    # the deal's motion again, on the board dealt (the motion layer the table uses)
    page.evaluate(
        "async () => (await import('/static/motion.js')).deal(document.querySelector('#board'))"
    )
    flights = page.evaluate(DEAL_TIMES)
    assert flights, "the deal moved nothing"
    # all timed from the deal, not from when each was started: a busy page cannot draw it out
    assert len({flight["start"] for flight in flights}) == 1
    span = max(flight["end"] for flight in flights) - flights[0]["start"]
    assert span <= 800, f"the deal moves for {span:.0f} ms"
    # a key (any: here Shift, which does nothing else) ends it at once
    assert page.evaluate("Boolean(document.querySelector('#board').dataset.animating)")
    page.keyboard.press("Shift")
    assert page.evaluate(DEAL_TIMES) == []
    assert page.get_attribute("#board", "data-animating") is None
    # as does a press anywhere, off the board too
    page.evaluate(
        "async () => (await import('/static/motion.js')).deal(document.querySelector('#board'))"
    )
    assert page.evaluate(DEAL_TIMES)
    page.click("#score-box")
    assert page.evaluate(DEAL_TIMES) == []


def test_3_with_reduced_motion_a_deal_does_not_move(table: Callable[..., Table]) -> None:
    desk = table("desktop", reduced_motion="reduce")
    page = desk.page
    page.goto(f"{desk.server}/?{LINKS['expert']}&seed=3")
    page.wait_for_selector("#board .card")
    assert page.evaluate(DEAL_TIMES) == []
    assert page.get_attribute("#board", "data-animating") is None


# -- 4. the sign-up form's words ----------------------------------------------------------


def test_4_sign_up_says_each_attempt_s_own_error(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    page = desk.page
    page.goto(f"{desk.server}/#/account")
    page.wait_for_selector("#signup")
    page.fill("#signup-name", "<b>x</b>")
    page.fill("#signup-password", "password123")
    page.click("#signup button[type=submit]")
    page.wait_for_selector("#signup-error:not(:empty)", timeout=WAIT)
    refused = page.inner_text("#signup-error")
    # typing clears it
    page.fill("#signup-name", "Rev Five")
    assert page.inner_text("#signup-error") == ""
    # a password too short: its rule is said by the form (not left to the browser's
    # bubble, which would block the submit with the old message still shown)
    page.fill("#signup-password", "short")
    page.click("#signup button[type=submit]")
    said = page.inner_text("#signup-error")
    assert said == "Password: at least 8 characters (this one has 5).", said
    assert said != refused
    assert page.evaluate("document.activeElement.id") == "signup-password"
    assert page.get_attribute("#signup-password", "aria-invalid") == "true"
    shot(page, "eighth-4-sign-up-rule")
    # nothing typed: said too, then typing clears the mark and the words
    page.fill("#signup-name", "")
    page.click("#signup button[type=submit]")
    assert page.inner_text("#signup-error").startswith("Name: fill it in")
    page.fill("#signup-name", "Rev Five")
    assert page.inner_text("#signup-error") == ""
    assert page.get_attribute("#signup-name", "aria-invalid") is None
    # a good attempt signs up
    page.fill("#signup-password", "goodpassword1")
    page.click("#signup button[type=submit]")
    page.wait_for_selector("#nav a.who", timeout=WAIT)
    assert page.inner_text("#nav a.who") == "Rev Five"


# -- 5. the recycle's question by keys ----------------------------------------------------


def on_the_board(page: Page) -> bool:
    focused: bool = page.evaluate(
        "document.activeElement?.closest('#board') !== null"
        " && document.activeElement.classList.contains('stop')"
    )
    return focused


def test_5_the_recycle_question_answers_its_keys(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    page = desk.deal("klondike", 5)
    page.keyboard.press("ArrowDown")  # keys only: the focus on the board
    assert on_the_board(page)
    for _ in range(24):  # the hand drawn to its end by keys
        answered(page, lambda: page.keyboard.press("d"))
    assert "0 cards" in stock_label(page), stock_label(page)
    count = moves_made(desk)
    for answer in ["Enter", "Escape", " "]:
        page.keyboard.press("d")
        page.wait_for_selector("#confirm:not([hidden])")
        assert page.evaluate("document.activeElement.id") == "confirm-no"
        page.wait_for_timeout(300)  # the review's rhythm: a player reading the question
        page.keyboard.press(answer)
        page.wait_for_selector("#confirm", state="hidden")
        assert on_the_board(page), f"{answer!r}: the focus is not on the board"
        assert moves_made(desk) == count
        # the answer is said (a player by keys hears it was taken)
        assert page.inner_text("#error") == "Not turned over: the waste stays as it is."
    # yes, by Space on its button: the waste turned over, the focus on the board
    page.keyboard.press("d")
    page.wait_for_selector("#confirm:not([hidden])")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.id") == "confirm-yes"
    answered(page, lambda: page.keyboard.press(" "))
    assert page.locator("#confirm").is_hidden()
    assert on_the_board(page)
    assert moves_made(desk) == count + 1
    assert "24 cards" in stock_label(page)
    # and d draws after it
    answered(page, lambda: page.keyboard.press("d"))
    assert "23 cards" in stock_label(page)
    assert moves_made(desk) == count + 2


# -- 6. the table's own address -----------------------------------------------------------


def test_6_the_table_has_an_address_that_opens_its_game_for_its_player(
    table: Callable[..., Table], chromium: Browser
) -> None:
    desk = table("desktop")
    page = desk.deal("klondike", 5)
    held = desk.held()
    address = page.url
    assert re.fullmatch(rf"{re.escape(desk.server)}/\?session={held['id']}", address), address
    assert held["token"] not in address
    assert "seed" not in address
    # a reload opens the game again
    answered(page, lambda: page.click(STOCK))
    page.reload()
    page.wait_for_selector("#table:not([hidden]) #board .card", timeout=WAIT)
    assert "23 cards" in stock_label(page)
    assert page.url == address
    # the Lobby button: the lobby's own address, Back the table's
    page.click("#back-to-lobby")
    page.wait_for_selector("#lobby:not([hidden])")
    assert page.url == f"{desk.server}/"
    page.go_back()
    page.wait_for_selector("#table:not([hidden]) #board .card", timeout=WAIT)
    assert page.url == address
    # a second tab of the same browser opens it at the table (not the lobby)
    other = second_tab(desk)
    assert "23 cards" in stock_label(other)
    assert other.url == address
    other.close()
    # another browser (no token of it, not its player) gets the lobby, with a word why
    stranger = Table(chromium, desk.server, "desktop")
    try:
        stranger.page.goto(address)
        stranger.page.wait_for_selector("#lobby:not([hidden])", timeout=WAIT)
        stranger.page.wait_for_selector("#lobby-error:not(:empty)", timeout=WAIT)
        assert "only for its player" in stranger.page.inner_text("#lobby-error")
        assert stranger.page.locator("#table").is_hidden()
        assert stranger.page.url == f"{desk.server}/"
        shot(stranger.page, "eighth-6-not-yours")
    finally:
        stranger.close()


# -- 7. the header's words ----------------------------------------------------------------


def test_7_golf_s_counter_and_a_long_tournament_name(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    page = desk.deal("golf", 7)
    assert page.inner_text("#counters") == "Run 0"
    # a tournament's attempt opened with a long name (as the tournament's page opens one)
    name = "The Grand Midwinter Invitational Solitaire Championship of the Northern Clubs"
    page.evaluate(
        """async (name) => {
             const { api } = await import('/static/api.js');
             const answer = await api.start({ game: 'klondike', variant: { draw: 1 },
                                              mode: 'practice', seed: '5' });
             const request = { game: 'klondike', variant: { draw: 1 }, mode: 'practice',
                               tournament: { id: 'x', name, attempt: 2 } };
             document.dispatchEvent(new CustomEvent('patience:play',
               { detail: { answer, token: answer.token, request } }));
           }""",
        name,
    )
    page.wait_for_function(
        "document.querySelector('#title').textContent.includes('attempt 2')", timeout=WAIT
    )
    title = page.get_attribute("#title", "title") or ""
    assert title.startswith(name)
    assert "attempt 2" in title
    cut = page.evaluate(
        """() => { const name = document.querySelector('#title .event-name');
                   return name.scrollWidth > name.clientWidth; }"""
    )
    assert cut, "the long name is not cut short"
    # the attempt is seen whole, and the header's parts do not touch the pages' links
    gap = page.evaluate(
        """() => document.querySelector('#title').getBoundingClientRect().left
                 - document.querySelector('#nav').getBoundingClientRect().right"""
    )
    assert gap >= 8, gap
    shot(page, "eighth-7-long-tournament-name")
