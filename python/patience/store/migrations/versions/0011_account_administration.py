"""Account administration: an account can be disabled (it cannot sign in, and its
signed-in sessions end) or deleted (kept as an anonymous entry, so that its games and
tournament results stand without its name); the last log-in is kept for the operator's list.

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as table:
        table.add_column(
            sa.Column("disabled", sa.Boolean, nullable=False, server_default=sa.false())
        )
        table.add_column(sa.Column("deleted_at", sa.Float, nullable=True))
        table.add_column(sa.Column("last_login_at", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("users") as table:
        table.drop_column("last_login_at")
        table.drop_column("deleted_at")
        table.drop_column("disabled")
