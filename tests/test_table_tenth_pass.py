"""The table's tenth pass, after a picky player's review: the history's rows on a phone, the
words spoken for a move, the messages that fade, a tournament short of deals, and the header
at 1024 px, in real headless Chromium.

1. On a phone, where the history's rows become blocks of "label: value" lines, a cell with
   nothing to show (a relaxed game's score) reads "—", and every value keeps its label.
2. The words spoken for a move name every card it turned up; the automatic play-out's
   words name what it finished.
3. A message of the status bar (a tap with no move) fades after a few seconds; its words
   stay in the live region for a screen reader.
4. A tournament refused for want of deals says where the number of deals comes from and
   what can be done, without promising a time it cannot keep (its wait is the refill's
   measured rate's, or unknown yet).
5. At 1024 px the header's words are not cut.

Screenshots are written to ``artifacts/screenshots/table/`` to be looked at.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser

from page_checks import WAIT
from tables import (
    VARIANTS,
    Table,
    answered,
    focus_board,
    focus_on,
    operator_creating,
    refill_server_at,
    screens,
    shot,
)

# -- 1. the history's rows on a phone keep every label beside its value ------------------------


def test_1_a_relaxed_games_history_row_keeps_its_labels_on_a_phone(
    table: Callable[..., Table],
) -> None:
    desk = table("phone")
    page = desk.page
    page.goto(desk.server)
    page.wait_for_selector("#game-choice input")
    page.evaluate(
        """async (klondike) => {
             const { accounts, api } = await import('/static/api.js');
             await accounts.signUp('Tenth1', 'correct horse battery');
             const timed = await api.start({ game: 'klondike', variant: klondike, mode: 'timed' });
             await api.end(timed.id, timed.token, 0);
             const relaxed = await api.start({ game: 'klondike', variant: klondike,
                                               mode: 'relaxed' });
             await api.end(relaxed.id, relaxed.token, 0);
           }""",
        VARIANTS["klondike"],
    )
    page.goto(f"{desk.server}/#/history")
    page.wait_for_selector("#history tbody tr td")
    rows = page.locator("#history tbody tr")
    assert rows.count() == 2
    for k in range(2):
        # each cell's value: its text and the box of its contents (after its label)
        cells = page.evaluate(
            """(row) => [...row.querySelectorAll('td')].map((td) => {
                 const range = document.createRange();
                 range.selectNodeContents(td);
                 const r = range.getBoundingClientRect();
                 return { label: td.dataset.label, text: td.innerText.trim(),
                          left: r.left, top: r.top, width: r.width };
               })""",
            rows.nth(k).element_handle(),
        )
        labels = ["Date", "Game", "Deal", "Tier", "Result", "Score", "Time", "Replay"]
        assert [cell["label"] for cell in cells] == labels
        for cell in cells:
            assert cell["text"], cells  # no cell is left empty
            assert cell["width"] > 0, cells
        # every value in the values' column, each on a line of its own, in order
        lefts = {round(cell["left"]) for cell in cells}
        assert len(lefts) == 1, cells
        tops = [cell["top"] for cell in cells]
        assert tops == sorted(tops), cells
        assert len(set(tops)) == len(tops), cells
        game = next(cell["text"] for cell in cells if cell["label"] == "Game")
        score = next(cell["text"] for cell in cells if cell["label"] == "Score")
        if "(relaxed)" in game:
            assert score == "\u2014", cells
        else:
            assert score.isdigit(), cells
    shot(page, "tenth-1-history-phone")


# -- 2. the words spoken for a move name the cards it turned up --------------------------------


def test_2_a_moves_words_name_the_card_it_turned_up(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    page = desk.deal("klondike", 1)  # the jack of clubs (column 3) over the three of spades
    focus_board(page)
    focus_on(page, '#board [data-card="Jc"]')
    page.keyboard.press("Enter")
    page.wait_for_selector('#board [data-card="Jc"].picked')
    focus_on(page, '#board [data-card="Qh"]')
    answered(page, lambda: page.keyboard.press("Enter"))
    said = page.inner_text("#announce")
    assert said.startswith("Moved the jack of clubs onto the queen of hearts"), said
    assert said.endswith("; turned up the three of spades"), said
    # the play-out's words: its one card, or how many and the last of them
    words = page.evaluate(
        """async () => {
             const { playedWords } = await import('/static/words.js');
             const board = { tableau: [{ hidden: 0, cards: ['Kh'] }] };
             const step = (card) => ({ move: 't1>f', points: 10, card });
             const last = (auto) => ({ move: 'draw', total_points: 0, auto });
             return [playedWords(last([step('Kh')]), board, board, 'klondike'),
                     playedWords(last([step('Qs'), step('Kh')]), board, board, 'klondike')];
           }"""
    )
    assert words[0].endswith("; the king of hearts went home by itself"), words
    two = "; 2 cards went home by themselves, the last the king of hearts"
    assert words[1].endswith(two), words


# -- 3. a message fades after a few seconds, its words kept for a screen reader ----------------

FADED = "getComputedStyle(document.querySelector('#error')).opacity === '0'"


def test_3_a_message_fades_and_its_words_stay_for_a_screen_reader(
    table: Callable[..., Table],
) -> None:
    desk = table("phone")
    page = desk.deal("klondike", 1)  # the four of diamonds (column 2) has no move
    page.tap('#board [data-src="t2"]')
    page.wait_for_selector('#board [data-src="t2"].shaken', timeout=WAIT)
    words = page.inner_text("#error")
    assert words.startswith("No move for the four of diamonds"), words
    assert page.is_visible("#error")
    assert not page.evaluate(FADED)
    assert words in page.inner_text("#announce")
    shot(page, "tenth-3-message-shown")
    # gone from sight within a few seconds (more than long enough on a busy machine) ...
    page.wait_for_function(FADED, timeout=30_000)
    shot(page, "tenth-3-message-faded")
    # ... its words still in the page and in the live region
    assert page.text_content("#error") == words
    assert words in page.inner_text("#announce")
    # the next message shows again
    page.tap('#board [data-src="t2"]')
    page.wait_for_function(f"!({FADED})")


# -- 4. a tournament short of deals: where the number comes from, and how long ---------------


@pytest.fixture(scope="module")
def refill_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server with an operator (Opal), an empty catalog and its refill on."""
    yield from refill_server_at(tmp_path_factory.mktemp("refill") / "games.sqlite3")


def test_4_a_tournament_short_of_deals_says_why_so_many_and_how_long(
    chromium: Browser, refill_server: str
) -> None:
    desk = operator_creating(chromium, refill_server)
    page = desk.page
    page.fill("#create-name", "Golf of tier 4")
    page.select_option("#create-game", "golf")
    page.select_option("#create [name='option:wrap']", "false")
    page.select_option("#create-policy", "tier")
    page.fill("#create [name=tier]", "4")
    page.fill("#create [name=attempts]", "5")
    page.fill("#create [name=max_entrants]", "100")
    page.click("#create button[type=submit]")
    page.wait_for_selector("#create-error:not(:empty)", timeout=WAIT)
    said = page.inner_text("#create-error")
    shot(page, "tenth-4-tournament-short")
    assert said.startswith("Not enough Golf deals of tier 4 are ready for this tournament"), said
    # where 500 comes from, and what lowers it
    assert "it needs 500, one for each attempt of each entrant" in said, said
    assert "5 attempts \u00d7 100 entrants at most" in said, said
    assert "Fewer attempts or fewer entrants at most need fewer deals" in said, said
    assert "one deal shared by every entrant needs one" in said, said
    # an honest wait: about ten deals made for each of tier 4, at the rate this server
    # measured for Golf's deals (tests/test_refill_rates.py), or unknown yet: no constant
    assert "about 5000 made" in said, said
    if "Golf deals a minute (measured over its last" in said:
        assert "At that rate the 5000 to make take roughly" in said, said
    else:
        assert "How long the 5000 to make take is unknown yet" in said, said
    assert "a second of solver time" not in said, said
    assert "in a minute" not in said, said
    desk.close()


# -- 5. the header's words fit at 1024 px ----------------------------------------------------


@pytest.mark.parametrize("size", screens("1024x768", among=["1024x768", "desktop"]))
def test_5_the_headers_words_fit_at_1024(table: Callable[..., Table], size: str) -> None:
    desk = table(size)
    page = desk.page
    page.goto(desk.server)
    page.wait_for_selector("#game-choice input")
    # signed in: the menu holds every page and the player's name
    page.evaluate(
        """async (name) => { const { accounts } = await import('/static/api.js');
                             await accounts.signUp(name, 'correct horse battery'); }""",
        f"Tenth5{size.replace('x', '')}",  # a longish name (a longer one ends in "…")
    )
    page = desk.deal("klondike", 1)
    page.wait_for_selector("#nav a.who")
    shot(page, f"tenth-5-header-{size}")
    # no word of the header cut short, nor hidden under another
    cut = page.evaluate(
        """() => [...document.querySelectorAll('.bar h1, #nav > *, #status > *:not([hidden])')]
             .filter((e) => e.clientWidth > 0 && (e.scrollWidth > e.clientWidth + 1
                                                  || e.scrollHeight > e.clientHeight + 1))
             .map((e) => `${e.id || e.className}: ${e.textContent}`)"""
    )
    assert cut == [], cut
    title = page.inner_text("#title")
    assert "practice" in title, title
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('.bar h1, #nav > *, #status > *:not([hidden])')]
             .map((e) => e.getBoundingClientRect())
             .filter((r) => r.width > 0 && r.height > 0)
             .map((r) => [r.left, r.top, r.right, r.bottom])"""
    )
    for k, a in enumerate(boxes):
        for b in boxes[k + 1 :]:
            apart = a[2] <= b[0] + 1 or b[2] <= a[0] + 1 or a[3] <= b[1] + 1 or b[3] <= a[1] + 1
            assert apart, (a, b)
    width = page.evaluate("innerWidth")
    assert all(a[2] <= width for a in boxes), boxes
