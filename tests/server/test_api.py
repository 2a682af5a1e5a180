"""The HTTP API: tables, seats, moves, records, rematches; every refusal clear and harmless."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from starlette.testclient import TestClient

from obelisk.cli import main
from obelisk.core.records import replay_record
from obelisk.core.seeds import verify
from obelisk.server.app import create_app, whole_number
from tests.server.conftest import bearer, config

HUMANS_2 = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
JSON = {"content-type": "application/json"}


def new_table(client: TestClient, game: str = "valley", players: int = 2, seats: Any = HUMANS_2, **extra: Any
              ) -> tuple[str, dict[str, str]]:
    response = client.post("/api/tables", json={"game": game, "players": players, "seats": seats, **extra})
    assert response.status_code == 201, response.text
    body = response.json()
    return body["table"]["id"], body["tokens"]


def claim(client: TestClient, table: str, invite: str, name: str | None = None) -> tuple[int, str]:
    """Claim the seat of ``invite``: its number and the token the claim answers (the invite opens nothing more)."""
    response = client.post(f"/api/tables/{table}/claim", json={"token": invite} if name is None else {
        "token": invite, "name": name})
    assert response.status_code == 200, response.text
    answer = response.json()
    assert set(answer) == {"seat", "token"} and answer["token"] != invite and len(answer["token"]) >= 32
    return answer["seat"], answer["token"]


def seated(client: TestClient, **kwargs: Any) -> tuple[str, dict[str, str]]:
    """A table whose human seats are all claimed, and the seats' tokens the claims answered."""
    table, invites = new_table(client, **kwargs)
    tokens = {}
    for seat, invite in invites.items():
        number, tokens[seat] = claim(client, table, invite, f"P{seat}")
        assert number == int(seat)
    return table, tokens


def frame_of(client: TestClient, table: str, token: str | None = None) -> dict[str, Any]:
    response = client.get(f"/api/tables/{table}/frame", headers=bearer(token) if token else {})
    assert response.status_code == 200, response.text
    return response.json()


def to_act(client: TestClient, table: str, tokens: dict[str, str]) -> tuple[str, dict[str, Any]]:
    seat = str(frame_of(client, table)["table"]["to_act"])
    return tokens[seat], frame_of(client, table, tokens[seat])


def error_of(response: Any, status: int, code: str) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and body["error"]["code"] == code
    assert "Traceback" not in response.text
    return body["error"]["message"]


def wait_for(client: TestClient, table: str, token: str | None, ready: Any, seconds: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        current = frame_of(client, table, token)
        if ready(current):
            return current
        time.sleep(0.01)
    raise AssertionError("the table did not get there in time")


@pytest.mark.one_database  # checked before the database is asked
def test_games_are_listed_with_the_options_a_table_may_set(client: TestClient) -> None:
    games = {g["id"]: g for g in client.get("/api/games").json()}
    assert {"solomon", "tomb", "cleopatra", "valley"} <= set(games)
    assert "tiebreak" in [o["name"] for o in games["valley"]["options"]]
    assert "cards" not in [o["name"] for o in games["valley"]["options"]]


@pytest.mark.one_database  # checked before the database is asked
def test_games_word_option_labels_values_and_units_in_the_readers_language(client: TestClient) -> None:
    english = {g["id"]: g for g in client.get("/api/games").json()}
    czech = {g["id"]: g for g in client.get("/api/games?lang=cs").json()}
    spent = next(o for o in english["valley"]["options"] if o["name"] == "spent_cards")
    assert spent["label"] == "Cards spent on a purchase" and spent["allowed"] == ["play_area", "discard"]
    assert spent["value_labels"] == ["Stay in play until the turn ends", "Go to the discard pile at once"]
    assert spent["rare"] is True
    cs_spent = next(o for o in czech["valley"]["options"] if o["name"] == "spent_cards")
    assert cs_spent["label"] == "Karty utracené za nákup" and cs_spent["allowed"] == spent["allowed"]
    assert cs_spent["value_labels"] == ["Zůstanou ve hře do konce tahu", "Jdou hned na odhazovací hromádku"]
    rounds = next(o for o in czech["tomb"]["options"] if o["name"] == "max_rounds")
    assert (rounds["label"], rounds["unit"], rounds["min"]) == ("Limit kol", "kol", 1)
    assert english["solomon"]["minutes"] == [45, 60] and english["valley"]["turns"][0] >= 10


def test_create_gives_tokens_once_and_the_summary_none(client: TestClient) -> None:
    response = client.post("/api/tables", json={"game": "valley", "players": 2, "public": True, "seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}]})
    assert response.status_code == 201
    body = response.json()
    table = body["table"]
    assert set(body["tokens"]) == {"0"} and len(body["tokens"]["0"]) >= 32
    assert body["invite_urls"] == {"0": f"/table/{table['id']}#token={body['tokens']['0']}"}
    assert body["spectator_url"] == f"/table/{table['id']}"
    assert table["status"] == "waiting" and table["commitment"].startswith("sha256:")
    assert [s["kind"] for s in table["seats"]] == ["human", "bot"]
    assert table["seats"][0]["claimed"] is False and table["seats"][1]["claimed"] is True
    again = client.get(f"/api/tables/{table['id']}").json()
    assert body["tokens"]["0"] not in json.dumps(again)
    assert {"id", "game", "game_name", "players", "options", "seats", "status", "version", "commitment", "public",
            "created", "updated", "rematch"} <= set(again)
    assert [t["id"] for t in client.get("/api/tables?status=waiting").json()["tables"]] == [table["id"]]
    assert client.get("/api/tables?status=playing").json() == {"tables": []}


def test_private_tables_are_not_listed(client: TestClient) -> None:
    new_table(client)
    assert client.get("/api/tables").json() == {"tables": []}


def test_claim_starts_the_game_when_every_seat_is_taken(client: TestClient) -> None:
    table, invites = new_table(client)
    assert claim(client, table, invites["1"], " Bob  B ")[0] == 1
    summary = client.get(f"/api/tables/{table}").json()
    assert summary["status"] == "waiting" and summary["seats"][1]["name"] == "Bob B"
    error_of(client.post(f"/api/tables/{table}/claim", json={"token": "nope" * 8, "name": "X"}), 403, "bad_token")
    _, ann = claim(client, table, invites["0"], "Ann")
    assert client.get(f"/api/tables/{table}").json()["status"] == "playing"
    assert client.get(f"/api/tables/{table}").json()["seats"][0]["name"] == "Ann"
    assert frame_of(client, table, ann)["seat"] == 0


def test_moves_wait_until_every_seat_is_claimed(client: TestClient) -> None:
    table, invites = new_table(client)
    _, bob = claim(client, table, invites["1"])
    summary = client.get(f"/api/tables/{table}").json()
    assert summary["seats"][1]["name"] == "Bob"
    error_of(client.post(f"/api/tables/{table}/moves", headers=bearer(bob),
                         json={"version": summary["version"], "action": 0}), 409, "waiting")


def test_a_seat_nobody_names_stays_unnamed_so_every_page_words_it_in_its_language(client: TestClient) -> None:
    table, tokens = new_table(client, public=True, players=3,
                              seats=[{"kind": "human", "name": "Ann"}, {"kind": "human"}, {"kind": "human"}])
    assert [s["name"] for s in client.get(f"/api/tables/{table}").json()["seats"]] == ["Ann", "", ""]
    first = client.post(f"/api/tables/{table}/claim", json={"token": tokens["0"]}).json()
    second = client.post(f"/api/tables/{table}/claim", json={"token": tokens["1"]}).json()
    assert (first["seat"], second["seat"]) == (0, 1) and second["token"] != tokens["1"]
    assert client.post(f"/api/tables/{table}/join", json={"seat": 2}).status_code == 200
    summary = client.get(f"/api/tables/{table}").json()
    assert [(s["name"], s["claimed"]) for s in summary["seats"]] == [("Ann", True), ("", True), ("", True)]
    error_of(client.post(f"/api/tables/{table}/claim", json={"token": second["token"], "name": "  "}), 400, "bad_request")
    assert client.get(f"/api/tables/{table}").json()["seats"][1]["name"] == ""


def test_join_a_public_tables_free_seat(client: TestClient) -> None:
    table, tokens = new_table(client, public=True)
    body = client.post(f"/api/tables/{table}/join", json={"seat": 1, "name": "Cleo"}).json()
    assert body["seat"] == 1 and body["token"] != tokens["1"]
    assert frame_of(client, table, body["token"])["seat"] == 1
    error_of(client.get(f"/api/tables/{table}/frame", headers=bearer(tokens["1"])), 403, "invite_used")
    error_of(client.post(f"/api/tables/{table}/join", json={"seat": 1, "name": "Dan"}), 409, "seat_taken")
    error_of(client.post(f"/api/tables/{table}/join", json={"seat": 5, "name": "Dan"}), 400, "bad_request")
    private, _ = new_table(client)
    error_of(client.post(f"/api/tables/{private}/join", json={"seat": 0, "name": "Dan"}), 403, "not_public")


def test_a_move_is_applied_once_at_its_version(client: TestClient) -> None:
    table, tokens = seated(client)
    token, current = to_act(client, table, tokens)
    version, action = current["version"], current["legal"][0][0]
    done = client.post(f"/api/tables/{table}/moves", headers=bearer(token), json={"version": version, "action": action})
    assert done.status_code == 200
    after = done.json()["version"]
    assert after > version and frame_of(client, table)["version"] == after
    again = client.post(f"/api/tables/{table}/moves", headers=bearer(token), json={"version": version, "action": action})
    error_of(again, 409, "stale_version")
    error_of(client.post(f"/api/tables/{table}/moves", headers=bearer(token),
                         json={"version": after + 1, "action": action}), 409, "stale_version")
    assert frame_of(client, table)["version"] == after
    assert [e["seq"] for e in frame_of(client, table)["log"]] == list(range(after))


def test_wrong_token_spectator_and_out_of_turn_cannot_move(client: TestClient) -> None:
    table, tokens = seated(client)
    token, current = to_act(client, table, tokens)
    other = next(t for t in tokens.values() if t != token)
    move = {"version": current["version"], "action": current["legal"][0][0]}
    before = frame_of(client, table, token)
    error_of(client.post(f"/api/tables/{table}/moves", json=move), 403, "bad_token")
    error_of(client.post(f"/api/tables/{table}/moves", headers=bearer("x" * 32), json=move), 403, "bad_token")
    error_of(client.post(f"/api/tables/{table}/moves", headers={"Authorization": "Basic abc"}, json=move), 403,
             "bad_token")
    error_of(client.post(f"/api/tables/{table}/moves", headers=bearer(other), json=move), 409, "not_your_turn")
    assert frame_of(client, table, token) == before


@pytest.mark.one_database  # checked before the database is asked
@pytest.mark.parametrize("body, code", [
    ("not json", "bad_request"),
    ("[1, 2]", "bad_request"),
    ('{"version": "0", "action": 1}', "bad_request"),
    ('{"version": 0, "action": true}', "bad_request"),
    ('{"version": 0}', "bad_request"),
    ('{"version": 0, "action": 1, "extra": 1}', "bad_request"),
    ("", "bad_request"),
    ('{"version": 0, "action": %s}' % ("9" * 5000), "bad_request"),
    ('{"version": 0, "action": NaN}', "bad_request"),
])
def test_malformed_moves_are_refused_and_change_nothing(client: TestClient, body: str, code: str) -> None:
    table, tokens = seated(client)
    token, before = to_act(client, table, tokens)
    response = client.post(f"/api/tables/{table}/moves", headers={**bearer(token), "content-type": "application/json"},
                           content=body)
    error_of(response, 400, code)
    assert frame_of(client, table, token) == before


def test_illegal_and_oversized_moves_are_refused(client: TestClient) -> None:
    table, tokens = seated(client)
    token, before = to_act(client, table, tokens)
    legal = {entry[0] for entry in before["legal"]}
    illegal = next(a for a in range(10_000) if a not in legal)
    message = error_of(client.post(f"/api/tables/{table}/moves", headers=bearer(token),
                                   json={"version": before["version"], "action": illegal}), 400, "illegal_action")
    assert message == f"action {illegal} is not one of seat {before['seat']}'s {len(legal)} legal actions now"
    error_of(client.post(f"/api/tables/{table}/moves", headers=bearer(token),
                         json={"version": before["version"], "action": -5}), 400, "illegal_action")
    error_of(client.post(f"/api/tables/{table}/moves", headers=bearer(token),
                         json={"version": before["version"], "action": 10**38}), 400, "illegal_action")
    huge = json.dumps({"version": before["version"], "action": 1, "pad": "x" * 70_000})
    error_of(client.post(f"/api/tables/{table}/moves", headers={**bearer(token), **JSON}, content=huge), 413,
             "too_large")
    assert frame_of(client, table, token) == before


@pytest.mark.one_database  # checked before the database is asked
@pytest.mark.parametrize("number", ["²", "١", "𝟗", "1²", "-1", "+1", "1.0", " 1", "0x1", "1" * 8])
def test_numbers_in_paths_and_queries_are_plain_ascii_digits(client: TestClient, number: str) -> None:
    table, tokens = seated(client)
    before = frame_of(client, table)
    error_of(client.post(f"/api/tables/{table}/seats/{number}/bot", headers=bearer(tokens["0"]), json={}), 400,
             "bad_request")
    error_of(client.get(f"/api/tables/{table}/replay", params={"seat": number}), 400, "bad_request")
    error_of(client.get(f"/api/tables/{table}/replay", params={"step": number}), 400, "bad_request")
    assert frame_of(client, table) == before


def test_a_whole_number_is_ascii_digits_only() -> None:
    assert [whole_number(raw, 3) for raw in ("0", "12", "999", "1000", "²", "٣", "", "1 ")] == [
        0, 12, 999, None, None, None, None, None]


@pytest.mark.one_database  # checked before the database is asked
def test_unknown_games_options_seats_and_bots_are_refused(client: TestClient) -> None:
    assert "known games" in error_of(client.post("/api/tables", json={"game": "chess"}), 400, "bad_request")
    error_of(client.post("/api/tables", json={"game": "valley", "players": 9}), 400, "bad_request")
    error_of(client.post("/api/tables", json={"game": "valley", "options": {"nope": 1}}), 400, "bad_request")
    error_of(client.post("/api/tables", json={"game": "valley", "players": 2, "seats": [{"kind": "human"}]}), 400,
             "bad_request")
    error_of(client.post("/api/tables", json={"game": "valley", "players": 2, "seats": [
        {"kind": "human"}, {"kind": "bot", "bot": "wizard"}]}), 400, "bad_request")
    assert "hidden" in error_of(client.post("/api/tables", json={"game": "valley", "players": 2, "seats": [
        {"kind": "human"}, {"kind": "bot", "bot": "cheater"}]}), 400, "bad_request")
    error_of(client.post("/api/tables", json={"game": "valley", "seats": [{"kind": "alien"}]}), 400, "bad_request")
    for game, option in (("valley", "cards"), ("cleopatra", "data"), ("tomb", "data"), ("solomon", "data")):
        message = error_of(client.post("/api/tables", json={"game": game, "options": {option: "/etc/passwd"}}), 400,
                           "bad_request")
        assert "file" in message and "root" not in message
    error_of(client.post("/api/tables", headers=JSON, content="[" * 100_000 + "]" * 100_000), 413, "too_large")
    error_of(client.post("/api/tables", headers=JSON, content="[" * 30_000 + "]" * 30_000), 400, "bad_request")
    error_of(client.post("/api/tables", json={"game": "valley", "players": 2, "seats": [
        {"kind": "human", "name": ""}, {"kind": "human"}]}), 400, "bad_request")
    assert client.get("/api/tables").json() == {"tables": []}


@pytest.mark.one_database  # checked before the database is asked
def test_unknown_paths_and_methods_get_json_errors(client: TestClient) -> None:
    error_of(client.get("/api/tables/missing"), 404, "not_found")
    error_of(client.get("/api/nothing"), 404, "not_found")
    error_of(client.delete("/api/tables"), 405, "method_not_allowed")
    error_of(client.get("/api/tables/missing/record"), 404, "not_found")


@pytest.mark.one_database  # checked before the database is asked
def test_every_response_has_the_security_headers(client: TestClient) -> None:
    for response in (client.get("/api/games"), client.get("/api/tables/missing"), client.post("/api/tables")):
        assert response.headers["content-security-policy"].startswith("default-src 'self'")
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "no-referrer"
        assert response.headers["x-frame-options"] == "DENY"


def test_a_failure_inside_the_server_is_one_json_message(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from obelisk.server import views

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(views, "summary", broken)
    monkeypatch.setattr("obelisk.server.routes.summary", broken)
    with TestClient(create_app(config(sqlite_url)), raise_server_exceptions=False) as client:
        response = client.post("/api/tables", json={"game": "valley"})
        error_of(response, 500, "internal")
        assert "secret internals" not in response.text


def test_requests_beyond_the_rate_are_refused(sqlite_url: str) -> None:
    with TestClient(create_app(config(sqlite_url, rate=0.001, burst=3))) as client:
        for _ in range(3):
            assert client.post("/api/tables", json={"game": "valley"}).status_code == 201
        error_of(client.post("/api/tables", json={"game": "valley"}), 429, "rate_limited")


def test_a_restart_rebuilds_the_same_table_by_replay(sqlite_url: str) -> None:
    with TestClient(create_app(config(sqlite_url))) as client:
        table, tokens = seated(client, game="cleopatra", players=3, seats=[{"kind": "human"}] * 3)
        for _ in range(25):
            token, current = to_act(client, table, tokens)
            client.post(f"/api/tables/{table}/moves", headers=bearer(token),
                        json={"version": current["version"], "action": current["legal"][-1][0]})
        before = {seat: frame_of(client, table, token) for seat, token in tokens.items()}
    with TestClient(create_app(config(sqlite_url))) as client:
        after = {seat: frame_of(client, table, token) for seat, token in tokens.items()}
    assert after == before and before["0"]["version"] > 25


def test_a_finished_table_publishes_its_record_and_seed(client: TestClient, tmp_path: Any,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    table, tokens = seated(client, game="solomon", players=2)
    error_of(client.get(f"/api/tables/{table}/record"), 409, "not_finished")
    token = tokens[str(frame_of(client, table)["table"]["to_act"])]
    while (current := frame_of(client, table, token))["status"] != "finished":
        assert current["reveal"] is None and current["result"] is None
        if current["legal"]:  # the last move (at Solomon mostly "end the turn") ends a game in about 50 decisions
            client.post(f"/api/tables/{table}/moves", headers=bearer(token),
                        json={"version": current["version"], "action": current["legal"][-1][0]})
        else:
            token = tokens[str(current["table"]["to_act"])]
    summary = current["table"]
    assert verify(current["reveal"]["seed"], current["reveal"]["salt"], summary["commitment"])
    doc = client.get(f"/api/tables/{table}/record").json()
    assert doc["seed"] == current["reveal"]["seed"] and doc["seed_commitment"] == summary["commitment"]
    assert doc["seed_salt"] == current["reveal"]["salt"]
    game, states = replay_record(doc)
    assert len(states) == current["version"] + 1 and states[-1].is_terminal()
    assert current["result"]["returns"] == states[-1].returns()
    assert [p["name"] for p in doc["players"]] == ["P0", "P1"]
    path = tmp_path / "table.json"
    path.write_text(json.dumps(doc))
    capsys.readouterr()
    assert main(["replay", str(path), "--print", "--player", "2"]) == 0
    assert "view of player 2" in capsys.readouterr().out
    error_of(client.post(f"/api/tables/{table}/moves", headers=bearer(tokens["0"]),
                         json={"version": current["version"], "action": 0}), 409, "finished")
    error_of(client.post(f"/api/tables/{table}/claim", json={"token": tokens["0"], "name": "Someone else"}), 409,
             "finished")
    assert client.post(f"/api/tables/{table}/claim", json={"token": tokens["0"], "name": "P0"}).json() == {
        "seat": 0, "token": tokens["0"]}
    assert [p["name"] for p in client.get(f"/api/tables/{table}/record").json()["players"]] == ["P0", "P1"]


def test_rematch_seats_the_same_players_at_a_new_table(client: TestClient) -> None:
    table, tokens = seated(client, game="solomon", players=2, seats=[{"kind": "human", "name": "Ann"},
                                                                     {"kind": "bot", "bot": "random"}])
    error_of(client.post(f"/api/tables/{table}/rematch", headers=bearer(tokens["0"]), json={}), 409, "not_finished")
    while frame_of(client, table)["status"] != "finished":
        current = frame_of(client, table, tokens["0"])
        if current["legal"]:  # the last move (mostly "end the turn") ends a game soon
            client.post(f"/api/tables/{table}/moves", headers=bearer(tokens["0"]),
                        json={"version": current["version"], "action": current["legal"][-1][0]})
        else:
            time.sleep(0.005)
    error_of(client.post(f"/api/tables/{table}/rematch", json={}), 403, "bad_token")
    body = client.post(f"/api/tables/{table}/rematch", headers=bearer(tokens["0"]), json={}).json()
    new = body["table"]
    assert new["id"] != table and new["rematch_of"] == table and body["seat"] == 0
    assert body["url"] == f"/table/{new['id']}#token={body['token']}"
    assert new["status"] == "playing" and [s["kind"] for s in new["seats"]] == ["human", "bot"]
    assert new["commitment"] != frame_of(client, table)["table"]["commitment"]
    assert client.get(f"/api/tables/{table}").json()["rematch"] == new["id"]
    assert frame_of(client, new["id"], body["token"])["seat"] == 0
    again = error_of(client.post(f"/api/tables/{table}/rematch", headers=bearer(tokens["0"]), json={}), 409,
                     "seat_taken")
    assert new["id"] in again and "first request" in again
    assert frame_of(client, new["id"], body["token"])["seat"] == 0


def test_the_pages_and_static_files_are_served_with_the_headers(sqlite_url: str, tmp_path: Any) -> None:
    static = tmp_path / "static"
    static.mkdir()
    (static / "lobby.html").write_text("<h1>lobby</h1>")
    (static / "table.html").write_text("<h1>table</h1>")
    (static / "app.js").write_text("export {};")
    with TestClient(create_app(config(sqlite_url, static=static))) as client:
        lobby, table, script = client.get("/"), client.get("/table/abc"), client.get("/static/app.js")
        assert (lobby.text, table.text, script.text) == ("<h1>lobby</h1>", "<h1>table</h1>", "export {};")
        assert lobby.headers["content-type"].startswith("text/html")
        assert all(r.headers["x-frame-options"] == "DENY" for r in (lobby, table, script))
        error_of(client.get("/static/missing.js"), 404, "not_found")
        error_of(client.get("/static/../tables.db"), 404, "not_found")


@pytest.mark.one_database  # checked before the database is asked
def test_every_page_has_an_icon(client: TestClient) -> None:
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"] == "image/svg+xml"
    assert icon.content.startswith(b"<svg") and icon.content == client.get("/static/favicon.svg").content
    for page in ("/", "/table/abc", "/table/abc/replay"):
        assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in client.get(page).text
