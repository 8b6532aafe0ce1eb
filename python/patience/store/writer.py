"""One thread that commits the server's writes, several requests' in one transaction (a
group commit), so that the event loop never waits for the database's commit.

A move is written before it is answered, and a durable commit waits for the disk (an
fsync on SQLite with ``synchronous=FULL``, the WAL's flush on PostgreSQL): 0.2 ms on a quiet
disk, several milliseconds at its 99th percentile, more on a busy machine. Made on the event
loop, every other player's request waits behind it; made here, the loop goes on answering
while the disk works, and the moves that arrive meanwhile share the next commit instead of
each waiting for its own.

The server's other frequent writes (a new game, a catalog deal claimed, the heartbeat) go
through the same thread: on SQLite, two writers in one process would take turns at the
database's lock, and SQLite's busy handler makes the second sleep a millisecond or more.

A job is a function of an open transaction; its value is the future's. If a batch fails
(a unique key: another server process wrote a game's next event first; or any other
error), each of its jobs is tried again in a transaction of its own, so that only the
one that fails fails.

>>> from sqlalchemy import create_engine, text
>>> engine = create_engine("sqlite://")
>>> writer = Writer(engine)
>>> writer.submit(lambda c: c.execute(text("CREATE TABLE t (x INTEGER)"))).result() is not None
True
>>> futures = [writer.submit(lambda c, x=x: c.execute(text(f"INSERT INTO t VALUES ({x})")))
...            for x in range(3)]
>>> writer.submit(lambda c: c.execute(text("SELECT sum(x) FROM t")).scalar()).result()
3
>>> writer.close()
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from sqlalchemy import Connection, Engine

__all__ = ["Job", "Writer"]

Job = Callable[[Connection], Any]
"""Statements to run in the writer's transaction; what it returns is the future's value."""

MAX_BATCH = 128
"""Jobs committed together at most."""


class Writer:
    """The writing thread of ``engine``, started at once; :meth:`close` stops it."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._jobs: queue.SimpleQueue[tuple[Job, Future[Any]] | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="writer", daemon=True)
        self._closed = False
        self._closing = threading.Lock()  # no job is queued after close's end mark
        self._thread.start()

    def submit(self, job: Job) -> Future[Any]:
        """Run ``job`` in the next transaction; the future is done once it is committed
        (with the job's value) or failed (with its exception)."""
        future: Future[Any] = Future()
        with self._closing:
            if self._closed:
                raise RuntimeError("the writer is closed")
            self._jobs.put((job, future))
        return future

    def run(self, job: Job) -> Any:
        """Run ``job`` in the next transaction and wait for its commit (from a thread that
        may wait: never the event loop's); its value, or its exception raised."""
        return self.submit(job).result()

    def close(self) -> None:
        """Commit what was submitted, then stop the thread."""
        with self._closing:
            if self._closed:
                return
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

    def _commit(self, batch: list[tuple[Job, Future[Any]]]) -> None:
        batch = [(job, future) for job, future in batch if future.set_running_or_notify_cancel()]
        if not batch:
            return
        values = []
        try:
            with self._engine.begin() as connection:
                for job, _ in batch:
                    values.append(job(connection))
        except Exception as error:
            if len(batch) == 1:
                batch[0][1].set_exception(error)
            else:
                for job, future in batch:  # each alone: only the job that fails fails
                    self._alone(job, future)
            return
        for (_, future), value in zip(batch, values, strict=True):
            future.set_result(value)

    def _alone(self, job: Job, future: Future[Any]) -> None:
        try:
            with self._engine.begin() as connection:
                value = job(connection)
        except Exception as error:
            future.set_exception(error)
        else:
            future.set_result(value)
