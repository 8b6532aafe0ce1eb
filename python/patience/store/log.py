"""The record of every game: its row in ``sessions`` and its events in ``events``, written
before a move is answered, and every game rebuilt from them exactly.

A game's next event takes the next sequence number of its log, and the primary key (game,
sequence number) lets only one writer have it: of two server processes writing the same
game at once, the second's insert fails (an :class:`~sqlalchemy.exc.IntegrityError`), and
that process reads the game again (:meth:`EventLog.replace`). Before every move and every
read a process applies the events others wrote since it last saw the game
(:meth:`EventLog.refresh`). The clock readings in the log are wall-clock times, so the
clock of a rebuilt game is where it would have been.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, and_, insert, select, update
from sqlalchemy.exc import IntegrityError

from patience.errors import PatienceError
from patience.games import new_game
from patience.moves import Move
from patience.session import Clock, Event, RelaxedSession, Session

from .db import events, sessions
from .live import Live
from .writer import Writer

__all__ = [
    "WRITE_TRIES",
    "Answer",
    "EndHook",
    "EndPassedError",
    "EventLog",
    "GameNotFoundError",
    "MoveConflictError",
    "session_class",
]

WRITE_TRIES = 5
"""Times a move is tried when other server processes keep writing the same game first."""


class GameNotFoundError(LookupError):
    """No game has this id."""


class EndPassedError(IntegrityError):
    """A write refused because the game's end in the database (``ended_at``, or its
    wall-clock end ``ends_at``: a tournament closed early by another process) comes before
    the events written. The writer reads the game again, as after a lost race for the
    log's next place (the callers' handling of :class:`~sqlalchemy.exc.IntegrityError`)."""

    def __init__(self, game_id: str) -> None:
        super().__init__(
            f"game {game_id} ended before these events", None, Exception("the game's end passed")
        )


class MoveConflictError(PatienceError):
    """A request that says which move count it has seen does not fit the game's log: it was
    made from a view the game has moved on from, or it names a move not yet seen."""


@dataclass(frozen=True, slots=True)
class Answer:
    """What a move request did: the move's own answer (:meth:`patience.games.Played.to_json`),
    and whether it was a retry of a move already played, answered as the first time."""

    last: dict[str, Any]
    repeated: bool = False


EndHook = Callable[[Connection, Live], None]
"""Called with the transaction and the game whenever a game ends, as its end is written."""


class EventLog:
    """Writes games' events to the database and rebuilds games from them; every write of
    the games' tables goes through :meth:`transaction` (the writing thread's, once
    :meth:`start_writer` has started it) or, for a single event, autocommit."""

    def __init__(self, engine: Engine, *, clock: Clock, on_end: EndHook | None = None) -> None:
        self.engine = engine
        """The database."""
        self.clock = clock
        """The wall clock the games' events are read on."""
        self.on_end = on_end
        """Told of every game's end in the transaction that writes it (:data:`EndHook`)."""
        self._autocommit = engine.execution_options(isolation_level="AUTOCOMMIT")
        self._writer: Writer | None = None

    # -- the writing thread ----------------------------------------------------------

    @property
    def writer(self) -> Writer | None:
        """The writing thread, once started."""
        return self._writer

    def start_writer(self) -> None:
        """Commit from a thread of its own (group commits)."""
        if self._writer is None:
            self._writer = Writer(self.engine)

    def close(self) -> None:
        """Commit the jobs submitted, and stop the writing thread."""
        if self._writer is not None:
            self._writer.close()
            self._writer = None

    def transaction(self, job: Callable[[Connection], Any]) -> Any:
        """Run ``job`` in a transaction: the writing thread's when it runs (one writer in
        this process: on SQLite two would take turns at the lock, the second sleeping a
        millisecond or more), else one of this thread's; its value."""
        if self._writer is not None:
            return self._writer.run(job)
        with self.engine.begin() as connection:
            return job(connection)

    # -- reading ---------------------------------------------------------------------

    def read(self, game_id: str) -> Live:
        """The game ``game_id`` rebuilt from its row and its log (not kept in memory):
        raises :class:`GameNotFoundError` when there is none."""
        with self.engine.connect() as connection:
            row = connection.execute(select(sessions).where(sessions.c.id == game_id)).first()
            if row is None:
                raise GameNotFoundError(f"no game {game_id!r}")
            log = connection.execute(
                select(events.c.kind, events.c.at, events.c.move)
                .where(events.c.session_id == game_id)
                .order_by(events.c.seq)
            ).all()
        game = new_game(row.game, deal=row.deal, variant=json.loads(row.variant))
        session = session_class(row.mode).rebuild(
            game,
            [Event(item.kind, item.at, item.move) for item in log],
            clock=self.clock,
            time_limit=row.time_limit,
            ends_at=row.ends_at,
        )
        return Live(
            id=row.id,
            token_hash=row.token_hash,
            session=session,
            mode=row.mode,
            seed=None if row.seed is None else int(row.seed),
            certified=row.certified,
            saved=len(log),
            tier=row.tier,
            user_id=row.user_id,
            sealed_until=row.sealed_until,
            numbered=numbered_of(row.numbered),
        )

    def read_terms(self, live: Live) -> None:
        """Read again a tournament game's end and seal, which an early close (in any
        server process) brings forward."""
        with self.engine.connect() as connection:
            row = connection.execute(
                select(sessions.c.sealed_until, sessions.c.ends_at).where(sessions.c.id == live.id)
            ).first()
        if row is not None:
            live.sealed_until = row.sealed_until
            live.session.ends_at = row.ends_at

    def refresh(self, live: Live) -> None:
        """Bring ``live`` up to date: apply the events other server processes wrote since
        this one last saw the game, then write down a timeout the clock has reached.
        Call it holding ``live.lock``."""
        if live.writing:  # this process is committing the game's newest move: it is current
            live.touched = time.monotonic()
            return
        if live.stale:
            self.replace(live)
        if live.sealed_until is not None and self.clock() < live.sealed_until:
            # a tournament game: its close may have moved, and the events below may be its
            # end at the new close, which only the new terms explain (read first)
            self.read_terms(live)
        with self.engine.connect() as connection:
            newer = connection.execute(
                select(events.c.kind, events.c.at, events.c.move)
                .where(and_(events.c.session_id == live.id, events.c.seq >= live.saved))
                .order_by(events.c.seq)
            ).all()
        if newer:
            if live.session.log_length != live.saved:  # pragma: no cover - a bug, loudly
                raise AssertionError("a game in memory has events not in the database")
            for item in newer:
                live.session.apply(Event(item.kind, item.at, item.move))
            live.saved += len(newer)
        live.touched = time.monotonic()
        self.flush(live)

    def replace(self, live: Live) -> None:
        """Make ``live`` the game as the database has it (its copy was wrong or behind).
        When the game cannot be read (a close by another process caught between its two
        writes), ``live`` is marked stale, to be read again next time, and the error
        raised."""
        try:
            fresh = self.read(live.id)
        except Exception:
            live.stale = True
            raise
        live.session, live.saved, live.stale = fresh.session, fresh.saved, False

    def repeated(self, live: Live, move: str, move_count: int) -> Answer:
        """The first answer to ``move`` as move ``move_count`` of ``live`` (a retried
        request whose move the log holds at that place); :class:`MoveConflictError` when
        the log holds another move there, or none yet."""
        seen = live.session.move_count
        if move_count > seen or move_count < 0:
            raise MoveConflictError(
                f"this game is at move {seen}, not {move_count}: it moved on in another "
                "tab or device, and this move was not played"
            )
        with self.engine.connect() as connection:
            row = connection.execute(
                select(events.c.move, events.c.reply)
                .where(and_(events.c.session_id == live.id, events.c.kind == "move"))
                .order_by(events.c.seq)
                .offset(move_count)
                .limit(1)
            ).first()
        if row is None or row.reply is None or not _same_move(move, row.move):
            raise MoveConflictError(
                f"move {move_count + 1} of this game was already played in another tab or "
                "device: this move was not played"
            )
        return Answer(json.loads(row.reply), repeated=True)

    # -- writing ---------------------------------------------------------------------

    def flush(self, live: Live, *, strict: bool = False) -> None:
        """Write the events of ``live`` not yet in the database (a timeout noticed while
        reading the game, say). Call it holding ``live.lock``. When another process wrote
        the game's next event first, the game is read again, or, ``strict``, the
        :class:`IntegrityError` is raised."""
        if live.writing or live.stale:
            return  # the move being committed, or the rebuild, comes first
        live.session.is_over()  # notices a clock run out, which logs a timeout
        if live.session.log_length > live.saved:
            try:
                self.write(live)
            except IntegrityError:
                if strict:
                    raise
                self.replace(live)  # another process wrote it (or a move) first

    def write(self, live: Live, *, reply: dict[str, Any] | None = None) -> None:
        """Write the events of ``live`` not yet in the database, ``reply`` with the last move.
        One event that does not end the game (nearly every move) is a single statement in
        autocommit: one round trip to the database instead of three (not for a game with a
        wall-clock end, whose end is checked in the same transaction: :meth:`store_events`)."""
        rows, end = self.pending(live, reply)
        if not rows:
            return
        if len(rows) == 1 and end is None and live.session.ends_at is None:
            with self._autocommit.connect() as connection:
                connection.execute(insert(events), rows[0])
        else:
            with self.engine.begin() as connection:
                self.store_events(connection, live, rows, end)
        live.saved += len(rows)

    def pending(
        self, live: Live, reply: dict[str, Any] | None
    ) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
        """The rows of ``live``'s events not yet in the database (``reply`` with the last
        move), and the result to write when the game is over (else None)."""
        log = live.session.log
        rows = [
            {
                "session_id": live.id,
                "seq": seq,
                "kind": e.kind,
                "at": e.at,
                "move": e.move,
                "reply": None,
            }
            for seq, e in enumerate(log[live.saved :], start=live.saved)
        ]
        if rows and reply is not None:
            moves = [row for row in rows if row["kind"] == "move"]
            moves[-1]["reply"] = json.dumps(reply, separators=(",", ":"))
        end = None
        if rows and live.session.is_over():
            outcome = live.session.outcome()
            end = {
                "ended_at": log[-1].at,
                "won": outcome is not None and outcome.won,
                "score": live.session.score(),
                "elapsed": live.session.elapsed(),
            }
        return rows, end

    def store_events(
        self,
        connection: Connection,
        live: Live,
        rows: list[dict[str, Any]],
        end: dict[str, Any] | None,
    ) -> None:
        """Insert ``rows``, and when the game is over its result (and tell :attr:`on_end`),
        in the caller's transaction.

        A game with a wall-clock end (a tournament's, which an operator may bring forward
        from another process) is first checked in the same transaction, with its row
        locked: still running in the database and ending no earlier than the newest event,
        else :class:`EndPassedError`. So once a close is committed no process logs a move
        after it, however its copy of the game lags (without this a player's moves in a
        tight loop could keep winning the log's next place from the close)."""
        if live.session.ends_at is not None:
            # a move at the very end is refused (the session's rule); the end's own event
            # is logged at it
            running = [sessions.c.id == live.id, sessions.c.ended_at.is_(None)]
            moves = [row["at"] for row in rows if row["kind"] == "move"]
            if moves:
                running.append(sessions.c.ends_at > max(moves))
            others = [row["at"] for row in rows if row["kind"] != "move"]
            if others:
                running.append(sessions.c.ends_at >= max(others))
            held = connection.execute(
                update(sessions).where(and_(*running)).values(ends_at=sessions.c.ends_at)
            ).rowcount
            if held != 1:
                raise EndPassedError(live.id)
        connection.execute(insert(events), rows)
        if end is not None:
            connection.execute(
                update(sessions)
                .where(and_(sessions.c.id == live.id, sessions.c.ended_at.is_(None)))
                .values(**end)
            )
            if self.on_end is not None:
                self.on_end(connection, live)


def session_class(mode: str) -> type[Session]:
    """The session a game of ``mode`` is played in: a relaxed game's undo has no limit.

    >>> session_class("relaxed").__name__, session_class("timed").__name__
    ('RelaxedSession', 'Session')
    """
    return RelaxedSession if mode == "relaxed" else Session


def _same_move(asked: str, logged: str | None) -> bool:
    """Whether the move ``asked`` for is the one ``logged`` (canonical notation)."""
    if logged is None:
        return False
    try:
        return str(Move.parse(asked)) == logged
    except PatienceError:
        return False


def numbered_of(text: str | None) -> tuple[str, int] | None:
    """A game row's numbered deal, ``(numbering, number)``, from its column (``"NAME
    NUMBER"``); None for a game dealt by its seed.

    >>> numbered_of("example 617"), numbered_of(None)
    (('example', 617), None)
    """
    if text is None:
        return None
    numbering, number = text.rsplit(" ", 1)
    return numbering, int(number)
