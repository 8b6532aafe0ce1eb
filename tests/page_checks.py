"""Checks the browser tests share: no serious or critical accessibility violation
(axe-core, through axe-playwright-python), no sideways scrolling, and a screenshot to look
at; and how they wait: for a condition, with a deadline generous enough for a machine
busy with other work (:data:`WAIT`), and for the layout to settle before it is measured
(:func:`settled`)."""

from __future__ import annotations

from pathlib import Path

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

SHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "screenshots"
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}

WAIT = 60_000
"""Milliseconds a browser test waits for a condition before it fails: a deadline, not a
pause (the wait ends as soon as the condition holds), long enough for a loaded machine."""

_axe = Axe()

_SETTLED = """async () => {
  await document.fonts.ready;
  const shape = () => JSON.stringify([
    innerWidth, innerHeight, document.documentElement.scrollWidth,
    ...[...document.querySelectorAll("main, #board, #board .card, #result .panel")].map((e) => {
      const r = e.getBoundingClientRect();
      return [r.x, r.y, r.width, r.height].map(Math.round);
    }),
  ]);
  let last = shape();
  for (let same = 0, frames = 0; same < 3 && frames < 2000; frames += 1) {
    await new Promise((done) => requestAnimationFrame(() => done()));
    const now = shape();
    same = now === last ? same + 1 : 0;
    last = now;
  }
}"""


def painted(page: Page) -> None:
    """Wait until the page's next frame has been painted: what is measured then is what the
    player saw first, however long a busy machine took to draw it."""
    page.evaluate(
        "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
    )


def settled(page: Page) -> None:
    """Wait until the page's layout holds still: its fonts loaded, and the board, its cards
    and the result in the same places for three frames running. A layout is measured only
    then; on a busy machine the fitting of a board can come frames after it is drawn."""
    page.evaluate(_SETTLED)


def accessible(page: Page) -> None:
    """Fail on any serious or critical axe-core violation of the page as it is now."""
    results = _axe.run(page)
    bad = [
        f"{violation['id']} ({violation['impact']}): {violation['help']}: "
        + "; ".join(node["target"][0] for node in violation["nodes"][:3])
        for violation in results.response["violations"]
        if violation["impact"] in ("serious", "critical")
    ]
    assert not bad, bad


def no_sideways_scroll(page: Page) -> None:
    """Fail when the page, once settled, is wider than its viewport."""
    settled(page)
    width = page.evaluate("document.documentElement.scrollWidth")
    viewport = page.evaluate("window.innerWidth")
    assert width <= viewport, f"the page is {width}px wide in a {viewport}px window"


def shot(page: Page, name: str) -> None:
    """A full-page screenshot under artifacts/screenshots/, to be looked at."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def check(page: Page, name: str) -> None:
    """All three: accessible, no sideways scrolling, and a screenshot."""
    shot(page, name)
    no_sideways_scroll(page)
    accessible(page)
