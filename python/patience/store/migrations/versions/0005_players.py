"""Players: accounts, signed-in sessions, failed log-ins; a game's player (or, hashed, the
address of a guest) and its result (won, score, seconds used), written when it ends.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(32), nullable=False, unique=True),
        sa.Column("password_hash", sa.Text, nullable=False),
        sa.Column("operator", sa.Boolean, nullable=False, server_default="0"),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "logins",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("logins_by_user", "logins", ["user_id"])
    op.create_table(
        "login_failures",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name_key", sa.String(32), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("login_failures_by_name", "login_failures", ["name_key", "at"])
    op.create_index("login_failures_by_address", "login_failures", ["address", "at"])
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("user_id", sa.String(32), nullable=True))
        batch.add_column(sa.Column("address", sa.String(64), nullable=True))
        batch.add_column(sa.Column("won", sa.Boolean, nullable=True))
        batch.add_column(sa.Column("score", sa.Integer, nullable=True))
        batch.add_column(sa.Column("elapsed", sa.Float, nullable=True))
    op.create_index("sessions_by_user", "sessions", ["user_id", "ended_at"])


def downgrade() -> None:
    op.drop_index("sessions_by_user", "sessions")
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("elapsed")
        batch.drop_column("score")
        batch.drop_column("won")
        batch.drop_column("address")
        batch.drop_column("user_id")
    op.drop_index("login_failures_by_address", "login_failures")
    op.drop_index("login_failures_by_name", "login_failures")
    op.drop_table("login_failures")
    op.drop_index("logins_by_user", "logins")
    op.drop_table("logins")
    op.drop_table("users")
