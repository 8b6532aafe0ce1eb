"""The table's eleventh pass, its layout, after a picky player's review of it (a player of
Microsoft Solitaire Collection, every day, at 1366x768 and 1920x1080 and on a phone held
upright, 390x844): one test each of its findings, in real headless Chromium.

1. Klondike on a desktop had 98 px cards at 1366x768: they were sized for the longest
   column the game can reach. The cards are now sized so that the game's usual longest
   column shows every corner whole with its face-down cards squeezed, and the longest it
   can reach does too, squeezed further; large cards' corners may be smaller than a
   quarter of their width (109 px cards at 1366x768, 146 at 1920x1080). A column that
   would run past the board's foot squeezes its fan (face-down cards first), never the
   cards, and every card of it is still found by a pointer and by the keys.
2. Golf held upright left a band of about 246 px of bare felt under its columns: its waste
   and stock are drawn large in it.
3. FreeCell held upright had its free cells at the foot, far from the columns: they stand
   across the top, beside the foundations.

Screenshots are written to ``artifacts/screenshots/table/`` to be looked at.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page

from patience.games import new_game
from tables import Table, box, draw_board, focus_board, focus_on, shot
from test_table_eighth_pass_layout import in_thumb_reach, measured

# a king down to an ace, red on black: the run a column can hold on its six face-down cards
RUN = ["Ks", "Qh", "Jc", "Td", "9s", "8h", "7c", "6d", "5s", "4h", "3c", "2d", "Ah"]

COLUMN = """(place) => {
  const column = document.querySelector(`#board .column[data-dest="${place}"]`);
  const cards = [...column.querySelectorAll(':scope > .card')];
  const rects = cards.map((card) => card.getBoundingClientRect());
  // the strip of each covered card a player sees, and whether a press at its middle finds it
  const strips = rects.slice(0, -1).map((r, k) => rects[k + 1].top - r.top);
  const found = cards.map((card, k) => {
    const r = rects[k];
    const y = k < cards.length - 1 ? (r.top + rects[k + 1].top) / 2 : r.top + r.height / 2;
    return document.elementFromPoint(r.left + r.width / 2, y)?.closest('.card') === card;
  });
  const corner = cards.find((card) => card.classList.contains('face-up'))
    .querySelector('.corner').getBoundingClientRect();
  const first = rects[cards.findIndex((card) => card.classList.contains('face-up'))];
  const help = document.querySelector('#table > .help').getBoundingClientRect();
  return {
    up: cards.map((card) => card.classList.contains('face-up')),
    strips, found,
    // the corner's line (rank and suit) from its card's top
    corner: corner.bottom - first.top,
    bottom: rects.at(-1).bottom, foot: help.height ? help.top : innerHeight,
  };
}"""


def _column(page: Page, place: str) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(COLUMN, place)
    return found


def _squeezed(page: Page, hidden: int, run: list[str]) -> dict[str, Any]:
    """Draw the dealt game with its seventh column ``hidden`` face-down cards and ``run``
    on them (the same game: its cards keep their size) and measure that column."""
    board = new_game("klondike", seed=7).observation()
    board["tableau"][6] = {"hidden": hidden, "cards": run}
    draw_board(page, board)
    return _column(page, "t7")


def test_1_klondike_has_large_cards_and_squeezes_a_long_column_not_its_cards(
    table: Callable[..., Table],
) -> None:
    desk = table("1366x768")
    page = desk.deal("klondike", 7)
    shot(page, "eleventh-1-klondike-1366x768")
    dealt = measured(page)["cardW"]
    assert dealt >= 106, dealt  # (98 before)
    # the game's usual longest column (six face-down cards, ten face-up): every card's
    # corner whole, the face-down cards squeezed tighter than the face-up ones
    usual = _squeezed(page, 6, RUN[:10])
    shot(page, "eleventh-1-klondike-usual-longest")
    assert measured(page)["cardW"] == dealt
    assert usual["bottom"] <= usual["foot"], usual
    down = [strip for strip, up in zip(usual["strips"], usual["up"], strict=False) if not up]
    up = [strip for strip, up in zip(usual["strips"], usual["up"], strict=False) if up]
    assert min(up) >= usual["corner"] - 2, usual
    assert max(down) < min(up), usual
    # the longest the game reaches (a king to an ace on six face-down cards): squeezed, the
    # same cards, every one of them in the window and found where it is seen
    longest = _squeezed(page, 6, RUN)
    shot(page, "eleventh-1-klondike-longest")
    assert measured(page)["cardW"] == dealt
    assert longest["bottom"] <= longest["foot"], longest
    assert all(longest["found"]), longest
    face_up = [strip for strip, up in zip(longest["strips"], longest["up"], strict=False) if up]
    assert min(face_up) >= longest["corner"] - 2, longest  # (its corner whole: 0.75 before)
    assert page.evaluate("document.documentElement.scrollHeight - innerHeight") <= 0
    # the keys reach a card in the middle of the squeezed run
    focus_board(page)
    focus_on(page, '#board [data-src="t7:7c"]')
    assert page.evaluate("document.activeElement.dataset.card") == "7c"
    # the other games no smaller than before at this size (their cards before this pass)
    for game, before in {"freecell": 86, "kansas": 97, "expert": 87}.items():
        width = measured(desk.deal(game, 7))["cardW"]
        shot(page, f"eleventh-1-{game}-1366x768")
        assert width >= before, (game, width)


def test_2_and_3_golf_and_freecell_held_upright_use_the_height(
    table: Callable[..., Table],
) -> None:
    desk = table("phone")
    # Golf: its waste and stock large in the height under the columns, no bare band
    page = desk.deal("golf", 7)
    shot(page, "eleventh-2-golf-phone")
    drawn = measured(page)
    assert drawn["cardW"] >= 53, drawn  # the columns' cards no narrower than before
    waste = box(page, "#board .waste")
    assert waste["width"] >= 1.8 * drawn["cardW"], waste
    columns_foot: float = page.evaluate(
        "Math.max(...[...document.querySelectorAll('#board .column > .card')]"
        ".map((c) => c.getBoundingClientRect().bottom))"
    )
    assert waste["y"] - columns_foot <= 140, (waste, columns_foot)  # (246 before)
    # the stock still under the right thumb, the whole board in the window
    stock = box(page, "#board .stock")
    centre = {"x": stock["x"] + stock["width"] / 2, "y": stock["y"] + stock["height"] / 2}
    assert in_thumb_reach(page, centre), stock
    assert stock["y"] + stock["height"] <= drawn["foot"] + 1, (stock, drawn)
    # FreeCell: the free cells across the top beside the foundations, above the columns
    page = desk.deal("freecell", 7)
    shot(page, "eleventh-3-freecell-phone")
    assert measured(page)["cardW"] >= 46  # (46 before)
    tableau = box(page, "#board .tableau")
    cells = page.evaluate(
        """() => [...document.querySelectorAll('#board .pile[data-dest^="c"]')]
             .map((pile) => pile.getBoundingClientRect().bottom)"""
    )
    assert len(cells) == 4
    assert max(cells) <= tableau["y"], (cells, tableau)
    assert page.evaluate(
        "document.querySelector('#board .pile[data-dest=\"c1\"]').closest('.row.top') !== null"
    )
    # Klondike held upright keeps its cards (53 px before)
    assert measured(desk.deal("klondike", 7))["cardW"] >= 53
