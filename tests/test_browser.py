"""The browser client in real headless Chromium (Debian's ``chromium``, driven by
Playwright): whole games played by dragging, clicking and keys, undo enabled exactly when
the rules allow, the clock running out, and screenshots of every board.

Screenshots are written to ``artifacts/screenshots/`` (kept out of git) to be looked at.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from page_checks import WAIT
from patience.games import new_game
from patience.games.klondike import Klondike
from patience.server import launch
from patience.solve import solve
from patience.store.catalog import Certified, add
from patience.store.db import make_engine, migrate
from tables import motion_held, settled

CHROMIUM = "/usr/bin/chromium"
# Playwright's wait_for_function evaluates its string in the page, which the server's
# Content-Security-Policy forbids (no 'unsafe-eval'): these tests' pages bypass the policy.
# tests/test_hardening.py loads the client and /docs with it enforced.
BYPASS_CSP = True
SHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "screenshots"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM)
        yield launched
        launched.close()


def _server(tmp_path_factory: pytest.TempPathFactory, **env: str) -> Iterator[str]:
    port = launch.free_port()
    # No background refill of the catalog: its solver work would compete with the browser.
    env = {"PATIENCE_CATALOG_REFILL": "0", **env}
    process = launch.start(tmp_path_factory.mktemp("db") / "games.sqlite3", port, **env)
    yield f"http://127.0.0.1:{port}"
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=120)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from _server(tmp_path_factory)


@pytest.fixture
def page(browser: Browser, server: str) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1100, "height": 800}, bypass_csp=BYPASS_CSP)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.goto(server)
    yield opened
    context.close()
    assert not errors, errors


def start(page: Page, game: str, *, seed: int | None = None, variant: str | None = None) -> None:
    """Deal a game from the lobby (practice mode when a seed is given)."""
    page.check(f"input[name=game][value={game}]")
    if variant is not None:
        page.check(f"#options input[value='{variant}']")
    if seed is not None:
        page.check("input[name=mode][value=practice]")
        page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_selector("#board .card")
    settled(page)  # dealt: a card is measured where it lies, not on its way there


def answered(page: Page, action: object) -> None:
    """Run ``action`` (a callable) and wait for the server's next answer to be drawn."""
    version = page.get_attribute("#board", "data-version")
    action()  # type: ignore[operator]
    page.wait_for_function(
        f"document.querySelector('#board').dataset.version !== '{version}'", timeout=WAIT
    )
    settled(page)  # the cards stopped moving: places are measured where they are


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def drag(page: Page, source: str, dest: str) -> None:
    """Drag with the mouse from the element ``source`` to the element ``dest``."""
    start_box = page.locator(source).bounding_box()
    end_box = page.locator(dest).bounding_box()
    assert start_box is not None
    assert end_box is not None
    page.mouse.move(start_box["x"] + 10, start_box["y"] + 10)
    page.mouse.down()
    page.mouse.move(start_box["x"] + 30, start_box["y"] + 40, steps=3)
    page.mouse.move(end_box["x"] + end_box["width"] / 2, end_box["y"] + 20, steps=5)
    page.mouse.up()


def _run_start(game: Klondike, source: int, dest: int) -> str:
    """The first card of the run of column ``source`` that fits on column ``dest``."""
    board = game.observation()["tableau"]
    target = board[dest]["cards"][-1] if board[dest]["cards"] else None
    for card in board[source]["cards"]:
        after = game.copy()
        try:
            after.play(f"t{source + 1}:{card}>t{dest + 1}")
        except ValueError:
            continue
        return card
    raise AssertionError(f"no run of t{source + 1} fits on {target}")


@pytest.fixture
def still_page(browser: Browser, server: str) -> Iterator[Page]:
    """A page that asks for reduced motion: a whole game's moves drawn at once (the cards'
    motion has its own tests, tests/test_table_feel.py), so that the game's hundred-odd
    moves do not each wait for an animation."""
    context = browser.new_context(
        viewport={"width": 1100, "height": 800}, bypass_csp=BYPASS_CSP, reduced_motion="reduce"
    )
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.goto(server)
    yield opened
    context.close()
    assert not errors, errors


# a whole game by mouse (over 30 s); make test wins one by keys (test_table.py)
@pytest.mark.slow
def test_a_whole_klondike_game_by_dragging_and_clicking(still_page: Page) -> None:
    page = still_page
    certificate = solve(new_game("klondike", seed=2)).moves
    start(page, "klondike", seed=2)
    shot(page, "klondike-start")
    mirror = Klondike.from_seed(2)
    for move in certificate:
        if mirror.is_over():
            break
        source, _, dest = move.partition(">")
        if move == "draw":
            act = lambda: page.click("#board [data-action]")  # noqa: E731
        elif move == "recycle":  # a costly recycle (draw 1: -100) asks first, from a click too

            def act() -> None:
                page.click("#board [data-action]")
                page.click("#confirm-yes")

        elif dest == "f":
            act = lambda s=source: page.dblclick(f'#board [data-src="{s}"]')  # noqa: E731
        elif source.startswith("t"):
            card = _run_start(mirror, int(source[1:]) - 1, int(dest[1:]) - 1)
            exposed = mirror.observation()["tableau"][int(source[1:]) - 1]["cards"][-1]
            selector = (
                f'#board [data-src="{source}"]'
                if card == exposed
                else (f'#board [data-src="{source}:{card}"]')
            )
            act = lambda sel=selector, d=dest: drag(page, sel, f'#board [data-dest="{d}"]')  # noqa: E731
        else:  # from the waste or a foundation: dragged (a click would send it home)
            act = lambda s=source, d=dest: drag(  # noqa: E731
                page, f'#board [data-src="{s}"]', f'#board .column[data-dest="{d}"]'
            )

        answered(page, act)
        mirror.play(move)
        if not mirror.is_over():  # once over, the score shown has the time bonus in it
            assert page.inner_text("#score") == str(mirror.score()), move
    page.wait_for_selector("#result:not([hidden])")
    assert page.inner_text("#result-title") == "You won!"
    assert "Time bonus" in page.inner_text("#breakdown")
    shot(page, "klondike-won")


def test_a_whole_golf_game_by_keys_with_undo(still_page: Page) -> None:
    page = still_page
    seed = next(s for s in range(50) if solve(new_game("golf", seed=s)).outcome == "solved")
    certificate = solve(new_game("golf", seed=seed)).moves
    start(page, "golf", seed=seed)
    shot(page, "golf-start")
    assert page.is_disabled("#undo")
    for index, move in enumerate(certificate):
        key = "Space" if move == "draw" else move[1:]
        answered(page, lambda k=key: page.keyboard.press(k))
        if page.is_visible("#result"):
            break
        # undo is allowed after a play, never after a draw
        assert page.is_disabled("#undo") == (move == "draw"), move
        if index == 0 and move != "draw":
            answered(page, lambda: page.keyboard.press("u"))
            answered(page, lambda k=key: page.keyboard.press(k))
    page.wait_for_selector("#result:not([hidden])")
    assert page.inner_text("#result-title") == "You won!"
    shot(page, "golf-won")


def test_undo_is_disabled_after_a_reveal(page: Page) -> None:
    start(page, "klondike", seed=2)
    assert page.is_disabled("#undo")
    answered(page, lambda: page.click("#board [data-action]"))  # draw turns up a card
    assert page.is_disabled("#undo")
    page.fill("#move-input", "t1>t1")
    page.press("#move-input", "Enter")
    page.wait_for_function("document.querySelector('#error').textContent.length > 0")
    assert "own column" in page.inner_text("#error")


@pytest.mark.parametrize(
    ("game", "seed", "motion"),
    [
        # the play-out's timing with motion is tested at the table (test_table_feel.py)
        pytest.param("klondike", 2, "no-preference", marks=pytest.mark.slow),
        ("klondike", 2, "reduce"),
        ("expert", 5, "no-preference"),
    ],
)
def test_the_play_out_flies_home_card_by_card(
    browser: Browser, server: str, game: str, seed: int, motion: str
) -> None:
    context = browser.new_context(
        viewport={"width": 1100, "height": 800}, reduced_motion=motion, bypass_csp=BYPASS_CSP
    )
    page = context.new_page()
    page.goto(server)
    start(page, game, seed=seed)
    *moves, last = solve(new_game(game, seed=seed)).moves
    held = page.evaluate("JSON.parse(sessionStorage.getItem('patience-game'))")
    headers = {"Authorization": f"Bearer {held['token']}"}
    for move in moves:  # all but the last through the API, then the page picks the game up
        answer = httpx.post(
            f"{server}/api/sessions/{held['id']}/moves", json={"move": move}, headers=headers
        )
        assert answer.status_code == 200, answer.text
        assert not answer.json()["last"]["auto"]
    page.reload()
    page.wait_for_selector("#board .card")
    page.fill("#move-input", last)
    version = page.get_attribute("#board", "data-version")
    # the flights held where they start while the play-out is read under way (a short one,
    # a second, could otherwise land on a busy machine before it is read)
    with motion_held(page):
        page.press("#move-input", "Enter")
        page.wait_for_function(f"document.querySelector('#board').dataset.version !== '{version}'")
        if motion == "reduce":  # the answer is drawn at once, won
            assert page.is_visible("#result")
            assert page.get_attribute("#board", "data-playing-out") is None
        else:  # the board before the play-out, then one card after another flying home
            assert page.get_attribute("#board", "data-playing-out") == "true"
            assert not page.is_visible("#result")
            page.wait_for_selector("#board .flying")
            assert page.locator("#board .column .card").count() > 0
    page.wait_for_selector("#result:not([hidden])", timeout=WAIT)
    assert page.get_attribute("#board", "data-playing-out") is None
    assert page.locator("#board .column .card").count() == 0
    tops = page.locator("#board [data-dest='f'] .card:not(.under)").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    assert sorted(tops) == sorted(["Kc", "Kd", "Kh", "Ks"] * (2 if game == "expert" else 1))
    assert page.inner_text("#result-title") == "You won!"
    context.close()


def test_a_double_tap_sends_a_card_home(browser: Browser, server: str) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, bypass_csp=BYPASS_CSP
    )
    page = context.new_page()
    page.goto(server)
    start(page, "klondike", seed=0)  # the Ace of column 5 can go home at once
    # (the browser turns a double tap into a double-click, which sends a card home)
    ace = page.locator('#board [data-src="t5"]')
    box = ace.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + 10

    def double_tap() -> None:
        page.touchscreen.tap(x, y)
        page.touchscreen.tap(x, y)

    answered(page, double_tap)
    assert page.locator('#board [data-src^="f:"]').count() == 1
    assert page.inner_text("#score") != "0"
    context.close()


@pytest.mark.parametrize(
    ("game", "size"),
    [
        ("kansas", "desktop"),
        ("expert", "desktop"),
        ("klondike", "phone"),
        ("golf", "phone"),
        ("kansas", "phone"),
        ("expert", "phone"),
        ("freecell", "desktop"),
        ("freecell", "phone"),
    ],
)
def test_every_board_is_drawn(browser: Browser, server: str, game: str, size: str) -> None:
    viewport = (
        {"width": 1100, "height": 800} if size == "desktop" else {"width": 390, "height": 844}
    )
    context = browser.new_context(
        viewport=viewport, has_touch=size == "phone", bypass_csp=BYPASS_CSP
    )
    page = context.new_page()
    page.goto(server)
    start(page, game, seed=7)
    cards = page.locator("#board .card:not(.back)")
    assert cards.count() >= 4
    widest = page.evaluate(
        "Math.max(...[...document.querySelectorAll('#board .card, #board .pile')]"
        ".map(e => e.getBoundingClientRect().right))"
    )
    assert widest <= viewport["width"], f"the board is {widest}px wide"
    shot(page, f"{game}-{size}")
    context.close()


@pytest.fixture(scope="module")
def short_clock_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from _server(tmp_path_factory, PATIENCE_TIME_LIMIT="3")


def test_the_clock_runs_out(browser: Browser, short_clock_server: str) -> None:
    page = browser.new_page(bypass_csp=BYPASS_CSP)
    page.goto(short_clock_server)
    start(page, "golf")
    page.wait_for_selector("#result:not([hidden])", timeout=WAIT)
    assert page.inner_text("#result-title") == "Time is up"
    assert page.inner_text("#clock") == "0:00"
    assert page.is_disabled("#undo")
    page.close()


@pytest.fixture(scope="module")
def rated_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose catalog holds two rated Golf (wrap) deals: tiers 2 and 8."""
    database = tmp_path_factory.mktemp("rated") / "games.sqlite3"
    engine = make_engine(f"sqlite:///{database}")
    migrate(engine)
    with engine.begin() as connection:
        for seed, tier in [(11, 2), (12, 8)]:
            rating = {"tier": tier, "score": tier / 10, "version": 1, "players": {}}
            add(
                connection,
                "golf",
                {"wrap": True},
                Certified(seed, 9, 0.01, 40, rating),
                at=1.0,
                origin="random",
            )
    engine.dispose()
    port = launch.free_port()
    process = launch.start(database, port, PATIENCE_CATALOG_REFILL="0")
    yield f"http://127.0.0.1:{port}"
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=120)


def test_a_deal_of_a_difficulty_from_the_lobby(browser: Browser, rated_server: str) -> None:
    context = browser.new_context(viewport={"width": 1100, "height": 800}, bypass_csp=BYPASS_CSP)
    page = context.new_page()
    page.goto(rated_server)
    page.check("input[name=game][value=kansas]")
    assert page.locator("#difficulty-row").is_visible()  # every game's deals are rated
    page.check("input[name=game][value=golf]")
    assert page.locator("#difficulty-row").is_visible()
    page.check("#options input[value='true']")
    page.check("input[name=difficulty][value=easy]")
    page.check("input[name=mode][value=practice]")
    assert page.locator("#seed-row").is_hidden()  # the server chooses the deal
    page.check("input[name=mode][value=timed]")
    shot(page, "lobby-difficulty")
    page.click("#start")
    page.wait_for_selector("#board .card")
    assert "Easy 2/10" in page.inner_text("#title")
    shot(page, "golf-easy")
    page.click("#end")  # ending a game asks first
    answered(page, lambda: page.click("#confirm-yes"))
    page.wait_for_selector("#result:not([hidden])")
    assert "Easy, tier 2 of 10" in page.inner_text("#breakdown")
    page.click("#to-lobby")
    page.check("input[name=difficulty][value=expert]")
    page.click("#start")
    page.wait_for_function("document.querySelector('#lobby-error').textContent !== ''")
    assert "No Expert deal of Golf (wrap) is left" in page.inner_text("#lobby-error")
    # the status bar (clock, score) belongs to the table, not the lobby
    assert page.locator("#status").is_hidden()
    context.close()
