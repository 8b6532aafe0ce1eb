"""Tournaments: the tournaments with their commitments, entries with their best attempt
(indexed in standings order), the games dealt as attempts; a game's deal kept secret until
its tournament closes.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("variant", sa.Text, nullable=False),
        sa.Column("policy", sa.String(8), nullable=False),
        sa.Column("tier", sa.Integer, nullable=True),
        sa.Column("time_limit", sa.Float, nullable=False),
        sa.Column("opens_at", sa.Float, nullable=False),
        sa.Column("closes_at", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("max_entrants", sa.Integer, nullable=False),
        sa.Column("created_by", sa.String(32), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("secret", sa.Text, nullable=False),
    )
    op.create_index("tournaments_by_close", "tournaments", ["closes_at"])
    op.create_table(
        "tournament_entries",
        sa.Column(
            "tournament_id", sa.String(32), sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column("user_id", sa.String(32), primary_key=True),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("joined_at", sa.Float, nullable=False),
        sa.Column("attempts_used", sa.Integer, nullable=False, server_default="0"),
        sa.Column("best_score", sa.Integer, nullable=True),
        sa.Column("best_elapsed", sa.Float, nullable=True),
        sa.Column("best_at", sa.Float, nullable=True),
        sa.UniqueConstraint("tournament_id", "number"),
    )
    op.create_index(
        "tournament_standings",
        "tournament_entries",
        ["tournament_id", sa.text("best_score DESC"), "best_elapsed", "best_at"],
    )
    op.create_table(
        "tournament_games",
        sa.Column("session_id", sa.String(32), primary_key=True),
        sa.Column("tournament_id", sa.String(32), sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("user_id", sa.String(32), nullable=False),
        sa.Column("attempt", sa.Integer, nullable=False),
        sa.Column("deal", sa.Integer, nullable=False),
        sa.UniqueConstraint("tournament_id", "user_id", "attempt"),
    )
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("sealed_until", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("sealed_until")
    op.drop_table("tournament_games")
    op.drop_index("tournament_standings", "tournament_entries")
    op.drop_table("tournament_entries")
    op.drop_index("tournaments_by_close", "tournaments")
    op.drop_table("tournaments")
