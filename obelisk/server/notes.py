"""Notifications across processes: how one server process tells the others a table changed.

Several processes may serve the same PostgreSQL database; each caches the tables it serves. A write
sends, in its own transaction, a ``pg_notify`` on :data:`NOTIFY_CHANNEL` naming the table and its new
``updated`` time, so the note is delivered only once the write is committed. A write that only
appended moves also carries them, and a process holding the very version they were played on applies
them itself instead of reading the database (see ``live.LiveTables.changed_elsewhere``). SQLite
serves one process, and nothing is sent.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, text
from sqlalchemy.orm import Session

NOTIFY_CHANNEL = "obelisk_tables"
NOTE_LIMIT = 7000
"""PostgreSQL refuses notifications of 8000 bytes or more: a longer one names the table only."""
_NOTIFY = text("SELECT pg_notify(:channel, :note)")


@dataclass(frozen=True)
class Note:
    """A notification that a table changed: its new ``updated`` time and, for moves, what they were.

    Written as ``ID UPDATED`` or, for a write that only appended moves, ``ID UPDATED WAS SEQ A,B,...``
    (the ``updated`` time it was based on, the first move's seq and the actions), so a process holding
    that very version catches up by applying them, without reading the database.
    """

    table_id: str
    updated: datetime
    was: datetime | None = None
    seq: int = 0
    actions: tuple[int, ...] = ()

    def text(self) -> str:
        """The note as it is sent: the moves are left out when they would make it too long."""
        head = f"{self.table_id} {self.updated.isoformat()}"
        if self.was is None:
            return head
        full = f"{head} {self.was.isoformat()} {self.seq} {','.join(map(str, self.actions))}"
        return full if len(full) < NOTE_LIMIT else head

    @classmethod
    def parse(cls, text: str) -> Note | None:
        """The note ``text`` says; None for one that is not a note of this version of the server."""
        parts = text.split(" ")
        try:
            updated = datetime.fromisoformat(parts[1])
            if updated.tzinfo is None:
                return None
            if len(parts) == 2:
                return cls(parts[0], updated)
            was = datetime.fromisoformat(parts[2])
            return cls(parts[0], updated, was if was.tzinfo else None, int(parts[3]),
                       tuple(int(a) for a in parts[4].split(",")))
        except (IndexError, ValueError):
            return None



def notify(connection: Connection | Session, note: Note) -> None:
    """Send ``note`` to every process following the database (PostgreSQL only: call it within the write)."""
    notify_text(connection, NOTIFY_CHANNEL, note.text())


def notify_text(connection: Connection | Session, channel: str, text: str) -> None:
    """Send ``text`` on ``channel`` to every process following the database, once the write it is part of is
    committed (PostgreSQL only; SQLite serves one process and nothing is sent)."""
    dialect = connection.dialect if isinstance(connection, Connection) else connection.get_bind().dialect
    if dialect.name == "postgresql":
        connection.execute(_NOTIFY, {"channel": channel, "note": text})
