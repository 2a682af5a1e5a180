"""What a game's board needs from the server: its script from the game's folder, the catalogs, and the
named range of every legal action."""

from __future__ import annotations

import json
from typing import Iterator

import pytest
from starlette.testclient import TestClient

from obelisk import games
from obelisk.core import game_class
from obelisk.core.i18n import language
from obelisk.server.app import create_app
from obelisk.server.tables import board_script
from tests.server.conftest import config
from tests.server.test_api import error_of, seated, to_act


@pytest.fixture
def lite(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(config(sqlite_url))) as test_client:
        yield test_client


@pytest.mark.parametrize("game", games.shipped())
def test_legal_actions_carry_their_named_range(lite: TestClient, game: str) -> None:
    players = 3 if game == "cleopatra" else 2
    table, tokens = seated(lite, game=game, players=players,
                          seats=[{"kind": "human", "name": f"P{i}"} for i in range(players)])
    _, current = to_act(lite, table, tokens)
    assert current["legal"]
    rules = game_class(game)(players)
    for action, label, name, index, final in current["legal"]:
        assert isinstance(label, str) and label
        assert (name, index) == rules.action_range(action)
        assert final in (True, False)
    assert current["table"]["board"] == board_script(game)


def test_board_files_come_only_from_a_games_board_folder(lite: TestClient) -> None:
    for path in ["/games/valley/x.js", "/games/nope/board.js", "/games/valley/..%2Fgame.py", "/games/valley/game.py",
                 "/games/valley/BOARD.JS", "/games/valley/board.json"]:
        error_of(lite.get(path), 404, "not_found")


def test_message_catalogs_are_served_per_language_and_domain(lite: TestClient) -> None:
    english = lite.get("/api/messages/en/obelisk").json()
    assert english == {"lang": "en", "plural": ["one", "other"], "messages": {}, "terms": {}}
    czech = lite.get("/api/messages/cs/valley")
    assert czech.status_code == 200 and czech.json()["plural"] == ["one", "few", "other"]
    for path in ["/api/messages/de/obelisk", "/api/messages/cs/nope", "/api/messages/cs/..", "/api/messages/EN/obelisk"]:
        error_of(lite.get(path), 404, "not_found")


def test_a_browser_is_sent_only_what_its_pages_and_boards_say(lite: TestClient) -> None:
    """The view, labels and log come worded from the server: the catalogs a page loads hold the page's own texts
    (and every component's name), not the terminal's nor the engine's."""
    ui = lite.get("/api/messages/cs/obelisk").json()
    assert ui["messages"]["Undo"] == "Zpět"
    assert ui["messages"]["you"] == "vy", "a message the terminal says too is sent for the page that says it"
    assert "Board" in ui["messages"] and "took back {n} move" not in ui["messages"]
    tomb = lite.get("/api/messages/cs/tomb").json()
    assert tomb["messages"]["Items"] == "Předměty"
    valley = lite.get("/api/messages/cs/valley").json()
    assert "Stock: {n}" in valley["messages"] and "entomb {card}" not in valley["messages"]
    assert valley["terms"]["card\u0004Shabti"] == "Šabti"


def test_a_game_without_named_ranges_has_one() -> None:
    from tests.core.toy import HighCardGame

    assert HighCardGame(2).action_range(1) == ("action", 1)


@pytest.mark.parametrize("game", games.shipped())
def test_help_is_served_with_its_guide_in_each_language(lite: TestClient, game: str) -> None:
    doc = lite.get(f"/api/games/{game}/help").json()
    expected = game_class(game)().help()
    assert doc["summary"] == expected.summary
    assert [e["key"] for e in doc["entries"]] == [e.key for e in expected.entries]
    assert doc["guide"] == list(expected.guide) and len(doc["guide"]) >= 3
    czech = lite.get(f"/api/games/{game}/help?lang=cs")
    assert czech.status_code == 200
    with language("cs"):
        assert czech.json() == json.loads(json.dumps(game_class(game)().help().as_dict()))


def test_help_refuses_unknown_games_and_languages(lite: TestClient) -> None:
    error_of(lite.get("/api/games/nope/help"), 404, "not_found")
    assert "choose one of: en, cs" in error_of(lite.get("/api/games/valley/help?lang=xx"), 400, "bad_request")


def test_pages_scripts_and_catalogs_travel_compressed(lite: TestClient) -> None:
    for path in ["/static/table.js", "/api/messages/cs/obelisk", "/games/valley/board.js"]:
        response = lite.get(path, headers={"Accept-Encoding": "gzip"})
        assert response.status_code == 200 and response.headers["content-encoding"] == "gzip"
    plain = lite.get("/static/table.js", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.text.startswith("//")
