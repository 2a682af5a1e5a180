"""The client address that created each table, so one address has only so many tables waiting.

``tables.creator`` is that address (an IPv6 one by its /64 network); older tables have none. The index
serves the count of an address's waiting tables that every creation makes.

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
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("creator", sa.String(64), nullable=True))
    op.create_index("ix_tables_creator", "tables", ["creator", "status"])


def downgrade() -> None:
    op.drop_index("ix_tables_creator", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("creator")
