"""What one client can take: waiting tables, the lobby's list, websockets, other sites and other host names.

One address may keep only so many tables waiting for players, and a table nobody took expires; the list of
open tables deals each creator's tables in rounds, so a flood cannot push the others out. A POST from
another site, or one that is not JSON, is refused; so is any request or websocket to a host name the server
does not serve (a page whose name was rebound to this server). One address may hold only so many sockets,
and a spectator coming or going makes no frame for anyone else.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from obelisk.cli.serve import allowed_hosts
from obelisk.server.app import LOOPBACK_HOSTS, ServerConfig, client_key, create_app
from obelisk.server.tables import LIST_LENGTH, Tables
from tests.server.conftest import HUMANS, ORIGIN, bearer, config
from tests.server.test_api import claim, error_of, frame_of, new_table, seated

BOT = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]


@pytest.fixture
def capped(db_url: str) -> Iterator[TestClient]:
    """A server with the caps of ``obelisk serve`` (but the test client's host name and no rate limit)."""
    defaults = ServerConfig()
    with TestClient(create_app(config(db_url, max_waiting=defaults.max_waiting,
                                      max_sockets=defaults.max_sockets))) as client:
        yield client


def tables_of(client: TestClient) -> Tables:
    return client.app.state.tables  # type: ignore[attr-defined]


def on_server(client: TestClient, call: Any) -> Any:
    """``await call()`` on the server's own event loop."""
    assert client.portal is not None
    return client.portal.call(call)


def create_from(client: TestClient, address: str, limit: int | None = None) -> str:
    """A public waiting table created by a client at ``address``."""
    snap, _ = on_server(client, lambda: tables_of(client).create("valley", 2, {}, BOT, True, None, address, limit))
    return snap.id


# ---- waiting tables ---------------------------------------------------------------------------------


def test_one_address_keeps_a_few_tables_waiting_at_most(capped: TestClient) -> None:
    limit = ServerConfig().max_waiting
    made = [new_table(capped, seats=BOT) for _ in range(limit)]
    message = error_of(capped.post("/api/tables", json={"game": "valley", "seats": BOT}), 429, "too_many_tables")
    assert f"at most {limit}" in message
    assert capped.post("/api/tables", json={"game": "valley", "seats": BOTS}).status_code == 201  # waits for nobody
    create_from(capped, "203.0.113.9", limit)  # another address has its own count
    table, invites = made[0]
    claim(capped, table, invites["0"])
    assert capped.get(f"/api/tables/{table}").json()["status"] == "playing"
    new_table(capped, seats=BOT)  # the table that started freed its place
    error_of(capped.post("/api/tables", json={"game": "valley", "seats": BOT}), 429, "too_many_tables")


def test_a_table_nobody_took_expires_and_frees_its_place(capped: TestClient) -> None:
    limit = ServerConfig().max_waiting
    playing, tokens = seated(capped, seats=HUMANS, public=True)
    waiting = [new_table(capped, seats=HUMANS, public=True) for _ in range(limit)]
    error_of(capped.post("/api/tables", json={"game": "valley", "seats": BOT}), 429, "too_many_tables")
    assert on_server(capped, lambda: tables_of(capped).expire(timedelta(hours=1))) == ()
    expired = on_server(capped, lambda: tables_of(capped).expire(timedelta(0)))
    assert sorted(expired) == sorted(table for table, _ in waiting)
    table, invites = waiting[0]
    assert capped.get(f"/api/tables/{table}").json()["status"] == "expired"
    assert [t["id"] for t in capped.get("/api/tables").json()["tables"]] == [playing]
    assert capped.get("/api/tables?status=waiting").json() == {"tables": []}
    error_of(capped.post(f"/api/tables/{table}/claim", json={"token": invites["0"]}), 409, "expired")
    error_of(capped.post(f"/api/tables/{table}/join", json={"seat": 1, "name": "Cleo"}), 409, "expired")
    assert capped.get(f"/api/tables/{table}").json()["seats"][0]["claimed"] is False
    new_table(capped, seats=BOT)
    assert capped.get(f"/api/tables/{playing}").json()["status"] == "playing"
    assert frame_of(capped, playing, tokens["0"])["seat"] == 0


def test_a_flood_of_tables_from_one_address_hides_no_one_elses(client: TestClient) -> None:
    early = create_from(client, "198.51.100.7")
    flood = [create_from(client, "203.0.113.9") for _ in range(LIST_LENGTH + 20)]
    listed = [t["id"] for t in client.get("/api/tables?status=waiting").json()["tables"]]
    assert len(listed) == LIST_LENGTH
    assert listed[:2] == [flood[-1], early]  # every creator's newest table first, newest first
    assert listed[2:] == flood[::-1][1:LIST_LENGTH - 1]


# ---- other sites and other host names -------------------------------------------------------------


def test_another_site_cannot_send_changes_from_a_players_browser(client: TestClient) -> None:
    body = '{"game": "valley", "public": true}'
    error_of(client.post("/api/tables", content=body, headers={"content-type": "text/plain"}), 415, "not_json")
    error_of(client.post("/api/tables", data={"game": "valley"}), 415, "not_json")
    error_of(client.post("/api/tables", content=body, headers={"content-type": "text/plain",
                                                               "origin": "http://evil.example"}), 403, "cross_origin")
    error_of(client.post("/api/tables", json={"game": "valley", "public": True},
                         headers={"origin": "http://testserver.evil.example"}), 403, "cross_origin")
    error_of(client.post("/api/tables", json={"game": "valley", "public": True}, headers={"origin": "null"}), 403,
             "cross_origin")
    assert client.get("/api/tables").json() == {"tables": []}
    table, tokens = seated(client)
    token = tokens[str(client.get(f"/api/tables/{table}").json()["to_act"])]
    before = frame_of(client, table, token)
    move = {"version": before["version"], "action": before["legal"][0][0]}
    error_of(client.post(f"/api/tables/{table}/moves", json=move, headers={**bearer(token),
                                                                          "origin": "http://evil.example"}),
             403, "cross_origin")
    assert frame_of(client, table, token) == before
    made = client.post("/api/tables", content=body,
                       headers={**ORIGIN, "content-type": "application/json; charset=utf-8"})
    assert made.status_code == 201  # this server's own page
    assert client.post(f"/api/tables/{table}/moves", json=move, headers=bearer(token)).status_code == 200  # a script


def test_only_the_servers_own_host_names_are_served(sqlite_url: str) -> None:
    with TestClient(create_app(config(sqlite_url, allowed_hosts=LOOPBACK_HOSTS))) as client:
        for base in ("http://localhost:8000", "http://127.0.0.1:8000", "http://[::1]:8000"):
            assert client.get(f"{base}/api/games").status_code == 200
        for base in ("http://evil.example:8000", "http://localhost.evil.example", "http://testserver"):
            refused = client.get(f"{base}/api/games")
            assert refused.status_code == 400 and "host" in refused.text.lower()
        created = client.post("http://localhost:8000/api/tables", json={"game": "valley", "seats": BOT}).json()
        table = created["table"]["id"]
        with pytest.raises(WebSocketDenialResponse) as denied:
            with client.websocket_connect(f"ws://evil.example:8000/ws/tables/{table}",
                                          headers={"origin": "http://evil.example:8000"}):
                pass
        assert denied.value.status_code == 400
        with client.websocket_connect(f"ws://localhost:8000/ws/tables/{table}",
                                      headers={"origin": "http://localhost:8000"}) as ws:
            ws.send_json({"type": "hello", "token": None})
            assert ws.receive_json()["type"] == "frame"
    with TestClient(create_app(config(sqlite_url, allowed_hosts=(*LOOPBACK_HOSTS, "*.example.org")))) as client:
        assert client.get("http://games.example.org/api/games").status_code == 200
        assert client.get("http://example.org.evil.example/api/games").status_code == 400


def test_the_served_names_default_to_this_machine_and_the_listening_name() -> None:
    assert ServerConfig().allowed_hosts == LOOPBACK_HOSTS == ("localhost", "127.0.0.1", "[::1]")
    assert allowed_hosts("127.0.0.1", []) == LOOPBACK_HOSTS
    assert allowed_hosts("0.0.0.0", []) == LOOPBACK_HOSTS
    assert allowed_hosts("::", ["Games.Example.org"]) == (*LOOPBACK_HOSTS, "games.example.org")
    assert allowed_hosts("tables.local", []) == (*LOOPBACK_HOSTS, "tables.local")
    assert allowed_hosts("192.168.1.5", ["*.example.org"]) == (*LOOPBACK_HOSTS, "192.168.1.5", "*.example.org")
    assert allowed_hosts("fe80::1", []) == (*LOOPBACK_HOSTS, "[fe80::1]")


# ---- websockets -----------------------------------------------------------------------------------


def test_one_address_holds_a_few_sockets_at_most(sqlite_url: str) -> None:
    with TestClient(create_app(config(sqlite_url, max_sockets=3))) as client:
        table, _ = seated(client)
        with contextlib.ExitStack() as stack:
            for _ in range(3):
                ws = stack.enter_context(client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN))
                ws.send_json({"type": "hello", "token": None})
                assert ws.receive_json()["type"] == "frame"
            with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as extra:
                refused = extra.receive_json()
                assert refused["code"] == "too_many_sockets" and "at most 3" in refused["message"]
                with pytest.raises(WebSocketDisconnect):
                    extra.receive_json()
        with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as again:
            again.send_json({"type": "hello", "token": None})
            assert again.receive_json()["type"] == "frame"


def test_the_client_address_is_an_ipv6_network_or_the_address() -> None:
    def key(host: str) -> str:
        seen: Any = type("Seen", (), {"client": type("Address", (), {"host": host})()})()
        return client_key(seen)

    assert key("203.0.113.9") == "203.0.113.9"
    assert key("2001:db8:1:2:aaaa::1") == key("2001:db8:1:2:bbbb::7") == "2001:db8:1:2::/64"
    assert key("2001:db8:1:3::1") != key("2001:db8:1:2::1")
    assert key("::ffff:203.0.113.9") == "203.0.113.9"
    assert key("testclient") == "testclient"


def test_spectators_coming_and_going_send_the_others_nothing(client: TestClient) -> None:
    table, tokens = seated(client)

    def hello(ws: Any, token: str | None) -> dict[str, Any]:
        ws.send_json({"type": "hello", "token": token})
        message = ws.receive_json()
        assert message["type"] == "frame"
        return message

    def quiet(ws: Any) -> None:
        """Nothing was queued for ``ws``: its ping is answered first."""
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}

    def connected(message: dict[str, Any]) -> list[bool]:
        return [seat["connected"] for seat in message["table"]["seats"]]

    with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as mine:
        assert connected(hello(mine, tokens["0"])) == [True, False]
        for _ in range(5):
            with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as spectator:
                hello(spectator, None)
        quiet(mine)
        with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as theirs:
            hello(theirs, tokens["1"])
            assert connected(mine.receive_json()) == [True, True]
            with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as second:
                hello(second, tokens["1"])
            quiet(mine)
        assert connected(mine.receive_json()) == [True, False]
        quiet(mine)
