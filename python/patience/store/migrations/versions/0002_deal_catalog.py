"""The catalog of certified winnable deals for timed games.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "deals",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("variant", sa.Text, nullable=False),
        sa.Column("seed", sa.String(20), nullable=False),
        sa.Column("nodes", sa.BigInteger, nullable=False),
        sa.Column("seconds", sa.Float, nullable=False),
        sa.Column("moves", sa.Integer, nullable=False),
        sa.Column("added_at", sa.Float, nullable=False),
        sa.Column("session_id", sa.String(32), nullable=True),
        sa.UniqueConstraint("game", "variant", "seed"),
    )
    op.create_index("deals_unused", "deals", ["game", "variant", "session_id"])


def downgrade() -> None:
    op.drop_index("deals_unused", "deals")
    op.drop_table("deals")
