"""Taking moves back: a move row is a move (``kind`` 'move') or an undo event ('undo').

The moves stay append-only: an undo is a new row (its seat, and in ``action`` how many of that seat's
latest decisions it takes back) and replaying the rows in order leaves the undone moves out.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("moves") as batch:
        batch.add_column(sa.Column("kind", sa.String(8), nullable=False, server_default="move"))


def downgrade() -> None:
    with op.batch_alter_table("moves") as batch:
        batch.drop_column("kind")
