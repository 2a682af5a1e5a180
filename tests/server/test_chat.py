"""The table chat: who reads which channel, every refusal changing nothing, and a chat apart from the game."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from starlette.testclient import TestClient

from obelisk.server.app import create_app
from tests.server.conftest import ORIGIN, POSTGRES, bearer, config, fresh_postgres
from tests.server.test_api import claim, error_of, frame_of, new_table, seated
from tests.server.test_limits import on_server, tables_of

QUICK_TOMB = {"max_rounds": 1}
"""A Tomb of one round: six decisions end it, so a finished table costs no whole game."""


def say(client: TestClient, table: str, text: str, token: str | None = None, **extra: Any) -> Any:
    return client.post(f"/api/tables/{table}/chat", json={"text": text, **extra},
                       headers=bearer(token) if token else {})


def said(client: TestClient, table: str, text: str, token: str | None = None, **extra: Any) -> dict[str, Any]:
    response = say(client, table, text, token, **extra)
    assert response.status_code == 201, response.text
    return response.json()["line"]


def read(client: TestClient, table: str, token: str | None = None) -> list[dict[str, Any]]:
    response = client.get(f"/api/tables/{table}/chat", headers=bearer(token) if token else {})
    assert response.status_code == 200, response.text
    return response.json()["lines"]


def texts(lines: list[dict[str, Any]]) -> list[str]:
    return [line["text"] for line in lines]


def chat_hello(ws: Any, token: str | None) -> list[dict[str, Any]]:
    """Say hello asking for the chat; the chat lines the socket is sent first (after its first frame)."""
    ws.send_json({"type": "hello", "token": token, "chat": True})
    return next_chat(ws)


def next_chat(ws: Any) -> list[dict[str, Any]]:
    """The lines of the socket's next chat message (frames before it skipped); an error fails the test."""
    while True:
        message = ws.receive_json()
        assert message["type"] != "error", message
        if message["type"] == "chat":
            return message["lines"]


def next_error(ws: Any) -> dict[str, Any]:
    while True:
        message = ws.receive_json()
        assert message["type"] != "chat", message
        if message["type"] == "error":
            return message


def finish(client: TestClient, table: str, tokens: dict[str, str]) -> None:
    """Play a one-round Tomb to its end, each seat to act taking its first legal action."""
    for _ in range(50):
        current = frame_of(client, table)
        if current["status"] == "finished":
            return
        token = tokens[str(current["table"]["to_act"])]
        mine = frame_of(client, table, token)
        client.post(f"/api/tables/{table}/moves", headers=bearer(token),
                    json={"version": mine["version"], "action": mine["legal"][0][0]})
    raise AssertionError("the one-round game did not end")


def test_players_lines_reach_every_reader_and_spectators_lines_only_spectators(client: TestClient) -> None:
    table, tokens = seated(client)
    mine = said(client, table, "  good luck  ", tokens["0"])
    assert {k: v for k, v in mine.items() if k not in ("id", "time")} == {
        "channel": "players", "seat": 0, "name": "P0", "text": "good luck"}
    watcher = said(client, table, "nice opening", name="Eve")
    anonymous = said(client, table, "hello all")
    assert (watcher["channel"], watcher["seat"], watcher["name"]) == ("spectators", None, "Eve")
    assert anonymous["name"] == ""
    for token in tokens.values():
        assert texts(read(client, table, token)) == ["good luck"]
        answer = client.get(f"/api/tables/{table}/chat", headers=bearer(token)).json()
        assert answer["channels"] == ["players"]
    assert texts(read(client, table)) == ["good luck", "nice opening", "hello all"]
    assert client.get(f"/api/tables/{table}/chat").json()["channels"] == ["players", "spectators"]


def test_lines_reach_the_sockets_that_may_read_them(client: TestClient) -> None:
    table, tokens = seated(client)
    said(client, table, "before anyone came", tokens["1"])
    said(client, table, "spectators only, from before", name="Eve")
    url = f"/ws/tables/{table}"
    with client.websocket_connect(url, headers=ORIGIN) as ws0, client.websocket_connect(url, headers=ORIGIN) as ws1, \
            client.websocket_connect(url, headers=ORIGIN) as spectator:
        assert texts(chat_hello(ws0, tokens["0"])) == ["before anyone came"]
        assert texts(chat_hello(ws1, tokens["1"])) == ["before anyone came"]
        assert texts(chat_hello(spectator, None)) == ["before anyone came", "spectators only, from before"]

        ws0.send_json({"type": "chat", "text": "over the socket"})
        for ws in (ws0, ws1, spectator):
            (line,) = next_chat(ws)
            assert (line["text"], line["seat"], line["channel"]) == ("over the socket", 0, "players")

        spectator.send_json({"type": "chat", "text": "players cannot read this", "name": "Eve"})
        assert texts(next_chat(spectator)) == ["players cannot read this"]
        said(client, table, "nor this", name="Mallory")
        assert texts(next_chat(spectator)) == ["nor this"]
        said(client, table, "the next players' line", tokens["1"])
        for ws in (ws0, ws1):
            assert texts(next_chat(ws)) == ["the next players' line"], "a spectators' line reached a player"
        assert texts(next_chat(spectator)) == ["the next players' line"]


def test_a_socket_that_does_not_ask_for_the_chat_gets_no_lines(client: TestClient) -> None:
    table, tokens = seated(client)
    with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as ws:
        ws.send_json({"type": "hello", "token": tokens["0"]})
        assert ws.receive_json()["type"] == "frame"
        said(client, table, "not for this socket", tokens["1"])
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


BAD_LINES = [
    ({"text": ""}, 400, "chat_empty", "1 to 300"),
    ({"text": "   \u3000 "}, 400, "chat_empty", "1 to 300"),
    ({"text": "x" * 301}, 400, "chat_too_long", "at most 300 characters, this one has 301"),
    ({"text": "y" * 5000}, 400, "chat_too_long", "this one has 5000"),
    ({"text": "two\nlines"}, 400, "chat_control", "U+000A at character 4"),
    ({"text": "bell\u0007"}, 400, "chat_control", "U+0007"),
    ({"text": "gg \u202eevil"}, 400, "chat_control", "U+202E"),
    ({"text": 3}, 400, "bad_request", "text"),
    ({"text": "hi", "colour": "red"}, 400, "bad_request", "colour"),
    ({}, 400, "bad_request", "text"),
]


def test_bad_lines_are_refused_saying_why_and_store_nothing(client: TestClient) -> None:
    table, tokens = seated(client)
    for body, status, code, words in BAD_LINES:
        for token in (tokens["0"], None):
            response = client.post(f"/api/tables/{table}/chat", json=body, headers=bearer(token) if token else {})
            assert words in error_of(response, status, code), body
    assert read(client, table) == []


def test_a_line_of_exactly_300_characters_is_taken(client: TestClient) -> None:
    table, tokens = seated(client)
    assert len(said(client, table, "é" * 300, tokens["0"])["text"]) == 300


def test_a_player_writes_under_their_seat_and_a_spectator_under_a_valid_name(client: TestClient) -> None:
    table, tokens = seated(client)
    assert "send no name" in error_of(say(client, table, "hi", tokens["0"], name="Someone"), 400, "bad_request")
    assert "printable" in error_of(say(client, table, "hi", name="x" * 41), 400, "bad_request")
    assert "printable" in error_of(say(client, table, "hi", name="Eve\u0000"), 400, "bad_request")
    assert said(client, table, "hi", name="  Eve   the  watcher ")["name"] == "Eve the watcher"
    assert texts(read(client, table)) == ["hi"]


def test_a_flood_is_refused_saying_when_to_write_again(db_url: str) -> None:
    with TestClient(create_app(config(db_url, chat_lines=3, chat_seconds=30.0))) as client:
        table, tokens = seated(client)
        for n in range(3):
            said(client, table, f"line {n}", tokens["0"])
        refused = say(client, table, "one too many", tokens["0"])
        message = error_of(refused, 429, "chat_too_fast")
        assert refused.json()["error"]["retry_after"] == int(refused.headers["retry-after"])
        assert 1 <= refused.json()["error"]["retry_after"] <= 10
        assert "at most 3 chat lines in 30 s; write again in" in message
        said(client, table, "the other seat still may", tokens["1"])
        for n in range(3):
            said(client, table, f"watcher {n}", name="Eve")
        error_of(say(client, table, "a new name buys nothing", name="Eve2"), 429, "chat_too_fast")
        with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as ws:
            chat_hello(ws, tokens["0"])
            ws.send_json({"type": "chat", "text": "nor a socket"})
            error = next_error(ws)
            assert error["code"] == "chat_too_fast" and error["retry_after"] >= 1
        assert texts(read(client, table)) == ["line 0", "line 1", "line 2", "the other seat still may",
                                              "watcher 0", "watcher 1", "watcher 2"]


def test_a_channel_that_holds_its_most_lines_takes_no_more_and_the_other_channel_still_does(db_url: str) -> None:
    with TestClient(create_app(config(db_url, chat_table_lines=2, chat_lines=20))) as client:
        table, tokens = seated(client)
        said(client, table, "one", tokens["0"])
        said(client, table, "two", tokens["1"])
        message = error_of(say(client, table, "three", tokens["0"]), 409, "chat_full")
        assert "players' chat holds its most lines (2)" in message
        said(client, table, "a spectator's line", name="Eve")
        assert texts(read(client, table)) == ["one", "two", "a spectator's line"]


def test_bad_lines_over_the_socket_get_errors_and_store_nothing(client: TestClient) -> None:
    table, tokens = seated(client)
    with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as ws:
        chat_hello(ws, tokens["0"])
        for message, code in [({"type": "chat", "text": "x" * 301}, "chat_too_long"),
                              ({"type": "chat", "text": " "}, "chat_empty"),
                              ({"type": "chat", "text": "a\tb"}, "chat_control"),
                              ({"type": "chat", "text": "hi", "name": "Me"}, "bad_request"),
                              ({"type": "chat"}, "bad_request")]:
            ws.send_json(message)
            assert next_error(ws)["code"] == code
    assert read(client, table) == []


def test_markup_is_stored_verbatim_and_served_as_a_json_string(client: TestClient) -> None:
    table, tokens = seated(client)
    markup = '<b>hi</b><img src=x onerror="alert(1)">'
    said(client, table, markup, tokens["0"])
    response = client.get(f"/api/tables/{table}/chat", headers=bearer(tokens["1"]))
    assert response.headers["content-type"].startswith("application/json")
    assert texts(response.json()["lines"]) == [markup]
    assert '"text":"<b>hi</b><img src=x onerror=\\"alert(1)\\">"' in response.text


def test_forged_and_other_tables_tokens_are_refused(client: TestClient) -> None:
    table, tokens = seated(client)
    other, other_tokens = seated(client)
    waiting, invites = new_table(client)
    for token, code in ((other_tokens["0"], "bad_token"), ("forged" * 6, "bad_token"), (tokens["0"] + "x", "bad_token")):
        error_of(say(client, table, "let me in", token), 403, code)
        error_of(client.get(f"/api/tables/{table}/chat", headers=bearer(token)), 403, code)
    error_of(say(client, waiting, "an invite is not a seat", invites["0"]), 403, "not_claimed")
    error_of(client.post(f"/api/tables/{table}/chat", json={"text": "x"}, headers={"Authorization": "Basic abc"}),
             403, "bad_token")
    error_of(say(client, "nope", "anyone?"), 404, "not_found")
    with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as ws:
        ws.send_json({"type": "hello", "token": other_tokens["0"], "chat": True})
        assert ws.receive_json()["code"] == "bad_token"
    assert read(client, table) == [] and read(client, other) == []


def test_a_chat_post_is_json_from_the_servers_own_pages_only(client: TestClient) -> None:
    table, tokens = seated(client)
    error_of(client.post(f"/api/tables/{table}/chat", content="text=hi", headers={
        "content-type": "application/x-www-form-urlencoded", **bearer(tokens["0"])}), 415, "not_json")
    error_of(client.post(f"/api/tables/{table}/chat", json={"text": "hi"}, headers={
        "origin": "http://evil.example", **bearer(tokens["0"])}), 403, "cross_origin")
    assert read(client, table) == []


def test_chat_changes_no_frame_and_no_record_and_the_replay_shows_both_channels(client: TestClient) -> None:
    table, tokens = seated(client, game="tomb", options=QUICK_TOMB)
    frames = {seat: frame_of(client, table, token) for seat, token in tokens.items()}
    spectator = frame_of(client, table)
    said(client, table, "I hold the scarab", tokens["0"])
    said(client, table, "player 1 bluffs", name="Eve")
    assert {seat: frame_of(client, table, token) for seat, token in tokens.items()} == frames
    assert frame_of(client, table) == spectator
    finish(client, table, tokens)
    record = client.get(f"/api/tables/{table}/record").content
    said(client, table, "well played", tokens["1"])
    said(client, table, "bravo", name="Eve")
    assert client.get(f"/api/tables/{table}/record").content == record
    assert b"scarab" not in record and b"bravo" not in record
    everything = ["I hold the scarab", "player 1 bluffs", "well played", "bravo"]
    for token in (tokens["0"], tokens["1"], None):
        assert texts(read(client, table, token)) == everything
    assert client.get(f"/api/tables/{table}/chat", headers=bearer(tokens["0"])).json()["channels"] == [
        "players", "spectators"]


def test_chat_survives_a_restart(db_url: str) -> None:
    with TestClient(create_app(config(db_url))) as first:
        table, tokens = seated(first)
        said(first, table, "see you after the restart", tokens["0"])
        said(first, table, "me too", name="Eve")
    with TestClient(create_app(config(db_url))) as second:
        assert texts(read(second, table, tokens["1"])) == ["see you after the restart"]
        assert texts(read(second, table)) == ["see you after the restart", "me too"]
        with second.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as ws:
            assert texts(chat_hello(ws, tokens["1"])) == ["see you after the restart"]


def test_an_expired_table_takes_no_lines(client: TestClient) -> None:
    table, invites = new_table(client)
    _, token = claim(client, table, invites["0"])
    assert on_server(client, lambda: tables_of(client).expire(timedelta(0))) == (table,)
    error_of(say(client, table, "anyone?"), 409, "expired")
    error_of(say(client, table, "anyone?", token), 409, "expired")
    assert read(client, table) == []


@pytest.mark.skipif(not POSTGRES, reason="set OBELISK_TEST_POSTGRES to run the two-process chat test")
def test_a_line_written_through_one_process_reaches_the_sockets_of_another() -> None:
    url, drop = fresh_postgres()
    try:
        with TestClient(create_app(config(url))) as one, TestClient(create_app(config(url))) as other:
            table, tokens = seated(one)
            with other.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as player, \
                    other.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as spectator:
                chat_hello(player, tokens["1"])
                chat_hello(spectator, None)
                said(one, table, "for the spectators", name="Eve")
                said(one, table, "across processes", tokens["0"])
                assert texts(next_chat(player)) == ["across processes"]
                assert texts(next_chat(spectator)) == ["for the spectators"]
                assert texts(next_chat(spectator)) == ["across processes"]
    finally:
        time.sleep(0.1)
        drop()
