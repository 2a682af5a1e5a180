"""Bot seats: they play from their seat's information in workers, and can stand in for a person."""

from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone

import pytest
from starlette.testclient import TestClient

from obelisk.server import tables
from obelisk.server.app import create_app
from tests.server.conftest import bearer, config
from tests.server.test_api import error_of, frame_of, seated, wait_for

BOT_SEAT = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}]


def test_bots_alone_play_a_table_to_the_end(client: TestClient) -> None:
    created = client.post("/api/tables", json={"game": "solomon", "players": 2, "seats": [
        {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}]}).json()
    assert created["tokens"] == {} and created["table"]["status"] == "playing"
    done = wait_for(client, created["table"]["id"], None, lambda f: f["status"] == "finished", seconds=300)
    assert done["result"] is not None


def test_a_bot_decides_in_a_worker_process(sqlite_url: str) -> None:
    with TestClient(create_app(config(sqlite_url, bot_workers=1))) as client:
        table, tokens = seated(client, seats=BOT_SEAT)
        token = tokens["0"]
        deadline = time.monotonic() + 120
        while not any(e["actor"] == 1 for e in frame_of(client, table)["log"]):
            assert time.monotonic() < deadline, "the bot never moved"
            current = frame_of(client, table, token)
            if current["legal"]:
                client.post(f"/api/tables/{table}/moves", headers=bearer(token),
                            json={"version": current["version"], "action": current["legal"][0][0]})
            time.sleep(0.01)


def test_a_person_hands_their_seat_to_a_bot_and_takes_it_back(client: TestClient) -> None:
    table, tokens = seated(client, seats=[{"kind": "human"}, {"kind": "human"}])
    to_act = client.get(f"/api/tables/{table}").json()["to_act"]
    other = str(1 - to_act)
    mine = tokens[str(to_act)]
    error_of(client.post(f"/api/tables/{table}/seats/{to_act}/bot", headers=bearer(tokens[other]),
                         json={"bot": "random"}), 403, "bad_token")
    error_of(client.post(f"/api/tables/{table}/seats/{to_act}/bot", headers=bearer(mine), json={"bot": "cheater"}),
             400, "bad_request")
    summary = client.post(f"/api/tables/{table}/seats/{to_act}/bot", headers=bearer(mine), json={"bot": "random"}).json()
    assert summary["seats"][to_act]["kind"] == "bot" and summary["seats"][to_act]["human"] is True
    # the bot moves for the seat; while it plays the seat, its person sees no legal actions
    moved = wait_for(client, table, mine, lambda f: any(e["actor"] == to_act for e in f["log"][summary["version"]:]))
    assert moved["seat"] == to_act
    error_of(client.post(f"/api/tables/{table}/seats/{to_act}/human", headers=bearer(tokens[other]), json={}), 403,
             "bad_token")
    back = client.post(f"/api/tables/{table}/seats/{to_act}/human", headers=bearer(mine), json={}).json()
    assert back["seats"][to_act]["kind"] == "human" and back["seats"][to_act]["bot"] is None
    taken_back = back["version"]
    deadline = time.monotonic() + 60
    while not (current := frame_of(client, table, mine))["legal"] and current["status"] != "finished":
        assert time.monotonic() < deadline
        theirs = frame_of(client, table, tokens[other])
        if theirs["legal"]:
            client.post(f"/api/tables/{table}/moves", headers=bearer(tokens[other]),
                        json={"version": theirs["version"], "action": theirs["legal"][0][0]})
    assert all(e["actor"] != to_act for e in current["log"][taken_back:])


def test_a_timed_out_seat_can_be_handed_to_a_bot_by_another_player(client: TestClient,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    table, tokens = seated(client, seats=[{"kind": "human"}, {"kind": "human"}], turn_seconds=60)
    summary = client.get(f"/api/tables/{table}").json()
    assert summary["turn_seconds"] == 60
    late = str(summary["to_act"])
    other = str(1 - int(late))
    error_of(client.post(f"/api/tables/{table}/seats/{late}/bot", headers=bearer(tokens[other]), json={}), 403,
             "bad_token")
    later = datetime.now(timezone.utc) + timedelta(seconds=61)
    monkeypatch.setattr(tables, "now", lambda: later)
    assert client.get(f"/api/tables/{table}").json()["seats"][int(late)]["timed_out"] is True
    error_of(client.post(f"/api/tables/{table}/seats/{late}/bot", headers=bearer("q" * 32), json={}), 403, "bad_token")
    handed = client.post(f"/api/tables/{table}/seats/{late}/bot", headers=bearer(tokens[other]), json={})
    assert handed.status_code == 200 and handed.json()["seats"][int(late)]["kind"] == "bot"
    monkeypatch.undo()
    back = client.post(f"/api/tables/{table}/seats/{late}/human", headers=bearer(tokens[late]), json={})
    assert back.json()["seats"][int(late)]["kind"] == "human"


def test_a_turn_clock_must_be_sensible(client: TestClient) -> None:
    error_of(client.post("/api/tables", json={"game": "valley", "turn_seconds": 1}), 400, "bad_request")


def test_bot_tables_go_on_after_a_restart_without_anyone_watching(sqlite_url: str) -> None:
    from sqlalchemy import create_engine, text

    with TestClient(create_app(config(sqlite_url, bot_delay=0.02))) as client:
        created = client.post("/api/tables", json={"game": "valley", "players": 2, "seats": [
            {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]}).json()
        table = created["table"]["id"]
        wait_for(client, table, None, lambda f: f["version"] > 30)
    engine = create_engine(sqlite_url)

    def status() -> tuple[str, int]:
        with engine.connect() as connection:
            return (connection.execute(text("SELECT status FROM tables WHERE id = :id"), {"id": table}).scalar_one(),
                    connection.execute(text("SELECT count(*) FROM moves WHERE table_id = :id"), {"id": table})
                    .scalar_one())

    stopped = status()
    assert stopped[0] == "playing"
    with TestClient(create_app(config(sqlite_url))):
        deadline = time.monotonic() + 120
        while status()[0] != "finished":
            assert time.monotonic() < deadline, "the bots did not go on"
            time.sleep(0.05)
    assert status()[1] > stopped[1]
    engine.dispose()
