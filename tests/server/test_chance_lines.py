"""The chance lines of a table's log name players as people read them: "player 2", "hráč 2", counted from 1.

A Valley and a Cleopatra table are played through the API by random moves of people's seats; every chance
line of every seat's and a spectator's log, in English and in Czech, names no "seat" and counts its players
from 1 to the number of players (the API's own seat numbers stay 0-based).
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from starlette.testclient import TestClient

from obelisk.core import CHANCE
from tests.server.conftest import bearer

pytestmark = pytest.mark.one_database  # the words of the log do not depend on the database: SQLite only

NAMED = re.compile(r"\b(?:player|hráč|hráči|hráče)\s+(\d+)", re.IGNORECASE)


def played(client: TestClient, game: str, players: int, options: dict[str, Any], moves: int) -> tuple[str, list[str]]:
    seats = [{"kind": "human", "name": f"P{i}"} for i in range(players)]
    made = client.post("/api/tables", json={"game": game, "players": players, "seats": seats, "options": options}).json()
    table = made["table"]["id"]
    tokens = [client.post(f"/api/tables/{table}/claim", json={"token": made["tokens"][str(s)]}).json()["token"]
              for s in range(players)]
    rng = random.Random(players)
    for _ in range(moves):
        frame = client.get(f"/api/tables/{table}/frame").json()
        if frame["status"] != "playing":
            break
        seat = frame["table"]["to_act"]
        mine = client.get(f"/api/tables/{table}/frame", headers=bearer(tokens[seat])).json()
        client.post(f"/api/tables/{table}/moves", json={"version": mine["version"], "action": rng.choice(mine["legal"])[0]},
                    headers=bearer(tokens[seat]))
    return table, tokens


@pytest.mark.parametrize(("game", "players", "options"), [("valley", 2, {}), ("cleopatra", 3, {"max_rounds": 3})])
def test_chance_lines_name_players_counted_from_one(client: TestClient, game: str, players: int,
                                                     options: dict[str, Any]) -> None:
    table, tokens = played(client, game, players, options, moves=120)
    lines = players_named = 0
    for lang in ("en", "cs"):
        for token in [*tokens, None]:
            headers = bearer(token) if token else {}
            log = client.get(f"/api/tables/{table}/frame?lang={lang}", headers=headers).json()["log"]
            for entry in log:
                if entry["actor"] != CHANCE:
                    continue
                lines += 1
                assert not re.search(r"\bseat\b|\bmísto\b", entry["text"], re.IGNORECASE), entry["text"]
                for number in NAMED.findall(entry["text"]):
                    players_named += 1
                    assert 1 <= int(number) <= players, entry["text"]
    assert lines > 20 and players_named > 0
