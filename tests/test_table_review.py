"""The table's third and fourth reviews (a player of the big commercial collections, in
Chromium): one test each of their findings, in real headless Chromium at the reviews'
screens (desktop 1366x768, phone 390x844, and windows of 800x600 and 1024x768), on a server
whose catalog holds rated deals (a timed game of a difficulty, a daily deal). The history's
tiers (the third's finding 3) are tested through the API in tests/test_daily.py and
tests/test_tournaments.py; the fourth's cards that kept their size through a game are
tests/test_table_bugs.py's bug 7 and tests/test_table.py's bug 3.

Screenshots are written to ``artifacts/screenshots/table/`` to be looked at.
"""

from __future__ import annotations

import re
import signal
from collections.abc import Callable, Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page

from patience.games import new_game
from patience.players import Accounts
from patience.rating import rating_version
from patience.server import launch
from patience.solve import solve
from patience.store.catalog import Certified, add
from patience.store.db import make_engine, migrate_url
from tables import SIZES, Table, answered, box, end_game, focus_board, settled, shot

PASSWORD = "correct horse battery"
LONGEST_NAME = "Wilhelmina Montgomery-Wu"  # as long as a name may be (24 characters)
CONTROLS = "#table .controls button:not([hidden]), #table .controls input, #table .controls summary"


@pytest.fixture(scope="module")
def rated_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose catalog holds rated deals: Klondike draw 1 of tier 5 (a Medium timed
    game) and Golf without wrap of tier 5 (the daily deal)."""
    path = tmp_path_factory.mktemp("rated") / "games.sqlite3"
    migrate_url(f"sqlite:///{path}")
    engine = make_engine(f"sqlite:///{path}")

    def rating(name: str) -> dict[str, object]:  # of the game's current rating version
        return {"tier": 5, "score": 0.5, "version": rating_version(name)}

    with engine.begin() as connection:
        for seed in range(1000, 1020):
            add(
                connection,
                "klondike",
                {"draw": 1},
                Certified(seed, 9, 0.01, 40, rating("klondike")),
                at=1.0,
                origin="random",
            )
        for seed in range(2000, 2005):
            add(
                connection,
                "golf",
                {"wrap": False},
                Certified(seed, 9, 0.01, 40, rating("golf")),
                at=1.0,
                origin="random",
            )
    Accounts(engine).create(LONGEST_NAME, PASSWORD, operator=True)  # the header's longest
    engine.dispose()
    quiet = {
        "PATIENCE_CATALOG_REFILL": "0",
        "PATIENCE_RATE_STARTS": "0",
        "PATIENCE_RATE_MOVES": "0",
        "PATIENCE_RATE_ADDRESS": "0",
        "PATIENCE_RATE_HINTS": "0",
    }
    port = launch.free_port()
    process = launch.start(path, port, **quiet)
    yield f"http://127.0.0.1:{port}"
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=120)


@pytest.fixture
def rated(chromium: Browser, rated_server: str) -> Iterator[Callable[..., Table]]:
    """Pages of the client on the rated server, their errors checked after the test."""
    opened: list[Table] = []

    def make(size: str = "desktop", **options: object) -> Table:
        made = Table(chromium, rated_server, size, **options)
        opened.append(made)
        return made

    yield make
    for made in opened:
        made.close()


def sign_up(desk: Table, name: str) -> Page:
    page = desk.page
    page.goto(f"{desk.server}/#/account")
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup button[type=submit]")
    page.wait_for_selector("#nav a.who")
    return page


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def covered_controls(page: Page, selector: str) -> list[str]:
    """The table's controls (and the header's deal link) that ``selector``'s box covers."""
    over = box(page, selector)
    covered = []
    for control in page.locator(f"{CONTROLS}, #deal:not([hidden])").all():
        found = control.bounding_box()
        if found and found["width"] and overlaps(over, found):
            covered.append(control.get_attribute("id") or control.inner_text())
    return covered


# -- 1. one header line at the table, timed or practice, signed in -------------------------


def header(page: Page) -> tuple[float, float, list[float]]:
    """The header's height, the board's top and the top of each of the header's links."""
    tops: list[float] = page.evaluate(
        "[...document.querySelectorAll('#nav a')].map((a) => a.getBoundingClientRect().top)"
    )
    return box(page, ".bar")["height"], box(page, "#board")["y"], tops


def test_1_the_header_keeps_one_line_in_a_timed_game(rated: Callable[..., Table]) -> None:
    """An operator of the longest name: the header's most links."""
    desk = rated("desktop")
    page = desk.page
    page.goto(f"{desk.server}/#/account")
    page.fill("#login-name", LONGEST_NAME)
    page.fill("#login-password", PASSWORD)
    page.click("#login button[type=submit]")
    page.wait_for_selector("#nav a.who")
    page.goto(desk.server)
    page.wait_for_selector("#start")
    # the header as the operator's (its links are drawn again once the page has asked who is
    # signed in, after the lobby's form shows)
    page.wait_for_selector("#nav a.who")
    lobby_height = box(page, ".bar")["height"]
    page.check("input[name=difficulty][value=medium]")
    page.click("#start")
    page.wait_for_selector("#board .card", timeout=60_000)
    settled(page)
    title = page.inner_text("#title")
    assert "Medium 5/10" in title, title
    timed_height, timed_board, tops = header(page)
    shot(page, "review-header-timed-desktop")
    assert max(tops) - min(tops) < 2, f"the header's links wrap: their tops are {tops}"
    assert timed_height <= lobby_height + 1, (timed_height, lobby_height)
    # the title gives way, yet says which game it is
    assert box(page, "#title")["width"] > 120
    # a practice game: the same header, the board where it was
    page.goto(f"{desk.server}/?game=klondike&draw=1&seed=7")
    page.wait_for_selector("#board .card")
    settled(page)
    practice_height, practice_board, tops = header(page)
    assert max(tops) - min(tops) < 2, tops
    assert practice_height == timed_height
    assert practice_board == timed_board


# -- 2. an undo refused by its key is said to a screen reader --------------------------------


def test_2_an_undo_refused_by_its_key_is_announced(rated: Callable[..., Table]) -> None:
    desk = rated("desktop")
    page = desk.deal("klondike", 2)
    answered(page, lambda: page.click("#board [data-action]"))  # a draw: no undo after it
    assert page.is_disabled("#undo")
    page.keyboard.press("u")
    page.wait_for_function("document.querySelector('#error').textContent !== ''")
    shown = page.inner_text("#error")
    assert shown.startswith("Undo is off: "), shown
    assert page.inner_text("#announce") == f"Not allowed: {shown}"


# -- 4. the message bar covers no control, clears on the next action, and reads well -------


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_4_a_refusal_covers_no_control_and_goes_at_the_next_action(
    rated: Callable[..., Table], size: str
) -> None:
    desk = rated(size)
    page = desk.deal("klondike", 2)
    page.evaluate(
        """() => { const form = document.getElementById('typed');
                   form.style.display = 'flex'; }"""
    )  # (a phone hides the typed moves: shown here to type into)
    page.fill("#move-input", "t9>t1")
    page.press("#move-input", "Enter")
    page.wait_for_function("document.querySelector('#error').textContent !== ''")
    assert page.inner_text("#error") == "There is no column 9: Klondike has 7 columns"
    shot(page, f"review-message-{size}")
    assert covered_controls(page, "#error") == []
    # the next action (Hint, here) clears it at once, before its own answer comes
    page.locator("#hint").dispatch_event("pointerdown")
    assert page.inner_text("#error") == ""


# -- 5. the daily deals' page gives the player's own result ----------------------------------


def test_5_the_daily_page_shows_the_player_s_result_rank_and_streak(
    rated: Callable[..., Table],
) -> None:
    desk = rated("desktop")
    page = sign_up(desk, "Daily Dora")
    page.goto(f"{desk.server}/#/daily")
    golf = page.locator('#daily-today li[data-game="golf"]').first
    golf.locator("button.daily-play").wait_for()
    assert golf.locator("button.daily-play").inner_text() == "Play"
    assert "Daily streak: 0 days" in page.inner_text("#daily-streak")
    golf.locator("button.daily-play").click()
    page.wait_for_selector("#board .card", timeout=60_000)
    settled(page)
    end_game(page)
    page.goto(f"{desk.server}/#/daily")
    golf = page.locator('#daily-today li[data-game="golf"]').first
    golf.locator(".daily-done").wait_for()
    words = golf.inner_text()
    assert "Played · score " in words, words
    assert "rank 1 of 1" in words, words
    # a game lost (ended): "Played", no check mark, which reads as a win
    assert golf.locator(".daily-done").inner_text() == "Played"
    assert golf.locator("button.daily-play").count() == 0
    assert "1 played, 0 won" in page.inner_text("#daily-streak")
    # the other games' deals are still to play
    assert page.locator("#daily-today button.daily-play").count() >= 4
    shot(page, "review-daily-list-desktop")


# -- 6. a labelled way back to the lobby, by keyboard too -------------------------------------


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_6_a_labelled_way_back_to_the_lobby(rated: Callable[..., Table], size: str) -> None:
    desk = rated(size)
    page = desk.deal("golf", 3)
    back = page.get_by_role("button", name="Lobby")
    assert back.is_visible()
    # on one row with the other controls (the table's controls do not wrap for it)
    tops = [
        box["y"]
        for control in page.locator("#table .controls > button:visible").all()
        if (box := control.bounding_box()) is not None
    ]
    assert max(tops) - min(tops) < 10, tops
    shot(page, f"review-lobby-button-{size}")
    back.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#lobby:not([hidden])")
    assert page.locator("#table").is_hidden()
    page.wait_for_selector("#resume-list button")  # the game goes on, to continue


# -- 7. the lobby's Deal above the fold at 1366x768 -------------------------------------------


def test_7_deal_is_above_the_fold_on_a_desktop(rated: Callable[..., Table]) -> None:
    desk = rated("desktop")
    page = sign_up(desk, "Fold Finder")
    page.goto(desk.server)
    page.wait_for_selector("#start")
    deal = box(page, "#start")
    shot(page, "review-lobby-desktop")
    assert deal["y"] + deal["height"] <= 768 - 8, deal


# -- 8. the points pop-up covers no control on a phone ----------------------------------------


def test_8_the_points_cover_no_control_on_a_phone(rated: Callable[..., Table]) -> None:
    for size in ("phone", "desktop"):
        desk = rated(size)
        desk.page.goto(f"{desk.server}/?game=golf&wrap=true&seed=1")
        page = desk.page
        page.wait_for_selector("#board .card")
        settled(page)
        game = new_game("golf", seed=1, variant={"wrap": True})
        play = next(str(move) for move in game.legal_moves() if str(move) != "draw")
        column = page.locator(f'#board .column[data-dest="{play}"] .card').last
        answered(page, lambda c=column: c.click())  # type: ignore[misc]
        page.wait_for_selector("#points.show")
        page.evaluate("document.getAnimations().forEach((a) => a.pause())")
        shot(page, f"review-points-{size}")
        assert page.inner_text("#points").startswith("+")
        assert covered_controls(page, "#points") == [], size


# -- 9. the result's lines each on one line ---------------------------------------------------


def test_9_the_result_s_labels_keep_one_line(rated: Callable[..., Table]) -> None:
    """A daily deal's game (a signed-in player's: a guest is asked to sign in): its result
    has the longest lines (its deal's and its standing's words beside the points' labels)."""
    desk = rated("desktop")
    page = sign_up(desk, "Result Reader")
    page.goto(desk.server)
    page.wait_for_selector("#start")
    page.evaluate(
        """() => document.dispatchEvent(new CustomEvent('patience:daily',
                   { detail: { game: 'klondike', variant: { draw: 1 } } }))"""
    )
    page.wait_for_selector("#board .card", timeout=60_000)
    held = desk.held()
    headers = {"Authorization": f"Bearer {held['token']}"}
    answer = httpx.get(f"{desk.server}/api/sessions/{held['id']}", headers=headers).json()
    for _ in range(40):  # cards from the waste and the columns, else a draw
        legal = answer["legal_moves"]
        move = next((m for m in legal if m.startswith("w>") or m.endswith(">f")), "draw")
        if move == "draw" and "draw" not in legal:
            move = legal[0]
        played = httpx.post(
            f"{desk.server}/api/sessions/{held['id']}/moves", json={"move": move}, headers=headers
        )
        if played.status_code != 200 or played.json()["outcome"] is not None:
            break
        answer = played.json()
    page.reload()
    page.wait_for_selector("#board .card")
    settled(page)
    end_game(page)
    shot(page, "review-result-desktop")
    heights = page.evaluate(
        """() => [...document.querySelectorAll('#breakdown dt')].map((dt) =>
             [dt.textContent, dt.getBoundingClientRect().height,
              1.3 * parseFloat(getComputedStyle(dt).fontSize)])"""
    )
    labels = [label for label, _, _ in heights]
    assert "Standing" in labels, labels
    assert any(label.startswith("Cards from the waste") for label in labels), labels
    wrapped = [label for label, height, line in heights if height > line * 1.5]
    assert wrapped == [], wrapped


# -- 10. Golf's win cascades its own cards, not Klondike's kings ------------------------------


def test_10_golf_s_win_cascades_the_cleared_cards(rated: Callable[..., Table]) -> None:
    seed = next(s for s in range(50) if solve(new_game("golf", seed=s)).outcome == "solved")
    *moves, last = solve(new_game("golf", seed=seed)).moves
    desk = rated("desktop")
    page = desk.deal("golf", seed)
    desk.play_through_api(moves)
    answered(page, lambda: page.keyboard.press("Space" if last == "draw" else last[1:]))
    page.wait_for_selector("#result:not([hidden])")
    assert page.inner_text("#result-title") == "You won!"
    held = desk.held()
    waste = httpx.get(
        f"{desk.server}/api/sessions/{held['id']}",
        headers={"Authorization": f"Bearer {held['token']}"},
    ).json()["board"]["waste"]
    cascaded = page.eval_on_selector_all(
        "#cascade .cascade-card", "(cards) => cards.map((c) => c.dataset.card)"
    )
    assert cascaded, "no cascade"
    assert set(cascaded) <= set(waste[-4:]), (cascaded, waste)
    page.evaluate("document.getAnimations().forEach((a) => { a.currentTime = 900; })")
    shot(page, "review-golf-won")


# -- the fourth review ---------------------------------------------------------------------
# -- 2. a phone in portrait uses its height ---------------------------------------------------

# The cards' width in portrait before the fourth review: each game's are at least as wide.
PORTRAIT_BEFORE = {"klondike": 51, "golf": 51, "kansas": 48, "expert": 34}


def _drawn(page: Page) -> dict[str, float]:
    found: dict[str, float] = page.evaluate(
        """() => {
             const cards = [...document.querySelectorAll('#board .card')]
               .map((card) => card.getBoundingClientRect());
             const tableau = document.querySelector('#board .tableau').getBoundingClientRect();
             const stock = document.querySelector('#board .stock')?.getBoundingClientRect();
             // a row of piles at the board's foot (a phone upright: the stock's)
             const last = document.querySelector('#board > .row:last-child');
             const foot = last.classList.contains('tableau') ? null : last.getBoundingClientRect();
             return {
               narrowest: Math.min(...cards.map((r) => r.width)),
               lowest: Math.max(...cards.map((r) => r.bottom)),
               tableau: tableau.bottom,
               foot: foot ? foot.top : null,
               stock: stock ? (stock.top + stock.bottom) / 2 : 0,  // its middle
               scroll: document.documentElement.scrollHeight,
             };
           }"""
    )
    return found


@pytest.mark.parametrize("game", ["klondike", "golf", "kansas", "expert"])
def test_fourth_2_portrait_uses_the_screen_s_height(rated: Callable[..., Table], game: str) -> None:
    height = SIZES["phone"][1]
    page = rated("phone").deal(game, 42)
    drawn = _drawn(page)
    shot(page, f"review4-portrait-{game}")
    assert drawn["narrowest"] >= max(34, PORTRAIT_BEFORE[game]), drawn
    assert drawn["scroll"] <= height, drawn  # the help line in view, the page still
    # the columns have the screen's height to grow in (down to the row of piles at the
    # board's foot, where there is one)
    reach = 0.8 * height if drawn["foot"] is None else min(0.8 * height, drawn["foot"] - 12)
    assert drawn["tableau"] >= reach, drawn
    if game in ("golf", "expert"):  # dealt tall: their cards reach down the screen
        assert drawn["lowest"] >= 0.6 * height, drawn
    if game == "golf":  # its stock at the foot of the screen, where a thumb reaches it
        assert drawn["stock"] >= 0.75 * height, drawn
    if game == "kansas":  # its foundations two by two: cards half as wide again
        assert drawn["narrowest"] >= 1.2 * PORTRAIT_BEFORE[game], drawn


# -- 3. the lobby's daily deals give the player's own result -----------------------------------


def test_fourth_3_the_lobby_s_daily_deals_show_the_player_s_result(
    rated: Callable[..., Table],
) -> None:
    desk = rated("desktop")
    page = sign_up(desk, "Lobby Lou")
    page.goto(desk.server)
    golf = page.locator('#daily li[data-game="golf"]').first
    golf.locator("button", has_text="Play").wait_for()
    assert golf.locator(".daily-mine").count() == 0
    assert "Daily streak: 0 days" in page.inner_text("#lobby-streak")
    golf.locator("button", has_text="Play").click()
    page.wait_for_selector("#board .card", timeout=60_000)
    settled(page)
    end_game(page)
    assert page.inner_text("#again") == "Lobby and today's deals"
    page.click("#again")
    golf = page.locator('#daily li[data-game="golf"]').first
    golf.locator(".daily-mine").wait_for()
    words = golf.inner_text()
    # a game lost (ended): "Played", no check mark, which reads as a win ("Won \u2713")
    assert golf.locator(".played").inner_text() == "Played"
    assert "\u2713" not in words, words
    assert re.search(r"Played · score -?\d+ in \d+:\d\d[.\d]* · rank \d+ of \d+", words), words
    assert golf.locator("button").count() == 0  # played: no Play any more
    assert "1 played, 0 won" in page.inner_text("#lobby-streak")
    # the other games' deals are still to play
    assert page.locator("#daily li button", has_text="Play").count() >= 3
    shot(page, "review4-lobby-daily-played")


# -- 4. the points pop-up covers no control in a window of 800 or 1024 px ----------------------


@pytest.mark.parametrize("size", ["800x600", "1024x768"])
def test_fourth_4_the_points_cover_no_control_in_a_middle_window(
    rated: Callable[..., Table], size: str
) -> None:
    desk = rated(size)
    page = desk.page
    page.goto(f"{desk.server}/?game=golf&wrap=true&seed=1")
    page.wait_for_selector("#board .card")
    settled(page)
    game = new_game("golf", seed=1, variant={"wrap": True})
    play = next(str(move) for move in game.legal_moves() if str(move) != "draw")
    column = page.locator(f'#board .column[data-dest="{play}"] .card').last
    answered(page, lambda: column.click())
    page.wait_for_selector("#points.show")
    page.evaluate("document.getAnimations().forEach((a) => a.pause())")
    shot(page, f"review4-points-{size}")
    assert page.inner_text("#points").startswith("+")
    assert covered_controls(page, "#points") == [], size
    points = box(page, "#points")
    # (in the header where it has room, else in the free room of the row of controls: never
    # over the header's title or deal, test_table_ninth_pass_layout.py)
    for part in ("#end", "#new-deal", "#score-box", "#clock", "#title", "#deal"):
        assert not overlaps(points, box(page, part)), part


# -- 5. the costly recycle's question, by keys alone, remembered -------------------------------


# the recycle question by keys is also asked in test_table_eighth_pass_tabs.py
@pytest.mark.slow
def test_fourth_5_the_recycle_question_by_keys_is_remembered(rated: Callable[..., Table]) -> None:
    desk = rated("desktop")
    page = desk.page
    page.goto(desk.server)
    page.wait_for_selector("#start")
    page.check("input[name=difficulty][value=medium]")
    page.click("#start")  # a timed game
    page.wait_for_selector("#board .card", timeout=60_000)
    settled(page)
    desk.play_through_api(["draw"] * 24)
    focus_board(page)  # the board, not a card
    page.keyboard.press("d")
    page.wait_for_selector("#confirm:not([hidden])")
    assert page.get_attribute("#confirm .panel", "role") == "alertdialog"
    assert page.evaluate("document.activeElement.id") == "confirm-no"
    # Tab goes round the question's own controls, never behind it
    for _ in range(6):
        page.keyboard.press("Tab")
        assert page.evaluate("document.getElementById('confirm').contains(document.activeElement)")
    while page.evaluate("document.activeElement.id") != "confirm-option-input":
        page.keyboard.press("Tab")
    assert page.locator("#confirm-option-input").evaluate("(input) => input.labels[0].innerText")
    page.keyboard.press("Space")  # don't ask again
    assert page.is_checked("#confirm-option-input")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "confirm-yes"
    answered(page, lambda: page.keyboard.press("Enter"))
    assert page.locator("#confirm").is_hidden()
    assert page.inner_text("#counters") == "Recycles 1"
    # remembered: after a reload, the next recycle asks no more
    desk.play_through_api(["draw"] * 24)
    focus_board(page)  # the board, not a card
    answered(page, lambda: page.keyboard.press("d"))
    assert page.locator("#confirm").is_hidden()
    assert page.inner_text("#counters") == "Recycles 2"
