"""Which server process decides a table's bots when several share a PostgreSQL database.

With PostgreSQL, :class:`Elector` lets only the process holding a table's advisory lock decide its
bots; a process that dies frees its locks and another takes its tables over (docs/server.md "One
process per table").
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from typing import Any

log = logging.getLogger("obelisk.server.bots")
"""The bots' log, shared with the scheduler: a lock that could not be asked for or released."""

TAKEOVER_SECONDS = 5.0
"""How often a process holding a table whose bot another process decides checks that process still does."""


def _lock_key(table: str) -> int:
    """The table's advisory lock: a signed 64-bit number drawn from its id."""
    return int.from_bytes(hashlib.blake2b(f"obelisk-bots:{table}".encode(), digest_size=8).digest(), "big",
                          signed=True)


class Elector:
    """Which server process decides a table's bots: the one holding the table's PostgreSQL advisory lock.

    The locks are session locks on one connection of this process, held while its bot loop for the
    table runs. A process that dies loses its connection and with it its locks, so a process that was
    refused one tries again every ``TAKEOVER_SECONDS`` while the bot is still to act. Without PostgreSQL
    (``dsn`` None: SQLite, one process) every table is this process's. If the lock cannot be asked for
    (the database connection failed) the process decides anyway: writes never trust a decision, so the
    worst case is the same move decided twice, and only one is ever applied.
    """

    def __init__(self, dsn: str | None) -> None:
        self._dsn = dsn
        self._connection: Any = None
        self._connecting = asyncio.Lock()
        self._held: set[str] = set()

    @classmethod
    def for_url(cls, url: str) -> Elector:
        """The elector of a database URL as SQLAlchemy writes it: shared for PostgreSQL only."""
        if url.startswith("postgresql+psycopg://"):
            return cls(url.replace("postgresql+psycopg://", "postgresql://", 1))
        return cls(None)

    @property
    def shared(self) -> bool:
        """Whether other processes may hold the same tables."""
        return self._dsn is not None

    async def acquire(self, table: str) -> bool:
        """Whether this process is to decide ``table``'s bots now (it then holds them until :meth:`release`)."""
        if self._dsn is None or table in self._held:
            return True
        try:
            connection = await self._connect()
            cursor = await connection.execute("SELECT pg_try_advisory_lock(%s)", (_lock_key(table),))
            row = await cursor.fetchone()
        except Exception:
            log.exception("table %s: the bots' lock could not be asked for; deciding here", table)
            await self._drop()
            return True
        if row is not None and row[0]:
            self._held.add(table)
            return True
        return False

    async def release(self, table: str) -> None:
        if table not in self._held:
            return
        self._held.discard(table)
        try:
            await self._connection.execute("SELECT pg_advisory_unlock(%s)", (_lock_key(table),))
        except Exception:
            log.exception("table %s: the bots' lock could not be released; dropping the connection", table)
            await self._drop()

    async def close(self) -> None:
        await self._drop()

    async def _connect(self) -> Any:
        async with self._connecting:
            if self._connection is None or self._connection.closed:
                import psycopg

                assert self._dsn is not None
                self._held.clear()
                self._connection = await psycopg.AsyncConnection.connect(self._dsn, autocommit=True)
            return self._connection

    async def _drop(self) -> None:
        """Close the connection: PostgreSQL releases every lock it held."""
        connection, self._connection = self._connection, None
        self._held.clear()
        if connection is not None:
            try:
                await connection.close()
            except Exception:
                pass
