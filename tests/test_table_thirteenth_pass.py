"""The table's thirteenth pass, after players' reviews of it: one test each of the findings
left open, in real headless Chromium.

1. Klondike on a phone held upright (390x844, touch) had 53 px cards and about 45% of the
   height bare between the columns and the hand: its cards are as wide as seven across the
   width allow (54 px, a pixel apart), and its columns fan into the height there is, all
   alike (a dealt game's bare band is about a third of the screen), every covered card's
   rank and suit whole, a long column still squeezed above the hand.
2. Kansas on a phone on its side (844x390) had its piles above its three columns, half
   the felt bare and 56 px cards whose long columns squeezed to strips of 10 px, their
   corners cut: its piles stand beside the columns (as on a wide window), the columns have
   the whole height, their cards are larger (58 px) and its usual longest column keeps a
   finger's strip of each card; the piles' cards are drawn larger still (87 px) in the
   height beside the columns.
3. "Around me" in a tournament's standings could be pressed before the player had joined,
   and did nothing: it is disabled (aria-disabled, the reason as its description and its
   title) until the player has an entry.

Screenshots are written to ``artifacts/screenshots/table/`` to be looked at.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from patience.games import new_game
from patience.players import Accounts
from patience.server import launch
from patience.store.catalog import Certified, add
from patience.store.db import make_engine, migrate
from patience.store.games import GameStore
from patience.tournaments import Tournaments
from tables import Table, box, draw_board, shot
from test_table_eighth_pass_layout import measured
from test_tournaments_browser import GOLF, PASSWORD, SEED, open_page, sign_up

COLUMNS = """() => {
  const header = document.querySelector('header, .bar').getBoundingClientRect();
  const columns = [...document.querySelectorAll('#board .tableau > .column')].map((column) => {
    const cards = [...column.querySelectorAll(':scope > .card')];
    const rects = cards.map((card) => card.getBoundingClientRect());
    return {
      up: cards.map((card) => card.classList.contains('face-up')),
      strips: rects.slice(0, -1).map((r, k) => rects[k + 1].top - r.top),
      // whether a press in the middle of the strip a card shows finds that card
      found: cards.map((card, k) => {
        const r = rects[k];
        const y = k < cards.length - 1 ? (r.top + rects[k + 1].top) / 2 : r.top + r.height / 2;
        return document.elementFromPoint(r.left + r.width / 2, y)?.closest('.card') === card;
      }),
      // each face-up card's corner (its rank and suit): how far down its card it reaches
      corners: cards.map((card, k) => {
        const corner = card.querySelector('.corner');
        return corner && card.classList.contains('face-up')
          ? corner.getBoundingClientRect().bottom - rects[k].top : null;
      }),
      top: rects.length ? rects[0].top : null,
      bottom: rects.length ? rects.at(-1).bottom : null,
      left: column.getBoundingClientRect().left,
      right: column.getBoundingClientRect().right,
    };
  });
  const piles = [...document.querySelectorAll('#board > .row:not(.tableau) .pile')]
    .map((pile) => {
      const r = pile.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom,
               reached: pile.contains(hit) };
    });
  const controls = [...document.querySelectorAll('#table > .controls button')]
    .map((button) => button.getBoundingClientRect()).filter((r) => r.width > 0);
  return {
    columns, piles, header: header.bottom,
    controls: controls.map((r) => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom })),
    window: [innerWidth, innerHeight],
    scroll: [document.documentElement.scrollWidth - innerWidth,
             document.documentElement.scrollHeight - innerHeight],
  };
}"""


def _columns(page: Any) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(COLUMNS)
    return found


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["left"] < b["right"] - 1
        and b["left"] < a["right"] - 1
        and a["top"] < b["bottom"] - 1
        and b["top"] < a["bottom"] - 1
    )


def _readable(column: dict[str, Any], least: float) -> None:
    """Every covered face-up card of ``column`` shows its corner whole (its rank and suit),
    with ``least`` pixels of its corner's box allowed under the next card; every card is
    found where it is seen."""
    for strip, up, corner in zip(column["strips"], column["up"], column["corners"], strict=False):
        if up:
            assert strip >= corner - least, column
    assert all(column["found"]), column


def _in_window(drawn: dict[str, Any]) -> None:
    width, height = drawn["window"]
    for column in drawn["columns"]:
        assert column["bottom"] is None or column["bottom"] <= height + 1, column
        assert column["left"] >= -1, column
        assert column["right"] <= width + 1, column
    for pile in drawn["piles"]:
        assert pile["bottom"] <= height + 1, pile
        assert pile["right"] <= width + 1, pile
    assert max(drawn["scroll"]) <= 0, drawn["scroll"]


# -- 1. Klondike held upright: the widest cards, its columns fanned into the height ----------


def test_1_klondike_upright_has_the_widest_cards_and_fans_into_the_height(
    table: Callable[..., Table],
) -> None:
    desk = table("phone")
    page = desk.deal("klondike", 7)
    shot(page, "thirteenth-1-klondike-phone")
    dealt = measured(page)
    width, height = page.viewport_size["width"], page.viewport_size["height"]  # type: ignore[index]
    # seven cards across with their gaps: 54 px (53 before)
    assert dealt["cardW"] >= 54, dealt
    assert 7 * dealt["cardW"] + 6 * dealt["gap"] <= width, dealt
    drawn = _columns(page)
    hand = box(page, "#board .stock")
    waste = box(page, "#board .waste")
    lowest = max(column["bottom"] for column in drawn["columns"])
    # the bare band between the columns and the hand: about a third of the screen (45% before)
    bare = (min(hand["y"], waste["y"]) - lowest) / height
    assert bare <= 0.36, bare
    # the columns fan alike, face-down cards narrower than a face-up card's fan
    for column in drawn["columns"]:
        _readable(column, 0)
        down = [strip for strip, up in zip(column["strips"], column["up"], strict=False) if not up]
        assert not down or max(down) < 0.5 * dealt["cardW"] * 1.4, column
    # nothing over the header, the foundations, the hand and waste or the controls
    foundations = [pile for pile in drawn["piles"] if pile["bottom"] <= drawn["columns"][0]["top"]]
    assert len(foundations) == 4
    assert min(pile["top"] for pile in foundations) >= drawn["header"] - 1
    assert lowest <= min(hand["y"], waste["y"]) + 1
    assert all(hand["y"] + hand["height"] <= control["top"] + 1 for control in drawn["controls"])
    _in_window(drawn)
    # a column midway through a game (three face down, eight face up): every card's corner
    # whole at the loose fan, the columns above the hand
    board = new_game("klondike", seed=7).observation()
    run = ["Ks", "Qh", "Jc", "Td", "9s", "8h", "7c", "6d", "5s", "4h", "3c", "2d", "Ah"]
    board["tableau"][6] = {"hidden": 3, "cards": run[:8]}
    draw_board(page, board)
    shot(page, "thirteenth-1-klondike-phone-midway")
    middle = _columns(page)
    assert measured(page)["cardW"] == dealt["cardW"]
    _readable(middle["columns"][6], 0)
    assert middle["columns"][6]["bottom"] <= box(page, "#board .stock")["y"] + 1
    # the longest a column reaches (six face down, a king down to an ace): squeezed, every
    # card in the window and above the hand, each corner whole and each card found
    board["tableau"][6] = {"hidden": 6, "cards": run}
    draw_board(page, board)
    shot(page, "thirteenth-1-klondike-phone-longest")
    longest = _columns(page)
    assert measured(page)["cardW"] == dealt["cardW"]
    _readable(longest["columns"][6], 2)
    assert longest["columns"][6]["bottom"] <= box(page, "#board .stock")["y"] + 1
    _in_window(longest)


# -- 2. Kansas on its side: piles beside the columns, larger cards ---------------------------


def test_2_kansas_on_its_side_stands_beside_its_columns_with_larger_cards(
    table: Callable[..., Table],
) -> None:
    desk = table("landscape")
    page = desk.deal("kansas", 7)
    shot(page, "thirteenth-2-kansas-landscape")
    dealt = measured(page)
    assert dealt["cardW"] >= 58, dealt  # (56 before)
    drawn = _columns(page)
    tableau = box(page, "#board .tableau")
    # the piles stand beside the columns, right of them, every one reached where it is seen,
    # none over another, the columns or the controls
    assert all(pile["left"] >= tableau["x"] + tableau["width"] for pile in drawn["piles"])
    assert all(pile["reached"] for pile in drawn["piles"]), drawn["piles"]
    for k, pile in enumerate(drawn["piles"]):
        assert not any(_overlap(pile, other) for other in drawn["piles"][k + 1 :]), pile
        assert not any(_overlap(pile, control) for control in drawn["controls"]), pile
    # the piles drawn larger in the height beside the columns (56 px before)
    assert min(pile["right"] - pile["left"] for pile in drawn["piles"]) >= 80, drawn["piles"]
    # the columns start under the header, at the board's top
    assert drawn["header"] - 1 <= drawn["columns"][0]["top"] <= drawn["header"] + 20, drawn
    _in_window(drawn)
    # the game's usual longest column (sixteen cards on a king, built round the corner):
    # a finger's strip of each covered card, its rank and suit read (10 px, corners cut,
    # before), every card in the window and found where it is seen
    board = new_game("kansas", seed=7).observation()
    run = [f"{rank}{'hs'[k % 2]}" for k, rank in enumerate("KQJT98765432AKQJ")]
    board["tableau"][0] = {"hidden": 0, "cards": [*run, "Ts"]}
    draw_board(page, board)
    shot(page, "thirteenth-2-kansas-landscape-usual-longest")
    usual = _columns(page)
    assert measured(page)["cardW"] == dealt["cardW"]
    column = usual["columns"][0]
    assert min(column["strips"]) >= 16, column
    _readable(column, 0.25 * max(corner for corner in column["corners"] if corner))
    _in_window(usual)
    assert not any(_overlap(pile, column) for pile in usual["piles"]), usual["piles"]


# -- 3. "Around me" waits for the player's entry -----------------------------------------------


@pytest.fixture(scope="module")
def one_tournament(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """A server whose database holds an operator and a shared-deal Golf tournament running
    for an hour, nobody in it yet: (the server's URL, the tournament's id)."""
    database = tmp_path_factory.mktemp("tournament") / "games.sqlite3"
    engine = make_engine(f"sqlite:///{database}")
    migrate(engine)
    with engine.begin() as connection:
        add(connection, "golf", GOLF, Certified(SEED, 9, 0.01, 40, None), at=1.0, origin="random")
    operator = Accounts(engine).create("Olga", PASSWORD, operator=True)
    now = time.time()
    made = Tournaments(GameStore(engine)).create(
        operator,
        name="Monday Golf",
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


def test_3_around_me_is_disabled_until_the_player_has_joined(
    chromium: Browser, one_tournament: tuple[str, str]
) -> None:
    server, tid = one_tournament
    context, page, errors = open_page(chromium, server, {"width": 1366, "height": 768})
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    sign_up(page, server, "Cyd")
    page.goto(f"{server}/#/tournaments/{tid}")
    page.wait_for_selector("#tournament-join")
    around = page.locator("#standings-me")
    expect(around).to_have_attribute("aria-disabled", "true")
    expect(around).to_have_accessible_description("Join the tournament to see your place")
    expect(around).to_have_attribute("title", "Join the tournament to see your place")
    around.click(force=True)  # (a press all the same: Playwright waits for an enabled button)
    page.click("#tournament-join")
    page.wait_for_selector("#tournament-play")
    # the press before joining asked nothing and changed nothing
    assert not [url for url in asked if "around=me" in url], asked
    expect(around).not_to_have_attribute("aria-disabled", "true")
    expect(around).to_have_accessible_description("")
    around.click()
    expect(around).to_have_attribute("aria-pressed", "true")
    page.wait_for_selector("#standings tbody >> text=You have no finished attempt yet.")
    assert [url for url in asked if "around=me" in url]
    context.close()
    assert not errors, errors
