"""Seat tokens: an invite claims its seat once, and only the claimer then holds a token that opens it.

Whoever creates a table receives every seat's invite, to send them on. A claim answers a new token that
only the claimer receives; from then on the invite opens nothing (no frame, move, undo, hand-over,
rename, rematch or websocket), so the creator cannot read or play a friend's seat. Before its claim an
invite opens nothing but the claim either: the seat's hand is nobody's to see. A websocket whose token
stops opening its seat is told ``bad_token`` and closed before it is sent anything of the seat's new holder.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from obelisk.server.app import create_app
from obelisk.server.tables import ApiError, Snapshot, Tables, hash_token
from tests.server.conftest import HUMANS, ORIGIN, POSTGRES, bearer, config, processes, run_async
from tests.server.test_api import claim, error_of, frame_of, new_table, seated

ANN_AND_BOB = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


def refused_everywhere(client: TestClient, table: str, token: str, code: str) -> None:
    """``token`` opens seat 1 nowhere: every request that takes a seat token answers ``code`` and changes nothing."""
    before = client.get(f"/api/tables/{table}").json()
    version = before["version"]
    error_of(client.get(f"/api/tables/{table}/frame", headers=bearer(token)), 403, code)
    error_of(client.post(f"/api/tables/{table}/moves", headers=bearer(token), json={"version": version, "action": 0}),
             403, code)
    error_of(client.post(f"/api/tables/{table}/undo", headers=bearer(token), json={"version": version}), 403, code)
    error_of(client.post(f"/api/tables/{table}/seats/1/bot", headers=bearer(token), json={"bot": "random"}), 403, code)
    error_of(client.post(f"/api/tables/{table}/seats/1/human", headers=bearer(token), json={}), 403, code)
    error_of(client.post(f"/api/tables/{table}/rematch", headers=bearer(token), json={}), 403, code)
    if code == "invite_used":
        error_of(client.post(f"/api/tables/{table}/claim", json={"token": token, "name": "Mallory"}), 403, code)
    with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as ws:
        ws.send_json({"type": "hello", "token": token})
        assert ws.receive_json()["code"] == code
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    after = client.get(f"/api/tables/{table}").json()
    assert (after["version"], after["updated"], after["seats"]) == (version, before["updated"], before["seats"])


def test_the_creator_keeps_no_usable_token_of_a_seat_a_friend_claimed(client: TestClient) -> None:
    table, invites = new_table(client, seats=ANN_AND_BOB)
    _, ann = claim(client, table, invites["0"])
    seat, bob = claim(client, table, invites["1"])
    assert seat == 1 and bob != invites["1"]
    assert frame_of(client, table, bob)["seat"] == 1 and frame_of(client, table, ann)["seat"] == 0
    refused_everywhere(client, table, invites["1"], "invite_used")
    assert client.get(f"/api/tables/{table}").json()["seats"][1]["name"] == "Bob"


def test_an_invite_opens_nothing_but_its_claim_until_it_is_claimed(client: TestClient) -> None:
    table, invites = new_table(client, seats=ANN_AND_BOB)
    _, ann = claim(client, table, invites["0"])
    refused_everywhere(client, table, invites["1"], "not_claimed")
    seat, bob = claim(client, table, invites["1"], "Bob B")
    assert seat == 1 and frame_of(client, table, bob)["seat"] == 1
    assert client.get(f"/api/tables/{table}").json()["status"] == "playing"


def test_a_join_takes_the_seat_from_its_invite(client: TestClient) -> None:
    table, invites = new_table(client, seats=ANN_AND_BOB, public=True)
    claim(client, table, invites["0"])
    joined = client.post(f"/api/tables/{table}/join", json={"seat": 1, "name": "Cleo"}).json()
    assert frame_of(client, table, joined["token"])["seat"] == 1
    refused_everywhere(client, table, invites["1"], "invite_used")


def test_a_seat_claimed_again_with_its_own_token_keeps_it(client: TestClient) -> None:
    """A page opened again presents the token it keeps: same seat, same token, nothing written unless renamed."""
    table, tokens = seated(client, seats=ANN_AND_BOB)
    before = client.get(f"/api/tables/{table}").json()
    again = client.post(f"/api/tables/{table}/claim", json={"token": tokens["1"]}).json()
    assert again == {"seat": 1, "token": tokens["1"]}
    same_name = client.post(f"/api/tables/{table}/claim", json={"token": tokens["1"], "name": "P1"}).json()
    assert same_name == {"seat": 1, "token": tokens["1"]}
    assert client.get(f"/api/tables/{table}").json()["updated"] == before["updated"]
    renamed = client.post(f"/api/tables/{table}/claim", json={"token": tokens["1"], "name": "Bobby"}).json()
    assert renamed == {"seat": 1, "token": tokens["1"]}
    assert client.get(f"/api/tables/{table}").json()["seats"][1]["name"] == "Bobby"
    assert frame_of(client, table, tokens["1"])["seat"] == 1


def test_the_claim_answers_the_only_copy_of_the_new_token(client: TestClient) -> None:
    created = client.post("/api/tables", json={"game": "valley", "players": 2, "seats": ANN_AND_BOB}).json()
    table = created["table"]["id"]
    answer = client.post(f"/api/tables/{table}/claim", json={"token": created["tokens"]["1"]}).json()
    for response in (client.get(f"/api/tables/{table}"), client.get(f"/api/tables/{table}/frame"),
                     client.get("/api/tables"), client.get(f"/api/tables/{table}/frame",
                                                           headers=bearer(answer["token"]))):
        assert answer["token"] not in response.text and hash_token(answer["token"]) not in response.text


def test_two_claims_of_one_invite_seat_one_player(db_url: str) -> None:
    """Claims racing through two processes: one gets the seat, the other is refused, and one token opens it."""
    async def run() -> None:
        async with processes(db_url) as (here, there):
            snap, invites = await here.create("valley", 2, {}, HUMANS, False, None)
            results = await asyncio.gather(here.claim(snap.id, invites[1], "Ann"),
                                           there.claim(snap.id, invites[1], "Mallory"), return_exceptions=True)
            won = [r for r in results if not isinstance(r, BaseException)]
            lost = [r for r in results if isinstance(r, BaseException)]
            assert len(won) == 1 and len(lost) == 1
            assert isinstance(lost[0], ApiError) and lost[0].code in ("invite_used", "seat_taken")
            fresh = Tables(here.engine)
            try:
                current = await fresh.snapshot(snap.id)
                assert current.seat_of(won[0][1]) == 1
                with pytest.raises(ApiError):
                    current.seat_of(invites[1])
            finally:
                await fresh.close()

    run_async(run())


# ---- websockets whose token stops opening their seat ------------------------------------------------


def replace_token(client: TestClient, table: str, seat: int, token: str) -> None:
    """Write a new token for ``seat`` through the table's own write path, as a claim or a join does for a seat
    (the server never replaces a claimed seat's token itself: the websocket check is its second line)."""
    tables: Tables = client.app.state.tables  # type: ignore[attr-defined]

    async def write() -> None:
        def change(snap: Snapshot) -> tuple[Any, None]:
            return tables.committer.set_seat(snap, seat, dict(token_hash=hash_token(token))), None

        await tables.write(table, change)

    assert client.portal is not None
    client.portal.call(write)


def seat_lost(ws: Any) -> None:
    """The socket gets ``bad_token`` (after any frames of its own holder) and is closed; nothing else."""
    while True:
        message = ws.receive_json()
        if message["type"] == "error":
            break
        assert message["type"] == "frame" and message["seat"] == 1
    assert message["code"] == "bad_token"
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    assert closed.value.code == 1008


def test_a_socket_opened_with_an_invite_never_sees_the_hand_of_whoever_joins(client: TestClient) -> None:
    table, invites = new_table(client, seats=ANN_AND_BOB, public=True)
    claim(client, table, invites["0"])
    with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as early:
        early.send_json({"type": "hello", "token": invites["1"]})
        assert early.receive_json()["code"] == "not_claimed"
        joined = client.post(f"/api/tables/{table}/join", json={"seat": 1, "name": "Cleo"}).json()
        with pytest.raises(WebSocketDisconnect):
            early.receive_json()
    assert frame_of(client, table, joined["token"])["seat"] == 1


def test_a_socket_whose_token_is_replaced_is_closed_at_once(client: TestClient) -> None:
    table, tokens = seated(client, seats=ANN_AND_BOB)
    with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as old, \
            client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as watcher:
        old.send_json({"type": "hello", "token": tokens["1"]})
        assert old.receive_json()["seat"] == 1
        watcher.send_json({"type": "hello", "token": None})
        assert watcher.receive_json()["seat"] is None
        replace_token(client, table, 1, "the-new-holders-token-0123456789")
        seat_lost(old)
        assert watcher.receive_json()["type"] == "frame"
    assert frame_of(client, table, "the-new-holders-token-0123456789")["seat"] == 1
    error_of(client.get(f"/api/tables/{table}/frame", headers=bearer(tokens["1"])), 403, "bad_token")


@pytest.mark.skipif(not POSTGRES, reason="set OBELISK_TEST_POSTGRES to run the PostgreSQL tests")
def test_a_socket_is_closed_when_another_process_replaces_its_token(tmp_path: Any) -> None:
    """Two servers on one PostgreSQL: the token replaced through one closes the socket held by the other."""
    from tests.server.conftest import fresh_postgres

    url, drop = fresh_postgres()
    try:
        with TestClient(create_app(config(url))) as first, TestClient(create_app(config(url))) as second:
            table, tokens = seated(first, seats=ANN_AND_BOB)
            with second.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as old:
                old.send_json({"type": "hello", "token": tokens["1"]})
                assert old.receive_json()["seat"] == 1
                replace_token(first, table, 1, "the-new-holders-token-0123456789")
                seat_lost(old)
            assert frame_of(second, table, "the-new-holders-token-0123456789")["seat"] == 1
    finally:
        drop()
