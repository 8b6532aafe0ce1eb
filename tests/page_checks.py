"""Checks the browser tests of the pages share: no serious or critical accessibility
violation (axe-core, through axe-playwright-python), no sideways scrolling, and a
screenshot to look at."""

from __future__ import annotations

from pathlib import Path

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

SHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "screenshots"
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}

_axe = Axe()


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
    """Fail when the page is wider than its viewport."""
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
