"""Deals by number in a real browser: for each game that declares a numbering of its deals
(``Game.numberings``, described by ``GET /api/games``), the lobby offers a field in words
with its range for practice and relaxed play (none for a timed game), refuses a bad number
with a clear message and deals nothing, deals a good one, whose table, link and result
name it by its number; the link deals the same deal again."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page

from patience.games import GAMES
from tables import Table, end_game, settled, shot

NUMBERED = [(cls, name) for cls in GAMES.values() for name in cls.numberings]


def _columns(page: Page) -> list[list[str]]:
    """Each column's cards (their keys), first-dealt first."""
    found: list[list[str]] = page.evaluate(
        "() => [...document.querySelectorAll('#board .column')].map((column) =>"
        " [...column.querySelectorAll('.card')].map((card) => card.dataset.key))"
    )
    return found


def _lobby_refuses(page: Page, field: Any, typed: str, reason: str) -> None:
    field.fill(typed)
    page.click("#start")
    page.wait_for_function(
        "(reason) => document.querySelector('#lobby-error').textContent.includes(reason)",
        arg=reason,
    )
    assert page.is_visible("#lobby")
    assert page.locator("#board .card").count() == 0


@pytest.mark.parametrize(("cls", "name"), NUMBERED, ids=[f"{c.name}-{n}" for c, n in NUMBERED])
def test_a_deal_by_its_number_from_the_lobby_and_its_link(
    table: Callable[..., Table], cls: Any, name: str
) -> None:
    numbering = cls.numberings[name]
    number = min(numbering.first + 11_981, numbering.last)
    expected = cls.from_number(name, number)
    words = f"{numbering.title} {number}"
    view = table("desktop")
    page = view.page
    page.goto(f"{view.server}/")
    page.click(f"label[for='game-{cls.name}']")
    field = page.get_by_label(f"{numbering.title} number")
    assert not field.is_visible()  # a timed game is dealt by the server
    page.check("input[name='mode'][value='practice']")
    assert field.is_visible()
    range_words = f"{numbering.first:,} to {numbering.last:,}"
    assert field.get_attribute("placeholder") == range_words
    assert numbering.rule in page.inner_text("#numbering-rows")
    shot(page, f"numbered-deal-lobby-{cls.name}")

    # a bad number: refused in words, nothing dealt, the lobby as it was
    for typed in ("0", "abc", "1.5", str(numbering.last + 1), "-1"):
        _lobby_refuses(page, field, typed, numbering.rule)
    page.fill("#seed", "42")
    _lobby_refuses(page, field, str(number), "not both")
    page.fill("#seed", "")
    assert page.is_checked(f"#game-{cls.name}")
    assert page.is_checked("input[name='mode'][value='practice']")

    # a good one: dealt, and named by its number
    field.fill(f" {number} ")
    page.click("#start")
    page.wait_for_selector("#board .card")
    settled(page)
    assert page.inner_text("#deal") == words
    piles = expected.piles()
    assert _columns(page) == [
        [str(card) for card in piles[f"t{k}"]] for k in range(1, len(_columns(page)) + 1)
    ]
    link = page.get_attribute("#deal", "href")
    assert link is not None
    assert f"numbering={name}" in link
    assert f"number={number}" in link
    shot(page, f"numbered-deal-table-{cls.name}")
    dealt = _columns(page)

    end_game(page)
    assert page.inner_text("#result .deal-link") == words
    shot(page, f"numbered-deal-result-{cls.name}")
    # the same deal again from the result: the numbered deal, still named so
    page.click("#replay-deal")
    page.wait_for_function(
        "(words) => !document.querySelector('#result').checkVisibility()"
        " && document.querySelector('#deal').textContent === words",
        arg=words,
    )
    settled(page)
    assert _columns(page) == dealt

    # the link deals the same deal, named the same, to whoever opens it
    other = table("desktop")
    other.page.goto(f"{other.server}{link}")
    other.page.wait_for_selector("#board .card")
    settled(other.page)
    assert other.page.inner_text("#deal") == words
    assert _columns(other.page) == dealt
