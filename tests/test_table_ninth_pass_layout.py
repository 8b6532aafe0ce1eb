"""The table's ninth pass, its layout, after a picky player's review of it (a player of
Microsoft Solitaire Collection, at 1366x768 and 1920x1080, on a phone upright, 390x844,
and in windows of 844 to 1366 px): one test each of its findings, in real headless
Chromium.

1. Kansas and Solitaire Expert had 73 px cards at 1366x768: on a wide window their piles
   stand beside their columns (the layout's ``beside_when_wide``), the arrow keys go from
   the columns to the piles and among them as they stand, and the replay stands so too.
2. A replay on a phone had smaller cards than the table (Kansas 39 px, the table 59).
3. The points a move made covered the header's words below 1240 px.
4. Golf held upright left a band of bare felt under its columns.

Screenshots are written to ``artifacts/screenshots/table/`` to be looked at.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page

from patience.games import GAMES
from tables import Table, answered, box, focus_board, focus_on, screens, shot
from test_table_eighth_pass_layout import _replay, measured
from test_table_second_pass import sign_up

REPLAYED = """() => Math.min(...[...document.querySelectorAll('#replay-board .card')]
  .map((card) => card.getBoundingClientRect().width))"""
FOCUSED = """() => { const here = document.activeElement;
  return here.dataset.src ?? here.dataset.dest ?? here.dataset.action ?? here.tagName; }"""


def _focused(page: Page) -> str:
    found: str = page.evaluate(FOCUSED)
    return found


# -- 1. Kansas and Solitaire Expert on a wide window -----------------------------------------

# the narrowest card each game may have on each window (they were 73 px at 1366x768, and
# at 1920x1080 Kansas 117, Solitaire Expert 90)
WIDE = {"1366x768": {"kansas": 90, "expert": 85}, "1920x1080": {"kansas": 120, "expert": 100}}


@pytest.mark.parametrize("size", screens("1366x768", among=["1366x768", "1920x1080"]))
def test_1_kansas_and_expert_stand_their_piles_beside_the_columns_and_the_replay_too(
    table: Callable[..., Table], size: str
) -> None:
    desk = table(size)
    page = desk.page
    page.goto(desk.server)
    sign_up(page, f"Wide {size}")
    for game, least in WIDE[size].items():
        desk.deal(game, 7)
        shot(page, f"ninth-1-{game}-{size}")
        at_table = measured(page)["cardW"]
        assert at_table >= least, (game, at_table)
        # the piles a block to the right of the columns, its top at the columns' top
        columns = box(page, "#board .tableau")
        piles = box(page, "#board > .row.top")
        assert piles["x"] >= columns["x"] + columns["width"], game
        assert piles["y"] == pytest.approx(columns["y"], abs=2), game
        # the whole board in the window
        assert page.evaluate("document.documentElement.scrollHeight - innerHeight") <= 0, game
        _replay(page, game)
        shot(page, f"ninth-1-{game}-{size}-replay")
        replayed: float = page.evaluate(REPLAYED)
        assert replayed >= at_table - 0.5, (game, replayed, at_table)
        assert (
            box(page, "#replay-board > .row.top")["x"]
            >= box(page, "#replay-board .tableau")["x"]
            + box(page, "#replay-board .tableau")["width"]
        ), game
        # the replay's words and controls meet no card of its board, and stay in the window
        clash = page.evaluate(
            """() => { const side = document.querySelector('.replay-side').getBoundingClientRect();
                 return [...document.querySelectorAll('#replay-board .card, #replay-board .pile')]
                   .map((c) => c.getBoundingClientRect())
                   .filter((r) => r.left < side.right && r.right > side.left
                     && r.top < side.bottom && r.bottom > side.top).length; }"""
        )
        assert clash == 0, game
        assert page.evaluate("document.documentElement.scrollHeight - innerHeight") <= 0, game


def test_1_the_arrow_keys_go_between_kansas_s_columns_and_the_piles_beside_them(
    table: Callable[..., Table],
) -> None:
    desk = table("1366x768")
    page = desk.deal("kansas", 7)
    focus_board(page)
    focus_on(page, '#board [data-src="t3"]')
    # right from the last column: the reserve, then along its line the stock and the waste
    page.keyboard.press("ArrowRight")
    assert _focused(page) == "r"
    page.keyboard.press("ArrowRight")
    assert _focused(page) == "draw"
    # down from the reserve's line: the foundations' line under it; left: back to the columns
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.closest('.piles') !== null")
    page.keyboard.press("ArrowUp")
    assert _focused(page) == "r"
    page.keyboard.press("ArrowLeft")
    assert _focused(page) == "t3"
    page.keyboard.press("ArrowLeft")
    assert _focused(page) == "t2"


# -- 2. the replay on a phone: its cards as large as the table's -----------------------------


def test_2_a_replay_on_a_phone_has_cards_as_large_as_the_table_s(
    table: Callable[..., Table],
) -> None:
    desk = table("phone")
    page = desk.page
    page.goto(desk.server)
    sign_up(page, "Phone watcher")
    for game in GAMES:
        at_table = measured(desk.deal(game, 7))["cardW"]
        _replay(page, game)
        shot(page, f"ninth-2-replay-{game}-phone")
        replayed: float = page.evaluate(REPLAYED)
        assert replayed >= at_table - 0.5, (game, replayed, at_table)
        # the whole replay in view: its board, its caption and its bar of controls
        outside = page.evaluate(
            """() => [...document.querySelectorAll(
                 '#replay-board .card, .replay-controls button, #replay-slider, #replay-step')]
               .filter((e) => { const r = e.getBoundingClientRect();
                 return r.top < 0 || r.bottom > innerHeight
                   || r.left < 0 || r.right > innerWidth; })
               .map((e) => e.id || e.dataset.card || e.className)"""
        )
        assert not outside, (game, outside)
        # the bar of controls covers no card
        bar = box(page, ".replay-controls")
        lowest = page.evaluate(
            "Math.max(...[...document.querySelectorAll('#replay-board .card')]"
            ".map((c) => c.getBoundingClientRect().bottom))"
        )
        assert lowest <= bar["y"] + 1, game
        page.click("#replay-forward")
        page.wait_for_selector("#replay-board[data-step='1']")


# -- 3. the points a move made cover no control, link nor word of the header -----------------

COVERS = """() => {
  const flash = document.getElementById('points');
  const [animation] = flash.getAnimations();
  const words = (item) => { const range = document.createRange(); range.selectNodeContents(item);
    return range.getBoundingClientRect(); };
  const kept = [
    ...[...document.querySelectorAll(
      '.bar a, .bar button, #table .controls :is(button, input, summary, select)')]
      .map((item) => [item.id || item.textContent.trim(), item.getBoundingClientRect()]),
    ...[...document.querySelectorAll('#status > :not(#points)')]
      .map((item) => [item.id || item.className, words(item)]),
  ].filter(([, r]) => r.width && r.height);
  const found = [];
  for (const at of [0, 300, 600, 900, 1150]) {
    animation.pause();
    animation.currentTime = at;
    if (Number(getComputedStyle(flash).opacity) < 0.05) continue;
    const f = flash.getBoundingClientRect();
    for (const [name, r] of kept) {
      if (f.left < r.right && f.right > r.left && f.top < r.bottom && f.bottom > r.top) {
        found.push(`${name} at ${at} ms`);
      }
    }
  }
  return found;
}"""


@pytest.mark.parametrize(
    "size",
    screens("phone", "1024x768", among=["phone", "landscape", "1024x768", "1180x800", "1366x768"]),
)
def test_3_the_points_cover_no_control_nor_word_of_the_header(
    table: Callable[..., Table], size: str
) -> None:
    desk = table(size)
    page = desk.page
    page.goto(desk.server)
    sign_up(page, f"Scorer {size}")  # (a signed-in header: its most links)
    for game in ("klondike", "kansas"):
        page = desk.deal("klondike", 0) if game == "klondike" else desk.deal("kansas", 7)
        # a move that scores: klondike's ace of column 5 home; Kansas's first card home
        source = "t5" if game == "klondike" else None
        if source is None:
            source = page.evaluate(
                """async () => { const held = JSON.parse(sessionStorage.getItem('patience-game'));
                     const answer = await (await fetch(`/api/sessions/${held.id}`,
                       { headers: { Authorization: `Bearer ${held.token}` } })).json();
                     const home = answer.legal_moves.find((m) => m.endsWith('>f'));
                     return home ? home.split('>')[0] : null; }"""
            )
        if source is None:
            continue
        # (the points' fall is held still as it starts: on a busy machine it can be over
        # before the page is asked where it fell)
        page.evaluate(
            """() => document.getElementById('points').addEventListener('animationstart',
                 (event) => event.target.getAnimations().forEach((a) => a.pause()),
                 { once: true })"""
        )
        answered(page, lambda p=page, s=source: p.click(f'#board [data-src="{s}"]'))  # type: ignore[misc]
        page.wait_for_selector("#points.show")
        page.wait_for_function(
            "() => document.getElementById('points').getAnimations()"
            ".some((a) => a.playState === 'paused')"
        )
        shot(page, f"ninth-3-points-{game}-{size}")
        assert page.evaluate(COVERS) == [], (game, size)


# -- 4. Golf held upright uses the height ----------------------------------------------------


def test_4_golf_upright_spreads_its_columns_down_the_height(table: Callable[..., Table]) -> None:
    desk = table("phone")
    page = desk.deal("golf", 7)
    shot(page, "ninth-4-golf-phone")
    drawn = measured(page)
    assert drawn["cardW"] >= 53, drawn  # no narrower than before
    # each column's cards lie whole, one under another, down the height
    tops = page.evaluate(
        """() => [...document.querySelectorAll('#board .column')].map((column) =>
             [...column.querySelectorAll('.card')].map((card) => card.getBoundingClientRect()))
           .map((cards) => cards.slice(1).map((r, k) => r.top - cards[k].bottom))"""
    )
    assert all(gap >= 0 for column in tops for gap in column), tops
