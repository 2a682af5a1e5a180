"""Accounts, their sessions, seats claimed by an account, rated tables, ratings, results and turn e-mails.

An account is optional: a seat is still opened by its token, and ``seats.account_id`` is set only when a
signed-in person claims the seat as their account (the account is removed: the seat keeps its token and
forgets the account). ``account_sessions`` keeps only the SHA-256 hash of each session cookie.
``account_results`` has a row for every account's seat at every finished table (rated or not): the history
and statistics are read from it, and a rated table's row keeps the rating before and after. ``ratings``
holds each account's current rating per game. ``seats.mailed_turn`` is the start of the last turn a turn
e-mail was sent for, so one turn is mailed once, by one process.

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(40), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("notify_email", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "account_sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_account_sessions_account", "account_sessions", ["account_id"])
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ratings_game", "ratings", ["game", "mu"])
    op.create_table(
        "account_results",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=True),
        sa.Column("sigma_before", sa.Float(), nullable=True),
        sa.Column("mu_after", sa.Float(), nullable=True),
        sa.Column("sigma_after", sa.Float(), nullable=True),
        sa.Column("finished", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_account_results_account", "account_results", ["account_id", "game", "finished"])
    # Added and dropped with plain ALTER TABLE, never a batch: on SQLite a batch would rebuild ``tables``,
    # and dropping the old one deletes every seat and move through their ON DELETE CASCADE.
    op.add_column("tables", sa.Column("rated", sa.Boolean(), nullable=True, server_default=sa.false()))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("account_id", sa.String(32), nullable=True))
        batch.add_column(sa.Column("mailed_turn", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_seats_account", "seats", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_seats_account", "seats")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("mailed_turn")
        batch.drop_column("account_id")
    op.drop_column("tables", "rated")
    op.drop_index("ix_account_results_account", "account_results")
    op.drop_table("account_results")
    op.drop_index("ix_ratings_game", "ratings")
    op.drop_table("ratings")
    op.drop_index("ix_account_sessions_account", "account_sessions")
    op.drop_table("account_sessions")
    op.drop_table("accounts")
