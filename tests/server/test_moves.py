"""Shortcuts at a table: the frame offers them to the seat to act, and a batch of moves is played all or nothing.

Valley's payment shortcut is reached at a table of people; its actions are sent as one batch over HTTP
and over a websocket. A batch with an action that may not be played (illegal, or after the turn has
passed) or sent from an old version changes nothing and says which action was refused.
"""

from __future__ import annotations

import json
import random
from typing import Any

from starlette.testclient import TestClient

from obelisk.core import State
from obelisk.core.shortcuts import offered
from tests.server.conftest import ORIGIN, bearer
from tests.server.test_api import error_of, frame_of, seated
from tests.server.test_undo import state_of


def to_shortcut(client: TestClient, table: str, tokens: dict[str, str], seed: int = 3
                ) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """Play on (buying whenever a seat can) until the seat to act is offered a shortcut of several actions: its
    token, frame and the shortcut."""
    rng = random.Random(seed)
    for _ in range(400):
        seat = str(frame_of(client, table)["table"]["to_act"])
        mine = frame_of(client, table, tokens[seat])
        if mine["shortcuts"] and len(mine["shortcuts"][0]["actions"]) > 1:
            return tokens[seat], mine, mine["shortcuts"][0]
        buys = [entry for entry in mine["legal"] if entry[1].startswith("buy ")]
        action = (buys or [rng.choice(mine["legal"])])[0][0]
        response = client.post(f"/api/tables/{table}/moves", headers=bearer(tokens[seat]),
                               json={"version": mine["version"], "action": action})
        assert response.status_code == 200, response.text
    raise AssertionError("no shortcut was offered")


def played(state: State, actions: list[int]) -> State:
    after = state.clone()
    for action in actions:
        after.apply_action(action)
    return after


def test_a_shortcut_is_offered_and_played_as_one_batch(client: TestClient) -> None:
    table, tokens = seated(client, game="valley", players=2)
    token, mine, shortcut = to_shortcut(client, table, tokens)
    state = state_of(client, table)
    seat = mine["seat"]
    assert set(shortcut) == {"word", "text", "actions", "final"} and shortcut["word"] == "pay"
    assert [s.to_dict() for s in offered(state, seat)] == mine["shortcuts"]
    legal = {entry[0] for entry in mine["legal"]}
    assert shortcut["actions"][0] in legal and len(shortcut["actions"]) >= 1
    finals = []
    trial = state.clone()
    for action in shortcut["actions"]:
        finals.append(trial.is_final(action))
        trial.apply_action(action)
    assert shortcut["final"] == any(finals)
    # Only the seat to act is offered shortcuts.
    other = next(t for t in tokens.values() if t != token)
    assert frame_of(client, table, other)["shortcuts"] == [] and frame_of(client, table)["shortcuts"] == []

    response = client.post(f"/api/tables/{table}/moves", headers=bearer(token),
                           json={"version": mine["version"], "actions": shortcut["actions"]})
    assert response.status_code == 200, response.text
    after = frame_of(client, table, token)
    assert response.json()["version"] == after["version"] >= mine["version"] + len(shortcut["actions"])
    entries = after["log"][len(mine["log"]):]
    assert [e["actor"] for e in entries[:len(shortcut["actions"])]] == [seat] * len(shortcut["actions"])
    # The table played exactly the batch, then the chance outcomes it led to (none but draws).
    now = state_of(client, table)
    history = now.history()
    assert history[:len(state.history()) + len(shortcut["actions"])] == state.history() + shortcut["actions"]
    replayed = played(state, shortcut["actions"])
    for outcome in history[len(replayed.history()):]:
        assert replayed.is_chance_node()
        replayed.apply_action(outcome)
    assert replayed.observation(None) == now.observation(None)


def test_a_bad_batch_changes_nothing_and_names_the_refused_action(client: TestClient) -> None:
    table, tokens = seated(client, game="valley", players=2)
    token, mine, shortcut = to_shortcut(client, table, tokens, seed=5)
    before = frame_of(client, table, token)
    state = state_of(client, table)
    actions = shortcut["actions"]
    legal = set(state.legal_actions())
    illegal = next(a for a in range(state.game.num_distinct_actions()) if a not in legal)

    def refused(body: dict[str, Any], status: int, code: str) -> str:
        message = error_of(client.post(f"/api/tables/{table}/moves", headers=bearer(token), json=body), status, code)
        assert frame_of(client, table, token) == before
        return message

    seat = before["seat"]
    message = refused({"version": before["version"], "actions": [actions[0], illegal]}, 400, "illegal_action")
    assert message == (f"action #2 of 2 ({illegal}) is not one of seat {seat}'s "
                       f"{len(played(state, actions[:1]).legal_actions())} legal actions after the ones before it")
    message = refused({"version": before["version"], "actions": [illegal, *actions]}, 400, "illegal_action")
    assert message.startswith(f"action #1 of {len(actions) + 1} ({illegal}) is not one of seat {seat}'s ")
    assert message.endswith(" legal actions now")
    # After the whole payment either a card is drawn (chance acts) or the seat goes on, where a payment
    # is no longer legal: either way one more payment is refused whole.
    paid = played(state, actions)
    code = "not_your_turn" if paid.current_player() != seat else "illegal_action"
    message = refused({"version": before["version"], "actions": [*actions, actions[0]]}, 409 if code ==
                      "not_your_turn" else 400, code)
    assert message.startswith(f"action #{len(actions) + 1} of {len(actions) + 1} ({actions[0]})")
    refused({"version": before["version"] - 1, "actions": actions}, 409, "stale_version")
    refused({"version": before["version"], "actions": []}, 400, "bad_request")
    refused({"version": before["version"], "actions": [True]}, 400, "bad_request")
    refused({"version": before["version"], "actions": list(range(101))}, 400, "bad_request")
    message = refused({"version": before["version"], "action": actions[0], "actions": actions}, 400, "bad_request")
    assert message == 'a move gives either "action" or "actions"'
    refused({"version": before["version"]}, 400, "bad_request")
    # The table holds no trace of the refused batches, and the batch itself is still playable.
    assert state_of(client, table).history() == state.history()
    response = client.post(f"/api/tables/{table}/moves", headers=bearer(token),
                           json={"version": before["version"], "actions": actions})
    assert response.status_code == 200, response.text


def test_a_batch_over_the_websocket(client: TestClient) -> None:
    table, tokens = seated(client, game="valley", players=2)
    token, mine, shortcut = to_shortcut(client, table, tokens, seed=7)
    with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as ws:
        ws.send_json({"type": "hello", "token": token})
        first = json.loads(ws.receive_text())
        assert first["version"] == mine["version"] and first["shortcuts"] == mine["shortcuts"]
        ws.send_json({"type": "moves", "version": first["version"] - 1, "actions": shortcut["actions"]})
        assert ws.receive_json()["code"] == "stale_version"
        ws.send_json({"type": "moves", "version": first["version"], "actions": [shortcut["actions"][0], 10_000]})
        error = ws.receive_json()
        assert error["type"] == "error" and error["code"] == "illegal_action" and "action #" in error["message"]
        assert frame_of(client, table, token)["version"] == first["version"]
        ws.send_json({"type": "moves", "version": first["version"], "actions": []})
        assert ws.receive_json()["code"] == "bad_request"
        ws.send_json({"type": "moves", "version": first["version"], "actions": shortcut["actions"]})
        while True:
            message = ws.receive_json()
            assert message["type"] == "frame", message
            if message["version"] > first["version"]:
                break
        assert message["version"] >= first["version"] + len(shortcut["actions"])
    doc_actions = [e["seq"] for e in frame_of(client, table)["log"]]
    assert doc_actions[-1] == message["version"] - 1
