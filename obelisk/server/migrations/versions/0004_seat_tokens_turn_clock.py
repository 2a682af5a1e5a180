"""One-use invites and a turn clock of its own.

``seats.invite_hash`` keeps the hash of a seat's invite once the claim has replaced ``token_hash`` with
the claimer's own token, so a second use of the invite is refused by name. A seat still waiting for its
player keeps its invite in both (an older database's unclaimed seats too). ``tables.turn_started`` is when
the seat to act became the one to act (an older table's clock counts from its last change, as it did);
``tables.turn_was`` is the clock given back to a seat that takes back the decision that passed its turn
on.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("invite_hash", sa.String(64), nullable=True))
    op.execute(sa.text("UPDATE seats SET invite_hash = token_hash WHERE kind = 'human' AND claimed = :no")
               .bindparams(no=False))
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("turn_started", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("turn_was", sa.DateTime(timezone=True), nullable=True))
    # Left nullable: on SQLite a NOT NULL would rebuild the table, and dropping the old one would delete
    # every seat and move through their ON DELETE CASCADE. Every row has a value from here on.
    op.execute("UPDATE tables SET turn_started = updated")


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("turn_was")
        batch.drop_column("turn_started")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("invite_hash")
