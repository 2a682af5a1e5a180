"""Several server processes on one PostgreSQL: a move made through one reaches the clients of the other."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import httpx2 as httpx
import pytest
from websockets.sync.client import connect

from tests.server.conftest import POSTGRES, fresh_postgres
from tests.server.servers import Server

pytestmark = pytest.mark.skipif(not POSTGRES, reason="set OBELISK_TEST_POSTGRES to run the PostgreSQL tests")


def next_frame(ws: Any, after: int, log: dict[int, dict[str, Any]], *servers: Server) -> dict[str, Any]:
    """The next frame newer than version ``after``; ``log`` collects the entries every frame brings."""
    while True:
        try:
            message = json.loads(ws.recv(timeout=30))
        except TimeoutError:
            raise AssertionError("no frame came; the servers said:\n" + "\n".join(s.log() for s in servers)) from None
        if message["type"] == "frame":
            log.update((entry["seq"], entry) for entry in message["log"])
        if message["type"] == "frame" and message["version"] > after:
            return message


def test_two_processes_share_tables_through_postgresql() -> None:
    url, drop = fresh_postgres()
    try:
        with Server(url) as first, Server(url) as second:
            created = httpx.post(f"{first.url}/api/tables", timeout=30, json={
                "game": "valley", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
            table, tokens = created["table"]["id"], {}
            for seat, invite in created["tokens"].items():
                claimed = httpx.post(f"{second.url}/api/tables/{table}/claim", timeout=30,
                                     json={"token": invite, "name": f"P{seat}"})
                assert claimed.status_code == 200
                tokens[seat] = claimed.json()["token"]
            summary = httpx.get(f"{first.url}/api/tables/{table}", timeout=30).json()
            assert summary["status"] == "playing"
            actor = str(summary["to_act"])
            with connect(f"ws://127.0.0.1:{second.port}/ws/tables/{table}", origin=second.url) as ws:
                ws.send(json.dumps({"type": "hello", "token": tokens["1"]}))
                start = json.loads(ws.recv(timeout=30))
                assert start["type"] == "frame" and start["version"] == summary["version"]
                log = {entry["seq"]: entry for entry in start["log"]}
                headers = {"Authorization": f"Bearer {tokens[actor]}"}
                mine = httpx.get(f"{first.url}/api/tables/{table}/frame", headers=headers, timeout=30).json()
                move = {"version": mine["version"], "action": mine["legal"][0][0]}

                replies: list[httpx.Response] = []

                def post(server: Server) -> None:
                    replies.append(httpx.post(f"{server.url}/api/tables/{table}/moves", headers=headers, json=move,
                                              timeout=30))

                both = [threading.Thread(target=post, args=(s,)) for s in (first, second)]
                for thread in both:
                    thread.start()
                for thread in both:
                    thread.join(60)
                statuses = sorted(r.status_code for r in replies)
                assert statuses == [200, 409], [r.text for r in replies]
                assert next(r for r in replies if r.status_code == 409).json()["error"]["code"] == "stale_version"
                version = next(r for r in replies if r.status_code == 200).json()["version"]
                seen = next_frame(ws, start["version"], log, first, second)
                while seen["version"] < version:
                    seen = next_frame(ws, seen["version"], log, first, second)
                assert seen["version"] == version
                assert log[start["version"]]["actor"] == int(actor)
                for _ in range(3):
                    actor = str(httpx.get(f"{second.url}/api/tables/{table}", timeout=30).json()["to_act"])
                    headers = {"Authorization": f"Bearer {tokens[actor]}"}
                    mine = httpx.get(f"{first.url}/api/tables/{table}/frame", headers=headers, timeout=30).json()
                    done = httpx.post(f"{first.url}/api/tables/{table}/moves", headers=headers, timeout=30,
                                      json={"version": mine["version"], "action": mine["legal"][0][0]})
                    version = done.json()["version"]
                    while seen["version"] < version:
                        seen = next_frame(ws, seen["version"], log, first, second)
                    assert seen["version"] == version
            for server in (first, second):
                assert httpx.get(f"{server.url}/api/tables/{table}", timeout=30).json()["version"] == version
    finally:
        drop()


def settled(servers: tuple[Server, ...], table: str, deadline: float) -> None:
    """Wait until no bot is to act or deciding and every process holds the same version of ``table``.

    A process counts a decision when its worker finishes, before the move is written, and another process
    hears of that move only when its notification arrives: counts and a log read any earlier disagree.
    """
    while True:
        summaries = [httpx.get(f"{s.url}/api/tables/{table}", timeout=30).json() for s in servers]
        bots = [httpx.get(f"{s.url}/api/health", timeout=30).json()["bots"] for s in servers]
        if (len({summary["version"] for summary in summaries}) == 1
                and all(summary["to_act"] != 1 or summary["status"] == "finished" for summary in summaries)
                and not any(b["busy"] or b["queued"] for b in bots)):
            return
        assert time.monotonic() < deadline, f"the table never settled: {summaries} {bots}"
        time.sleep(0.05)


def test_only_one_process_decides_each_bot_move() -> None:
    url, drop = fresh_postgres()
    try:
        with Server(url) as first, Server(url) as second:
            servers = (first, second)
            created = httpx.post(f"{first.url}/api/tables", timeout=30, json={
                "game": "valley", "players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]}).json()
            table, token = created["table"]["id"], created["tokens"]["0"]
            claimed = httpx.post(f"{second.url}/api/tables/{table}/claim", timeout=30,
                                 json={"token": token, "name": "P0"})
            assert claimed.status_code == 200
            token = claimed.json()["token"]  # the invite opens nothing once claimed
            for server in servers:  # both processes hold the table and follow its moves
                assert httpx.get(f"{server.url}/api/tables/{table}", timeout=30).status_code == 200
            headers = {"Authorization": f"Bearer {token}"}
            replies, moves = 0, 0  # the human moves through each process in turn
            deadline = time.monotonic() + 240
            while replies < 6:
                assert time.monotonic() < deadline, "the bot stopped replying:\n" + first.log() + second.log()
                server = servers[moves % 2]
                mine = httpx.get(f"{server.url}/api/tables/{table}/frame", headers=headers, timeout=30).json()
                if mine["status"] == "finished":
                    break
                if not mine["legal"]:
                    time.sleep(0.05)
                    continue
                replies = sum(entry["actor"] == 1 for entry in mine["log"])
                httpx.post(f"{server.url}/api/tables/{table}/moves", headers=headers, timeout=30,
                           json={"version": mine["version"], "action": mine["legal"][0][0]})
                moves += 1
            settled(servers, table, deadline)
            log = httpx.get(f"{first.url}/api/tables/{table}/frame", timeout=30).json()["log"]
            bot_moves = sum(entry["actor"] == 1 for entry in log)
            decided = [httpx.get(f"{s.url}/api/health", timeout=30).json()["bots"]["decisions"] for s in servers]
            assert bot_moves >= 6 and sum(decided) == bot_moves, (decided, bot_moves)
    finally:
        drop()


def test_a_process_that_dies_while_deciding_leaves_the_bot_to_another() -> None:
    url, drop = fresh_postgres()
    try:
        with Server(url) as first, Server(url) as second:
            # a search no machine finishes before the 3 s cut, so the kill lands while it runs
            slow = "ismcts:1000,rollout=greedy,depth=20"
            created = httpx.post(f"{first.url}/api/tables", timeout=30, json={
                "game": "solomon", "players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "bot": slow}]}).json()
            table, token = created["table"]["id"], created["tokens"]["0"]
            claimed = httpx.post(f"{first.url}/api/tables/{table}/claim", timeout=30,
                                 json={"token": token, "name": "P0"})
            assert claimed.status_code == 200
            token = claimed.json()["token"]  # the invite opens nothing once claimed
            headers = {"Authorization": f"Bearer {token}"}
            assert httpx.get(f"{second.url}/api/tables/{table}", timeout=30).status_code == 200
            deadline = time.monotonic() + 120
            while True:  # the person plays through the first process until the bot is to act
                assert time.monotonic() < deadline, "the bot's turn never came"
                summary = httpx.get(f"{first.url}/api/tables/{table}", timeout=30).json()
                if summary["to_act"] == 1:
                    break
                mine = httpx.get(f"{first.url}/api/tables/{table}/frame", headers=headers, timeout=30).json()
                if mine["legal"]:
                    httpx.post(f"{first.url}/api/tables/{table}/moves", headers=headers, timeout=30,
                               json={"version": mine["version"], "action": mine["legal"][0][0]})
            version = summary["version"]

            def busy(server: Server) -> int:
                return int(httpx.get(f"{server.url}/api/health", timeout=30).json()["bots"]["busy"])

            while not (deciding := [s for s in (first, second) if busy(s)]):
                assert time.monotonic() < deadline, "no process started deciding"
                time.sleep(0.02)
            [dying] = deciding  # one process decides, never both
            other = second if dying is first else first
            dying.kill()  # mid-search: its connection, and with it the table's lock, is gone
            while (after := httpx.get(f"{other.url}/api/tables/{table}", timeout=30).json())["version"] == version:
                assert time.monotonic() < deadline, "no process took the bot over:\n" + other.log()
                time.sleep(0.1)
            log = httpx.get(f"{other.url}/api/tables/{table}/frame", timeout=30).json()["log"]
            assert log[-1]["actor"] == 1 or after["to_act"] == 0
            assert httpx.get(f"{other.url}/api/health", timeout=30).json()["bots"]["decisions"] >= 1
    finally:
        drop()
