"""Bot seats: they play from their seat's information in workers, and can stand in for a person."""

from __future__ import annotations

import os
import re
import signal
import threading
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Callable

import pytest
from starlette.testclient import TestClient

from obelisk.server import store
from obelisk.server.app import STATIC, create_app
from obelisk.server.bots import Decision, bot_action
from tests.server.conftest import HUMANS, bearer, config
from tests.server.test_api import error_of, frame_of, seated, wait_for

BOT_SEAT = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}]


def lobby_bots() -> list[str]:
    """The bot specs the lobby offers (every spec its *Advanced* seat choice lists, ``SPECS`` in ``lobby.js``)."""
    listed = re.search(r"^const SPECS = \[([^\]]*)\];", (STATIC / "lobby.js").read_text(), re.M)
    assert listed is not None, "lobby.js no longer lists its bot specs as SPECS"
    return re.findall(r'"([^"]+)"', listed.group(1))


def health(client: TestClient) -> tuple[int, dict[str, Any]]:
    answer = client.get("/api/health")
    return answer.status_code, answer.json()


def until(condition: Callable[[], Any], what: str, seconds: float = 120.0) -> Any:
    deadline = time.monotonic() + seconds
    while not (found := condition()):
        assert time.monotonic() < deadline, what
        time.sleep(0.01)
    return found


def bot_workers() -> list[int]:
    """The bot worker processes this process started (read from /proc, so nothing here reaps them)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            command = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == os.getpid() and fields[0] != "Z" and b"spawn_main" in command:
            found.append(int(stat.parent.name))
    return found


def move_once(client: TestClient, table: str, token: str) -> bool:
    """Make the first legal move of ``token``'s seat if it is to act; whether it moved."""
    mine = frame_of(client, table, token)
    if not mine["legal"]:
        return False
    client.post(f"/api/tables/{table}/moves", headers=bearer(token),
                json={"version": mine["version"], "action": mine["legal"][0][0]})
    return True


def until_bot_moves(client: TestClient, table: str, token: str, seat: int, seconds: float = 120.0) -> None:
    """Play ``token``'s seat until the bot of ``seat`` has made one more move."""
    before = sum(e["actor"] == seat for e in frame_of(client, table)["log"])
    deadline = time.monotonic() + seconds
    while sum(e["actor"] == seat for e in frame_of(client, table)["log"]) == before:
        assert time.monotonic() < deadline, "the bot did not move"
        move_once(client, table, token) or time.sleep(0.01)


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
    monkeypatch.setattr(store, "now", lambda: later)
    assert client.get(f"/api/tables/{table}").json()["seats"][int(late)]["timed_out"] is True
    error_of(client.post(f"/api/tables/{table}/seats/{late}/bot", headers=bearer("q" * 32), json={}), 403, "bad_token")
    handed = client.post(f"/api/tables/{table}/seats/{late}/bot", headers=bearer(tokens[other]), json={})
    assert handed.status_code == 200 and handed.json()["seats"][int(late)]["kind"] == "bot"
    monkeypatch.undo()
    back = client.post(f"/api/tables/{table}/seats/{late}/human", headers=bearer(tokens[late]), json={})
    assert back.json()["seats"][int(late)]["kind"] == "human"


def test_a_turn_clock_must_be_sensible(client: TestClient) -> None:
    error_of(client.post("/api/tables", json={"game": "valley", "turn_seconds": 1}), 400, "bad_request")


def test_after_a_restart_a_persons_table_goes_on_and_a_table_of_bots_alone_waits_to_be_opened(sqlite_url: str) -> None:
    from sqlalchemy import create_engine, text

    with TestClient(create_app(config(sqlite_url, bot_delay=0.02))) as client:
        table, tokens = seated(client, game="valley", seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
        client.post(f"/api/tables/{table}/seats/0/bot", headers=bearer(tokens["0"]), json={"bot": "random"})
        alone = client.post("/api/tables", json={"game": "valley", "players": 2, "seats": [
            {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]}).json()["table"]["id"]
        wait_for(client, table, None, lambda f: f["version"] > 30)
        wait_for(client, alone, None, lambda f: f["version"] > 30)
    engine = create_engine(sqlite_url)

    def status(table_id: str) -> tuple[str, int]:
        with engine.connect() as connection:
            return (connection.execute(text("SELECT status FROM tables WHERE id = :id"), {"id": table_id}).scalar_one(),
                    connection.execute(text("SELECT count(*) FROM moves WHERE table_id = :id"), {"id": table_id})
                    .scalar_one())

    stopped, waiting = status(table), status(alone)
    assert stopped[0] == waiting[0] == "playing"
    with TestClient(create_app(config(sqlite_url))) as client:
        deadline = time.monotonic() + 120
        while status(table)[0] != "finished":
            assert time.monotonic() < deadline, "the bots did not go on"
            time.sleep(0.05)
        assert status(table)[1] > stopped[1]
        assert status(alone) == waiting, "a table of bots alone went on by itself"
        client.get(f"/api/tables/{alone}")
        wait_for(client, alone, None, lambda f: f["version"] > waiting[1])
    engine.dispose()


def test_tables_seat_the_lobbys_bots_and_refuse_budgets_beyond_the_limits(client: TestClient) -> None:
    offered = lobby_bots()
    assert offered == ["random", "greedy", "ismcts:200", "ismcts:1000", "ismcts:2s"]
    for spec in offered:
        made = client.post("/api/tables", json={"game": "solomon", "players": 2,
                                                "seats": [{"kind": "human"}, {"kind": "bot", "bot": spec}]})
        assert made.status_code == 201, made.text
    for spec, said in [
        ("ismcts:86400s", "at most 2s a move, got 86400s"),
        ("ismcts:2.5s", "at most 2s a move"),
        ("ismcts:100000000", "at most 1000 iterations a move, got 100000000 iterations"),
        ("ismcts:time=3", "at most 2s a move"),
        ("ismcts:200,rollout=greedy,depth=0", "after 1 to 20 decisions, got depth=0"),
        ("ismcts:200,rollout=random,depth=21", "got depth=21"),
        ("greedy:samples=100000", "at most 16 samples"),
        ("greedy:expect=1000", "at most 12 outcomes"),
        ("cheater:1s", "reads hidden cards"),
        ("ismcts:forever", "budget must be iterations"),
    ]:
        message = error_of(client.post("/api/tables", json={"game": "solomon", "players": 2, "seats": [
            {"kind": "human"}, {"kind": "bot", "bot": spec}]}), 400, "bad_request")
        assert said in message, (spec, message)


def test_a_table_without_a_person_seats_only_the_quickest_search(client: TestClient) -> None:
    def bots_alone(*specs: str) -> Any:
        return client.post("/api/tables", json={"game": "valley", "players": 2,
                                                "seats": [{"kind": "bot", "bot": s} for s in specs]})

    assert bots_alone("ismcts:200", "greedy").status_code == 201
    assert bots_alone("random", "ismcts:150,rollout=random,depth=5").status_code == 201
    for spec in ("ismcts:1000", "ismcts:201", "ismcts:100ms", "ismcts:2s"):
        message = error_of(bots_alone("random", spec), 400, "bad_request")
        assert "a table without a person seats search bots of at most 200 iterations" in message


def test_a_seat_is_not_handed_to_a_bot_beyond_the_limits(client: TestClient) -> None:
    table, tokens = seated(client, seats=HUMANS)
    before = client.get(f"/api/tables/{table}").json()
    for spec in ("ismcts:86400s", "ismcts:100000000", "cheater"):
        error_of(client.post(f"/api/tables/{table}/seats/0/bot", headers=bearer(tokens["0"]), json={"bot": spec}),
                 400, "bad_request")
    assert client.get(f"/api/tables/{table}").json() == before
    handed = client.post(f"/api/tables/{table}/seats/0/bot", headers=bearer(tokens["0"]), json={"bot": "ismcts:2s"})
    assert handed.status_code == 200 and handed.json()["seats"][0]["bot"] == "ismcts:2s"


def test_a_greedy_reply_waits_for_at_most_one_slow_decision_of_another_table(sqlite_url: str,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    events: list[str] = []

    def recorded(decision: Decision, stop: Callable[[], bool]) -> tuple[int, bool]:
        events.append(f"start {decision.spec}")
        try:
            return bot_action(decision, stop)
        finally:
            events.append(f"done {decision.spec}")

    monkeypatch.setattr("obelisk.server.lanes.bot_action", recorded)
    with TestClient(create_app(config(sqlite_url))) as client:
        # both seats of the slow table search a second a move, one after the other, for the whole game
        slow, slow_tokens = seated(client, game="solomon", seats=[{"kind": "human"}, {"kind": "bot", "bot": "ismcts:1s"}])
        client.post(f"/api/tables/{slow}/seats/0/bot", headers=bearer(slow_tokens["0"]), json={"bot": "ismcts:1s"})
        quick, tokens = seated(client, game="valley", seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
        until(lambda: "done ismcts:1s" in events, "the slow table never decided")
        while sum(e == "start greedy" for e in events) < 4:
            assert frame_of(client, slow)["status"] == "playing", "the slow table finished first"
            events.append("move")  # before the move: the greedy decisions it leads to come after this mark
            if not move_once(client, quick, tokens["0"]):
                events.pop()
                time.sleep(0.01)
        # between the move (or greedy decision) a greedy decision follows and its start, the slow table
        # starts at most one decision: a table deciding does not queue ahead of those that asked meanwhile
        slow_starts = 0
        for event in events:
            if event in ("move", "done greedy"):
                slow_starts = 0
            elif event == "start ismcts:1s":
                slow_starts += 1
            elif event == "start greedy":
                assert slow_starts <= 1, events
        assert events.count("start ismcts:1s") >= 2


def test_a_seat_taken_back_stops_its_bots_search_in_the_worker(sqlite_url: str,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("obelisk.server.scheduler.DECISION_SECONDS", 600.0)  # only taking the seat back may stop the search
    with TestClient(create_app(config(sqlite_url, bot_workers=1))) as client:
        table, tokens = seated(client, game="solomon", seats=HUMANS)
        seat = client.get(f"/api/tables/{table}").json()["to_act"]
        mine = tokens[str(seat)]
        version = client.post(f"/api/tables/{table}/seats/{seat}/bot", headers=bearer(mine),
                              json={"bot": "ismcts:1000"}).json()["version"]
        until(lambda: health(client)[1]["bots"]["busy"] == 1, "the bot never started deciding")
        client.post(f"/api/tables/{table}/seats/{seat}/human", headers=bearer(mine), json={})
        until(lambda: health(client)[1]["bots"]["busy"] == 0, "the search went on")
        status, body = health(client)
        assert status == 200 and body["bots"]["decisions"] == 1 and body["bots"]["interrupted"] == 1
        now = frame_of(client, table, mine)
        assert now["legal"] and all(e["seq"] < version for e in now["log"] if e["actor"] == seat)


def test_a_killed_bot_worker_is_replaced_and_health_says_while_bots_cannot_decide(
        sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("obelisk.server.scheduler.RETRY_FIRST", 0.2)
    monkeypatch.setattr("obelisk.server.scheduler.RETRY_MAX", 1.0)
    with TestClient(create_app(config(sqlite_url, bot_workers=1))) as client:
        assert health(client) == (200, {"status": "ok", "bots": {
            "workers": 1, "busy": 0, "queued": 0, "decisions": 0, "interrupted": 0, "failures": 0, "restarts": 0}})
        until(lambda: len(bot_workers()) == 1, "the worker did not start with the server")
        table, tokens = seated(client, game="valley", seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
        until_bot_moves(client, table, tokens["0"], 1)
        wait_for(client, table, tokens["0"], lambda f: bool(f["legal"]))  # the bot is done for now
        [worker] = bot_workers()
        os.kill(worker, signal.SIGKILL)  # as the OOM killer would, between two decisions
        until(lambda: worker not in bot_workers(), "the worker did not die")
        until_bot_moves(client, table, tokens["0"], 1)
        status, body = health(client)
        assert status == 200 and body["bots"]["restarts"] == 1 and body["bots"]["failures"] == 0

        # every worker is killed as soon as it appears: no decision can be made
        killing = threading.Event()
        killing.set()

        def killer() -> None:
            while killing.is_set():
                for pid in bot_workers():
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                time.sleep(0.005)

        thread = threading.Thread(target=killer)
        thread.start()
        try:
            until(lambda: not bot_workers(), "the worker outlived the killing")

            def failing() -> tuple[int, dict[str, Any]] | None:
                move_once(client, table, tokens["0"])  # the person plays on, so the bot is asked to decide
                answer = health(client)
                return answer if answer[0] == 503 else None

            status, body = until(failing, "health stayed green")
            assert body["status"] == "failing" and body["bots"]["failures"] >= 2
            assert "the bot worker stopped (killed by signal SIGKILL)" in body["reason"], body
        finally:
            killing.clear()
            thread.join()
        until_bot_moves(client, table, tokens["0"], 1)
        status, body = health(client)
        assert status == 200 and "reason" not in body and body["bots"]["restarts"] >= 3


def test_a_worker_that_stops_answering_is_killed_and_replaced(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("obelisk.server.scheduler.DECISION_SECONDS", 1.0)
    monkeypatch.setattr("obelisk.server.scheduler.GRACE_SECONDS", 1.0)
    monkeypatch.setattr("obelisk.server.scheduler.RETRY_FIRST", 0.1)
    with TestClient(create_app(config(sqlite_url, bot_workers=1))) as client:
        table, tokens = seated(client, game="valley", seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
        until_bot_moves(client, table, tokens["0"], 1)
        wait_for(client, table, tokens["0"], lambda f: bool(f["legal"]))  # the bot is done for now
        [worker] = bot_workers()
        os.kill(worker, signal.SIGSTOP)  # alive, but it will never answer again
        until_bot_moves(client, table, tokens["0"], 1)
        status, body = health(client)
        assert status == 200 and body["bots"]["failures"] == 1 and body["bots"]["restarts"] == 1
        assert worker not in bot_workers()
