"""Log-in limits that hand an attacker no lock-out: every log-in attempt (written before its
password is checked, and marked a failure or not once it is), the devices an account has
logged in from, and sign-ups per address. The failures counted before go: they were at
most a quarter of an hour's, and the new limits count in another shape.

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("login_failures_by_address", "login_failures")
    op.drop_index("login_failures_by_name", "login_failures")
    op.drop_table("login_failures")
    op.create_table(
        "login_attempts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name_key", sa.String(32), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("device", sa.String(64), nullable=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("failed", sa.Boolean, nullable=False),
    )
    op.create_index("login_attempts_by_name", "login_attempts", ["name_key", "at"])
    op.create_index("login_attempts_by_address", "login_attempts", ["address", "at"])
    op.create_table(
        "devices",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.String(32), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("used_at", sa.Float, nullable=False),
    )
    op.create_index("devices_by_user", "devices", ["user_id", "used_at"])
    op.create_table(
        "sign_ups",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("sign_ups_by_address", "sign_ups", ["address", "at"])


def downgrade() -> None:
    op.drop_index("sign_ups_by_address", "sign_ups")
    op.drop_table("sign_ups")
    op.drop_index("devices_by_user", "devices")
    op.drop_table("devices")
    op.drop_index("login_attempts_by_address", "login_attempts")
    op.drop_index("login_attempts_by_name", "login_attempts")
    op.drop_table("login_attempts")
    op.create_table(
        "login_failures",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name_key", sa.String(32), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("login_failures_by_name", "login_failures", ["name_key", "at"])
    op.create_index("login_failures_by_address", "login_failures", ["address", "at"])
