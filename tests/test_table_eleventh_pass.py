"""The table's eleventh pass, after a picky player's review (one who plays a well-known
solitaire collection daily), in real headless Chromium:

1. A drop on a place that does not take the card is refused at once by the client, from the
   legal moves the server sent: the card glides back, the table and the screen reader say
   why, and no move is sent (no request, no console error). A legal drop still goes to the
   server, which stays the referee. Every game.
2. The site's root opens the lobby, with Continue for a game in progress; Back and Forward
   walk the pages the player visited.
3. A malformed play link says, in plain words and by the game's name, which setting is
   wrong and what it takes, with a way back to the lobby.
4. A tournament, a game or a replay that does not exist has a page saying so, with a link
   to where to go.
5. (tests/test_catalog_refill.py) A tournament short of deals estimates the refill from the
   rate the server measured.

Screenshots are written to ``artifacts/screenshots/table/`` to be looked at.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page

from patience.games import new_game
from tables import LINKS, VARIANTS, Table, answered, screens, settled, shot

# -- 1. an illegal drop is refused at once, by the client -------------------------------------


def drops(game: str) -> tuple[int, str, str, str]:
    """A deal of ``game`` with a legal drop and a refused one, its seed, the legal drop (a
    move), the refused drop's source column and its destination (a column, or in a game
    played card by card the waste)."""
    for seed in range(1, 200):
        position = new_game(game, seed=seed, variant=VARIANTS[game])
        legal = [str(move) for move in position.legal_moves()]
        board = position.observation()["tableau"]
        columns = [f"t{k + 1}" for k, column in enumerate(board) if column["cards"]]
        if game == "golf":
            good = [move for move in legal if move.startswith("t")]
            bad = [source for source in columns if source not in legal]
            if good and bad:
                return seed, good[0], bad[0], "w"
            continue
        good = [m for m in legal if m.startswith("t") and ">t" in m and ":" not in m]
        bad = [
            (source, dest)
            for source in columns
            for dest in columns
            if source != dest
            and not position.is_legal(f"{source}>{dest}")
            and board[int(dest[1:]) - 1]["cards"]
        ]
        if good and bad:
            return seed, good[0], *bad[0]
    raise AssertionError(f"no deal of {game} with both drops")


def watch_moves(page: Page) -> tuple[list[str], list[str]]:
    """The requests to the move endpoint and the console's errors, as they come."""
    sent: list[str] = []
    errors: list[str] = []
    page.on(
        "request", lambda request: sent.append(request.url) if "/moves" in request.url else None
    )
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    return sent, errors


def centre(page: Page, selector: str) -> tuple[float, float]:
    found = page.locator(selector).last.bounding_box()
    assert found is not None, selector
    return found["x"] + found["width"] / 2, found["y"] + found["height"] / 2


def drag(page: Page, table: Table, start: tuple[float, float], end: tuple[float, float]) -> None:
    """Drag from ``start`` to ``end`` with the mouse, or a finger on a touch screen."""
    if not page.evaluate("matchMedia('(pointer: coarse)').matches"):
        page.mouse.move(*start)
        page.mouse.down()
        page.mouse.move(start[0] + 10, start[1] + 10, steps=2)
        page.mouse.move(*end, steps=8)
        page.mouse.up()
        return
    cdp = table.context.new_cdp_session(page)
    point = {"x": start[0], "y": start[1]}
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    for step in range(1, 9):
        at = {
            "x": start[0] + (end[0] - start[0]) * step / 8,
            "y": start[1] + (end[1] - start[1]) * step / 8,
        }
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [at]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def dest_selector(dest: str) -> str:
    """Where a drop on ``dest`` aims: a column's last card (the column when empty), or the
    place itself."""
    if dest.startswith("t"):
        return f'#board .column[data-dest="{dest}"] .card:last-child'
    return f'#board [data-dest="{dest}"]'


def refused_drop(page: Page, desk: Table, source: str, dest: str) -> None:
    """Drag the exposed card of column ``source`` onto ``dest``, which does not take it,
    and check it is refused at once, saying why, with nothing sent."""
    sent, errors = watch_moves(page)
    selector = f'#board [data-src="{source}"]'
    card = page.get_attribute(selector, "data-card")
    before = page.evaluate(f"document.querySelector('{selector}').getBoundingClientRect().top")
    version = page.get_attribute("#board", "data-version")
    drag(page, desk, centre(page, selector), centre(page, dest_selector(dest)))
    page.wait_for_function(
        "document.getElementById('error').textContent !== ''"
        " && !document.querySelector('.dragging') && !document.querySelector('#board .lifted')"
    )
    assert sent == [], sent  # refused without asking the server
    assert errors == [], errors
    words = page.inner_text("#error")
    assert words.startswith(("The ", "Only ")), words
    assert "cannot" in words or "does not" in words, words
    assert page.text_content("#announce") == f"Not allowed: {words}"
    assert page.get_attribute(selector, "data-card") == card  # back in its place
    assert (
        page.evaluate(f"document.querySelector('{selector}').getBoundingClientRect().top") == before
    )
    assert page.get_attribute("#board", "data-version") == version  # nothing was drawn again


@pytest.mark.parametrize("game", list(VARIANTS))
def test_1_an_illegal_drop_is_refused_at_once_and_a_legal_one_goes_through(
    table: Callable[..., Table], game: str
) -> None:
    seed, good, source, dest = drops(game)
    desk = table("desktop")
    page = desk.deal(game, seed)
    refused_drop(page, desk, source, dest)
    if game == "kansas":
        shot(page, "eleventh-1-refused-drop-kansas")
    # a legal drop goes to the server and is played
    sent, errors = watch_moves(page)
    start = centre(page, f'#board [data-src="{good.split(">")[0]}"]')
    to = good.split(">")[1] if ">" in good else "w"
    answered(page, lambda: drag(page, desk, start, centre(page, dest_selector(to))))
    assert len(sent) == 1 and page.inner_text("#error") == ""
    assert errors == [], errors


def test_1_on_a_phone_a_refused_drop_glides_back_and_says_why(
    table: Callable[..., Table],
) -> None:
    seed, _, source, dest = drops("klondike")
    desk = table("phone")
    page = desk.deal("klondike", seed)
    refused_drop(page, desk, source, dest)
    shot(page, "eleventh-1-refused-drop-phone")


def test_1_a_refused_drop_on_a_free_cell_and_on_the_foundation_says_why(
    table: Callable[..., Table],
) -> None:
    seed, _, _, _ = drops("freecell")
    desk = table("desktop")
    page = desk.deal("freecell", seed)
    position = new_game("freecell", seed=seed, variant=VARIANTS["freecell"])
    # a card that cannot go home yet, dragged to the foundation
    column = next(
        f"t{k + 1}"
        for k, each in enumerate(position.observation()["tableau"])
        if not position.is_legal(f"t{k + 1}>f")
    )
    sent, _ = watch_moves(page)
    drag(
        page,
        desk,
        centre(page, f'#board [data-src="{column}"]'),
        centre(page, '#board [data-dest="f"]'),
    )
    page.wait_for_function("document.getElementById('error').textContent !== ''")
    assert "cannot go to the foundation yet" in page.inner_text("#error")
    assert sent == []
    settled(page)
    # a free cell that holds a card takes no other
    answered(
        page,
        lambda: drag(
            page,
            desk,
            centre(page, '#board [data-src="t1"]'),
            centre(page, '#board [data-dest="c1"]'),
        ),
    )
    page.wait_for_selector('#board [data-src="c1"]')
    drag(
        page, desk, centre(page, '#board [data-src="t2"]'), centre(page, '#board [data-dest="c1"]')
    )
    page.wait_for_function("/holds the/.test(document.getElementById('error').textContent)")
    assert page.inner_text("#error").startswith("Free cell 1 holds the ")
    assert len(sent) == 1  # the first went to the server; the second did not
