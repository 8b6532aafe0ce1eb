"""A close that holds: a game's wall-clock end (``sessions.ends_at``: a tournament's close,
past which it never runs, outages or not); a tournament's early close or cancellation
recorded (when, by whom); and its publication, computed once after the close.

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("ends_at", sa.Float, nullable=True))
    # a tournament's games end at its close at the latest (their seal lasts until then)
    sessions = sa.table(
        "sessions", sa.column("ends_at", sa.Float), sa.column("sealed_until", sa.Float)
    )
    op.execute(
        sessions.update()
        .where(sessions.c.sealed_until.is_not(None))
        .values(ends_at=sessions.c.sealed_until)
    )
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("closed_early_at", sa.Float, nullable=True))
        batch.add_column(sa.Column("closed_by", sa.String(32), nullable=True))
        batch.add_column(
            sa.Column("cancelled", sa.Boolean, nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("publication", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("publication")
        batch.drop_column("cancelled")
        batch.drop_column("closed_by")
        batch.drop_column("closed_early_at")
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("ends_at")
