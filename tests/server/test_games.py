"""Every game played to the end through the API by bot seats and one scripted person, leaking nothing.

What seat 0 and a spectator receive (websocket frames and HTTP responses) is
checked, after the end, against the game replayed from its published record:
each frame's view, text, legal actions and log are exactly what the protocol's
views give that seat, no other seat's private parts appear in it, and the
secret seed and salt appear nowhere before the end. Each game is played in
English and in Czech (``hello`` with ``"lang": "cs"``, ``?lang=cs``): a frame in
Czech is exactly what the views give that seat worded under ``language("cs")``.
"""

from __future__ import annotations

import json
import random
from typing import Any, Iterator

import pytest
from starlette.testclient import TestClient

from obelisk.core.i18n import LANGUAGES, language
from obelisk.core import previews
from obelisk.core.records import replay_record
from obelisk.core.shortcuts import offered
from tests.server.conftest import ORIGIN, bearer

GAMES = [
    ("valley", [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}]),
    ("solomon", [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}]),
    ("tomb", [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]),
    ("cleopatra", [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}]),
]


def leaves(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from leaves(item, f"{path}[{index}]")
    else:
        yield path, value


def plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


def whole_log(message: dict[str, Any], log: list[dict[str, Any]]) -> dict[str, Any]:
    """A websocket frame with the whole log: the socket sends each entry once, right after the last one sent."""
    assert message["log_from"] == len(log)
    assert [e["seq"] for e in message["log"]] == list(range(len(log), message["version"]))
    log.extend(message["log"])
    return {**message, "log": list(log)}


def play(client: TestClient, game: str, seats: list[dict[str, Any]], seed: int, lang: str = "en"
         ) -> tuple[str, list[dict[str, Any]], list[dict[str, Any]], list[str]]:
    """Seat 0 plays by websocket (random legal choices); returns its frames, the spectator's and raw texts."""
    # Random play can wander for Tomb's whole 300-round technical cap, and every frame kept for checking
    # holds the log so far; a 40-round cap keeps the game short. The checks are the same.
    options = {"max_rounds": 40} if game == "tomb" else {}
    created = client.post("/api/tables", json={"game": game, "players": len(seats), "seats": seats,
                                               "options": options}).json()
    table, token = created["table"]["id"], created["tokens"]["0"]
    texts = [json.dumps(created["table"])]
    rng = random.Random(seed)
    mine: list[dict[str, Any]] = []
    watched: list[dict[str, Any]] = []
    my_log: list[dict[str, Any]] = []
    watched_log: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as spectator, \
            client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as ws:
        spectator.send_json({"type": "hello", "token": None, "lang": lang})
        claim = client.post(f"/api/tables/{table}/claim", json={"token": token, "name": "Ann"})
        texts.append(claim.text)
        token = claim.json()["token"]
        ws.send_json({"type": "hello", "token": token, "lang": lang})
        moved = -1
        while True:
            raw = ws.receive_text()
            message = whole_log(json.loads(raw), my_log)
            assert message["type"] == "frame", message
            mine.append(message)
            if message["status"] == "finished":
                break
            texts.append(raw)
            if message["legal"] and message["version"] > moved:
                http = client.get(f"/api/tables/{table}/frame?lang={lang}", headers=bearer(token))
                texts.append(http.text)
                assert http.json()["legal"] == message["legal"]
                assert http.json()["log"] == message["log"] and http.json()["log_from"] == 0
                moved = message["version"]
                ws.send_json({"type": "move", "version": moved, "action": rng.choice(message["legal"])[0]})
        while True:
            raw = spectator.receive_text()
            message = whole_log(json.loads(raw), watched_log)
            watched.append(message)
            if message["status"] == "finished":
                break
            texts.append(raw)
    return table, mine, watched, texts


def check_frame(message: dict[str, Any], seat: int | None, states: list[Any], actions: list[int], lang: str) -> None:
    with language(lang):
        _check_frame(message, seat, states, actions)


def _check_frame(message: dict[str, Any], seat: int | None, states: list[Any], actions: list[int]) -> None:
    version = message["version"]
    state = states[version]
    game = state.game
    assert set(message) == {"type", "table", "seat", "version", "view", "text", "legal", "shortcuts", "previews", "decision",
                            "progress", "undo", "log", "log_from", "status", "result", "reveal"}
    assert message["seat"] == seat
    view = state.observation(seat)
    assert message["view"] == plain(view)
    assert message["text"] == game.render_observation(view)
    viewer_acts = seat is not None and state.current_player() == seat and message["status"] == "playing"
    expected_legal = [[a, state.action_to_string(a), *game.action_range(a), state.is_final(a)]
                      for a in state.legal_actions()] if viewer_acts else []
    assert message["legal"] == expected_legal
    # The decision and the progress are worded from the seat's view, and read the same from a spectator's:
    # they name nothing private to anyone.
    spectator_view = state.observation(None)
    acting = state.current_player()
    assert message["decision"] == ({"seat": acting, "text": game.render_decision(view)}
                                   if message["status"] == "playing" and acting >= 0 else None)
    if message["decision"] is not None:
        assert message["decision"]["text"] and message["decision"]["text"] == game.render_decision(spectator_view)
    assert message["progress"] == game.render_progress(view) == game.render_progress(spectator_view)
    assert message["progress"]
    if viewer_acts:
        # Derivable from the seat's view: a position the seat cannot tell from the true one marks alike.
        shadow = state.resample_from_infostate(seat, random.Random(version))
        assert [entry[4] for entry in message["legal"]] == [shadow.is_final(a) for a in shadow.legal_actions()]
        assert message["shortcuts"] == [s.to_dict() for s in offered(state, seat)] == [
            s.to_dict() for s in offered(shadow, seat)]
        # Previews too: the other seats' hidden cards dealt again change none of them.
        assert message["previews"] == [p.to_dict() for p in previews.offered(state, seat)] == [
            p.to_dict() for p in previews.offered(shadow, seat)]
        assert {a for p in message["previews"] for a in p["actions"]} <= {entry[0] for entry in message["legal"]}
    else:
        assert message["shortcuts"] == [] and message["previews"] == []
    assert message["undo"] == (state.undo_points(seat) if seat is not None and message["status"] == "playing" else 0)
    assert message["log"] == [
        {"seq": i, "actor": states[i].current_player(), "text": states[i].public_action_string(actions[i], seat)}
        for i in range(version)
    ]
    mine = dict(leaves(plain(view)))
    spectator = dict(leaves(plain(state.observation(None))))
    received = dict(leaves(message["view"]))
    for other in range(game.num_players):
        if other == seat:
            continue
        for path, value in leaves(plain(state.observation(other))):
            private = spectator.get(path, ...) != value
            if private and mine.get(path, ...) != value:
                assert received.get(path, ...) != value, f"seat {other}'s private {path} reached seat {seat}"
    if message["status"] != "finished":
        assert message["result"] is None and message["reveal"] is None
    else:
        assert message["result"]["outcome"] == plain(state.outcome())


@pytest.mark.databases_in_turn  # each database plays every game, each language is played on both
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game, seats", GAMES, ids=[g for g, _ in GAMES])
def test_a_full_game_through_the_api_leaks_nothing(client: TestClient, game: str, seats: list[dict[str, Any]],
                                                   lang: str) -> None:
    table, mine, watched, texts = play(client, game, seats, seed=len(game), lang=lang)
    doc = client.get(f"/api/tables/{table}/record").json()
    seed, salt = doc["seed"], doc["seed_salt"]
    for text in texts:
        assert str(seed) not in text and salt not in text
    _, states = replay_record(doc)
    actions = [a["id"] for a in doc["actions"]]
    assert states[-1].is_terminal() and mine[-1]["version"] == len(actions)
    assert mine[-1]["reveal"] == {"seed": seed, "salt": salt}
    assert mine[-1]["result"]["returns"] == states[-1].returns()
    assert sum(1 for m in mine if m["legal"]) > 0
    for message in mine:
        check_frame(message, 0, states, actions, lang)
    for message in watched:
        check_frame(message, None, states, actions, lang)
    assert watched[-1]["version"] == len(actions)
