"""The replay of a finished table: any seat's view at any step, the turn starts, and the score headings."""

from __future__ import annotations

import random

import pytest
from starlette.testclient import TestClient

import obelisk
from obelisk.core import CHANCE
from obelisk.core.records import replay_record
from tests.server.test_api import error_of, frame_of, seated
from tests.server.test_undo import HUMANS, play_with_undos


@pytest.mark.one_database  # the moves are read back as a restart reads them (test_undo.py, on both databases)
def test_a_finished_table_replays_from_every_seat_at_every_step(client: TestClient) -> None:
    table, tokens = seated(client, game="solomon", players=2, seats=HUMANS)
    error_of(client.get(f"/api/tables/{table}/replay"), 409, "not_finished")
    undone, _ = play_with_undos(client, table, tokens, random.Random(7), 10_000)
    assert undone > 0
    final = frame_of(client, table)
    assert final["status"] == "finished"
    doc = client.get(f"/api/tables/{table}/record").json()
    game, states = replay_record(doc)
    steps = len(doc["actions"])

    end = client.get(f"/api/tables/{table}/replay").json()
    assert (end["step"], end["steps"], end["seat"], end["legal"]) == (steps, steps, None, [])
    assert end["view"] == final["view"] and [e["text"] for e in end["log"]] == [e["text"] for e in final["log"]]
    assert end["result"] == final["result"] and end["reveal"] == final["reveal"]
    for step in sorted({0, 1, steps // 3, steps // 2, steps - 1, steps, *random.Random(1).sample(range(steps), 5)}):
        for seat in ("0", "1", "spectator"):
            answer = client.get(f"/api/tables/{table}/replay", params={"seat": seat, "step": step})
            assert answer.status_code == 200, answer.text
            shown = answer.json()
            viewer = None if seat == "spectator" else int(seat)
            assert shown["seat"] == viewer and shown["step"] == step
            assert shown["view"] == states[step].observation(viewer)
            assert shown["text"] == game.render_observation(shown["view"])
            assert [e["seq"] for e in shown["log"]] == list(range(step))
            assert shown["log"] == [{"seq": i, "actor": final["log"][i]["actor"], "text": states[i].public_action_string(
                doc["actions"][i]["id"], viewer)} for i in range(step)]

    actors = [a["player"] for a in doc["actions"]]
    decisions = [(i, actor) for i, actor in enumerate(actors) if actor != CHANCE]
    expected = [i for n, (i, actor) in enumerate(decisions) if n == 0 or decisions[n - 1][1] != actor]
    assert end["turns"] == expected and len(expected) > 10

    for query, problem in (({"step": steps + 1}, "step"), ({"step": "-1"}, "step"), ({"step": "x"}, "step"),
                           ({"seat": "2"}, "seat"), ({"seat": "one"}, "seat")):
        assert problem in error_of(client.get(f"/api/tables/{table}/replay", params=query), 400, "bad_request")
    error_of(client.get("/api/tables/nope/replay"), 404, "not_found")


@pytest.mark.one_database  # the words of the result do not depend on the database
def test_the_result_names_every_scoring_category(client: TestClient) -> None:
    table, tokens = seated(client, game="solomon", players=2, seats=HUMANS)
    play_with_undos(client, table, tokens, random.Random(3), 10_000)
    result = frame_of(client, table)["result"]
    keys = {key for score in result["scores"] for key in score["breakdown"]}
    game = obelisk.load("solomon", 2)
    assert keys and result["headings"] == {key: game.score_heading(key) for key in keys}
    assert all(heading[0].isupper() and "_" not in heading for heading in result["headings"].values())


def test_the_replay_page_is_served(client: TestClient) -> None:
    page = client.get("/table/anything/replay")
    assert page.status_code == 200 and "/static/replay.js" in page.text
    assert page.headers["content-security-policy"].startswith("default-src 'self'")
    assert client.get("/static/replay.js").status_code == 200
