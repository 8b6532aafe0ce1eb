"""Whole games won by keys alone: Kansas, Solitaire Expert and FreeCell (Klondike's is in
tests/test_table.py, Golf's in tests/test_browser.py): Tab to the board, the arrow keys to a
card, Enter to pick it and Enter where it goes (Enter twice sends it home), d to draw; each
move of the solver's winning line, the score checked against the engine of record's after
every move."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page

from patience.games import Game, new_game
from patience.solve import solve
from tables import LINKS, Table, answered, focus_on, settled, shot

SEEDS = {"kansas": 1014, "expert": 1, "freecell": 3}


def _tab_to_the_board(page: Page) -> None:
    for _ in range(15):
        page.keyboard.press("Tab")
        if page.evaluate("document.getElementById('board').contains(document.activeElement)"):
            return
    raise AssertionError("Tab never reaches the board")


def _source(mirror: Game, move: str) -> str:
    """The data-src of the card ``move`` picks up on the board the player sees: a column's
    run is picked by its first card (its exposed card by the column's place alone): the
    first card the move takes from the column (or, for a last move after which the game
    played itself out, the one card of the column the rules let go there)."""
    source, dest = move.split(">")
    if not source.startswith("t"):
        return source  # w, r, h:Qs
    place, _, named = source.partition(":")
    index = int(place[1:]) - 1
    cards = mirror.observation()["tableau"][index]["cards"]
    if named:  # a card named (where two of a column's runs fit): its own, or the column's
        return place if named == cards[-1] else source
    after = mirror.copy()
    after.play(move)
    if dest in ("f", "h"):
        head = cards[-1]
    elif not after.is_over():
        left = after.observation()["tableau"][index]["cards"]  # (a refill may follow)
        kept = 0
        while kept < min(len(cards), len(left)) and cards[kept] == left[kept]:
            kept += 1
        head = cards[kept]
    else:
        head = next(c for c in cards if mirror.is_legal(f"{place}:{c}>{dest}"))
    return place if head == cards[-1] else f"{place}:{head}"


def _play_by_keys(page: Page, mirror: Game, move: str) -> None:
    if move == "draw":
        answered(page, lambda: page.keyboard.press("d"))
        return
    dest = move.split(">")[1]
    focus_on(page, f'#board [data-src="{_source(mirror, move)}"]')
    page.keyboard.press("Enter")  # picked
    if dest == "f":
        answered(page, lambda: page.keyboard.press("Enter"))  # Enter again: home
        return
    if dest == "h":  # Solitaire Expert's hand: one of its cards, or the empty hand
        target = "#board .hand [data-src]"
        focus_on(page, target if page.locator(target).count() else '#board [data-dest="h"]')
    elif dest.startswith("c"):  # a free cell, a place of its own (c1..c4)
        focus_on(page, f'#board [data-dest="{dest}"]')
    else:
        column = f'#board .column[data-dest="{dest}"]'
        target = f"{column} .card:last-child"
        focus_on(page, target if page.locator(target).count() else column)
    answered(page, lambda: page.keyboard.press("Enter"))  # placed


@pytest.mark.slow
@pytest.mark.parametrize("game", list(SEEDS))
def test_a_whole_game_won_by_keys_alone(table: Callable[..., Table], game: str) -> None:
    seed = SEEDS[game]
    desk = table("desktop", reduced_motion="reduce")
    desk.page.goto(f"{desk.server}/?{LINKS[game]}&seed={seed}")
    page = desk.page
    page.wait_for_selector("#board .card")
    settled(page)
    _tab_to_the_board(page)
    line = solve(new_game(game, seed=seed), time_limit=10.0).moves
    assert line, "the solver wins this deal"
    mirror = new_game(game, seed=seed)
    for move in line:
        if mirror.is_over():
            break
        _play_by_keys(page, mirror, move)
        mirror.play(move)
        if not mirror.is_over():
            assert page.inner_text("#score") == str(mirror.score()), move
    page.wait_for_selector("#result:not([hidden])", timeout=15_000)
    assert page.inner_text("#result-title") == "You won!"
    shot(page, f"{game}-won-by-keys")
