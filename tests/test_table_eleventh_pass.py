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
from tables import VARIANTS, Table, answered, finger_drag, screens, settled, shot

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
    finger_drag(table.context, page, start, end)


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
    assert len(sent) == 1
    assert page.inner_text("#error") == ""
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


# -- 2. the root opens the lobby; Back and Forward walk the pages visited -----------------------


def table_game(page: Page) -> str:
    """The id of the game on the table, as its address names it."""
    page.wait_for_function("new URLSearchParams(location.search).get('session') !== null")
    settled(page)
    found: str = page.evaluate("new URLSearchParams(location.search).get('session')")
    return found


def test_2_the_root_opens_the_lobby_with_continue(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    page = desk.deal("klondike", 5)
    game = table_game(page)
    page.goto(desk.server)
    page.wait_for_selector(f'#resume-list button.continue[data-id="{game}"]')
    assert page.is_visible("#lobby")
    assert not page.is_visible("#table")
    # its Continue opens it
    page.click("#resume-list button.continue")
    page.wait_for_selector("#board .card")
    assert table_game(page) == game


@pytest.mark.parametrize("size", screens("phone", among=["phone"]))
def test_2_back_and_forward_walk_the_pages_visited(table: Callable[..., Table], size: str) -> None:
    desk = table(size)
    page = desk.page
    first = table_game(desk.deal("golf", 2))
    page.goto(f"{desk.server}/#/tournaments")
    page.wait_for_selector("#page h2")
    second = table_game(desk.deal("klondike", 3))
    page.evaluate("location.hash = '#/daily'")
    page.wait_for_selector("#page h2")
    steps = [
        ("back", lambda: table_game(page) == second and page.is_visible("#board")),
        ("back", lambda: page.evaluate("location.hash") == "#/tournaments"),
        ("back", lambda: table_game(page) == first and page.is_visible("#board")),
        ("forward", lambda: page.evaluate("location.hash") == "#/tournaments"),
        ("forward", lambda: table_game(page) == second and page.is_visible("#board")),
    ]
    for way, there in steps:
        page.go_back() if way == "back" else page.go_forward()
        page.wait_for_load_state()
        page.wait_for_function("document.readyState === 'complete'")
        if "#/" not in page.url:
            page.wait_for_selector("#board .card")
        else:
            page.wait_for_selector("#page h2")
        assert there(), (way, page.url)


# -- 3. a bad link says which setting is wrong, by the game's name -----------------------------


BAD_LINKS = [
    ("game=klondike&draw=9&seed=3", "Solitaire Rush", "Draw must be 1 or 3."),
    ("game=golf&wrap=maybe", "Golf", "Wrap must be false or true."),
    (
        "game=kansas&draw=3",
        "Kansas",
        "Kansas has no settings: the link names one it does not have.",
    ),
    (
        "game=klondike&drew=3",
        "Solitaire Rush",
        "a setting Solitaire Rush does not have: its setting is Draw.",
    ),
    (
        "game=expert&seed=abc",
        "Solitaire Expert",
        "The deal number (seed) must be a whole number from 0 to 9,223,372,036,854,775,807.",
    ),
    ("game=freecell&seed=-4", "FreeCell", "The deal number (seed) must be a whole number"),
    (
        "game=freecell&numbering=microsoft&number=0",
        "FreeCell",
        "Microsoft deals are numbered 1 to 2,147,483,647.",
    ),
    ("game=klondike&mode=timed", "Solitaire Rush", "Mode must be practice or relaxed"),
    (
        "game=solitaire",
        "game",
        "The link names no game there is: the games are Solitaire Rush, Golf",
    ),
]


@pytest.mark.parametrize("size", screens("desktop", "phone", among=["desktop", "phone"]))
def test_3_a_bad_link_says_which_setting_is_wrong_in_plain_words(
    table: Callable[..., Table], size: str
) -> None:
    desk = table(size)
    page = desk.page
    sent: list[str] = []
    page.on(
        "request",
        lambda r: sent.append(r.url) if r.method == "POST" and "/api/sessions" in r.url else None,
    )
    for query, title, words in BAD_LINKS:
        page.goto(f"{desk.server}/?{query}")
        page.wait_for_selector("#missing-words")
        assert page.inner_text("#page h2") == f"This {title} link cannot be dealt"
        said = page.inner_text("#missing-words")
        assert words in said, said
        assert "option" not in page.inner_text("#page")  # the player's words: settings
        # nothing of the link is said back (a link could carry anyone's words)
        assert not any(held in said for held in ["9.", "maybe", "drew", "abc", "-4", "solitaire"])
    # as a route too, and the way to the lobby is a link
    page.goto(f"{desk.server}/#/play/klondike?draw=9")
    page.wait_for_selector("#missing-words")
    assert page.inner_text("#page h2") == "This Solitaire Rush link cannot be dealt"
    shot(page, f"eleventh-3-bad-link-{size}")
    page.click("#page a.to-lobby")
    page.wait_for_selector("#lobby #game-choice input")
    assert page.is_visible("#lobby")
    assert page.evaluate("location.hash") == ""
    assert sent == [], sent  # refused before asking the server
    # a good link as a route deals its game
    page.goto(f"{desk.server}/#/play/klondike?draw=3&seed=7")
    page.wait_for_selector("#board .card")
    assert "draw 3" in page.inner_text("#title")


# -- 4. a tournament, a replay or a page there is none of --------------------------------------


def test_4_a_missing_tournament_replay_or_page_says_so(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    page = desk.page
    for route, heading, link in [
        ("#/tournaments/xyz", "No tournament xyz", "#/tournaments"),
        ("#/tournaments/x.y", "No tournament x.y", "#/tournaments"),
        ("#/watch/abc123", "No replay of game abc123", "#/tournaments"),
        ("#/replay/abc123", "No replay of game abc123", "#/account"),  # a guest: sign in
        ("#/daily/2099-01-01", "No such daily deal", "#/daily"),
        ("#/nowhere", "No such page", "/"),
    ]:
        page.goto(f"{desk.server}/{route}")
        # this route's page, not the last one's still shown (a route of the same page is
        # drawn once its hashchange comes, after the address changed; a game to watch and a
        # game to replay missing have the same heading, and different links)
        page.wait_for_function(
            """([h, link]) => document.querySelector('#page h2')?.textContent === h
                 && document.querySelector(`#page .missing-links a[href="${link}"]`) !== null""",
            arg=[heading, link],
        )
        assert page.locator(f'#page .missing-links a[href="{link}"]').count() == 1
        assert page.locator("#page .missing-links a.to-lobby").count() == 1
        if route == "#/tournaments/xyz":
            shot(page, "eleventh-4-no-tournament")
        if route == "#/replay/abc123":  # player's words, not the API's
            said = page.inner_text("#missing-words")
            assert "sign in to see the replays of your games" in said, said
            assert "Authorization" not in said
    page.goto(f"{desk.server}/#/tournaments/xyz")
    page.wait_for_selector("#page .missing-links")
    page.click('#page a[href="#/tournaments"]')
    page.wait_for_function("location.hash === '#/tournaments'")
    # the list of tournaments (the missing one's page stays until the hashchange is handled)
    page.wait_for_function("document.querySelector('#page h2')?.textContent === 'Tournaments'")
