"""A guest is asked to sign in to play a daily deal, in real headless Chromium: each
player plays a daily deal once, for the standing, and a guest's games could not be
counted (played again and again, they would show the day's cards before a game for the
standing). The lobby, the list of daily deals and a deal's own page offer the way to sign
in where a signed-in player has Play."""

from __future__ import annotations

from collections.abc import Callable

from tables import Table, shot
from test_table_review import rated, rated_server, sign_up

__all__ = ["rated", "rated_server"]  # the fixtures, shared with the review's tests


def test_a_guest_is_offered_the_way_to_sign_in_not_play(rated: Callable[..., Table]) -> None:
    desk = rated("desktop")
    page = desk.page
    page.goto(f"{desk.server}/")  # the lobby
    page.wait_for_selector("#daily .daily-list li")
    assert page.locator("#daily button[data-daily]").count() == 0
    invites = page.locator("#daily a.sign-in-to-play")
    assert invites.count() >= 4
    assert invites.first.inner_text() == "Sign in to play"
    assert invites.first.get_attribute("href") == "#/account"
    assert "Signed-in players play each once" in page.inner_text("#daily")
    shot(page, "daily-guest-lobby-desktop")
    page.goto(f"{desk.server}/#/daily")
    page.wait_for_selector("#daily-today li")
    assert page.locator("#daily-today button.daily-play").count() == 0
    assert page.locator("#daily-today a.daily-sign-in").count() >= 4
    page.goto(f"{desk.server}/#/daily/golf/%7B%22wrap%22%3Afalse%7D")
    page.wait_for_selector("#daily-mine")
    assert page.locator("#daily-play").count() == 0
    words = page.inner_text("#daily-sign-in")
    assert "Sign in to play today's deal" in words
    assert "each player plays it once" in words
    page.click("#daily-sign-in a")
    page.wait_for_selector("#signup-name")
    # signed in, the same deal offers Play
    sign_up(desk, "Daily Guest")
    page.goto(f"{desk.server}/#/daily/golf/%7B%22wrap%22%3Afalse%7D")
    page.wait_for_selector("#daily-play")
    assert page.locator("#daily-sign-in").count() == 0
