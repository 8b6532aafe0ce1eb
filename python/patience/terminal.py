"""Terminal play: draws the table with Rich, reads moves in notation, keeps the clock.

The board is drawn from :meth:`Game.observation`, so the terminal shows exactly what a
player may see. Moves are typed in the notation of docs/rules.md; a card (``Qh``) or a
place (``t3``, ``w``) alone taps that card, sending it to the foundation when it has a
place there.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any, Final

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from patience.cards import Card
from patience.errors import InvalidCardError, InvalidMoveError
from patience.games import GAMES, Played
from patience.games.layout import ClientLayout, Pile
from patience.moves import Move, Place
from patience.session import Session

__all__ = ["HELP", "SINGLE_KEYS", "TerminalGame", "help_common", "read_key", "render"]


def help_common(time_bonus: bool) -> str:
    """The lines of ``help`` every game shows; ``end`` promises a time bonus only in a game
    that has one (:attr:`Game.has_time_bonus`; the others break ties by time).

    >>> "time bonus" in help_common(True), "time bonus" in help_common(False)
    (True, False)
    """
    end = "stop now (a time bonus counts)" if time_bonus else "stop now"
    return (
        f"  u, undo   take back the last move     end      {end}\n"
        "  moves     list the legal moves        help, ?  this text       q  leave\n"
    )


HELP: Final[dict[str, str]] = {name: cls.terminal_help for name, cls in GAMES.items()}
"""What each game's ``help`` shows, before the common lines (:attr:`Game.terminal_help`)."""


def _card_text(text: str) -> Text:
    card = Card.parse(text)
    return Text(card.pretty, style="bold red" if card.is_red else "bold")


def _face_down() -> Text:
    return Text("▒▒▒", style="blue")


def _empty() -> Text:
    return Text("[ ]", style="dim")


def _clock_text(seconds: float) -> str:
    whole = max(0, int(seconds + 0.999))
    return f"{whole // 60}:{whole % 60:02d}"


def _cards_text(cards: list[str], *, show: int, label: str) -> Text:
    """The last ``show`` of ``cards`` (older ones dimmed), with how many lie under them."""
    text = Text(label)
    shown = cards[-show:] if show else []
    if not shown:
        text.append("—", style="dim")
        return text
    for card in shown[:-1]:
        under = _card_text(card)
        under.stylize("dim")
        text.append_text(under)
        text.append(" ")
    text.append_text(_card_text(shown[-1]))
    if len(cards) > len(shown):
        text.append(f"  (+{len(cards) - len(shown)} under)", style="dim")
    return text


def _piles_text(label: str, tops: list[Text]) -> Text:
    text = Text(label)
    for top in tops:
        text.append(" ")
        text.append_text(top)
    return text


def _variant_text(observation: dict[str, Any]) -> str:
    return GAMES[observation["game"]].variant_text(observation["variant"])


def _cell_piles(layout: ClientLayout) -> list[Pile]:
    """The layout's piles of cards held aside (a hand, or free cells in slots)."""
    return [
        pile for row in layout["rows"] for pile in row.get("piles", []) if pile["kind"] == "cell"
    ]


def _status(observation: dict[str, Any]) -> str:
    status = GAMES[observation["game"]].status
    return "   ".join(f"{label} {observation[field]}" for label, field in status)


def _pile_text(pile: Pile, observation: dict[str, Any], foundation: str) -> Text:
    """One pile of the game's layout (:class:`ClientLayout`), as the terminal writes it."""
    kind = pile["kind"]
    value: Any = observation.get(pile.get("field", ""))
    if kind == "stock":
        return Text(f"{pile.get('name', 'stock').capitalize()} [{value}]")
    if kind == "waste":
        shown = (
            observation["variant"][pile["fan_option"]]
            if "fan_option" in pile
            else pile.get("fan", 1)
        )
        return _cards_text(observation["waste"], show=shown, label="Waste ")
    if kind == "reserve":
        text = Text(f"Reserve [{value['cards']}] ")
        text.append_text(_card_text(value["top"]) if value["top"] else _empty())
        return text
    if kind == "cell":
        label = pile.get("name", "cells").capitalize() + ("s" if pile.get("slots") else "")
        shown = [_card_text(card) if card else _empty() for card in value]
        return _piles_text(label, shown or [_empty()])
    slots = observation["foundation"]
    if pile.get("by") == "suit":
        tops = [
            _card_text(top) if top else Text(f"·{Card.parse('A' + suit).suit.symbol}", style="dim")
            for suit, top in slots.items()
        ]
    else:
        tops = [_card_text(slot["top"]) if slot else Text("·", style="dim") for slot in slots]
    return _piles_text(foundation.removeprefix("the ").capitalize(), tops)


def _top_row(observation: dict[str, Any]) -> Text:
    """The piles beside the columns (hand or stock, waste, reserve, foundations), in the
    order of the game's layout: a spacer in the layout is a wider gap here."""
    layout = GAMES[observation["game"]].layout
    text = Text()
    gap = ""
    for row in layout["rows"]:
        for pile in row.get("piles", []):
            if pile["kind"] == "spacer":
                gap = "      "
                continue
            text.append(gap)
            text.append_text(_pile_text(pile, observation, layout["words"]["foundation"]))
            gap = "   "
    return text


def _tableau(observation: dict[str, Any]) -> Table:
    table = Table(box=None, pad_edge=False, show_edge=False, padding=(0, 2))
    columns = observation["tableau"]
    for index in range(len(columns)):
        table.add_column(f"t{index + 1}", justify="left", header_style="bold cyan")
    height = max(column["hidden"] + len(column["cards"]) for column in columns)
    for row in range(max(height, 1)):
        cells: list[Text] = []
        for column in columns:
            if row < column["hidden"]:
                cells.append(_face_down())
            elif row - column["hidden"] < len(column["cards"]):
                cells.append(_card_text(column["cards"][row - column["hidden"]]))
            elif row == 0:
                cells.append(_empty())
            else:
                cells.append(Text(""))
        table.add_row(*cells)
    return table


def render(observation: dict[str, Any], *, remaining: float | None = None) -> RenderableType:
    """The table described by any game's ``observation``, ready to print."""
    header = Text.assemble(
        (_variant_text(observation), "bold"),
        f"    Score {observation['score']}",
        f"    Clock {_clock_text(remaining)}" if remaining is not None else "",
        f"    {_status(observation)}" if _status(observation) else "",
    )
    return Group(header, Text(), _top_row(observation), Text(), _tableau(observation))


SINGLE_KEYS: Final = frozenset("1234567 uq?\n")
"""Keys that act at once on a real terminal in a game played card by card (whose layout is
``direct``: a column's number plays it)."""


PASTE_SECONDS: Final = 0.02
"""How soon after a key more input must be waiting for the two to be one paste."""


def read_key(prompt: str) -> str:
    """Read one key press without waiting for Enter (for a ``direct`` game): a single
    key of :data:`SINGLE_KEYS` is returned as it is; any other key starts a line, read
    to its end as :func:`input` would. Text that arrives at once (pasted: ``help``,
    ``undo``) is a line too, never a key followed by the rest of the word."""
    import select
    import termios
    import tty

    print(prompt, end="", flush=True)
    descriptor = sys.stdin.fileno()
    saved = termios.tcgetattr(descriptor)
    try:
        tty.setcbreak(descriptor)  # keys arrive one at a time; Ctrl-C still interrupts
        # Read the descriptor itself: a buffered read would take a paste's rest out of
        # sight of select.
        arrived = os.read(descriptor, 1)
        while select.select([descriptor], [], [], PASTE_SECONDS)[0]:
            more = os.read(descriptor, 1024)
            if not more:
                break
            arrived += more
    finally:
        termios.tcsetattr(descriptor, termios.TCSADRAIN, saved)
    text = arrived.decode(errors="replace")
    if text in ("", "\x04"):
        raise EOFError
    if text in SINGLE_KEYS:
        print("space" if text == " " else text.strip())
        return text
    line, newline, _ = text.partition("\n")
    print(line, end="" if not newline else "\n", flush=True)
    return line if newline else line + input()


class TerminalGame:
    """One game played at the terminal. ``read`` asks for a line (``input`` by default)."""

    def __init__(
        self,
        session: Session,
        *,
        console: Console | None = None,
        read: Callable[[str], str] = input,
    ) -> None:
        self.session = session
        self.console = console or Console(highlight=False)
        self.read = read

    def run(self) -> None:
        """Play until the game ends, time runs out, or the player quits."""
        game = self.session.game
        self.console.print(f"[bold]{game.title}[/] — type [bold]help[/] for the moves.")
        message: Text | None = None
        while not self.session.is_over():
            self.console.print()
            self.console.print(render(game.observation(), remaining=self.session.remaining()))
            if message is not None:
                self.console.print(message)
            undo_hint = "" if game.can_undo() else " (undo unavailable)"
            try:
                line = self.read(f"move{undo_hint}> ")
            except (EOFError, KeyboardInterrupt):
                self.console.print("\nLeaving the game.")
                self.session.end()
                break
            command = " " if line and not line.strip() else line.strip().lower()
            if command in ("q", "quit", "exit"):
                self.session.end()
                break
            if command in ("?", "help"):
                message = Text(HELP[game.name] + help_common(game.has_time_bonus))
                continue
            if command == "moves":
                message = Text("Legal moves: " + ", ".join(str(m) for m in game.legal_moves()))
                continue
            message = self._try(command)
        self._summary()

    def _try(self, command: str) -> Text:
        try:
            move = self._interpret(command)
            played = self.session.play(move)
        except ValueError as error:
            return Text(str(error), style="yellow")
        return _describe(played)

    def _interpret(self, command: str) -> Move | str:
        game = self.session.game
        layout = game.layout
        if command in ("", " ", "d"):
            observation = game.observation()
            for row in layout["rows"]:
                for pile in row.get("piles", []):
                    if pile.get("recycle") and not observation[pile["field"]]:
                        return "recycle"
            return "draw"
        if command == "u":
            return "undo"
        if command.isdigit():  # a column by its number: a direct game plays it, others tap it
            command = f"t{command}"
            if layout["direct"]:
                return command
        place = self._tapped_place(command)
        if place is None:
            return command
        move = game.tap(place)
        if move is None:
            where = layout["words"]["foundation"]
            raise InvalidMoveError(f"{command}: that card has no place on {where} now")
        return move

    def _tapped_place(self, command: str) -> Place | None:
        """The place a tap names: a bare place (``t3``, ``w``, ``r``) or an exposed card
        (``Qh``: the waste's or the reserve's top, a column's exposed card, a hand card)."""
        if ">" in command or not command:
            return None
        try:
            place = Place.parse(command)
            if place.card is None and place.suit is None:
                return place
        except InvalidMoveError:
            pass
        try:
            card = Card.parse(command)
        except InvalidCardError:
            return None
        observation = self.session.game.observation()
        text = str(card)
        if observation.get("waste") and observation["waste"][-1] == text:
            return Place("w")
        reserve = observation.get("reserve")
        if isinstance(reserve, dict) and reserve.get("top") == text:
            return Place("r")
        for index, column in enumerate(observation["tableau"]):
            if column["cards"] and column["cards"][-1] == text:
                return Place("t", index + 1)
        for pile in _cell_piles(GAMES[observation["game"]].layout):
            held = observation[pile["field"]]
            if text in held and pile.get("slots"):
                return Place("c", held.index(text) + 1)
            if text in held:
                return Place("h", card=card)
        raise InvalidMoveError(f"{card} is not an exposed card")

    def _summary(self) -> None:
        session, game = self.session, self.session.game
        self.console.print()
        self.console.print(render(game.observation(), remaining=session.remaining()))
        outcome = session.outcome()
        reasons = {
            "won": "You played out: won!",
            "ended": "Game ended.",
            "timeout": "Time is up.",
            "closed": "The tournament closed.",
            "stuck": "No moves left.",
        }
        self.console.print()
        self.console.print(Text(reasons[outcome.reason] if outcome else "Game left.", style="bold"))
        bonus = session.time_bonus()
        home = game.cards_on_foundation()
        total = f"[bold]{game.score() + bonus}[/]"
        used = _clock_text(session.elapsed())
        where = game.layout["words"]["home"]
        if game.has_time_bonus:
            score = f"Points {game.score()}  +  time bonus {bonus}  =  {total}"
        else:
            score = f"Score {total}"
        self.console.print(
            f"{score}   ({home} card{'' if home == 1 else 's'} {where}, {used} used)"
        )


def _describe(played: Played) -> Text:
    total = played.total_points
    text = Text(str(played.move))
    if total:
        text.append(f"  {total:+d}", style="green" if total > 0 else "red")
    if played.revealed:
        text.append("  turned up " + " ".join(card.pretty for card in played.revealed))
    if played.auto:
        text.append(f"  then {len(played.auto)} cards played out by themselves")
    return text
