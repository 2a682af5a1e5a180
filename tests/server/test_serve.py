"""``obelisk serve`` as a process: refuses bad settings in one line, and loses no acknowledged move to kill -9."""

from __future__ import annotations

import threading
from typing import Any

import httpx2 as httpx
import pytest

from obelisk.cli import main
from tests.server.servers import Server

HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


@pytest.mark.parametrize("args, words", [
    (["--db", "mysql://x/y"], "--db must be"),
    (["--workers", "2", "--db", "sqlite:///x.db"], "PostgreSQL only"),
    (["--db", "sqlite:////nonexistent-folder/deeper/x.db"], "cannot open the database"),
    (["--allowed-host", "http://games.example.org"], "--allowed-host takes a host name"),
    (["--allowed-host", "games.example.org:8000"], "--allowed-host takes a host name"),
    (["--allowed-host", "a.*.example.org"], "--allowed-host takes a host name"),
])
def test_bad_settings_are_one_line_errors(args: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", *args]) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def frames(server: Server, table: str, tokens: dict[str, str]) -> dict[str, Any]:
    seen = {}
    for seat, token in [*tokens.items(), ("spectator", None)]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        current = httpx.get(f"{server.url}/api/tables/{table}/frame", headers=headers, timeout=30).json()
        current["table"] = {k: v for k, v in current["table"].items() if k != "seats"} | {
            "seats": [{k: v for k, v in s.items() if k != "connected"} for s in current["table"]["seats"]]}
        seen[seat] = current
    return seen


def move_once(server: Server, table: str, tokens: dict[str, str]) -> int:
    """The seat to act plays its first legal action; the acknowledged version."""
    seat = str(httpx.get(f"{server.url}/api/tables/{table}", timeout=30).json()["to_act"])
    headers = {"Authorization": f"Bearer {tokens[seat]}"}
    current = httpx.get(f"{server.url}/api/tables/{table}/frame", headers=headers, timeout=30).json()
    done = httpx.post(f"{server.url}/api/tables/{table}/moves", headers=headers, timeout=30,
                      json={"version": current["version"], "action": current["legal"][-1][0]})
    assert done.status_code == 200, done.text
    return done.json()["version"]


def test_kill_9_mid_game_loses_no_acknowledged_move(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'tables.db'}"
    server = Server(url).start()
    try:
        created = httpx.post(f"{server.url}/api/tables", timeout=30,
                             json={"game": "valley", "players": 2, "seats": HUMANS}).json()
        table, tokens = created["table"]["id"], {}
        for seat, invite in created["tokens"].items():
            tokens[seat] = httpx.post(f"{server.url}/api/tables/{table}/claim", json={"token": invite, "name": seat},
                                      timeout=30).json()["token"]
        for _ in range(20):
            move_once(server, table, tokens)
        before = frames(server, table, tokens)
        server.kill()
        server = Server(url, server.port).start()
        assert frames(server, table, tokens) == before

        acknowledged: list[int] = []
        stop = threading.Event()

        def keep_moving() -> None:
            while not stop.is_set():
                try:
                    acknowledged.append(move_once(server, table, tokens))
                except (httpx.TransportError, AssertionError, KeyError, ValueError):
                    return

        mover = threading.Thread(target=keep_moving)
        mover.start()
        while len(acknowledged) < 5:
            assert mover.is_alive()
            threading.Event().wait(0.01)
        server.kill()
        stop.set()
        mover.join(60)
        server = Server(url, server.port).start()
        after = frames(server, table, tokens)
        assert after["spectator"]["version"] >= acknowledged[-1]
        for seat in ("0", "1", "spectator"):
            assert after[seat]["log"][:len(before[seat]["log"])] == before[seat]["log"]
        move_once(server, table, tokens)
    finally:
        server.stop()


def test_a_served_process_keeps_the_collector_and_the_interpreter_lock_off_the_moves(sqlite_url: str) -> None:
    import gc
    import sys

    from starlette.testclient import TestClient

    from obelisk.server.app import create_app
    from tests.server.conftest import config

    thresholds, switch = gc.get_threshold(), sys.getswitchinterval()
    try:
        with TestClient(create_app(config(sqlite_url))):
            assert gc.get_threshold() == thresholds and gc.get_freeze_count() == 0
            assert sys.getswitchinterval() == switch
        with TestClient(create_app(config(sqlite_url, tune_process=True))):
            assert gc.get_threshold()[0] == 50_000
            assert gc.get_freeze_count() > 10_000
            assert sys.getswitchinterval() < 0.001
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
        sys.setswitchinterval(switch)
