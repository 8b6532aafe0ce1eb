"""Heartbeats and outages (the clock does not charge players for server downtime), a game's
end and credited time on its row, and each move's answer on its event (a retried request is
answered as the first time).

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("ended_at", sa.Float, nullable=True))
        batch.add_column(sa.Column("paused", sa.Float, nullable=False, server_default="0"))
    op.create_index("sessions_running", "sessions", ["ended_at"])
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("reply", sa.Text, nullable=True))
    op.create_table(
        "heartbeats",
        sa.Column("server", sa.String(32), primary_key=True),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("beat_at", sa.Float, nullable=False),
    )
    op.create_table(
        "outages",
        sa.Column("began", sa.Float, primary_key=True),
        sa.Column("ended", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("outages")
    op.drop_table("heartbeats")
    with op.batch_alter_table("events") as batch:
        batch.drop_column("reply")
    op.drop_index("sessions_running", "sessions")
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("paused")
        batch.drop_column("ended_at")
