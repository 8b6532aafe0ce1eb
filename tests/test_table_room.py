"""Kansas on a desktop (1366x768) uses the room it has: its three columns of up to 21 cards
had 73 px cards in the left third of the table, the rest bare felt; its piles now stand
beside the columns (its layout's ``beside_when_wide``), which have the whole height, for
larger cards that still hold the longest column the game reaches, and keep their size
through the game. In real headless Chromium; screenshots in
``artifacts/screenshots/table/``.
"""

from __future__ import annotations

from collections.abc import Callable

from patience.games import GAMES
from tables import Table, box, midgame_moves, outside_viewport, settled, shot


def test_kansas_s_cards_use_a_desktop_s_room(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    page = desk.deal("kansas", 3)
    width = box(page, "#board .column .card")["width"]
    assert width >= 88, f"Kansas's cards are {width} px wide at 1366x768"
    # the piles beside the columns, the columns from the board's top
    piles = box(page, "#board > .row.top")
    columns = box(page, "#board > .tableau")
    assert piles["x"] >= columns["x"] + columns["width"]
    assert abs(piles["y"] - columns["y"]) <= 2
    shot(page, "room-kansas-dealt")
    # the longest column the game reaches fits at this size: drawn on the board
    longest = GAMES["kansas"].layout["longest"]["up"] + 1
    page.evaluate(
        """(count) => {
             const column = document.querySelector('#board .column');
             const last = column.querySelector('.card:last-child');
             for (let k = 0; k < count; k++) {
               const copy = last.cloneNode(true);
               copy.classList.add('face-up');
               column.append(copy);
             }
           }""",
        longest - 1,
    )
    page.evaluate(
        "async () => (await import('/static/board.js')).fitBoard(document.getElementById('board'))"
    )
    assert box(page, "#board .column .card")["width"] == width, "the size changed"
    assert not outside_viewport(page, "#board .card")
    shot(page, "room-kansas-longest")


def test_kansas_s_card_size_holds_through_a_game(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    page = desk.deal("kansas", 3)
    width = box(page, "#board .column .card")["width"]
    desk.play_through_api(midgame_moves("kansas", 3, 40))
    settled(page)
    assert box(page, "#board .column .card")["width"] == width
    assert not outside_viewport(page, "#board .card")
