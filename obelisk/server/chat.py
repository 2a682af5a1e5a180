"""The table chat: the players' channel and the spectators' one, who may read and write which, and its lines.

A line is written by a seat (its token, as moves are) in the players' channel, or by anyone without a seat
in the spectators' channel, under a name they give. While the game runs the players read only their own
channel, so spectators cannot whisper to them; spectators read both; once the game is finished everyone
reads both (the replay shows them). The chat is a channel apart from the game: a line never changes a
table's version, its ``updated`` time, a frame, a log or the record, and it carries nothing but what its
writer typed. Lines are stored with the table (``chat_lines``), sent over the websockets of the readers
allowed to read them, in this process and (PostgreSQL ``NOTIFY``) in every other.
"""

from __future__ import annotations

import logging
import math
import secrets
import unicodedata
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

import anyio
import orjson
from sqlalchemy import Engine, Table, func, insert, select
from sqlalchemy.orm import Session

from obelisk.server.config import ServerConfig
from obelisk.server.guards import Bucket
from obelisk.server.live import HeldTable
from obelisk.server.notes import notify_text
from obelisk.server.store import ChatRow, aware, now
from obelisk.server.table import ApiError, Snapshot, check_name, check_open
from obelisk.server.tables import Tables

log = logging.getLogger("obelisk.server")

PLAYERS = "players"
SPECTATORS = "spectators"
TEXT_LENGTH = 300
"""The most characters a line may have, after trimming."""
HISTORY = 200
"""The most lines a reader is sent at once (the newest): on a socket's hello and by ``GET .../chat``."""
CHAT_CHANNEL = "obelisk_chat"
"""The PostgreSQL notification channel on which a process tells the others of each new line."""
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Characters that reorder the text around them: a line could make another's words read backwards."""

_LINES = cast(Table, ChatRow.__table__)


@dataclass(frozen=True)
class ChatLine:
    """One line as it is stored and sent: its channel, its writer (a seat, or a spectator's name) and its text."""

    id: int
    table_id: str
    channel: str
    seat: int | None
    name: str
    text: str
    time: datetime

    def as_dict(self) -> dict[str, Any]:
        """The line as the API and the websocket send it (the text as a JSON string, never markup)."""
        return {"id": self.id, "channel": self.channel, "seat": self.seat, "name": self.name, "text": self.text,
                "time": self.time.isoformat()}


def readable(channel: str, seat: int | None, status: str) -> bool:
    """Whether a reader at ``seat`` (None: a spectator) may read ``channel`` at a table of ``status``."""
    return channel == PLAYERS or seat is None or status == "finished"


def channels_for(seat: int | None, status: str) -> tuple[str, ...]:
    """The channels a reader at ``seat`` may read at a table of ``status``."""
    return tuple(channel for channel in (PLAYERS, SPECTATORS) if readable(channel, seat, status))


def check_text(text: Any) -> str:
    """``text`` trimmed, else ``ApiError`` saying what is wrong: 1 to ``TEXT_LENGTH`` characters, no control ones."""
    if not isinstance(text, str):
        raise ApiError(400, "bad_request", "text: a chat line is a string")
    trimmed = text.strip()
    if not trimmed:
        raise ApiError(400, "chat_empty", f"a chat line needs 1 to {TEXT_LENGTH} characters besides spaces")
    if len(trimmed) > TEXT_LENGTH:
        raise ApiError(400, "chat_too_long", f"a chat line may have at most {TEXT_LENGTH} characters, "
                                             f"this one has {len(trimmed)}")
    for place, char in enumerate(trimmed, 1):
        if unicodedata.category(char) in ("Cc", "Cs") or char in BIDI_CONTROLS:
            raise ApiError(400, "chat_control", f"a chat line may not hold control characters: U+{ord(char):04X} "
                                                f"at character {place}")
    return trimmed


class SenderLimits:
    """How fast each sender may write: ``lines`` at once, then one every ``seconds / lines`` seconds.

    A seat counts by its table and seat, a spectator by the client address (an IPv6 one by its /64 network),
    across tables. Kept in memory per process.
    """

    def __init__(self, lines: int, seconds: float) -> None:
        self.lines, self.seconds = lines, seconds
        self._buckets: dict[tuple[str, ...], Bucket] = {}

    def take(self, sender: tuple[str, ...]) -> None:
        """Count one line of ``sender``, else ``chat_too_fast`` saying in how many seconds it may write again."""
        bucket = self._buckets.get(sender)
        if bucket is None:
            if len(self._buckets) > 10_000:
                self._buckets.clear()
            bucket = self._buckets[sender] = Bucket(self.lines / self.seconds, self.lines)
        if not bucket.take():
            wait = max(1, math.ceil(bucket.wait()))
            raise ApiError(429, "chat_too_fast", f"at most {self.lines} chat lines in {self.seconds:g} s; "
                                                 f"write again in {wait} s", retry_after=wait)


class ChatStore:
    """The lines as the database keeps them (each call blocks: run it in a thread)."""

    def __init__(self, engine: Engine, cap: int) -> None:
        self.engine, self.cap = engine, cap

    def add(self, table_id: str, channel: str, seat: int | None, name: str, text: str, origin: str) -> ChatLine:
        """Store a line and, on PostgreSQL, tell the other processes in the same transaction; refused
        (``chat_full``) once the channel holds ``cap`` lines (two processes writing the last line at once may
        both pass: the cap bounds the storage, it is not an exact count)."""
        moment = now()
        with Session(self.engine) as session, session.begin():
            held = session.execute(select(func.count()).select_from(_LINES).where(
                _LINES.c.table_id == table_id, _LINES.c.channel == channel)).scalar_one()
            if held >= self.cap:
                raise ApiError(409, "chat_full", f"this table's {channel}' chat holds its most lines ({self.cap}); "
                                                 "no more can be written")
            row_id = session.execute(insert(_LINES).values(
                table_id=table_id, channel=channel, seat=seat, name=name, text=text, time=moment,
            ).returning(_LINES.c.id)).scalar_one()
            line = ChatLine(row_id, table_id, channel, seat, name, text, moment)
            notify_text(session, CHAT_CHANNEL, orjson.dumps({"from": origin, "table": table_id,
                                                             **line.as_dict()}).decode())
        return line

    def lines(self, table_id: str, channels: tuple[str, ...], limit: int = HISTORY) -> list[ChatLine]:
        """The newest ``limit`` lines of ``channels`` at ``table_id``, oldest first."""
        query = (select(_LINES).where(_LINES.c.table_id == table_id, _LINES.c.channel.in_(channels))
                 .order_by(_LINES.c.id.desc()).limit(limit))
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        return [ChatLine(r.id, r.table_id, r.channel, r.seat, r.name, r.text, aware(r.time)) for r in reversed(rows)]


class TableChat:
    """The chat of the tables this process serves: reading, writing and pushing lines to the sockets."""

    def __init__(self, tables: Tables, config: ServerConfig) -> None:
        self.tables = tables
        self.store = ChatStore(tables.engine, config.chat_table_lines)
        self.limits = SenderLimits(config.chat_lines, config.chat_seconds)
        self.origin = secrets.token_hex(8)
        """This process, in its notifications: it pushed its own lines already."""

    async def read(self, table_id: str, token: str | None, account: str | None = None
                   ) -> tuple[Snapshot, int | None, list[ChatLine]]:
        """The table, the seat ``token`` (or the signed-in ``account``) opens (None: a spectator) and the newest
        lines that reader may read."""
        snapshot = await self.tables.snapshot(table_id)
        seat = snapshot.seat_of(token, account)
        return snapshot, seat, await self.lines_for(snapshot, seat)

    async def lines_for(self, snapshot: Snapshot, seat: int | None) -> list[ChatLine]:
        """The newest lines a reader at ``seat`` may read at the table of ``snapshot``."""
        channels = channels_for(seat, snapshot.status)
        return await anyio.to_thread.run_sync(self.store.lines, snapshot.id, channels)

    async def say(self, table_id: str, token: str | None, text: Any, name: str | None, address: str,
                  account: str | None = None) -> ChatLine:
        """Write a line: a seat's (``token``) in the players' channel, else a spectator's under ``name``.

        Refused, with nothing stored, when the text is empty, too long or holds control characters, when the
        token opens no seat here, when a seat gives a name (its line carries the seat's own), when the table
        expired, and when the sender writes too fast.
        """
        text = check_text(text)
        snapshot = await self.tables.snapshot(table_id)
        seat = snapshot.seat_of(token, account)
        if seat is not None and name is not None:
            raise ApiError(400, "bad_request", "a player's line carries the name of their seat; send no name")
        check_open(snapshot)
        sender: tuple[str, ...]
        if seat is not None:
            channel, writer, sender = PLAYERS, snapshot.seats[seat].name, ("seat", snapshot.id, str(seat))
        else:
            channel, writer, sender = SPECTATORS, check_name(name) if name is not None else "", ("address", address)
        self.limits.take(sender)
        line = await anyio.to_thread.run_sync(self.store.add, snapshot.id, channel, seat, writer, text, self.origin)
        live = self.tables.held(snapshot.id)
        if live is not None:
            push(live, line)
        return line

    def heard(self, payload: str) -> None:
        """Another process stored a line: push it to this process's sockets of its table (if any)."""
        try:
            doc = orjson.loads(payload)
            if doc["from"] == self.origin:
                return
            line = ChatLine(int(doc["id"]), str(doc["table"]), str(doc["channel"]), doc["seat"], str(doc["name"]),
                            str(doc["text"]), datetime.fromisoformat(doc["time"]))
        except (ValueError, KeyError, TypeError):
            log.warning("a chat notification could not be read: %.80r", payload)
            return
        live = self.tables.held(line.table_id)
        if live is not None:
            push(live, line)


def push(live: HeldTable, line: ChatLine) -> None:
    """Send ``line`` to every socket following the table's chat whose reader may read its channel."""
    message = {"type": "chat", "lines": [line.as_dict()]}
    status = live.snapshot.status
    for client in list(live.clients):
        if client.chat and readable(line.channel, client.seat, status):
            client.say(message)

