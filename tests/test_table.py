"""The table in real headless Chromium: one test for each bug a review of it found,
every game at four screen sizes (a long mid-game position and the result screen), axe-core's
accessibility checks, a whole Klondike game won by keys alone, and drops at ten grab
offsets.

Screenshots are written to ``artifacts/screenshots/table/`` (kept out of git) to be looked
at.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, sync_playwright

from page_checks import WAIT, settled
from patience.games import new_game
from patience.games.kansas import Kansas
from patience.games.klondike import Klondike
from patience.solve import solve
from tables import (
    CHROMIUM,
    LINKS,
    NOTATION,
    SIZES,
    Table,
    answered,
    box,
    draw_board,
    end_game,
    finger_drag,
    focus_board,
    focus_on,
    midgame_moves,
    no_sideways_scroll,
    outside_viewport,
    screens,
    shot,
    start_server,
    submit_typed,
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from start_server(tmp_path_factory)


@pytest.fixture(scope="module")
def short_clock_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from start_server(tmp_path_factory, PATIENCE_TIME_LIMIT="3")


@pytest.fixture
def table(browser: Browser, server: str) -> Iterator[Callable[..., Table]]:
    opened: list[Table] = []

    def make(size: str = "desktop", **options: Any) -> Table:
        made = Table(browser, server, size, **options)
        opened.append(made)
        return made

    yield make
    for made in opened:
        made.close()


PLAYABLE = "#board .column .card:last-child, #board .pile [data-src], #board [data-action]"


# -- one test for each bug of the issue ----------------------------------------------------


def _touch_drag(table: Table, start: dict[str, float], end: tuple[float, float]) -> None:
    """A finger's drag from the middle of ``start`` to ``end``, as the touch screen sends it."""
    finger_drag(table.context, table.page, (start["x"] + start["width"] / 2, start["y"] + 12), end)


def test_bug_1_a_tap_after_a_touch_drag_is_not_lost(table: Callable[..., Table]) -> None:
    phone = table("phone")
    page = phone.deal("klondike", 7)
    # a refused drag: the king of column 1 onto column 2
    king = box(page, '#board [data-src="t1"]')
    column = box(page, '#board .column[data-dest="t3"]')
    _touch_drag(phone, king, (column["x"] + 20, column["y"] + 40))
    page.wait_for_function("document.querySelector('#error').textContent !== ''")
    page.wait_for_selector(".dragging", state="detached")  # it glided back
    # the very next tap, on the hand, draws
    stock = box(page, "#board [data-action]")
    answered(page, lambda: page.touchscreen.tap(stock["x"] + 10, stock["y"] + 10))
    assert page.locator('#board [data-src="w"]').count() == 1


def test_a_slow_tap_counts_as_a_tap(table: Callable[..., Table]) -> None:
    """A finger held on the hand for a second before lifting (the browser calls it a long
    press and sends no click) still draws, and a tap on a card still picks or sends it."""
    phone = table("phone")
    page = phone.deal("klondike", 7)
    stock = box(page, "#board [data-action]")
    point = {"x": stock["x"] + 10, "y": stock["y"] + 10}
    cdp = phone.context.new_cdp_session(page)

    def slow_tap() -> None:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
        page.wait_for_timeout(1_000)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})

    def hand() -> str:
        return page.get_attribute("#board [data-action]", "aria-label") or ""

    assert hand().startswith("hand, 24 cards")
    answered(page, slow_tap)
    assert hand().startswith("hand, 23 cards")
    # and a quick tap is played once, not once for the tap and again for its click
    answered(page, lambda: page.touchscreen.tap(point["x"], point["y"]))
    page.wait_for_timeout(500)  # time for a second draw, if one were sent: none may come
    assert hand().startswith("hand, 22 cards")


def test_quick_clicks_on_the_stock_each_draw(table: Callable[..., Table]) -> None:
    """Two quick clicks on the hand are two draws (the second click of a double click had
    been dropped, and the double click does nothing on the stock)."""
    page = table("desktop").deal("klondike", 7)
    hand = '#board [data-action="draw"]'
    assert (page.get_attribute(hand, "aria-label") or "").startswith("hand, 24 cards")
    page.dblclick(hand)
    page.wait_for_function(
        f"document.querySelector('{hand}').getAttribute('aria-label').startsWith('hand, 22')"
    )


def test_a_card_is_moved_where_two_of_its_columns_groups_fit(
    table: Callable[..., Table],
) -> None:
    """Kansas: with two groups of column 1 that fit on column 3, the exposed queen of spades
    is moved there by taps (the bare move had been refused as ambiguous, and only the typed
    notation could make it): a tap moves it to the one column it fits, or, if the tap only
    picks it, a tap on column 3 then does."""
    phone = table("phone")
    page = phone.deal("kansas", 1014)
    solved = solve(Kansas.from_seed(1014), time_limit=10.0)
    assert solved.outcome == "solved"
    line = list(solved.moves)
    at = line.index("t1:Qs>t3")
    phone.play_through_api(line[:at])
    assert page.get_attribute('#board [data-src="t1"]', "data-card") == "Qs"
    version = page.get_attribute("#board", "data-version")
    page.tap('#board [data-src="t1"]')  # no place home: to the one column it fits, or picked
    page.wait_for_function(
        """(version) => document.querySelector('#board').dataset.version !== version
             || document.querySelector('#board .picked')""",
        arg=version,
    )
    if page.get_attribute("#board", "data-version") == version:  # picked: put it there
        answered(page, lambda: page.tap('#board .column[data-dest="t3"]'))
    settled(page)
    assert page.get_attribute('#board [data-src="t3"]', "data-card") == "Qs"
    assert page.inner_text("#error") == ""


def test_the_result_names_only_the_bonuses_a_game_has(table: Callable[..., Table]) -> None:
    """Kansas has no time bonus: its result shows none (it had shown a bonus of 0 and said
    the time bonus counts); Klondike's says what its bonus counts."""
    page = table("desktop").deal("kansas", 3)
    end_game(page)
    assert "Time bonus" not in page.inner_text("#breakdown")
    assert page.inner_text("#result-reason") == "You stopped playing."
    page = table("desktop").deal("klondike", 7)
    end_game(page)
    assert "Time bonus" in page.inner_text("#breakdown")
    assert "the time left and the cards home" in page.inner_text("#result-reason")


def test_bug_2_a_game_left_never_takes_over_the_lobby(
    browser: Browser, short_clock_server: str
) -> None:
    desk = Table(browser, short_clock_server, "desktop")
    page = desk.page
    page.goto(short_clock_server)
    page.check("input[name=game][value=golf]")
    page.click("#start")
    page.wait_for_selector("#board .card")
    game_id = desk.held()["id"]
    page.click("#home")
    page.wait_for_selector("#lobby:not([hidden])")
    # past the game's 3 s clock: the lobby's Continue says its time is up, the server has
    # ended it, and the page has nothing more on its way (any answer to a clock of the
    # table left would have come)
    page.wait_for_selector(
        f'#lobby button[data-id="{game_id}"] .left >> text="time is up"', timeout=15_000
    )
    page.wait_for_function(
        """async (held) => {
             const answer = await fetch(`/api/sessions/${held.id}`,
               { headers: { Authorization: `Bearer ${held.token}` } });
             return (await answer.json()).outcome !== null;
           }""",
        arg=desk.held(),
        polling=250,
        timeout=15_000,
    )
    page.wait_for_load_state("networkidle")
    assert page.locator("#lobby").is_visible()
    assert page.locator("#status").is_hidden()
    assert page.locator("#result").is_hidden()
    assert page.locator("#table").is_hidden()
    desk.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_bug_3_the_result_is_an_overlay_in_view_and_focused(
    table: Callable[..., Table], size: str
) -> None:
    page = table(size).deal("kansas", 3)
    end_game(page)
    assert not outside_viewport(page, "#result .panel button")
    assert page.evaluate("document.activeElement.id") == "again"
    assert page.evaluate("document.documentElement.scrollHeight") <= SIZES[size][1] + 1


def test_bug_4_a_covered_card_shows_its_rank_and_suit(table: Callable[..., Table]) -> None:
    page = table("desktop").deal("expert", 7)
    covered = page.evaluate(
        """() => [...document.querySelectorAll('#board .column .card:not(:last-child)')]
           .map((card) => {
             const corner = card.querySelector('.corner').getBoundingClientRect();
             const next = card.nextElementSibling.getBoundingClientRect();
             return [card.querySelector('.corner').textContent, corner.bottom <= next.top + 1];
           })"""
    )
    assert len(covered) == 90
    for text, visible in covered:
        assert visible, text
        assert text[-1] in "\u2663\u2666\u2665\u2660", text


def test_bug_5_expert_s_empty_hand_is_a_card_sized_target(table: Callable[..., Table]) -> None:
    page = table("desktop").deal("expert", 7)
    board = new_game("expert", seed=7).observation()
    board["hand"] = []
    draw_board(page, board)
    hand = box(page, '#board [data-dest="h"]')
    card = box(page, "#board .column .card")
    assert hand["width"] >= card["width"]
    assert hand["height"] >= card["height"] - 1


@pytest.mark.parametrize("size", ["desktop", "landscape"])
def test_bug_6_a_long_column_fans_tighter_and_fits(table: Callable[..., Table], size: str) -> None:
    page = table(size).deal("kansas", 7)
    board = new_game("kansas", seed=7).observation()
    run = [f"{rank}{'cdhs'[k % 4]}" for k, rank in enumerate("KQJT98765432AKQJT98")]
    board["tableau"][1] = {"hidden": 0, "cards": run}  # 19 cards
    draw_board(page, board)
    assert not outside_viewport(page, "#board .column .card:last-child")
    last = box(page, '#board .column[data-dest="t2"] .card:last-child')
    assert last["y"] + last["height"] <= SIZES[size][1]


def test_bug_7_the_table_pans_by_swiping_and_fits_landscape(table: Callable[..., Table]) -> None:
    page = table("landscape").deal("klondike", 7)
    assert page.evaluate("getComputedStyle(document.getElementById('board')).touchAction") != "none"
    assert (
        page.evaluate("getComputedStyle(document.querySelector('#board [data-src]')).touchAction")
        == "none"
    )  # a card itself is dragged, not panned
    assert not outside_viewport(page, PLAYABLE)


def test_bug_8_a_drop_goes_where_the_card_lands_and_a_refused_one_glides_back(
    table: Callable[..., Table],
) -> None:
    page = table("desktop").deal("klondike", 7)
    source = box(page, '#board [data-src="t1"]')
    target = box(page, '#board .column[data-dest="t3"] .card:last-child')
    page.mouse.move(source["x"] + 10, source["y"] + 10)
    page.mouse.down()
    page.mouse.move(target["x"] + 30, target["y"] + 40, steps=6)
    assert page.locator('#board .column[data-dest="t3"]').get_attribute("class") == "column drop-ok"
    page.mouse.up()
    page.wait_for_function("document.querySelector('#error').textContent !== ''")
    page.wait_for_selector(".dragging", state="detached")  # it glided back
    assert page.locator(".drop-ok").count() == 0
    assert page.locator('#board [data-src="t1"]').get_attribute("data-card") == "Ks"
    assert page.inner_text("#error") != ""  # refused, with its reason


def test_bug_9_the_points_flash_never_widens_the_page(table: Callable[..., Table]) -> None:
    phone = table("phone")
    page = phone.deal("klondike", 0)  # the ace of column 5 goes home at once
    answered(page, lambda: page.click('#board [data-src="t5"]'))
    assert page.locator("#points.show").count() == 1
    no_sideways_scroll(page)
    flash = box(page, "#points")
    assert flash["x"] + flash["width"] <= 390


def _hidden_corners(page: Page) -> list[str]:
    """The playable cards of the board whose corner (rank and suit) another card covers:
    the corner's left and right ends, halfway down, must show the card itself."""
    hidden: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('#board .card[data-src]')].filter((card) => {
             const corner = card.querySelector('.corner').getBoundingClientRect();
             const y = corner.top + corner.height / 2;
             return [corner.left + 1, corner.right - 1].some((x) =>
               document.elementFromPoint(x, y)?.closest('.card') !== card);
           }).map((card) => card.dataset.card)"""
    )
    return hidden


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_every_playable_card_shows_its_rank_and_suit(
    table: Callable[..., Table], size: str
) -> None:
    """Solitaire Expert's hand of four, with tens (the widest corners), normal and large
    corners: no card a player can play hides its corner under the next."""
    page = table(size).deal("expert", 7)
    board = new_game("expert", seed=7).observation()
    board["hand"] = ["Ts", "Th", "Td", "Tc"]
    for large in (False, True):
        page.evaluate("(large) => document.body.classList.toggle('large-index', large)", large)
        draw_board(page, board)
        shot(page, f"expert-hand-{size}-{'large' if large else 'normal'}")
        assert page.locator("#board .hand .card[data-src]").count() == 4
        assert not _hidden_corners(page), (large, _hidden_corners(page))


def test_bug_10_expert_s_covered_strips_can_be_taken_by_a_finger(
    table: Callable[..., Table],
) -> None:
    page = table("phone").deal("expert", 7)
    strips = page.evaluate(
        """() => [...document.querySelectorAll('#board .column .card:not(:last-child)')]
             .map((card) => card.nextElementSibling.getBoundingClientRect().top
                            - card.getBoundingClientRect().top)"""
    )
    assert min(strips) >= 20, min(strips)


def test_bug_11_no_stale_message_and_no_buttons_after_the_end(table: Callable[..., Table]) -> None:
    page = table("desktop").deal("klondike", 7)
    page.fill("#move-input", "t1>t3")
    page.press("#move-input", "Enter")
    page.wait_for_function("document.querySelector('#error').textContent.length > 0")
    page.click("#card-menu summary")  # Restart is in the table's menu
    page.click("#restart")
    answered(page, lambda: page.click("#confirm-yes"))
    assert page.inner_text("#error") == ""
    end_game(page)
    assert page.is_disabled("#hint")
    assert page.is_disabled("#restart")
    assert page.is_disabled("#undo")


def test_bug_12_the_seed_box(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    page = desk.page
    page.goto(desk.server)
    page.wait_for_selector("#start")
    page.check("input[name=game][value=golf]")
    page.check("input[name=mode][value=practice]")
    for typed, reason in [
        ("abc", SEED_WORDS),
        ("3.7", SEED_WORDS),
        ("123456789012345678901", SEED_WORDS),
        ("18446744073709551615", SEED_WORDS),  # a 64-bit seed, past the server's deals
    ]:
        page.fill("#seed", typed)
        page.click("#start")
        page.wait_for_function("document.querySelector('#lobby-error').textContent !== ''")
        message = page.inner_text("#lobby-error")
        assert reason in message, message
        assert "{" not in message
        assert "loc" not in message
        assert not _python_wording(message), message
        assert page.locator("#lobby").is_visible()
    page.fill("#seed", "9007199254740993")  # above 2**53: kept exact as a string
    page.click("#start")
    page.wait_for_selector("#board .card")
    # a number too long to read out is named by the game's code; its link keeps every digit
    assert re.fullmatch(r"Game #[0-9A-Z]{3}-[0-9A-Z]{3}", page.inner_text("#deal"))
    assert "seed=9007199254740993" in (page.get_attribute("#deal", "href") or "")


def test_bug_13_messages_and_hints_in_words(table: Callable[..., Table]) -> None:
    page = table("desktop").deal("klondike", 2)
    page.fill("#move-input", "t1>t1")
    page.press("#move-input", "Enter")
    page.wait_for_function("document.querySelector('#error').textContent.length > 0")
    refusal = page.inner_text("#error")
    assert not _notation(refusal), refusal
    page.click("#hint")
    page.wait_for_selector("#board .hint-source")
    hint = page.inner_text("#error")
    assert hint.startswith("Hint: "), hint
    assert not _notation(hint), hint
    answered(page, lambda: page.click("#board [data-action]"))
    spoken = page.inner_text("#announce")
    assert spoken.startswith("Drew the "), spoken
    assert not _notation(spoken), spoken
    end_game(page)
    assert page.inner_text("#announce").startswith("You ended the game")


def _notation(text: str) -> bool:
    return re.search(NOTATION, text) is not None


def test_bug_14_end_and_restart_ask_first(table: Callable[..., Table]) -> None:
    page = table("desktop").deal("golf", 7)
    assert page.evaluate("document.getElementById('undo').nextElementSibling.id") != "end"
    page.click("#end")
    assert page.locator("#confirm").is_visible()
    page.click("#confirm-no")
    assert page.locator("#confirm").is_hidden()
    assert page.locator("#result").is_hidden()
    page.click("#card-menu summary")
    page.click("#restart")
    page.keyboard.press("Escape")
    assert page.locator("#confirm").is_hidden()
    assert page.is_enabled("#end")


def test_bug_15_the_empty_hand_shows_the_recycle_and_d_asks(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    page = desk.deal("klondike", 7)
    desk.play_through_api(["draw"] * 24)
    stock = page.locator("#board [data-action]")
    assert stock.get_attribute("data-action") == "recycle"
    assert page.locator("#board .recycle-mark").is_visible()
    focus_board(page)  # the board, not a card
    page.keyboard.press("d")
    assert page.locator("#confirm").is_visible()
    assert "-100" in page.inner_text("#confirm-text")
    answered(page, lambda: page.click("#confirm-yes"))
    assert "minus 100 points" in page.inner_text("#announce")


def test_bug_16_the_phone_layout(table: Callable[..., Table]) -> None:
    page = table("phone").deal("kansas", 7)
    title = box(page, "#title")
    assert title["height"] < 30  # one line
    assert page.locator("#board .label").count() == 0
    help_text = page.inner_text("#help").lower()
    assert "double-click" not in help_text
    assert "keys" not in help_text
    bar = box(page, ".bar")
    assert bar["height"] < 50


SEED_WORDS = "A deal number is a whole number from 0 to 9,223,372,036,854,775,807."


def _python_wording(text: str) -> bool:
    """Whether ``text`` shows a validator's or Python's wording, or echoes a long input."""
    return re.search(r"Value error|\*\*|\bNone\b|\binf\b|\d{22,}|'\w+'", text) is not None


def test_a_bad_deal_link_is_refused_in_plain_words(table: Callable[..., Table]) -> None:
    """No "Seed: Value error, ...", no "2**63 - 1", no input echoed back."""
    desk = table("desktop")
    page = desk.page
    huge = "9" * 59
    seed_words = (
        "The deal number (seed) must be a whole number from 0 to 9,223,372,036,854,775,807."
    )
    for query, words in [
        ("game=klondike&draw=3&seed=abc", seed_words),
        ("game=klondike&draw=3&seed=-1", seed_words),
        ("game=golf&wrap=false&seed=18446744073709551615", seed_words),
        (f"game=golf&wrap=false&seed={huge}", seed_words),
        ("game=golf&wrap=maybe&seed=3", "Wrap must be false or true."),
    ]:
        page.goto(f"{desk.server}/?{query}")
        page.wait_for_selector("#missing-words")
        assert page.inner_text("#page h2").endswith(" link cannot be dealt")
        message = page.inner_text("#missing-words")
        assert words in message, message
        assert not _python_wording(message), message
        assert "maybe" not in message
    shot(page, "bad-deal-link")


def test_a_game_opened_from_a_page_fits_from_its_first_frame(
    table: Callable[..., Table],
) -> None:
    """A tournament's attempt opens its game (patience:play) while the page still
    hides the table; its first painted board is as wide as the phone, not wider."""
    phone = table("phone")
    page = phone.page
    page.goto(f"{phone.server}/#/tournaments")
    page.wait_for_selector("#page h2")
    right, width = page.evaluate(
        """async () => {
             const response = await fetch('/api/sessions', {
               method: 'POST', headers: { 'Content-Type': 'application/json' },
               body: JSON.stringify({ game: 'golf', mode: 'practice', seed: '5' }) });
             const answer = await response.json();
             // as tournaments.js does: the game first, then the page steps aside
             document.dispatchEvent(new CustomEvent('patience:play',
               { detail: { answer, token: answer.token } }));
             history.pushState(null, '', '/');
             window.dispatchEvent(new HashChangeEvent('hashchange'));
             // measured as the first frame was painted (a task after its frame)
             await new Promise((done) => requestAnimationFrame(() => setTimeout(done)));
             const cards = [...document.querySelectorAll('#board .card')];
             return [Math.max(...cards.map((card) => card.getBoundingClientRect().right)),
                     document.documentElement.clientWidth];
           }"""
    )
    shot(page, "golf-opened-from-a-page-phone")
    assert right <= width, f"the board's right edge is at {right} px of {width}"
    no_sideways_scroll(page)


def test_a_question_open_keeps_the_moves_behind_it(table: Callable[..., Table]) -> None:
    """While End (or Restart, or a recycle) asks, a move typed in the Move box is
    not played and the question stays open until it is answered."""
    desk = table("desktop")
    page = desk.deal("golf", 7)
    page.click("#end")
    assert page.locator("#confirm").is_visible()
    # whatever reaches the box behind the question (a script, a tool) is not played
    submit_typed(page, "draw")
    page.keyboard.press("d")
    page.keyboard.press("1")
    assert page.locator("#confirm").is_visible()
    page.click("#confirm-no")
    assert page.locator("#confirm").is_hidden()
    # one move now: had the ones behind the question been played, the game would count more
    page.fill("#move-input", "draw")
    answered(page, lambda: page.press("#move-input", "Enter"))
    held = desk.held()
    game = httpx.get(
        f"{desk.server}/api/sessions/{held['id']}",
        headers={"Authorization": f"Bearer {held['token']}"},
    ).json()
    assert game["move_count"] == 1, game["move_count"]
    assert game["outcome"] is None


def test_bug_18_no_request_fails(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    failed: list[str] = []
    desk.page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    desk.deal("golf", 3)
    desk.page.goto(f"{desk.server}/docs")
    desk.page.wait_for_load_state("networkidle")
    assert not failed, failed
    assert httpx.get(f"{desk.server}/favicon.ico").status_code == 200


# -- every game at every size ---------------------------------------------------------------


@pytest.mark.parametrize("size", screens("desktop", "phone"))
@pytest.mark.parametrize("game", list(LINKS))
def test_every_game_fits_every_screen(table: Callable[..., Table], game: str, size: str) -> None:
    desk = table(size)
    page = desk.deal(game, 11)
    desk.play_through_api(midgame_moves(game, 11, 36))
    no_sideways_scroll(page)
    assert not outside_viewport(page, PLAYABLE)
    shot(page, f"{game}-{size}-midgame")
    end_game(page)
    no_sideways_scroll(page)
    assert not outside_viewport(page, "#result .panel button")
    shot(page, f"{game}-{size}-result")


# -- accessibility ---------------------------------------------------------------------------


def _serious(page: Page) -> list[str]:
    results = Axe().run(page)
    violations = results.response["violations"]
    return [
        f"{item['id']}: {item['help']} ({len(item['nodes'])})"
        for item in violations
        if item.get("impact") in ("serious", "critical")
    ]


def test_axe_finds_nothing_serious_in_the_lobby(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    desk.page.goto(desk.server)
    desk.page.wait_for_selector("#game-choice input")
    assert _serious(desk.page) == []


@pytest.mark.parametrize("game", list(LINKS))
def test_axe_finds_nothing_serious_on_a_board_and_its_result(
    table: Callable[..., Table], game: str
) -> None:
    page = table("desktop").deal(game, 5)
    assert _serious(page) == []
    end_game(page)
    assert _serious(page) == []


def test_a_whole_klondike_game_won_by_keys_alone(
    browser: Browser, server: str, table: Callable[..., Table]
) -> None:
    # seed 1: the shortest won game among the first forty deals' solutions (175 moves: 90
    # draws, 6 recycles, 9 runs moved from under their column's top card, cards home)
    seed = 1
    desk = table("desktop", reduced_motion="reduce")
    page = desk.deal("klondike", seed)
    for _ in range(15):  # Tab reaches the board
        page.keyboard.press("Tab")
        if page.evaluate("document.getElementById('board').contains(document.activeElement)"):
            break
    else:
        raise AssertionError("Tab never reaches the board")
    mirror = Klondike.from_seed(seed)
    for move in solve(new_game("klondike", seed=seed)).moves:
        if mirror.is_over():
            break
        source, _, dest = move.partition(">")
        if move == "draw":
            answered(page, lambda: page.keyboard.press("d"))
        elif move == "recycle":
            page.keyboard.press("d")
            page.wait_for_selector("#confirm:not([hidden])")
            page.keyboard.press("Shift+Tab")  # from "Keep playing" to "Turn it over"
            answered(page, lambda: page.keyboard.press("Enter"))
        else:
            if source.startswith("t") and dest.startswith("t"):
                card = _run_start(mirror, int(source[1:]) - 1, int(dest[1:]) - 1)
                exposed = mirror.observation()["tableau"][int(source[1:]) - 1]["cards"][-1]
                source = source if card == exposed else f"{source}:{card}"
            focus_on(page, f'#board [data-src="{source}"]')
            page.keyboard.press("Enter")  # pick
            if dest == "f":
                answered(page, lambda: page.keyboard.press("Enter"))  # Enter again: home
            else:
                column = f'#board .column[data-dest="{dest}"]'
                target = f"{column} .card:last-child"
                focus_on(page, target if page.locator(target).count() else column)
                answered(page, lambda: page.keyboard.press("Enter"))  # place
        mirror.play(move)
        if not mirror.is_over():
            assert page.inner_text("#score") == str(mirror.score()), move
    page.wait_for_selector("#result:not([hidden])")
    assert page.inner_text("#result-title") == "You won!"
    shot(page, "klondike-won-by-keys")


def _run_start(game: Klondike, source: int, dest: int) -> str:
    """The first card of the run of column ``source`` that fits on column ``dest``."""
    for card in game.observation()["tableau"][source]["cards"]:
        try:
            game.copy().play(f"t{source + 1}:{card}>t{dest + 1}")
        except ValueError:
            continue
        return card
    raise AssertionError(f"no run of t{source + 1} fits on t{dest + 1}")


# -- drops by overlap ------------------------------------------------------------------------

GRABS = [(0.05, 0.05), (0.5, 0.05), (0.95, 0.05), (0.05, 0.5), (0.5, 0.5),
         (0.95, 0.5), (0.05, 0.95), (0.5, 0.95), (0.95, 0.95), (0.3, 0.7)]  # fmt: skip
EVERY_RUN_GRABS = {(0.5, 0.5), (0.05, 0.95), (0.95, 0.05)}
"""The grabs of ``make test``: the middle and two opposite corners (all in test-slow)."""


@pytest.mark.parametrize(
    ("across", "down"),
    [
        pytest.param(*grab, marks=() if grab in EVERY_RUN_GRABS else (pytest.mark.slow,))
        for grab in GRABS
    ],
)
def test_a_drop_is_taken_by_the_place_the_card_overlaps_most(
    table: Callable[..., Table], across: float, down: float
) -> None:
    page = table("desktop").deal("klondike", 0)  # t7>t2 is legal at once
    card = box(page, '#board [data-src="t7"]')
    target = box(page, '#board .column[data-dest="t2"] .card:last-child')
    moved = page.get_attribute('#board [data-src="t7"]', "data-card")
    # The card is let go a third of a card's width off the target, to the side of the
    # grab, and a quarter of its height down: the pointer is off the target column, the
    # card mostly on it.
    aside = card["width"] * (0.3 if across >= 0.5 else -0.3)
    grab = (card["x"] + across * card["width"], card["y"] + down * card["height"])
    drop = (
        target["x"] + across * target["width"] + aside,
        target["y"] + down * target["height"] + target["height"] * 0.25,
    )
    page.mouse.move(*grab)
    page.mouse.down()
    page.mouse.move(grab[0] + 10, grab[1] + 10, steps=2)
    page.mouse.move(*drop, steps=8)
    assert "drop-ok" in (page.get_attribute('#board .column[data-dest="t2"]', "class") or "")
    answered(page, page.mouse.up)
    assert (
        page.get_attribute('#board .column[data-dest="t2"] .card:last-child', "data-card") == moved
    )
    assert page.inner_text("#error") == ""


# -- what players expect -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("link", "title"),
    [
        ("game=klondike&draw=3&seed=42", "Solitaire Rush, draw 3 (practice)"),
        ("game=golf&wrap=false&seed=42", "Golf, no wrap (practice)"),
        ("game=kansas&seed=42", "Kansas (practice)"),
        ("game=expert&seed=42", "Solitaire Expert (practice)"),
    ],
)
def test_a_deal_s_link_shows_its_board_at_once(
    table: Callable[..., Table], link: str, title: str
) -> None:
    desk = table("desktop")
    desk.page.goto(f"{desk.server}/?{link}")
    desk.page.wait_for_selector("#board .card")
    assert desk.page.inner_text("#title") == title
    assert desk.page.inner_text("#deal") == "Deal 42"
    assert desk.page.get_attribute("#deal", "href") == f"/?{link}"


def test_a_timed_game_s_deal_is_shown_once_over_and_can_be_played_again(
    table: Callable[..., Table],
) -> None:
    desk = table("desktop")
    page = desk.page
    page.goto(desk.server)
    page.check("input[name=game][value=golf]")
    page.click("#start")
    page.wait_for_selector("#board .card")
    # the seed of a running timed game is secret: the header names the game by its code,
    # with no link to its deal
    assert page.get_attribute("#deal", "href") is None
    assert re.fullmatch(r"Game #[0-9A-Z]{3}-[0-9A-Z]{3}", page.inner_text("#deal"))
    end_game(page)
    deal = page.get_attribute("#breakdown a.deal-link", "href")
    assert deal is not None
    assert "seed=" in deal
    answered(page, lambda: page.click("#replay-deal"))
    assert page.inner_text("#title").endswith("(practice)")
    assert page.get_attribute("#deal", "href") == deal  # the same deal


def test_the_lobby_offers_a_game_in_progress(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    page = desk.deal("kansas", 9)
    page.click("#home")
    page.wait_for_selector("#resume-list button")
    resume = page.locator("#resume-list button").first
    assert resume.inner_text().startswith("Continue")
    assert "Kansas (practice)" in resume.inner_text()
    answered(page, resume.click)
    assert page.inner_text("#deal") == "Deal 9"
    end_game(page)
    page.click("#to-lobby")
    page.wait_for_selector("#lobby:not([hidden])")
    # a finished game is no longer offered, once the lobby's list is read from the server
    page.wait_for_selector("#resume", state="hidden", timeout=WAIT)


def test_card_options_are_kept_between_visits(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    page = desk.page
    page.goto(desk.server)
    page.click("#look summary")  # the lobby's "Cards and table"
    page.check("#four-colour")
    page.check("#large-index")
    page.reload()
    page.wait_for_selector("#game-choice input")
    assert page.is_checked("#four-colour")
    assert page.is_checked("#large-index")
    desk.deal("klondike", 11)
    colour = page.evaluate(
        """async () => {
             const { cardElement } = await import('/static/cards.js');
             const diamond = cardElement('Td');
             document.getElementById('board').append(diamond);
             return getComputedStyle(diamond).color;
           }"""
    )
    assert colour == "rgb(20, 80, 200)"  # blue diamonds
    assert page.evaluate("document.body.classList.contains('large-index')")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_card_options_change_at_the_table_and_are_kept(
    table: Callable[..., Table], size: str
) -> None:
    """The table's menu offers the lobby's card options: a change shows at once, fits the
    board again, and is kept for the next visit and the lobby."""
    desk = table(size)
    page = desk.deal("expert", 7)
    assert page.locator("#table-large-index").is_hidden()  # the menu starts closed
    controls = box(page, "#table .controls")
    assert controls["height"] < 50  # the gear keeps the controls on one line
    page.click("#card-menu summary")
    page.check("#table-large-index")
    page.check("#table-four-colour")
    classes = page.evaluate("document.body.className").split()
    assert sorted(classes) == ["four-colour", "large-index"]
    shot(page, f"card-menu-{size}")
    assert not outside_viewport(page, "#card-menu .menu-panel")
    assert not _serious(page)
    page.keyboard.press("Escape")
    assert page.locator("#table-large-index").is_hidden()
    assert page.evaluate("document.activeElement.closest('#card-menu') !== null")
    assert not _hidden_corners(page)
    assert not outside_viewport(page, PLAYABLE)
    no_sideways_scroll(page)
    page.reload()  # the game comes back on the table, its options with it
    page.wait_for_selector("#board .card")
    page.click("#card-menu summary")
    assert page.is_checked("#table-large-index")
    assert page.is_checked("#table-four-colour")
    page.uncheck("#table-four-colour")
    page.click("#title")  # a press elsewhere closes it (the header: on a phone the menu
    # opens upwards from the controls' bar, over the help line)
    assert page.locator("#table-four-colour").is_hidden()
    page.click("#home")
    page.wait_for_selector("#game-choice input")
    assert page.is_checked("#large-index")
    assert not page.is_checked("#four-colour")
    assert page.evaluate("document.body.className") == "large-index"


def test_the_lobby_tells_how_to_play_each_game(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    page = desk.page
    page.goto(desk.server)
    page.wait_for_selector("#game-choice input")
    page.click("#how-to-play summary")
    for game, words in [("golf", "one rank above or below"), ("kansas", "reserve")]:
        page.check(f"input[name=game][value={game}]")
        assert words in page.inner_text("#rules")
    page.check("input[name=game][value=klondike]")
    page.check("#options input[name='option:draw'][value='3']")
    assert "Draw 3" in page.inner_text("#rules")


def test_the_game_s_own_counters(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    page = desk.deal("golf", 7)
    assert page.inner_text("#counters") == "Run 0"
    answered(page, lambda: page.keyboard.press("5"))  # column 5's free card plays on the waste
    assert page.inner_text("#counters") == "Run 1"
    desk.deal("klondike", 7)
    desk.play_through_api(["draw"] * 24 + ["recycle"])
    assert page.inner_text("#counters") == "Recycles 1"


def test_the_clock_turns_red_in_its_last_30_seconds(
    browser: Browser, short_clock_server: str
) -> None:
    desk = Table(browser, short_clock_server, "desktop")
    page = desk.page
    page.goto(short_clock_server)
    page.check("input[name=game][value=golf]")
    page.click("#start")
    page.wait_for_selector("#board .card")
    # (the clock is drawn at the frames after the board, and is red until the 3 s run out)
    page.wait_for_selector("#clock.low")
    desk.close()


def test_an_idle_table_writes_its_clock_only_when_its_second_turns(
    table: Callable[..., Table],
) -> None:
    # Written at every frame, the same text again and again, the clock kept an idle table's
    # browser repainting (a fifth of a core here, a phone's battery): each write must now
    # show a new second.
    page = table().deal("klondike", 7)
    page.evaluate(
        """() => {
          const clock = document.querySelector('#clock');
          window.clockWrites = [];
          new MutationObserver((records) => {
            for (const record of records) window.clockWrites.push(clock.textContent);
          }).observe(clock, { childList: true, characterData: true, subtree: true });
        }"""
    )
    page.wait_for_function("window.clockWrites.length >= 3", timeout=WAIT)
    writes: list[str] = page.evaluate("window.clockWrites")
    assert all(a != b for a, b in itertools.pairwise(writes)), writes


@pytest.mark.parametrize("game", ["klondike", "kansas"])
def test_a_deal_is_fitted_to_the_window_in_few_layouts(
    table: Callable[..., Table], game: str
) -> None:
    # Fitting a board tries card sizes, each try a layout of the page (the most costly work
    # of drawing a deal, and a slow phone's pause). A board whose piles stand beside its
    # columns widened the page after it was fitted, and was fitted all over again; and the
    # corner's size was tried one pixel at a time: Kansas took 97 layouts to open in this
    # window and Klondike 50; 26 and 27 now. (Without motion, whose frames lay the page out
    # too, as many as the machine's load lets it draw.)
    desk = table(reduced_motion="reduce")
    session = desk.context.new_cdp_session(desk.page)
    session.send("Performance.enable")
    desk.deal(game, 5)
    metrics = {m["name"]: m["value"] for m in session.send("Performance.getMetrics")["metrics"]}
    assert metrics["LayoutCount"] <= 40, metrics["LayoutCount"]


COVERED = """() => {
  const clip = document.querySelector('#cascade').getBoundingClientRect();
  const words = [...document.querySelectorAll(
    '#result-title, #result-reason, #breakdown, #result .buttons button')];
  const covered = [];
  const times = document.getAnimations().length ? [...Array(30).keys()].map((k) => k * 120) : [0];
  for (const time of times) {
    for (const animation of document.getAnimations()) {
      animation.pause();
      animation.currentTime = time;
    }
    for (const card of document.querySelectorAll('#cascade .cascade-card')) {
      const r = card.getBoundingClientRect();
      // the part of the card shown: the cascade clips it
      const left = Math.max(r.left, clip.left), right = Math.min(r.right, clip.right);
      const top = Math.max(r.top, clip.top), bottom = Math.min(r.bottom, clip.bottom);
      if (right <= left || bottom <= top || Number(getComputedStyle(card).opacity) === 0) continue;
      for (const word of words) {
        const w = word.getBoundingClientRect();
        if (left < w.right && right > w.left && top < w.bottom && bottom > w.top) {
          covered.push(`${word.id || word.className} at ${time} ms`);
        }
      }
    }
  }
  return [...new Set(covered)];
}"""


# a whole game to its cascade (about 45 s); make test wins whole games in test_browser.py
@pytest.mark.slow
def test_a_win_cascades(table: Callable[..., Table]) -> None:
    for motion in ("no-preference", "reduce"):
        desk = table("desktop", reduced_motion=motion)
        page = desk.deal("klondike", 2)
        *moves, last = solve(new_game("klondike", seed=2)).moves
        desk.play_through_api(moves)
        page.fill("#move-input", last)
        page.press("#move-input", "Enter")
        page.wait_for_selector("#result:not([hidden])", timeout=WAIT)
        assert page.inner_text("#result-title") == "You won!"
        cards = page.locator("#cascade .cascade-card")
        assert cards.count() == (4 if motion == "reduce" else 16)
        animated = page.evaluate("document.getAnimations().length")
        assert (animated == 0) == (motion == "reduce")
        # the cards never cover the heading, the reason, the figures or the buttons
        assert page.evaluate(COVERED) == [], motion
        page.evaluate("document.getAnimations().forEach((a) => { a.currentTime = 900; })")
        shot(page, f"klondike-won-{motion}-mid")
        shot(page, f"klondike-won-{motion}")


def test_the_table_opens_a_game_another_part_of_the_page_started(
    table: Callable[..., Table],
) -> None:
    desk = table("desktop")
    page = desk.page
    page.goto(desk.server)
    page.wait_for_selector("#game-choice input")
    page.evaluate(
        """async () => {
             const response = await fetch('/api/sessions', {
               method: 'POST', headers: { 'Content-Type': 'application/json' },
               body: JSON.stringify({ game: 'golf', mode: 'practice', seed: '5' }) });
             const answer = await response.json();
             window.ended = null;
             document.addEventListener('patience:ended', (e) => { window.ended = e.detail; });
             document.dispatchEvent(new CustomEvent('patience:play',
               { detail: { answer, token: answer.token } }));
           }"""
    )
    page.wait_for_selector("#board .card")
    assert page.inner_text("#deal") == "Deal 5"
    end_game(page)
    assert page.evaluate("window.ended.result.reason") == "ended"


def test_the_server_takes_a_seed_as_a_string_of_digits(server: str) -> None:
    start = f"{server}/api/sessions"
    for seed in ("42", 42, "9007199254740993"):
        answer = httpx.post(start, json={"game": "golf", "mode": "practice", "seed": seed})
        assert answer.status_code == 201, answer.text
        assert answer.json()["seed"] == int(seed)
    for seed in ("abc", "3.7", 3.7, True, "-1", "", "4" * 41):
        answer = httpx.post(start, json={"game": "golf", "mode": "practice", "seed": seed})
        assert answer.status_code == 422, (seed, answer.text)
        assert "a seed is a whole number" in answer.json()["detail"][0]["msg"]
    too_large = httpx.post(start, json={"game": "golf", "mode": "practice", "seed": "9" * 20})
    assert too_large.status_code == 400
    assert "from 0 to 9,223,372,036,854,775,807" in too_large.json()["detail"]
    assert "9" * 20 not in too_large.json()["detail"]  # the input is not echoed


@pytest.mark.parametrize("game", list(LINKS))
def test_every_card_and_pile_is_reached_by_the_arrow_keys(
    table: Callable[..., Table], game: str
) -> None:
    desk = table("desktop")
    page = desk.deal(game, 11)
    desk.play_through_api(midgame_moves(game, 11, 20))
    count = page.evaluate(
        """() => [...document.querySelectorAll('#board .stop')]
             .map((stop, index) => { stop.dataset.stopIndex = index; }).length"""
    )
    assert count > 5
    page.keyboard.press("ArrowRight")  # into the board
    for index in [*range(count), *reversed(range(count))]:
        focus_on(page, f'#board [data-stop-index="{index}"]')
        outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
        assert outline == "dashed"  # the focus is drawn


def test_draw_board_draws_a_replay_s_steps_still(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    page = desk.deal("klondike", 2)
    desk.play_through_api(["draw", "draw"])
    end_game(page)
    drawn = page.evaluate(
        """async (held) => {
             const { drawBoard } = await import('/static/board.js');
             const response = await fetch(`/api/sessions/${held.id}/replay`,
               { headers: { Authorization: `Bearer ${held.token}` } });
             const replay = await response.json();
             const viewer = document.createElement('div');
             document.body.append(viewer);
             return replay.steps.map((step) => {
               drawBoard(viewer, step.board, { interactive: false, height: 600 });
               return [viewer.querySelectorAll('.card').length,
                       viewer.querySelectorAll('[data-src], [data-action], .stop, [tabindex]')
                         .length,
                       viewer.querySelector('.waste').getAttribute('aria-label')];
             });
           }""",
        desk.held(),
    )
    # the stock is one card; from the second draw the waste has one under its top
    assert [cards for cards, _, _ in drawn] == [29, 30, 31, 31]
    assert all(pressable == 0 for _, pressable, _ in drawn)
    assert drawn[0][2] == "waste, empty"
    assert drawn[2][2].startswith("waste, 2 cards")
