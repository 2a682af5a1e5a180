"""The table chat: one row per line, in the players' or the spectators' channel.

``chat_lines`` is apart from ``moves``: a line never changes a table's version, its ``updated`` time or its
record. The index serves the reading of a table's newest lines.

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
        "chat_lines",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("time", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_lines_table", "chat_lines", ["table_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_chat_lines_table", "chat_lines")
    op.drop_table("chat_lines")
