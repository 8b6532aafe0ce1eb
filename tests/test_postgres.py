"""The PostgreSQL fixtures work for real: a private cluster, isolated databases, both backends."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

import postgres

metadata = sa.MetaData()
scores = sa.Table(
    "scores",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("player", sa.String(40), nullable=False),
    sa.Column("points", sa.Integer, nullable=False),
)


def table_names(url: str) -> list[str]:
    engine = sa.create_engine(url)
    try:
        return sorted(sa.inspect(engine).get_table_names())
    finally:
        engine.dispose()


def write_and_read(url: str) -> list[tuple[str, int]]:
    engine = sa.create_engine(url)
    try:
        metadata.create_all(engine)
        with engine.begin() as connection:
            connection.execute(
                scores.insert(), [{"player": "ana", "points": 120}, {"player": "bo", "points": 95}]
            )
        with engine.connect() as connection:
            rows = connection.execute(sa.select(scores.c.player, scores.c.points).order_by("id"))
            return [(player, points) for player, points in rows]
    finally:
        engine.dispose()


def test_session_database_is_postgresql_over_the_private_socket(postgres_url: str) -> None:
    engine = sa.create_engine(postgres_url)
    try:
        with engine.connect() as connection:
            version = connection.execute(sa.text("SHOW server_version")).scalar_one()
            socket = connection.execute(sa.text("SHOW unix_socket_directories")).scalar_one()
            listen = connection.execute(sa.text("SHOW listen_addresses")).scalar_one()
            fsync = connection.execute(sa.text("SHOW fsync")).scalar_one()
    finally:
        engine.dispose()
    assert engine.dialect.name == "postgresql"
    assert engine.dialect.driver == "psycopg"
    assert int(version.split(".")[0]) >= 13  # DROP DATABASE ... WITH (FORCE)
    assert socket == sa.make_url(postgres_url).query["host"]
    assert (listen, fsync) == ("", "off")


def test_fresh_database_creates_inserts_and_reads_back(fresh_postgres_url: str) -> None:
    assert table_names(fresh_postgres_url) == []
    assert write_and_read(fresh_postgres_url) == [("ana", 120), ("bo", 95)]
    assert table_names(fresh_postgres_url) == ["scores"]


def test_fresh_databases_are_isolated(postgres_cluster: postgres.Cluster) -> None:
    first, second = postgres_cluster.new_database(), postgres_cluster.new_database()
    try:
        assert first != second
        write_and_read(postgres_cluster.url(first))
        assert table_names(postgres_cluster.url(first)) == ["scores"]
        assert table_names(postgres_cluster.url(second)) == []
    finally:
        postgres_cluster.drop_database(first)
        postgres_cluster.drop_database(second)


def test_dropping_a_database_closes_connections_left_open(
    postgres_cluster: postgres.Cluster,
) -> None:
    name = postgres_cluster.new_database()
    engine = sa.create_engine(postgres_cluster.url(name))
    connection = engine.connect()  # left open, as a failing test might
    postgres_cluster.drop_database(name)
    with pytest.raises(sa.exc.OperationalError):
        connection.execute(sa.text("SELECT 1"))
    engine.dispose()


def test_database_url_serves_both_backends(
    database_url: str, request: pytest.FixtureRequest
) -> None:
    backend = request.node.callspec.params["database_url"]
    assert sa.make_url(database_url).get_backend_name() == backend
    migrated = table_names(database_url)  # migrated, as `patience db migrate` leaves it
    assert {"alembic_version", "sessions", "events", "users"} <= set(migrated)
    engine = sa.create_engine(database_url)
    with engine.connect() as connection:
        assert connection.execute(sa.text("SELECT count(*) FROM sessions")).scalar_one() == 0
    engine.dispose()
    assert write_and_read(database_url) == [("ana", 120), ("bo", 95)]
