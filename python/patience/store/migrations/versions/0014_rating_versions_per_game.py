"""Each game's difficulty rating has its own version: a catalog row's ``rating_version``
is its game's (Kansas's and Klondike's ratings are of version 2, the other games' of
version 1), and ``patience deals generate`` rates again in place the rows an earlier
version rated and nobody was dealt.

This revision changes no table. It is the mark that keeps the code before it, which reads
every rating as of one version for all games, from using a catalog whose Kansas and
Klondike rows may now hold version 2's tiers: that code refuses a database at a migration
newer than its own (docs/deploy.md, "Rolling back").

Revision ID: 0014
Revises: 0013
"""

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Nothing to change in the tables (see the module's notes)."""


def downgrade() -> None:
    """Nothing to change back."""
