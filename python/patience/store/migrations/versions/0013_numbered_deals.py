"""A practice or relaxed game dealt by a numbering players know from elsewhere (FreeCell's
Microsoft deals): the numbering's name and the number, as ``"NAME NUMBER"``; null for a
game dealt by its seed.

Revision ID: 0013
Revises: 0012
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("numbered", sa.String(48), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("numbered")
