"""The table's second pass, what a player misses: cards that move (a card's position part
way through a move and at its end), sound (the client's calls to its audio layer), relaxed
play, the daily deal, "No more moves", smarter taps, themes, deeper statistics, the whole
score on the result and a lobby for players, at desktop, phone portrait and landscape, with
axe-core finding nothing serious.

Screenshots are written to ``artifacts/screenshots/table/`` to be looked at.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page

from patience.daily import Daily, day_bounds
from patience.games import GAMES, new_game
from patience.players import Accounts
from patience.solve import solve
from patience.store.catalog import Certified, add
from patience.store.db import make_engine, migrate
from patience.store.games import GameStore
from tables import (
    Table,
    answered,
    end_game,
    motion_held,
    no_sideways_scroll,
    outside_viewport,
    screens,
    settled,
    shot,
    start_server,
    submit_typed,
)

PASSWORD = "correct horse battery"
ALL_SIZES = ["desktop", "phone", "landscape"]


def serious(page: Page) -> list[str]:
    """axe-core's serious and critical findings on the page as it is."""
    results = Axe().run(page)
    return [
        f"{item['id']}: {item['help']} ({len(item['nodes'])})"
        for item in results.response["violations"]
        if item.get("impact") in ("serious", "critical")
    ]


def rect(page: Page, selector: str) -> dict[str, float]:
    found: dict[str, float] = page.evaluate(
        """(selector) => { const r = document.querySelector(selector).getBoundingClientRect();
                           return { x: r.left, y: r.top }; }""",
        selector,
    )
    return found


def sounds(page: Page) -> list[dict[str, Any]]:
    """The calls the client made to its audio layer, oldest first."""
    calls: list[dict[str, Any]] = page.evaluate(
        "async () => (await import('/static/audio.js')).calls.slice()"
    )
    return calls


# -- 1. cards that move ---------------------------------------------------------------------------

MIDWAY = """([selector, fraction]) => {
  const card = document.querySelector(selector);
  const animation = card.getAnimations().find((a) => a.playState !== 'finished');
  if (!animation) return null;
  animation.pause();
  const timing = animation.effect.getComputedTiming();
  animation.currentTime = (timing.delay ?? 0) + timing.duration * fraction;
  const r = card.getBoundingClientRect();
  return { x: r.left, y: r.top, duration: timing.duration };
}"""


def _move_and_catch(page: Page, action: Callable[[], object]) -> None:
    """Run ``action`` (a move) and wait for its answer to be drawn, with the cards still on
    their way: the browser's animations run at speed 0 meanwhile (DevTools' animation
    domain), so that a busy machine cannot let them end before they are looked at; the
    test then sets each to the moment it looks at, and finishes them."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Animation.enable")
    cdp.send("Animation.setPlaybackRate", {"playbackRate": 0})
    version = page.get_attribute("#board", "data-version")
    action()
    page.wait_for_function(f"document.querySelector('#board').dataset.version !== '{version}'")
    page.evaluate("document.getAnimations().forEach((a) => a.pause())")
    cdp.send("Animation.setPlaybackRate", {"playbackRate": 1})
    cdp.detach()


@pytest.mark.parametrize("size", screens("desktop", "phone", among=ALL_SIZES))
def test_a_card_slides_from_where_it_was_to_where_it_lands(
    table: Callable[..., Table], size: str
) -> None:
    page = table(size).deal("klondike", 0)  # the ace of spades, column 5, goes home on a tap
    start = rect(page, '#board [data-src="t5"]')
    _move_and_catch(page, lambda: page.click('#board [data-src="t5"]'))
    half = page.evaluate(MIDWAY, ['#board [data-key="As"]', 0.5])
    assert half is not None, "the ace did not move"
    assert 150 <= half["duration"] <= 250
    page.evaluate("document.getAnimations().forEach((a) => a.finish())")
    end = rect(page, '#board [data-key="As"]')
    home = rect(page, '#board [data-dest="f"][aria-label*="spades"]')
    assert abs(end["x"] - home["x"]) < 4
    assert abs(end["y"] - home["y"]) < 4
    # part way, the card is between where it was and where it lands
    for axis in ("x", "y"):
        low, high = sorted((start[axis], end[axis]))
        if high - low > 4:
            assert low + 1 < half[axis] < high - 1, (axis, start, half, end)
    settled(page)


def test_a_card_turned_up_flips_and_a_draw_flies_from_the_stock(
    table: Callable[..., Table],
) -> None:
    desk = table("desktop")
    page = desk.deal("klondike", 7)
    stock = rect(page, "#board .stock")
    _move_and_catch(page, lambda: page.click("#board [data-action]"))
    drawn = page.get_attribute('#board .waste [data-src="w"]', "data-key")
    start = page.evaluate(MIDWAY, [f'#board [data-key="{drawn}"]', 0.0])
    assert start is not None, "the drawn card did not move"
    assert abs(start["x"] - stock["x"]) < 3
    assert abs(start["y"] - stock["y"]) < 3
    assert page.locator(f'#board [data-key="{drawn}"] .flip-back').count() == 1  # its back first
    page.evaluate("document.getAnimations().forEach((a) => a.finish())")
    settled(page)
    assert page.locator("#board .flip-back").count() == 0
    # a move that turns a column's card up: it turns over where it lies
    desk.deal("klondike", 0)
    moved = page.get_attribute('#board [data-src="t7"]', "data-card")
    page.fill("#move-input", "t7>t2")
    _move_and_catch(page, lambda: page.press("#move-input", "Enter"))
    turned = page.get_attribute('#board [data-src="t7"]', "data-card")
    assert turned != moved
    assert page.locator(f'#board [data-key="{turned}"] .flip-back').count() == 1
    page.evaluate("document.getAnimations().forEach((a) => a.finish())")
    settled(page)


def test_a_new_game_is_dealt(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    page = desk.page
    page.goto(desk.server)
    page.wait_for_selector("#game-choice input")
    page.check("input[name=mode][value=practice]")
    page.fill("#seed", "7")
    # the deal held where it starts (it is timed from the deal: on a busy machine its first
    # cards could land before the page is read)
    cdp = desk.context.new_cdp_session(page)
    cdp.send("Animation.enable")
    cdp.send("Animation.setPlaybackRate", {"playbackRate": 0})
    page.click("#start")
    page.wait_for_selector("#board .card")
    timing = page.evaluate(
        """() => document.getAnimations().map((a) => a.effect.getComputedTiming().endTime)"""
    )
    cdp.send("Animation.setPlaybackRate", {"playbackRate": 1})
    assert len(timing) >= 28  # every card of the columns
    assert max(timing) <= 800  # the whole deal within 0.8 s
    # the last card dealt is on its way from the hand part way through
    stock = rect(page, "#board .stock")
    last = '#board .column[data-dest="t7"] .card:last-child'
    half = page.evaluate(MIDWAY, [last, 0.5])
    assert half is not None
    page.evaluate("document.getAnimations().forEach((a) => a.finish())")
    end = rect(page, last)
    assert stock["x"] + 1 < half["x"] < end["x"] - 1, (stock, half, end)
    settled(page)


def test_a_move_during_another_s_motion_finishes_it_at_once(table: Callable[..., Table]) -> None:
    page = table("desktop").deal("klondike", 7)
    version = page.get_attribute("#board", "data-version")
    page.click("#board [data-action]")  # a draw, flying...
    page.click("#board [data-action]")  # ...and the next draw at once, not waited for
    page.wait_for_function(
        f"Number(document.querySelector('#board').dataset.version) >= {int(version or 0) + 2}"
    )
    settled(page)
    assert (page.get_attribute("#board [data-action]", "aria-label") or "").startswith("hand, 22")


def test_reduced_motion_keeps_still_frames(table: Callable[..., Table]) -> None:
    page = table("desktop", reduced_motion="reduce").deal("klondike", 0)
    assert page.evaluate("document.getAnimations().length") == 0  # no deal either
    answered(page, lambda: page.click('#board [data-src="t5"]'))
    assert (
        page.evaluate("document.getAnimations().filter((a) => a.playState === 'running').length")
        == 0
    )


@pytest.mark.parametrize("size", screens("desktop", among=["desktop", "phone"]))
def test_the_play_out_takes_at_most_2_5_s_and_a_tap_skips_it(
    table: Callable[..., Table], size: str
) -> None:
    desk = table(size)
    # deal 30's certificate ends with 34 cards left to fly home (a certificate ends where
    # the position is solved; the solver's safe moves home send many cards home before)
    page = desk.deal("klondike", 30)
    *moves, last = solve(new_game("klondike", seed=30)).moves
    desk.play_through_api(moves)
    # the flights held where they start while they are read (on a busy machine the play-out
    # could otherwise be over first)
    with motion_held(page):
        # the last move typed (the phone hides the move box, which still takes it)
        submit_typed(page, last)
        page.wait_for_selector("#board[data-playing-out]")
        planned = page.evaluate(
            """() => Math.max(...document.getAnimations()
                 .filter((a) => a.effect.target?.classList.contains('flying'))
                 .map((a) => a.effect.getComputedTiming().endTime))"""
        )
        flying = page.locator("#board .flying").count()
    assert flying >= 20
    assert planned <= 2_500, planned
    page.mouse.click(5, 300)  # a tap anywhere: the play-out ends now
    page.wait_for_selector("#result:not([hidden])", timeout=5_000)
    assert page.get_attribute("#board", "data-playing-out") is None
    assert page.inner_text("#result-title") == "You won!"


# -- 2. sound -------------------------------------------------------------------------------------


def test_the_table_sounds_and_a_mute_is_kept(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    page = desk.deal("klondike", 0)
    answered(page, lambda: page.click("#board [data-action]"))  # draw
    answered(page, lambda: page.click('#board [data-src="t5"]'))  # place (home)
    page.click('#board [data-src="t1"]')  # a king with no place: it shakes, refused
    # picked up by a drag (a click never holds a card), let go where it was
    king = page.locator('#board [data-src="t1"]').bounding_box()
    assert king is not None
    page.mouse.move(king["x"] + 20, king["y"] + 20)
    page.mouse.down()
    page.mouse.move(king["x"] + 40, king["y"] + 40, steps=4)
    page.mouse.move(king["x"] + 20, king["y"] + 20, steps=4)
    page.mouse.up()
    page.fill("#move-input", "t1>t3")
    page.press("#move-input", "Enter")  # refused
    page.wait_for_function("document.getElementById('error').textContent !== ''")
    answered(page, lambda: (page.fill("#move-input", "t7>t2"), page.press("#move-input", "Enter")))
    names = [call["name"] for call in sounds(page)]
    for name in ("draw", "place", "pick", "refuse", "flip"):
        assert name in names, (name, names)
    assert not any(call["muted"] for call in sounds(page))
    # muted, by its button, and kept for the next visit
    page.click("#sound")
    assert page.get_attribute("#sound", "aria-pressed") == "false"
    answered(page, lambda: page.click("#board [data-action]"))
    assert sounds(page)[-1] == {"name": "draw", "muted": True}
    page.reload()
    page.wait_for_selector("#board .card")
    assert page.get_attribute("#sound", "aria-pressed") == "false"
    page.keyboard.press("m")  # and back on by key
    assert page.get_attribute("#sound", "aria-pressed") == "true"


def test_a_win_sounds(table: Callable[..., Table]) -> None:
    desk = table("desktop", reduced_motion="reduce")
    seed = next(s for s in range(50) if solve(new_game("golf", seed=s)).outcome == "solved")
    page = desk.deal("golf", seed)
    *moves, last = solve(new_game("golf", seed=seed)).moves
    desk.play_through_api(moves)
    page.fill("#move-input", last)
    page.press("#move-input", "Enter")
    page.wait_for_selector("#result:not([hidden])")
    assert sounds(page)[-1]["name"] == "win"


# -- 3. relaxed play ------------------------------------------------------------------------------


@pytest.mark.parametrize("size", screens("desktop", "phone", among=ALL_SIZES))
def test_relaxed_play_has_no_clock_no_score_and_undoes_anything(
    table: Callable[..., Table], size: str
) -> None:
    desk = table(size)
    page = desk.page
    page.goto(desk.server)
    page.wait_for_selector("#game-choice input")
    page.check("input[name=mode][value=relaxed]")
    page.fill("#seed", "7")
    page.click("#start")
    page.wait_for_selector("#board .card")
    settled(page)
    assert page.inner_text("#title").endswith("(relaxed)")
    assert page.locator("#clock").is_hidden()
    assert page.locator("#score-box").is_hidden()
    answered(page, lambda: page.click("#board [data-action]"))  # a draw turns a card up
    assert page.is_enabled("#undo")  # taken back all the same
    answered(page, lambda: page.click("#undo"))
    assert page.locator('#board [data-src="w"]').count() == 0
    assert page.is_disabled("#undo")
    shot(page, f"relaxed-{size}")
    assert serious(page) == []
    end_game(page)
    breakdown = page.inner_text("#breakdown")
    assert "Score" not in breakdown
    assert "Points" not in breakdown
    assert "Cards home" in breakdown


def test_a_practice_clock_stops_while_the_page_is_hidden(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    page = desk.deal("golf", 3)
    held = desk.held()
    url = f"{desk.server}/api/sessions/{held['id']}"
    headers = {"Authorization": f"Bearer {held['token']}"}

    def visibility(hidden: bool) -> None:
        page.evaluate(
            """(hidden) => {
                 Object.defineProperty(document, 'hidden', { value: hidden, configurable: true });
                 document.dispatchEvent(new Event('visibilitychange'));
               }""",
            hidden,
        )

    with page.expect_response("**/pause"):
        visibility(True)
    assert httpx.get(url, headers=headers).json()["clock"]["running"] is False
    with page.expect_response("**/resume"):
        visibility(False)
    assert httpx.get(url, headers=headers).json()["clock"]["running"] is True


# -- 4. the daily deal ----------------------------------------------------------------------------


LONG_SEED = 4_611_686_018_427_387_904
"""The first of the catalog's Golf-with-wrap seeds in ``daily_server``: 19 digits, as a
deal key's are."""


@pytest.fixture(scope="module")
def daily_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A server whose catalog holds Golf deals of tier 5 (seeds 100 up), and a daily deal
    of two days ago with one game, revealed."""
    folder = tmp_path_factory.mktemp("daily")
    path = folder / "games.sqlite3"
    engine = make_engine(f"sqlite:///{path}")
    migrate(engine)
    with engine.begin() as connection:
        for seed in range(100, 130):
            rating = {"tier": 5, "score": 0.5, "version": 1}
            add(
                connection,
                "golf",
                {"wrap": False},
                Certified(seed, 9, 0.01, 40, rating),
                at=1.0,
                origin="random",
            )
        for seed in range(LONG_SEED, LONG_SEED + 30):  # Golf with wrap: seeds of 19 digits
            add(
                connection,
                "golf",
                {"wrap": True},
                Certified(seed, 9, 0.01, 40, {"tier": 5, "score": 0.5, "version": 1}),
                at=1.0,
                origin="random",
            )
    # a game of a daily deal of 2020-01-01 in each variant, played in the same database
    now = [day_bounds("2020-01-01")[0] + 3600]
    clock = lambda: now[0]  # noqa: E731
    store = GameStore(engine, clock=clock)
    ada = Accounts(engine, clock=clock).create("Ada", PASSWORD)
    for wrap in (False, True):
        live, _ = Daily(store, clock=clock).start("golf", {"wrap": wrap}, user_id=ada.id)
        for move in [str(m) for m in live.game.legal_moves() if str(m) != "draw"][:1]:
            store.play(live, move)
        now[0] += 40
        store.play(live, "end")
    engine.dispose()
    served = start_server(tmp_path_factory, PATIENCE_DATABASE_URL=f"sqlite:///{path}")
    yield next(served), path
    next(served, None)  # stopped


def _signed_up(chromium: Browser, server: str, name: str, size: str = "desktop") -> Table:
    desk = Table(chromium, server, size)
    desk.page.goto(server)
    desk.page.wait_for_selector("#game-choice input")
    desk.page.evaluate(
        """async ([name, password]) => {
             const { accounts } = await import('/static/api.js');
             await accounts.signUp(name, password);
           }""",
        [name, PASSWORD],
    )
    desk.page.reload()
    desk.page.wait_for_selector("#daily button")
    return desk


@pytest.mark.parametrize("size", screens("desktop", "phone", among=ALL_SIZES))
def test_today_s_deal_is_the_same_for_everyone_and_ranks_signed_in_players(
    chromium: Browser, daily_server: tuple[str, Path], size: str
) -> None:
    server, _ = daily_server
    boards = []
    pages = []
    for name in (f"Bea{size}", f"Cal{size}"):
        desk = _signed_up(chromium, server, name, size)
        page = desk.page
        shot(page, f"lobby-daily-{size}")
        page.click("""#daily button[data-daily='golf:{"wrap":false}']""")
        page.wait_for_selector("#board .card")
        settled(page)
        assert "daily deal" in page.inner_text("#title")
        assert page.get_attribute("#deal", "href") is None  # its number is secret
        assert not re.search(r"\d{4}", page.inner_text("#deal"))
        boards.append(
            page.evaluate(
                "[...document.querySelectorAll('#board [data-card]')].map((c) => c.dataset.card)"
            )
        )
        end_game(page)
        assert page.locator("#breakdown a.deal-link").count() == 0  # nor once over, today
        breakdown = page.inner_text("#breakdown")
        assert "the same for everyone: shown when today is over" in breakdown
        # the code shown is the game's own (each player's differs), named so, not the deal's
        assert re.search(r"Game\s+#\w{3}-\w{3}", breakdown), breakdown
        assert not re.search(r"Deal\s+#", breakdown), breakdown
        pages.append(desk)
    assert boards[0] == boards[1]
    page = pages[-1].page
    page.click("#daily-standing")
    page.wait_for_selector("#daily-standing table tbody tr")
    names = page.locator("#daily-standing tbody th").all_inner_texts()
    assert f"Bea{size}" in names
    assert f"Cal{size}" in names
    assert "after the day" in page.inner_text("#daily-standing")
    no_sideways_scroll(page)
    shot(page, f"daily-standing-{size}")
    assert serious(page) == []
    for desk in pages:
        desk.close()


def test_yesterday_s_deal_and_its_best_games_open_to_replay(
    chromium: Browser, daily_server: tuple[str, Path]
) -> None:
    server, _ = daily_server
    desk = Table(chromium, server, "desktop")
    page = desk.page
    variant = json.dumps({"wrap": False})
    page.goto(f"{server}/#/daily/golf/{variant}/2020-01-01")
    page.wait_for_selector("#daily-deal")
    assert "Deal 100" in page.inner_text("#daily-deal")
    assert "tier 5" in page.inner_text("#daily-deal")
    page.click("#daily-standing a")
    page.wait_for_selector("#replay-board .card")
    assert "Ada's game" in page.inner_text("h2")
    shot(page, "daily-replay")
    desk.close()


def test_a_revealed_deal_with_a_long_seed_is_named_by_its_day_and_its_seed_given_to_check(
    chromium: Browser, daily_server: tuple[str, Path]
) -> None:
    server, _ = daily_server
    desk = Table(chromium, server, "phone")
    page = desk.page
    page.goto(f"{server}/#/daily/golf/{json.dumps({'wrap': True})}/2020-01-01")
    page.wait_for_selector("#daily-deal")
    words = page.inner_text("#daily-deal")
    assert "The day's deal, tier 5 of 10" in words
    seed = int(page.get_attribute("#daily-practice", "href").rsplit("seed=", 1)[1])
    assert seed >= LONG_SEED
    assert f"Deal {seed}" not in words.replace("\u202f", "")  # not a name to read out
    assert str(seed) in words.replace("\u202f", "")  # but there to check the deal against
    no_sideways_scroll(page)
    desk.close()


# -- 5. "No more moves" ---------------------------------------------------------------------------


@pytest.mark.parametrize("size", screens("desktop", "phone", among=ALL_SIZES))
def test_no_more_moves_is_said_once_the_hand_has_gone_round(
    table: Callable[..., Table], size: str
) -> None:
    desk = table(size)
    page = desk.page
    page.goto(f"{desk.server}/?game=klondike&draw=3&seed=115")  # nothing but draws, ever
    page.wait_for_selector("#board .card")
    settled(page)
    stock = "#board [data-action]"
    for _ in range(8):  # the hand, three cards a draw
        answered(page, lambda: page.click(stock))
        assert page.locator("#stuck").is_hidden()  # not yet: the hand has not gone round
    answered(page, lambda: page.click(stock))  # the waste turned over: round again
    page.wait_for_selector("#stuck:not([hidden])")
    assert "No more moves" in page.inner_text("#stuck")
    shot(page, f"no-more-moves-{size}")
    page.click("#stuck-end")
    page.wait_for_selector("#result:not([hidden])")
    assert page.inner_text("#result-title") == "You ended the game"


# -- 6. smarter taps ------------------------------------------------------------------------------


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_tap_moves_a_card_to_the_column_it_fits(table: Callable[..., Table], size: str) -> None:
    page = table(size).deal("klondike", 1)  # the jack of column 3 fits on column 6 alone
    card = page.get_attribute('#board [data-src="t3"]', "data-card")
    answered(page, lambda: page.click('#board [data-src="t3"]'))
    landed = page.get_attribute('#board .column[data-dest="t6"] .card:last-child', "data-card")
    assert landed == card
    assert page.locator("#board .picked").count() == 0


def test_a_tap_chooses_the_best_of_several_columns(table: Callable[..., Table]) -> None:
    page = table("desktop").deal("klondike", 0)
    chosen = page.evaluate(
        """async () => {
             const { tapColumn } = await import('/static/moves.js');
             const column = (cards, hidden = 0) => ({ hidden, cards });
             const view = { game: 'klondike', legal_moves: ['t1>t2', 't1>t4', 't1>t3'], board: {
               tableau: [column(['Qh'], 2), column([]), column(['Kc'], 1), column(['Ks'])],
               foundation: {}, waste: [] } };
             return [tapColumn(view, 't1', 'Qh'), tapColumn(view, 't1', 'Jh')];
           }"""
    )
    # a king's column over an empty one, the nearest first; nothing for a card that fits none
    assert chosen == ["t1>t3", None]


# -- 7. themes ------------------------------------------------------------------------------------


def test_a_felt_and_a_card_back_are_chosen_and_kept(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    page = desk.deal("klondike", 7)
    back = page.evaluate(
        "getComputedStyle(document.querySelector('#board .card.back')).backgroundImage"
    )
    felt = page.evaluate("getComputedStyle(document.body).backgroundImage")
    page.click("#card-menu summary")
    page.check("#table-felt-blue")
    page.check("#table-back-red")
    assert (
        page.evaluate(
            "getComputedStyle(document.querySelector('#board .card.back')).backgroundImage"
        )
        != back
    )
    assert page.evaluate("getComputedStyle(document.body).backgroundImage") != felt
    shot(page, "theme-blue-red")
    assert serious(page) == []
    page.reload()
    page.wait_for_selector("#board .card")
    assert page.evaluate("document.body.classList.contains('felt-blue')")
    assert page.evaluate("document.body.classList.contains('back-red')")
    page.click("#home")
    page.wait_for_selector("#game-choice input")
    page.click("#look summary")
    assert page.is_checked("#felt-blue")
    assert page.is_checked("#back-red")


# -- 8. deeper statistics -------------------------------------------------------------------------


@pytest.mark.parametrize("size", screens("desktop", "phone", among=ALL_SIZES))
def test_statistics_totals_time_a_chart_and_the_lobby_s_order(
    chromium: Browser, table_server: str, size: str
) -> None:
    desk = Table(chromium, table_server, size)
    page = desk.page
    page.goto(table_server)
    page.wait_for_selector("#game-choice input")
    page.evaluate(
        """async ([name, password]) => {
             const { accounts, api } = await import('/static/api.js');
             await accounts.signUp(name, password);
             const golf = { wrap: false };
             const deals = [['kansas', {}, 1], ['golf', golf, 2], ['golf', golf, 3],
                            ['golf', golf, 4]];
             for (const [game, variant, seed] of deals) {
               const request = { game, variant, mode: 'practice', seed: String(seed) };
               const answer = await api.start(request);
               const move = answer.legal_moves.find((m) => m !== 'draw') ?? 'draw';
               await api.move(answer.id, answer.token, move, 0);
               await api.end(answer.id, answer.token, 1);
             }
           }""",
        [f"Stats{size}", PASSWORD],
    )
    page.goto(f"{table_server}/#/stats")
    page.wait_for_selector("#stats .stat-group")
    assert "Time played" in page.inner_text("#totals")
    # (four practice games: counted apart from the timed record, under their own name)
    assert (
        page.locator("#totals dt", has_text="Practice games")
        .locator("xpath=following-sibling::dd[1]")
        .inner_text()
        == "4, 0 won"
    )
    titles = page.locator("#stats .stat-group h3").all_inner_texts()
    assert titles[0].startswith("Golf")
    assert titles[-1].startswith("Kansas")
    chart = page.locator("#stats .stats-chart").first
    assert "Recent scores" in (chart.get_attribute("aria-label") or "")
    assert "Daily streak" in page.inner_text("#daily-stats")
    no_sideways_scroll(page)
    shot(page, f"stats-{size}")
    assert serious(page) == []
    desk.close()


# -- 9. the whole score on the result -------------------------------------------------------------


@pytest.mark.parametrize("size", screens("desktop", "phone", among=ALL_SIZES))
def test_the_result_shows_each_line_of_the_score(table: Callable[..., Table], size: str) -> None:
    desk = table(size)
    page = desk.deal("klondike", 2)
    moves = solve(new_game("klondike", seed=2)).moves[:30]
    desk.play_through_api(moves)
    end_game(page)
    terms = page.locator("#breakdown dt").all_inner_texts()
    values = page.locator("#breakdown dd").all_inner_texts()
    lines = dict(zip(terms, values, strict=True))
    assert any(term.startswith("Cards sent home (") for term in terms), terms
    assert any(term.startswith("Cards turned up (") for term in terms), terms
    total = sum(
        int(value.replace("\u2212", "-").replace("+", ""))
        for term, value in lines.items()
        if term.split(" (")[0]
        in (
            "Cards sent home",
            "Cards turned up",
            "Cards from the waste",
            "Cards moved off the foundations",
            "Waste turned over",
        )
    )
    assert total == int(lines["Points"])
    assert int(lines["Score"]) == int(lines["Points"]) + int(lines["Time bonus"].replace("+", ""))
    assert not outside_viewport(page, "#result .panel button")
    shot(page, f"result-lines-{size}")


# -- 11. a lobby for players ----------------------------------------------------------------------


@pytest.mark.parametrize("size", screens("desktop", "phone", among=ALL_SIZES))
def test_the_lobby_pictures_continue_variants_in_words_and_readable_deals(
    table: Callable[..., Table], size: str
) -> None:
    desk = table(size)
    page = desk.page
    desk.deal("kansas", 9)
    page.click("#home")
    page.wait_for_selector("#resume-list button.continue")
    assert page.locator("#game-choice .game-card svg.picture").count() == len(GAMES)
    assert page.inner_text("#resume-list button.continue").startswith("Continue")
    page.check("input[name=game][value=golf]")
    variants = page.inner_text("#options")
    assert "Wrap (Ace and King touch)" in variants
    assert "true" not in variants
    assert "false" not in variants
    page.check("input[name=game][value=klondike]")
    assert "Draw 3 (three at a time)" in page.inner_text("#options")
    no_sideways_scroll(page)
    shot(page, f"lobby-{size}")
    assert serious(page) == []
    # a practice deal without a number gets a short one, read in groups of three
    page.check("input[name=mode][value=practice]")
    page.click("#start")
    page.wait_for_selector("#board .card")
    number = page.inner_text("#deal").removeprefix("Deal ")
    assert re.fullmatch(r"\d{1,3}(\u202f\d{3})?", number), number


def test_the_deal_s_link_is_what_is_shared(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    desk.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = desk.deal("golf", 123456)
    assert page.inner_text("#deal") == "Deal 123\u202f456"
    page.click("#deal")
    # the table says so once the clipboard has taken the link (the write is awaited first)
    page.wait_for_function("document.getElementById('error').textContent !== ''")
    assert "copied" in page.inner_text("#error")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == f"{desk.server}/?game=golf&wrap=false&seed=123456"
    assert page.inner_text("#title") == "Golf, no wrap (practice)"  # still this game


def test_new_game_on_the_table(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    page = desk.deal("golf", 5)
    first = desk.held()
    page.click("#new-deal")
    assert page.locator("#confirm").is_visible()  # the game running ends first
    answered(page, lambda: page.click("#confirm-yes"))
    assert desk.held()["id"] != first["id"]
    assert page.inner_text("#title") == "Golf, no wrap (practice)"
    ended = httpx.get(
        f"{desk.server}/api/sessions/{first['id']}",
        headers={"Authorization": f"Bearer {first['token']}"},
    ).json()
    assert ended["outcome"]["reason"] == "ended"


@pytest.mark.parametrize("size", screens("desktop", "phone", among=ALL_SIZES))
def test_every_new_piece_fits_and_is_accessible(table: Callable[..., Table], size: str) -> None:
    page = table(size).deal("expert", 42)
    assert not outside_viewport(page, "#table .controls > button:not([hidden]), #card-menu summary")
    page.click("#card-menu summary")
    assert not outside_viewport(page, "#card-menu .menu-panel")
    shot(page, f"options-menu-{size}")
    assert serious(page) == []
    page.keyboard.press("Escape")
    no_sideways_scroll(page)
