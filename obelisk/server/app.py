"""The ASGI application: the HTTP API, the table websockets and the static client (docs/server.md).

Every request body is JSON of at most ``max_body`` bytes validated against a
schema; every refusal is one ``{"error": {"code", "message"}}``; every
response carries the security headers; only the host names the server serves
are answered, requests that change something come from the same origin as JSON
(so another site cannot send one from a player's browser), and websockets are
accepted from the same origin only. The API surface is the contract in
docs/server.md; its "Threat model" says what each of these defends.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import ipaddress
import logging
import os
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any, AsyncIterator, Literal
from urllib.parse import urlsplit

import orjson
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketDisconnected, WebSocketState

from obelisk.core import codec, game_class
from obelisk.core import games as registered_games
from obelisk.core.i18n import (
    DEFAULT_LANGUAGE, LANGUAGES, UI_DOMAIN, check_language, domain, language, messages, spoken_by_pages,
)
from obelisk.server.bots import BotScheduler
from obelisk.server.store import open_database
from obelisk.server.tables import (
    BATCH_LIMIT,
    BOARDS,
    ApiError,
    Live,
    Snapshot,
    Tables,
    file_option,
    frame,
    hash_token,
    record,
    replay_frame,
    summary,
)

log = logging.getLogger("obelisk.server")

STATIC = Path(__file__).with_name("static")
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")
"""The host names a server answers to whatever it is told: this machine's."""
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


@dataclass
class ServerConfig:
    """How one server process runs; the defaults suit ``obelisk serve`` on one machine."""

    db_url: str | None = None
    """``sqlite:///PATH`` or ``postgresql+psycopg://...``; None: SQLite in the per-user data folder."""
    bot_workers: int = 1
    """Processes deciding bot moves; 0 runs them in one thread of this process."""
    bot_delay: float = 0.6
    """A bot's move takes at least this many seconds, so people can follow the game."""
    max_body: int = 64 * 1024
    rate: float = 10.0
    """Sustained requests (or websocket messages) per second allowed per client."""
    burst: float = 40.0
    hello_timeout: float = 10.0
    allowed_hosts: tuple[str, ...] = LOOPBACK_HOSTS
    """The ``Host`` names requests and websockets may be sent to (``*.example.org`` matches its subdomains,
    ``*`` any): a page of another site that a rebound name points at this server is refused."""
    max_waiting: int = 10
    """Tables one client address may have waiting for players at once."""
    waiting_hours: float = 24.0
    """A table still waiting for players this long after its last change (creation or a claim) expires."""
    max_sockets: int = 32
    """Websockets one client address may hold open at once (in each server process)."""
    cache_size: int = 256
    tune_process: bool = False
    """Keep the collector and the commit thread's waits for the interpreter off the moves' latency
    (see :func:`tune_process`); set by ``obelisk serve``, which owns its whole process."""
    static: Path = field(default_factory=lambda: STATIC)


def dumps(doc: Any) -> bytes:
    """JSON as every response and websocket message is written (orjson: the frames are the hot path)."""
    return orjson.dumps(doc, option=orjson.OPT_NON_STR_KEYS)


class Json(JSONResponse):
    """A JSON response written by :func:`dumps`."""

    def render(self, content: Any) -> bytes:
        return dumps(content)


class Bucket:
    """A token bucket: ``rate`` per second sustained, ``burst`` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.stamp = burst, time.monotonic()

    def take(self) -> bool:
        moment = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (moment - self.stamp) * self.rate)
        self.stamp = moment
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


# ---- request bodies ---------------------------------------------------------------------------

class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class SeatSpec(_Body):
    kind: Literal["human", "bot"]
    name: str | None = Field(default=None, max_length=200)
    bot: str | None = Field(default=None, max_length=128)


class CreateBody(_Body):
    game: str = Field(max_length=32)
    players: int | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatSpec] | None = Field(default=None, max_length=16)
    public: bool = False
    turn_seconds: int | None = Field(default=None, ge=10, le=7 * 24 * 3600)


class ClaimBody(_Body):
    token: str = Field(max_length=128)
    name: str | None = Field(default=None, max_length=200)
    """Without a name the seat keeps the one its creator gave, or none: pages then say "Player N" in their language."""


class JoinBody(_Body):
    seat: int
    name: str | None = Field(default=None, max_length=200)


class MoveBody(_Body):
    """One action (``action``) or a batch played in one go (``actions``: a shortcut's), never both."""

    version: int
    action: int | None = None
    actions: list[int] | None = Field(default=None, min_length=1, max_length=BATCH_LIMIT)

    def played(self) -> list[int]:
        """The actions to play, in order; a ``bad_request`` unless exactly one of the two fields is given."""
        if (self.action is None) == (self.actions is None):
            raise ApiError(400, "bad_request", 'a move gives either "action" or "actions"')
        return [self.action] if self.action is not None else list(self.actions or ())


class UndoBody(_Body):
    version: int


class BotBody(_Body):
    bot: str = Field(default="greedy", max_length=128)


class EmptyBody(_Body):
    pass


def _validation_message(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "body"
    return f"{where}: {first['msg']}"


def _parse(model: type[_Body], raw: Any) -> Any:
    try:
        return model.model_validate(raw)
    except ValidationError as error:
        raise ApiError(400, "bad_request", _validation_message(error)) from None


async def _body(request: Request, model: type[_Body]) -> Any:
    limit: int = request.app.state.config.max_body
    declared = request.headers.get("content-length")
    size = whole_number(declared, 12) if declared is not None else 0
    if size is None or size > limit:
        raise ApiError(413, "too_large", f"a request body may have at most {limit} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ApiError(413, "too_large", f"a request body may have at most {limit} bytes")
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw.strip():
        try:
            return model.model_validate({})
        except ValidationError:
            raise ApiError(400, "bad_request", "the request needs a JSON body") from None
    try:
        doc = codec.parse_json(raw, "the body")
    except ValueError as error:
        raise ApiError(400, "bad_request", str(error)) from None
    return _parse(model, doc)


def _token(request: Request) -> str | None:
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip() or len(token) > 128:
        raise ApiError(403, "bad_token", "the Authorization header must be 'Bearer <seat token>'")
    return token.strip()


def _tables(request: Request | WebSocket) -> Tables:
    return request.app.state.tables


def client_key(connection: Request | WebSocket) -> str:
    """The client address that rate limits and caps count by: an IPv6 address by its /64 network, which
    one subscriber usually holds whole (so changing the last bits of the address buys nothing)."""
    host = connection.client.host if connection.client else "?"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def _limited(request: Request) -> None:
    """Refuse a client (by address) that sends more than the rate allows."""
    config: ServerConfig = request.app.state.config
    buckets: dict[str, Bucket] = request.app.state.buckets
    client = client_key(request)
    bucket = buckets.get(client)
    if bucket is None:
        if len(buckets) > 10_000:
            buckets.clear()
        bucket = buckets[client] = Bucket(config.rate, config.burst)
    if not bucket.take():
        raise ApiError(429, "rate_limited", "too many requests; slow down")


def _table_id(request: Request | WebSocket) -> str:
    return request.path_params["table_id"]


def _checked_language(lang: Any) -> str:
    """``lang`` if the server speaks it, else a ``bad_request`` naming the languages it speaks."""
    try:
        return check_language(lang)
    except ValueError as error:
        raise ApiError(400, "bad_request", str(error)) from None


def _lang(request: Request) -> str:
    """The language of ``?lang=`` (English without one): what the texts of the answer are worded in."""
    return _checked_language(request.query_params.get("lang", DEFAULT_LANGUAGE))


_DIGITS = re.compile(r"[0-9]+")


def whole_number(raw: str, digits: int) -> int | None:
    """``raw`` as a whole number of at most ``digits`` ASCII digits, else None (``str.isdigit`` would take ``²``)."""
    return int(raw) if len(raw) <= digits and _DIGITS.fullmatch(raw) else None


def _seat_param(request: Request) -> int:
    seat = whole_number(request.path_params["seat"], 3)
    if seat is None:
        raise ApiError(400, "bad_request", "seat must be a seat number")
    return seat


# ---- HTTP endpoints ---------------------------------------------------------------------------

async def list_games(request: Request) -> Response:
    """The games and the options a table may set (not those naming files on the server), their names,
    descriptions and option texts (labels, value names and explanations, units) in ``?lang=``: each game's
    catalog names them as terms (``game``, ``option``)."""
    lang = _lang(request)
    listed = []
    with language(lang):
        for info in registered_games():
            tr = domain(info.id)
            doc = info.to_dict()
            doc["name"] = tr.term("game", info.name)
            doc["description"] = tr.term("game", info.description) if info.description else info.description
            doc["options"] = [option.to_dict(functools.partial(tr.term, "option"))
                              for option in info.options if not file_option(option)]
            listed.append(doc)
    return Json(listed)


async def create_table(request: Request) -> Response:
    _limited(request)
    lang = _lang(request)
    body: CreateBody = await _body(request, CreateBody)
    known = {info.id for info in registered_games()}
    if body.game not in known:
        raise ApiError(400, "bad_request", f"unknown game {body.game!r}; known games: {', '.join(sorted(known))}")
    seats = [s.model_dump() for s in body.seats] if body.seats is not None else None
    config: ServerConfig = request.app.state.config
    snap, tokens = await _tables(request).create(body.game, body.players, body.options, seats, body.public,
                                                 body.turn_seconds, client_key(request), config.max_waiting)
    with language(lang):
        described = summary(snap)
    return Json({
        "table": described,
        "tokens": {str(seat): token for seat, token in tokens.items()},
        "invite_urls": {str(seat): f"/table/{snap.id}#token={token}" for seat, token in tokens.items()},
        "spectator_url": f"/table/{snap.id}",
    }, status_code=201)


async def list_tables(request: Request) -> Response:
    status = request.query_params.get("status")
    if status not in (None, "waiting", "playing", "finished"):
        raise ApiError(400, "bad_request", "status must be waiting, playing or finished")
    lang = _lang(request)
    tables = _tables(request)
    snaps = await tables.list(status)
    with language(lang):
        return Json({"tables": [summary(s) for s in snaps]})


async def get_table(request: Request) -> Response:
    lang = _lang(request)
    tables = _tables(request)
    live = await tables.get(_table_id(request))
    with language(lang):
        return Json(summary(live.snap, tables.connected(live)))


async def claim_seat(request: Request) -> Response:
    _limited(request)
    body: ClaimBody = await _body(request, ClaimBody)
    seat, token = await _tables(request).claim(_table_id(request), body.token, body.name)
    return Json({"seat": seat, "token": token})


async def join_seat(request: Request) -> Response:
    _limited(request)
    body: JoinBody = await _body(request, JoinBody)
    token = await _tables(request).join(_table_id(request), body.seat, body.name)
    return Json({"seat": body.seat, "token": token, "url": f"/table/{_table_id(request)}#token={token}"})


async def get_frame(request: Request) -> Response:
    lang = _lang(request)
    tables = _tables(request)
    live = await tables.get(_table_id(request))
    snap = live.snap
    return Json(frame(snap, snap.seat_of(_token(request)), tables.connected(live), lang=lang))


async def post_move(request: Request) -> Response:
    _limited(request)
    token = _token(request)
    body: MoveBody = await _body(request, MoveBody)
    version = await _tables(request).move(_table_id(request), token, body.version, body.played())
    return Json({"version": version})


async def post_undo(request: Request) -> Response:
    _limited(request)
    token = _token(request)
    body: UndoBody = await _body(request, UndoBody)
    version = await _tables(request).undo(_table_id(request), token, body.version)
    return Json({"version": version})


async def get_record(request: Request) -> Response:
    return Json(record(await _tables(request).snapshot(_table_id(request))))


def _number(request: Request, name: str) -> int | None:
    """A whole-number query parameter, None when it is absent."""
    raw = request.query_params.get(name)
    if raw is None:
        return None
    number = whole_number(raw, 6)
    if number is None:
        raise ApiError(400, "bad_request", f"{name} must be a whole number")
    return number


async def get_replay(request: Request) -> Response:
    """A finished table at a step, from any seat's view (``?seat=i|spectator&step=n``)."""
    seat = None if request.query_params.get("seat", "spectator") == "spectator" else _number(request, "seat")
    snap = await _tables(request).snapshot(_table_id(request))
    return Json(replay_frame(snap, seat, _number(request, "step"), _lang(request)))


async def post_rematch(request: Request) -> Response:
    _limited(request)
    token = _token(request)
    await _body(request, EmptyBody)
    snap, seat, new_token = await _tables(request).rematch(_table_id(request), token)
    return Json({"table": summary(snap), "seat": seat, "token": new_token,
                         "url": f"/table/{snap.id}#token={new_token}"})


async def seat_to_bot(request: Request) -> Response:
    _limited(request)
    token = _token(request)
    if token is None:
        raise ApiError(403, "bad_token", "handing a seat to a bot needs a seat token")
    body: BotBody = await _body(request, BotBody)
    tables = _tables(request)
    await tables.hand_to_bot(_table_id(request), _seat_param(request), token, body.bot)
    return Json(summary(await tables.snapshot(_table_id(request))))


async def seat_to_human(request: Request) -> Response:
    _limited(request)
    token = _token(request)
    if token is None:
        raise ApiError(403, "bad_token", "taking a seat back needs its token")
    await _body(request, EmptyBody)
    tables = _tables(request)
    await tables.take_back(_table_id(request), _seat_param(request), token)
    return Json(summary(await tables.snapshot(_table_id(request))))


_BOARD_FILE = re.compile(r"[a-z][a-z0-9_-]{0,40}\.(js|css)")
_MEDIA = {"js": "text/javascript", "css": "text/css"}


async def board_file(request: Request) -> Response:
    """A game's board script or style, from its own folder (``obelisk/games/<id>/web/``)."""
    game, name = request.path_params["game"], request.path_params["name"]
    if game not in {info.id for info in registered_games()} or not _BOARD_FILE.fullmatch(name):
        raise ApiError(404, "not_found", "no such board file")
    path = BOARDS / game / "web" / name
    if not path.is_file():
        raise ApiError(404, "not_found", "no such board file")
    return FileResponse(path, media_type=_MEDIA[name.rsplit(".", 1)[1]])


@functools.cache
def _browser_speech() -> tuple[frozenset[str], frozenset[str]]:
    """The message ids and term kinds the pages and the boards use: all a browser's catalogs need to hold."""
    return spoken_by_pages([*STATIC.glob("*.html"), *STATIC.glob("*.js"), *BOARDS.glob("*/web/*.js")])


async def get_messages(request: Request) -> Response:
    """The Czech (or English: empty) catalog of the pages (``obelisk``) or of one game, for the browser: only what
    the pages and boards say themselves, since the view, the labels, the log and the help come worded from the
    server (the rest would only weigh on every page load)."""
    lang, name = request.path_params["lang"], request.path_params["domain"]
    if lang not in LANGUAGES:
        raise ApiError(404, "not_found", f"no such language; choose one of: {', '.join(LANGUAGES)}")
    if name != UI_DOMAIN and name not in {info.id for info in registered_games()}:
        raise ApiError(404, "not_found", "no such message domain")
    return Json(messages(name, lang, *_browser_speech()), headers={"Cache-Control": "max-age=300"})


async def get_health(request: Request) -> Response:
    """200 while this process's bots can decide, 503 with the reason while they cannot (docs/server.md)."""
    health = _tables(request).bots.health()
    return Json(health.as_dict(), status_code=200 if health.ok else 503, headers={"Cache-Control": "no-store"})


async def get_help(request: Request) -> Response:
    """A game's rules summary, first-game guide and component glossary (``Game.help()``), in ``?lang=``
    (English by default): what a page shows in its rules panel and when a component is tapped."""
    game = request.path_params["game"]
    if game not in {info.id for info in registered_games()}:
        raise ApiError(404, "not_found", "no such game")
    lang = _lang(request)
    with language(lang):
        help_ = game_class(game)().help()
        doc = help_.as_dict()
    return Json(doc, headers={"Cache-Control": "max-age=300"})


async def favicon(request: Request) -> Response:
    """The pages' icon, also where browsers look for one by themselves (``/favicon.ico``)."""
    path = request.app.state.config.static / "favicon.svg"
    if not path.is_file():
        raise ApiError(404, "not_found", "the icon is not installed")
    return FileResponse(path, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})


def _page(name: str) -> Any:
    async def page(request: Request) -> Response:
        path = request.app.state.config.static / name
        if not path.is_file():
            raise ApiError(404, "not_found", f"the page {name} is not installed")
        return FileResponse(path, media_type="text/html")
    return page


# ---- websockets -------------------------------------------------------------------------------

class Client:
    """One websocket: a seat (or a spectator) and a queue of what to send, frames coalesced.

    A seat's socket holds the hash of the token it said hello with: once that token no longer opens the
    seat (another token replaced it, in this process or another), the socket is told ``bad_token`` and
    closed before any frame of the seat's new holder is built for it.
    """

    def __init__(self, socket: WebSocket, seat: int | None, lang: str = DEFAULT_LANGUAGE,
                 token_hash: str | None = None) -> None:
        self.socket = socket
        self.seat = seat
        self.token_hash = token_hash
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

    async def send_loop(self, tables: Tables, live: Live) -> None:
        """Send what is queued until the socket closes; a frame that cannot be built closes it (1011)."""
        while True:
            message = await self.outbox.get()
            if message is None:
                self._frame_due = False
                snap = live.snap
                if not self.still_seated(snap):
                    await self.socket.send_text(dumps(_SEAT_LOST).decode())
                    await self.socket.close(code=1008)
                    return
                try:
                    message = {"type": "frame", **frame(snap, self.seat, tables.connected(live), self.sent, self.lang)}
                    self.sent = snap.version
                except Exception:
                    log.exception("table %s: the frame of seat %s failed", live.snap.id, self.seat)
                    await self.socket.close(code=1011)
                    return
            await self.socket.send_text(dumps(message).decode())

    def still_seated(self, snap: Snapshot) -> bool:
        """Whether this socket's token still opens its seat in ``snap`` (a spectator needs none)."""
        return self.seat is None or (self.token_hash is not None and snap.seats[self.seat].opens(self.token_hash))


_SEAT_LOST = {"type": "error", "code": "bad_token",
              "message": "the token this socket said hello with no longer opens its seat; the socket is closed"}


def _same_origin(socket: WebSocket) -> bool:
    origin = socket.headers.get("origin")
    host = socket.headers.get("host")
    return bool(origin and host) and _origin_matches(str(origin), str(host))


async def _receive(socket: WebSocket, limit: int, timeout: float | None = None) -> dict[str, Any]:
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


class HelloMessage(_Body):
    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=128)
    lang: str = Field(default=DEFAULT_LANGUAGE, max_length=20)


class MoveMessage(_Body):
    type: Literal["move"]
    version: int
    action: int


class MovesMessage(_Body):
    type: Literal["moves"]
    version: int
    actions: list[int] = Field(min_length=1, max_length=BATCH_LIMIT)


class UndoMessage(_Body):
    type: Literal["undo"]
    version: int


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
        await _follow(socket, config, socket.app.state.tables)
    finally:
        open_sockets[address] -= 1
        if open_sockets[address] <= 0:
            del open_sockets[address]


async def _follow(socket: WebSocket, config: ServerConfig, tables: Tables) -> None:
    """Say hello, then send the table's frames and take this socket's moves until it closes."""
    table_id = _table_id(socket)
    try:
        hello: HelloMessage = _parse(HelloMessage, await _receive(socket, config.max_body, config.hello_timeout))
        lang = _checked_language(hello.lang)
        live = await tables.get(table_id)
        seat = live.snap.seat_of(hello.token)
    except ApiError as error:
        await socket.send_text(dumps({"type": "error", "code": error.code, "message": error.message}).decode())
        await socket.close(code=1008)
        return
    except (asyncio.TimeoutError, WebSocketDisconnect):
        with contextlib.suppress(Exception):
            await socket.close(code=1008, reason="no hello")
        return
    client = Client(socket, seat, lang, hash_token(hello.token) if hello.token is not None else None)
    live = await tables.attach(table_id, client)
    sender = asyncio.get_running_loop().create_task(client.send_loop(tables, live))
    bucket = Bucket(config.rate, config.burst)
    try:
        while True:
            try:
                message = await _receive(socket, config.max_body)
                if not bucket.take():
                    raise ApiError(429, "rate_limited", "too many messages; slow down")
                if message["type"] == "ping":
                    client.say({"type": "pong"})
                elif message["type"] == "move":
                    move: MoveMessage = _parse(MoveMessage, message)
                    await tables.move(table_id, hello.token, move.version, [move.action])
                elif message["type"] == "moves":
                    batch: MovesMessage = _parse(MovesMessage, message)
                    await tables.move(table_id, hello.token, batch.version, batch.actions)
                elif message["type"] == "undo":
                    undo: UndoMessage = _parse(UndoMessage, message)
                    await tables.undo(table_id, hello.token, undo.version)
                elif message["type"] == "hello":
                    raise ApiError(400, "bad_request", "hello is sent once, first")
                else:
                    raise ApiError(400, "bad_request", f"unknown message type {codec.describe(message['type'])}")
            except ApiError as error:
                client.say({"type": "error", "code": error.code, "message": error.message})
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


# ---- errors and headers -----------------------------------------------------------------------

def _error(status: int, code: str, message: str) -> Json:
    return Json({"error": {"code": code, "message": message}}, status_code=status)


async def _api_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, ApiError)
    return _error(error.status, error.code, error.message)


_HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}


async def _http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    return _error(error.status_code, _HTTP_CODES.get(error.status_code, "bad_request"), str(error.detail))


async def _internal_error(request: Request, error: Exception) -> Response:
    log.error("internal error on %s %s", request.method, request.url.path, exc_info=error)
    return _error(500, "internal", "the server failed; the table is unchanged")


def _origin_matches(origin: str, host: str) -> bool:
    """Whether ``origin`` (an Origin header) names the server at ``host`` (the Host header)."""
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower()


class SameOriginWrites:
    """Refuses every POST (the API's only method that changes something) unless it is JSON from this
    server's own pages.

    A POST with an ``Origin`` other than the server's (``Host``) is refused (403 ``cross_origin``), and so
    is one whose ``Content-Type`` is not ``application/json`` (415 ``not_json``): another site can make a
    player's browser send a form or ``text/plain`` POST without asking first, but JSON (or any other
    method) only after a preflight that this server never allows. Scripts and terminals, which send no
    ``Origin``, are served.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST":
            refusal = self._refusal(Headers(scope=scope))
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)

    @staticmethod
    def _refusal(headers: Headers) -> Response | None:
        origin = headers.get("origin")
        if origin is not None and not _origin_matches(origin, headers.get("host", "")):
            return _error(403, "cross_origin", "requests that change something are taken from this server's own "
                                               "pages only, not from another site")
        media = headers.get("content-type", "").partition(";")[0].strip().lower()
        if media != "application/json":
            return _error(415, "not_json", "a request that changes something is sent as Content-Type: "
                                           "application/json")
        return None


class SecurityHeaders:
    """Adds the security headers to every HTTP response, errors included."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name for name, _ in message.get("headers", [])}
                message["headers"] = list(message.get("headers", [])) + [
                    (name, value) for name, value in SECURITY_HEADERS if name not in names
                ]
            await send(message)

        await self.app(scope, receive, send_with_headers)


# ---- the application --------------------------------------------------------------------------

async def _listen(url: str, tables: Tables) -> None:
    """Follow the changes other processes make (PostgreSQL LISTEN/NOTIFY)."""
    import psycopg

    from obelisk.server.tables import NOTIFY_CHANNEL

    dsn = url.replace("postgresql+psycopg://", "postgresql://", 1)
    while True:
        try:
            async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as connection:
                await connection.execute(f"LISTEN {NOTIFY_CHANNEL}")
                async for note in connection.notifies():
                    tables.changed_elsewhere(note.payload)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("lost the database notifications; reconnecting")
            await asyncio.sleep(1.0)


EXPIRY_PERIOD = 60.0
"""Seconds between two looks for tables that waited too long for their players."""


async def _expire_waiting(tables: Tables, hours: float) -> None:
    """Expire the tables that have waited ``hours`` for their players, once a minute, for as long as the server runs."""
    while True:
        try:
            await tables.expire(timedelta(hours=hours))
        except Exception:
            log.exception("the waiting tables could not be expired; trying again later")
        await asyncio.sleep(EXPIRY_PERIOD)


def tune_process() -> None:
    """Keep Python's collector and its interpreter lock off the moves' latency.

    A collection stops the event loop for as long as it takes to scan the objects of its generation.
    With the default thresholds a move's short-lived objects (the state clones, frames, snapshots
    replaced a move later) survive into the older generations and every full collection walks the
    whole heap, modules and all: pauses of 100 to 400 ms, and a third of the server's CPU. Freezing
    what start-up allocated takes the modules out of every later collection, and a young generation
    of 50,000 objects lets most of a move's objects die (by reference counting, which is unchanged)
    before a collection ever sees them. Cyclic garbage is still collected, only later.

    The commit thread gives up the interpreter lock at every database call; with the default switch
    interval it then waits up to 5 ms behind the busy event loop each time, so a group commit of a
    few dozen statements took 25 ms and more at the median. A 0.5 ms interval lets it back in sooner.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 10)
    sys.setswitchinterval(0.0005)


def create_app(config: ServerConfig | None = None) -> Starlette:
    """The server as an ASGI app; the database is opened (and migrated) when it starts."""
    config = config or ServerConfig()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        engine = open_database(config.db_url)
        bots = BotScheduler(config.bot_workers)
        bots.start()
        tables = Tables(engine, bots=bots, bot_delay=config.bot_delay, cache_size=config.cache_size)
        app.state.tables = tables
        if config.tune_process:
            tune_process()
        listener = None
        if engine.dialect.name == "postgresql":
            listener = asyncio.get_running_loop().create_task(_listen(engine.url.render_as_string(False), tables))
        resuming = asyncio.get_running_loop().create_task(tables.resume())
        expiring = asyncio.get_running_loop().create_task(_expire_waiting(tables, config.waiting_hours))
        try:
            yield
        finally:
            for task in (resuming, expiring):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            if listener is not None:
                listener.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await listener
            await tables.close()
            engine.dispose()

    routes = [
        Route("/api/games", list_games),
        Route("/api/health", get_health),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables/{table_id}", get_table),
        Route("/api/tables/{table_id}/claim", claim_seat, methods=["POST"]),
        Route("/api/tables/{table_id}/join", join_seat, methods=["POST"]),
        Route("/api/tables/{table_id}/frame", get_frame),
        Route("/api/tables/{table_id}/moves", post_move, methods=["POST"]),
        Route("/api/tables/{table_id}/undo", post_undo, methods=["POST"]),
        Route("/api/tables/{table_id}/record", get_record),
        Route("/api/tables/{table_id}/replay", get_replay),
        Route("/api/tables/{table_id}/rematch", post_rematch, methods=["POST"]),
        Route("/api/tables/{table_id}/seats/{seat}/bot", seat_to_bot, methods=["POST"]),
        Route("/api/tables/{table_id}/seats/{seat}/human", seat_to_human, methods=["POST"]),
        WebSocketRoute("/ws/tables/{table_id}", table_socket),
        Route("/api/messages/{lang}/{domain}", get_messages),
        Route("/api/games/{game}/help", get_help),
        Route("/games/{game}/{name}", board_file),
        Route("/favicon.ico", favicon),
        Route("/", _page("lobby.html")),
        Route("/table/{table_id}", _page("table.html")),
        Route("/table/{table_id}/replay", _page("replay.html")),
        Mount("/static", app=StaticFiles(directory=config.static, check_dir=False), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={ApiError: _api_error, HTTPException: _http_error, Exception: _internal_error},
    )
    app.state.config = config
    app.state.buckets = {}
    app.state.sockets = Counter()
    app.add_middleware(SameOriginWrites)
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(config.allowed_hosts), www_redirect=False)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(GZipMiddleware, minimum_size=1024, compresslevel=6)
    return app


def app_from_environment() -> Starlette:
    """The app ``obelisk serve --workers N`` starts in each process, configured by environment variables."""
    return create_app(ServerConfig(
        db_url=os.environ.get("OBELISK_SERVER_DB") or None,
        bot_workers=int(os.environ.get("OBELISK_SERVER_BOT_WORKERS", "1")),
        bot_delay=float(os.environ.get("OBELISK_SERVER_BOT_DELAY", "0.6")),
        allowed_hosts=tuple(os.environ.get("OBELISK_SERVER_ALLOWED_HOSTS", " ".join(LOOPBACK_HOSTS)).split()),
        tune_process=True,
    ))
