"""The table's second pass, after its third review (a picky player of Microsoft Solitaire
Collection, Aisleriot, KPatience and WorldWinner): one test each of the findings it left,
in real headless Chromium (desktop 1366x768, phone 390x844 with touch), or through the
API where the finding is the server's.

Screenshots are written to ``artifacts/screenshots/table/`` to be looked at.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, Page, Route

from patience.games import new_game
from patience.server import Settings, create_app
from patience.solve import solve
from patience.store.db import migrate_url
from tables import Table, answered, box, end_game, motion_held, settled, shot, submit_typed

PASSWORD = "correct horse battery"
CODE = re.compile(r"#[0-9A-HJKMNP-TV-Z]{3}-[0-9A-HJKMNP-TV-Z]{3}")
"""A game's code as the pages show it: "#A7K-93Q"."""
CODE_LETTERS = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def game_code(game_id: str) -> str:
    """The code the pages give game ``game_id``: the first 30 bits of its public id, in six
    letters (dom.js's gameCode, written again here to check it)."""
    rest = int(game_id[:8], 16) >> 2
    letters = ""
    for _ in range(6):
        letters = CODE_LETTERS[rest % 32] + letters
        rest //= 32
    return f"#{letters[:3]}-{letters[3:]}"


def sign_up(page: Page, name: str) -> None:
    """Sign up as ``name`` from the lobby (the page is then reloaded, signed in)."""
    page.goto(page.url.split("#")[0] if page.url.startswith("http") else page.url)
    page.wait_for_selector("#game-choice input")
    page.evaluate(
        """async ([name, password]) => {
             const { accounts } = await import('/static/api.js');
             await accounts.signUp(name, password);
           }""",
        [name, PASSWORD],
    )
    page.reload()
    page.wait_for_selector("#game-choice input")


def start_through_api(page: Page, request: dict[str, object], moves: int = 0) -> str:
    """Start a game from the page's own client (signed in as the page is), play its first
    ``moves`` legal moves that are not draws where it can, and answer its id."""
    game_id: str = page.evaluate(
        """async ([request, moves]) => {
             const { api } = await import('/static/api.js');
             let answer = await api.start(request);
             const token = answer.token;
             for (let k = 0; k < moves; k++) {
               const move = answer.legal_moves.find((m) => m !== 'draw') ?? answer.legal_moves[0];
               answer = await api.move(answer.id, token, move, answer.move_count);
             }
             return answer.id;
           }""",
        [request, moves],
    )
    return game_id


# -- 1. a signed-in player's game running elsewhere is offered in the lobby's Continue -------


def test_1_a_game_running_in_another_browser_is_continued_from_the_lobby(
    chromium: Browser, table_server: str
) -> None:
    # the game is dealt in one browser ...
    first = Table(chromium, table_server, "desktop")
    first.page.goto(table_server)
    sign_up(first.page, "Wanderer")
    game_id = start_through_api(first.page, {"game": "golf", "variant": {}, "mode": "timed"}, 2)
    # ... and another player's game is never offered to them
    other = Table(chromium, table_server, "desktop")
    other.page.goto(table_server)
    sign_up(other.page, "Stranger")
    strangers = start_through_api(other.page, {"game": "kansas", "variant": {}, "mode": "practice"})

    # in another browser (nothing of the game in its storage), signed in as the same player
    phone = Table(chromium, table_server, "phone")
    page = phone.page
    page.goto(table_server)
    page.wait_for_selector("#game-choice input")
    page.evaluate(
        """async ([name, password]) => {
             const { accounts } = await import('/static/api.js');
             await accounts.logIn(name, password);
           }""",
        ["Wanderer", PASSWORD],
    )
    assert page.evaluate("localStorage.getItem('patience-games')") in (None, "[]")
    page.reload()
    button = page.locator(f"#resume-list button[data-id='{game_id}']")
    button.wait_for()
    assert page.locator(f"#resume-list button[data-id='{strangers}']").count() == 0
    assert button.inner_text().startswith("Continue")
    assert "Golf" in button.inner_text()
    assert "(timed)" in button.inner_text()
    # its time left counts down, live
    left = button.locator(".left").inner_text()
    assert re.fullmatch(r"\d+:\d\d left", left), left
    page.wait_for_function(
        """([id, before]) => document.querySelector(`#resume-list button[data-id='${id}'] .left`)
             .textContent !== before""",
        arg=[game_id, left],
    )
    shot(page, "second-pass-1-continue-elsewhere-phone")
    button.click()
    page.wait_for_selector("#board .card")
    settled(page)
    assert page.evaluate("JSON.parse(sessionStorage.getItem('patience-game')).id") == game_id
    assert "Golf" in page.inner_text("#title")
    assert int(page.inner_text("#score")) >= 0
    # the move played in the first browser is on this board: two cards played to the waste
    assert page.locator("#board [data-src='w'], #board .waste .card").count() >= 1

    # the list itself: the player's own running games, and never a card in it
    listed = page.evaluate("async () => (await (await fetch('/api/me/running')).json()).games")
    assert [game["id"] for game in listed] == [game_id]
    assert listed[0]["seed"] is None  # a timed deal's seed stays secret
    text = str(listed)
    assert "board" not in listed[0]
    assert "legal_moves" not in listed[0]
    assert not re.search(r"\b[A2-9TJQK][cdhs]\b", text), text
    assert httpx.get(f"{table_server}/api/me/running").status_code == 401  # a guest: none
    for made in (first, other, phone):
        made.close()


# -- 2. statistics: one game played gives a chart of one labelled bar -------------------------


def test_2_a_single_game_s_statistics_have_a_chart(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    page = desk.page
    page.goto(desk.server)
    sign_up(page, "Onegame")
    page.evaluate(
        """async () => {
             const { api } = await import('/static/api.js');
             const answer = await api.start(
               { game: 'golf', variant: {}, mode: 'practice', seed: '4' });
             const move = answer.legal_moves.find((m) => m !== 'draw') ?? 'draw';
             const after = await api.move(answer.id, answer.token, move, 0);
             await api.end(answer.id, answer.token, after.move_count);
           }"""
    )
    page.goto(f"{desk.server}/#/stats")
    page.wait_for_selector("#stats .stat-group")
    group = page.locator("#stats .stat-group[data-game=golf][data-mode=practice]")
    score = group.locator("dt:text-is('Best score') + dd").inner_text()
    chart = group.locator(".stats-chart")
    assert chart.count() == 1
    assert chart.locator("rect").count() == 1
    assert chart.locator("text").first.text_content() == score  # the bar names its score
    assert group.locator(".chart-title").inner_text().startswith("Your first game's score")
    assert score in (chart.get_attribute("aria-label") or "")
    bar = chart.locator("rect").bounding_box()
    assert bar is not None
    assert bar["height"] >= 2
    assert bar["width"] >= 8
    shot(page, "second-pass-2-one-game-chart")


# -- 3. a timed deal has a short label, never its seed, and its link to share ----------------


def test_3_a_timed_deal_is_named_by_a_short_code_not_its_seed(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    page = desk.page
    page.goto(desk.server)
    sign_up(page, "Labeller")
    page.check("input[name=game][value=golf]")
    page.click("#start")
    page.wait_for_selector("#board .card")
    settled(page)
    game_id = desk.held()["id"]
    code = game_code(game_id)
    # while it runs: the game's code, made from its public id, no link (the deal is secret)
    assert page.inner_text("#deal") == f"Game {code}"
    assert page.get_attribute("#deal", "href") is None
    assert not re.search(r"\d{7}", page.inner_text("header"))
    shot(page, "second-pass-3-header-code")
    end_game(page)
    seed = page.evaluate(
        """async (id) => {
             const held = JSON.parse(sessionStorage.getItem('patience-game'));
             const answer = await (await fetch(`/api/sessions/${id}`,
               { headers: { Authorization: `Bearer ${held.token}` } })).text();
             return answer.match(/"seed":\\s*"?(\\d+)/)[1];
           }""",
        game_id,
    )
    assert len(seed) > 6  # a secret 63-bit deal number, public now that the game is over
    # the result: the code, linking to the deal (the link is what is shared)
    link = page.locator("#breakdown a.deal-link")
    assert link.inner_text() == code
    assert f"seed={seed}" in (link.get_attribute("href") or "")
    assert seed not in page.inner_text("#result")
    shot(page, "second-pass-3-result-code")
    # the history and the replay name it by its code
    page.goto(f"{desk.server}/#/history")
    page.wait_for_selector(f"#history tr[data-id='{game_id}']")
    cell = page.inner_text(f"#history tr[data-id='{game_id}'] td[data-label=Deal]")
    assert cell == code
    page.goto(f"{desk.server}/#/replay/{game_id}")
    page.wait_for_selector("#replay-board .card")
    assert f"Game {code}" in page.inner_text("#page")
    assert seed not in page.inner_text("#page")
    # a practice deal's number, short, is still named by its number
    page = desk.deal("golf", 123)
    assert page.inner_text("#deal") == "Deal 123"


# -- 6. a relaxed game's replay names no points -----------------------------------------------


def end_and_replay(page: Page, server: str, game_id: str) -> None:
    """End the signed-in player's game ``game_id`` through the page's own API, then open its
    replay and wait for its board."""
    page.evaluate(
        """async (id) => {
             const { api } = await import('/static/api.js');
             const answer = await api.read(id, null);
             await api.end(id, null, answer.move_count);
           }""",
        game_id,
    )
    page.goto(f"{server}/#/replay/{game_id}")
    page.wait_for_selector("#replay-board .card")


def test_6_a_relaxed_game_s_replay_names_no_points(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    page = desk.page
    page.goto(desk.server)
    sign_up(page, "Relaxer")
    game_id = start_through_api(page, {"game": "golf", "variant": {}, "mode": "relaxed"}, 3)
    end_and_replay(page, desk.server, game_id)
    assert page.inner_text("#page h2") == "Replay: Golf, no wrap (relaxed)"
    for _ in range(3):
        page.click("#replay-forward")
        caption = page.inner_text("#replay-step")
        assert caption.startswith("Move "), caption
        assert "oint" not in caption, caption
    shot(page, "second-pass-6-relaxed-replay")


# -- 8. a hint shows it is thinking at once, and always answers within a bounded time --------


# a slow search waited out; make test bounds a hint behind busy solver work (below)
@pytest.mark.slow
def test_8_a_slow_hint_shows_thinking_at_once_and_gives_up_in_time(
    table: Callable[..., Table],
) -> None:
    desk = table("phone")
    page = desk.deal("klondike", 2)
    held: list[Route] = []
    page.route("**/hint", lambda route: held.append(route))  # never answered
    started = time.monotonic()
    page.tap("#hint")
    # at once: the button says it is thinking ("Hint…", pulsing, busy to a screen reader),
    # and the table says what it is doing
    page.wait_for_function(
        "document.getElementById('hint').getAttribute('aria-busy') === 'true'", timeout=1_000
    )
    assert "thinking" in (page.get_attribute("#hint", "class") or "")
    dots = page.evaluate("getComputedStyle(document.getElementById('hint'), '::after').content")
    assert dots == '"\u2026"', dots
    assert "Looking for" in page.inner_text("#error")
    shot(page, "second-pass-8-hint-thinking")
    # and the player is told when no answer came in time, never left waiting
    page.wait_for_function(
        "document.getElementById('error').textContent.includes('No hint found in time')",
        timeout=25_000,
    )
    waited = time.monotonic() - started
    assert waited < 20, waited
    assert page.inner_text("#hint") == "Hint"
    assert page.is_enabled("#hint")
    for route in held:
        route.abort()


@pytest.fixture
def busy_client(tmp_path: Path) -> Iterator[TestClient]:
    """The application with one solver process and a short hint budget."""
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    migrate_url(url)
    settings = Settings(
        database_url=url,
        catalog_refill=0,
        rate_starts=None,
        rate_moves=None,
        rate_hints=None,
        rate_address=None,
        solver_workers=1,
        hint_seconds=0.5,
    )
    with TestClient(create_app(settings)) as client:
        yield client


def test_8_a_hint_behind_busy_solver_work_answers_in_bounded_time(busy_client: TestClient) -> None:
    started = busy_client.post(
        "/api/sessions", json={"game": "klondike", "seed": 2, "mode": "practice"}
    ).json()
    headers = {"Authorization": f"Bearer {started['token']}"}
    pool = busy_client.app.state.pool  # type: ignore[attr-defined]
    # the deal started the one solver process; once it is up (on a busy machine that can
    # take seconds, which the hint would wait for, as it should), it is kept busy for a
    # long while (a catalog refill's rating, say)
    # (in a thread of its own: this test's thread may be running the browser's event loop)
    with ThreadPoolExecutor(1) as waiting:
        waiting.submit(asyncio.run, pool.ready(120)).result()
    busy = pool.submit(time.sleep, 30)
    try:
        began = time.monotonic()
        answer = busy_client.post(f"/api/sessions/{started['id']}/hint", headers=headers)
        took = time.monotonic() - began
        assert answer.status_code == 200, answer.text
        assert answer.json() == {
            "move": None,
            "reason": "no hint found in time; try again in a moment",
        }
        assert took < 0.5 + 1.5 + 2, took  # the budget, the wait allowed, and slack
    finally:
        busy.cancel()


# -- 7. the play-out: every card lands on a foundation, none beside them ----------------------


# a whole play-out; make test follows one card by card in test_browser.py
@pytest.mark.slow
def test_7_every_card_of_the_play_out_lands_on_a_foundation(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    # deal 30's certificate ends with 34 cards left to fly home; its last move slides a card
    # to another column, and that card then flies home with the others
    page = desk.deal("klondike", 30)
    *moves, last = solve(new_game("klondike", seed=30)).moves
    desk.play_through_api(moves)
    # the flights held where they start until they are stopped (on a busy machine they could
    # land before the page is asked)
    with motion_held(page):
        submit_typed(page, last)
        page.wait_for_selector("#board .flying")
        # every flight stopped, and each flying card looked at where its flight ends
        landings = page.evaluate(
            """() => {
                 const all = document.getAnimations();
                 all.forEach((a) => a.pause());
                 const piles = [...document.querySelectorAll("#board [data-dest='f']")]
                   .map((pile) => pile.getBoundingClientRect());
                 return [...document.querySelectorAll('#board .flying')].map((card) => {
                   const moves = card.getAnimations();
                   const end = Math.max(...moves.map((m) => m.effect.getComputedTiming().endTime));
                   moves.forEach((m) => { m.currentTime = end; });
                   const r = card.getBoundingClientRect();
                   const off = Math.min(
                     ...piles.map((p) => Math.hypot(r.left - p.left, r.top - p.top)));
                   return { card: card.dataset.card, off };
                 });
               }"""
        )
    assert len(landings) >= 20
    astray = [landing for landing in landings if landing["off"] > 3]
    assert astray == [], astray
    page.evaluate("document.getAnimations().forEach((a) => a.play())")
    page.wait_for_selector("#result:not([hidden])", timeout=10_000)
    assert page.inner_text("#result-title") == "You won!"


# a second two-deck play-out; make test follows one card by card in test_browser.py
@pytest.mark.slow
def test_7_a_two_deck_play_out_starts_from_the_piles_as_they_were(
    table: Callable[..., Table],
) -> None:
    """Solitaire Expert builds twins on either of two piles: the board the play-out starts
    from shows each pile as it was, and each card flies to the pile it goes to."""
    desk = table("desktop")
    page = desk.deal("expert", 0)
    *moves, last = solve(new_game("expert", seed=0)).moves
    desk.play_through_api(moves)
    position = new_game("expert", seed=0)
    for move in moves:
        position.play(move)
    before = [
        None if slot is None else slot["top"] for slot in position.observation()["foundation"]
    ]
    played = position.play(last)
    assert len(played.auto) > 20  # (the deal's last move starts a play-out)
    # the flights held where they start until they are stopped (on a busy machine they could
    # land before the page is asked)
    with motion_held(page):
        submit_typed(page, last)
        page.wait_for_selector("#board .flying")
        seen = page.evaluate(
            """() => {
                 document.getAnimations().forEach((a) => a.pause());
                 const piles = [...document.querySelectorAll("#board [data-dest='f']")];
                 const tops = piles.map((pile) => {
                   const cards = [...pile.querySelectorAll('.card:not(.under)')]
                     .filter((card) => !card.classList.contains('flying'));
                   return cards.at(-1)?.dataset.card ?? null;
                 });
                 const rects = piles.map((pile) => pile.getBoundingClientRect());
                 const landed = [...document.querySelectorAll('#board .flying')].map((card) => {
                   const moves = card.getAnimations();
                   const end = Math.max(...moves.map((m) => m.effect.getComputedTiming().endTime));
                   moves.forEach((m) => { m.currentTime = end; });
                   const r = card.getBoundingClientRect();
                   const offs = rects.map((p) => Math.hypot(r.left - p.left, r.top - p.top));
                   return { card: card.dataset.card, pile: offs.indexOf(Math.min(...offs)),
                            off: Math.min(...offs) };
                 });
                 return { tops, landed };
               }"""
        )
    assert seen["tops"] == before
    astray = [landing for landing in seen["landed"] if landing["off"] > 3]
    assert astray == [], astray
    expected = [(str(step.card), step.pile) for step in played.auto]
    assert sorted((landing["card"], landing["pile"]) for landing in seen["landed"]) == sorted(
        expected
    )
    page.evaluate("document.getAnimations().forEach((a) => a.play())")
    page.wait_for_selector("#result:not([hidden])", timeout=10_000)
    assert page.inner_text("#result-title") == "You won!"


# -- 4. a phone held upright: the game's controls in a bar at the foot, in the thumb's reach --

GAMES = ["klondike", "golf", "kansas", "expert", "freecell"]


@pytest.mark.parametrize("game", GAMES)
def test_4_a_phone_s_controls_are_a_bar_at_the_foot(table: Callable[..., Table], game: str) -> None:
    desk = table("phone")
    page = desk.deal(game, 3)
    height = page.evaluate("innerHeight")
    bar = box(page, "#table > .controls")
    assert bar["y"] + bar["height"] >= height - 12, bar  # at the screen's foot
    assert bar["y"] >= height * 0.85, bar  # the lowest seventh: a thumb's reach
    for control in ("#back-to-lobby", "#undo", "#hint", "#new-deal", "#end", "#sound"):
        found = box(page, control)
        assert found["y"] >= bar["y"] - 1, control  # one row, in the bar
        assert found["height"] >= 40, control  # a finger's size
        assert found["x"] >= 0, control
        assert found["x"] + found["width"] <= 390 + 1, control
    # no card under it, nor under its help line
    lowest = page.evaluate(
        "Math.max(...[...document.querySelectorAll('#board .card')]"
        ".map((c) => c.getBoundingClientRect().bottom))"
    )
    assert lowest <= box(page, "#help")["y"] + 1
    # the options open upwards, in view
    page.tap("#card-menu summary")
    panel = box(page, "#card-menu .menu-panel")
    assert panel["y"] >= 0, panel
    assert panel["y"] + panel["height"] <= bar["y"] + 1, panel
    shot(page, f"second-pass-4-bar-{game}")


def test_4_the_bar_plays_a_game_by_thumb(table: Callable[..., Table]) -> None:
    desk = table("phone")
    page = desk.deal("golf", 3)
    answered(page, lambda: page.tap("#board .stock"))  # a draw
    page.tap("#end")
    answered(page, lambda: page.tap("#confirm-yes"))
    page.wait_for_selector("#result:not([hidden])")


# -- 5. Solitaire Expert on a phone: larger cards upright, the columns clear of the foot ------


def test_5_solitaire_expert_s_cards_on_a_phone_held_upright(table: Callable[..., Table]) -> None:
    desk = table("phone")
    page = desk.deal("expert", 3)
    width = box(page, "#board .card")["width"]
    assert width >= 37, width  # (34 px before: ten columns across 390 px)
    index = page.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('#board .card .corner')).fontSize)"
    )
    assert index >= 11, index  # (9 px before)
    columns = page.locator("#board .column").all()
    assert len(columns) == 10
    right = max(c.bounding_box()["x"] + c.bounding_box()["width"] for c in columns)  # type: ignore[index]
    assert right <= 390, right
    shot(page, "second-pass-5-expert-phone")


def test_5_solitaire_expert_on_its_side_gives_the_columns_the_height(
    table: Callable[..., Table],
) -> None:
    desk = table("landscape")
    page = desk.deal("expert", 3)
    width = box(page, "#board .card")["width"]
    # (56 px before the table's controls on a phone on its side became a column of buttons
    # 44 px tall at the right edge: Solitaire Expert's fourteen piles across share the width
    # with it, a trade made for buttons a thumb can hit)
    assert width >= 51, width
    # the hand and the piles beside the columns: the columns start at the board's top
    columns = box(page, "#board .tableau")
    piles = box(page, "#board .row.top")
    assert piles["x"] >= columns["x"] + columns["width"] - 1
    assert abs(piles["y"] - columns["y"]) <= 2
    # a deal's columns (ten cards) end well above the screen's foot: room to grow
    lowest = page.evaluate(
        "Math.max(...[...document.querySelectorAll('#board .column .card')]"
        ".map((c) => c.getBoundingClientRect().bottom))"
    )
    assert lowest <= 390 - 40, lowest
    # the longest columns the game reaches still fit (tests/test_table.py plays them)
    shot(page, "second-pass-5-expert-landscape")
