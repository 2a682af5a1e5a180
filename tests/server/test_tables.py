"""The live tables over the database: a move costs one write, a write on an outdated version is redone, and
writes waiting together share a commit."""

from __future__ import annotations

import asyncio
import threading
import time
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import Connection, event, text

from obelisk.server.store import open_database
from obelisk.server.committer import GroupCommitter, StaleWrite
from obelisk.server.notes import Note
from obelisk.server.tables import Tables
from tests.server.conftest import HUMANS, playing, processes, run_async


def statements(engine: Any) -> list[str]:
    """The first word of every SQL statement ``engine`` runs from now on (a PostgreSQL notification aside)."""
    seen: list[str] = []

    @event.listens_for(engine, "before_cursor_execute")
    def _record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if "pg_notify" not in statement:
            seen.append(statement.split(None, 1)[0].upper())

    return seen


def test_a_move_reads_nothing_and_writes_once(db_url: str) -> None:
    async def run() -> list[str]:
        async with processes(db_url, 1) as (tables,):
            snap, tokens = await playing(tables, "valley")
            seen = statements(tables.engine)
            actor = snap.to_act
            assert actor is not None
            version = await tables.move(snap.id, tokens[actor], snap.version, snap.state.legal_actions()[:1])
            assert version > snap.version and (await tables.snapshot(snap.id)).version == version
            return seen

    seen = run_async(run())
    assert "SELECT" not in seen
    assert seen.count("UPDATE") == 1 and seen.count("INSERT") == 1, seen


def test_a_seat_taken_through_another_process_is_not_overwritten(db_url: str) -> None:
    """The second claim is based on a version that does not know the first: it is redone on the new one."""
    async def run() -> None:
        async with processes(db_url) as (here, there):
            snap, tokens = await here.create("valley", 2, {}, HUMANS, False, None)
            await there.claim(snap.id, tokens[0], "Ann")
            assert (await here.snapshot(snap.id)).seats[0].claimed is False  # nobody told this process yet
            await here.claim(snap.id, tokens[1], "Bob")
            mine = await here.snapshot(snap.id)
            assert [s.name for s in mine.seats] == ["Ann", "Bob"] and mine.status == "playing"
            fresh = Tables(here.engine)
            assert (await fresh.snapshot(snap.id)).status == "playing"
            await fresh.close()

    run_async(run())


def test_a_move_on_a_version_another_process_replaced_is_stale(db_url: str) -> None:
    async def run() -> None:
        async with processes(db_url) as (here, there):
            snap, tokens = await playing(here, "valley")
            actor = snap.to_act
            assert actor is not None
            action = snap.state.legal_actions()[0]
            moved = await there.move(snap.id, tokens[actor], snap.version, [action])
            with pytest.raises(Exception) as refused:
                await here.move(snap.id, tokens[actor], snap.version, [action])
            assert getattr(refused.value, "code", None) == "stale_version"
            assert (await here.snapshot(snap.id)).version == moved

    run_async(run())


def test_writes_waiting_together_share_one_commit(sqlite_url: str) -> None:
    """A write refused as stale is left out; the others waiting with it are committed in one transaction."""
    engine = open_database(sqlite_url)
    committer = GroupCommitter(engine)
    commits: list[int] = []
    event.listen(engine, "commit", lambda _conn: commits.append(1))
    first_running, release = threading.Event(), threading.Event()
    written: list[int] = []

    def write(number: int) -> Any:
        def run(connection: Connection) -> None:
            if number == 0:
                first_running.set()
                release.wait(30)
            if number == 2:
                raise StaleWrite
            connection.execute(text("SELECT 1"))
            written.append(number)
        return run

    outcomes: dict[int, str] = {}

    async def submit(number: int) -> None:
        try:
            await committer.submit(write(number))
            outcomes[number] = "committed"
        except StaleWrite:
            outcomes[number] = "stale"

    async def run() -> None:
        tasks = [asyncio.create_task(submit(0))]
        assert await asyncio.to_thread(first_running.wait, 30)
        tasks += [asyncio.create_task(submit(number)) for number in (1, 2, 3)]
        deadline = time.monotonic() + 30
        while committer._queue.qsize() < 3 and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        release.set()
        await asyncio.wait_for(asyncio.gather(*tasks), 30)

    run_async(run())
    committer.close()
    engine.dispose()
    assert outcomes == {0: "committed", 1: "committed", 2: "stale", 3: "committed"}
    assert sorted(written) == [0, 1, 3] and len(commits) == 2


def test_a_move_committed_after_its_waiter_left_is_still_seen(sqlite_url: str) -> None:
    """A cancelled move may still be committed: the table is read again rather than kept at the old version."""
    async def run() -> None:
        async with processes(sqlite_url, 1) as (tables,):
            snap, tokens = await playing(tables, "valley")
            running, hold = threading.Event(), threading.Event()

            def blocker(_connection: Connection) -> None:
                running.set()
                hold.wait(30)

            blocking = tables.committer.commits.submit(blocker)
            assert await asyncio.to_thread(running.wait, 30)
            actor = snap.to_act
            assert actor is not None
            moving = asyncio.create_task(tables.move(snap.id, tokens[actor], snap.version,
                                                     snap.state.legal_actions()[:1]))
            deadline = time.monotonic() + 30
            while tables.committer.commits.waiting() < 1 and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            moving.cancel()
            hold.set()
            await blocking
            with pytest.raises(asyncio.CancelledError):
                await moving
            await tables.committer.commits.submit(lambda _connection: None)
            assert (await tables.snapshot(snap.id)).version > snap.version

    run_async(run())


def test_a_notification_of_moves_is_applied_without_reading_and_any_other_reads_the_table(sqlite_url: str
                                                                                           ) -> None:
    """What a process holds after a notification is what the database has, read only when it must be."""
    async def run() -> None:
        async with processes(sqlite_url) as (here, there):
            snap, tokens = await playing(here, "valley")
            seen = statements(here.engine)
            here.changed_elsewhere(Note(snap.id, snap.updated).text())
            assert not here._catching_up and seen == []

            for _ in range(3):
                current = await there.snapshot(snap.id)
                actor = current.to_act
                assert actor is not None
                planned = there.committer.play(current, actor, current.version, current.state.legal_actions()[:1])
                assert await there.committer.commit(planned)
                there.held(snap.id).snapshot = planned.snapshot
                note = Note(snap.id, planned.snapshot.updated, current.updated, current.version,
                             tuple(planned.snapshot.state.history()[current.version:]))
                seen.clear()
                here.changed_elsewhere(note.text())
                await here.caught_up()
                assert [s for s in seen if s == "SELECT"] == []
                mine = here.held(snap.id).snapshot
                assert (mine.version, mine.updated, mine.log) == (planned.snapshot.version, planned.snapshot.updated,
                                                                  planned.snapshot.log)

            await there.claim(snap.id, tokens[0], "Ann again")
            renamed = await there.snapshot(snap.id)
            seen.clear()
            here.changed_elsewhere(Note(snap.id, renamed.updated).text())
            await here.caught_up()
            assert "SELECT" in seen and here.held(snap.id).snapshot.seats[0].name == "Ann again"

            skipped = await there.snapshot(snap.id)
            actor = skipped.to_act
            assert actor is not None
            await there.move(snap.id, tokens[actor], skipped.version, skipped.state.legal_actions()[:1])
            moved = await there.snapshot(snap.id)
            stale_note = Note(snap.id, moved.updated, moved.updated - timedelta(seconds=1), skipped.version,
                               tuple(moved.state.history()[skipped.version:]))
            here.changed_elsewhere(stale_note.text())
            await here.caught_up()
            assert here.held(snap.id).snapshot.version == moved.version
            assert here.held(snap.id).snapshot.log == moved.log

    run_async(run())


def test_a_read_while_the_table_is_being_read_again_waits_for_that_read(sqlite_url: str) -> None:
    """A snapshot asked for while a catch-up reads the database holds what that catch-up reads."""
    async def run() -> None:
        async with processes(sqlite_url) as (here, there):
            snap, tokens = await here.create("valley", 2, {}, HUMANS, False, None)
            await there.claim(snap.id, tokens[0], "Ann")
            renamed = await there.snapshot(snap.id)
            here.changed_elsewhere(Note(snap.id, renamed.updated).text())
            await asyncio.sleep(0)
            assert snap.id in here._catching_up and snap.id not in here._stale
            assert (await here.snapshot(snap.id)).seats[0].name == "Ann"

    run_async(run())


def test_after_notifications_may_have_been_lost_every_held_table_is_read_again(sqlite_url: str) -> None:
    """A process whose listening connection was down reads again every table it holds (``missed_notes``)."""
    async def run() -> None:
        async with processes(sqlite_url) as (here, there):
            first, tokens = await here.create("valley", 2, {}, HUMANS, False, None)
            second, _ = await here.create("valley", 2, {}, HUMANS, False, None)
            await there.claim(first.id, tokens[0], "Ann")
            assert (await here.snapshot(first.id)).seats[0].name != "Ann"  # no note came: what it held
            seen = statements(here.engine)
            here.missed_notes()
            await here.caught_up()
            assert (await here.snapshot(first.id)).seats[0].name == "Ann"
            assert seen.count("SELECT") >= 2, "both held tables were read again"
            assert here.held(second.id).snapshot.version == second.version

    run_async(run())
