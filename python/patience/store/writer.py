"""One thread that commits the server's moves, several requests' rows in one transaction
(a group commit), so that the event loop never waits for the database's commit.

A move is written before it is answered, and a durable commit waits for the disk (an
fsync on SQLite with ``synchronous=FULL``, the WAL's flush on PostgreSQL): 0.2 ms on a quiet
disk, several milliseconds at its 99th percentile, more on a busy machine. Made on the event
loop, every other player's request waits behind it; made here, the loop goes on answering
while the disk works, and the moves that arrive meanwhile share the next commit instead of
each waiting for its own.

A job is a function of an open transaction. If a batch fails on a unique key (another
server process wrote a game's next event first), each job of it is tried again in a
transaction of its own, so that only the one that conflicts fails.

>>> from sqlalchemy import create_engine, text
>>> engine = create_engine("sqlite://")
>>> writer = Writer(engine)
>>> writer.submit(lambda c: c.execute(text("CREATE TABLE t (x INTEGER)"))).result()
>>> futures = [writer.submit(lambda c, x=x: c.execute(text(f"INSERT INTO t VALUES ({x})")))
...            for x in range(3)]
>>> [future.result() for future in futures]
[None, None, None]
>>> writer.close()
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import IntegrityError

__all__ = ["Job", "Writer"]

Job = Callable[[Connection], None]
"""Statements to run in the writer's transaction."""

MAX_BATCH = 128
"""Jobs committed together at most."""


class Writer:
    """The writing thread of ``engine``, started at once; :meth:`close` stops it."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._jobs: queue.SimpleQueue[tuple[Job, Future[None]] | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="writer", daemon=True)
        self._closed = False
        self._thread.start()

    def submit(self, job: Job) -> Future[None]:
        """Run ``job`` in the next transaction; the future is done once it is committed
        (or holds the exception it raised)."""
        if self._closed:
            raise RuntimeError("the writer is closed")
        future: Future[None] = Future()
        self._jobs.put((job, future))
        return future

    def close(self) -> None:
        """Commit what was submitted, then stop the thread."""
        if not self._closed:
            self._closed = True
            self._jobs.put(None)
            self._thread.join()

    def _run(self) -> None:
        while True:
            item = self._jobs.get()
            if item is None:
                return
            batch = [item]
            stop = False
            while len(batch) < MAX_BATCH:
                try:
                    more = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            self._commit(batch)
            if stop:
                return

    def _commit(self, batch: list[tuple[Job, Future[None]]]) -> None:
        try:
            with self._engine.begin() as connection:
                for job, _ in batch:
                    job(connection)
        except IntegrityError as error:
            if len(batch) == 1:
                batch[0][1].set_exception(error)
            else:
                for one in batch:  # each alone: only the job that conflicts fails
                    self._commit([one])
            return
        except Exception as error:  # the database is away: every job of the batch fails
            for _, future in batch:
                future.set_exception(error)
            return
        for _, future in batch:
            future.set_result(None)
