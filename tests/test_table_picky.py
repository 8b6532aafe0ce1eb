"""The table's fifth review (a player of Microsoft Solitaire Collection, every day): one
test each of its findings, in real headless Chromium at the desktop size (1366x768), or
through the API where the finding is the server's.

Screenshots are written to ``artifacts/screenshots/table/`` to be looked at.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import CDPSession, Page, Route

from patience.games import new_game
from patience.records import GameRecord
from patience.scoring import score_lines
from patience.solve import solve
from tables import Table, answered, box, end_game, focus_on, settled, shot, waste_landing

# -- 1. draw 3: the waste's new top card can be grabbed while it still slides in -----------


def draws_then_fit(seed: int) -> tuple[int, str, str] | None:
    """How many draws from the deal (of Klondike draw 3) until the waste's top card fits a
    column, that column and that card; None when none does within a pass of the stock."""
    position = new_game("klondike", seed=seed, variant={"draw": 3})
    for draws in range(1, 9):
        if "draw" not in [str(move) for move in position.legal_moves()]:
            return None
        position.play("draw")
        fits = [str(move) for move in position.legal_moves() if str(move).startswith("w>t")]
        if fits:
            return draws, fits[0].split(">")[1], str(position.piles()["waste"][-1])
    return None


def grab_at_once(page: Page, cdp: CDPSession, dest: str, drawn: str, *, at_landing: bool) -> None:
    """Press the stock, then, as soon as the card ``drawn`` is on the board (no wait for it
    to land), drag it to the column ``dest``: from where it is seen at that moment, or
    from where it lands (``at_landing``: a player who knows where a drawn card goes)."""
    # the draw's cards move at a tenth of their speed (a slow machine): the press is surely
    # made while the drawn card is on its way, whatever the test machine's load
    cdp.send("Animation.setPlaybackRate", {"playbackRate": 0.1})
    page.click("#board .stock")
    page.wait_for_selector(f'#board [data-src="w"][data-card="{drawn}"].moving')
    # where it is going (the waste's place, read from the board's layout), or where it is
    # seen now, on its way
    card = waste_landing(page) if at_landing else box(page, '#board [data-src="w"]')
    column = box(page, f'#board .column[data-dest="{dest}"]')
    x, y = card["x"] + card["width"] / 2, card["y"] + card["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 10, y + 30, steps=2)
    page.mouse.move(column["x"] + column["width"] / 2, column["y"] + column["height"] - 20, steps=6)
    page.mouse.up()
    cdp.send("Animation.setPlaybackRate", {"playbackRate": 1})


# a long run; make test grabs cards in flight in test_table_flying_grab.py
@pytest.mark.slow
def test_1_a_drawn_card_is_grabbed_while_it_slides_in(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    page = desk.page
    cdp = desk.context.new_cdp_session(page)
    cdp.send("Animation.enable")
    outcomes: list[bool] = []
    for seed in range(21, 80):
        found = draws_then_fit(seed)
        if found is None:
            continue
        draws, dest, card = found
        page.goto(f"{desk.server}/?game=klondike&draw=3&seed={seed}")
        page.wait_for_selector("#board .card")
        settled(page)
        if draws > 1:
            desk.play_through_api(["draw"] * (draws - 1))
        grab_at_once(page, cdp, dest, card, at_landing=len(outcomes) % 2 == 1)
        # the move's answer drawn, or the refused card back in the waste
        page.wait_for_function(
            "() => !document.querySelector('.dragging')"
            " && !document.querySelector('#board .lifted')"
        )
        settled(page)
        last = f'#board .column[data-dest="{dest}"] .card:last-child'
        outcomes.append(page.get_attribute(last, "data-card") == card)
        if len(outcomes) == 10:
            break
    shot(page, "picky-1-draw3-grab")
    assert len(outcomes) == 10
    assert all(outcomes), f"{outcomes.count(True)} of 10 grabs right after a draw moved the card"


# -- 2. the help line says what a click does: it plays the card where it fits best ---------


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_2_the_help_line_says_a_click_plays_the_card(
    table: Callable[..., Table], size: str
) -> None:
    desk = table(size)
    for game in ("klondike", "kansas", "expert"):
        page = desk.deal(game, 21)
        words = page.inner_text("#help")
        assert "then where it goes" not in words, words
        assert "where it fits best" in words, words
        assert "drag" in words.lower(), words
        if size == "desktop":
            assert "Enter to pick and Enter to place" in words, words
    shot(desk.page, f"picky-2-help-{size}")


def test_2_keys_still_choose_where_a_card_goes(table: Callable[..., Table]) -> None:
    """A card a click would play at once is picked by Enter and put down by Enter."""
    position = new_game("klondike", seed=21, variant={"draw": 1})
    assert position.is_legal("t3>t4")
    page = table("desktop").deal("klondike", 21)
    version = page.get_attribute("#board", "data-version")
    focus_on(page, '#board [data-src="t3"]')
    page.keyboard.press("Enter")
    page.wait_for_selector('#board [data-src="t3"].picked')
    assert page.get_attribute("#board", "data-version") == version  # picked, not played
    focus_on(page, '#board .column[data-dest="t4"] .card:last-child')
    answered(page, lambda: page.keyboard.press("Enter"))
    moved = page.get_attribute('#board .column[data-dest="t4"] .card:last-child', "data-card")
    assert moved == str(position.piles()["t3"][-1])


# -- 3. a relaxed game (no score) says no points -------------------------------------------


def test_3_a_relaxed_game_says_no_points(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    page = desk.page
    page.goto(f"{desk.server}/?game=klondike&draw=1&seed=21&mode=relaxed")
    page.wait_for_selector("#board .card")
    settled(page)
    said = []
    answered(page, lambda: page.click('#board [data-src="t3"]'))  # t3>t4, a card turned up
    said.append(page.inner_text("#announce"))
    answered(page, lambda: page.keyboard.press("u"))  # taken back: points off, in practice
    said.append(page.inner_text("#announce"))
    answered(page, lambda: page.click("#board .stock"))
    said.append(page.inner_text("#announce"))
    assert said[1].startswith("Took back a move"), said
    assert not [words for words in said if "point" in words], said
    assert not page.is_visible("#points")


# -- 4. the result's lines say what they count -----------------------------------------------


def test_4_the_result_counts_moves_home_and_moves_off_the_foundations(
    table: Callable[..., Table],
) -> None:
    """A card sent home, moved off the foundations and home again: two moves home of one
    card, worded so; the move off is not called a card "taken back" (that is Undo)."""
    moves = list(solve(new_game("klondike", seed=2)).moves[:30])
    assert moves[0] == "t2>f"
    line = [moves[0], "f:h>t2", "t2>f", *moves[1:]]
    record = GameRecord("klondike", {"draw": 1}, new_game("klondike", seed=2).deal, tuple(line))
    lines = {each.label: each for each in score_lines(record)}
    home = lines["Cards sent home"].count
    assert lines["Cards moved off the foundations"].count == 1
    desk = table("desktop")
    page = desk.deal("klondike", 2)
    desk.play_through_api(line)
    end_game(page)
    terms = page.locator("#breakdown dt").all_inner_texts()
    shot(page, "picky-4-result-lines")
    assert f"Cards sent home ({home} moves)" in terms, terms
    assert "Cards moved off the foundations (1 move)" in terms, terms
    assert not [term for term in terms if "taken back" in term], terms


# -- 5. an undo refused in practice says where undo is free --------------------------------


def test_5_a_refused_undo_in_practice_names_relaxed_play(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    page = desk.deal("klondike", 21)
    answered(page, lambda: page.click('#board [data-src="t3"]'))  # t3>t4: a card turned up
    assert page.is_disabled("#undo")
    page.keyboard.press("u")
    page.wait_for_function("document.querySelector('#error').textContent !== ''")
    shown = page.inner_text("#error")
    assert shown == (
        "Undo is off: a card turned up cannot be taken back (relaxed play undoes anything)."
    ), shown
    shot(page, "picky-5-undo-refused")
    # relaxed play says nothing of it: it undoes the same move
    page.goto(f"{desk.server}/?game=klondike&draw=1&seed=21&mode=relaxed")
    page.wait_for_selector("#board .card")
    settled(page)
    answered(page, lambda: page.click('#board [data-src="t3"]'))
    assert page.is_enabled("#undo")


# -- 6. one hint at a time: quick presses never meet the server's limit ----------------------


def test_6_a_hint_is_asked_once_while_its_answer_is_pending(
    table: Callable[..., Table],
) -> None:
    desk = table("desktop")
    page = desk.deal("klondike", 21)
    asked: list[str] = []
    held: list[Route] = []
    page.route("**/hint", lambda route: (asked.append(route.request.url), held.append(route)))
    for _ in range(5):  # five quick presses, the first answer held back
        page.locator("#hint").dispatch_event("click")
    page.wait_for_function("document.querySelector('#hint').getAttribute('aria-busy') === 'true'")
    assert page.is_disabled("#hint")
    shot(page, "picky-6-hint-thinking")
    assert len(asked) == 1, asked
    held[0].continue_()
    # the answer: a hint, or on a machine too busy for the hint's search budget, its refusal
    page.wait_for_function(
        """() => ['Hint: ', 'No hint found in time'].some(
             (start) => document.querySelector('#error').textContent.startsWith(start))"""
    )
    assert page.is_enabled("#hint")
    assert page.get_attribute("#hint", "aria-busy") == "false"
    assert len(asked) == 1


# -- 8. the statistics' cards keep a gap between them, across and down ----------------------


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_8_the_statistics_cards_have_room_between_them(
    table: Callable[..., Table], size: str
) -> None:
    desk = table(size)
    page = desk.page
    page.goto(desk.server)
    page.wait_for_selector("#game-choice input")
    page.evaluate(
        """async ([name, password]) => {
             const { accounts, api } = await import('/static/api.js');
             await accounts.signUp(name, password);
             for (const [game, variant] of [['kansas', {}], ['golf', { wrap: false }]]) {
               const answer = await api.start({ game, variant, mode: 'practice', seed: '5' });
               const move = answer.legal_moves.find((m) => m !== 'draw') ?? 'draw';
               await api.move(answer.id, answer.token, move, 0);
               await api.end(answer.id, answer.token, 1);
             }
           }""",
        [f"Gaps{size}", "correct horse battery"],
    )
    page.goto(f"{desk.server}/#/stats")
    page.wait_for_selector("#stats .stat-group")
    cards: list[dict[str, float]] = page.evaluate(
        """[...document.querySelectorAll('.stat-group')].map((card) => {
             const r = card.getBoundingClientRect();
             return { left: r.left, right: r.right, top: r.top, bottom: r.bottom }; })"""
    )
    shot(page, f"picky-8-stats-{size}")
    assert len(cards) >= 4
    for k, upper in enumerate(cards):
        for lower in cards[k + 1 :]:
            across = min(upper["right"], lower["right"]) - max(upper["left"], lower["left"])
            if across > 0 and lower["top"] >= upper["top"]:  # one above the other
                assert lower["top"] - upper["bottom"] >= 10, (upper, lower)


# -- 9. a game dealt from the keyboard takes the focus to the board -------------------------


def test_9_deal_from_the_keyboard_focuses_the_board(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    page = desk.page
    page.goto(desk.server)
    page.wait_for_selector("#start")
    page.focus("#start")
    page.keyboard.press("Enter")
    page.wait_for_selector("#board .card")
    settled(page)
    page.wait_for_function(
        "document.activeElement?.closest('#board') !== null"
        " && document.activeElement.classList.contains('stop')"
    )
    assert page.evaluate("document.activeElement.tabIndex") == 0
    page.keyboard.press("ArrowRight")  # the keys play at once
    assert page.evaluate("document.activeElement.closest('#board') !== null")


def test_9_a_deal_s_link_puts_no_focus_ring_on_a_card(table: Callable[..., Table]) -> None:
    page = table("desktop").deal("klondike", 3)
    assert page.evaluate("document.activeElement === document.body")
