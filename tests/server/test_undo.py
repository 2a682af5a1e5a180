"""Undo at a table: a seat takes back its own last decision while the rules allow it, as a new version; the
moves taken back leave every log, the record, a restart and the other processes."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from starlette.testclient import TestClient

from obelisk.core import State
from obelisk.core.records import replay_record
from obelisk.server.app import create_app
from tests.server.conftest import HUMANS, ORIGIN, bearer, config, playing, processes, run_async
from tests.server.test_api import JSON, claim, error_of, frame_of, new_table, seated, wait_for


def state_of(client: TestClient, table: str) -> State:
    """The table's true state, read from the server's cache (the tests choose moves with it; clients never see it)."""
    frame_of(client, table)
    return client.app.state.tables.held(table).snapshot.state  # type: ignore[attr-defined]


def choice(state: State, undoable: bool) -> int | None:
    """A legal action of the seat to act that it may take back right after (or, ``undoable`` false, one that
    reveals something hidden), if there is one."""
    seat = state.current_player()
    for action in state.legal_actions():
        after = state.clone()
        reveals = state.reveals(action)
        after.apply_action(action)
        if undoable and not after.is_chance_node() and after.undo_points(seat) > 0:
            return action
        if not undoable and reveals:
            return action
    return None


def move(client: TestClient, table: str, token: str, version: int, action: int) -> int:
    response = client.post(f"/api/tables/{table}/moves", headers=bearer(token), json={"version": version, "action": action})
    assert response.status_code == 200, response.text
    return response.json()["version"]


def undo(client: TestClient, table: str, token: str | None, body: Any) -> Any:
    return client.post(f"/api/tables/{table}/undo", headers=bearer(token) if token else {}, json=body)


def until(client: TestClient, table: str, tokens: dict[str, str], undoable: bool) -> tuple[str, dict[str, Any], int]:
    """Play first legal actions until the seat to act has a decision of the kind wanted: its token, frame, action."""
    for _ in range(500):
        current = frame_of(client, table)
        token = tokens[str(current["table"]["to_act"])]
        mine = frame_of(client, table, token)
        action = choice(state_of(client, table), undoable)
        if action is not None:
            return token, mine, action
        move(client, table, token, mine["version"], mine["legal"][0][0])
    raise AssertionError("no such decision came")


def test_a_seat_takes_back_its_last_decision_as_a_new_version(client: TestClient) -> None:
    table, tokens = seated(client, game="tomb", players=2, seats=HUMANS)
    token, before, action = until(client, table, tokens, undoable=True)
    watching = frame_of(client, table)
    other = next(t for t in tokens.values() if t != token)
    others = frame_of(client, table, other)
    moved = move(client, table, token, before["version"], action)
    after_move = frame_of(client, table, token)
    assert after_move["undo"] >= 1 and after_move["log"][-1]["seq"] == before["version"]
    assert frame_of(client, table, other)["undo"] == 0

    answer = undo(client, table, token, {"version": moved})
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"version": moved + 1}
    again = frame_of(client, table, token)
    assert again["version"] == moved + 1 > before["version"]
    for key in ("view", "text", "legal", "log", "undo"):
        assert again[key] == before[key], key
    for token_, earlier in ((None, watching), (other, others)):
        now = frame_of(client, table, token_)
        assert (now["view"], now["log"]) == (earlier["view"], earlier["log"])
    assert state_of(client, table).history() == state_of(client, table).game.replay(
        state_of(client, table)._seed, state_of(client, table).history()).history()
    error_of(undo(client, table, token, {"version": moved}), 409, "stale_version")
    assert move(client, table, token, moved + 1, action) == moved + 2


def test_every_refusal_is_clear_and_changes_nothing(client: TestClient) -> None:
    waiting, invites = new_table(client, game="tomb", seats=HUMANS)
    _, first_seated = claim(client, waiting, invites["0"])
    error_of(undo(client, waiting, first_seated, {"version": frame_of(client, waiting)["version"]}), 409, "waiting")

    table, tokens = seated(client, game="tomb", players=2, seats=HUMANS)
    start = frame_of(client, table)
    version = start["version"]
    first = str(start["table"]["to_act"])
    second = "1" if first == "0" else "0"
    assert "nothing to undo" in error_of(undo(client, table, tokens[first], {"version": version}), 409, "nothing_to_undo")
    error_of(undo(client, table, None, {"version": version}), 403, "bad_token")
    error_of(undo(client, table, "not-a-token", {"version": version}), 403, "bad_token")
    for body in ({}, {"version": "1"}, {"version": True}, {"version": 1, "steps": 2}):
        error_of(undo(client, table, tokens[first], body), 400, "bad_request")
    error_of(client.post(f"/api/tables/{table}/undo", headers={**bearer(tokens[first]), **JSON}, content=b"{"), 400,
             "bad_request")
    error_of(undo(client, "nope", tokens[first], {"version": version}), 404, "not_found")

    token, mine, action = until(client, table, tokens, undoable=True)
    moved = move(client, table, token, mine["version"], action)
    not_mine = tokens[second] if token == tokens[first] else tokens[first]
    message = error_of(undo(client, table, not_mine, {"version": moved}), 409, "nothing_to_undo")
    assert "cannot take back" in message
    error_of(undo(client, table, token, {"version": moved - 1}), 409, "stale_version")
    assert frame_of(client, table)["version"] == moved
    assert frame_of(client, table)["undo"] == 0 and frame_of(client, table, token)["undo"] >= 1

    finished, tokens = seated(client, game="solomon", players=2, seats=HUMANS)
    while (current := frame_of(client, finished))["status"] != "finished":
        token = tokens[str(current["table"]["to_act"])]
        move(client, finished, token, current["version"], frame_of(client, finished, token)["legal"][-1][0])
    error_of(undo(client, finished, tokens["0"], {"version": current["version"]}), 409, "finished")
    assert frame_of(client, finished)["version"] == current["version"]


def test_a_seat_a_bot_plays_takes_nothing_back(sqlite_url: str) -> None:
    with TestClient(create_app(config(sqlite_url, bot_delay=30.0))) as client:
        table, tokens = seated(client, game="tomb", players=2, seats=HUMANS)
        token, mine, action = until(client, table, tokens, undoable=True)
        moved = move(client, table, token, mine["version"], action)
        handed = client.post(f"/api/tables/{table}/seats/{mine['seat']}/bot", headers=bearer(token), json={"bot": "random"})
        assert handed.status_code == 200, handed.text
        assert frame_of(client, table, token)["undo"] == 0
        error_of(undo(client, table, token, {"version": moved}), 409, "not_your_turn")
        assert frame_of(client, table)["version"] == moved


def test_a_decision_that_revealed_something_is_never_taken_back(client: TestClient) -> None:
    table, tokens = seated(client, game="valley", players=2, seats=HUMANS)
    token, mine, action = until(client, table, tokens, undoable=False)
    moved = move(client, table, token, mine["version"], action)
    seat = mine["seat"]
    after = frame_of(client, table, token)
    assert after["undo"] == 0
    assert state_of(client, table).undo_points(seat) == 0
    message = error_of(undo(client, table, token, {"version": moved}), 409, "nothing_to_undo")
    assert message.startswith("nothing to undo: player") and frame_of(client, table, token) == after


def play_with_undos(client: TestClient, table: str, tokens: dict[str, str], rng: random.Random, moves: int
                    ) -> tuple[int, dict[str, Any]]:
    """Random moves, taking back about every third decision that may be; the undos made and the last frame.

    Three moves in ten are the last legal one (in Solomon, ending the turn): a 2-player game then ends in about
    100 decisions instead of 500, with the same kinds of moves and undos on the way."""
    undone = 0
    current = frame_of(client, table)
    for _ in range(moves):
        current = frame_of(client, table)
        if current["status"] == "finished":
            break
        token = tokens[str(current["table"]["to_act"])]
        mine = frame_of(client, table, token)
        chosen = mine["legal"][-1] if rng.random() < 0.3 else rng.choice(mine["legal"])
        moved = move(client, table, token, mine["version"], chosen[0])
        after = frame_of(client, table, token)
        assert after["undo"] == state_of(client, table).undo_points(mine["seat"])
        # The mark said it: a move not marked final leaves the seat to act, free to take it back; a final one
        # ends in another seat (or the end) to act, or cannot be taken back.
        again = after["table"]["to_act"] == mine["seat"]
        assert (again and after["undo"] >= 1) if not chosen[4] else (not again or after["undo"] == 0)
        if after["undo"] and rng.random() < 0.35:
            assert undo(client, table, token, {"version": moved}).status_code == 200
            undone += 1
            assert [e["seq"] for e in frame_of(client, table)["log"]] == [e["seq"] for e in mine["log"]]
    return undone, current


def test_undone_moves_stay_out_of_the_record_and_of_a_restart(db_url: str) -> None:
    rng = random.Random(4)
    with TestClient(create_app(config(db_url))) as client:
        table, tokens = seated(client, game="solomon", players=2, seats=HUMANS)
        undone, _ = play_with_undos(client, table, tokens, rng, 60)
        assert undone > 0
        frames = {t: frame_of(client, table, t) for t in (None, *tokens.values())}
    with TestClient(create_app(config(db_url))) as client:
        for token, earlier in frames.items():
            assert frame_of(client, table, token) == earlier
        more, last = play_with_undos(client, table, tokens, rng, 10_000)
        last = frame_of(client, table)
        assert last["status"] == "finished"
        doc = client.get(f"/api/tables/{table}/record").json()
        history = state_of(client, table).history()
        assert [a["id"] for a in doc["actions"]] == history
        game, states = replay_record(doc)
        assert len(states) == len(history) + 1 == len(last["log"]) + 1
        assert states[-1].returns() == last["result"]["returns"]
        assert last["version"] == len(history) + 2 * (undone + more)
        assert [e["seq"] for e in last["log"]] != list(range(len(history)))


def test_undo_over_the_websocket_takes_the_entry_off_every_socket(client: TestClient) -> None:
    table, tokens = seated(client, game="tomb", players=2, seats=HUMANS)
    token, mine, action = until(client, table, tokens, undoable=True)
    other = next(t for t in tokens.values() if t != token)
    logs: dict[str, list[dict[str, Any]]] = {token: [], other: []}

    def receive(ws: Any, log: list[dict[str, Any]], version: int) -> dict[str, Any]:
        """The next frame at ``version`` or later, its log merged as a page does: replace from ``log_from``."""
        while True:
            message = ws.receive_json()
            if message["type"] != "frame":
                continue
            log[:] = [e for e in log if e["seq"] < message["log_from"]] + message["log"]
            if message["version"] >= version:
                return message

    with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as ws, \
            client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as ws2:
        ws.send_json({"type": "hello", "token": token})
        ws2.send_json({"type": "hello", "token": other})
        receive(ws, logs[token], mine["version"])
        receive(ws2, logs[other], mine["version"])
        ws.send_json({"type": "move", "version": mine["version"], "action": action})
        moved = receive(ws, logs[token], mine["version"] + 1)
        receive(ws2, logs[other], moved["version"])
        assert moved["undo"] >= 1 and logs[token][-1]["seq"] == mine["version"]
        ws.send_json({"type": "undo"})
        assert ws.receive_json()["code"] == "bad_request"
        ws.send_json({"type": "undo", "version": moved["version"]})
        back = receive(ws, logs[token], moved["version"] + 1)
        seen = receive(ws2, logs[other], moved["version"] + 1)
        for message in (back, seen):
            assert message["log_from"] == mine["version"] < moved["version"] and message["log"] == []
        ws.send_json({"type": "undo", "version": moved["version"]})
        assert ws.receive_json()["code"] == "stale_version"
    assert logs[token] == frame_of(client, table, token)["log"] == mine["log"]
    assert logs[other] == frame_of(client, table, other)["log"]


def test_a_bot_reply_is_not_taken_back_but_an_undo_before_it_lands_discards_it(sqlite_url: str) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    with TestClient(create_app(config(sqlite_url, bot_delay=1.0))) as client:
        table, tokens = seated(client, game="solomon", players=2, seats=seats)
        token = tokens["0"]
        mine = wait_for(client, table, token, lambda f: bool(f["legal"]))
        action = choice(state_of(client, table), undoable=True)
        assert action is not None
        moved = move(client, table, token, mine["version"], action)
        assert frame_of(client, table)["table"]["to_act"] == 1
        assert undo(client, table, token, {"version": moved}).json() == {"version": moved + 1}
        time.sleep(1.5)
        again = frame_of(client, table, token)
        assert again["version"] == moved + 1 and again["legal"] == mine["legal"]

    with TestClient(create_app(config(sqlite_url, bot_delay=0.0))) as client:
        action = choice(state_of(client, table), undoable=True)
        assert action is not None
        moved = move(client, table, token, moved + 1, action)
        replied = wait_for(client, table, token, lambda f: f["version"] > moved and bool(f["legal"]))
        assert replied["undo"] == 0
        assert any(entry["actor"] == 1 for entry in replied["log"] if entry["seq"] >= moved)
        message = error_of(undo(client, table, token, {"version": replied["version"]}), 409, "nothing_to_undo")
        # The bot's reply, or a draw it led to (the secret deal decides which came last), stops the undo.
        assert "player 2 has decided since" in message or "a chance event happened since" in message
        assert frame_of(client, table, token)["version"] == replied["version"]


def test_an_undo_before_the_bot_replies_stops_its_search(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("obelisk.server.scheduler.DECISION_SECONDS", 600.0)  # only the undo may stop the search
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "ismcts:1000"}]
    with TestClient(create_app(config(sqlite_url))) as client:
        table, tokens = seated(client, game="solomon", players=2, seats=seats)
        token = tokens["0"]
        mine = wait_for(client, table, token, lambda f: bool(f["legal"]))
        action = choice(state_of(client, table), undoable=True)
        assert action is not None
        moved = move(client, table, token, mine["version"], action)
        deadline = time.monotonic() + 60
        while client.get("/api/health").json()["bots"]["busy"] != 1:
            assert time.monotonic() < deadline, "the bot never started deciding"
            time.sleep(0.01)
        assert undo(client, table, token, {"version": moved}).json() == {"version": moved + 1}
        while (bots_now := client.get("/api/health").json()["bots"])["busy"]:
            assert time.monotonic() < deadline, "the search went on"
            time.sleep(0.01)
        assert (bots_now["decisions"], bots_now["interrupted"]) == (1, 1)
        assert frame_of(client, table, token)["legal"] == mine["legal"]


def test_another_process_sees_the_undo(db_url: str) -> None:
    """Two processes on one database: an undo written by one is read, incrementally, by the other."""
    async def run() -> None:
        async with processes(db_url) as (here, there):
            snap, tokens = await playing(here, "tomb")
            while (action := choice(snap.state, undoable=True)) is None:
                actor = snap.to_act
                assert actor is not None
                await here.move(snap.id, tokens[actor], snap.version, snap.state.legal_actions()[:1])
                snap = await here.snapshot(snap.id)
            actor = snap.to_act
            assert actor is not None
            moved = await here.move(snap.id, tokens[actor], snap.version, [action])
            await there.snapshot(snap.id)
            assert await there.undo(snap.id, tokens[actor], moved) == moved + 1
            theirs = await there.snapshot(snap.id)
            with pytest.raises(Exception) as refused:
                await here.undo(snap.id, tokens[actor], moved)
            assert getattr(refused.value, "code", None) == "stale_version"
            mine = await here.snapshot(snap.id)
            assert (mine.version, mine.log, mine.cuts, mine.state.history()) == (
                theirs.version, theirs.log, theirs.cuts, theirs.state.history())
            assert mine.state.history() == snap.state.history()

    run_async(run())


def test_two_servers_on_postgresql_follow_an_undo(db_url: str) -> None:
    if not db_url.startswith("postgresql"):
        pytest.skip("only PostgreSQL tells other processes what changed")
    with TestClient(create_app(config(db_url))) as one, TestClient(create_app(config(db_url))) as two:
        table, tokens = seated(one, game="tomb", players=2, seats=HUMANS)
        token, mine, action = until(one, table, tokens, undoable=True)
        frame_of(two, table, token)
        moved = move(one, table, token, mine["version"], action)
        wait_for(two, table, token, lambda f: f["version"] == moved and f["undo"] >= 1, 10)
        assert undo(two, table, token, {"version": moved}).json() == {"version": moved + 1}
        back = wait_for(one, table, token, lambda f: f["version"] == moved + 1, 10)
        assert back["log"] == mine["log"] and back["view"] == mine["view"]
