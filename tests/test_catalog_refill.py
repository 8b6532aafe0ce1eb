"""The server's background refill of the deal catalog gives every game and variant its
share of the solver: on a fresh server, the last kind in the list (the registry's last
game) gets deals while the first kinds (Klondike, whose rated deals take seconds each) are
still being stocked, not only once every kind before it is full. And it measures the rate
it makes each kind's deals at (the operator's estimate of a refill's wait)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from patience.games import variant_key
from patience.server import background as background_module
from patience.server.app import create_app
from patience.server.background import catalog_kinds
from patience.server.settings import Settings
from patience.store.catalog import unused
from patience.store.db import deals, migrate_url
from patience.store.games import GameStore

HEARTBEAT = 0.1
"""Seconds between wakes of the server's background loop (1 s by default): with the refill's
stock checked at every wake (below), a deal made is followed by the next one at once rather
than at the next two-second check, so each kind's turn costs the solver's work on its deal,
not the checks' interval."""


@pytest.fixture(autouse=True)
def quick_refill(monkeypatch: pytest.MonkeyPatch) -> None:
    """The refill's stock checked every 0.1 s (``REFILL_SECONDS``, 2 s on a server): the
    order of the kinds and the pool's idleness are what these tests check, not the
    interval."""
    monkeypatch.setattr(background_module, "REFILL_SECONDS", 0.1)


def test_every_kind_gets_its_share_of_the_refill(tmp_path: Path) -> None:
    # One deal a kind wanted (five at most for a rated kind: one a difficulty): a refill
    # that served the kinds in list order would make all five of each kind before the
    # last kind's first.
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    migrate_url(url)
    # (the solver at the server's own priority: the session's `solver_priority` fixture)
    settings = Settings(database_url=url, catalog_refill=1, heartbeat_seconds=HEARTBEAT)
    kinds = catalog_kinds()
    last_name, last_variant = kinds[-1]
    assert len(kinds) >= 6  # two variants of the first game, and at least four others
    with TestClient(create_app(settings)) as client:
        store: GameStore = client.app.state.store  # type: ignore[attr-defined]
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            with store.engine.connect() as connection:
                last = unused(connection, last_name, last_variant)
                total = connection.execute(select(func.count()).select_from(deals)).scalar_one()
            rates = client.app.state.background.rates  # type: ignore[attr-defined]
            rate = rates.per_minute((last_name, variant_key(last_variant)))
            if last and rate is not None:
                break
            time.sleep(0.2)
        assert last, f"no deal of {last_name} {last_variant} was made in 300 s"
        assert total < 5 * (len(kinds) - 1), f"{total} deals made before {last_name}'s first"
        # the deal made was measured: a rate of deals a minute, of that kind's own
        assert rate is not None, "the refill's deal was not measured"
        assert rate > 0
        assert rates.measured((last_name, variant_key(last_variant))) >= 1


def test_a_hint_does_not_wait_behind_the_refill(tmp_path: Path) -> None:
    """The refill rates deals on a solver process of its own: a practice game's hint, asked
    while the refill is rating a deal (seconds of solver work on a fresh server), is
    answered with a move in its time, not "no hint found in time" behind the refill."""
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    migrate_url(url)
    settings = Settings(database_url=url, catalog_refill=5, heartbeat_seconds=HEARTBEAT)
    with TestClient(create_app(settings)) as client:
        background = client.app.state.background  # type: ignore[attr-defined]
        for seed in (3, 5, 8):
            body = client.post(
                "/api/sessions", json={"game": "klondike", "seed": seed, "mode": "practice"}
            ).json()
            deadline = time.monotonic() + 60
            while not background.refill_jobs() and time.monotonic() < deadline:
                time.sleep(0.05)  # (polling the refill's state: no event to wait on)
            assert background.refill_jobs(), "the refill never ran"
            hint = client.post(
                f"/api/sessions/{body['id']}/hint",
                headers={"Authorization": f"Bearer {body['token']}"},
            ).json()
            assert hint["reason"] is None, hint
            assert hint["move"] in body["legal_moves"], hint
