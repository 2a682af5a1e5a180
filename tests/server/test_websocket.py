"""The table websocket: same origin only, a frame per seat after every change, clear errors."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from obelisk.server.app import create_app
from tests.server.conftest import ORIGIN, bearer, config, run_async
from tests.server.test_api import seated


def merged(message: dict[str, Any], log: list[dict[str, Any]] | None) -> dict[str, Any]:
    """``message`` with the whole log its socket has sent into ``log`` (each frame brings only new entries)."""
    if log is None or message["type"] != "frame":
        return message
    assert message["log_from"] == len(log)
    assert [e["seq"] for e in message["log"]] == list(range(len(log), message["version"]))
    log.extend(message["log"])
    return {**message, "log": list(log), "log_from": 0}


def hello(ws: Any, token: str | None, log: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token})
    message = merged(ws.receive_json(), log)
    assert message["type"] == "frame", message
    return message


def next_frame(ws: Any, version: int, log: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The first frame at ``version`` or later (frames in between may be coalesced)."""
    while True:
        message = merged(ws.receive_json(), log)
        if message["type"] == "frame" and message["version"] >= version:
            return message


@pytest.mark.parametrize("headers", [{}, {"origin": "http://evil.example"}, {"origin": "null"},
                                     {"origin": "https://testserver.evil"}])
def test_other_origins_are_refused(client: TestClient, headers: dict[str, str]) -> None:
    table, _ = seated(client)
    with pytest.raises(WebSocketDisconnect) as refused:
        with client.websocket_connect(f"/ws/tables/{table}", headers=headers) as ws:
            ws.receive_json()
    assert refused.value.code == 1008


def test_each_seat_gets_its_own_frame_after_every_change(client: TestClient) -> None:
    table, tokens = seated(client)
    with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as ws0, \
            client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as ws1, \
            client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as spectator:
        sockets = {0: ws0, 1: ws1, None: spectator}
        logs: dict[int | None, list[dict[str, Any]]] = {0: [], 1: [], None: []}
        frames = {0: hello(ws0, tokens["0"], logs[0]), 1: hello(ws1, tokens["1"], logs[1]),
                  None: hello(spectator, None, logs[None])}
        assert {seat: f["seat"] for seat, f in frames.items()} == {0: 0, 1: 1, None: None}
        for _ in range(6):
            actor = frames[None]["table"]["to_act"]
            mover = frames[actor]
            if not mover["legal"]:
                mover = frames[actor] = next_frame(sockets[actor], mover["version"] + 1, logs[actor])
            sockets[actor].send_json({"type": "move", "version": mover["version"], "action": mover["legal"][0][0]})
            version = mover["version"] + 1
            frames = {seat: next_frame(ws, version, logs[seat]) for seat, ws in sockets.items()}
            assert len({f["version"] for f in frames.values()}) == 1
            for seat, current in frames.items():
                http = client.get(f"/api/tables/{table}/frame",
                                  headers={"Authorization": f"Bearer {tokens[str(seat)]}"} if seat is not None else {})
                expected = http.json()
                assert {**current, "table": None} == {"type": "frame", **expected, "table": None}
        assert frames[None]["legal"] == []
        assert sum(bool(f["legal"]) for f in frames.values()) == 1
        connected = [s["connected"] for s in frames[None]["table"]["seats"]]
        assert connected == [True, True]


def test_a_socket_sends_each_log_entry_once_and_a_new_socket_the_whole_log(client: TestClient) -> None:
    table, tokens = seated(client)
    with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as spectator:
        first = hello(spectator, None)
        assert first["log_from"] == 0 and len(first["log"]) == first["version"]
        shown = first["version"]
        for _ in range(4):
            summary = client.get(f"/api/tables/{table}").json()
            mover = client.get(f"/api/tables/{table}/frame", headers=bearer(tokens[str(summary["to_act"])])).json()
            client.post(f"/api/tables/{table}/moves", headers=bearer(tokens[str(summary["to_act"])]),
                        json={"version": mover["version"], "action": mover["legal"][0][0]})
            current = next_frame(spectator, mover["version"] + 1)
            assert current["log_from"] == shown
            assert [e["seq"] for e in current["log"]] == list(range(shown, current["version"]))
            shown = current["version"]
    whole = client.get(f"/api/tables/{table}/frame").json()
    assert whole["log_from"] == 0 and [e["seq"] for e in whole["log"]] == list(range(shown))
    with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as again:
        assert hello(again, None)["log"] == whole["log"]


def test_bad_messages_get_errors_and_change_nothing(client: TestClient) -> None:
    table, tokens = seated(client)
    actor = client.get(f"/api/tables/{table}").json()["to_act"]
    other = 1 - actor
    with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as ws:
        current = hello(ws, tokens[str(other)])
        version = current["version"]
        for message, code in [
            ("not json", "bad_request"),
            ('["a"]', "bad_request"),
            ('{"type": "dance"}', "bad_request"),
            ('{"type": "%s"}' % ("d" * 60_000), "bad_request"),
            ('{"type": [[[1]]]}', "bad_request"),
            ('{"type": "move", "version": 0, "action": %s}' % ("9" * 5000), "bad_request"),
            ('{"type": "move", "version": 0, "action": NaN}', "bad_request"),
            ('{"type": "move", "version": "1", "action": 2}', "bad_request"),
            ('{"type": "hello", "token": null}', "bad_request"),
            ('{"type": "move", "version": %d, "action": 0}' % version, "not_your_turn"),
            ('{"type": "move", "version": %d, "action": 0}' % (version - 1), "stale_version"),
            ('{"type": "move", "action": 0, "version": 0, "x": "%s"}' % ("y" * 70_000), "too_large"),
        ]:
            ws.send_text(message)
            reply = ws.receive_json()
            while reply["type"] == "frame":
                reply = ws.receive_json()
            assert reply["type"] == "error" and reply["code"] == code, (message[:40], reply)
            assert reply["message"] and len(reply["message"]) < 200
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
    assert client.get(f"/api/tables/{table}").json()["version"] == version


def test_a_binary_message_gets_an_error_like_any_other_bad_message(client: TestClient) -> None:
    table, tokens = seated(client)
    with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as ws:
        current = hello(ws, tokens["0"])
        ws.send_bytes(b'{"type": "ping"}')
        reply = ws.receive_json()
        assert reply == {"type": "error", "code": "bad_request", "message": "a message is JSON text, not binary"}
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
    with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as ws:
        ws.send_bytes(b'{"type": "hello", "token": null}')
        assert ws.receive_json()["code"] == "bad_request"
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    assert client.get(f"/api/tables/{table}").json()["version"] == current["version"]


def test_a_spectator_cannot_move_and_a_wrong_token_is_refused(client: TestClient) -> None:
    table, tokens = seated(client)
    with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as ws:
        current = hello(ws, None)
        ws.send_json({"type": "move", "version": current["version"], "action": 0})
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["code"] == "bad_token"
    with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as ws:
        ws.send_json({"type": "hello", "token": "z" * 32})
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["code"] == "bad_token"
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    with client.websocket_connect(f"/ws/tables/missing", headers=ORIGIN) as ws:
        ws.send_json({"type": "hello", "token": None})
        assert ws.receive_json()["code"] == "not_found"


def test_websocket_messages_beyond_the_rate_are_refused(sqlite_url: str) -> None:
    with TestClient(create_app(config(sqlite_url, rate=0.001, burst=3))) as client:
        table, tokens = seated(client)
        with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as ws:
            hello(ws, None)
            replies = []
            for _ in range(4):
                ws.send_json({"type": "ping"})
                replies.append(ws.receive_json())
            assert replies[:3] == [{"type": "pong"}] * 3
            assert replies[3]["type"] == "error" and replies[3]["code"] == "rate_limited"


def test_a_socket_closed_under_the_reader_ends_like_a_client_that_left() -> None:
    """When sending a frame fails the socket is closed; the reader then sees a departure, not an error."""
    import asyncio

    from starlette.websockets import WebSocketDisconnected

    from obelisk.server.sockets import receive

    class Closed:
        async def receive(self) -> dict[str, Any]:
            raise WebSocketDisconnected('WebSocket is not connected. Need to call "accept" first.')

    with pytest.raises(WebSocketDisconnect):
        run_async(receive(Closed(), 1000))  # type: ignore[arg-type]
