"""Keyed catalog seeds: where each catalog deal's seed came from (``origin``: ``random``, or
``key:FINGERPRINT`` for a keyed stream), whether it was retired from dealing
(``retired_at``), and the position of every catalog job in its keyed stream
(``catalog_jobs``). Deals already in the catalog were made from a public stream, which
anyone can reproduce, or at random with nothing recorded to tell which: the unused ones are
retired, never to be dealt (docs/fairness.md).

Revision ID: 0007
Revises: 0006
"""

import time

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("deals") as batch:
        batch.add_column(sa.Column("origin", sa.String(24), nullable=True))
        batch.add_column(sa.Column("retired_at", sa.Float, nullable=True))
    deals = sa.table(
        "deals",
        sa.column("origin", sa.String),
        sa.column("retired_at", sa.Float),
        sa.column("session_id", sa.String),
    )
    op.execute(
        deals.update()
        .where(deals.c.session_id.is_(None))
        .values(origin="unrecorded", retired_at=time.time())
    )
    op.execute(deals.update().where(deals.c.origin.is_(None)).values(origin="unrecorded"))
    op.create_table(
        "catalog_jobs",
        sa.Column("game", sa.String(16), primary_key=True),
        sa.Column("variant", sa.Text, primary_key=True),
        sa.Column("origin", sa.String(24), primary_key=True),
        sa.Column("stream", sa.BigInteger, primary_key=True),
        sa.Column("next_index", sa.BigInteger, nullable=False),
        sa.Column("found", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("catalog_jobs")
    with op.batch_alter_table("deals") as batch:
        batch.drop_column("retired_at")
        batch.drop_column("origin")
