"""FreeCell at the table, in a real browser: the free cells are drawn from the game's layout
(a cell pile in slots), a card goes to a free cell and back out by clicks, and undo takes
it back."""

from __future__ import annotations

from collections.abc import Callable

from patience.games.freecell import FreeCell
from tables import Table, answered, settled, shot

SEED = 4


def _card_in(page_table: Table, place: str) -> str | None:
    found: str | None = page_table.page.evaluate(
        "(place) => document.querySelector(`.pile[data-dest='${place}'] .card`)?.dataset.key"
        " ?? null",
        place,
    )
    return found


def test_a_freecell_game_is_dealt_and_played_with_its_free_cells(
    table: Callable[..., Table],
) -> None:
    game = FreeCell.from_seed(SEED)
    view = table("desktop")
    page = view.page
    page.goto(f"{view.server}/?game=freecell&seed={SEED}")
    page.wait_for_selector("#board .card")
    settled(page)
    assert page.locator("#board .card").count() == 52
    assert page.locator("#board .column").count() == 8
    cells = [page.get_attribute(f".pile[data-dest='c{k}']", "aria-label") for k in range(1, 5)]
    assert cells == [f"free cell {k}, empty" for k in range(1, 5)]

    # a column's exposed card with no place home nor on a column: a click on it plays it
    # to the first free cell
    legal = [str(move) for move in game.legal_moves()]
    column = next(
        k
        for k in range(1, 9)
        if f"t{k}>c1" in legal
        and not any(m.startswith(f"t{k}>t") for m in legal)
        and f"t{k}>f" not in legal
    )
    card = str(game.piles()[f"t{column}"][-1])
    answered(page, lambda: page.click(f".card[data-src='t{column}']"))
    game.play(f"t{column}>c1")
    assert _card_in(view, "c1") == card
    named = page.get_attribute(".card[data-src='c1']", "aria-label")
    assert page.get_attribute(".pile[data-dest='c1']", "aria-label") == f"free cell 1, {named}"
    shot(page, "freecell-a-card-in-a-free-cell")

    # the card back out of its cell, onto a column it fits (or an empty one), by a click
    back = next((move for move in map(str, game.legal_moves()) if move.startswith("c1>t")), None)
    if back is not None:
        answered(page, lambda: page.click(".card[data-src='c1']"))
        assert _card_in(view, "c1") is None
        page.keyboard.press("u")  # undo: the card is in its cell again
        page.wait_for_function("document.querySelector(\".pile[data-dest='c1'] .card\")")
        settled(page)
        assert _card_in(view, "c1") == card

    # undo: the card is back on its column, the cells empty
    answered(page, lambda: page.keyboard.press("u"))
    assert _card_in(view, "c1") is None
    exposed = page.evaluate(
        "(place) => [...document.querySelectorAll(`.column[data-dest='${place}'] .card`)]"
        ".at(-1).dataset.key",
        f"t{column}",
    )
    assert exposed == card
