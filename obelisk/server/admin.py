"""The operator's tools behind ``obelisk admin``: back up and restore an SQLite database, find tables, and remove
a table or an account with everything that belongs to it (docs/operator.md).

Each function does one thing (a removal in one transaction); a mistake (a URL of the wrong kind,
an unknown id or name, a file that is not an Obelisk database) is an :class:`AdminError` with the sentence to
show, and changes nothing. A server may be running on the same database meanwhile: a backup is consistent (it
uses SQLite's online backup API), and a removed table stops being served (see ``live.LiveTables.removed``).
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from alembic.script import ScriptDirectory
from sqlalchemy import Engine, delete, func, or_, select, update
from sqlalchemy.orm import Session

from obelisk.server import store
from obelisk.server.notes import Note, notify
from obelisk.server.store import (
    AccountRow, ChatRow, MoveRow, RatingRow, ResultRow, SeatRow, SessionRow, TableRow, aware,
)

STATUSES = ("waiting", "playing", "finished", "expired")
PG_ADVICE = ("PostgreSQL databases are backed up with its own tools: pg_dump --format=custom --file=obelisk.dump "
             "NAME, and restored with pg_restore --clean --if-exists --dbname=NAME obelisk.dump (see "
             "docs/operator.md)")


class AdminError(Exception):
    """A request the operator made that cannot be done: its message is the one line shown."""


def sqlite_path(url: str) -> Path:
    """The file of an ``sqlite:///PATH`` URL; a PostgreSQL URL is refused with the advice to use its own tools."""
    if url.startswith("postgres"):
        raise AdminError(PG_ADVICE)
    if not url.startswith("sqlite:///") or url == "sqlite:///" or ":memory:" in url:
        raise AdminError(f"--db must be sqlite:///PATH for a backup or a restore, got {url!r}")
    return Path(url.removeprefix("sqlite:///"))


def known_revisions() -> list[str]:
    """Every revision of the schema this version of Obelisk knows, oldest first."""
    scripts = ScriptDirectory(str(store.MIGRATIONS))
    return [script.revision for script in reversed(list(scripts.walk_revisions()))]


def revision_of(path: Path) -> str:
    """The schema revision of the Obelisk database in ``path``; refused if it is none of a known revision."""
    if not path.is_file():
        raise AdminError(f"{path} is not a file")
    try:
        with closing(_read_only(path)) as connection:
            rows = connection.execute("SELECT version_num FROM alembic_version").fetchall()
            connection.execute("SELECT id FROM tables LIMIT 1").fetchall()
    except sqlite3.DatabaseError as error:
        raise AdminError(f"{path} is not an Obelisk database ({error})") from None
    if len(rows) != 1:
        raise AdminError(f"{path} is not an Obelisk database (it names {len(rows)} schema revisions)")
    revision = rows[0][0]
    if revision not in known_revisions():
        raise AdminError(f"{path} has the schema revision {revision!r}, which this version of Obelisk does not "
                         f"know (a newer version wrote it?)")
    return str(revision)


def _read_only(path: Path) -> sqlite3.Connection:
    """A connection that only reads the database in ``path`` (its name escaped as a URI's)."""
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)


def _copy(source: Path, target: Path) -> None:
    """Copy the database ``source`` into the new file ``target`` page by page, consistently, while others write.

    The copy is written beside ``target`` and renamed only once whole: a copy that fails leaves no file.
    """
    partial = target.with_name(target.name + ".partial")
    try:
        with closing(_read_only(source)) as reader, closing(sqlite3.connect(partial)) as writer:
            reader.backup(writer)
        partial.replace(target)
    finally:
        partial.unlink(missing_ok=True)


def _new_file(target: Path) -> None:
    if target.exists():
        raise AdminError(f"{target} already exists; give a new file name (nothing is overwritten)")
    if not target.parent.is_dir():
        raise AdminError(f"the folder {target.parent} does not exist")


def backup(url: str, target: Path) -> str:
    """Copy the SQLite database of ``url`` into the new file ``target``; its schema revision.

    SQLite's online backup API copies a consistent state even while a server writes to the database.
    """
    source = sqlite_path(url)
    revision = revision_of(source)
    _new_file(target)
    _copy(source, target)
    return revision


def restore(source: Path, url: str) -> str:
    """Copy the backup ``source`` into the SQLite database of ``url``, which must not exist yet; its revision.

    An older backup is upgraded by the next server start (migrations run on start). An existing database
    is never overwritten: the server using it must be stopped and the file moved aside first.
    """
    target = sqlite_path(url)
    revision = revision_of(source)
    if target.exists():
        raise AdminError(f"the database {target} already exists; stop the server, move the file (and any "
                         f"{target.name}-wal and {target.name}-shm beside it) aside, then restore")
    _new_file(target)
    _copy(source, target)
    return revision


@dataclass(frozen=True)
class SeatLine:
    """One seat of a listed table: a person's name (maybe none yet), or a bot's spec; whether an account claimed it."""

    seat: int
    kind: str
    name: str
    bot: str | None
    account: bool


@dataclass(frozen=True)
class TableLine:
    """One table as ``admin list-tables`` shows it."""

    id: str
    game: str
    players: int
    status: str
    public: bool
    created: datetime
    updated: datetime
    moves: int
    chat: int
    seats: tuple[SeatLine, ...]



def list_tables(engine: Engine, status: str | None, since: datetime | None, game: str | None,
                limit: int) -> list[TableLine]:
    """The tables changed last first, only those with ``status``, changed since ``since``, of ``game``."""
    if status is not None and status not in STATUSES:
        raise AdminError(f"--status must be one of {', '.join(STATUSES)}, got {status!r}")
    moves = select(func.count()).where(MoveRow.table_id == TableRow.id).scalar_subquery()
    chat = select(func.count()).where(ChatRow.table_id == TableRow.id).scalar_subquery()
    query = select(TableRow, moves, chat).order_by(TableRow.updated.desc()).limit(limit)
    if status is not None:
        query = query.where(TableRow.status == status)
    if since is not None:
        query = query.where(TableRow.updated >= since)
    if game is not None:
        query = query.where(TableRow.game == game)
    with Session(engine) as session:
        return [TableLine(row.id, row.game, row.players, row.status, row.public, aware(row.created),
                          aware(row.updated), move_count, chat_count,
                          tuple(SeatLine(seat.seat, seat.kind, seat.name, seat.bot, seat.account_id is not None)
                                for seat in row.seats))
                for row, move_count, chat_count in session.execute(query).all()]


def _count(session: Session, row: Any, where: Any) -> int:
    return int(session.scalar(select(func.count()).select_from(row).where(where)) or 0)


@dataclass(frozen=True)
class Removal:
    """What a removal took away: the table's or account's description, and how many rows of each kind."""

    what: dict[str, Any]
    counts: dict[str, int]


def remove_table(engine: Engine, table_id: str) -> Removal:
    """Delete the table ``table_id`` with its seats, moves, chat lines and results; what was removed.

    A rematch made of it or one it was made of forgets the link. Servers sharing a PostgreSQL database are
    told at once (they stop serving it); a server on SQLite finds out at its next read or write of it.
    """
    with Session(engine) as session, session.begin():
        row = session.get(TableRow, table_id)
        if row is None:
            raise AdminError(f"no table {table_id!r} (see obelisk admin list-tables)")
        described = {"id": row.id, "game": row.game, "players": row.players, "status": row.status}
        counts = {
            "seats": _count(session, SeatRow, SeatRow.table_id == table_id),
            "moves": _count(session, MoveRow, MoveRow.table_id == table_id),
            "chat": _count(session, ChatRow, ChatRow.table_id == table_id),
            "results": _count(session, ResultRow, ResultRow.table_id == table_id),
        }
        for child in (ResultRow, ChatRow, MoveRow, SeatRow):
            session.execute(delete(child).where(child.table_id == table_id))
        moment = store.now()
        linked = session.scalars(select(TableRow.id).where(or_(TableRow.rematch_of == table_id,
                                                                TableRow.rematch == table_id))).all()
        session.execute(update(TableRow).where(TableRow.rematch_of == table_id).values(rematch_of=None,
                                                                                       updated=moment))
        session.execute(update(TableRow).where(TableRow.rematch == table_id).values(rematch=None, updated=moment))
        session.execute(delete(TableRow).where(TableRow.id == table_id))
        notify(session, Note(table_id, moment))
        for other in linked:
            notify(session, Note(other, moment))
    return Removal(described, counts)


def find_account(session: Session, name: str) -> AccountRow:
    """The account called ``name`` (case does not matter); refused if there is none."""
    key = name.strip().casefold()
    row = session.scalars(select(AccountRow).where(or_(AccountRow.name_key == key, AccountRow.name == name))
                          ).first()
    if row is None:
        raise AdminError(f"no account named {name!r}")
    return row


def remove_account(engine: Engine, name: str) -> Removal:
    """Delete the account ``name`` with its sessions, ratings and results; its seats keep their tokens but
    no longer name it, and the tables they are at are read again by every server. What was removed."""
    with Session(engine) as session, session.begin():
        account = find_account(session, name)
        account_id = account.id
        counts = {
            "sessions": _count(session, SessionRow, SessionRow.account_id == account_id),
            "ratings": _count(session, RatingRow, RatingRow.account_id == account_id),
            "results": _count(session, ResultRow, ResultRow.account_id == account_id),
        }
        tables = session.scalars(select(SeatRow.table_id).where(SeatRow.account_id == account_id)).all()
        cleared = session.execute(update(SeatRow).where(SeatRow.account_id == account_id)
                                  .values(account_id=None, mailed_turn=None))
        counts["seats"] = int(getattr(cleared, "rowcount", 0) or 0)
        moment = store.now()
        for table_id in set(tables):  # their seats changed: every server reads them again
            session.execute(update(TableRow).where(TableRow.id == table_id).values(updated=moment))
            notify(session, Note(table_id, moment))
        for child in (SessionRow, RatingRow, ResultRow):
            session.execute(delete(child).where(child.account_id == account_id))
        session.execute(delete(AccountRow).where(AccountRow.id == account_id))
        shown = account.name
    return Removal({"name": shown}, counts)
