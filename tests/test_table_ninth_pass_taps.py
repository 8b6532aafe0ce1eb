"""The table's ninth pass, after a picky player's review (who plays Microsoft's collection
daily): taps, the keyboard's arrows and the lobby's messages, in real headless Chromium.

1. A tap on a card with no move shakes it and says why; nothing stays picked, and the next
   tap plays its own card. A card picked by keys, then a tap on a card that cannot take it
   but has a move of its own: that card is played.
2. FreeCell's tap plays a card home, else to a column, else to a free cell (Solitaire
   Expert's to its hand); a card picked by keys does not stop a tap sending another home.
3. Up and down from a column's card stay in its column, in every game.
4. The statistics' headline is the timed games' record; practice and relaxed games are
   counted apart, each named; a relaxed game ended without a win reads "Ended".
5. A message shown for a bad link is gone once the page shows another view.
6. A tournament refused for want of deals says so plainly to its operator: the server's
   refill makes them first, and the tournament is made once they are there.

Screenshots are written to ``artifacts/screenshots/table/`` to be looked at.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, Page

from page_checks import WAIT
from patience.games import GAMES, new_game
from patience.games.expert import Expert
from patience.solve import solve
from tables import (
    LINKS,
    SIZES,
    VARIANTS,
    Table,
    answered,
    focus_on,
    operator_creating,
    refill_server_at,
    settled,
    shot,
)


def refusals(page: Page) -> list[str]:
    """The server's refusals of moves the page sends from now on (their addresses)."""
    refused: list[str] = []
    page.on(
        "response",
        lambda r: refused.append(r.url) if r.status == 409 and r.url.endswith("/moves") else None,
    )
    return refused


def top_of(page: Page, place: str) -> str | None:
    """The card on top of the column or pile ``place`` (a data-dest), or None."""
    found: str | None = page.evaluate(
        """(place) => [...document.querySelectorAll(`#board [data-dest="${place}"] .card`)]
             .filter((card) => !card.classList.contains('under')).at(-1)?.dataset.card ?? null""",
        place,
    )
    return found


def picked(page: Page) -> int:
    return page.locator("#board .picked").count()


def shaken(page: Page, src: str) -> None:
    """Wait until the card at ``src`` has been shaken."""
    page.wait_for_selector(f'#board [data-src="{src}"].shaken', timeout=WAIT)


# -- 1. a card with no move shakes, and the next tap plays its own card ------------------------


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_1_a_card_with_no_move_shakes_and_the_next_tap_plays_its_card(
    table: Callable[..., Table], size: str
) -> None:
    desk = table(size)
    page = desk.deal("klondike", 1)  # column 1: the ace of hearts; column 2: the 4 of diamonds
    refused = refusals(page)
    press = page.tap if SIZES[size][2] else page.click
    assert top_of(page, "t2") == "4d"
    assert top_of(page, "t1") == "Ah"
    version = page.get_attribute("#board", "data-version")
    press('#board [data-src="t2"]')
    shaken(page, "t2")
    said = page.inner_text("#error")
    assert said.startswith("No move for the four of diamonds:"), said
    assert "fits on no column" in said, said
    assert said in page.inner_text("#announce")  # spoken too
    assert picked(page) == 0  # nothing held
    assert page.get_attribute("#board", "data-version") == version  # nothing sent
    shot(page, f"ninth-1-no-move-{size}")
    # the next tap plays its own card: the ace goes home
    answered(page, lambda: press('#board [data-src="t1"]'))
    assert top_of(page, "t1") is None
    assert page.locator('#board .pile[data-dest="f"] .card[data-card="Ah"]').count() == 1
    assert refused == []
    assert picked(page) == 0


def test_1_the_king_then_the_jack_of_seed_7_are_each_refused_on_their_own(
    table: Callable[..., Table],
) -> None:
    desk = table("desktop")
    page = desk.deal("klondike", 7)  # no move on the board: the king of spades, the jack
    refused = refusals(page)
    page.click('#board [data-src="t1"]')
    shaken(page, "t1")
    assert "king of spades" in page.inner_text("#error")
    page.click('#board [data-src="t2"]')
    shaken(page, "t2")
    said = page.inner_text("#error")
    assert said.startswith("No move for the jack of clubs"), said
    assert "column 1" not in said  # not read as the king put on the jack
    assert refused == []
    assert picked(page) == 0


def test_1_a_card_picked_by_keys_then_a_tap_on_a_card_with_a_move_plays_that_card(
    table: Callable[..., Table],
) -> None:
    desk = table("desktop")
    page = desk.deal("klondike", 1)  # the jack of clubs (column 3) fits on the queen (6)
    refused = refusals(page)
    focus_on(page, '#board [data-src="t3"]')
    page.keyboard.press("Enter")
    page.wait_for_selector('#board [data-src="t3"].picked')
    # a tap on the ace: it cannot take the jack, and it goes home itself
    answered(page, lambda: page.click('#board [data-src="t1"]'))
    assert page.locator('#board .pile[data-dest="f"] .card[data-card="Ah"]').count() == 1
    assert top_of(page, "t3") == "Jc"
    assert picked(page) == 0
    # picked again, and a tap on a place that takes it: it goes there
    focus_on(page, '#board [data-src="t3"]')
    page.keyboard.press("Enter")
    page.wait_for_selector('#board [data-src="t3"].picked')
    answered(page, lambda: page.click('#board .column[data-dest="t6"] .card:last-child'))
    assert top_of(page, "t6") == "Jc"
    assert refused == []


def test_1_enter_on_a_card_with_no_move_says_why_and_picks_nothing(
    table: Callable[..., Table],
) -> None:
    desk = table("desktop")
    page = desk.deal("klondike", 1)
    focus_on(page, '#board [data-src="t2"]')
    page.keyboard.press("Enter")
    shaken(page, "t2")
    assert page.inner_text("#error").startswith("No move for the four of diamonds")
    assert picked(page) == 0


# -- 2. FreeCell's tap: home, else a column, else a free cell ----------------------------------


def test_2_a_freecell_tap_plays_home_else_a_column_else_a_free_cell(
    table: Callable[..., Table],
) -> None:
    desk = table("desktop")
    page = desk.deal("freecell", 5)  # 9 of diamonds on column 3, the ace of hearts on 8
    refused = refusals(page)
    assert top_of(page, "t3") == "9d"
    assert top_of(page, "t8") == "Ah"
    answered(page, lambda: page.click('#board [data-src="t3"]'))  # no home, no column
    assert top_of(page, "c1") == "9d"
    assert picked(page) == 0
    answered(page, lambda: page.click('#board [data-src="t8"]'))  # home
    assert page.locator('#board .pile[data-dest="f"] .card[data-card="Ah"]').count() == 1
    assert top_of(page, "t8") == "2h"
    shot(page, "ninth-2-freecell-taps")
    # a card picked by keys does not keep a tap from sending another card home
    focus_on(page, '#board [data-src="t2"]')
    page.keyboard.press("Enter")
    page.wait_for_selector('#board [data-src="t2"].picked')
    answered(page, lambda: page.click('#board [data-src="t8"]'))  # the 2 of hearts
    assert page.locator('#board .pile[data-dest="f"] .card[data-card="2h"]').count() == 1
    assert refused == []
    assert picked(page) == 0


def test_2_an_expert_tap_plays_a_card_with_no_other_move_to_the_hand(
    table: Callable[..., Table],
) -> None:
    # a deal where, its hand's cards that go home played, a column's exposed card goes
    # neither home nor on a column, but to the hand
    for seed in range(1, 200):
        game = Expert.from_seed(seed)
        home: list[str] = []
        while (
            move := next(
                (
                    str(m)
                    for m in game.legal_moves()
                    if str(m).startswith("h:") and str(m).endswith(">f")
                ),
                None,
            )
        ) is not None:
            game.play(move)
            home.append(move)
        legal = [str(move) for move in game.legal_moves()]
        column = next(
            (
                k
                for k in range(1, 11)
                if f"t{k}>h" in legal
                and f"t{k}>f" not in legal
                and not any(m.startswith((f"t{k}>t", f"t{k}:")) for m in legal)
            ),
            None,
        )
        if column is not None:
            break
    else:
        pytest.fail("no deal of 1-199 has a card whose only move is to the hand")
    card = str(game.piles()[f"t{column}"][-1])
    desk = table("desktop")
    page = desk.deal("expert", seed)
    desk.play_through_api(home)
    answered(page, lambda: page.click(f'#board [data-src="t{column}"]'))
    assert page.locator(f'#board [data-src="h:{card}"]').count() == 1
    assert picked(page) == 0


# -- 3. up and down stay in a column -----------------------------------------------------------


def test_3_down_at_the_foot_of_a_freecell_column_stays_there(
    table: Callable[..., Table],
) -> None:
    desk = table("desktop")
    page = desk.deal("freecell", 5)
    focus_on(page, '#board [data-dest="f"]:last-of-type')
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.dataset.src") == "t8"  # the ace of hearts
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.dataset.src") == "t8"  # not column 4's 3


@pytest.mark.parametrize("game", sorted(GAMES))
def test_3_up_and_down_from_a_column_never_land_in_another_column(
    table: Callable[..., Table], game: str
) -> None:
    desk = table("desktop")
    page = desk.deal(game, 5)
    columns = page.locator("#board .column").count()
    for k in range(1, columns + 1):
        foot = f'#board .column[data-dest="t{k}"] .stop:last-child'
        if not page.locator(foot).count():
            continue
        for key in ("ArrowDown", "ArrowUp"):
            page.focus(foot)
            for _ in range(3):
                page.keyboard.press(key)
                there = page.evaluate(
                    "document.activeElement.closest('.column')?.dataset.dest ?? null"
                )
                assert there in (f"t{k}", None), (game, k, key, there)


# -- 4. the statistics' headline is the timed record; practice and relaxed apart --------------


def fact(page: Page, term: str) -> str:
    """The figure of the statistics' totals named ``term``."""
    found: str = page.evaluate(
        """(term) => [...document.querySelectorAll('#totals dt')]
             .find((dt) => dt.textContent === term)?.nextElementSibling.textContent ?? null""",
        term,
    )
    return found


def test_4_the_totals_head_with_the_timed_record_and_count_the_rest_apart(
    table: Callable[..., Table],
) -> None:
    desk = table("desktop")
    page = desk.page
    page.goto(desk.server)
    page.wait_for_selector("#game-choice input")
    line = list(solve(new_game("klondike", seed=2, variant=VARIANTS["klondike"])).moves)
    page.evaluate(
        """async ([line, klondike]) => {
             const { accounts, api } = await import('/static/api.js');
             await accounts.signUp('Ninth4', 'correct horse battery');
             const timed = await api.start({ game: 'golf', variant: {}, mode: 'timed' });
             await api.end(timed.id, timed.token, 0);
             for (let k = 0; k < 3; k++) {  // three practice deals won
               let answer = await api.start({ game: 'klondike', variant: klondike,
                                              mode: 'practice', seed: '2' });
               const token = answer.token;
               for (const move of line) {
                 if (answer.outcome) break;
                 answer = await api.move(answer.id, token, move, answer.move_count);
               }
               if (!answer.outcome?.won) throw new Error('a practice deal not won');
             }
             const relaxed = await api.start({ game: 'golf', variant: {}, mode: 'relaxed' });
             await api.end(relaxed.id, relaxed.token, 0);
           }""",
        [line, VARIANTS["klondike"]],
    )
    page.goto(f"{desk.server}/#/stats")
    page.wait_for_selector("#totals dt")
    assert fact(page, "Timed games") == "1"
    assert fact(page, "Timed wins") == "0 (0.0%)"
    assert fact(page, "Practice games") == "3, 3 won"
    assert fact(page, "Relaxed games") == "1, 0 won"
    assert fact(page, "Wins") is None  # no figure mixes the modes' wins
    # the three wins' bars carry their four-digit scores, each clear of the next (the groups
    # come after the totals, once each group's title is known)
    page.wait_for_selector("#stats .stat-group[data-mode=practice] .stats-chart")
    labels = page.locator("#stats .stat-group[data-mode=practice] .stats-chart text")
    assert labels.count() == 3
    boxes = [labels.nth(k).bounding_box() for k in range(3)]
    for left, right in itertools.pairwise(boxes):
        assert left is not None
        assert right is not None
        assert left["x"] + left["width"] <= right["x"], boxes
    shot(page, "ninth-4-stats-totals")
    page.goto(f"{desk.server}/#/history")
    page.wait_for_selector("#history tbody tr td")
    results = {
        row.locator('td[data-label="Game"]').inner_text(): row.locator(
            'td[data-label="Result"]'
        ).inner_text()
        for row in page.locator("#history tbody tr").all()
    }
    assert results["Golf, no wrap (relaxed)"] == "Ended", results
    assert results["Golf, no wrap"] == "Lost", results


# -- 5. a bad link's message belongs to its view -----------------------------------------------


def test_5_a_bad_links_message_is_gone_in_the_next_view(table: Callable[..., Table]) -> None:
    desk = table("desktop")
    page = desk.page
    page.goto(f"{desk.server}/?{LINKS['klondike'].split('&')[0]}&draw=7&seed=-1")
    page.wait_for_function("/cannot be dealt/.test(document.body.innerText)", timeout=WAIT)
    page.evaluate("location.hash = '#/nothing'")
    # the next view drawn: the address changes at once, its page once the hashchange is
    # handled (until then the bad link's page is still shown)
    page.wait_for_function("document.querySelector('#page h2')?.textContent === 'No such page'")
    settled_page(page)
    assert "cannot be dealt" not in page.inner_text("body")


def settled_page(page: Page) -> None:
    """Wait until the page has drawn the view of its address (its main view shown)."""
    page.wait_for_function(
        "[...document.querySelectorAll('main > section, #lobby, #table')].some((e) => !e.hidden)",
        timeout=WAIT,
    )
    if page.locator("#board .card").count():
        settled(page)


# -- 6. a tournament refused for want of deals: the refill makes them first --------------------


@pytest.fixture(scope="module")
def refill_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server with an operator (Opal), an empty catalog and its refill on."""
    yield from refill_server_at(tmp_path_factory.mktemp("refill") / "games.sqlite3")


def test_6_a_tournament_short_of_deals_is_made_once_the_refill_made_them(
    chromium: Browser, refill_server: str
) -> None:
    desk = operator_creating(chromium, refill_server)
    page = desk.page

    def create(name: str) -> str:
        """Submit the form for a shared-deal FreeCell tournament: the tournament's page's
        heading, or the form's refusal."""
        page.fill("#create-name", name)
        page.select_option("#create-game", "freecell")
        page.select_option("#create-policy", "shared")
        page.evaluate("document.getElementById('create-error').textContent = ''")  # (the last)
        page.click("#create button[type=submit]")
        page.wait_for_function(
            """(name) => document.querySelector('#create-error')?.textContent
                 || [...document.querySelectorAll('h2')].some((h) => h.textContent === name)""",
            arg=name,
            timeout=WAIT,
        )
        refused = page.locator("#create-error").count() and page.inner_text("#create-error")
        if not refused:
            page.goto(f"{refill_server}/#/tournaments")
            page.click("#create-details summary")
        return refused or "made"

    # each tournament takes a deal: soon one is refused (the refill makes one at a time)
    said = "made"
    for k in range(12):
        said = create(f"Cell {k}")
        if said != "made":
            break
    assert said.startswith("Not enough FreeCell deals are ready for this tournament"), said
    assert "The server is making them now, ahead of its other deals" in said, said
    assert "patience deals generate fills it" not in said
    shot(page, "ninth-6-tournament-short")
    # once the refill made one, the same form makes the tournament
    page.wait_for_function(
        """() => {  // the operator's status read again each second, until it has one
             if (!window.asking) {
               window.asking = fetch('/api/admin/server').then((answer) => answer.json())
                 .then((status) => { window.stocked = (status.catalog_unused ?? {}).freecell > 0; })
                 .finally(() => { window.asking = null; });
             }
             return window.stocked;
           }""",
        timeout=180_000,
        polling=1000,
    )
    assert create("Cell, at last") == "made"
    desk.close()
