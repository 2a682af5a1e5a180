"""Optional accounts: register, sign in and out, the session cookie, its CSRF check, the account's tables and
settings (docs/server.md, *Accounts*).

Playing needs no account: a seat is opened by its token as before. A signed-in person's claims and joins tie the
seat to the account (``SeatRow.account_id``), whose session then opens it on any device and without which the
seat's token opens it for nobody signed in as another account (``Snapshot.seat_of``).

- Passwords are hashed with Argon2 (``argon2-cffi``) in a worker thread, never on the event loop; an unknown name
  is verified against a dummy hash, so it costs what a wrong password costs and gets the same answer.
- A session is a random 32-byte cookie of which the database keeps only the SHA-256 (``SessionRow``). Signing in
  always makes a new one (a cookie set before is never promoted), signing out deletes it, and an expired one is
  refused and deleted.
- Every change a request asks as the signed-in account carries ``X-CSRF-Token``: an HMAC of the session cookie,
  given in the sign-in answer, ``GET /api/account`` and a cookie the pages read (``obelisk_csrf``), on top of
  the same-origin JSON rule of ``guards.py``.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import re
import secrets
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Callable

import anyio
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from pydantic import Field
from sqlalchemy import delete, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from starlette.requests import HTTPConnection, Request
from starlette.responses import Response
from starlette.routing import Route

from obelisk.core.i18n import DEFAULT_LANGUAGE, language
from obelisk.server import store
from obelisk.server.config import ServerConfig
from obelisk.server.guards import Body, Bucket, Json, checked_language, client_key, limited, read_body
from obelisk.server.notes import notify_text
from obelisk.server.store import AccountRow, SeatRow, SessionRow, TableRow, aware
from obelisk.server.table import ApiError, Snapshot
from obelisk.server.tables import Tables, summary

SESSION_COOKIE = "obelisk_session"
CSRF_COOKIE = "obelisk_csrf"
"""Not HttpOnly: the pages read it to send ``X-CSRF-Token``. It is derived from the session and opens nothing."""
CSRF_HEADER = "x-csrf-token"
SESSION_DAYS = 30
NAME_MIN, NAME_MAX = 2, 40
PASSWORD_MIN, PASSWORD_MAX = 10, 200
ACCOUNT_TABLES = 100
"""The most recently changed tables ``GET /api/account/tables`` lists."""
_NAME_MARKS = frozenset(" -_.")
_EMAIL = re.compile(r"[^@\s]{1,64}@[^@\s.]+(\.[^@\s.]+)+")

_hasher = PasswordHasher()


@dataclass(frozen=True)
class Account:
    """A signed-in account, as the helpers of the other modules receive it."""

    id: str
    name: str
    email: str | None
    notify_email: bool
    created: datetime

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "email": self.email, "notify_email": self.notify_email,
                "created": self.created.isoformat()}


@dataclass(frozen=True)
class SignedIn:
    """A request's valid session: its account, the hash the database keeps and the CSRF value it expects."""

    account: Account
    session_hash: str
    csrf: str


SESSIONS_CHANNEL = "obelisk_sessions"
"""Where a process says a session signed out (its hash), so every process closes the sockets it opened."""


# ---- checks ---------------------------------------------------------------------------------------

def check_account_name(raw: str) -> str:
    """The name trimmed, if it is 2 to 40 letters, digits, spaces and ``-_.``; else ``bad_name`` saying why."""
    name = unicodedata.normalize("NFC", raw).strip()
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise ApiError(400, "bad_name", f"a name has {NAME_MIN} to {NAME_MAX} characters, got {len(name)}")
    wrong = next((c for c in name if not (c.isalnum() or c in _NAME_MARKS)), None)
    if wrong is not None:
        raise ApiError(400, "bad_name", f"a name holds letters, digits, spaces and - _ . only, not {wrong!r}")
    return name


def name_key(name: str) -> str:
    """What makes two names the same account: ``Ra`` and ``rA`` are one."""
    return name.casefold()


def check_password(password: str) -> str:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise ApiError(400, "bad_password",
                       f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters, got {len(password)}")
    return password


def check_email(raw: str | None) -> str | None:
    """The address trimmed (None: none), if it looks like ``name@domain.tld``; else ``bad_email``."""
    if raw is None or not raw.strip():
        return None
    email = raw.strip()
    if len(email) > 254 or not _EMAIL.fullmatch(email):
        raise ApiError(400, "bad_email", "an e-mail address looks like name@example.org")
    return email


def hash_session(token: str) -> str:
    """What the database keeps of a session cookie: a leaked database signs nobody in."""
    return hashlib.sha256(token.encode()).hexdigest()


def csrf_of(token: str) -> str:
    """The value a session's changes carry in ``X-CSRF-Token``: another site can neither read nor derive it."""
    return hmac.new(token.encode(), b"obelisk csrf", hashlib.sha256).hexdigest()


# ---- passwords (blocking: run in a thread) --------------------------------------------------------

_DUMMY_HASH: list[str] = []


def _dummy_hash() -> str:
    """A hash no password matches, verified for an unknown name so that it costs what a wrong password does."""
    if not _DUMMY_HASH:
        _DUMMY_HASH.append(_hasher.hash(secrets.token_urlsafe(24)))
    return _DUMMY_HASH[0]


def _verify(stored: str | None, password: str) -> bool:
    try:
        return _hasher.verify(stored or _dummy_hash(), password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


# ---- the database (blocking: run in a thread) -----------------------------------------------------

HASHING_THREADS = 4
"""Password hashes computed at once: each takes 64 MiB and most of a core for a fraction of a second, so a burst of
sign-ins from many addresses waits its turn rather than exhausting the server's memory."""


class AccountStore:
    """Accounts and sessions as the database keeps them (made by :meth:`open`, on the event loop)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.hashing = anyio.CapacityLimiter(HASHING_THREADS)

    @classmethod
    async def open(cls, engine: Engine) -> AccountStore:
        """The store, its dummy hash made first (in a thread) so that the first unknown name costs no more than
        the next one."""
        await anyio.to_thread.run_sync(_dummy_hash)
        return cls(engine)

    def register(self, name: str, password: str) -> None:
        """A new account; ``name_taken`` when the name (case-folded) is someone's already."""
        password_hash = _hasher.hash(password)
        try:
            with Session(self.engine) as session, session.begin():
                if session.scalar(select(AccountRow.id).where(AccountRow.name_key == name_key(name))) is not None:
                    raise _name_taken(name)
                session.add(AccountRow(id=secrets.token_urlsafe(12), name=name, name_key=name_key(name),
                                       password_hash=password_hash, email=None, notify_email=False,
                                       created=store.now()))
        except IntegrityError:
            raise _name_taken(name) from None

    def sign_in(self, name: str, password: str) -> str:
        """A new session's cookie for the account ``name`` if ``password`` is its; ``bad_credentials`` otherwise
        (the same answer, after the same work, for an unknown name)."""
        with Session(self.engine) as session, session.begin():
            row = session.scalar(select(AccountRow).where(AccountRow.name_key == name_key(name)))
            if not _verify(row.password_hash if row is not None else None, password) or row is None:
                raise ApiError(401, "bad_credentials", "that name and password do not match an account")
            if _hasher.check_needs_rehash(row.password_hash):
                row.password_hash = _hasher.hash(password)
            token = secrets.token_urlsafe(32)
            moment = store.now()
            # Sessions nobody uses again are removed here rather than by a timer of their own.
            session.execute(delete(SessionRow).where(SessionRow.expires <= moment))
            session.add(SessionRow(id_hash=hash_session(token), account_id=row.id, created=moment,
                                   expires=moment + timedelta(days=SESSION_DAYS)))
        return token

    def session(self, token: str) -> Account | None:
        """The account of a session cookie, None when it is unknown or expired (an expired one is deleted)."""
        id_hash = hash_session(token)
        with Session(self.engine) as session, session.begin():
            found = session.execute(select(SessionRow.expires, AccountRow)
                                    .join(AccountRow, AccountRow.id == SessionRow.account_id)
                                    .where(SessionRow.id_hash == id_hash)).one_or_none()
            if found is None:
                return None
            expires, row = found
            if aware(expires) <= store.now():
                session.execute(delete(SessionRow).where(SessionRow.id_hash == id_hash))
                return None
            return Account(row.id, row.name, row.email, row.notify_email, aware(row.created))

    def sign_out(self, session_hash: str) -> None:
        """Deletes the session; every process serving the database is told, to close the sockets it opened."""
        with Session(self.engine) as session, session.begin():
            session.execute(delete(SessionRow).where(SessionRow.id_hash == session_hash))
            notify_text(session, SESSIONS_CHANNEL, session_hash)

    def settings(self, account_id: str, email: str | None, notify: bool) -> None:
        with Session(self.engine) as session, session.begin():
            session.execute(update(AccountRow).where(AccountRow.id == account_id)
                            .values(email=email, notify_email=notify))

    def seats(self, account_id: str) -> list[tuple[str, int]]:
        """The account's seats (table, seat) at tables not expired, the most recently changed first."""
        with Session(self.engine) as session:
            rows = session.execute(select(SeatRow.table_id, SeatRow.seat)
                                   .join(TableRow, TableRow.id == SeatRow.table_id)
                                   .where(SeatRow.account_id == account_id, TableRow.status != "expired")
                                   .order_by(TableRow.updated.desc()).limit(ACCOUNT_TABLES)).all()
        return [(row.table_id, row.seat) for row in rows]


def _name_taken(name: str) -> ApiError:
    return ApiError(409, "name_taken", f"the name {name!r} is taken (names are compared ignoring case)")


# ---- sign-in limits -------------------------------------------------------------------------------

class SignInLimits:
    """Password guesses allowed per client address and per account name: ``sign_in_tries`` at once, then one
    every ``sign_in_seconds``. A refused try runs no hash and stores nothing."""

    def __init__(self, config: ServerConfig) -> None:
        self.tries, self.seconds = config.sign_in_tries, config.sign_in_seconds
        self.buckets: dict[tuple[str, str], Bucket] = {}

    def take(self, address: str, name: str | None) -> None:
        keys = [("address", address)] + ([("name", name_key(name))] if name is not None else [])
        if len(self.buckets) > 10_000:
            self.buckets.clear()
        buckets = [self.buckets.setdefault(key, Bucket(1 / self.seconds, self.tries)) for key in keys]
        wait = max(bucket.wait() for bucket in buckets)
        if wait > 0:
            seconds = max(1, math.ceil(wait))
            raise ApiError(429, "too_many_sign_ins", f"too many sign-in attempts; try again in {seconds} s",
                           retry_after=seconds)
        for bucket in buckets:
            bucket.take()


# ---- who is signed in ---------------------------------------------------------------------------

def _store(connection: HTTPConnection) -> AccountStore:
    return connection.app.state.accounts


async def signed_in(connection: HTTPConnection) -> SignedIn | None:
    """The request's (or websocket's) valid session, None without one; looked up once per request."""
    if hasattr(connection.state, "signed_in"):
        return connection.state.signed_in
    token = connection.cookies.get(SESSION_COOKIE)
    found = None
    if token and len(token) <= 128:
        account = await anyio.to_thread.run_sync(_store(connection).session, token)
        if account is not None:
            found = SignedIn(account, hash_session(token), csrf_of(token))
    connection.state.signed_in = found
    return found


async def account_of(connection: HTTPConnection) -> Account | None:
    """The signed-in account of a request or websocket, from its session cookie; None when nobody is."""
    found = await signed_in(connection)
    return found.account if found is not None else None


async def acting_account(request: Request) -> str | None:
    """The id of the account a change is asked as, None when nobody is signed in; ``csrf_failed`` unless the
    request carries the session's ``X-CSRF-Token`` (another site can make a browser send the cookie, never
    the header)."""
    found = await signed_in(request)
    if found is None:
        return None
    sent = request.headers.get(CSRF_HEADER, "")
    if not hmac.compare_digest(sent.encode(), found.csrf.encode()):
        raise ApiError(403, "csrf_failed", "a change asked while signed in carries the X-CSRF-Token header "
                                           "of the session (GET /api/account gives it)")
    return found.account.id


async def _required(request: Request, change: bool) -> SignedIn:
    found = await signed_in(request)
    if found is None:
        raise ApiError(401, "not_signed_in", "sign in first")
    if change:
        await acting_account(request)
    return found


# ---- bodies and routes ----------------------------------------------------------------------------

class Credentials(Body):
    name: str = Field(max_length=200)
    password: str = Field(max_length=1000)


class SettingsBody(Body):
    email: str | None = Field(default=None, max_length=300)
    notify_email: bool = False


class EmptyBody(Body):
    pass


def _signed_answer(request: Request, account: Account, token: str, status: int = 200) -> Response:
    """The account and its CSRF value, with the new session's cookies."""
    response = Json({"account": account.as_dict(), "csrf": csrf_of(token)}, status_code=status)
    secure = request.url.scheme == "https"
    age = SESSION_DAYS * 24 * 3600
    response.set_cookie(SESSION_COOKIE, token, max_age=age, path="/", httponly=True, samesite="lax", secure=secure)
    response.set_cookie(CSRF_COOKIE, csrf_of(token), max_age=age, path="/", httponly=False, samesite="lax",
                        secure=secure)
    return response


async def _sign_in(request: Request, name: str, password: str, status: int) -> Response:
    accounts = _store(request)
    token = await anyio.to_thread.run_sync(accounts.sign_in, name, password, limiter=accounts.hashing)
    account = await anyio.to_thread.run_sync(accounts.session, token)
    assert account is not None
    return _signed_answer(request, account, token, status)


async def register(request: Request) -> Response:
    """``POST /api/accounts {name, password}``: a new account, signed in at once (201)."""
    limited(request)
    body: Credentials = await read_body(request, Credentials)
    name, password = check_account_name(body.name), check_password(body.password)
    request.app.state.sign_ins.take(client_key(request), None)
    await anyio.to_thread.run_sync(_store(request).register, name, password, limiter=_store(request).hashing)
    return await _sign_in(request, name, password, 201)


async def sign_in(request: Request) -> Response:
    """``POST /api/session {name, password}``: a new session (never the cookie the request carried)."""
    limited(request)
    body: Credentials = await read_body(request, Credentials)
    request.app.state.sign_ins.take(client_key(request), body.name.strip())
    return await _sign_in(request, body.name.strip(), body.password, 200)


async def sign_out(request: Request) -> Response:
    """``DELETE /api/session``: the session deleted on the server and its cookies cleared (only the cookies when the
    session is gone already: expired, or ended on another page)."""
    limited(request)
    found = await signed_in(request)
    if found is not None:
        await acting_account(request)
        await anyio.to_thread.run_sync(_store(request).sign_out, found.session_hash)
        request.app.state.tables.session_ended(found.session_hash)
    response = Response(status_code=204)
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
    response.delete_cookie(CSRF_COOKIE, path="/", samesite="lax")
    return response


async def who_am_i(request: Request) -> Response:
    """``GET /api/account``: the signed-in account and its CSRF value; 401 ``not_signed_in`` otherwise."""
    found = await _required(request, change=False)
    return Json({"account": found.account.as_dict(), "csrf": found.csrf}, headers={"Cache-Control": "no-store"})


async def put_settings(request: Request) -> Response:
    """``PUT /api/account/settings {email, notify_email}``: where and whether to e-mail the account its turns."""
    limited(request)
    found = await _required(request, change=True)
    body: SettingsBody = await read_body(request, SettingsBody)
    email = check_email(body.email)
    if body.notify_email and email is None:
        raise ApiError(400, "email_needed", "turn e-mails need an e-mail address")
    await anyio.to_thread.run_sync(_store(request).settings, found.account.id, email, body.notify_email)
    account = await anyio.to_thread.run_sync(_store(request).session, request.cookies[SESSION_COOKIE])
    assert account is not None
    return Json({"account": account.as_dict()})


def your_move(snapshot: Snapshot, seat: int) -> bool:
    """Whether the game waits for this seat's person (not while a bot plays it)."""
    return snapshot.to_act == seat and snapshot.seats[seat].kind == "human"


async def account_tables(request: Request) -> Response:
    """``GET /api/account/tables?lang=``: the account's tables, those waiting for its move first, then the most
    recently changed."""
    found = await _required(request, change=False)
    lang = checked_language(request.query_params.get("lang", DEFAULT_LANGUAGE))
    tables: Tables = request.app.state.tables
    listed = []
    for table_id, seat in await anyio.to_thread.run_sync(_store(request).seats, found.account.id):
        snapshot = await tables.snapshot(table_id)
        listed.append((snapshot, seat))
    listed.sort(key=lambda pair: (not your_move(*pair), -pair[0].updated.timestamp()))
    with language(lang):
        entries = [{"table": summary(snapshot), "seat": seat, "your_move": your_move(snapshot, seat),
                    "url": f"/table/{snapshot.id}"} for snapshot, seat in listed]
    return Json({"tables": entries}, headers={"Cache-Control": "no-store"})


def account_routes(page: Callable[[str], Any]) -> list[Route]:
    """The accounts' API and page (``page``: the route that serves a static page by its file name)."""
    return [
        Route("/api/accounts", register, methods=["POST"]),
        Route("/api/session", sign_in, methods=["POST"]),
        Route("/api/session", sign_out, methods=["DELETE"]),
        Route("/api/account", who_am_i, methods=["GET"]),
        Route("/api/account/settings", put_settings, methods=["PUT"]),
        Route("/api/account/tables", account_tables, methods=["GET"]),
        Route("/account", page("account.html")),
    ]
