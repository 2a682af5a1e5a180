"""The turn clock counts from the moment the seat to act became the one to act.

Nothing the seat does but a move that cannot be taken back, or one that passes the turn on, restarts it:
not claiming its seat again or renaming it, not asking for its seat back while it plays it, and not moving
and taking the move back, over and over (the undo gives it back the clock it had).
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from starlette.testclient import TestClient

from obelisk.core import State
from obelisk.server import store
from obelisk.server.notes import Note
from obelisk.server.tables import Tables
from tests.server.conftest import HUMANS, bearer, playing, processes, run_async
from tests.server.test_api import error_of, frame_of, seated
from tests.server.test_undo import move, state_of, undo


class Clock:
    """The server's ``now``, set by the test."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.start = datetime.now(timezone.utc).replace(microsecond=0) + timedelta(seconds=1)
        self.at = self.start
        monkeypatch.setattr(store, "now", lambda: self.at)

    def after(self, seconds: float) -> None:
        self.at = self.start + timedelta(seconds=seconds)


def started(client: TestClient, table: str) -> datetime:
    """When the table's turn clock started, to the millisecond (each write moves a frozen clock on by 1 µs)."""
    frame_of(client, table)
    moment: datetime = client.app.state.tables.held(table).snapshot.turn_started  # type: ignore[attr-defined]
    return moment.replace(microsecond=moment.microsecond // 1000 * 1000)


def passing_if_any(state: State) -> int | None:
    """A decision of the seat to act that passes the turn on and that it may take back right after, if any."""
    seat = state.current_player()
    for action in state.legal_actions():
        after = state.clone()
        after.apply_action(action)
        if not after.is_chance_node() and after.current_player() not in (seat, -1) and after.undo_points(seat) > 0:
            return action
    return None


def passing(state: State) -> int:
    """``passing_if_any``, which the test needs here."""
    action = passing_if_any(state)
    assert action is not None, "no decision passes the turn undoably here"
    return action


def test_claims_renames_and_asking_back_do_not_restart_the_clock(client: TestClient,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock(monkeypatch)
    table, tokens = seated(client, seats=HUMANS, turn_seconds=60)
    late = str(client.get(f"/api/tables/{table}").json()["to_act"])
    other = str(1 - int(late))
    assert started(client, table) == clock.start
    for seconds in (15, 30, 45, 59):
        clock.after(seconds)
        assert client.post(f"/api/tables/{table}/claim", json={"token": tokens[late]}).status_code == 200
        renamed = client.post(f"/api/tables/{table}/claim", json={"token": tokens[late], "name": f"Late {seconds}"})
        assert renamed.json() == {"seat": int(late), "token": tokens[late]}
        error_of(client.post(f"/api/tables/{table}/seats/{late}/human", headers=bearer(tokens[late]), json={}), 409,
                 "bad_request")
        assert started(client, table) == clock.start
        summary = client.get(f"/api/tables/{table}").json()
        assert summary["seats"][int(late)]["name"] == f"Late {seconds}" and not summary["seats"][int(late)]["timed_out"]
    clock.after(61)
    assert client.get(f"/api/tables/{table}").json()["seats"][int(late)]["timed_out"] is True
    handed = client.post(f"/api/tables/{table}/seats/{late}/bot", headers=bearer(tokens[other]), json={})
    assert handed.status_code == 200 and handed.json()["seats"][int(late)]["kind"] == "bot"


def test_moving_and_taking_the_move_back_buys_no_time(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock(monkeypatch)
    table, tokens = seated(client, game="solomon", players=2, seats=HUMANS, turn_seconds=60)
    late = str(client.get(f"/api/tables/{table}").json()["to_act"])
    other = str(1 - int(late))
    for seconds in (20, 40, 58):
        clock.after(seconds)
        version = frame_of(client, table)["version"]
        moved = move(client, table, tokens[late], version, passing(state_of(client, table)))
        assert client.get(f"/api/tables/{table}").json()["to_act"] == int(other)
        assert started(client, table) == clock.at  # passing the turn on starts the next seat's clock
        clock.after(seconds + 1)
        assert undo(client, table, tokens[late], {"version": moved}).status_code == 200
        assert client.get(f"/api/tables/{table}").json()["to_act"] == int(late)
        assert started(client, table) == clock.start  # ... and taking it back gives the seat its own back
    clock.after(61)
    assert client.get(f"/api/tables/{table}").json()["seats"][int(late)]["timed_out"] is True
    handed = client.post(f"/api/tables/{table}/seats/{late}/bot", headers=bearer(tokens[other]), json={})
    assert handed.status_code == 200


def test_every_process_keeps_the_same_clock(db_url: str) -> None:
    """A process that learns of moves from a notification computes the clock the writer wrote."""
    async def run() -> None:
        async with processes(db_url) as (here, there):
            snap, tokens = await playing(here, "solomon")
            for step in range(6):
                current = await there.snapshot(snap.id)
                actor = current.to_act
                assert actor is not None
                chosen = passing_if_any(current.state) if step % 2 == 0 else None
                action = current.state.legal_actions()[0] if chosen is None else chosen
                planned = there.committer.play(current, actor, current.version, [action])
                assert await there.committer.commit(planned)
                there.held(snap.id).snapshot = planned.snapshot
                here.changed_elsewhere(Note(snap.id, planned.snapshot.updated, current.updated, current.version,
                                             tuple(planned.snapshot.state.history()[current.version:])).text())
                await here.caught_up()
                mine = here.held(snap.id).snapshot
                assert (mine.version, mine.turn_started, mine.turn_was) == (
                    planned.snapshot.version, planned.snapshot.turn_started, planned.snapshot.turn_was)
            moved = await there.snapshot(snap.id)
            while passing_if_any(moved.state) is None:  # play on to a decision that passes the turn undoably
                assert moved.to_act is not None and moved.status == "playing"
                await there.move(snap.id, tokens[moved.to_act], moved.version, [moved.state.legal_actions()[0]])
                moved = await there.snapshot(snap.id)
            actor = moved.to_act
            assert actor is not None
            version = await there.move(snap.id, tokens[actor], moved.version, [passing(moved.state)])
            await there.undo(snap.id, tokens[actor], version)
            undone = await there.snapshot(snap.id)
            assert undone.turn_started == moved.turn_started
            fresh = Tables(here.engine)
            try:
                reread = await fresh.snapshot(snap.id)
                assert (reread.turn_started, reread.turn_was) == (undone.turn_started, undone.turn_was)
            finally:
                await fresh.close()

    run_async(run())


def test_the_summary_counts_the_clock_from_the_turn_not_the_last_change(client: TestClient,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock(monkeypatch)
    table, tokens = seated(client, seats=HUMANS, turn_seconds=60)
    late = str(client.get(f"/api/tables/{table}").json()["to_act"])
    clock.after(30)
    client.post(f"/api/tables/{table}/claim", json={"token": tokens[late], "name": "Renamed"})
    summary: dict[str, Any] = client.get(f"/api/tables/{table}").json()
    assert summary["turn_started"] == clock.start.isoformat(timespec="seconds")
    assert summary["updated"] == clock.at.isoformat(timespec="seconds")


def test_a_turn_clock_may_last_days_up_to_thirty(client: TestClient) -> None:
    for seconds in (3 * 86400, 14 * 86400, 30 * 86400):
        created = client.post("/api/tables", headers={"origin": "http://testserver"},
                              json={"game": "valley", "players": 2, "seats": HUMANS, "turn_seconds": seconds})
        assert created.status_code == 201 and created.json()["table"]["turn_seconds"] == seconds
    for seconds, words in ((30 * 86400 + 1, "less than or equal to 2592000"), (9, "greater than or equal to 10")):
        refused = client.post("/api/tables", headers={"origin": "http://testserver"},
                              json={"game": "valley", "players": 2, "seats": HUMANS, "turn_seconds": seconds})
        message = error_of(refused, 400, "bad_request")
        assert "turn_seconds" in message and words in message, message
