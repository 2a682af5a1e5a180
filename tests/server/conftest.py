"""Fixtures of the server tests: a fresh database (SQLite, or PostgreSQL when OBELISK_TEST_POSTGRES is set)."""

from __future__ import annotations

import contextlib
import os
import asyncio
import secrets
import threading
import time
from typing import Any, AsyncIterator, Coroutine, Iterator, TypeVar

import pytest
from starlette.testclient import TestClient

from obelisk.server.app import LOOPBACK_HOSTS, ServerConfig, create_app
from obelisk.server.store import open_database
from obelisk.server.tables import Snapshot, Tables

ORIGIN = {"origin": "http://testserver"}
HUMANS = [{"kind": "human"}, {"kind": "human"}]
"""Two seats for people, not yet claimed."""
POSTGRES = os.environ.get("OBELISK_TEST_POSTGRES")
T = TypeVar("T")


def run_async(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)`` in a thread of its own, its result or its exception returned as ``asyncio.run`` does.

    A test process that has driven a browser keeps Playwright's event loop running in its main thread (its sync
    API), where ``asyncio.run`` then refuses to start; the suite's workers take browser and server tests in any
    order, so a test's own loop runs apart.
    """
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = asyncio.run(main)
        except BaseException as error:  # handed to the test's thread as it is
            outcome["error"] = error

    thread = threading.Thread(target=target, name="test event loop")
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def fresh_postgres() -> tuple[str, Any]:
    """A new, empty database on the test PostgreSQL server, and a function that drops it."""
    import psycopg

    base = POSTGRES.replace("postgresql+psycopg://", "postgresql://", 1)
    name = f"obelisk_test_{secrets.token_hex(6)}"
    with psycopg.connect(base, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}")
    url = POSTGRES.rsplit("/", 1)[0] + "/" + name

    def drop() -> None:
        # FORCE ends the test's own leftover sessions; a server process of another role (autovacuum at work on
        # the new database) cannot be ended by the test's role, so the drop waits for it and tries again.
        for attempt in range(20):
            try:
                with psycopg.connect(base, autocommit=True) as connection:
                    connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
                return
            except psycopg.errors.InsufficientPrivilege:
                if attempt == 19:
                    raise
                time.sleep(0.5)

    return url, drop


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[str]:
    """A database URL of each kind; PostgreSQL only where OBELISK_TEST_POSTGRES names a server."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'tables.db'}"
        return
    if not POSTGRES:
        pytest.skip("set OBELISK_TEST_POSTGRES to a postgresql+psycopg:// URL to run the PostgreSQL tests")
    url, drop = fresh_postgres()
    try:
        yield url
    finally:
        drop()


@pytest.fixture
def sqlite_url(tmp_path: Any) -> str:
    return f"sqlite:///{tmp_path / 'tables.db'}"


def config(url: str, **changes: Any) -> ServerConfig:
    """A server for tests: bots at once, Starlette's test client's host served, no rate limit nor caps (the
    tests of each limit set it)."""
    values: dict[str, Any] = dict(db_url=url, bot_workers=0, bot_delay=0.0, rate=10_000.0, burst=10_000.0,
                                  allowed_hosts=(*LOOPBACK_HOSTS, "testserver"), max_waiting=10_000,
                                  max_sockets=10_000)
    values.update(changes)
    return ServerConfig(**values)


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(config(db_url))) as test_client:
        yield test_client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@contextlib.asynccontextmanager
async def processes(url: str, count: int = 2) -> AsyncIterator[tuple[Tables, ...]]:
    """``count`` table services over one database, as that many server processes would hold it."""
    engine = open_database(url)
    services = tuple(Tables(engine) for _ in range(count))
    try:
        yield services
    finally:
        for service in services:
            await service.close()
        engine.dispose()


async def playing(tables: Tables, game: str) -> tuple[Snapshot, dict[int, str]]:
    """A new two-person table of ``game`` with both seats claimed, and the tokens the claims answered."""
    snap, invites = await tables.create(game, 2, {}, HUMANS, False, None)
    tokens = {}
    for seat, invite in invites.items():
        claimed, tokens[seat] = await tables.claim(snap.id, invite, f"P{seat}")
        assert claimed == seat
    return await tables.snapshot(snap.id), tokens
