"""A drawn card grabbed while it still flies off the stock (a picky player's review): a press
that becomes a drag always takes the flying card, never draws again, and a press over the
waste's landing place is never the stock's. In real headless Chromium at the desktop size,
the draw's flight held still at a chosen point (so that the machine's load cannot let the
card land first).

Klondike draw 1, deal 1: the solver's line draws (its 62nd move), then plays w>t1 -- the
position the review met.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from playwright.sync_api import Page

from page_checks import WAIT
from patience.games import new_game
from patience.solve import solve
from tables import Table, box, settled, shot, waste_landing

SEED = 1


def line_to_the_draw() -> tuple[list[str], str]:
    """The solver's moves of the deal up to the draw that is followed by w>t1, and the card
    that draw turns."""
    position = new_game("klondike", seed=SEED, variant={"draw": 1})
    moves = [str(move) for move in solve(position).moves]
    at = next(k for k in range(1, len(moves)) if moves[k] == "w>t1" and moves[k - 1] == "draw")
    for move in moves[:at]:
        position.play(move)
    return moves[: at - 1], str(position.piles()["waste"][-1])


def hold_flight(page: Page, fraction: float) -> None:
    """Hold the drawn card's flight (and its turning over) still, ``fraction`` of the way."""
    page.evaluate(
        """(fraction) => {
             const card = document.querySelector('#board [data-src="w"]');
             for (const move of card.getAnimations({ subtree: true })) {
               move.pause();
               move.currentTime = move.effect.getComputedTiming().endTime * fraction;
             }
           }""",
        fraction,
    )


def seen_box(page: Page) -> dict[str, float]:
    """The drawn card's box on the screen now (its flight's transform included)."""
    return box(page, '#board [data-src="w"]')


def draw_and_hold(
    table: Callable[..., Table], fraction: float
) -> tuple[Page, str, list[str], dict[str, float]]:
    """Deal 1 played up to the draw, the stock clicked, and the drawn card's flight held
    ``fraction`` of the way: the page, the drawn card, the moves the page sends from then on
    (a list that grows) and the stock's box."""
    moves, drawn = line_to_the_draw()
    desk = table("desktop")
    page = desk.deal("klondike", SEED)
    desk.play_through_api(moves)
    sent: list[str] = []
    page.on(
        "request",
        lambda request: (
            sent.append(json.loads(request.post_data or "{}").get("move", ""))
            if request.method == "POST" and request.url.endswith("/moves")
            else None
        ),
    )
    cdp = desk.context.new_cdp_session(page)
    cdp.send("Animation.enable")
    cdp.send("Animation.setPlaybackRate", {"playbackRate": 0})
    stock = box(page, "#board [data-action]")
    page.mouse.click(stock["x"] + stock["width"] / 2, stock["y"] + stock["height"] / 2)
    page.wait_for_selector(f'#board [data-src="w"][data-card="{drawn}"].moving', timeout=WAIT)
    hold_flight(page, fraction)
    cdp.send("Animation.setPlaybackRate", {"playbackRate": 1})
    return page, drawn, sent, stock


@pytest.mark.parametrize(
    ("where", "fraction"),
    [
        ("seen", 0.0),  # on the card still over the stock
        ("seen", 0.3),
        ("seen", 0.8),  # on the card near its landing
        ("stock", 0.8),  # on the stock the card has left
        ("landing", 0.0),  # where the card lands
        ("landing", 0.3),
    ],
)
def test_a_drag_from_a_drawn_card_in_flight_takes_it(
    table: Callable[..., Table], where: str, fraction: float
) -> None:
    page, drawn, sent, stock = draw_and_hold(table, fraction)
    if where == "seen":
        card = seen_box(page)
    elif where == "landing":
        card = waste_landing(page)
    else:
        card = stock
    x, y = card["x"] + card["width"] / 2, card["y"] + min(12, card["height"] / 2)
    column = box(page, '#board .column[data-dest="t1"]')
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 8, y + 12, steps=2)
    page.mouse.move(column["x"] + column["width"] / 2, column["y"] + column["height"] - 10, steps=6)
    page.mouse.up()
    page.wait_for_selector(
        f'#board .column[data-dest="t1"] .card:last-child[data-card="{drawn}"]', timeout=WAIT
    )
    settled(page)
    shot(page, f"flying-grab-{where}-{fraction}")
    assert sent == ["draw", "w>t1"], sent
    assert page.inner_text("#error") == ""


@pytest.mark.parametrize("fraction", [0.0, 0.3])
def test_a_click_where_a_drawn_card_lands_never_draws(
    table: Callable[..., Table], fraction: float
) -> None:
    """A click on the waste's landing place while the card flies is the card's (a click
    plays it where it fits: w>t1), never the stock's."""
    page, drawn, sent, _ = draw_and_hold(table, fraction)
    landed = waste_landing(page)
    page.mouse.click(landed["x"] + landed["width"] / 2, landed["y"] + 12)
    page.wait_for_selector(
        f'#board .column[data-dest="t1"] .card:last-child[data-card="{drawn}"]', timeout=WAIT
    )
    settled(page)
    assert sent == ["draw", "w>t1"], sent
