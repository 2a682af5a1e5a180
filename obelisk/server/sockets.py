"""The websocket transport: one socket follows one table as a seat or a spectator.

A socket says hello first (its seat's token, its language), then receives a frame whenever what
it may see changes, and may send moves, batches and undos. Frames are coalesced: however many
changes come before the next one is sent, one frame is built, from the latest snapshot, by the one
path that builds every view (``views.frame``), and it carries only the log entries the socket has
not had. A seat's socket is closed the moment its token no longer opens the seat, before any frame
of the seat's new holder could be built for it. Sockets are taken from this server's own pages only.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from typing import Any, Literal

from pydantic import Field
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketDisconnected, WebSocketState

from obelisk.core import codec
from obelisk.core.i18n import DEFAULT_LANGUAGE
from obelisk.server.accounts import signed_in
from obelisk.server.chat import TableChat
from obelisk.server.committer import BATCH_LIMIT
from obelisk.server.config import ServerConfig
from obelisk.server.guards import Body, Bucket, checked_language, client_key, dumps, origin_matches, parse
from obelisk.server.live import HeldTable
from obelisk.server.table import ApiError, Snapshot, hash_token
from obelisk.server.tables import Tables
from obelisk.server.views import frame

log = logging.getLogger("obelisk.server")


class Client:
    """One websocket: a seat (or a spectator) and a queue of what to send, frames coalesced.

    A seat's socket holds the hash of the token it said hello with: once that token no longer opens the
    seat (another token replaced it, in this process or another), the socket is told ``bad_token`` and
    closed before any frame of the seat's new holder is built for it. A socket opened by a signed-in account's
    session (no token) holds the account's id instead, and is closed the same way once the seat is not the
    account's, or once that session signs out (``session_hash``).
    """

    def __init__(self, socket: WebSocket, seat: int | None, lang: str = DEFAULT_LANGUAGE,
                 token_hash: str | None = None, chat: bool = False, account: str | None = None,
                 session_hash: str | None = None) -> None:
        self.socket = socket
        self.seat = seat
        self.chat = chat
        """Whether the socket follows the chat (its hello asked): only then is it sent chat lines."""
        self.token_hash = token_hash
        self.account = account
        self.session_hash = session_hash
        """The session that opened this socket's seat (no token): signing it out closes the socket."""
        self.lang = lang
        self.outbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self._frame_due = False
        self.sent = 0
        """The version this socket last sent: a frame carries only the log entries after it (see ``frame``)."""

    def changed(self) -> None:
        """The table changed: a fresh frame is due (one, however many changes come before it is sent)."""
        if not self._frame_due:
            self._frame_due = True
            self.outbox.put_nowait(None)

    def say(self, message: dict[str, Any]) -> None:
        self.outbox.put_nowait(message)

    def removed(self) -> None:
        """The table was removed from the server: say so, then close (see ``LiveTables.removed``)."""
        self.outbox.put_nowait(_REMOVED)

    def signed_out(self) -> None:
        """The session that opened this socket's seat signed out: say so, then close (``LiveTables.session_ended``)."""
        self.outbox.put_nowait(_SIGNED_OUT)

    async def send_loop(self, tables: Tables, live: HeldTable) -> None:
        """Send what is queued until the socket closes; a frame that cannot be built closes it (1011)."""
        while True:
            message = await self.outbox.get()
            if message is None:
                self._frame_due = False
                snapshot = live.snapshot
                if not self.still_seated(snapshot):
                    await self.socket.send_text(dumps(_SEAT_LOST).decode())
                    await self.socket.close(code=1008)
                    return
                try:
                    built = frame(snapshot, self.seat, tables.connected(live), self.sent, self.lang)
                    message = {"type": "frame", **built}
                    self.sent = snapshot.version
                except Exception:
                    log.exception("table %s: the frame of seat %s failed", live.snapshot.id, self.seat)
                    await self.socket.close(code=1011)
                    return
            await self.socket.send_text(dumps(message).decode())
            if message is _REMOVED or message is _SIGNED_OUT:
                await self.socket.close(code=1008)
                return

    def still_seated(self, snapshot: Snapshot) -> bool:
        """Whether this socket's token (or account) still opens its seat in ``snapshot`` (a spectator needs none)."""
        if self.seat is None:
            return True
        seat = snapshot.seats[self.seat]
        if seat.account_id is not None and self.account is not None and seat.account_id != self.account:
            return False
        if self.token_hash is not None:
            return seat.opens(self.token_hash)
        return self.account is not None and seat.claimed and seat.account_id == self.account


_REMOVED = {"type": "error", "code": "not_found", "message": "this table was removed from the server"}
_SIGNED_OUT = {"type": "error", "code": "signed_out",
               "message": "you signed out, so this page no longer shows your seat"}
_SEAT_LOST = {"type": "error", "code": "bad_token",
              "message": "the token this socket said hello with no longer opens its seat; the socket is closed"}


def _same_origin(socket: WebSocket) -> bool:
    origin = socket.headers.get("origin")
    host = socket.headers.get("host")
    return bool(origin and host) and origin_matches(str(origin), str(host))


async def receive(socket: WebSocket, limit: int, timeout: float | None = None) -> dict[str, Any]:
    """The next client message as a JSON object; ``ApiError`` for anything else.

    A socket already closed (the sender closes it when a frame cannot be sent) ends like a client
    that left: ``WebSocketDisconnect``.
    """
    try:
        received = await asyncio.wait_for(socket.receive(), timeout)
    except WebSocketDisconnected:
        raise WebSocketDisconnect(code=1006) from None
    if received["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(code=received.get("code", 1000))
    text = received.get("text")
    if text is None:
        raise ApiError(400, "bad_request", "a message is JSON text, not binary")
    if len(text) > limit:
        raise ApiError(413, "too_large", f"a message may have at most {limit} bytes")
    try:
        message = codec.parse_json(text, "the message")
    except ValueError as error:
        raise ApiError(400, "bad_request", str(error)) from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ApiError(400, "bad_request", 'a message is a JSON object with a "type"')
    return message


class HelloMessage(Body):
    """A socket's first message: the token of its seat (none: a spectator) and the language of its frames."""

    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=128)
    lang: str = Field(default=DEFAULT_LANGUAGE, max_length=20)
    chat: bool = False
    """Follow the table's chat too: the lines this socket may read now, then each new one (``chat`` pushes)."""


class MoveMessage(Body):
    """One action, on the version the client saw."""

    type: Literal["move"]
    version: int
    action: int


class MovesMessage(Body):
    """A batch of one seat's actions in a row (a shortcut's), played all or nothing."""

    type: Literal["moves"]
    version: int
    actions: list[int] = Field(min_length=1, max_length=BATCH_LIMIT)


class UndoMessage(Body):
    """Take back the seat's last decision, on the version the client saw."""

    type: Literal["undo"]
    version: int


class ChatMessage(Body):
    """A chat line: a seat's in the players' channel, a spectator's under ``name`` (see ``chat.py``)."""

    type: Literal["chat"]
    text: str
    """Checked once trimmed (``chat.check_text``), as a ``POST``'s."""
    name: str | None = Field(default=None, max_length=200)


async def table_socket(socket: WebSocket) -> None:
    """A table's websocket: same origin only, at most ``max_sockets`` per client address at a time."""
    if not _same_origin(socket):
        await socket.close(code=1008, reason="cross-origin websocket refused")
        return
    config: ServerConfig = socket.app.state.config
    open_sockets: Counter[str] = socket.app.state.sockets
    address = client_key(socket)
    await socket.accept()
    if open_sockets[address] >= config.max_sockets:
        await socket.send_text(dumps({"type": "error", "code": "too_many_sockets", "message": (
            f"this address already has {open_sockets[address]} table sockets open (at most {config.max_sockets}); "
            "close some first")}).decode())
        await socket.close(code=1008)
        return
    open_sockets[address] += 1
    try:
        await _follow(socket, config, socket.app.state.tables, socket.app.state.chat)
    finally:
        open_sockets[address] -= 1
        if open_sockets[address] <= 0:
            del open_sockets[address]


async def _answer(tables: Tables, chat: TableChat, table_id: str, token: str | None, client: Client,
                  message: dict[str, Any]) -> None:
    account = client.account
    """Do what a message after the hello asks, with the token the socket said hello with; ``ApiError`` if refused.

    What it changes reaches this socket as the next frame (a chat line: as a ``chat`` push), like every
    other client's.
    """
    if message["type"] == "ping":
        client.say({"type": "pong"})
    elif message["type"] == "move":
        move: MoveMessage = parse(MoveMessage, message)
        await tables.move(table_id, token, move.version, [move.action], account)
    elif message["type"] == "moves":
        batch: MovesMessage = parse(MovesMessage, message)
        await tables.move(table_id, token, batch.version, batch.actions, account)
    elif message["type"] == "undo":
        undo: UndoMessage = parse(UndoMessage, message)
        await tables.undo(table_id, token, undo.version, account)
    elif message["type"] == "chat":
        line: ChatMessage = parse(ChatMessage, message)
        await chat.say(table_id, token, line.text, line.name, client_key(client.socket), account)
    elif message["type"] == "hello":
        raise ApiError(400, "bad_request", "hello is sent once, first")
    else:
        raise ApiError(400, "bad_request", f"unknown message type {codec.describe(message['type'])}")


async def _follow(socket: WebSocket, config: ServerConfig, tables: Tables, chat: TableChat) -> None:
    """Say hello, then send the table's frames and chat lines and take this socket's moves and lines until it
    closes.

    A socket whose hello asks for the chat is sent the lines it may read after it follows the table, so a
    line written meanwhile comes twice rather than never (a client keeps lines by ``id``).
    """
    table_id = socket.path_params["table_id"]
    try:
        hello: HelloMessage = parse(HelloMessage, await receive(socket, config.max_body, config.hello_timeout))
        lang = checked_language(hello.lang)
        live = await tables.get(table_id, fresh=True)
        signed = await signed_in(socket)
        account = signed.account.id if signed is not None else None
        seat = live.snapshot.seat_of(hello.token, account)
        session_hash = signed.session_hash if signed is not None and hello.token is None and seat is not None else None
    except ApiError as error:
        await socket.send_text(dumps({"type": "error", **error.as_dict()}).decode())
        await socket.close(code=1008)
        return
    except (asyncio.TimeoutError, WebSocketDisconnect):
        with contextlib.suppress(Exception):
            await socket.close(code=1008, reason="no hello")
        return
    client = Client(socket, seat, lang, hash_token(hello.token) if hello.token is not None else None, hello.chat,
                    account, session_hash)
    live = await tables.attach(table_id, client)
    sender = asyncio.get_running_loop().create_task(client.send_loop(tables, live))
    bucket = Bucket(config.rate, config.burst)
    try:
        if client.chat:
            history = await chat.lines_for(live.snapshot, seat)
            client.say({"type": "chat", "lines": [line.as_dict() for line in history]})
        while True:
            try:
                message = await receive(socket, config.max_body)
                if not bucket.take():
                    raise ApiError(429, "rate_limited", "too many messages; slow down")
                await _answer(tables, chat, table_id, hello.token, client, message)
            except ApiError as error:
                client.say({"type": "error", **error.as_dict()})
    except WebSocketDisconnect:
        pass
    finally:
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender
        tables.detach(live, client)
        if socket.client_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await socket.close()
