"""What the server does besides answering: its heartbeat, crediting an outage at start-up,
keeping memory bounded, ending games whose clock ran out unwatched, and refilling the deal
catalog while the solver pool is idle.

One daemon thread does it all, a few database statements a second; it never holds a game's
lock longer than a request would.
"""

from __future__ import annotations

import gc
import itertools
import logging
import secrets
import threading
import time
from concurrent.futures import CancelledError, Future
from concurrent.futures.process import BrokenProcessPool
from functools import partial

from sqlalchemy import Connection, text
from sqlalchemy.exc import SQLAlchemyError

from patience.errors import PatienceError
from patience.games import GAMES, variant_key
from patience.rating import DIFFICULTIES, PLAYER_GAMES, is_rated
from patience.store.catalog import Certified, counts
from patience.store.db import checkpoint
from patience.store.games import GameStore, Outage, certify_deal, rate_deal

from .metrics import LIVE_GAMES
from .pool import SolverPool
from .refill import RefillRates
from .settings import Settings

__all__ = ["Background", "catalog_kinds"]

log = logging.getLogger("patience.server")

SWEEP_SECONDS = 5.0
"""How often games leave memory and unwatched clocks are checked."""

FULL_COLLECTION_SECONDS = 600.0
"""How often the garbage collector sees every object (:meth:`Background._collect`)."""

REFILL_SECONDS = 2.0
"""How often the catalog's stock is checked."""

REFILL_LOCK = 0x7061_7472
"""PostgreSQL advisory lock held by the one server process that refills the catalog, when
several serve one database: the others' solver processes stay free for their players."""


def catalog_kinds() -> list[tuple[str, dict[str, object]]]:
    """Every game and variant the catalog keeps deals for.

    >>> [(name, variant) for name, variant in catalog_kinds() if name == "golf"]
    [('golf', {'wrap': False}), ('golf', {'wrap': True})]
    """
    kinds = []
    for cls in GAMES.values():
        names = [option.name for option in cls.options]
        for values in itertools.product(*(option.values for option in cls.options)):
            kinds.append((cls.name, cls.check_variant(dict(zip(names, values, strict=True)))))
    return kinds


def _low(tiers: dict[int | None, int], name: str, variant: dict[str, object], target: int) -> bool:
    """Whether the catalog's stock of ``name`` and ``variant`` (its unused deals per tier,
    None for unrated) wants another deal."""
    total = sum(tiers.values())
    if total < target:
        return True
    if not is_rated(name, variant) or total >= 5 * target:
        return False
    return any(
        sum(n for tier, n in tiers.items() if tier is not None and lo <= tier <= hi)
        < max(1, target // 4)
        for lo, hi in DIFFICULTIES.values()
    )


class Background:
    """The server's background thread for ``store``, started with :meth:`start`."""

    def __init__(
        self,
        store: GameStore,
        pool: SolverPool,
        settings: Settings,
        refill_pool: SolverPool | None = None,
    ) -> None:
        self.server = secrets.token_hex(8)
        self._store = store
        self._pool = pool
        # The catalog's refill runs on a pool of its own (``pool`` when none is given): a
        # rating or a certifying takes seconds, and a hint or a timed deal waiting behind
        # it on the players' pool was answered "no hint found in time". It still starts
        # nothing while players' work runs or waits (players first).
        self._refill_pool = pool if refill_pool is None else refill_pool
        self._settings = settings
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="background", daemon=True)
        self._refiller: Connection | None = None  # holds REFILL_LOCK (PostgreSQL)
        self.outage: Outage | None = None
        self._kinds = catalog_kinds()
        self._turn = 0  # the kind the next refill looks at first
        # kinds wanted first (a tournament refused for want of them): (game, variant's key,
        # tier or None) -> (variant, unused deals wanted)
        self._first: dict[tuple[str, str, int | None], tuple[dict[str, object], int]] = {}
        self._first_lock = threading.Lock()
        self.rates = RefillRates(pause=REFILL_SECONDS)
        """The refill's measured rate of deals made, by game and variant."""

    @property
    def refilling(self) -> bool:
        """Whether this server refills the catalog (``catalog_refill`` above 0)."""
        return self._settings.catalog_refill > 0

    def want(self, name: str, variant: dict[str, object], tier: int | None, count: int) -> None:
        """Have the refill make deals of ``name`` and ``variant`` before any other kind's
        until the catalog holds ``count`` unused (of ``tier``, when one is named: a new
        deal falls in whichever tier it falls, so one of a tier may take several), then go
        back to its turns."""
        with self._first_lock:
            self._first[(name, variant_key(variant), tier)] = (variant, count)

    def start(self) -> None:
        """Credit an outage if every server was down, write the first heartbeat, and start
        the thread."""
        self.outage = self._store.credit_outage(stale_after=2 * self._settings.heartbeat_seconds)
        if self.outage is not None:
            log.warning(
                "no server answered for %.1f s: credited to %d running games",
                self.outage.seconds,
                self.outage.games,
            )
        self._store.beat(self.server, started=True)
        self._thread.start()

    def refill_jobs(self) -> int:
        """The refill's solver calls running or waiting now (on its own pool: 0 or 1)."""
        return self._refill_pool.busy()

    def stop(self) -> None:
        """Stop the thread (a last heartbeat is written)."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()
        self._release_refill()

    def _run(self) -> None:
        next_sweep = next_refill = time.monotonic()
        self._next_full_collection = next_sweep + FULL_COLLECTION_SECONDS
        while not self._stop.wait(self._settings.heartbeat_seconds):
            try:
                self._store.beat(self.server)
                checkpoint(self._store.engine)  # off the requests' path (store.db)
                LIVE_GAMES.set(self._store.live_count())
                now = time.monotonic()
                if now >= next_sweep:
                    next_sweep = now + SWEEP_SECONDS
                    self._store.sweep()
                    self._collect(now)
                if now >= next_refill and self._settings.catalog_refill > 0:
                    next_refill = now + REFILL_SECONDS
                    if self._may_refill():
                        self._refill()
            except SQLAlchemyError:  # the database is away for a moment: try again next beat
                log.exception("background work failed")

    def _collect(self, now: float) -> None:
        """Keep Python's full garbage collections short. Each one walks every object the
        collector tracks, and the games in memory are tens of thousands (their undo
        snapshots): 10 to 40 ms during which no move is answered, twice a minute at 200
        games. So what has lived to this sweep is frozen (left out of collections; plain
        reference counting still frees it), and once every ten minutes everything is thawed
        and collected once, so that reference cycles frozen meanwhile are freed too."""
        if now >= self._next_full_collection:
            self._next_full_collection = now + FULL_COLLECTION_SECONDS
            gc.unfreeze()
            gc.collect()
        gc.freeze()

    def _may_refill(self) -> bool:
        """Whether this process refills the catalog: always on SQLite (one process); on
        PostgreSQL the one holding :data:`REFILL_LOCK` on a connection of its own (taken
        over by another process when this one's connection ends)."""
        engine = self._store.engine
        if engine.dialect.name != "postgresql":
            return True
        if self._refiller is not None:
            try:
                self._refiller.exec_driver_sql("SELECT 1")
                self._refiller.commit()
                return True
            except SQLAlchemyError:
                self._release_refill()
        connection = engine.connect()
        try:
            held = connection.execute(
                text("SELECT pg_try_advisory_lock(:key)"), {"key": REFILL_LOCK}
            ).scalar()
            connection.commit()  # a session's advisory lock outlives the transaction
        except BaseException:
            connection.close()
            raise
        if not held:
            connection.close()
            return False
        self._refiller = connection
        return True

    def _release_refill(self) -> None:
        if self._refiller is not None:
            refiller, self._refiller = self._refiller, None
            try:
                refiller.invalidate()  # closed, not pooled: its session and lock end
                refiller.close()
            except SQLAlchemyError:
                log.warning("the catalog refill's connection did not close cleanly")

    def _refill(self) -> None:
        """One more certified deal for the next kind whose stock is low, if the solver pool
        is idle (players' requests first). The kinds take turns: the search starts after
        the kind refilled last, so every game and variant gets its share of the solver
        (a kind whose deals take seconds to rate, first in the list, had kept the solver
        for itself until its whole stock was made). A game with reference players gets
        rated deals, and its stock is low while any difficulty has fewer than a quarter of
        the setting unused (up to five times the setting in all, since a rated deal falls in
        whichever tier it falls)."""
        if self._pool.busy() or self._refill_pool.busy():
            return
        target = self._settings.catalog_refill
        count = len(self._kinds)
        with self._store.engine.connect() as connection:
            stock: dict[tuple[str, str], dict[int | None, int]] = {}
            for row in counts(connection):
                kind = stock.setdefault((row["game"], variant_key(row["variant"])), {})
                kind[row["tier"]] = row["unused"]
        if self._refill_first(stock):
            return
        for step in range(count):
            index = (self._turn + step) % count
            name, variant = self._kinds[index]
            if not _low(stock.get((name, variant_key(variant)), {}), name, variant, target):
                continue
            if self._submit(name, variant):
                self._turn = index + 1
            return

    def _refill_first(self, stock: dict[tuple[str, str], dict[int | None, int]]) -> bool:
        """A deal of a kind wanted first (:meth:`want`), while one still falls short of what
        is wanted; whether the solver was asked for one."""
        with self._first_lock:
            wanted = list(self._first.items())
        for (name, key, tier), (variant, count) in wanted:
            tiers = stock.get((name, key), {})
            have = sum(tiers.values()) if tier is None else tiers.get(tier, 0)
            if have >= count:
                with self._first_lock:
                    self._first.pop((name, key, tier), None)
                continue
            self._submit(name, variant)
            return True
        return False

    def _submit(self, name: str, variant: dict[str, object]) -> bool:
        """Ask the idle solver pool for one more deal of ``name`` and ``variant`` for the
        catalog; whether it took the job."""
        submitted = self.rates.now()
        if name in PLAYER_GAMES:  # rated (a tier once the variant is calibrated)
            job = self._refill_pool.try_idle(rate_deal, **self._store.rate_request(name, variant))
        else:
            request = self._store.certify_request(name, variant)
            job = self._refill_pool.try_idle(certify_deal, **request)
        if job is None:
            return False
        job.add_done_callback(partial(self._stock, name, variant, submitted))
        return True

    def _stock(
        self, name: str, variant: dict[str, object], submitted: float, job: Future[Certified]
    ) -> None:
        """Add a deal the solver process certified to the catalog, and count the job in
        the refill's rate (:attr:`rates`)."""
        if self._stop.is_set():
            return  # the server is stopping: its solver processes were ended mid-call
        kind = (name, variant_key(variant))
        try:
            made = self._store.add_to_catalog(name, variant, job.result())
        except PatienceError:  # no deal won in its tries: the next refill tries again
            self.rates.finished(kind, submitted=submitted, made=False)
        except (SQLAlchemyError, BrokenProcessPool, CancelledError):
            log.exception("refilling the catalog failed")
        else:  # (a deal the catalog had already makes none)
            self.rates.finished(kind, submitted=submitted, made=made)
