"""The table's twelfth pass, after a picky player's review (who plays Microsoft's collection
daily), in real headless Chromium.

1. A table's message covers no card, pile, count, control nor the help line it might
   concern: it shows in free felt, on a desktop, a phone upright and a phone on its side.
2. The result panel fits a phone on its side: every button in view without scrolling, on
   every screen.
3. A win's celebration stays out of the result panel: under it and outside its box, and its
   cards' text is no part of the panel's words.
4. Enter on a place with nothing to pick (an empty foundation) says why, on the table and
   to a screen reader.
5. Golf's "No moves left" says why in Golf's terms: the waste's top card, what would play
   on it, the empty hand.
6. A phone upright shows the game's counter (Klondike's recycles) in its header, beside the
   deal, the clock and the score, each readable.
7. The lobby on a phone on its side uses the width (games left, options right), with Deal in
   view and each mode's explanation; on a phone upright Deal floats over no heading.

Screenshots are written to ``artifacts/screenshots/table/`` to be looked at.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page

from page_checks import WAIT
from patience.games import new_game
from patience.solve import solve
from tables import VARIANTS, Table, answered, focus_board, focus_on, midgame_moves, screens, shot

# -- 1. a message shows in free felt -----------------------------------------------------------

# What the message covers, of the cards, piles, counts, controls, the help line and the
# header's figures (each by its card, id or class), and whether it lies in the window.
MESSAGE_COVERS = """() => {
  const m = document.getElementById('error').getBoundingClientRect();
  const hits = [];
  const concerned = '#board .card, #board .pile, #board .count, #board .column,'
    + ' #table .controls :is(button, input, summary), #help, #status > :not(#points)';
  for (const item of document.querySelectorAll(concerned)) {
    const r = item.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    if (m.left < r.right && m.right > r.left && m.top < r.bottom && m.bottom > r.top) {
      hits.push(item.dataset.card || item.id || item.className);
    }
  }
  return { hits, shown: m.width > 0 && m.height > 0,
           inView: m.left >= 0 && m.top >= 0 && m.right <= innerWidth && m.bottom <= innerHeight };
}"""


def _press(desk: Table, selector: str) -> None:
    """A tap on a touch screen, else a click, on ``selector`` (the last of them)."""
    target = desk.page.locator(selector).last
    if desk.page.evaluate("matchMedia('(pointer: coarse)').matches"):
        target.tap()
    else:
        target.click()


def _message_clear(page: Page, words: str) -> None:
    page.wait_for_function(
        "(words) => document.getElementById('error').textContent.includes(words)", arg=words
    )
    found = page.evaluate(MESSAGE_COVERS)
    assert found["shown"], found
    assert found["inView"], found
    assert found["hits"] == [], (page.inner_text("#error"), found)


@pytest.mark.parametrize(
    "size", screens("desktop", "phone", "landscape", among=["desktop", "phone", "landscape"])
)
def test_1_a_message_covers_no_card_pile_nor_control(
    table: Callable[..., Table], size: str
) -> None:
    desk = table(size)
    # Golf: column 3's free card (the eight of hearts) on the eight of spades: no move
    page = desk.deal("golf", 3)
    _press(desk, '#board [data-src="t3"]')
    _message_clear(page, "not one rank above or below the eight of spades")
    shot(page, f"twelfth-1-golf-message-{size}")
    # Klondike: column 2's four of diamonds has no move (the first deal's moves are t1>f,
    # t3>t6, t6>t5 and draw)
    legal = [
        str(move)
        for move in new_game("klondike", seed=1, variant=VARIANTS["klondike"]).legal_moves()
    ]
    assert not any(move.startswith("t2") for move in legal), legal
    page = desk.deal("klondike", 1)
    _press(desk, '#board [data-src="t2"]')
    _message_clear(page, "four of diamonds")
    shot(page, f"twelfth-1-klondike-message-{size}")


# -- 2 and 3. the result panel fits the screen; the celebration stays out of it ---------------

# At moments through the celebration: whether the panel is what shows at its centre and along
# its heading (no card of the celebration over it), and the celebration's cards seen.
PANEL_ON_TOP = """() => {
  const panel = document.querySelector('#result .panel');
  const r = panel.getBoundingClientRect();
  const moves = document.getAnimations();
  const end = Math.max(0, ...moves.map((move) => move.effect.getComputedTiming().endTime));
  const covered = [];
  for (let k = 0; k <= 20; k++) {
    for (const move of moves) { move.pause(); move.currentTime = (k * end) / 20; }
    const points = [[(r.left + r.right) / 2, (r.top + r.bottom) / 2]];
    for (let x = r.left + 4; x < r.right - 4; x += 20) points.push([x, r.top + 4], [x, r.top + 40]);
    for (const [x, y] of points) {
      const hit = document.elementFromPoint(x, y);
      if (!hit || !panel.contains(hit) || hit.closest('.cascade-card')) {
        covered.push(`${Math.round(x)},${Math.round(y)} at step ${k}: ${hit?.className}`);
      }
    }
  }
  return { covered: covered.slice(0, 6), cards: document.querySelectorAll('.cascade-card').length };
}"""


def _won(desk: Table, game: str) -> Page:
    """``game``'s first deal its solver wins, won on the table (its winning line played
    through the API but its last move, played by the page)."""
    seed = next(
        s
        for s in range(50)
        if solve(new_game(game, seed=s, variant=VARIANTS[game])).outcome == "solved"
    )
    *moves, last = solve(new_game(game, seed=seed, variant=VARIANTS[game])).moves
    page = desk.deal(game, seed)
    desk.play_through_api(moves)
    if last == "draw":
        page.keyboard.press("d" if game == "klondike" else "Space")
    else:
        _press(desk, f'#board [data-src="{last.split(">")[0]}"]')
    page.wait_for_selector("#result:not([hidden])", timeout=WAIT)
    assert page.inner_text("#result-title") == "You won!"
    return page


def _buttons_in_view(page: Page) -> None:
    """Every button of the result panel lies in the window, nothing scrolled."""
    buttons = page.evaluate(
        """() => [...document.querySelectorAll('#result .buttons button')]
             .filter((b) => b.offsetParent)
             .map((b) => { const r = b.getBoundingClientRect();
                           return { text: b.textContent, inView: r.top >= 0 && r.left >= 0
                                    && r.bottom <= innerHeight && r.right <= innerWidth }; })"""
    )
    assert len(buttons) == 4, buttons
    assert all(button["inView"] for button in buttons), buttons
    scrolled = page.evaluate(
        "[document.getElementById('result').scrollTop,"
        " document.querySelector('#result .panel').scrollTop]"
    )
    assert scrolled == [0, 0], scrolled


@pytest.mark.parametrize(
    "size", screens("phone", "landscape", among=["desktop", "phone", "landscape"])
)
def test_2_the_result_panel_s_buttons_are_all_in_view(
    table: Callable[..., Table], size: str
) -> None:
    """A Klondike game ended with points of four kinds (a won game's lines, and a longer
    reason): the panel's every line and button."""
    desk = table(size)
    page = desk.deal("klondike", 7)
    moves = midgame_moves("klondike", 7, 40)
    game = new_game("klondike", seed=7, variant=VARIANTS["klondike"])
    for move in moves:
        game.play(move)
    while "recycle" not in [str(move) for move in game.legal_moves()]:
        game.play("draw")
        moves.append("draw")
    desk.play_through_api([*moves, "recycle"])
    page.click("#end")
    answered(page, lambda: page.click("#confirm-yes"))
    page.wait_for_selector("#result:not([hidden])")
    assert page.locator("#breakdown dt.line").count() == 4
    _buttons_in_view(page)
    shot(page, f"twelfth-2-result-{size}")


@pytest.mark.slow
def test_2_a_won_klondike_s_panel_fits_a_phone_on_its_side(table: Callable[..., Table]) -> None:
    """The review's case: a won Klondike (its four lines of points) at 844x390."""
    _buttons_in_view(_won(table("landscape"), "klondike"))


@pytest.mark.parametrize("size", screens("desktop", among=["desktop", "phone"]))
def test_3_the_celebration_stays_out_of_the_result_panel(
    table: Callable[..., Table], size: str
) -> None:
    desk = table(size)
    page = _won(desk, "golf")
    _buttons_in_view(page)
    # the celebration's cards are no words of the panel, and never over it
    panel_words = page.inner_text("#result .panel")
    assert not any(suit in panel_words for suit in "\u2660\u2665\u2666\u2663"), panel_words
    found = page.evaluate(PANEL_ON_TOP)
    assert found["cards"] > 0, found
    assert found["covered"] == [], found
    page.evaluate("document.getAnimations().forEach((a) => { a.currentTime = 700; })")
    shot(page, f"twelfth-3-celebration-{size}")


# -- 4. Enter where there is nothing to pick says why ------------------------------------------


def test_4_enter_on_an_empty_foundation_says_why(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    page = desk.deal("klondike", 1)
    focus_board(page)
    focus_on(page, '#board .pile[data-dest="f"]')
    page.keyboard.press("Enter")
    words = "Nothing to pick here: this foundation is empty"
    page.wait_for_function(
        "(words) => document.getElementById('error').textContent.startsWith(words)", arg=words
    )
    assert "pick a card first" in page.inner_text("#error").lower()
    assert page.inner_text("#announce").startswith(words)
    assert page.locator("#board .picked").count() == 0


def test_4_enter_on_the_hand_with_a_card_picked_keeps_it_and_says_why(
    table: Callable[..., Table],
) -> None:
    """By keys, Enter on a place means "put the picked card here": on the hand, which takes
    no card, the pick stays, nothing is drawn and the table says so (it used to draw and
    drop the pick without a word)."""
    desk = table("desktop")
    page = desk.deal("klondike", 1)
    focus_board(page)
    for column in range(1, 8):  # the first column whose card has a move: picked by Enter
        focus_on(page, f'#board [data-src="t{column}"]')
        page.keyboard.press("Enter")
        if page.locator("#board .picked").count() == 1:
            break
    else:
        raise AssertionError("no card of deal 1 could be picked")
    hand = page.get_attribute("#board [data-action]", "aria-label") or ""
    focus_on(page, "#board [data-action]")
    page.keyboard.press("Enter")
    words = "The hand takes no card: the "
    page.wait_for_function(
        "(words) => document.getElementById('error').textContent.startsWith(words)", arg=words
    )
    assert "is still picked" in page.inner_text("#error")
    assert page.locator("#board .picked").count() == 1
    assert page.get_attribute("#board [data-action]", "aria-label") == hand  # nothing drawn


# -- 5. Golf's "No moves left" says why in Golf's terms ----------------------------------------


def test_5_golf_s_no_moves_left_says_why(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    page = desk.deal("golf", 1)  # sixteen draws leave the king of spades on the waste
    desk.play_through_api(["draw"] * 16)
    page.wait_for_selector("#result:not([hidden])", timeout=WAIT)
    assert page.inner_text("#result-title") == "No moves left"
    reason = page.inner_text("#result-reason")
    assert reason == (
        "The king of spades is on the waste: nothing plays on a king without wrap, and the"
        " hand is empty."
    ), reason
    shot(page, "twelfth-5-golf-stuck")


def test_5_golf_with_wrap_names_the_ranks_that_would_play() -> None:
    game = new_game("golf", seed=1, variant={"wrap": True})
    assert game.stuck_words() is None
    for _ in range(16):
        game.play("draw")
    assert game.stuck_words() == (
        "Ks is on the waste: only an ace or a queen would play on it, none of the free cards"
        " is one, and the hand is empty"
    )
    klondike = new_game("klondike", seed=1, variant=VARIANTS["klondike"])
    assert klondike.stuck_words() is None  # (a game with nothing to add)


# -- 6. a phone's header shows the game's counter ----------------------------------------------


def test_6_a_phone_upright_shows_klondike_s_recycles(table: Callable[..., Table]) -> None:
    desk = table("phone")
    page = desk.deal("klondike", 7)
    desk.play_through_api(["draw"] * 24 + ["recycle"])
    header: dict[str, Any] = page.evaluate(
        """() => {
             const ids = ['title', 'deal', 'counters', 'clock', 'score-box'];
             const boxes = ids.map((id) => {
               const e = document.getElementById(id), r = e.getBoundingClientRect();
               return { id, text: e.innerText, cut: e.scrollWidth > e.clientWidth + 1,
                        left: r.left, right: r.right, top: r.top, bottom: r.bottom };
             });
             const overlaps = [];
             for (const a of boxes) for (const b of boxes) {
               if (a.id < b.id && a.left < b.right && a.right > b.left && a.top < b.bottom
                   && a.bottom > b.top) overlaps.push(`${a.id}/${b.id}`);
             }
             return { boxes, overlaps };
           }"""
    )
    counters = next(b for b in header["boxes"] if b["id"] == "counters")
    assert counters["text"] == "Recycles 1", header
    assert header["overlaps"] == [], header
    for item in header["boxes"]:
        assert item["right"] > item["left"], header  # shown
        assert not item["cut"], header  # its words whole
        assert item["left"] >= 0, header
        assert item["right"] <= 390, header
    shot(page, "twelfth-6-phone-header")


# -- 7. the lobby on a phone on its side and upright -------------------------------------------


@pytest.mark.parametrize("size", screens("phone", "landscape", among=["phone", "landscape"]))
def test_7_the_lobby_shows_deal_over_nothing(table: Callable[..., Table], size: str) -> None:
    desk = table(size)
    page = desk.page
    page.goto(desk.server)
    page.wait_for_selector("#game-choice input")
    found: dict[str, Any] = page.evaluate(
        """() => {
             const box = (e) => { const r = e.getBoundingClientRect();
               return { left: r.left, right: r.right, top: r.top, bottom: r.bottom }; };
             const start = box(document.getElementById('start'));
             const meets = (r) => r.left < start.right && r.right > start.left
               && r.top < start.bottom && r.bottom > start.top;
             const covered = [...document.querySelectorAll(
                 '#lobby form :is(legend, label, .help)')]
               .filter((e) => e.offsetParent && meets(box(e))).map((e) => e.innerText.trim());
             return { start, covered, scrollY,
                      choice: box(document.getElementById('game-choice')),
                      helps: [...document.querySelectorAll('.modes .help')].map((e) => {
                        const r = box(e);
                        return { text: e.innerText, shown: r.right > r.left,
                                 inView: r.top >= 0 && r.bottom <= innerHeight };
                      }) };
           }"""
    )
    start = found["start"]
    width, height = (844, 390) if size == "landscape" else (390, 844)
    assert found["scrollY"] == 0
    assert start["top"] >= 0, found
    assert start["bottom"] <= height, found  # Deal in view
    assert start["right"] <= width, found
    assert found["covered"] == [], found  # over no heading, label nor explanation
    for help_line in found["helps"]:
        assert help_line["shown"], found
        assert help_line["text"], found
    if size == "landscape":
        # the games on the left, Deal on the right, and every mode explained in view
        assert start["left"] >= found["choice"]["right"], found
        assert all(help_line["inView"] for help_line in found["helps"]), found
    shot(page, f"twelfth-7-lobby-{size}")
