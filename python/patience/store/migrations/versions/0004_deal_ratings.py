"""Difficulty ratings: a catalog deal's tier, score, rating (the reference players' win rates
and the solver's features, as JSON) and the rating's version; the tier a game was dealt.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("deals") as batch:
        batch.add_column(sa.Column("tier", sa.Integer, nullable=True))
        batch.add_column(sa.Column("score", sa.Float, nullable=True))
        batch.add_column(sa.Column("rating", sa.Text, nullable=True))
        batch.add_column(sa.Column("rating_version", sa.Integer, nullable=True))
    op.create_index("deals_unused_tier", "deals", ["game", "variant", "tier", "session_id"])
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("tier", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("tier")
    op.drop_index("deals_unused_tier", "deals")
    with op.batch_alter_table("deals") as batch:
        batch.drop_column("rating_version")
        batch.drop_column("rating")
        batch.drop_column("score")
        batch.drop_column("tier")
