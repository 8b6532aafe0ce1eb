"""The daily deals: one catalog deal a game, variant and UTC day, and the games played of
each (a player's one game a daily deal).

Revision ID: 0012
Revises: 0011
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "daily_deals",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("variant", sa.Text, nullable=False),
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("seed", sa.String(20), nullable=False),
        sa.Column("tier", sa.Integer, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.UniqueConstraint("game", "variant", "day"),
    )
    op.create_table(
        "daily_games",
        sa.Column("session_id", sa.String(32), primary_key=True),
        sa.Column("daily_id", sa.Integer, sa.ForeignKey("daily_deals.id"), nullable=False),
        sa.Column("user_id", sa.String(32), nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.UniqueConstraint("daily_id", "user_id"),
    )
    op.create_index("daily_games_by_user", "daily_games", ["user_id", "daily_id"])


def downgrade() -> None:
    op.drop_index("daily_games_by_user", "daily_games")
    op.drop_table("daily_games")
    op.drop_table("daily_deals")
