"""Sessions and their event logs.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("variant", sa.Text, nullable=False),
        sa.Column("deal", sa.Text, nullable=False),
        sa.Column("seed", sa.String(20), nullable=True),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("certified", sa.Boolean, nullable=False),
        sa.Column("time_limit", sa.Float, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "events",
        sa.Column("session_id", sa.String(32), sa.ForeignKey("sessions.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("move", sa.String(32), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("events")
    op.drop_table("sessions")
