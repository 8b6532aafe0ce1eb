"""Terminal play, driven by a scripted reader and read back from a recording console."""

from __future__ import annotations

import os
import pty
import sys
import threading
from collections.abc import Iterator

import pytest
from rich.console import Console

from layouts import CLUBS, klondike_deal
from patience.games.klondike import Klondike
from patience.session import Session
from patience.terminal import TerminalGame, read_key


class Script:
    """Answers the prompts with the given lines, moving a clock on by ``step`` each time."""

    def __init__(self, lines: list[str], step: float = 1.0) -> None:
        self.lines: Iterator[str] = iter(lines)
        self.step = step
        self.now = 0.0
        self.prompts: list[str] = []

    def clock(self) -> float:
        return self.now

    def read(self, prompt: str) -> str:
        self.prompts.append(prompt)
        self.now += self.step
        return next(self.lines)  # StopIteration would mean the game asked for too much


def play(game: Klondike, lines: list[str], step: float = 1.0) -> tuple[str, Script, Session]:
    script = Script(lines, step)
    session = Session(game, clock=script.clock)
    console = Console(record=True, width=100, color_system=None, force_terminal=False)
    TerminalGame(session, console=console, read=script.read).run()
    return console.export_text(), script, session


def test_moves_taps_undo_and_quit() -> None:
    game = Klondike(klondike_deal({1: ["Ah"]}, hand=CLUBS), draw=1)
    text, script, session = play(
        game, ["", "Ac", "u", "Ac", "t1", "d", "u", "nonsense", "moves", "q"]
    )
    assert "Solitaire Rush · draw 1" in text
    assert "A♣" in text  # suit symbols
    assert "w>f  +60" in text  # the tap of Ac: +10 from the waste, +50 for an ace
    assert "t1>f  +50" in text
    assert "cannot undo" in text  # the first-time draw of 2c cannot be taken back
    assert "nonsense" in text
    assert "Legal moves:" in text
    assert "Game ended." in text
    assert session.game.cards_on_foundation() == 2
    assert any("undo unavailable" in prompt for prompt in script.prompts)
    assert [event.move for event in session.log if event.move] == [
        "draw",
        "w>f",
        "undo",
        "w>f",
        "t1>f",
        "draw",
        "end",
    ]


def test_the_clock_runs_out() -> None:
    game = Klondike(klondike_deal(hand=CLUBS), draw=3)
    text, _, session = play(game, ["d", "d", "d"], step=150.0)
    assert "Time is up." in text
    assert session.outcome() is not None
    assert session.time_bonus() == 0


def test_end_of_input_leaves_cleanly() -> None:
    game = Klondike(klondike_deal(), draw=3)
    script = Script([])
    session = Session(game, clock=script.clock)

    def read(prompt: str) -> str:
        raise EOFError

    console = Console(record=True, width=100, color_system=None)
    TerminalGame(session, console=console, read=read).run()
    assert "Leaving the game." in console.export_text()
    assert session.is_over()


def _read_key_from_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], typed: bytes
) -> str:
    """``read_key`` on a real pseudo-terminal, ``typed`` arriving there at once (as a paste
    does) while it waits."""
    controller, terminal = pty.openpty()
    with os.fdopen(terminal, "r") as stdin:
        monkeypatch.setattr(sys, "stdin", stdin)
        writer = threading.Timer(0.1, os.write, (controller, typed))
        writer.start()
        try:
            with capsys.disabled():
                return read_key("> ")
        finally:
            writer.join()
            os.close(controller)


@pytest.mark.parametrize(
    ("typed", "read"),
    [(b"help\n", "help"), (b"undo\n", "undo"), (b"quit\n", "quit"), (b"3", "3"), (b" ", " ")],
)
def test_golf_reads_a_pasted_word_whole_and_a_key_alone(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], typed: bytes, read: str
) -> None:
    assert _read_key_from_terminal(monkeypatch, capsys, typed) == read
