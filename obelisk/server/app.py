"""The ASGI application: the routes, the table websockets and the static client put together (docs/server.md).

The parts, each with one concern: ``routes.py`` (HTTP) and ``sockets.py`` (websockets) are the
transports; ``guards.py`` is what every request passes through (schemas, rate limits, same-origin
writes, security headers, error answers); ``tables.py`` is the authority over what may change,
``live.py`` the tables held in memory, ``committer.py`` and ``storage.py`` the database, ``views.py``
what each seat may see. This module starts and stops them with the server: the database, the bot
scheduler, the listener of other processes' changes and the expiry of tables left waiting.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import sys
from collections import Counter
from datetime import timedelta
from typing import AsyncIterator

import anyio
from starlette.applications import Starlette
from starlette.middleware.gzip import GZipMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.routing import Mount, WebSocketRoute
from starlette.staticfiles import StaticFiles

from obelisk.server.accounts import SESSIONS_CHANNEL, AccountStore, SignInLimits
from obelisk.server.chat import CHAT_CHANNEL, TableChat
from obelisk.server.config import LOOPBACK_HOSTS, STATIC, ServerConfig
from obelisk.server.guards import EXCEPTION_HANDLERS, SameOriginWrites, SecurityHeaders, client_key, whole_number
from obelisk.server.mail import TurnMails, settings_from_environment
from obelisk.server.notes import NOTIFY_CHANNEL
from obelisk.server.routes import http_routes
from obelisk.server.scheduler import BotScheduler
from obelisk.server.sockets import table_socket
from obelisk.server.store import open_database
from obelisk.server.tables import Tables

__all__ = ["LOOPBACK_HOSTS", "STATIC", "ServerConfig", "app_from_environment", "client_key", "create_app",
           "tune_process", "whole_number"]

log = logging.getLogger("obelisk.server")


async def _listen(url: str, tables: Tables, chat: TableChat, listening: asyncio.Event) -> None:
    """Follow the changes other processes make, the chat lines they store and the sessions signed out there
    (PostgreSQL LISTEN/NOTIFY); ``listening`` is set once every channel is listened to.

    A note sent while no connection listens is lost, so after a lost connection every table held here is read
    again (the server starts serving only once it listens: ``LISTEN_WAIT``)."""
    import psycopg

    dsn = url.replace("postgresql+psycopg://", "postgresql://", 1)
    heard = {NOTIFY_CHANNEL: tables.changed_elsewhere, CHAT_CHANNEL: chat.heard, SESSIONS_CHANNEL: tables.session_ended}
    while True:
        try:
            async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as connection:
                for channel in heard:
                    await connection.execute(f"LISTEN {channel}")
                if listening.is_set():
                    tables.missed_notes()
                listening.set()
                async for note in connection.notifies():
                    heard[note.channel](note.payload)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("lost the database notifications; reconnecting")
            await asyncio.sleep(1.0)


LISTEN_WAIT = 10.0
"""Seconds a starting server waits to listen to the other processes' notifications before it serves anyway."""

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
        app.state.chat = chat = TableChat(tables, config)
        app.state.accounts = await AccountStore.open(engine)
        mails = TurnMails(engine, config.mail, tables.connected) if config.mail is not None else None
        app.state.mails = mails
        if mails is not None:
            tables.on_published = mails.published
        if config.tune_process:
            tune_process()
        listener = None
        if engine.dialect.name == "postgresql":
            listening = asyncio.Event()
            listener = asyncio.get_running_loop().create_task(_listen(engine.url.render_as_string(False), tables,
                                                                            chat, listening))
            try:  # what other processes change from now on is heard before the first request is answered
                await asyncio.wait_for(listening.wait(), LISTEN_WAIT)
            except asyncio.TimeoutError:
                log.error("not listening to the database's notifications after %s s; serving anyway", LISTEN_WAIT)
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
            if mails is not None:
                await anyio.to_thread.run_sync(mails.close)
            engine.dispose()

    routes = [
        *http_routes(),
        WebSocketRoute("/ws/tables/{table_id}", table_socket),
        Mount("/static", app=StaticFiles(directory=config.static, check_dir=False), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers=EXCEPTION_HANDLERS,
    )
    app.state.config = config
    app.state.buckets = {}
    app.state.sockets = Counter()
    app.state.sign_ins = SignInLimits(config)
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
        mail=settings_from_environment(os.environ),
    ))
