"""The games' clocks kept honest across the servers' lives: heartbeats, outages credited,
and games whose time ran out while nobody was looking ended.

Time no server answered is not charged to the players: every process writes a heartbeat
(:meth:`Timekeeper.beat`), and the first to start after all were down credits the outage to
every running game (a ``pause`` and a ``resume`` in its log;
:meth:`Timekeeper.credit_outage`). A game with a wall-clock end (``ends_at``, a
tournament's close) never runs past it: an outage is credited up to that end only, and the
game ends there. A game nobody watches is ended by its clock all the same
(:meth:`Timekeeper.expire`), so that the database says it is over.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import (
    ColumnElement,
    Connection,
    Float,
    and_,
    bindparam,
    case,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from .db import events, heartbeats, outages, sessions
from .live import LiveGames
from .log import EventLog

__all__ = ["Outage", "Timekeeper", "runs_until"]


def runs_until() -> ColumnElement[float]:
    """The moment a game's clock runs out, as the database can tell it: when its clock
    (started at ``created_at``, with ``paused`` seconds of outages credited) reaches its
    limit, or its wall-clock end ``ends_at`` when that comes first. A game not yet ended
    runs while this is in the future."""
    by_clock = sessions.c.created_at + sessions.c.paused + sessions.c.time_limit
    return case(
        (and_(sessions.c.ends_at.is_not(None), sessions.c.ends_at < by_clock), sessions.c.ends_at),
        else_=by_clock,
    )


@dataclass(frozen=True, slots=True)
class Outage:
    """A time no server answered, credited to the games then running."""

    began: float
    ended: float
    games: int

    @property
    def seconds(self) -> float:
        """How long it lasted."""
        return self.ended - self.began


class Timekeeper:
    """Heartbeats, outages and expiry for the games of ``log``; a game ``cache`` holds is
    ended through its copy there."""

    def __init__(self, log: EventLog, cache: LiveGames) -> None:
        self._log = log
        self._cache = cache

    def expire(self, *, limit: int = 100) -> int:
        """End, with a timeout in their logs, up to ``limit`` games whose clock has run out
        while nobody was looking (an abandoned timed game is over when its time is up, and
        says so in the database); how many."""
        now = self._log.clock()
        with self._log.engine.connect() as connection:
            due = connection.execute(
                select(sessions.c.id)
                .where(and_(sessions.c.ended_at.is_(None), runs_until() <= now))
                .limit(limit)
            ).scalars()
            ids = list(due)
        for game_id in ids:
            live = self._cache.get(game_id) or self._log.read(game_id)
            with live.lock:
                self._log.refresh(live)
        return len(ids)

    def beat(self, server: str, *, started: bool = False) -> None:
        """Write down that process ``server`` answers now (its heartbeat)."""
        now = self._log.clock()

        def write(connection: Connection) -> None:
            if started:
                connection.execute(
                    insert(heartbeats).values(server=server, started_at=now, beat_at=now)
                )
            else:
                connection.execute(
                    update(heartbeats).where(heartbeats.c.server == server).values(beat_at=now)
                )

        self._log.transaction(write)

    def credit_outage(self, *, stale_after: float) -> Outage | None:
        """At a process's start: when no server has written a heartbeat for ``stale_after``
        seconds, every server was down since the last one, and every game running then gets
        that time back (a ``pause`` at the last heartbeat and a ``resume`` now in its log).
        An outage is credited once, by whichever process claims it first."""
        engine = self._log.engine
        now = self._log.clock()
        with engine.connect() as connection:
            last = connection.execute(select(func.max(heartbeats.c.beat_at))).scalar()
        if last is None or now - last <= stale_after:
            return None
        try:
            with engine.begin() as connection:
                connection.execute(insert(outages).values(began=last, ended=now, games=0))
                running = connection.execute(
                    select(
                        sessions.c.id,
                        sessions.c.ends_at,
                        func.max(events.c.seq),
                        func.max(events.c.at),
                    )
                    .join(events, events.c.session_id == sessions.c.id)
                    .where(and_(sessions.c.ended_at.is_(None), runs_until() > last))
                    .group_by(sessions.c.id, sessions.c.ends_at)
                ).all()
                # A game's clock stops at the last heartbeat, or at its own last event when
                # that came later (a game started after the last heartbeat); the time is
                # credited up to now, or to the game's end (a tournament's close) when that
                # came first, as Session.resume credits it.
                paused = [
                    (game_id, seq, max(last, at), now if ends is None else min(now, ends))
                    for game_id, ends, seq, at in running
                ]
                if paused:
                    connection.execute(
                        insert(events),
                        [
                            {"session_id": game_id, "seq": seq + step, "kind": kind, "at": at}
                            for game_id, seq, since, _ in paused
                            for step, kind, at in ((1, "pause", since), (2, "resume", now))
                        ],
                    )
                    credit = bindparam("credit", type_=Float)
                    connection.execute(
                        update(sessions)
                        .where(sessions.c.id == bindparam("credited_game"))
                        .values(paused=sessions.c.paused + credit),
                        [
                            {"credited_game": game_id, "credit": max(0.0, until - since)}
                            for game_id, _, since, until in paused
                        ],
                    )
                connection.execute(
                    update(outages).where(outages.c.began == last).values(games=len(running))
                )
        except IntegrityError:
            return None  # another process is crediting it
        return Outage(last, now, len(running))
