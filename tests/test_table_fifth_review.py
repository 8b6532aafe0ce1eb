"""The table's fifth review (a picky player), in real headless Chromium: one test each of
its findings, each failing before its fix. A hint names the place it lights (a free cell is not a
column); on a phone the lobby's Deal is in view at the screen's foot; Continue's rows are told
apart; Hint pressed again on the same board asks the server once.

Screenshots are written to ``artifacts/screenshots/table/`` to be looked at.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from patience.games import GAMES
from tables import Table, answered, box, outside_viewport, settled, shot
from test_table_second_pass import game_code, sign_up, start_through_api

RANKS = {
    "A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
    "8": "eight", "9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king",
}  # fmt: skip
SUITS = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}


def _name(card: str) -> str:
    return f"{RANKS[card[0]]} of {SUITS[card[1]]}"


def _kind(move: str) -> str:
    """The kind of destination a move of the notation has."""
    if ">" not in move:
        return "word" if move in ("draw", "recycle") else "waste"
    dest = move.split(">")[1]
    if re.fullmatch(r"t\d+", dest):
        return "column"
    return {"f": "foundation", "h": "hand", "c": "any cell"}.get(dest, "free cell")


def _examples(server: str, game: str) -> dict[str, tuple[str, dict[str, Any]]]:
    """A move of each kind of destination the game's legal moves reach in a few random
    games played through the API, with the board it is made on."""
    found: dict[str, tuple[str, dict[str, Any]]] = {}
    chooser = random.Random(game)
    for seed in range(1, 4):
        view = httpx.post(
            f"{server}/api/sessions", json={"game": game, "mode": "practice", "seed": seed}
        ).json()
        headers = {"Authorization": f"Bearer {view['token']}"}
        for _ in range(60):
            legal = [move for move in view["legal_moves"] if move not in ("undo", "end")]
            if not legal or view["outcome"]:
                break
            for move in legal:
                kind = _kind(move)
                if kind == "column":  # a column with cards and an empty one are said apart
                    column = view["board"]["tableau"][int(move.split(">")[1][1:]) - 1]
                    kind = "column" if column["cards"] else "empty column"
                found.setdefault(kind, (move, view["board"]))
            unseen = [move for move in legal if _kind(move) not in found]
            move = chooser.choice(unseen or legal)
            view = httpx.post(
                f"{server}/api/sessions/{view['id']}/moves",
                json={"move": move, "move_count": view["move_count"]},
                headers=headers,
            ).json() | {"id": view["id"]}
    return found


def _expected(kind: str, move: str, board: dict[str, Any], layout: dict[str, Any]) -> str:
    """What the words of a move to a destination of ``kind`` must say of it."""
    dest = move.split(">")[-1]
    piles = [pile for row in layout["rows"] for pile in row.get("piles", [])]
    if kind == "column":
        return f" onto the {_name(board['tableau'][int(dest[1:]) - 1]['cards'][-1])}"
    if kind == "empty column":
        return f" to the empty column {dest[1:]}"
    if kind == "foundation":
        return f" to {layout['words'].get('foundation', 'the foundation')}"
    if kind == "free cell":
        cells = next(pile for pile in piles if pile["kind"] == "cell" and pile.get("slots"))
        return f" in {cells['name']} {dest[1:]}"
    if kind == "any cell":
        cells = next(pile for pile in piles if pile["kind"] == "cell" and pile.get("slots"))
        return f" in a {cells['name']}"
    if kind == "hand":
        hand = next(pile for pile in piles if pile["kind"] == "cell" and not pile.get("slots"))
        return f" in the {hand['name']}"
    if kind == "waste":
        return " onto the waste"
    return {"draw": "draw a card", "recycle": "turn the waste over"}[move]


# a long run (every move of every game); make test keeps each game's moves worded in its own tests
@pytest.mark.slow
def test_every_move_of_every_game_is_worded_by_its_destination(
    table: Callable[..., Table],
) -> None:
    """Each kind of move of each game of the registry, worded as a hint is: its words name
    the place it goes to (a free cell's move was once said as a move onto a column)."""
    made = table("desktop")
    page = made.page
    page.goto(f"{made.server}/")
    games = httpx.get(f"{made.server}/api/games").json()
    layouts = {game["name"]: game["layout"] for game in games}
    for game in GAMES:
        layout = layouts[game]
        examples = _examples(made.server, game)
        piles = [pile for row in layout["rows"] for pile in row.get("piles", [])]
        # every pile of the layout that takes cards is reached by some move
        needed = {
            "foundation" if pile["kind"] == "foundation"
            else ("free cell" if pile.get("slots") else "hand") if pile["kind"] == "cell"
            else "waste"
            for pile in piles
            if pile["kind"] in ("foundation", "cell") or pile.get("drop")
        }  # fmt: skip
        assert needed <= set(examples), (game, sorted(examples))
        for kind, (move, board) in examples.items():
            words: str = page.evaluate(
                """async ([move, board, game]) => {
                     await (await import("/static/games.js")).loadGames();
                     return (await import("/static/words.js")).moveWords(move, board, game);
                   }""",
                [move, board, game],
            )
            assert _expected(kind, move, board, layout) in f" {words}", (game, kind, move, words)
            if kind not in ("column", "empty column"):
                assert " column" not in words, (game, kind, move, words)


@pytest.mark.parametrize("size", ["phone", "360x640"])
def test_the_phone_lobby_s_deal_is_in_view_at_its_foot(
    table: Callable[..., Table], size: str
) -> None:
    """On a phone Deal is in view at the screen's foot on arrival (it was below the fold:
    the body, hiding its sideways overflow, was the sticky button's scroll box), and, the
    lobby scrolled to its end, covers none of the form's controls."""
    made = table(size)
    page = made.page
    page.goto(f"{made.server}/")
    # the lobby drawn whole: today's deals come after the games, below the form, and make
    # the page taller (the end scrolled to below is the page's end)
    page.wait_for_selector("#daily .daily-list li")
    page.check("#new-game input[name=mode][value=practice]")  # its deal number box shows
    assert outside_viewport(page, "#start") == []
    height = page.evaluate("innerHeight")
    assert box(page, "#start")["y"] + box(page, "#start")["height"] > height * 0.85
    assert page.evaluate(
        """() => { const r = document.querySelector('#start').getBoundingClientRect();
                   return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)
                     ?.closest('#start') !== null; }"""
    )
    page.evaluate("window.scrollTo(0, document.scrollingElement.scrollHeight)")
    page.wait_for_function(
        "Math.ceil(scrollY + innerHeight) >= document.scrollingElement.scrollHeight - 1"
    )
    covered = page.evaluate(
        """() => {
             const deal = document.querySelector('#start').getBoundingClientRect();
             const controls = [...document.querySelectorAll(
               '#new-game input, #new-game select, #new-game summary, #new-game label')];
             return controls.filter((e) => {
               const r = e.getBoundingClientRect();
               if (!r.width || !r.height) return false;
               return r.left < deal.right && deal.left < r.right
                 && r.top < deal.bottom && deal.top < r.bottom;
             }).map((e) => e.id || e.name || e.textContent.trim().slice(0, 30));
           }"""
    )
    assert covered == [], covered


def test_hint_again_on_an_unchanged_board_is_not_asked_again(
    table: Callable[..., Table],
) -> None:
    """Microsoft deal 617: Hint names the place it lights (its first hint puts a card in a
    free cell, once worded as a move onto a column); pressed again on the same board it
    shows the hint it has without asking the server (six presses once met the limit of
    hints), and once a move has changed the board it asks again."""
    made = table("desktop")
    page = made.page
    asked: list[str] = []
    page.on(
        "request", lambda request: asked.append(request.url) if "/hint" in request.url else None
    )
    page.goto(f"{made.server}/?game=freecell&numbering=microsoft&number=617")
    page.wait_for_selector("#board .card")
    settled(page)
    move = None
    for _ in range(3):  # a busy machine's solver may find none in time: asked again
        with page.expect_response(lambda response: "/hint" in response.url) as answer:
            page.click("#hint")
        move = answer.value.json()["move"]
        page.wait_for_function("!document.querySelector('#hint').disabled")
        if move:
            break
    assert move, "no hint found in three tries"
    before = len(asked)
    page.wait_for_selector("#board .hint-source")
    page.wait_for_function("document.querySelector('#error').textContent.startsWith('Hint: ')")
    words = page.inner_text("#error")
    dest = move.split(">")[1]
    if dest.startswith("c"):
        assert f" in free cell {dest[1:]}." in words, (move, words)
        assert " onto " not in words, (move, words)
    if move == "t6>c1":  # the review's hint: the queen of hearts to free cell 1
        assert words == "Hint: put the queen of hearts in free cell 1.", words
    for _ in range(5):
        page.click("#hint")
        page.wait_for_selector("#board .hint-source")
        assert page.inner_text("#error") == words
    assert len(asked) == before, asked
    page.fill("#move-input", move)
    answered(page, lambda: page.press("#move-input", "Enter"))
    with page.expect_response(lambda response: "/hint" in response.url):
        page.click("#hint")
    page.wait_for_selector("#board .hint-source")
    assert len(asked) == before + 1, asked


def test_continue_rows_are_told_apart_by_their_deal_and_progress(
    table: Callable[..., Table],
) -> None:
    """Two FreeCell practice games and a timed game in Continue: each row names its deal as
    the table's header does (a timed deal by its game's code, its seed kept secret) and how
    far it got; GET /api/me/running carries what they need, still never a card."""
    made = table("desktop")
    page = made.page
    page.goto(made.server)
    sign_up(page, "Continuer")
    numbered = {"numbering": "microsoft", "number": 617}
    first = start_through_api(
        page, {"game": "freecell", "variant": {}, "mode": "practice", "numbered": numbered}, 3
    )
    second = start_through_api(
        page, {"game": "freecell", "variant": {}, "mode": "practice", "seed": "42"}
    )
    timed = start_through_api(page, {"game": "golf", "variant": {}, "mode": "timed"}, 2)
    listed = page.evaluate("async () => (await (await fetch('/api/me/running')).json()).games")
    by_id = {game["id"]: game for game in listed}
    assert by_id[first]["numbered"]["title"] == "Microsoft deal 617"
    assert by_id[second]["seed"] == 42
    assert by_id[timed]["seed"] is None  # a timed deal's seed stays secret while it runs
    assert all(isinstance(game["cards_home"], int) for game in listed)
    assert "board" not in str(listed)
    assert not re.search(r"\b[A2-9TJQK][cdhs]\b", str(listed)), listed
    page.reload()
    page.wait_for_selector(f"#resume-list button[data-id='{first}']")
    rows = {
        game_id: page.inner_text(f"#resume-list button[data-id='{game_id}'] .continue-deal")
        for game_id in (first, second, timed)
    }

    def far(game: dict[str, Any]) -> str:
        moves = f"{game['move_count']} move{'' if game['move_count'] == 1 else 's'}"
        home = game["cards_home"]
        return f"{home} card{'' if home == 1 else 's'} home, {moves}" if home else moves

    assert rows[first] == f"Microsoft deal 617 \u00b7 {far(by_id[first])}", rows
    assert rows[second] == f"Deal 42 \u00b7 {far(by_id[second])}", rows
    assert rows[timed] == f"Game {game_code(timed)} \u00b7 {far(by_id[timed])}", rows
    assert by_id[first]["move_count"] == 3
    shot(page, "fifth-review-continue-rows")
