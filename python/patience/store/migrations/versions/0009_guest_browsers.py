"""Guest games marked with their browser (``sessions.guest``: the SHA-256 of a random
cookie the browser keeps), so that a guest who signs up takes over every game that browser
played, or none: never a chosen few.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("guest", sa.String(64), nullable=True))
    op.create_index("sessions_by_guest", "sessions", ["guest"])


def downgrade() -> None:
    op.drop_index("sessions_by_guest", "sessions")
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("guest")
