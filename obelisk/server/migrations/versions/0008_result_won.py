"""Whether an account's seat won a finished table, apart from its place.

A first place is not always a win: when the crocodile eats every architect of a Cleopatra game, everyone
shares first place and nobody wins. ``account_results.won`` keeps the game's own word (its outcome's
winners); rows written before it are filled from their place, which was the rule they were counted by.

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ALTER TABLE, as in 0007: a batch would rebuild the table on SQLite.
    op.add_column("account_results", sa.Column("won", sa.Boolean(), nullable=True))
    op.execute(sa.text("UPDATE account_results SET won = (place = 1)"))


def downgrade() -> None:
    op.drop_column("account_results", "won")
