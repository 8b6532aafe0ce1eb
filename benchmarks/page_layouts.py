"""What opening a table costs the browser: how many times it lays the page out.

    .venv/bin/python benchmarks/page_layouts.py [--motion] [--repeat 3]

Starts a server (``patience serve`` on a fresh SQLite file, no background refill) and
headless Chromium (Debian's, as the tests drive it), and opens a practice deal of each game
in each of a few windows (a desktop's, a laptop's, a phone held upright and on its side, a
tablet), each in a fresh page. For each it prints the medians, over ``--repeat`` openings,
of Chromium's own counters (the DevTools protocol's ``Performance.getMetrics``) once the
deal is drawn: the page's layouts and style recalculations, and the milliseconds they took.

Fitting a board to its window tries card sizes, each try a layout of the page: the most
costly work of drawing a deal, and what a slow phone shows as a pause. The counts do not
depend on the machine's load, the milliseconds do. Without ``--motion`` the pages prefer
reduced motion (the counts are then exact: a deal's motion lays the page out at its frames
too, as many as the machine draws).

No peer is run: this measures the client against itself (say, before and after a change to
its scripts, run in turn on the same machine).
"""

from __future__ import annotations

import argparse
import signal
import statistics
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Browser, sync_playwright

from patience.server import launch

CHROMIUM = "/usr/bin/chromium"
DEALS = {
    "Klondike, draw 1": "game=klondike&draw=1&seed=5",
    "Klondike, draw 3": "game=klondike&draw=3&seed=11",
    "Golf, wrap": "game=golf&wrap=true&seed=5",
    "Kansas": "game=kansas&seed=5",
    "Solitaire Expert": "game=expert&seed=5",
    "FreeCell": "game=freecell&seed=5",
}
"""Each deal opened, by its link's query."""
WINDOWS = {
    "desktop 1280x800": (1280, 800, False),
    "laptop 1366x768": (1366, 768, False),
    "phone 390x844": (390, 844, True),
    "phone on its side 844x390": (844, 390, True),
    "tablet 768x1024": (768, 1024, True),
}
"""Each window: width, height, and whether it is a touch screen."""
COUNTERS = ("LayoutCount", "RecalcStyleCount", "LayoutDuration", "RecalcStyleDuration")


def opened(
    browser: Browser, url: str, window: tuple[int, int, bool], *, motion: bool
) -> dict[str, float]:
    """Chromium's counters for one opening of the deal at ``url`` in ``window``."""
    width, height, touch = window
    context = browser.new_context(
        viewport={"width": width, "height": height},
        has_touch=touch,
        is_mobile=touch and width < 900,
        reduced_motion="no-preference" if motion else "reduce",
    )
    try:
        page = context.new_page()
        session = context.new_cdp_session(page)
        session.send("Performance.enable")
        page.goto(url)
        page.wait_for_selector("#board .card")
        page.wait_for_function("() => !document.querySelector('#board').dataset.animating")
        page.wait_for_load_state("networkidle")
        metrics = session.send("Performance.getMetrics")["metrics"]
        return {m["name"]: float(m["value"]) for m in metrics if m["name"] in COUNTERS}
    finally:
        context.close()


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; prints a line a deal and window, and the totals."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--motion", action="store_true", help="the deal's motion on")
    parser.add_argument("--repeat", type=int, default=3, help="openings of each (median)")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    port = launch.free_port()
    totals = {"layouts": 0.0, "styles": 0.0, "ms": 0.0}
    with tempfile.TemporaryDirectory() as folder:
        server = launch.start(Path(folder) / "games.sqlite3", port, PATIENCE_CATALOG_REFILL="0")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM)
                motion = "on" if args.motion else "off"
                print(f"a deal opened, medians of {args.repeat}, motion {motion}:")
                for name, query in DEALS.items():
                    for label, window in WINDOWS.items():
                        runs = [
                            opened(
                                browser,
                                f"http://127.0.0.1:{port}/?{query}",
                                window,
                                motion=args.motion,
                            )
                            for _ in range(args.repeat)
                        ]
                        layouts = statistics.median(r["LayoutCount"] for r in runs)
                        styles = statistics.median(r["RecalcStyleCount"] for r in runs)
                        ms = statistics.median(
                            (r["LayoutDuration"] + r["RecalcStyleDuration"]) * 1000 for r in runs
                        )
                        totals["layouts"] += layouts
                        totals["styles"] += styles
                        totals["ms"] += ms
                        print(
                            f"  {name:17} {label:27} layouts {layouts:4.0f}, styles {styles:4.0f},"
                            f" {ms:6.1f} ms laying out"
                        )
                browser.close()
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=60)
    print(
        f"in all: {totals['layouts']:.0f} layouts, {totals['styles']:.0f} style"
        f" recalculations, {totals['ms']:.0f} ms laying out"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
