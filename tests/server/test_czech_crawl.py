"""A whole game of every title at an online table, read in Czech by every seat through the API.

Every frame's text and, for the seat to act, its labels, and at the end every seat's log and the
scores' headings, must hold no English word but proper names and typed commands (``tests.english``)
and count no player from 0.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.english import english_words
from tests.server.conftest import bearer
from tests.server.test_api import seated

pytestmark = pytest.mark.one_database  # the words a seat reads do not depend on the database: SQLite only

TABLES = {  # game id: players and options of a whole game that ends in a few hundred moves
    "valley": (2, {}),
    "solomon": (2, {"move_limit": 2}),
    "tomb": (3, {"max_rounds": 6}),
    "cleopatra": (3, {"max_rounds": 3}),
}
MOST_MOVES = 3000
PLAYER_ZERO = re.compile(r"\b[Hh]ráč(?:i|e|em)? 0\b")


def czech_frame(client: TestClient, table: str, token: str | None) -> dict[str, Any]:
    response = client.get(f"/api/tables/{table}/frame?lang=cs", headers=bearer(token) if token else {})
    assert response.status_code == 200, response.text
    return response.json()


@pytest.mark.parametrize("game_id", sorted(TABLES))
def test_every_seat_reads_a_whole_game_in_czech(client: TestClient, game_id: str) -> None:
    players, options = TABLES[game_id]
    seats = [{"kind": "human", "name": f"P{n}"} for n in range(players)]
    table, tokens = seated(client, game=game_id, players=players, seats=seats, options=options)
    read: list[str] = []
    for _ in range(MOST_MOVES):
        frames = {seat: czech_frame(client, table, token) for seat, token in [*tokens.items(), (None, None)]}
        spectator = frames[None]
        if spectator["status"] == "finished":
            break
        read += [frame["text"] for frame in frames.values()]
        acting = str(spectator["table"]["to_act"])
        legal = frames[acting]["legal"]
        read += [label for _, label, *_ in legal]
        response = client.post(f"/api/tables/{table}/moves", headers=bearer(tokens[acting]),
                               json={"version": frames[acting]["version"], "action": legal[0][0]})
        assert response.status_code == 200, response.text
    else:
        raise AssertionError(f"{game_id}: no end after {MOST_MOVES} moves")
    for frame in frames.values():
        read += [frame["text"], *(entry["text"] for entry in frame["log"]), *frame["result"]["headings"].values()]
    text = "\n".join(read)
    assert english_words(text) == [], sorted({line for line in read if english_words(line)})[:20]
    assert not PLAYER_ZERO.search(text), PLAYER_ZERO.search(text)
