"""The table's eighth pass, its layout, after a picky player's review of it (a player of
Microsoft Solitaire Collection, every day, at 1366x768 and on a phone upright, 390x844, and
on its side, 844x390): one test each of its findings, in real headless Chromium.

1. Klondike on a phone held upright used a part of the screen's height, its stock far from
   the thumb: every game held upright now takes the whole height, its cards as wide as the
   width allows, the stock at the foot's right end (no card narrower than 34 px), and no
   other screen lost a pixel of its cards.
2. FreeCell upright had 40 px cards and room to spare below them: the free cells stand at
   the foot, the columns alone set the cards' width.
3. Golf's win cascade was cut by the result dialog's top edge.
4. The replay's board was fitted below its controls, smaller than the table's on a desktop.

Screenshots are written to ``artifacts/screenshots/table/`` to be looked at.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page

from patience.games import GAMES, new_game
from patience.solve import solve
from tables import VARIANTS, Table, answered, box, draw_board, screens, shot
from test_table_second_pass import end_and_replay, sign_up, start_through_api

LAYOUT = """() => {
  const board = document.querySelector('#board');
  const cards = [...board.querySelectorAll('.card')].map((card) => card.getBoundingClientRect());
  const drawn = [...board.querySelectorAll('.card, .pile, .column')]
    .map((item) => item.getBoundingClientRect().bottom);
  const lowest = Math.max(...drawn);
  // the board's foot: what follows it on the page (its help line, a phone's bar of
  // controls), or the window's bottom
  const after = [...document.querySelectorAll('#table > .help, #table > .controls')]
    .map((item) => item.getBoundingClientRect())
    .filter((r) => r.height > 0 && r.top >= lowest - 1).map((r) => r.top);
  const foot = after.length ? Math.min(...after) : innerHeight;
  const stock = board.querySelector('.stock')?.getBoundingClientRect() ?? null;
  const gap = parseFloat(getComputedStyle(board).getPropertyValue('--gap'));
  return {
    cardW: Math.min(...cards.map((r) => r.width)),
    columns: board.querySelectorAll('.tableau > .column').length,
    lowest, foot, gap,
    stock: stock && { x: stock.left + stock.width / 2, y: stock.top + stock.height / 2 },
  };
}"""
"""The board as a player sees it: its narrowest card, its columns, where its lowest pile
ends and where the page's foot begins, the gap between cards, the stock's centre."""

# The cards' width of each game's deal (seed 7) before this pass, by screen: no screen's
# cards are narrower after it.
BEFORE = {
    "desktop": {"klondike": 98, "golf": 120, "kansas": 73, "expert": 73, "freecell": 86},
    "phone": {"klondike": 51, "golf": 51, "kansas": 59, "expert": 37, "freecell": 40},
    # (Solitaire Expert's was 56 on its side; since the controls stand in a column of 44 px
    # buttons at the right edge there, its fourteen piles across share the width: 51)
    "landscape": {"klondike": 56, "golf": 68, "kansas": 56, "expert": 51, "freecell": 56},
}


def measured(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(LAYOUT)
    return found


def in_thumb_reach(page: Page, point: dict[str, float]) -> bool:
    """Whether ``point`` is where a right thumb rests on a phone held upright: the right
    half of the screen, its lowest third."""
    width, height = page.viewport_size["width"], page.viewport_size["height"]  # type: ignore[index]
    return point["x"] > width / 2 and point["y"] > height * 2 / 3


# -- 1. a phone upright: the whole height, the widest cards, the stock under the thumb ----


def test_1_klondike_upright_takes_the_height_with_the_stock_under_the_thumb(
    table: Callable[..., Table],
) -> None:
    desk = table("phone")
    page = desk.deal("klondike", 7)
    shot(page, "eighth-1-klondike-phone")
    drawn = measured(page)
    width = page.viewport_size["width"]  # type: ignore[index]
    # cards as wide as the width allows: seven across with their gaps, within a pixel a
    # card of the screen's width (but the two pixels at each edge)
    assert 7 * drawn["cardW"] + 6 * drawn["gap"] >= width - 4 - 7, drawn
    # the board takes the height: its lowest pile stands at the page's foot
    assert drawn["foot"] - drawn["lowest"] <= 12, drawn
    # the stock where a right thumb rests, the waste beside it
    assert drawn["stock"] is not None
    assert in_thumb_reach(page, drawn["stock"]), drawn
    waste = box(page, "#board .waste")
    assert waste["y"] == pytest.approx(box(page, "#board .stock")["y"], abs=1)
    # the columns have room to grow down: the longest a column reaches (six face down and
    # a king down to an ace) fits above the stock, in cards of the same width
    board = new_game("klondike", seed=7, variant=VARIANTS["klondike"]).observation()
    run = [f"{rank}{'hs'[k % 2]}" for k, rank in enumerate("KQJT98765432A")]
    board["tableau"][6] = {"hidden": 6, "cards": run}
    draw_board(page, board)
    shot(page, "eighth-1-klondike-phone-longest")
    last = box(page, '#board .column[data-dest="t7"] .card:last-child')
    assert last["y"] + last["height"] <= box(page, "#board .stock")["y"] + 1
    assert measured(page)["cardW"] == drawn["cardW"]


@pytest.mark.parametrize("size", screens("phone", among=["phone", "landscape", "desktop"]))
def test_1_every_game_keeps_or_widens_its_cards_and_upright_takes_the_height(
    table: Callable[..., Table], size: str
) -> None:
    """Every game: no screen's cards narrower than before this pass; upright, no card
    narrower than 34 px, the board down to the page's foot, and a stock (a game with one)
    or the piles at the foot in a right thumb's reach."""
    desk = table(size)
    for game in GAMES:
        page = desk.deal(game, 7)
        shot(page, f"eighth-1-{game}-{size}")
        drawn = measured(page)
        assert drawn["cardW"] >= BEFORE[size][game] - 0.5, (game, drawn)
        if size == "phone":
            assert drawn["cardW"] >= 34, (game, drawn)
            # (a game with piles under its columns has them at the foot; FreeCell's stand
            # across the top since the eleventh pass, its columns the height under them)
            foot_row = box(page, "#board > .row:last-child")
            if foot_row["y"] > box(page, "#board .tableau")["y"]:
                assert drawn["foot"] - drawn["lowest"] <= 12, (game, drawn)
                assert foot_row["y"] > page.viewport_size["height"] / 2, game  # type: ignore[index]
            if drawn["stock"] is not None:
                assert in_thumb_reach(page, drawn["stock"]), (game, drawn)


# -- 2. FreeCell upright: the columns set the cards' width -----------------------------------


def test_2_freecell_upright_has_cards_as_wide_as_its_columns_allow(
    table: Callable[..., Table],
) -> None:
    desk = table("phone")
    page = desk.deal("freecell", 7)
    shot(page, "eighth-2-freecell-phone")
    drawn = measured(page)
    width = page.viewport_size["width"]  # type: ignore[index]
    assert drawn["columns"] == 8
    # eight across with their gaps fill the screen's width, within a pixel a card
    assert 8 * drawn["cardW"] + 7 * drawn["gap"] >= width - 4 - 8, drawn
    assert drawn["cardW"] >= 45, drawn
    # every cell is a card wide (since the eleventh pass they stand across the top, beside
    # the foundations: test_table_eleventh_pass_layout.py)
    cells = [box(page, f'#board [data-dest="c{k}"]') for k in range(1, 5)]
    assert all(cell["width"] >= drawn["cardW"] - 1 for cell in cells)
    # the longest a column reaches (seven dealt, the last a king, and the queen to the ace
    # on it) fits above the page's foot, in cards of the same width
    board = new_game("freecell", seed=7).observation()
    dealt = board["tableau"][0]["cards"]
    run = [f"{rank}{'hs'[k % 2]}" for k, rank in enumerate("QJT98765432A")]
    board["tableau"][0] = {"hidden": 0, "cards": [*dealt, *run]}
    draw_board(page, board)
    shot(page, "eighth-2-freecell-phone-longest")
    last = box(page, '#board .column[data-dest="t1"] .card:last-child')
    assert last["y"] + last["height"] <= drawn["foot"] + 1
    assert measured(page)["cardW"] == drawn["cardW"]


# -- 3. Golf's win cascade: seen whole, never cut --------------------------------------------

CASCADE = """() => {
  const panel = document.querySelector('#result .panel').getBoundingClientRect();
  const words = [...document.querySelectorAll(
    '#result-title, #result-reason, #breakdown, #result .buttons button')];
  const cards = [...document.querySelectorAll('#cascade .cascade-card')];
  // the boxes that clip what they hold: a card must lie inside each of them
  const clipping = (card) => {
    const found = [];
    for (let item = card.parentElement; item && item !== document.body; item = item.parentElement) {
      const style = getComputedStyle(item);
      if (style.overflowX !== 'visible' || style.overflowY !== 'visible') found.push(item);
    }
    return found;
  };
  const moves = document.getAnimations()
    .filter((move) => move.effect?.target?.classList.contains('cascade-card'));
  const end = Math.max(0, ...moves.map((move) => move.effect.getComputedTiming().endTime));
  const times = moves.length ? [...Array(41).keys()].map((k) => (k * end) / 40) : [0];
  const cut = [], covered = [];
  let above = 0, seen = 0;
  for (const time of times) {
    for (const move of moves) { move.pause(); move.currentTime = time; }
    for (const card of cards) {
      if (Number(getComputedStyle(card).opacity) < 0.05) continue;
      seen += 1;
      const r = card.getBoundingClientRect();
      const name = `${card.dataset.card} at ${Math.round(time)} ms`;
      if (r.top < -1 || r.left < -1 || r.right > innerWidth + 1 || r.bottom > innerHeight + 1) {
        cut.push(`${name}: off the window`);
      }
      for (const item of clipping(card)) {
        const c = item.getBoundingClientRect();
        if (r.top < c.top - 1 || r.bottom > c.bottom + 1
            || r.left < c.left - 1 || r.right > c.right + 1) {
          cut.push(`${name}: cut by ${item.id || item.className}`);
        }
      }
      if (r.top < panel.top - 1) above += 1;
      for (const word of words) {
        const w = word.getBoundingClientRect();
        if (r.left < w.right && r.right > w.left && r.top < w.bottom && r.bottom > w.top) {
          covered.push(`${name}: over ${word.id || word.textContent}`);
        }
      }
    }
  }
  return { cut: [...new Set(cut)].slice(0, 8), covered: covered.slice(0, 8), above, seen,
           moving: moves.length, cards: cards.length };
}"""


def _won_golf(desk: Table) -> Page:
    """Golf, dealt and won on the table (its winning line played through the API but its
    last move, played by a key)."""
    seed = next(s for s in range(50) if solve(new_game("golf", seed=s)).outcome == "solved")
    *moves, last = solve(new_game("golf", seed=seed)).moves
    page = desk.deal("golf", seed)
    desk.play_through_api(moves)
    answered(page, lambda: page.keyboard.press("Space" if last == "draw" else last[1:]))
    page.wait_for_selector("#result:not([hidden])")
    assert page.inner_text("#result-title") == "You won!"
    return page


@pytest.mark.parametrize("size", screens("desktop", among=["desktop", "phone"]))
@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_3_golf_s_win_cascade_is_never_cut(
    table: Callable[..., Table], size: str, motion: str
) -> None:
    desk = table(size, reduced_motion=motion)
    page = _won_golf(desk)
    page.evaluate(
        "document.getAnimations().forEach((move) => { move.currentTime = 700; move.pause(); })"
    )
    shot(page, f"eighth-3-golf-won-{size}-{motion}")
    found = page.evaluate(CASCADE)
    assert found["cards"] > 0, found
    assert found["seen"] > 0, found
    assert (found["moving"] == 0) == (motion == "reduce"), found
    # every card whole in view at every moment: no edge of the dialog (nor the window)
    # cuts it, and none covers the dialog's words
    assert found["cut"] == [], found
    assert found["covered"] == [], found
    if motion == "no-preference":
        # the cards bounce up over the table, out of the dialog
        assert found["above"] > 0, found


# -- 4. the replay's board as large as the table's ---------------------------------------------


def _replay(page: Page, game: str) -> None:
    """Open the replay of a practice game of ``game``'s deal 7 (three moves, then ended)."""
    game_id = start_through_api(
        page, {"game": game, "variant": VARIANTS[game], "mode": "practice", "seed": "7"}, 3
    )
    origin = urlsplit(page.url)
    end_and_replay(page, f"{origin.scheme}://{origin.netloc}", game_id)


@pytest.mark.parametrize("size", screens("desktop", among=["desktop", "phone", "landscape"]))
def test_4_the_replay_s_cards_are_as_large_as_the_table_s(
    table: Callable[..., Table], size: str
) -> None:
    desk = table(size)
    page = desk.page
    page.goto(desk.server)
    sign_up(page, f"Watcher {size}")
    for game in GAMES:
        at_table = measured(desk.deal(game, 7))["cardW"]
        _replay(page, game)
        shot(page, f"eighth-4-replay-{game}-{size}")
        replayed: float = page.evaluate(
            """() => Math.min(...[...document.querySelectorAll('#replay-board .card')]
                 .map((card) => card.getBoundingClientRect().width))"""
        )
        if size == "desktop":
            assert replayed >= at_table - 0.5, (game, replayed, at_table)
        # the whole replay in view, nothing to scroll
        assert page.evaluate("document.documentElement.scrollHeight - innerHeight") <= 0, game
        outside = page.evaluate(
            """() => [...document.querySelectorAll(
                 '#replay-board .card, .replay-controls button, #replay-slider, #replay-step')]
               .filter((e) => {
                 const r = e.getBoundingClientRect();
                 return r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth;
               }).map((e) => e.id || e.dataset.card || e.className)"""
        )
        assert not outside, (game, outside)
        page.click("#replay-forward")
        page.wait_for_selector("#replay-board[data-step='1']")


def test_1_a_phone_turned_lays_the_board_out_again(table: Callable[..., Table]) -> None:
    """The rows a board stands in change with the window alone: turned on its side, the
    phone's board has its own rows again (the stock at the top left); turned back, the
    upright rows (the stock at the foot's right end), its cards as wide as before."""
    desk = table("phone")
    page = desk.deal("klondike", 7)
    upright = measured(page)
    page.set_viewport_size({"width": 844, "height": 390})
    page.wait_for_function("document.querySelector('#board').dataset.arrangement === 'flat'")
    assert page.locator("#board > .row:first-child .stock").count() == 1
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_function("document.querySelector('#board').dataset.arrangement === 'upright'")
    again = measured(page)
    assert page.locator("#board > .row:last-child .stock").count() == 1
    assert again["cardW"] == upright["cardW"]
    assert in_thumb_reach(page, again["stock"])
