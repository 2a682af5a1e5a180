"""The live tables of one server process: the cache, its subscribers, catching up with other processes, bots.

Each table served is held in memory as a :class:`HeldTable`: its current snapshot, a lock and the
clients following it. Every change runs under the table's lock (:meth:`LiveTables.write`): the
committer plans it on the current snapshot and commits it, and only then is the new snapshot
published, the clients told (each builds its own view, ``views.frame``) and a bot seat to act set
deciding. Other processes sharing a PostgreSQL database announce their writes (``notes.py``): a
table named is caught up with in its own task, by applying the moves announced or reading the
database again. Tables nobody follows leave the cache, least recently used first; the database
keeps them.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable

import anyio
from sqlalchemy import Engine

from obelisk.server.bots import Decision
from obelisk.server.committer import Change, Committer
from obelisk.server.elector import TAKEOVER_SECONDS, Elector
from obelisk.server.events import extended
from obelisk.server.notes import Note
from obelisk.server.scheduler import BotScheduler, Cancelled
from obelisk.server.storage import Storage
from obelisk.server.table import ApiError, Snapshot, bot_turn

log = logging.getLogger("obelisk.server")

WRITE_ATTEMPTS = 3
"""How often a change is planned again on a fresh read when another process keeps writing first."""


@dataclass
class HeldTable:
    """A table's place in memory: its current snapshot, its lock and its clients."""

    snapshot: Snapshot
    lock: asyncio.Lock
    clients: set[Any]
    bots: asyncio.Task[None] | None = None
    seated: Counter[int] = field(default_factory=Counter)
    """How many of the clients hold each seat: the seats a summary calls ``connected``."""
    removed: bool = False
    """The table is no longer in the database: nothing more is done for it (see :meth:`LiveTables.removed`)."""


class LiveTables:
    """The tables this process serves, over a database shared with any other processes."""

    def __init__(self, engine: Engine, *, bots: BotScheduler | None = None, bot_delay: float = 0.0,
                 cache_size: int = 256) -> None:
        """``bots`` decides the bot seats' moves (by default in one thread of this process); it is this
        object's to close."""
        self.engine = engine
        self.bots = bots or BotScheduler()
        self.elector = Elector.for_url(engine.url.render_as_string(hide_password=False))
        """Which process decides a table's bots, when several share the database."""
        self._look_again: dict[str, asyncio.TimerHandle] = {}
        self.bot_delay = bot_delay
        self.cache_size = cache_size
        self._cache: OrderedDict[str, HeldTable] = OrderedDict()
        self._stale: set[str] = set()
        """Tables another process (or a rematch) changed since this one last read them."""
        self.storage = Storage(engine)
        self.committer = Committer(engine, self._stale)
        self._notes: dict[str, list[Note]] = {}
        """Notifications of each table this process has yet to catch up with, in commit order."""
        self._catching_up: dict[str, asyncio.Task[None]] = {}
        self._closing = False
        self.on_published: Callable[[HeldTable], None] | None = None
        """Told of every snapshot this process publishes, on the event loop (the turn e-mails, ``mail.py``):
        it must return at once."""

    # ---- loading -------------------------------------------------------------------------

    async def get(self, table_id: str, fresh: bool = False) -> HeldTable:
        """The live table ``table_id``, brought up to date with the database.

        A catch-up already reading the table is waited for, so what this process wrote, or was told of,
        before the call is in the snapshot. ``fresh`` looks at the database even when nothing said the table
        changed (one read of its row): a request opening a table learns that an operator removed it even on
        SQLite, where no process is told.
        """
        live = self._cache.get(table_id)
        if fresh and live is not None:
            self._stale.add(table_id)
        if live is None:
            snapshot = await anyio.to_thread.run_sync(self.storage.load, table_id, None)
            live = self._cache.get(table_id)
            if live is None:
                live = HeldTable(snapshot, asyncio.Lock(), set())
                self._cache[table_id] = live
                self._evict()
            self._schedule_bots(table_id, live)
        else:
            self._cache.move_to_end(table_id)
            if table_id in self._stale or table_id in self._catching_up:
                async with live.lock:
                    changed = await self._refresh(live)
                if changed:
                    self._published(table_id, live)
        return live

    async def snapshot(self, table_id: str) -> Snapshot:
        """The current snapshot of ``table_id`` (see :meth:`get`)."""
        return (await self.get(table_id)).snapshot

    def held(self, table_id: str) -> HeldTable | None:
        """The table as this process holds it in memory, without reading anything; None if it holds none."""
        return self._cache.get(table_id)

    async def caught_up(self) -> None:
        """Wait until the catch-ups running now (after notifications) are done."""
        await asyncio.gather(*self._catching_up.values())

    async def _refresh(self, live: HeldTable) -> bool:
        """Catch up with what other processes wrote, if they said so; whether anything changed."""
        if live.snapshot.id not in self._stale:
            return False
        self._stale.discard(live.snapshot.id)
        try:
            snapshot = await anyio.to_thread.run_sync(self.storage.load, live.snapshot.id, live.snapshot)
        except ApiError as error:
            if error.code == "not_found":
                self.removed(live)
            raise
        if snapshot is live.snapshot:
            return False
        live.snapshot = snapshot
        return True

    def removed(self, live: HeldTable) -> None:
        """The table is no longer in the database (an operator removed it): forget it and close its sockets.

        Its bots stop at their next move (refused as ``not_found``); the next request for it answers 404.
        """
        table_id = live.snapshot.id
        live.removed = True
        if self._cache.get(table_id) is live:
            del self._cache[table_id]
        self._stale.discard(table_id)
        self._notes.pop(table_id, None)
        self.bots.keep_only(table_id, None)
        for client in list(live.clients):
            client.removed()

    def session_ended(self, session_hash: str) -> None:
        """A signed-in session ended (its account signed out, here or in another process): the sockets it opened a
        seat for are told ``signed_out`` and closed, so a shared computer shows nobody's hand once they have left.
        A page that connects again without the session follows the table as a spectator."""
        for live in list(self._cache.values()):
            for client in list(live.clients):
                if client.session_hash == session_hash:
                    client.signed_out()

    def _evict(self) -> None:
        """Forget the least recently used tables nobody watches (the database keeps them)."""
        for table_id in list(self._cache):
            if len(self._cache) <= self.cache_size:
                return
            live = self._cache[table_id]
            if not live.clients and (live.bots is None or live.bots.done()) and not live.lock.locked():
                del self._cache[table_id]

    async def write(self, table_id: str, change: Callable[[Snapshot], tuple[Change | None, Any]]
                    ) -> tuple[HeldTable, Any]:
        """Commit ``change(snapshot)`` under the table's lock, then publish the snapshot it wrote.

        A change that finds nothing to write (``None``) only answers its result.

        ``change`` runs on the event loop (the rules are fast; only the commit waits on the database).
        Whatever the table picked up meanwhile is published too, even when ``change`` is refused. A change
        based on a version another process replaced is tried again on the new one (a move then names a
        stale version and is refused as such).
        """
        live = await self.get(table_id)
        before = live.snapshot
        try:
            async with live.lock:
                await self._refresh(live)
                try:
                    for _ in range(WRITE_ATTEMPTS):
                        planned, result = change(live.snapshot)
                        if planned is None:
                            return live, result
                        if await self.committer.commit(planned):
                            live.snapshot = planned.snapshot
                            return live, result
                        await self._refresh(live)
                    raise ApiError(409, "stale_version", "the table keeps changing; reload and try again")
                finally:
                    await self._refresh(live)
        finally:
            if live.snapshot is not before:
                self._published(table_id, live)

    def _published(self, table_id: str, live: HeldTable) -> None:
        self._tell_clients(live)
        self._schedule_bots(table_id, live)

    def _tell_clients(self, live: HeldTable) -> None:
        """A new snapshot of the table is published: each client's next frame is due, and ``on_published`` told."""
        for client in list(live.clients):
            client.changed()
        if self.on_published is not None:
            try:
                self.on_published(live)
            except Exception:
                log.exception("table %s: a follower of its changes failed", live.snapshot.id)

    def changed_elsewhere(self, text: str) -> None:
        """A process (maybe this one) changed a table: catch up, unless this is already that version.

        Catching up runs in its own task, one per table at a time, after the write in progress here
        (whose own notification then needs nothing); a notification of moves made on the version held
        here is applied without reading the database, any other makes the table be read again.
        """
        note = Note.parse(text)
        table_id = note.table_id if note is not None else text.partition(" ")[0]
        live = self._cache.get(table_id)
        if live is None or (note is not None and live.snapshot.updated >= note.updated):
            return
        if note is None or note.was is None:
            self._stale.add(table_id)
        if note is not None:
            self._notes.setdefault(table_id, []).append(note)
        if table_id not in self._catching_up:
            self._catching_up[table_id] = asyncio.get_running_loop().create_task(self._catch_up(table_id))

    def missed_notes(self) -> None:
        """Notifications may have been lost (the listening connection was down): every table held here is read
        again from the database."""
        for table_id in list(self._cache):
            self.changed_elsewhere(table_id)

    async def _catch_up(self, table_id: str) -> None:
        try:
            live = self._cache.get(table_id)
            if live is None:
                self._notes.pop(table_id, None)
                return
            async with live.lock:
                while self._notes.get(table_id) or table_id in self._stale:
                    for note in self._notes.pop(table_id, []):
                        snapshot = live.snapshot
                        if snapshot.updated >= note.updated:
                            continue
                        if note.was == snapshot.updated and note.seq == snapshot.version:
                            live.snapshot = extended(snapshot, note.actions, note.updated)
                        else:
                            self._stale.add(table_id)
                    await self._refresh(live)
            self._published(table_id, live)
        except ApiError as error:
            if error.code != "not_found":
                log.error("table %s could not be read again: %s", table_id, error.message)
        except Exception:
            log.exception("table %s could not be read again", table_id)
        finally:
            del self._catching_up[table_id]

    # ---- bots ----------------------------------------------------------------------------

    def _schedule_bots(self, table_id: str, live: HeldTable) -> None:
        """Start the table's bot loop when a bot is to act; drop any decision the table no longer waits for.

        A table an operator removed gets no bot loop."""
        turn = bot_turn(live.snapshot)
        self.bots.keep_only(table_id, turn)
        if self._closing or turn is None or live.removed:
            return
        if live.bots is None or live.bots.done():
            live.bots = asyncio.get_running_loop().create_task(self._play_bots(table_id, live))

    async def _play_bots(self, table_id: str, live: HeldTable) -> None:
        """Let the bot seats act while it is a bot's turn, if this process is the one to decide them."""
        if not await self.elector.acquire(table_id):
            self._check_later(table_id, live)
            return
        try:
            await self._bot_loop(table_id, live)
        except Exception:
            log.exception("table %s: its bots stopped", table_id)
            return
        finally:
            await self.elector.release(table_id)
        if not self._closing and bot_turn(live.snapshot) is not None:
            # a bot's turn came while the lock was being released: this task is done by the time this runs
            asyncio.get_running_loop().call_soon(self._schedule_bots, table_id, live)

    async def _bot_loop(self, table_id: str, live: HeldTable) -> None:
        """Decide and apply the bots' moves while a bot is to act (this process holding the table's bots)."""
        if self.elector.shared:
            await self._read_again(live)  # the process that decided before may have moved since
        while not self._closing:
            snapshot = live.snapshot
            turn = bot_turn(snapshot)
            if turn is None:
                return
            _, seat, spec = turn
            started = time.monotonic()
            decision = Decision(snapshot.game.id, snapshot.game.num_players, dict(snapshot.options), snapshot.seed,
                                tuple(snapshot.state.history()), spec, seat, secrets.randbelow(2**31))
            try:
                action = await self.bots.action_for(table_id, turn, decision)
            except Cancelled:
                continue  # the table moved on: look at it again
            await asyncio.sleep(max(0.0, self.bot_delay - (time.monotonic() - started)))
            if not await self._apply_bot(table_id, live, snapshot, seat, spec, action):
                return

    async def _apply_bot(self, table_id: str, live: HeldTable, snapshot: Snapshot, seat: int, spec: str, action: int
                         ) -> bool:
        """Apply the bot's ``action`` chosen on ``snapshot`` unless the table moved on; whether the bots go on."""
        try:
            async with live.lock:
                await self._refresh(live)
                try:
                    current = live.snapshot
                    if current.seats[seat].kind != "bot" or current.seats[seat].bot != spec:
                        raise ApiError(409, "not_your_turn", "the seat changed hands")
                    planned = self.committer.play(current, seat, snapshot.version, [action])
                    if await self.committer.commit(planned):
                        live.snapshot = planned.snapshot
                    # else another process moved meanwhile: decide again on the version it wrote
                finally:
                    await self._refresh(live)
        except ApiError as error:
            if error.code == "not_found":
                return False
            if error.code not in ("stale_version", "not_your_turn"):
                log.error("table %s: bot %r of seat %d chose a refused action: %s", table_id, spec, seat,
                          error.message)
                return False
        self._tell_clients(live)
        return True

    async def _read_again(self, live: HeldTable) -> None:
        """Bring ``live`` up to the database's version (cheap when it is current) and publish any change."""
        self._stale.add(live.snapshot.id)
        async with live.lock:
            changed = await self._refresh(live)
        if changed:
            self._published(live.snapshot.id, live)

    def _check_later(self, table_id: str, live: HeldTable) -> None:
        """Another process decides this table's bots: look again later, and take over if that process died."""
        if self._closing or table_id in self._look_again:
            return

        def again() -> None:
            del self._look_again[table_id]
            if self._cache.get(table_id) is live:
                self._schedule_bots(table_id, live)

        self._look_again[table_id] = asyncio.get_running_loop().call_later(TAKEOVER_SECONDS, again)

    # ---- clients -------------------------------------------------------------------------

    def connected(self, live: HeldTable) -> set[int]:
        """The seats with a socket open on this process: what a summary calls ``connected``."""
        return set(live.seated)

    async def attach(self, table_id: str, client: Any) -> HeldTable:
        """Follow the table with ``client`` (it has a ``seat``, a ``changed()``, and a ``chat`` flag and a ``say()`` for
        the chat lines): its first frame is due.

        The others are told only when what they see changes: a seat's first socket makes it ``connected``;
        a spectator, or one more socket of a seat already connected, changes nothing they see.
        """
        live = await self.get(table_id)
        live.clients.add(client)
        client.changed()
        if client.seat is not None:
            live.seated[client.seat] += 1
            if live.seated[client.seat] == 1:
                self._tell_others(live, client)
        return live

    def detach(self, live: HeldTable, client: Any) -> None:
        """Stop following; the others are told only if a seat's last socket left."""
        if client not in live.clients:
            return
        live.clients.discard(client)
        if client.seat is not None:
            live.seated[client.seat] -= 1
            if live.seated[client.seat] <= 0:
                del live.seated[client.seat]
                self._tell_others(live, client)

    @staticmethod
    def _tell_others(live: HeldTable, client: Any) -> None:
        for other in list(live.clients):
            if other is not client:
                other.changed()

    async def close(self) -> None:
        """Stop the bots, the catch-ups and the database thread (what is queued is committed first)."""
        self._closing = True
        for timer in self._look_again.values():
            timer.cancel()
        self._look_again.clear()
        await self.bots.close()
        tasks = [live.bots for live in self._cache.values() if live.bots is not None and not live.bots.done()]
        tasks += self._catching_up.values()
        for task in tasks:
            task.cancel()
        for task in tasks:
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
        await self.elector.close()
        await anyio.to_thread.run_sync(self.committer.close)
