"""The move box at the table, in a real browser: its placeholder is each game's own example
of its notation (``layout.words.move_example`` from ``GET /api/games``), for every game in
the registry, and a move typed there is played."""

from __future__ import annotations

from collections.abc import Callable

from patience.games import GAMES
from tables import LINKS, Table, answered, settled


def test_each_game_s_move_box_shows_its_own_example(table: Callable[..., Table]) -> None:
    view = table("desktop")
    page = view.page
    for name, cls in GAMES.items():
        example = cls.layout["words"]["move_example"]
        page.goto(f"{view.server}/?{LINKS[name]}&seed=3")
        page.wait_for_selector("#board .card")
        settled(page)
        assert page.get_attribute("#move-input", "placeholder") == example, name
        # the whole example shows in the box
        fits = page.evaluate(
            "() => { const box = document.querySelector('#move-input');"
            " const probe = document.createElement('span');"
            " probe.style.font = getComputedStyle(box).font;"
            " probe.style.position = 'absolute'; probe.textContent = box.placeholder;"
            " document.body.append(probe); const wide = probe.offsetWidth; probe.remove();"
            " return wide <= box.clientWidth; }"
        )
        assert fits, name
        legal = [
            str(move) for move in cls.from_seed(3, GAMES[name].check_variant({})).legal_moves()
        ]
        page.fill("#move-input", legal[0])
        answered(page, lambda: page.press("#move-input", "Enter"))
