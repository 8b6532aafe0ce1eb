"""A timed game as played: the clock, the end conditions, and an append-only event log.

The clock is injected (any function returning seconds), so tests and servers decide what
time is. The game's clock limit applies (5 minutes for Klondike); it stops when the game
ends, including the moment Klondike is solved and plays itself out. A game that runs out of
time ends with reason ``"timeout"`` and earns no time bonus. Time the server could not
answer (an outage, logged as a ``pause`` and a ``resume``) is not on the clock. A game may
also have a wall-clock end (``ends_at``: a tournament's close), past which it never runs,
whatever its clock and its outages: it ends there with reason ``"closed"``.

>>> from patience.games import new_game
>>> now = [0.0]
>>> session = Session(new_game("klondike", seed=3), clock=lambda: now[0])
>>> now[0] = 12.5
>>> _ = session.play("draw")
>>> session.elapsed(), [event.kind for event in session.log]
(12.5, ['start', 'move'])
>>> now[0] = 400.0
>>> session.outcome()
Outcome(won=False, reason='timeout')
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from patience.errors import GameOverError, InvalidRecordError, TimeUpError, UndoRefusedError
from patience.games import Game, Outcome, Played, new_game
from patience.moves import END, UNDO, Move
from patience.records import GameRecord

__all__ = ["EVENT_KINDS", "RELAXED_SECONDS", "Clock", "Event", "RelaxedSession", "Session"]

Clock = Callable[[], float]
EventKind = Literal["start", "move", "timeout", "pause", "resume"]
EVENT_KINDS: tuple[EventKind, ...] = ("start", "move", "timeout", "pause", "resume")


@dataclass(frozen=True, slots=True)
class Event:
    """One entry of a session's log: when (clock reading) and what (a move's notation)."""

    kind: EventKind
    at: float
    move: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON object."""
        data: dict[str, Any] = {"kind": self.kind, "at": self.at}
        if self.move is not None:
            data["move"] = self.move
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        """An event from :meth:`to_json`'s form; raises :class:`InvalidRecordError`."""
        kind, at, move = data.get("kind"), data.get("at"), data.get("move")
        if kind not in EVENT_KINDS:
            raise InvalidRecordError(f"unknown event kind {kind!r}")
        if not isinstance(at, (int, float)) or isinstance(at, bool):
            raise InvalidRecordError(f"event time must be a number, not {at!r}")
        if (kind == "move") != isinstance(move, str):
            raise InvalidRecordError("a move event carries its move, and only a move event does")
        return cls(kind, float(at), move)


class Session:
    """A game on the clock. Every accepted move is logged; rejected ones change nothing."""

    def __init__(
        self,
        game: Game,
        *,
        clock: Clock = time.monotonic,
        time_limit: float | None = None,
        ends_at: float | None = None,
    ) -> None:
        self.game = game
        self._clock = clock
        self.time_limit = float(game.time_limit if time_limit is None else time_limit)
        self.ends_at = ends_at
        """The clock reading past which the game never runs (None: no such end)."""
        self._start = clock()
        self._stopped_at: float | None = None  # elapsed seconds when the clock stopped
        self._timed_out = False
        self._closed = False  # timed out by ends_at, before its clock ran out
        self._paused = 0.0  # seconds credited for outages (pause to resume)
        self._paused_since: float | None = None  # clock reading of a pause not yet resumed
        self._log: list[Event] = [Event("start", self._start)]
        self._moves = 0  # move events in the log

    # -- the clock ----------------------------------------------------------------------

    def _used(self, at: float) -> float:
        """Seconds of play at clock reading ``at``: outages credited, a pause frozen."""
        if self._paused_since is not None:
            at = min(at, self._paused_since)
        return at - self._start - self._paused

    def elapsed(self) -> float:
        """Seconds of the clock used: frozen once the game ends, never past the limit."""
        if self._stopped_at is not None:
            return self._stopped_at
        return min(max(self._used(self._clock()), 0.0), self.time_limit)

    def remaining(self) -> float:
        """Seconds left on the clock (never past :attr:`ends_at`)."""
        left = self.time_limit - self.elapsed()
        if self.ends_at is not None and self._stopped_at is None:
            left = min(left, max(self.ends_at - self._clock(), 0.0))
        return left

    def _check_clock(self) -> None:
        if self._stopped_at is not None:
            return
        now = self._clock()
        out_of_time = self._used(now) >= self.time_limit
        at = self._start + self._paused + self.time_limit  # when the clock runs out
        if self.ends_at is not None and now >= self.ends_at:
            if not out_of_time or self.ends_at < at:
                self._closed = True
                at = self.ends_at
            out_of_time = True
        if out_of_time:
            self._stop(timed_out=True, at=at)

    def _stop(self, *, timed_out: bool, at: float) -> None:
        self._stopped_at = min(max(self._used(at), 0.0), self.time_limit)
        self._timed_out = timed_out
        if timed_out:
            self._log.append(Event("timeout", at))

    # -- playing ------------------------------------------------------------------------

    def play(self, move: Move | str) -> Played:
        """Play a move (``undo`` and ``end`` included) if the clock allows it."""
        self._check_clock()
        if self._timed_out:
            raise TimeUpError("time is up")
        if self.game.is_over():
            raise GameOverError("the game is over")
        now = self._clock()
        if self._paused_since is not None:  # a move answered: the server is up again
            self.resume(now)
        played = self.game.play(move)
        self._log.append(Event("move", now, str(played.move)))
        self._moves += 1
        if self.game.is_over():
            self._stop(timed_out=False, at=now)
        return played

    def pause(self, at: float) -> None:
        """Stop the clock at reading ``at`` (the last moment the server was known to answer)
        until :meth:`resume`: an outage is not charged to the player. A game over by then
        (its clock run out at ``at`` included) is left as it is and nothing is logged."""
        self._check_clock_at(at)
        if self._stopped_at is not None or self.game.is_over() or self._paused_since is not None:
            return
        self._paused_since = at
        self._log.append(Event("pause", at))

    def resume(self, at: float) -> None:
        """Start the clock again at reading ``at``, crediting the time since :meth:`pause`
        (never past :attr:`ends_at`: an outage across a tournament's close is credited up
        to the close, and the game ends there)."""
        if self._paused_since is None:
            return
        until = at if self.ends_at is None else min(at, self.ends_at)
        self._paused += max(until - self._paused_since, 0.0)
        self._paused_since = None
        self._log.append(Event("resume", at))

    @property
    def paused(self) -> float:
        """Seconds credited for outages (and a practice game's pauses) so far."""
        return self._paused

    @property
    def is_paused(self) -> bool:
        """Whether the clock is stopped by a pause not yet resumed."""
        return self._paused_since is not None

    def _check_clock_at(self, at: float) -> None:
        clock, self._clock = self._clock, lambda: at
        try:
            self._check_clock()
        finally:
            self._clock = clock

    def undo_refusal(self) -> str | None:
        """Why undo is refused now (the rules' reason), or None when it is allowed."""
        return self.game.undo_refusal()

    def can_undo(self) -> bool:
        """Whether :meth:`undo` would be accepted now (the clock apart)."""
        return self.undo_refusal() is None

    def undo(self) -> Played:
        """Undo the last move, if the rules and the clock allow it."""
        return self.play("undo")

    def end(self) -> Played:
        """Stop playing and collect the time bonus."""
        return self.play(END)

    def outcome(self) -> Outcome | None:
        """The game's outcome, or a timeout once the clock has run out."""
        self._check_clock()
        if self._timed_out:
            return Outcome(won=False, reason="closed" if self._closed else "timeout")
        return self.game.outcome()

    def is_over(self) -> bool:
        """Whether the session has ended (won, ended, stuck or out of time)."""
        return self.outcome() is not None

    def time_bonus(self) -> int:
        """The time bonus earned: only for a game that ended before its clock ran out."""
        outcome = self.outcome()
        if outcome is None or outcome.reason in ("timeout", "closed"):
            return 0
        return self.game.time_bonus(self.elapsed())

    def score(self) -> int:
        """The score, with the time bonus once the game has ended in time."""
        return self.game.score() + self.time_bonus()

    @property
    def log(self) -> tuple[Event, ...]:
        """The append-only event log."""
        return tuple(self._log)

    @property
    def log_length(self) -> int:
        """How many events the log holds (without copying it)."""
        return len(self._log)

    @property
    def move_count(self) -> int:
        """How many moves (``undo`` and ``end`` included) the log holds: a client that says
        which count it has seen lets a retried request be recognised."""
        return self._moves

    def apply(self, event: Event) -> None:
        """Apply a logged event at its logged time: how a log is replayed, whole
        (:meth:`rebuild`) or from where this copy of the session stopped (another server
        process wrote the rest). Raises :class:`InvalidRecordError` for an event that
        cannot have happened."""
        clock, self._clock = self._clock, lambda: event.at
        try:
            if event.kind == "start":
                raise InvalidRecordError("a session log has one start event, first")
            if event.kind == "timeout":
                self._check_clock()
                if not self._timed_out:
                    raise InvalidRecordError(
                        f"timeout logged at {event.at} before the clock ran out"
                    )
            elif event.kind in ("pause", "resume"):
                # A pause of an outage may find the clock paused already (its player had
                # hidden the page), a resume find it running: the event is kept in the log
                # all the same, which stays the database's, event for event.
                length = len(self._log)
                (self.pause if event.kind == "pause" else self.resume)(event.at)
                if len(self._log) == length:
                    self._log.append(event)
            else:
                assert event.move is not None
                self.play(event.move)
        finally:
            self._clock = clock

    def record(self) -> GameRecord:
        """The game as a record (docs/rules.md), ``elapsed`` included once it is over."""
        moves = [event.move for event in self._log if event.move is not None]
        return GameRecord(
            game=self.game.name,
            variant=self.game.variant,
            deal=self.game.deal,
            moves=tuple(moves),
            elapsed=self.elapsed() if self.is_over() else None,
        )

    @classmethod
    def rebuild(
        cls,
        game: Game,
        events: Iterable[Event],
        *,
        clock: Clock = time.monotonic,
        time_limit: float | None = None,
        ends_at: float | None = None,
    ) -> Session:
        """The session that ``events`` describe, replayed on ``game`` (freshly dealt).

        The clock readings come from the log, so the result is exact whatever ``clock``
        says now; ``clock`` only drives the session from here on."""
        events = list(events)
        if not events or events[0].kind != "start":
            raise InvalidRecordError("a session log starts with a start event")
        start = events[0].at
        session = cls(game, clock=lambda: start, time_limit=time_limit, ends_at=ends_at)
        session._clock = clock
        for event in events[1:]:
            session.apply(event)
        return session

    def to_json(self) -> dict[str, Any]:
        """Everything needed to rebuild the session: game, variant, deal and log."""
        return {
            "game": self.game.name,
            "variant": self.game.variant,
            "deal": [str(card) for card in self.game.deal],
            "time_limit": self.time_limit,
            "ends_at": self.ends_at,
            "log": [event.to_json() for event in self._log],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, clock: Clock = time.monotonic) -> Session:
        """The session :meth:`to_json` describes."""
        game = new_game(data["game"], deal=data["deal"], variant=data["variant"])
        events = [Event.from_json(item) for item in data["log"]]
        return cls.rebuild(
            game,
            events,
            clock=clock,
            time_limit=data.get("time_limit"),
            ends_at=data.get("ends_at"),
        )


RELAXED_SECONDS = 30 * 86_400.0
"""A relaxed game's clock, which nobody is shown: a game left alone is kept 30 days of play
(a page hidden pauses it), then ends."""


class RelaxedSession(Session):
    """A relaxed game: no clock or score shown, and undo goes back as far as the player
    likes, past turned-up cards and draws (the rules' undo limits keep a competitive game
    from peeking; a relaxed game counts in no standing). An undo takes back the last move
    still standing: the game is dealt again and the line before it replayed, so that the
    position is exactly the rules' own. Its record is that line, the moves taken back left
    out, which the engine of record replays as any other.

    >>> from patience.games import new_game
    >>> session = RelaxedSession(new_game("klondike", seed=3), clock=lambda: 0.0)
    >>> _ = session.play("draw"); session.game.can_undo()  # the rules refuse it
    False
    >>> _ = session.play("undo"); session.line(), session.game.observation()["hand"]
    ([], 24)
    """

    def line(self) -> list[str]:
        """The moves still standing: the log's moves with each undo taking back the one
        before it."""
        standing: list[str] = []
        for event in self._log:
            if event.move is None:
                continue
            if event.move == str(UNDO):
                standing.pop()
            else:
                standing.append(event.move)
        return standing

    def undo_refusal(self) -> str | None:
        """Only an empty line, or a game over, refuses undo."""
        if self.game.is_over():
            return "the game is over"
        return None if self.line() else "nothing to undo"

    def play(self, move: Move | str) -> Played:
        """Play a move; an undo takes back the last move standing, whatever it was."""
        parsed = Move.parse(move) if isinstance(move, str) else move
        if parsed != UNDO:
            return super().play(parsed)
        self._check_clock()
        if self._timed_out:
            raise TimeUpError("time is up")
        if self.game.is_over():
            raise GameOverError("the game is over")
        line = self.line()
        if not line:
            raise UndoRefusedError("cannot undo: nothing to undo")
        now = self._clock()
        if self._paused_since is not None:
            self.resume(now)
        before = self.game.score()
        game = new_game(self.game.name, deal=self.game.deal, variant=self.game.variant)
        for standing in line[:-1]:
            game.play(standing)
        self.game = game
        self._log.append(Event("move", now, str(UNDO)))
        self._moves += 1
        return Played(UNDO, game.score() - before)

    def record(self) -> GameRecord:
        """The game as a record: its line of play, the moves taken back left out."""
        return GameRecord(
            game=self.game.name,
            variant=self.game.variant,
            deal=self.game.deal,
            moves=tuple(self.line()),
            elapsed=self.elapsed() if self.is_over() else None,
        )
