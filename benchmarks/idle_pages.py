"""What an idle page costs: the CPU Chromium and the server spend on a page nobody touches.

    .venv/bin/python benchmarks/idle_pages.py [--seconds 10] [--size 1280x800]

Starts a server (``patience serve`` on a fresh SQLite file, no background refill) and
headless Chromium (Debian's, as the tests drive it), opens the lobby and a practice deal of
each game in a page of its own, one after another, lets each settle for two seconds, then
counts the CPU time the browser's processes (Chromium's and Playwright's driver) and the
server's took while the page sat idle for ``--seconds``, read from ``/proc`` (Linux only).
Nothing else is done to the page: a player who looks at the table and thinks. An idle page
should cost next to nothing; one that draws at every frame costs a large share of a core
here, and a phone's battery.

No peer is run: this measures the client against itself (say, before and after a change to
its scripts, run in turn on the same machine, quiet: ``when-quiet``).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from patience.server import launch

CHROMIUM = "/usr/bin/chromium"
PAGES = {
    "lobby": "/",
    "klondike, draw 1": "/?game=klondike&draw=1&seed=5",
    "klondike, draw 3": "/?game=klondike&draw=3&seed=5",
    "golf, wrap": "/?game=golf&wrap=true&seed=5",
    "kansas": "/?game=kansas&seed=5",
    "solitaire expert": "/?game=expert&seed=5",
}
"""Each page measured, by its address on the server."""


def _processes() -> dict[int, tuple[int, float]]:
    """Every process now: its parent and its CPU seconds (user and system)."""
    tick = os.sysconf("SC_CLK_TCK")
    found: dict[int, tuple[int, float]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:  # ended meanwhile
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        found[int(entry)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / tick)
    return found


def cpu_below(root: int, *, apart: int | None = None) -> tuple[float, float]:
    """CPU seconds of the live processes descended from ``root``: those of the subtree of
    ``apart`` (the server) and the others (the browser's), in that order."""
    processes = _processes()
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in processes.items():
        children.setdefault(parent, []).append(pid)

    def subtree(top: int) -> set[int]:
        seen, stack = set(), [top]
        while stack:
            pid = stack.pop()
            seen.add(pid)
            stack.extend(children.get(pid, []))
        return seen

    inner = subtree(apart) if apart is not None else set()
    everything = subtree(root) - {root}
    return (
        sum(processes[pid][1] for pid in inner if pid in processes),
        sum(processes[pid][1] for pid in everything - inner if pid in processes),
    )


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; prints a line a page."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="idle time a page")
    parser.add_argument("--size", default="1280x800", help="the window, WIDTHxHEIGHT")
    args = parser.parse_args(argv)
    try:
        width, height = (int(side) for side in args.size.split("x"))
    except ValueError:
        parser.error(f"--size is WIDTHxHEIGHT, not {args.size!r}")
    if args.seconds <= 0:
        parser.error("--seconds must be more than 0")
    port = launch.free_port()
    with tempfile.TemporaryDirectory() as folder:
        server = launch.start(Path(folder) / "games.sqlite3", port, PATIENCE_CATALOG_REFILL="0")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM)
                print(f"idle for {args.seconds:g} s each, a {width}x{height} window:")
                for name, path in PAGES.items():
                    context = browser.new_context(viewport={"width": width, "height": height})
                    page = context.new_page()
                    page.goto(f"http://127.0.0.1:{port}{path}")
                    if "game=" in path:
                        page.wait_for_selector("#board .card")
                    page.wait_for_timeout(2000)  # the deal's motion over
                    server_before, browser_before = cpu_below(os.getpid(), apart=server.pid)
                    page.wait_for_timeout(args.seconds * 1000)
                    server_after, browser_after = cpu_below(os.getpid(), apart=server.pid)
                    browser_rate = (browser_after - browser_before) / args.seconds
                    server_rate = (server_after - server_before) / args.seconds
                    print(
                        f"  {name:18} browser {browser_rate:.3f} CPU s a second,"
                        f" server {server_rate:.3f}"
                    )
                    context.close()
                browser.close()
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=60)
    return 0


if __name__ == "__main__":
    sys.exit(main())
