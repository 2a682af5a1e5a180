"""The database: tables, seats, moves (append-only, undo events included), chat lines, and accounts with their
sessions, ratings and results, with migrations run on start.

SQLite by default (WAL, foreign keys on), PostgreSQL through
``postgresql+psycopg://``. The schema is owned by the Alembic migrations in
``obelisk/server/migrations``; :func:`open_database` upgrades any older
database in place before the server uses it.
"""

from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    create_engine,
    event,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

MIGRATIONS = Path(__file__).with_name("migrations")


def now() -> datetime:
    """The time every change is stamped with, in UTC: the one clock of the server (the tests move it here)."""
    return datetime.now(timezone.utc)


def aware(moment: datetime) -> datetime:
    """``moment`` as a UTC time: SQLite returns naive datetimes, and every time stored is UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    """A table: the fixed header of its record, its seats and its moves."""

    __tablename__ = "tables"
    __table_args__ = (Index("ix_tables_lobby", "status", "public", "updated"),
                      Index("ix_tables_creator", "creator", "status"))

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16))
    public: Mapped[bool] = mapped_column(Boolean)
    seed: Mapped[int] = mapped_column(BigInteger)
    salt: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(80))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    rematch_of: Mapped[str | None] = mapped_column(String(32), ForeignKey("tables.id"), nullable=True)
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)
    turn_seconds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    turn_started: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=True, default=now)
    """When the seat to act became the one to act (the turn clock counts from here). Every row has one;
    the column allows none only because migration 0004 added it to tables that already had rows."""
    turn_was: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """The clock of the seat whose decision last passed the turn on, given back if it takes that decision back."""
    creator: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The client address (an IPv6 one by its /64 network) that created the table: its waiting tables are capped."""
    rated: Mapped[bool] = mapped_column(Boolean, nullable=True, default=False, server_default=false())
    """Whether the table's finish updates the ratings of the accounts seated at it (nullable only because
    migration 0007 added it to a table that had rows; every row has a value)."""

    seats: Mapped[list["SeatRow"]] = relationship(order_by="SeatRow.seat", cascade="all, delete-orphan")


class SeatRow(Base):
    """A seat: a person (with a hashed token) or a bot; a person's seat may be handed to a bot.

    Until a person's seat is claimed ``token_hash`` is its invite's hash, which opens nothing but the
    claim; the claim replaces it with the hash of a new token that only the claimer receives.
    ``invite_hash`` keeps the invite's hash, so a second use of the invite is refused by name.
    """

    __tablename__ = "seats"
    __table_args__ = (Index("ix_seats_account", "account_id"),)

    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    name: Mapped[str] = mapped_column(String(64))
    bot: Mapped[str | None] = mapped_column(String(128), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    claimed: Mapped[bool] = mapped_column(Boolean)
    invite_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    account_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The account that claimed the seat, if a signed-in person did: the seat then opens for that account
    (or its token) on any device. No foreign key, so that adding it left the seats table as it was on
    SQLite; removing an account clears it from its seats."""
    mailed_turn: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """The ``turn_started`` of the last turn a turn e-mail was sent to this seat's account for."""


MOVE = "move"
UNDO = "undo"


class MoveRow(Base):
    """One event of a table, in order: an applied action (seat -1: a chance outcome) or an undo.

    (table, seq) is the key, so a seq is written once and rows are only ever added. An undo row
    (``kind`` ``UNDO``) takes back ``action`` of ``seat``'s latest decisions.
    """

    __tablename__ = "moves"

    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[int] = mapped_column(Integer)
    label: Mapped[str] = mapped_column(Text)
    time: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    kind: Mapped[str] = mapped_column(String(8), default=MOVE, server_default=MOVE)


class ChatRow(Base):
    """One line of a table's chat: in the players' channel (``seat`` the writer's) or the spectators' (no seat).

    A channel apart from the moves: it never changes the table's ``updated`` time, its version or its record.
    ``name`` is the writer's name when the line was written (empty: the page words it, "Player N" or
    "Spectator"). Lines are only ever added; ``id`` orders them.
    """

    __tablename__ = "chat_lines"
    __table_args__ = (Index("ix_chat_lines_table", "table_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id", ondelete="CASCADE"))
    channel: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    time: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AccountRow(Base):
    """A person's account: a name (unique as ``name_key``, its case-folded form), an Argon2 password hash and
    an optional e-mail address for turn notifications. Playing needs no account."""

    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(40), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    notify_email: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SessionRow(Base):
    """A signed-in browser: the SHA-256 hash of its session cookie (the cookie itself is never stored)."""

    __tablename__ = "account_sessions"
    __table_args__ = (Index("ix_account_sessions_account", "account_id"),)

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(String(32), ForeignKey("accounts.id", ondelete="CASCADE"))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingRow(Base):
    """An account's current rating in one game (``mu`` and ``sigma`` of the rating model)."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_game", "game", "mu"),)

    account_id: Mapped[str] = mapped_column(String(32), ForeignKey("accounts.id", ondelete="CASCADE"),
                                            primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ResultRow(Base):
    """How an account's seat finished one table: its place among ``players``, and for a rated table the
    rating before and after. Written once, when the table finishes; history and statistics read it."""

    __tablename__ = "account_results"
    __table_args__ = (Index("ix_account_results_account", "account_id", "game", "finished"),)

    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[str] = mapped_column(String(32), ForeignKey("accounts.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    place: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    """Whether the seat is among the game's winners (nullable only because migration 0008 added it; every row
    has a value). Not the same as first place: a Cleopatra game where the crocodile eats everyone has no winner."""
    rated: Mapped[bool] = mapped_column(Boolean)
    mu_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    sigma_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    mu_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    sigma_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    finished: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def default_url() -> str:
    """``sqlite:///`` a file in the per-user data folder (``OBELISK_DATA_DIR`` overrides it)."""
    folder = os.environ.get("OBELISK_DATA_DIR")
    if not folder:
        import platformdirs

        folder = platformdirs.user_data_dir("obelisk", appauthor=False)
    Path(folder).mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{Path(folder) / 'obelisk.db'}"


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite connections get WAL and foreign keys."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


def alembic_config(engine: Engine) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["engine"] = engine
    return config


def migrate(engine: Engine, revision: str = "head") -> None:
    """Upgrade the database to ``revision`` (the newest by default), keeping its data."""
    command.upgrade(alembic_config(engine), revision)


def open_database(url: str | None = None) -> Engine:
    """An engine on ``url`` (default: :func:`default_url`) with the schema upgraded to the newest revision."""
    engine = make_engine(url or default_url())
    migrate(engine)
    return engine
