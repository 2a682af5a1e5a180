"""A per-table turn clock, and an index for the lobby's list of tables.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("turn_seconds", sa.Integer, nullable=True))
    op.create_index("ix_tables_lobby", "tables", ["status", "public", "updated"])


def downgrade() -> None:
    op.drop_index("ix_tables_lobby", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("turn_seconds")
