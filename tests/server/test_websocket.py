"""The table websocket: same origin only, a frame per seat after every change, clear errors."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from obelisk.server.app import create_app
from tests.server.conftest import ORIGIN, config
from tests.server.test_api import seated


def hello(ws: Any, token: str | None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token})
    message = ws.receive_json()
    assert message["type"] == "frame", message
    return message


def next_frame(ws: Any, version: int) -> dict[str, Any]:
    """The first frame at ``version`` or later (frames in between may be coalesced)."""
    while True:
        message = ws.receive_json()
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
        frames = {0: hello(ws0, tokens["0"]), 1: hello(ws1, tokens["1"]), None: hello(spectator, None)}
        assert {seat: f["seat"] for seat, f in frames.items()} == {0: 0, 1: 1, None: None}
        for _ in range(6):
            actor = frames[None]["table"]["to_act"]
            mover = frames[actor]
            if not mover["legal"]:
                mover = frames[actor] = next_frame(sockets[actor], mover["version"] + 1)
            sockets[actor].send_json({"type": "move", "version": mover["version"], "action": mover["legal"][0][0]})
            version = mover["version"] + 1
            frames = {seat: next_frame(ws, version) for seat, ws in sockets.items()}
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
            assert reply["message"]
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
    assert client.get(f"/api/tables/{table}").json()["version"] == version


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

    from obelisk.server.app import _receive

    class Closed:
        async def receive_text(self) -> str:
            raise WebSocketDisconnected('WebSocket is not connected. Need to call "accept" first.')

    with pytest.raises(WebSocketDisconnect):
        asyncio.run(_receive(Closed(), 1000))  # type: ignore[arg-type]
