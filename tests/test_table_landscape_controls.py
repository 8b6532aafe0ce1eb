"""A phone on its side (844x390, a touch screen): every control of the table is a target a
finger takes (at least 44 px tall and 40 px wide; they had been 25-27 px tall in a row above
the board), in a column at the table's right edge, over no card, with the cards about as
large as before (the board has the height the row of controls took). In real headless
Chromium; screenshots in ``artifacts/screenshots/table/`` to be looked at.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tables import VARIANTS, Table, box, no_sideways_scroll, outside_viewport, shot

CONTROLS = "#table .controls button, #table .controls summary"

SMALLEST_CARD = {"expert": 50}
"""The narrowest card each game may have at 844x390 (56 px, the size the layout keeps for
a short screen's cards, where the game has the width; Solitaire Expert's fourteen cards
across give it 51)."""


@pytest.mark.parametrize("game", list(VARIANTS))
def test_the_controls_of_a_phone_on_its_side_take_a_finger(
    table: Callable[..., Table], game: str
) -> None:
    desk = table("landscape")
    page = desk.deal(game, 3)
    controls = page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)]
             .filter((control) => control.offsetParent)
             .map((control) => { const r = control.getBoundingClientRect();
               return { name: control.id || control.getAttribute('aria-label'),
                        left: r.left, top: r.top, right: r.right, bottom: r.bottom,
                        width: r.width, height: r.height }; })""",
        CONTROLS,
    )
    names = {control["name"] for control in controls}
    assert {"back-to-lobby", "undo", "sound", "Options", "new-deal", "end"} <= names, names
    small = [c for c in controls if c["height"] < 44 or c["width"] < 40]
    assert not small, f"too small to tap: {small}"
    assert not outside_viewport(page, CONTROLS.replace(", ", ":not([hidden]), ")), "off screen"
    # no control over a card: the board ends left of the column
    cards = page.evaluate(
        """() => [...document.querySelectorAll('#board .card')].map((card) => {
             const r = card.getBoundingClientRect();
             return { right: r.right, bottom: r.bottom }; })"""
    )
    left_of = min(control["left"] for control in controls)
    assert max(card["right"] for card in cards) <= left_of, "a card under the controls"
    assert max(card["bottom"] for card in cards) <= 390
    no_sideways_scroll(page)
    width = box(page, "#board .card")["width"]
    assert width >= SMALLEST_CARD.get(game, 56), f"cards {width} px wide"
    shot(page, f"landscape-controls-{game}")


def test_the_options_menu_opens_in_view_from_the_column(table: Callable[..., Table]) -> None:
    desk = table("landscape")
    page = desk.deal("klondike", 3)
    page.locator("#card-menu summary").tap()
    page.wait_for_selector("#card-menu[open] .menu-panel")
    panel = box(page, "#card-menu .menu-panel")
    column = box(page, "#table .controls")
    assert panel["x"] >= 0
    assert panel["y"] >= 0
    assert panel["y"] + panel["height"] <= 390 + 1
    assert panel["x"] + panel["width"] <= column["x"], "the menu covers the controls"
    shot(page, "landscape-controls-menu")
