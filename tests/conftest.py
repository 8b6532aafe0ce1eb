"""Shared test settings and fixtures.

Hypothesis profiles (``ci`` is used when CI is set), and databases: ``postgres_url`` (a
private PostgreSQL cluster for the session, see ``postgres.py``), ``fresh_postgres_url``
(a new empty PostgreSQL database per test) and ``database_url`` (each test run twice, on a
fresh SQLite file and on a fresh PostgreSQL database, migrated as ``patience db migrate``
does); for the browser tests of the table, ``chromium`` (Debian's, headless),
``table_server`` and ``short_clock_server`` (a server with no catalog refill and no rate
limits; the second with a 3 s clock) and ``table`` (pages of the client at the review's
screen sizes, their errors checked at the end).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from playwright.sync_api import Browser, sync_playwright

import postgres
from patience.store.db import migrate_url
from tables import CHROMIUM, Table, start_server

SLOW_TIMEOUT = 3600
"""Seconds a large run (marked ``slow``) may take before pytest-timeout ends it; the others
have the 300 s of ``pyproject.toml``."""

settings.register_profile("dev", max_examples=60, deadline=None)
settings.register_profile(
    "ci", max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "slow_on_postgresql: the test's PostgreSQL run is a large run (marked slow); its "
        "SQLite run stays in make test",
    )


@pytest.hookimpl(tryfirst=True)  # before -m picks the tests to run
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test marked ``slow_on_postgresql`` is ``slow`` when it runs on PostgreSQL: a long
    check that tests what the server does, not what the database does, runs on both
    databases in ``make test-slow`` and on SQLite in ``make test``. A slow test may run
    :data:`SLOW_TIMEOUT` seconds."""
    for item in items:
        callspec = getattr(item, "callspec", None)
        on_postgresql = callspec is not None and callspec.params.get("database_url") == "postgresql"
        if on_postgresql and item.get_closest_marker("slow_on_postgresql"):
            item.add_marker(pytest.mark.slow)
        if item.get_closest_marker("slow") and not item.get_closest_marker("timeout"):
            item.add_marker(pytest.mark.timeout(SLOW_TIMEOUT))


@pytest.fixture(autouse=True, scope="session")
def deal_key_file(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A deal key of the test session's own (``PATIENCE_DEAL_KEY_FILE``, inherited by the
    commands and servers tests start), so that no test makes or reads the user's key."""
    path = tmp_path_factory.mktemp("deal-key") / "deal.key"
    saved = os.environ.get("PATIENCE_DEAL_KEY_FILE")
    os.environ["PATIENCE_DEAL_KEY_FILE"] = str(path)
    yield path
    if saved is None:
        del os.environ["PATIENCE_DEAL_KEY_FILE"]
    else:
        os.environ["PATIENCE_DEAL_KEY_FILE"] = saved


@pytest.fixture(autouse=True, scope="session")
def solver_priority() -> Iterator[None]:
    """The servers and applications of the tests run their solver processes at their own
    priority (``PATIENCE_SOLVER_PRIORITY=normal``, inherited by the servers tests start),
    unless the environment says otherwise. The product's default, ``idle``, lets a solver
    run only on a core nothing else wants: beside the rest of the suite, which keeps both
    cores busy, a timed start's certifying or a hint waited tens of seconds for one. The
    default itself is tested on a pool of its own (``tests/test_operations.py``), and the
    commands that ``test_operations`` runs drop every ``PATIENCE_*`` setting."""
    saved = os.environ.get("PATIENCE_SOLVER_PRIORITY")
    os.environ.setdefault("PATIENCE_SOLVER_PRIORITY", "normal")
    yield
    if saved is None:
        del os.environ["PATIENCE_SOLVER_PRIORITY"]


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[postgres.Cluster]:
    """The session's private PostgreSQL cluster; a missing server fails, never skips."""
    failure = None
    try:
        with postgres.running_cluster() as cluster:
            yield cluster
    except postgres.PostgresError as error:
        failure = str(error)
    if failure is not None:  # failed here, outside the handler, to print the message alone
        pytest.fail(failure, pytrace=False)


@pytest.fixture(scope="session")
def postgres_url(postgres_cluster: postgres.Cluster) -> str:
    """SQLAlchemy URL of the session's database ``patience``, shared by its tests."""
    return postgres_cluster.url()


@pytest.fixture
def fresh_postgres_url(postgres_cluster: postgres.Cluster) -> Iterator[str]:
    """SQLAlchemy URL of a new empty database, dropped after the test."""
    name = postgres_cluster.new_database()
    yield postgres_cluster.url(name)
    postgres_cluster.drop_database(name)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """SQLAlchemy URL of a fresh database, migrated and empty: a SQLite file, then
    PostgreSQL."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'patience.sqlite3'}"
    else:
        url = request.getfixturevalue("fresh_postgres_url")
    migrate_url(url)
    return url


@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
    """Debian's Chromium, headless (never a browser Playwright downloads)."""
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def table_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server for the table's browser tests: its address."""
    yield from start_server(tmp_path_factory)


@pytest.fixture(scope="module")
def short_clock_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose every game has a 3 s clock."""
    yield from start_server(tmp_path_factory, PATIENCE_TIME_LIMIT="3")


@pytest.fixture
def table(chromium: Browser, table_server: str) -> Iterator[Callable[..., Table]]:
    """Pages of the client (``table("phone")``), closed, and their errors checked, after
    the test."""
    opened: list[Table] = []

    def make(size: str = "desktop", **options: Any) -> Table:
        made = Table(chromium, table_server, size, **options)
        opened.append(made)
        return made

    yield make
    for made in opened:
        made.close()
