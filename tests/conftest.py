"""Shared test settings and fixtures.

Hypothesis profiles (``ci`` is used when CI is set), and databases: ``postgres_url`` (a
private PostgreSQL cluster for the session, see ``postgres.py``), ``fresh_postgres_url``
(a new empty PostgreSQL database per test) and ``database_url`` (each test run twice, on a
fresh SQLite file and on a fresh PostgreSQL database, migrated as ``patience db migrate``
does).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

import postgres
from patience.store.db import migrate_url

settings.register_profile("dev", max_examples=60, deadline=None)
settings.register_profile(
    "ci", max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


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
