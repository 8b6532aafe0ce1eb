"""Tournaments in the browser: an operator's shared-deal Golf tournament; two
players, each in a browser of their own (one a phone), find it in the lobby, join, play an
attempt on the table and see the same deal; both appear in the live standings, ranked by
the rule written on the page; the operator closes it from its page, and the verification
view hashes the revealed document in the browser and passes (and fails when the
publication is tampered with). Every page checked with axe-core and for sideways
scrolling, with screenshots under artifacts/screenshots/."""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route
from sqlalchemy import Engine

import patience
from page_checks import DESKTOP, PHONE, WAIT, check, painted, shot
from patience.catalog import rating_witness
from patience.games import new_game
from patience.players import Accounts, User
from patience.server import launch
from patience.store.catalog import Certified, add
from patience.store.db import make_engine, migrate
from patience.store.games import GameStore
from patience.tournaments import Tournaments
from patience.tournaments.fairness import canonical, commitment
from tables import box
from test_browser import BYPASS_CSP, browser  # noqa: F401 (the fixture)

PASSWORD = "correct horse battery"
GOLF = {"wrap": True}


def _seed_with_a_play() -> tuple[int, int]:
    """A Golf (wrap) seed whose deal has a column card to play at once, and the column."""
    for seed in range(1, 100):
        moves = [str(m) for m in new_game("golf", seed=seed, variant=GOLF).legal_moves()]
        columns = [m for m in moves if m.startswith("t")]
        if columns:
            return seed, int(columns[0][1:])
    raise AssertionError("no Golf deal with a play at once")


SEED, COLUMN = _seed_with_a_play()


@pytest.fixture(scope="module")
def tournament_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """A server whose database holds an operator, one Golf deal in the catalog and a
    shared-deal tournament on it, open now for an hour: (the server's URL, its id)."""
    database = tmp_path_factory.mktemp("tournaments") / "games.sqlite3"
    engine = make_engine(f"sqlite:///{database}")
    migrate(engine)
    with engine.begin() as connection:
        for offset in range(6):  # one a tournament made here, and one for the lobby's form
            deal = Certified(SEED + offset, 9, 0.01, 40, None)
            add(connection, "golf", GOLF, deal, at=1.0 + offset, origin="random")
    operator = Accounts(engine).create("Olga", PASSWORD, operator=True)
    now = time.time()
    made = Tournaments(GameStore(engine)).create(
        operator,
        name="Friday Golf",
        game="golf",
        variant=GOLF,
        policy="shared",
        tier=None,
        opens_at=now - 1,
        closes_at=now + 3600,
        attempts=2,
        max_entrants=10,
    )
    big_tournament(engine, operator, now)
    for name in ("Closing Golf", "Resumed Golf", "Entry Golf"):
        Tournaments(GameStore(engine)).create(
            operator,
            name=name,
            game="golf",
            variant=GOLF,
            policy="shared",
            tier=None,
            opens_at=now - 1,
            closes_at=now + 3600,
        )
    engine.dispose()
    port = launch.free_port()
    process = launch.start(database, port, PATIENCE_CATALOG_REFILL="0")
    yield f"http://127.0.0.1:{port}", made["id"]
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=120)


BIG = 25  # entrants of "Big Golf"


def big_elapsed(index: int) -> int:
    """Seconds the ``index``-th entrant of Big Golf used: pairs tie (0; 1, 2; 3, 4; ...),
    the 20th and 21st across the standings' first page edge among them."""
    return (index + 1) // 2


def big_tournament(engine: Engine, operator: User, now: float) -> None:
    """ "Big Golf": ``BIG`` entrants, each ended an attempt at once (no points), the
    ``index``-th after ``big_elapsed(index)`` seconds, all dealt at the same moment."""
    clock = Clock(now - 100)
    store = GameStore(engine, clock=clock)
    tournaments = Tournaments(store, clock=clock)
    store.on_game_end(tournaments.game_ended)
    made = tournaments.create(
        operator,
        name="Big Golf",
        game="golf",
        variant=GOLF,
        policy="shared",
        tier=None,
        opens_at=clock.now - 1,
        closes_at=now + 3600,
        max_entrants=BIG,
    )
    accounts = Accounts(engine)
    players = [accounts.create(f"Player {index:02}", PASSWORD) for index in range(BIG)]
    start = clock.now
    games = []
    for player in players:
        tournaments.join(player, made["id"])
        games.append(tournaments.start_attempt(player, made["id"])[0])
    for index, live in enumerate(games):
        clock.now = start + big_elapsed(index)
        store.play(live, "end")


class Clock:
    """Seconds the fixture moves."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def open_page(
    browser: Browser,  # noqa: F811
    server: str,
    viewport: dict[str, int],
    *,
    init_script: str | None = None,
    **options: Any,
) -> tuple[BrowserContext, Page, list[str]]:
    """A page on the server's lobby, in a context of its own (``options``; ``init_script``
    run in each page before the page's own scripts), and the page's errors as they come."""
    context = browser.new_context(viewport=viewport, bypass_csp=BYPASS_CSP, **options)
    if init_script is not None:
        context.add_init_script(init_script)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server)
    return context, page, errors


def sign_up(page: Page, server: str, name: str) -> None:
    page.goto(f"{server}/#/account")
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup button[type=submit]")
    page.wait_for_selector("#nav a.who")


def log_in(page: Page, server: str, name: str) -> None:
    page.goto(f"{server}/#/account")
    page.fill("#login-name", name)
    page.fill("#login-password", PASSWORD)
    page.click("#login button[type=submit]")
    page.wait_for_selector("#nav a.who")


def columns_shown(page: Page) -> list[list[str]]:
    """The cards of each column of the table's board."""
    shown: list[list[str]] = page.evaluate(
        """() => [...document.querySelectorAll('#board .column')].map((column) =>
            [...column.querySelectorAll('.card[data-card]')].map((card) => card.dataset.card))"""
    )
    return shown


def join_and_play(page: Page, name: str, tid: str, *, play: bool, shots: str) -> list[list[str]]:
    """From the lobby to the tournament's page, join, play an attempt (one card of
    ``COLUMN`` when ``play``, then End) and come back; the deal's columns as dealt."""
    page.click("#nav >> text=Tournaments")
    page.wait_for_selector("#tournaments-running li")
    assert "Friday Golf" in page.inner_text("#tournaments-running")
    check(page, f"tournaments-lobby-{shots}")
    page.click("#tournaments-running a >> text=Friday Golf")
    page.wait_for_selector("#tournament-join")
    assert page.inner_text("#ranking-rule").startswith("How players are ranked: Ranked by score")
    page.click("#tournament-join")
    page.wait_for_selector("#tournament-play")
    assert "2 of 2" in page.inner_text("#my-entry")
    check(page, f"tournament-joined-{shots}")
    page.click("#tournament-play")
    page.wait_for_selector("#board .card")
    assert page.get_attribute("body", "data-page") is None  # the table, not a page
    dealt = columns_shown(page)
    # the attempt's board fits the screen from its first frame, before any move
    painted(page)
    right, width = page.evaluate(
        """() => [Math.max(...[...document.querySelectorAll('#board .card')]
                    .map((card) => card.getBoundingClientRect().right)),
                  document.documentElement.clientWidth]"""
    )
    shot(page, f"tournament-attempt-start-{shots}")
    # the header names the tournament and the attempt, and offers no other game to deal
    title = page.inner_text("#title")
    assert title.startswith("Friday Golf · attempt 1 · Golf"), title
    assert page.locator("#new-deal").is_hidden()
    assert page.locator("#back-to-lobby").is_visible()
    assert right <= width, f"the board's right edge is at {right} px of {width}"
    if play:
        version = page.get_attribute("#board", "data-version")
        page.keyboard.press(str(COLUMN))
        page.wait_for_function(f"document.querySelector('#board').dataset.version !== '{version}'")
    page.click("#end")  # ending a game asks first
    page.click("#confirm-yes")
    page.wait_for_selector("#result:not([hidden])")
    shot(page, f"tournament-result-{shots}")
    # the result of an attempt offers the way back, not a "New game" that would be no attempt
    assert page.locator("#again").is_hidden()
    assert page.evaluate("document.activeElement.id") == "to-tournament"
    assert page.locator("#result .buttons button:visible").all_inner_texts() == [
        "Back to the tournament",
        "Lobby",
    ]
    page.click("#to-tournament")
    page.wait_for_selector(f"#standings tbody tr >> text={name}")
    assert "1 of 2" in page.inner_text("#my-entry")
    return dealt


def tournament_named(page: Page, server: str, name: str) -> dict[str, Any]:
    """The tournament called ``name``, as the API lists it to ``page``'s player."""
    listed = page.request.get(f"{server}/api/tournaments").json()["tournaments"]
    return next(t for t in listed if t["name"] == name)


def close_now(page: Page, server: str, tid: str) -> None:
    """The operator on ``page`` closes tournament ``tid`` from its page, and waits for the
    close's verification to show."""
    page.goto(f"{server}/#/tournaments/{tid}")
    page.click("#tournament-close")
    page.click("#confirm-yes")
    page.wait_for_selector("#verification-result", timeout=15_000)


def standings(page: Page) -> list[tuple[str, str]]:
    """(rank, name) of each row of the standings shown."""
    rows = page.locator("#standings tbody tr")
    return [
        (
            rows.nth(i).locator("[data-label=Rank]").inner_text(),
            rows.nth(i).locator("[data-label=Player]").inner_text(),
        )
        for i in range(rows.count())
    ]


def test_two_players_one_deal_standings_and_verification(
    browser: Browser,  # noqa: F811
    tournament_server: tuple[str, str],
) -> None:
    server, tid = tournament_server
    ada_context, ada, ada_errors = open_page(browser, server, DESKTOP)
    bob_context, bob, bob_errors = open_page(browser, server, PHONE, has_touch=True)
    sign_up(ada, server, "Ada")
    sign_up(bob, server, "Bob")

    ada_deal = join_and_play(ada, "Ada", tid, play=True, shots="desktop")
    bob_deal = join_and_play(bob, "Bob", tid, play=False, shots="phone")
    assert ada_deal == bob_deal  # one deal for every entrant
    assert ada_deal == [
        c["cards"] for c in new_game("golf", seed=SEED, variant=GOLF).observation()["tableau"]
    ]

    # Ada played a card, Bob none: Ada first, Bob second, on both players' pages (live)
    ada.wait_for_selector("#standings tbody tr >> text=Bob", timeout=WAIT)
    assert standings(ada) == [("1", "Ada"), ("2", "Bob")]
    assert standings(bob) == [("1", "Ada"), ("2", "Bob")]
    bob.click("#standings-me")
    bob.wait_for_selector("#standings-summary >> text=You are ranked 2.")
    check(bob, "tournament-standings-phone")
    check(ada, "tournament-standings-desktop")

    # Bob's second attempt: left for the tournament's page mid-game, then gone back to
    bob.click("#tournament-play")
    bob.wait_for_selector("#board .card")
    second = bob.get_attribute("#board", "data-version")
    # (on a phone the game has the whole header: the title leads back to the lobby and links)
    assert bob.locator("#nav").is_hidden()
    bob.click("#home")
    bob.click("#nav >> text=Tournaments")
    bob.click("#tournaments-running a >> text=Friday Golf")
    bob.wait_for_selector("#tournament-resume")
    assert "0 of 2" in bob.inner_text("#my-entry")
    assert bob.locator("#tournament-play").count() == 0  # no third attempt, nor a second at once
    bob.click("#tournament-resume")
    bob.wait_for_selector("#board .card")
    assert bob.get_attribute("#board", "data-version") != second  # drawn again, the same deal
    assert columns_shown(bob) == bob_deal
    bob.click("#end")  # ending a game asks first
    bob.click("#confirm-yes")
    bob.wait_for_selector("#result:not([hidden])")
    bob.click("#to-tournament")
    bob.wait_for_selector("#my-entry")
    assert bob.locator("#tournament-play, #tournament-resume").count() == 0
    # an ordinary game's result offers a new game again, and no way to the tournament
    # (a seed outside the catalog: one of its unused deals played in practice is never
    # dealt in a tournament after that)
    bob.goto(f"{server}/?game=golf&wrap=true&seed={SEED + 50}")
    bob.wait_for_selector("#board .card")
    bob.click("#end")
    bob.click("#confirm-yes")
    bob.wait_for_selector("#result:not([hidden])")
    assert bob.locator("#again").is_visible()
    assert bob.locator("#to-tournament").count() == 0
    bob.click("#to-lobby")

    # the operator closes it from its page; the verification view passes
    olga_context, olga, olga_errors = open_page(browser, server, DESKTOP)
    log_in(olga, server, "Olga")
    olga.goto(f"{server}/#/tournaments/{tid}")
    olga.wait_for_selector("#tournament-close")
    native: list[str] = []
    olga.on("dialog", lambda dialog: (native.append(dialog.message), dialog.dismiss()))
    join = box(olga, "#tournament-join")
    close = box(olga, "#tournament-close")
    assert close["y"] - (join["y"] + join["height"]) >= 8  # not flush against Join
    olga.click("#tournament-close")
    olga.wait_for_selector("#confirm:not([hidden])")  # the page's own question
    assert "Close" in olga.inner_text("#confirm-text")
    olga.click("#confirm-yes")
    olga.wait_for_selector("#verification-result", timeout=WAIT)
    assert native == []  # never the browser's confirm box
    assert olga.get_attribute("#verification-result", "class") == "pass"
    assert olga.inner_text("#verification-result") == "Verified in this browser."
    checks = olga.locator("#checks li")
    # the hash, the commitment shown, the one seen before the close, the document's rules,
    # the attempts' deals, the ranks
    assert checks.count() == 6, checks.all_inner_texts()
    assert all(checks.nth(i).get_attribute("data-ok") == "true" for i in range(checks.count()))
    assert olga.locator("#deals .seed").all_inner_texts() == [str(SEED)]
    assert "patience tournament verify" in olga.inner_text("#verification")
    # which patience made it, and what its rating made of the reference deal
    revealed = olga.inner_text("#verification")
    witness = rating_witness("golf", GOLF)
    assert f"patience {patience.__version__}" in revealed
    assert f"seed {witness['seed']}: {witness['nodes']} nodes" in revealed
    # how to check it without the project's code: said on the page, no file of its source
    assert "docs/" not in olga.inner_text("#verification")
    assert (
        olga.locator("#check-it-yourself summary").inner_text()
        == "How to check it with code of your own"
    )
    check(olga, "tournament-verified-desktop")

    # Ada saw the commitment before the close: her browser checks that too
    ada.goto(f"{server}/#/tournaments/{tid}")
    ada.reload()
    ada.wait_for_selector("#verification-result")
    assert ada.get_attribute("#verification-result", "class") == "pass"
    assert ada.locator("#checks li[data-ok=true]").count() == 6
    assert "this browser saw before the close" in ada.inner_text("#checks")
    assert standings(ada) == [("1", "Ada"), ("2", "Bob")]
    # every player's best game open to replay, now that it has closed
    assert ada.locator("#standings tbody a >> text=Replay").count() == 2
    ada.click('#standings a[aria-label="Replay Bob\'s best game"]')
    ada.wait_for_selector("#replay-board .card")
    assert "Bob's game" in ada.inner_text("h2")
    assert ada.locator("#replay-board .card").count() > 30
    ada.go_back()

    # on a phone the standings come before the rules, near the top
    bob.goto(f"{server}/#/tournaments/{tid}")
    bob.wait_for_selector("#standings tbody tr")
    order = bob.evaluate(
        "document.getElementById('standings').compareDocumentPosition("
        "document.getElementById('tournament-rules')) & Node.DOCUMENT_POSITION_FOLLOWING"
    )
    assert order  # the rules follow the standings
    assert box(bob, "#standings")["y"] < 844 * 1.5

    # a publication whose salt was changed does not hash to the commitment
    def tampered(route: Route) -> None:
        published = route.fetch().json()
        published["document"]["salt"] = "0" * 64
        route.fulfill(json=published)

    bob.route("**/verification", tampered)
    bob.goto(f"{server}/#/tournaments/{tid}")
    bob.reload()
    bob.wait_for_selector("#verification-result")
    assert bob.get_attribute("#verification-result", "class") == "fail"
    assert "NOT equal" in bob.inner_text("#checks li:first-child")
    check(bob, "tournament-tampered-phone")

    for context in (ada_context, bob_context, olga_context):
        context.close()
    assert not ada_errors, ada_errors
    assert not bob_errors, bob_errors
    assert not olga_errors, olga_errors


def test_the_browser_hashes_a_document_as_the_scheme_says(
    browser: Browser,  # noqa: F811
    tournament_server: tuple[str, str],
) -> None:
    """The page's canonical text and SHA-256 are Python's (docs/fairness.md) on a document
    with non-ASCII text, escapes, nesting and every kind of JSON value."""
    server, _ = tournament_server
    document = {
        "name": 'Café "Ü" \U0001f0a1 \n\t\\ </script> \u2028',
        "z": [1, None, True, False, "ß", -7, 0],
        "a": {"b": "\u0001\u001f\u007f", "a": 10**15, "": []},
        "seed": "18446744073709551615",
    }
    context, page, errors = open_page(browser, server, DESKTOP)
    hashed = page.evaluate(
        """async (document) => {
            const { canonical, sha256Hex } = await import('/static/tournaments.js');
            const text = canonical(document);
            return { text, hash: await sha256Hex(text) };
        }""",
        document,
    )
    assert hashed["text"].encode() == canonical(document)
    assert hashed["hash"] == commitment(document)
    context.close()
    assert not errors, errors


def test_standings_a_page_at_a_time_with_ties_across_the_page_edge(
    browser: Browser,  # noqa: F811
    tournament_server: tuple[str, str],
) -> None:
    server, _ = tournament_server
    context, page, errors = open_page(browser, server, PHONE, has_touch=True)
    page.goto(f"{server}/#/tournaments")
    page.click("#tournaments-running a >> text=Big Golf")
    page.wait_for_selector("#standings tbody tr >> text=Player 00")
    elapsed = [big_elapsed(index) for index in range(BIG)]
    ranks = [1 + sum(other < mine for other in elapsed) for mine in elapsed]
    expected = [(str(rank), f"Player {index:02}") for index, rank in enumerate(ranks)]
    assert standings(page) == expected[:20]
    assert page.inner_text("#standings-summary") == "Places 1 to 20 of 25 with a finished attempt."
    assert page.is_disabled("#standings-previous")
    assert page.inner_text("#entry").split("\n")[-1] == "The tournament is full."
    check(page, "tournament-big-phone")
    page.click("#standings-next")
    page.wait_for_selector("#standings tbody tr >> text=Player 24")
    assert standings(page) == expected[20:]
    assert standings(page)[0][0] == "20"  # tied with the last row of the page before
    assert page.is_disabled("#standings-next")
    page.click("#standings-previous")
    page.wait_for_selector("#standings tbody tr >> text=Player 00")
    assert standings(page) == expected[:20]
    context.close()
    assert not errors, errors


# The page's readings of a tournament, each counted under its kind once its text is read
# (the page draws it, or drops it, in that same step): "entry" (the tournament itself, with
# the player's entry), "standings:OFFSET" (a page of the standings), "around" (the page
# around the player). ``__hold[kind]`` readings of a kind are held on their way: ``__held``
# lets each go on.
READINGS = """
window.__readings = {};
window.__hold = {};
window.__held = [];
const kind = (url) => {
  const { pathname, searchParams } = new URL(url, location.href);
  if (/^\\/api\\/tournaments\\/[^/]+$/.test(pathname)) return 'entry';
  if (!pathname.endsWith('/standings')) return null;
  return searchParams.has('offset') ? `standings:${searchParams.get('offset')}` : 'around';
};
const fetched = window.fetch;
window.fetch = function (input, init) {
  const answer = fetched.call(this, input, init);
  const which = kind(String(input));
  if (which !== null && (window.__hold[which] ?? 0) > 0) {
    window.__hold[which] -= 1;
    return new Promise((resolve, reject) => {
      window.__held.push(() => answer.then(resolve, reject));
    });
  }
  return answer;
};
const text = Response.prototype.text;
Response.prototype.text = function () {
  const read = text.call(this);
  const which = kind(this.url);
  if (which !== null) {
    read.then(() => { window.__readings[which] = (window.__readings[which] ?? 0) + 1; });
  }
  return read;
};
"""


def test_the_standings_show_the_page_asked_for_last(
    browser: Browser,  # noqa: F811
    tournament_server: tuple[str, str],
) -> None:
    """A live reading of the standings still on its way when the player asks for the next
    page is never drawn over that page when its answer comes after."""
    server, _ = tournament_server
    context, page, errors = open_page(browser, server, DESKTOP, init_script=READINGS)

    def readings(offset: int) -> int:
        counted: int = page.evaluate(
            "(offset) => window.__readings[`standings:${offset}`] ?? 0", offset
        )
        return counted

    def read_again(offset: int, before: int) -> None:
        page.wait_for_function(
            "([offset, before]) => (window.__readings[`standings:${offset}`] ?? 0) > before",
            arg=[offset, before],
            timeout=WAIT,
        )

    page.goto(f"{server}/#/tournaments")
    page.click("#tournaments-running a >> text=Big Golf")
    page.wait_for_selector("#standings tbody tr >> text=Player 00")
    # the first page's next live reading held on its way; the second page asked for meanwhile
    page.evaluate("window.__hold['standings:0'] = 1")
    page.wait_for_function("window.__held.length === 1", timeout=WAIT)
    second = readings(20)
    page.click("#standings-next")
    read_again(20, second)
    first = readings(0)
    page.evaluate("window.__held[0]()")  # the live reading's answer comes now, after
    read_again(0, first)
    # the second page stays: the first page's answer came after it, and is dropped
    elapsed = [big_elapsed(index) for index in range(BIG)]
    ranks = [1 + sum(other < mine for other in elapsed) for mine in elapsed]
    expected = [(str(rank), f"Player {index:02}") for index, rank in enumerate(ranks)]
    assert standings(page) == expected[20:]
    assert page.inner_text("#standings-summary") == "Places 21 to 25 of 25 with a finished attempt."
    context.close()
    assert not errors, errors


def test_the_entry_shows_the_reading_after_the_join(
    browser: Browser,  # noqa: F811
    tournament_server: tuple[str, str],
) -> None:
    """A live reading of the tournament still on its way when the player joins is never
    drawn over the entry read after the join when its answer comes after."""
    server, _ = tournament_server
    context, page, errors = open_page(browser, server, DESKTOP, init_script=READINGS)
    sign_up(page, server, "Eve")
    made = tournament_named(page, server, "Entry Golf")
    page.goto(f"{server}/#/tournaments/{made['id']}")
    page.wait_for_selector("#tournament-join")
    # the next live reading (every 10 s) held on its way, from before the join
    page.evaluate("window.__hold.entry = 1")
    page.wait_for_function("window.__held.length === 1", timeout=WAIT)
    page.click("#tournament-join")
    page.wait_for_selector("#tournament-play")  # the reading after the join, drawn
    readings = page.evaluate("window.__readings.entry ?? 0")
    page.evaluate("window.__held[0]()")  # the reading from before the join comes now
    # counted as its text is read, just before the page goes on with it in the same
    # task: once the count shows, the answer has been drawn or dropped
    page.wait_for_function(
        "(before) => (window.__readings.entry ?? 0) > before", arg=readings, timeout=WAIT
    )
    assert page.locator("#tournament-play").count() == 1
    assert page.locator("#tournament-join").count() == 0
    context.close()
    assert not errors, errors


def test_an_operator_creates_a_tournament_from_the_lobby(
    browser: Browser,  # noqa: F811
    tournament_server: tuple[str, str],
) -> None:
    server, _ = tournament_server
    context, page, errors = open_page(browser, server, DESKTOP)
    sign_up(page, server, "Dee")
    page.goto(f"{server}/#/tournaments")
    page.wait_for_selector("#tournaments-running")
    assert page.locator("#create").count() == 0  # players do not see the form
    page.goto(f"{server}/#/account")
    page.click("#logout")
    page.wait_for_selector("#login")
    log_in(page, server, "Olga")
    page.goto(f"{server}/#/tournaments")
    page.click("#create-details summary")

    def create(name: str) -> None:
        page.fill("#create-name", name)
        page.select_option("#create-game", "golf")
        page.select_option("#create select[name='option:wrap']", "true")
        page.select_option("#create-policy", "shared")
        page.fill("#create input[name=minutes]", "30")
        page.click("#create button[type=submit]")

    check(page, "tournament-create-desktop")
    create("Form Golf")
    page.wait_for_selector("h2 >> text=Form Golf")
    rules = page.inner_text("#tournament-rules")
    assert "Golf, wrap" in rules
    assert "wrapping" not in rules  # the variant named as on the table
    assert len(page.inner_text("#commitment")) == 64
    # the catalog has no unused deal left: refused, with the reason
    page.goto(f"{server}/#/tournaments")
    page.click("#create-details summary")
    create("Another Golf")
    page.wait_for_selector("#create-error:not(:empty)")
    said = page.inner_text("#create-error")
    assert said.startswith("Not enough Golf deals are ready for this tournament"), said
    assert "the catalog has 0 unused" in said  # (and this server's refill is off:)
    assert "`patience deals generate golf`" in said, said
    context.close()
    assert not errors, errors


def test_a_running_attempt_is_told_at_once_when_its_tournament_closes(
    browser: Browser,  # noqa: F811
    tournament_server: tuple[str, str],
) -> None:
    server, _ = tournament_server
    olga_context, olga, olga_errors = open_page(browser, server, DESKTOP)
    log_in(olga, server, "Olga")
    made = tournament_named(olga, server, "Closing Golf")
    cat_context, cat, cat_errors = open_page(browser, server, PHONE, has_touch=True)
    sign_up(cat, server, "Cat")
    cat.goto(f"{server}/#/tournaments/{made['id']}")
    cat.click("#tournament-join")
    cat.click("#tournament-play")
    cat.wait_for_selector("#board .card")
    # the operator closes the tournament while Cat's attempt is on the table
    close_now(olga, server, made["id"])
    cat.wait_for_selector("#result:not([hidden])", timeout=8_000)  # told, unasked
    assert cat.inner_text("#result-title") == "The tournament has closed"
    shot(cat, "tournament-closed-under-a-player-phone")
    for context in (olga_context, cat_context):
        context.close()
    assert not olga_errors, olga_errors
    assert not cat_errors, cat_errors


def test_an_attempt_continued_from_the_lobby_is_told_at_once_when_its_tournament_closes(
    browser: Browser,  # noqa: F811
    tournament_server: tuple[str, str],
) -> None:
    """As a fresh attempt is: here continued in another tab, which never saw it dealt."""
    server, _ = tournament_server
    olga_context, olga, olga_errors = open_page(browser, server, DESKTOP)
    log_in(olga, server, "Olga")
    made = tournament_named(olga, server, "Resumed Golf")
    dan_context, dealt, dan_errors = open_page(browser, server, DESKTOP)
    sign_up(dealt, server, "Dan")
    dealt.goto(f"{server}/#/tournaments/{made['id']}")
    dealt.click("#tournament-join")
    dealt.click("#tournament-play")
    dealt.wait_for_selector("#board .card")
    game_id = dealt.evaluate("JSON.parse(sessionStorage.getItem('patience-game')).id")
    dealt.close()  # the tab that dealt it, and its watch, are gone
    dan = dan_context.new_page()
    dan.on("pageerror", lambda error: dan_errors.append(str(error)))
    dan.goto(server)
    dan.click(f'#lobby button[data-id="{game_id}"]', timeout=WAIT)
    dan.wait_for_selector("#table:not([hidden]) #board .card")
    assert dan.inner_text("#title").startswith("Resumed Golf · attempt 1")
    # the operator closes the tournament while the continued attempt is on the table
    close_now(olga, server, made["id"])
    dan.wait_for_selector("#result:not([hidden])", timeout=8_000)  # told, unasked
    assert dan.inner_text("#result-title") == "The tournament has closed"
    assert dan.locator("#to-tournament").is_visible()
    for context in (olga_context, dan_context):
        context.close()
    assert not olga_errors, olga_errors
    assert not dan_errors, dan_errors
