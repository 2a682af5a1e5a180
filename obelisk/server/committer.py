"""The committer: a versioned change of a table (moves, an undo, a seat) checked, then written.

A request names the version it was made on; the committer checks it against the snapshot it is
given and plans a :class:`Change`: the next snapshot and the one write that records it. The write's
first statement moves the table's ``updated`` on only if it is still the snapshot's, so a change
based on a version another process replaced writes nothing (:class:`StaleWrite`) and is tried again
by the live service on a fresh read. Every write goes through one database thread
(:class:`GroupCommitter`) that commits the writes waiting together: under load many moves cost one
flush to disk. No change is published before its commit: no acknowledged move is ever lost.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any, Callable, Sequence, cast

from sqlalchemy import Connection, Engine, Table, bindparam, insert, update
from sqlalchemy.exc import IntegrityError

from obelisk.core import IllegalActionError, State, codec
from obelisk.server import store
from obelisk.server.events import Event, log_entry, settle, without_last
from obelisk.server.notes import Note, notify
from obelisk.server.ratings import finish_of, record_finish
from obelisk.server.store import MOVE, UNDO, MoveRow, SeatRow, TableRow
from obelisk.server.table import ApiError, LogEntry, Snapshot, check_not_over, clocked

BATCH_LIMIT = 100
"""The most actions one request may play: a batch is one seat's decisions in a row (a shortcut is a few)."""

_TABLES = cast(Table, TableRow.__table__)
_BUMP = (update(_TABLES).where(_TABLES.c.id == bindparam("table"), _TABLES.c.updated == bindparam("was"))
         .values(updated=bindparam("moment"), turn_started=bindparam("clock"), turn_was=bindparam("clock_was")))
"""Every write's first statement: move the table's ``updated`` on (and set its turn clock), only if it is still
the version written on."""
_INSERT_MOVES = insert(cast(Table, MoveRow.__table__))


class StaleWrite(Exception):
    """Another process changed the table since the snapshot a write was based on."""


@dataclass
class _Pending:
    """A write waiting for the next group commit, and the future of the coroutine waiting for it."""

    write: Callable[[Connection], None]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[None]
    error: BaseException | None = None


def _finish(group: list[_Pending]) -> None:
    """Tell the waiting coroutines how their writes ended (on their event loop)."""
    for pending in group:
        if pending.future.done():
            continue  # its loop is stopping
        if pending.error is None:
            pending.future.set_result(None)
        else:
            pending.future.set_exception(pending.error)


class GroupCommitter:
    """One database thread through which every write goes: the writes waiting when it is free share a commit.

    A commit costs one flush to disk however many writes it holds, so under load many moves become
    durable for the price of one; each write still returns only once its commit is done. A write that
    raises ``StaleWrite`` has written nothing (its first statement refused) and is left out; any other
    failure rolls the whole group back, and the others are told to try again on a fresh read. The
    waiters are coroutines: the event loop hands a write over and is woken once per group.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._queue: queue.SimpleQueue[_Pending | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start = threading.Lock()

    def submit(self, write: Callable[[Connection], None]) -> asyncio.Future[None]:
        """Queue ``write``; the future is done once its transaction is committed (or fails with why not)."""
        with self._start:
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="obelisk-commit", daemon=True)
                self._thread.start()
        loop = asyncio.get_running_loop()
        pending = _Pending(write, loop, loop.create_future())
        self._queue.put(pending)
        return pending.future

    def waiting(self) -> int:
        """How many writes wait for the next commit."""
        return self._queue.qsize()

    def close(self) -> None:
        """Commit what is queued, then stop the thread (a later ``submit`` starts it again)."""
        with self._start:
            if self._thread is not None:
                self._queue.put(None)
                self._thread.join()
                self._thread = None

    def _loop(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            group = [first]
            while True:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._queue.put(None)
                    break
                group.append(more)
            self._commit(group)

    def _commit(self, group: list[_Pending]) -> None:
        try:
            with self.engine.begin() as connection:
                for pending in group:
                    try:
                        pending.write(connection)
                    except StaleWrite as stale:
                        pending.error = stale
                    except BaseException as error:
                        pending.error = error
                        raise
        except BaseException as error:
            for pending in group:
                if pending.error is None:
                    pending.error = StaleWrite() if len(group) > 1 else error
        finally:
            for loop in {pending.loop for pending in group}:
                try:
                    loop.call_soon_threadsafe(_finish, [p for p in group if p.loop is loop])
                except RuntimeError:
                    pass  # that loop is closed: nobody waits any more


@dataclass(frozen=True)
class Change:
    """A table's next snapshot and the write that records it; published once the write is committed."""

    snapshot: Snapshot
    write: Callable[[Connection], None]


class Committer:
    """Plans each change of a table on a snapshot and commits it; the tables it finds stale go in ``stale``."""

    def __init__(self, engine: Engine, stale: set[str]) -> None:
        """``stale`` is the live service's set of tables to read again before their next change."""
        self.commits = GroupCommitter(engine)
        self.stale = stale

    def change(self, snapshot: Snapshot, moves: Sequence[Event], changes: Callable[[Connection], None],
               moves_only: bool = False, kind: str = MOVE, **published: Any) -> Change:
        """The write appending ``moves`` after ``snapshot``'s last one and applying ``changes``, and the snapshot
        it makes.

        ``snapshot`` must still be the table's latest version when the write runs: its row must still carry
        ``snapshot.updated`` (every write moves it forward) and no move may have taken ``snapshot``'s next seq. A
        write by another process breaks either; the whole write then fails (see :meth:`commit`).
        ``published`` are the snapshot fields the write changes; ``moves_only`` says that they follow from
        the moves alone (as ``events.extended`` makes them), so other processes can apply the moves themselves.
        ``moves`` are (seat, action, label) events of ``kind``.
        """
        moment = max(store.now(), snapshot.updated + timedelta(microseconds=1))
        after = replace(snapshot, updated=moment, version=snapshot.version + len(moves), **published)
        changed = clocked(snapshot, after, kind)
        rows = [dict(table_id=snapshot.id, seq=snapshot.version + offset, kind=kind, seat=seat, action=action,
                     label=label, time=moment)
                for offset, (seat, action, label) in enumerate(moves)]
        note = (Note(snapshot.id, moment, snapshot.updated, snapshot.version, tuple(action for _, action, _ in moves))
                if moves_only else Note(snapshot.id, moment))

        def write(connection: Connection) -> None:
            bumped: Any = connection.execute(_BUMP, {"table": snapshot.id, "was": snapshot.updated, "moment": moment,
                                                     "clock": changed.turn_started, "clock_was": changed.turn_was})
            if bumped.rowcount != 1:
                raise StaleWrite
            if rows:
                connection.execute(_INSERT_MOVES, rows)
            changes(connection)
            notify(connection, note)

        return Change(changed, write)

    async def commit(self, change: Change) -> bool:
        """Commit ``change``; False if another process changed the table first (it is then marked for a reload)."""
        table_id = change.snapshot.id
        committed = self.commits.submit(change.write)
        try:
            await asyncio.shield(committed)
        except (IntegrityError, StaleWrite):
            self.stale.add(table_id)
            return False
        except asyncio.CancelledError:
            def read_again(done: asyncio.Future[None]) -> None:
                """The write went on without its waiter: the table is read again from the database."""
                if not done.cancelled():
                    done.exception()
                self.stale.add(table_id)

            committed.add_done_callback(read_again)
            raise
        return True

    def set_seat(self, snapshot: Snapshot, seat: int, values: dict[str, Any], only_if_unclaimed: bool = False
                 ) -> Change:
        """The change setting ``values`` on ``seat`` (the game starts when the last seat is taken).

        ``only_if_unclaimed``: the write fails (``seat_taken``) if the seat was claimed meanwhile, in any process.
        """
        seats = [replace(s, **values) if s.seat == seat else s for s in snapshot.seats]
        status = snapshot.status
        if status == "waiting" and all(s.claimed for s in seats):
            status = "playing"

        def changes(connection: Connection) -> None:
            query = update(SeatRow).where(SeatRow.table_id == snapshot.id, SeatRow.seat == seat)
            if only_if_unclaimed:
                query = query.where(SeatRow.claimed.is_(False))
            written: Any = connection.execute(query.values(**values))
            if written.rowcount != 1:
                self.stale.add(snapshot.id)
                raise ApiError(409, "seat_taken", f"seat {seat} was just taken")
            if status != snapshot.status:
                connection.execute(update(TableRow).where(TableRow.id == snapshot.id).values(status=status))

        return self.change(snapshot, [], changes, seats=tuple(seats), status=status)

    @staticmethod
    def check_turn(snapshot: Snapshot, version: Any) -> None:
        """Refuse a decision at a table not in play, or sent from a version that is not the table's."""
        if snapshot.status == "finished":
            raise ApiError(409, "finished", "the game is over")
        if snapshot.status == "waiting":
            raise ApiError(409, "waiting", "the game starts when every seat is taken")
        check_not_over(snapshot)
        if isinstance(version, bool) or not isinstance(version, int):
            raise ApiError(400, "bad_request", "version must be an integer")
        if version != snapshot.version:
            raise ApiError(409, "stale_version", f"the table is at version {snapshot.version}, not {version}")

    def play(self, snapshot: Snapshot, seat: int, version: Any, actions: Sequence[Any]) -> Change:
        """The change playing ``actions`` for ``seat`` on ``snapshot`` (each checked before it is applied to a copy),
        then the chance outcomes they lead to; an ``ApiError`` naming the first action that may not be played."""
        self.check_turn(snapshot, version)
        if not 1 <= len(actions) <= BATCH_LIMIT:
            raise ApiError(400, "bad_request", f"a move plays 1 to {BATCH_LIMIT} actions")
        state = snapshot.state.clone()
        log: list[LogEntry] = []
        moves: list[Event] = []
        for index, action in enumerate(actions):
            self._check_action(state, seat, action, index, len(actions))
            log.append(log_entry(state, snapshot.version + index, action))
            moves.append((seat, action, state.action_to_string(action)))
            state.apply_action(action, seat)
        settle(state, moves, log, snapshot.version)
        status = "finished" if state.is_terminal() else snapshot.status
        finish = (finish_of(snapshot.id, snapshot.game, state, snapshot.seats, snapshot.rated)
                  if status == "finished" else None)

        def changes(connection: Connection) -> None:
            if status != snapshot.status:
                connection.execute(update(TableRow).where(TableRow.id == snapshot.id).values(status=status))
            if finish is not None:
                record_finish(connection, finish, store.now())  # results and ratings commit with the finish

        return self.change(snapshot, moves, changes, moves_only=True, state=state, log=snapshot.log + tuple(log),
                           status=status)

    @staticmethod
    def _check_action(state: State, seat: int, action: Any, index: int, count: int) -> None:
        """Refuse ``action``, the ``index``-th of ``count``, unless it is a legal decision of ``seat`` in ``state``.

        The rules' own reason is not sent: it is worded from the whole state, hidden parts included.
        """
        named = codec.describe(action)
        which = f"action #{index + 1} of {count} ({named})" if count > 1 else f"action {named}"
        after = " after the ones before it" if index else " now"
        if isinstance(action, bool) or not isinstance(action, int):
            raise ApiError(400, "bad_request", f"{which}: an action must be an integer")
        if state.current_player() != seat:
            raise ApiError(409, "not_your_turn", f"{which}: it is not seat {seat}'s turn{after}")
        legal = state.legal_actions()
        if action not in legal:
            raise ApiError(400, "illegal_action",
                           f"{which} is not one of seat {seat}'s {len(legal)} legal actions{after}")

    def undo(self, snapshot: Snapshot, seat: int, version: Any) -> Change:
        """The change taking back ``seat``'s last decision on ``snapshot``, if the core allows it.

        An undo is an event of its own (a new version, never an old one), so a client still holding the
        version before it is refused as stale; the moves it takes back leave the state, the log and the record.
        """
        self.check_turn(snapshot, version)
        if snapshot.seats[seat].kind != "human":
            raise ApiError(409, "not_your_turn", f"a bot plays seat {seat}; take the seat back first")
        log = list(snapshot.log)
        try:
            state, cut = without_last(snapshot.state, log, seat, 1)
        except IllegalActionError as error:
            raise ApiError(409, "nothing_to_undo", f"nothing to undo: {error}") from None
        return self.change(snapshot, [(seat, 1, "undo")], lambda _: None, kind=UNDO, state=state, log=tuple(log),
                           cuts=snapshot.cuts + ((snapshot.version, cut),))

    def close(self) -> None:
        """Commit what is queued, then stop the database thread."""
        self.commits.close()
