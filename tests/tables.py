"""Helpers of the browser tests of the table: a server started for them, a page of the
client at one of the review's screen sizes (its errors collected), and waits for the
server's answers and for the cards to stop moving. The fixtures that use them are in
conftest.py (``chromium``, ``table_server``, ``short_clock_server``, ``table``)."""

from __future__ import annotations

import json
import random
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from patience.games import GAMES, new_game
from patience.server import launch

CHROMIUM = "/usr/bin/chromium"
# Playwright's wait_for_function evaluates its string in the page, which the server's
# Content-Security-Policy forbids: these pages bypass it (tests/test_hardening.py loads the
# client with it enforced).
BYPASS_CSP = True
SHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "screenshots" / "table"

SIZES: dict[str, tuple[int, int, bool]] = {
    "desktop": (1366, 768, False),
    "phone": (390, 844, True),
    "landscape": (844, 390, True),
    "tablet": (1024, 1366, True),
}
"""The screens the issue names: width, height, and whether it is a touch screen."""


def screens(*every_run: str, among: list[str] | None = None) -> list[Any]:
    """The screens ``among`` (all of :data:`SIZES` by default) as a test's parameters: the
    ones named in ``every_run`` run in ``make test``, the others are marked ``slow`` (run by
    ``make test-slow``), so that every check still meets every screen, without each screen
    costing a browser run in the suite that runs on every change.

    >>> [param.id for param in screens("desktop", among=["desktop", "landscape"])]
    ['desktop', 'landscape']
    >>> [len(param.marks) for param in screens("desktop", among=["desktop", "landscape"])]
    [0, 1]
    """
    return [
        pytest.param(size, id=size, marks=() if size in every_run else (pytest.mark.slow,))
        for size in (among if among is not None else list(SIZES))
    ]


VARIANTS: dict[str, dict[str, Any]] = {name: cls.check_variant({}) for name, cls in GAMES.items()}
"""Every registered game, each in its default variant: the deals the browser tests play
(a game added to the registry is played by them as it is)."""
LINKS = {
    name: "&".join([f"game={name}", *(f"{key}={json.dumps(v)}" for key, v in variant.items())])
    for name, variant in VARIANTS.items()
}
"""The link that deals each game of :data:`VARIANTS` ("game=klondike&draw=1")."""
NOTATION = r"\b(t\d+|[2-9TJQKA][cdhs])\b"


def start_server(tmp_path_factory: pytest.TempPathFactory, **env: str) -> Iterator[str]:
    port = launch.free_port()
    # No background refill of the catalog (its solver work would compete with the
    # browser), and no rate limits: these tests deal many games from one address.
    quiet = {
        "PATIENCE_CATALOG_REFILL": "0",
        "PATIENCE_RATE_STARTS": "0",
        "PATIENCE_RATE_MOVES": "0",
        "PATIENCE_RATE_ADDRESS": "0",
        "PATIENCE_RATE_HINTS": "0",
        "PATIENCE_RATE_HINTS_ADDRESS": "0",
        # a hint's search may take this long on a busy test machine (and its solver runs
        # at the server's own priority: the session's `solver_priority` fixture): the
        # hints these tests ask for are answered with a move
        "PATIENCE_HINT_SECONDS": "10",
    }
    settings = {**quiet, **env}  # a test's own settings over these (a limit it tests)
    process = launch.start(tmp_path_factory.mktemp("db") / "games.sqlite3", port, **settings)
    yield f"http://127.0.0.1:{port}"
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=120)


class Table:
    """A page of the client at one screen size (a name of :data:`SIZES`, or "WIDTHxHEIGHT"
    for a window without a touch screen), its errors
    collected; ``options`` go to the browser context (``reduced_motion="reduce"``...)."""

    def __init__(self, browser: Browser, server: str, size: str, **options: Any) -> None:
        if size in SIZES:
            width, height, touch = SIZES[size]
        else:  # "800x600": a window of that size, no touch screen
            width, height = (int(side) for side in size.split("x"))
            touch = False
        self.server = server
        self.context: BrowserContext = browser.new_context(
            viewport={"width": width, "height": height},
            has_touch=touch,
            is_mobile=touch and width < 900,
            bypass_csp=BYPASS_CSP,
            **options,
        )
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

    def deal(self, game: str, seed: int) -> Page:
        """Open the link of a deal (a practice game) and wait for its board, dealt."""
        self.page.goto(f"{self.server}/?{LINKS[game]}&seed={seed}")
        self.page.wait_for_selector("#board .card")
        settled(self.page)
        return self.page

    def held(self) -> dict[str, str]:
        held: dict[str, str] = self.page.evaluate(
            "JSON.parse(sessionStorage.getItem('patience-game'))"
        )
        return held

    def play_through_api(self, moves: list[str]) -> None:
        """Play ``moves`` through the API, then let the page pick the game up again."""
        held = self.held()
        headers = {"Authorization": f"Bearer {held['token']}"}
        for move in moves:
            answer = httpx.post(
                f"{self.server}/api/sessions/{held['id']}/moves",
                json={"move": move},
                headers=headers,
            )
            assert answer.status_code == 200, (move, answer.text)
        self.page.reload()
        self.page.wait_for_selector("#board .card")
        settled(self.page)

    def close(self) -> None:
        self.context.close()
        assert not self.errors, self.errors


def answered(page: Page, action: Callable[[], object], timeout: float = 10_000) -> None:
    """Run ``action`` and wait for the server's next answer to be drawn and its cards to
    have stopped moving."""
    version = page.get_attribute("#board", "data-version")
    action()
    page.wait_for_function(
        f"document.querySelector('#board').dataset.version !== '{version}'", timeout=timeout
    )
    settled(page, timeout)


def finger_drag(
    context: BrowserContext, page: Page, start: tuple[float, float], end: tuple[float, float]
) -> None:
    """A finger's drag from ``start`` to ``end`` in eight moves, as a touch screen sends it
    (Chromium's touch events, through the page's DevTools session)."""
    cdp = context.new_cdp_session(page)
    point = {"x": start[0], "y": start[1]}
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    for step in range(1, 9):
        at = {
            "x": start[0] + (end[0] - start[0]) * step / 8,
            "y": start[1] + (end[1] - start[1]) * step / 8,
        }
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [at]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def settled(page: Page, timeout: float = 10_000) -> None:
    """Wait until no card of the board moves (the motion layer marks the board while one
    does)."""
    page.wait_for_function(
        "!document.querySelector('#board').dataset.animating"
        " && !document.querySelector('#board').dataset.playingOut",
        timeout=timeout,
    )


@contextmanager
def motion_held(page: Page) -> Iterator[None]:
    """Hold every animation of ``page`` where it is (its document's timeline stopped) while
    the block reads a motion under way: the play-out's flights, which a busy machine could
    otherwise let land before they are read. They run on from there after the block."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Animation.enable")
    cdp.send("Animation.setPlaybackRate", {"playbackRate": 0})
    try:
        yield
    finally:
        cdp.send("Animation.setPlaybackRate", {"playbackRate": 1})
        cdp.detach()


def submit_typed(page: Page, move: str) -> None:
    """``move`` put in the Move box and the box's form submitted, as a script would (the
    phone's table hides the box, which still takes it)."""
    page.evaluate(
        """(move) => { document.getElementById('move-input').value = move;
                       document.getElementById('typed').requestSubmit(); }""",
        move,
    )


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def box(page: Page, selector: str) -> dict[str, float]:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, selector
    return found


def end_game(page: Page) -> None:
    page.click("#end")
    answered(page, lambda: page.click("#confirm-yes"))
    page.wait_for_selector("#result:not([hidden])")


def no_sideways_scroll(page: Page) -> None:
    width, inner = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width <= inner, f"the page is {width} px wide in a {inner} px window"


def outside_viewport(page: Page, selector: str) -> list[str]:
    """The elements of ``selector`` not wholly inside the viewport."""
    found: list[str] = page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)].filter((e) => {
             const r = e.getBoundingClientRect();
             return r.left < -1 || r.top < -1
               || r.right > innerWidth + 1 || r.bottom > innerHeight + 1;
           }).map((e) => e.dataset.card ?? e.id ?? e.className)""",
        selector,
    )
    return found


def midgame_moves(game: str, seed: int, count: int) -> list[str]:
    """Up to ``count`` legal moves from the deal, chosen by a seeded random player who
    prefers sending cards home and moving cards between columns, stopping short of the
    game's end."""
    position = new_game(game, seed=seed, variant=VARIANTS[game])
    chooser = random.Random(seed)
    moves: list[str] = []
    for _ in range(count):
        legal = [str(move) for move in position.legal_moves()]
        home = [move for move in legal if move.endswith(">f")]
        columns = [move for move in legal if ">t" in move and not move.startswith("f")]
        plays = [move for move in legal if move.startswith("t") and ">" not in move]  # Golf
        if home:
            choice = home[0]
        elif (columns or plays) and chooser.random() < 0.75:
            choice = chooser.choice(columns or plays)
        elif "draw" in legal:
            choice = "draw"
        elif legal:
            choice = chooser.choice(legal)
        else:
            break
        after = position.copy()
        after.play(choice)
        if after.is_over():
            break
        position = after
        moves.append(choice)
    return moves


def draw_board(page: Page, board: dict[str, Any]) -> None:
    """Draw ``board`` with board.js's drawBoard on the table's own board element."""
    page.evaluate(
        """async (board) => {
             const { drawBoard } = await import('/static/board.js');
             drawBoard(document.getElementById('board'), board);
           }""",
        board,
    )


def focus_board(page: Page) -> None:
    """Put the keyboard's focus on the board as a keyboard player does, by the page's skip
    link ("Skip to the cards"), never by a click: a click on the board lands on something
    (the stock's box reaches the board's corner, and a press there draws)."""
    page.focus("#skip")
    page.keyboard.press("Enter")
    page.wait_for_function("document.getElementById('board').contains(document.activeElement)")


def focus_on(page: Page, selector: str) -> None:
    """Move the focus to ``selector`` with the arrow keys alone, pressing the one that points
    to it: up or down within a column, between the columns and the piles above or below
    them and between lines of piles; left or right between columns, along a line of piles,
    and between the columns and piles that stand beside them."""
    path: list[str] = []
    for _ in range(60):
        where = page.evaluate(
            """(selector) => {
                 const here = document.activeElement, there = document.querySelector(selector);
                 if (!there) return null;
                 if (here === there) return { done: true };
                 const name = here.dataset.src ?? here.dataset.dest
                   ?? here.dataset.action ?? here.tagName;
                 const a = here.getBoundingClientRect(), b = there.getBoundingClientRect();
                 const column = here.closest('.column');
                 const inTableau = (item) => Boolean(item.closest('.tableau'));
                 // a pile beside the columns (not above or below them) is gone to sideways
                 const tableau = there.closest('.board').querySelector('.tableau')
                   .getBoundingClientRect();
                 const beside = (r) => r.left >= tableau.right - 1 || r.right <= tableau.left + 1;
                 const pile = inTableau(here) ? b : a;
                 // two piles on different lines of piles are gone between up or down
                 const oneLine = Math.abs((a.top + a.bottom) / 2 - (b.top + b.bottom) / 2)
                   < Math.min(a.height, b.height) / 2;
                 return {
                   done: false,
                   name,
                   vertical: (column !== null && column === there.closest('.column'))
                     || (inTableau(here) !== inTableau(there) && !beside(pile))
                     || (!inTableau(here) && !inTableau(there) && !oneLine),
                   dx: b.left - a.left,
                   dy: b.top - a.top,
                 };
               }""",
            selector,
        )
        assert where is not None, f"no {selector} on the board"
        if where["done"]:
            return
        path.append(where["name"])
        if where["vertical"]:
            page.keyboard.press("ArrowUp" if where["dy"] < 0 else "ArrowDown")
        else:
            page.keyboard.press("ArrowLeft" if where["dx"] < 0 else "ArrowRight")
    raise AssertionError(f"the arrow keys do not reach {selector}: {path[-8:]}")


def waste_landing(page: Page) -> dict[str, float]:
    """The box where the waste's top card, in flight, will land (its flight's end), read
    without ending the flight."""
    box: dict[str, float] = page.evaluate(
        """() => { const card = document.querySelector('#board [data-src="w"]');
                   const moves = card.getAnimations();
                   const times = moves.map((move) => move.currentTime);
                   for (const move of moves) {
                     move.currentTime = move.effect.getComputedTiming().endTime - 1;
                   }
                   const r = card.getBoundingClientRect();
                   moves.forEach((move, k) => { move.currentTime = times[k]; });
                   return { x: r.left, y: r.top, width: r.width, height: r.height }; }"""
    )
    return box


OPERATOR_PASSWORD = "correct horse battery"


def refill_server_at(database: Path) -> Iterator[str]:
    """A server on a new database at ``database`` with an operator (Opal), an empty
    catalog and its refill on; yields its address and stops it after."""
    from patience.players import Accounts
    from patience.store.db import make_engine, migrate

    engine = make_engine(f"sqlite:///{database}")
    migrate(engine)
    Accounts(engine).create("Opal", OPERATOR_PASSWORD, operator=True)
    engine.dispose()
    port = launch.free_port()
    process = launch.start(database, port, PATIENCE_CATALOG_REFILL="1")
    yield f"http://127.0.0.1:{port}"
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=120)


def operator_creating(chromium: Browser, server: str) -> Table:
    """A desktop table of ``server`` signed in as its operator (Opal), its page on the
    tournaments' page with the form to create one open."""
    desk = Table(chromium, server, "desktop")
    page = desk.page
    page.goto(f"{server}/#/account")
    page.fill("#login-name", "Opal")
    page.fill("#login-password", OPERATOR_PASSWORD)
    page.click("#login button[type=submit]")
    page.wait_for_selector("#nav a.who")
    page.goto(f"{server}/#/tournaments")
    page.click("#create-details summary")
    return desk
