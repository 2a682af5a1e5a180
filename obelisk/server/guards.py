"""What every request and websocket message passes through before a route sees it, and how refusals are sent.

Every request body and message is JSON validated against a strict schema (:class:`Body`); every
refusal is one ``{"error": {"code", "message"}}``; every response carries the security headers;
requests that change something come from the same origin as JSON (so another site cannot send one
from a player's browser); each client address is rate limited by a token bucket. The "Threat model"
of docs/server.md says what each of these defends.
"""

from __future__ import annotations

import ipaddress
import logging
import re
import time
from typing import Any
from urllib.parse import urlsplit

import orjson
from pydantic import BaseModel, ConfigDict, ValidationError
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from obelisk.core import codec
from obelisk.core.i18n import check_language
from obelisk.server.config import ServerConfig
from obelisk.server.table import ApiError

log = logging.getLogger("obelisk.server")

SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


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
        self._fill()
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def wait(self) -> float:
        """Seconds until :meth:`take` succeeds again (0: now)."""
        self._fill()
        return max(0.0, (1 - self.tokens) / self.rate)

    def _fill(self) -> None:
        moment = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (moment - self.stamp) * self.rate)
        self.stamp = moment


class Body(BaseModel):
    """A request body or websocket message: strict types, and no field the schema does not name."""

    model_config = ConfigDict(extra="forbid", strict=True)


def _validation_message(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "body"
    return f"{where}: {first['msg']}"


def parse(model: type[Body], raw: Any) -> Any:
    """``raw`` validated as ``model``, else a ``bad_request`` naming the first field that is wrong."""
    try:
        return model.model_validate(raw)
    except ValidationError as error:
        raise ApiError(400, "bad_request", _validation_message(error)) from None


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


def limited(request: Request) -> None:
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


def checked_language(lang: Any) -> str:
    """``lang`` if the server speaks it, else a ``bad_request`` naming the languages it speaks."""
    try:
        return check_language(lang)
    except ValueError as error:
        raise ApiError(400, "bad_request", str(error)) from None


_DIGITS = re.compile(r"[0-9]+")


def whole_number(raw: str, digits: int) -> int | None:
    """``raw`` as a whole number of at most ``digits`` ASCII digits, else None (``str.isdigit`` would take ``²``)."""
    return int(raw) if len(raw) <= digits and _DIGITS.fullmatch(raw) else None


async def read_body(request: Request, model: type[Body]) -> Any:
    """The request's JSON body (at most ``max_body`` bytes, counted while reading) validated as ``model``; an
    empty body is ``{}``."""
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
    return parse(model, doc)


def error_response(status: int, code: str, message: str) -> Json:
    return Json({"error": {"code": code, "message": message}}, status_code=status)


async def _api_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, ApiError)
    headers = {"Retry-After": str(error.retry_after)} if error.retry_after is not None else None
    return Json({"error": error.as_dict()}, status_code=error.status, headers=headers)


_HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}


async def _http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    return error_response(error.status_code, _HTTP_CODES.get(error.status_code, "bad_request"), str(error.detail))


async def _internal_error(request: Request, error: Exception) -> Response:
    log.error("internal error on %s %s", request.method, request.url.path, exc_info=error)
    return error_response(500, "internal", "the server failed; the table is unchanged")


EXCEPTION_HANDLERS = {ApiError: _api_error, HTTPException: _http_error, Exception: _internal_error}
"""Every refusal and failure as one JSON error: the application's exception handlers."""


def origin_matches(origin: str, host: str) -> bool:
    """Whether ``origin`` (an Origin header) names the server at ``host`` (the Host header)."""
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower()


_WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_BODIES = frozenset({"POST", "PUT", "PATCH"})


class SameOriginWrites:
    """Refuses every POST, PUT, PATCH and DELETE (the methods that change something) from another origin, and
    those with a body unless it is JSON.

    A request with an ``Origin`` other than the server's (``Host``) is refused (403 ``cross_origin``), and so
    is one whose ``Content-Type`` is not ``application/json`` (415 ``not_json``): another site can make a
    player's browser send a form or ``text/plain`` POST without asking first, but JSON (or any other
    method) only after a preflight that this server never allows. Scripts and terminals, which send no
    ``Origin``, are served.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in _WRITES:
            refusal = self._refusal(Headers(scope=scope), scope["method"] in _BODIES)
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)

    @staticmethod
    def _refusal(headers: Headers, with_body: bool) -> Response | None:
        origin = headers.get("origin")
        if origin is not None and not origin_matches(origin, headers.get("host", "")):
            return error_response(403, "cross_origin", "requests that change something are taken from this "
                                                       "server's own pages only, not from another site")
        media = headers.get("content-type", "").partition(";")[0].strip().lower()
        if with_body and media != "application/json":
            return error_response(415, "not_json", "a request that changes something is sent as Content-Type: "
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

