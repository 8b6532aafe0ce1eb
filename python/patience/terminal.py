"""Terminal play: draws the table with Rich, reads moves in notation, keeps the clock.

The board is drawn from :meth:`Game.observation`, so the terminal shows exactly what a
player may see. Moves are typed in RULES.md notation; a card (``Qh``) or a place (``t3``,
``w``) alone taps that card, sending it to the foundation when it has a place there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from patience.cards import Card
from patience.errors import InvalidCardError, InvalidMoveError
from patience.games import Played
from patience.moves import Move, Place
from patience.session import Session

__all__ = ["HELP", "TerminalGame", "render"]

HELP = """\
Moves, in the notation of game records:
  t3>t5     move the run from column 3 that fits onto column 5 (t3:Qh>t5 names its first card)
  w>t2      waste to column 2        t4>f   column 4 to the foundation      f:h>t1  foundation back
  draw      turn cards from the hand (Enter alone does the same; recycles an empty hand)
  recycle   turn the waste back into the hand
  Qh, t3, w tap a card: it goes to the foundation if it has a place there
  undo (u)  take back the last move      end   stop and collect the time bonus
  moves     list the legal moves         help (?)  this text        quit (q)  leave
"""


def _card_text(text: str) -> Text:
    card = Card.parse(text)
    return Text(card.pretty, style="bold red" if card.is_red else "bold")


def _face_down() -> Text:
    return Text("▒▒▒", style="blue")


def _clock_text(seconds: float) -> str:
    whole = max(0, int(seconds + 0.999))
    return f"{whole // 60}:{whole % 60:02d}"


def render(observation: dict[str, Any], *, remaining: float | None = None) -> RenderableType:
    """The table described by a Klondike ``observation``, ready to print."""
    draw = observation["variant"]["draw"]
    header = Text.assemble(
        (f"Solitaire Rush · draw {draw}", "bold"),
        f"    Score {observation['score']}",
        f"    Clock {_clock_text(remaining)}" if remaining is not None else "",
        f"    Recycles {observation['recycles']}",
    )
    foundation = Text("Foundation ")
    for suit, top in observation["foundation"].items():
        foundation.append(" ")
        foundation.append_text(
            _card_text(top) if top else Text(f"·{Card.parse('A' + suit).suit.symbol}", style="dim")
        )
    waste = observation["waste"]
    shown = waste[-draw:] if draw > 1 else waste[-1:]
    stock = Text(f"Hand [{observation['hand']}]   Waste ")
    if shown:
        for text in shown[:-1]:
            under = _card_text(text)
            under.stylize("dim")
            stock.append_text(under)
            stock.append(" ")
        stock.append_text(_card_text(shown[-1]))
        if len(waste) > len(shown):
            stock.append(f"  (+{len(waste) - len(shown)} under)", style="dim")
    else:
        stock.append("—", style="dim")
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
                cells.append(Text("[ ]", style="dim"))
            else:
                cells.append(Text(""))
        table.add_row(*cells)
    return Group(header, Text(), Text.assemble(stock, "      ", foundation), Text(), table)


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
            command = line.strip().lower()
            if command in ("q", "quit", "exit"):
                self.session.end()
                break
            if command in ("?", "h", "help"):
                message = Text(HELP)
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
        if command in ("", "d"):
            return "draw" if game.observation().get("hand", 1) else "recycle"
        if command == "u":
            return "undo"
        place = self._tapped_place(command)
        if place is None:
            return command
        move = game.tap(place)
        if move is None:
            raise InvalidMoveError(f"{command}: that card has no place on the foundation now")
        return move

    def _tapped_place(self, command: str) -> Place | None:
        """The place a tap names: a bare place (``t3``, ``w``) or a visible card (``Qh``)."""
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
        if observation.get("waste") and observation["waste"][-1] == str(card):
            return Place("w")
        for index, column in enumerate(observation.get("tableau", [])):
            if column["cards"] and column["cards"][-1] == str(card):
                return Place("t", index + 1)
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
            "stuck": "No moves left.",
        }
        self.console.print()
        self.console.print(Text(reasons[outcome.reason] if outcome else "Game left.", style="bold"))
        bonus = session.time_bonus()
        home = game.cards_on_foundation()
        used = _clock_text(session.elapsed())
        self.console.print(
            f"Points {game.score()}  +  time bonus {bonus}  =  [bold]{game.score() + bonus}[/]"
            f"   ({home} card{'' if home == 1 else 's'} home, {used} used)"
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
