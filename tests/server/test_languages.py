"""Frames, labels, log texts and the lobby's game texts in the reader's language; records stay English.

High Card here speaks through the active language (every label, log text and view names it) and has a
Czech catalog naming the game and its option, so these tests see exactly which language each part of
an answer was worded in.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator, Mapping

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from obelisk.core import GameInfo, Option, i18n, registry
from obelisk.server import views
from tests.core.toy import HighCardGame, HighCardState
from tests.server.conftest import ORIGIN, bearer
from tests.server.test_api import error_of, frame_of, seated

pytestmark = pytest.mark.one_database  # the words a seat reads do not depend on the database: SQLite only

CATALOG = """msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"

msgctxt "game"
msgid "Speaking High Card"
msgstr "Mluvící vysoká karta"

msgctxt "game"
msgid "hold or swap one hidden card, in words"
msgstr "drž nebo vyměň jednu skrytou kartu, slovy"

msgctxt "option"
msgid "whether seats may swap their card"
msgstr "zda smí hráči vyměnit kartu"
"""


def spoken(text: str) -> str:
    return f"{text} [{i18n.current_language()}]"


class SpeakingState(HighCardState):
    def _action_to_string(self, action: int) -> str:
        return spoken(super()._action_to_string(action))

    def _hidden_action_string(self, action: int) -> str:
        return spoken(super()._hidden_action_string(action))


class SpeakingGame(HighCardGame):
    info = GameInfo(id="speaking", name="Speaking High Card", min_players=2, max_players=4,
                    description="hold or swap one hidden card, in words",
                    options=(Option("allow_swap", True, "whether seats may swap their card", (True, False)),))
    state_class = SpeakingState

    def render_observation(self, view: Mapping[str, Any]) -> str:
        return spoken(super().render_observation(view))

    def render_decision(self, view: Mapping[str, Any]) -> str:
        return spoken("hold or swap")

    def render_progress(self, view: Mapping[str, Any]) -> str:
        return spoken(f"move {view['move_number']}")


@pytest.fixture(autouse=True)
def speaking(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    (tmp_path / "cs.po").write_text(CATALOG, encoding="utf-8")
    real = i18n.catalog_path
    monkeypatch.setattr(i18n, "catalog_path", lambda name: tmp_path if name == "speaking" else real(name))
    i18n._chain.cache_clear()
    registry.register(SpeakingGame)
    try:
        yield
    finally:
        registry.unregister("speaking")
        i18n._chain.cache_clear()


HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


def played(client: TestClient, moves: int = 1) -> tuple[str, dict[str, str]]:
    """A Speaking High Card table after ``moves`` moves of the seats to act."""
    table, tokens = seated(client, game="speaking", seats=HUMANS)
    for _ in range(moves):
        seat = str(frame_of(client, table)["table"]["to_act"])
        current = frame_of(client, table, tokens[seat])
        response = client.post(f"/api/tables/{table}/moves", headers=bearer(tokens[seat]),
                               json={"version": current["version"], "action": current["legal"][0][0]})
        assert response.status_code == 200, response.text
    return table, tokens


def words(frame: dict[str, Any]) -> list[str]:
    """Every text of a frame the rules worded: the view's text, the labels, the decision, the progress, the log."""
    return [frame["text"], *(label for _, label, *_ in frame["legal"]), frame["decision"]["text"], frame["progress"],
            *(e["text"] for e in frame["log"])]


def test_a_frame_is_worded_in_the_language_asked_and_english_without_one(client: TestClient) -> None:
    table, tokens = played(client)
    seat = str(frame_of(client, table)["table"]["to_act"])
    english = frame_of(client, table, tokens[seat])
    czech = client.get(f"/api/tables/{table}/frame?lang=cs", headers=bearer(tokens[seat])).json()
    assert english["legal"] and english["log"]
    assert all(text.endswith("[en]") for text in words(english))
    assert all(text.endswith("[cs]") for text in words(czech))
    assert english["table"]["game_name"] == "Speaking High Card"
    assert czech["table"]["game_name"] == "Mluvící vysoká karta"
    assert czech["view"]["hands"] == english["view"]["hands"]
    assert [a[0] for a in czech["legal"]] == [a[0] for a in english["legal"]]
    assert client.get(f"/api/tables/{table}/frame?lang=en", headers=bearer(tokens[seat])).json() == english


def test_a_czech_frame_is_the_frame_built_under_czech(client: TestClient) -> None:
    table, tokens = played(client, moves=2)
    snap = client.app.state.tables.held(table).snapshot  # type: ignore[attr-defined]
    for seat in (None, 0, 1):
        headers = bearer(tokens[str(seat)]) if seat is not None else {}
        answer = client.get(f"/api/tables/{table}/frame?lang=cs", headers=headers).json()
        with i18n.language("cs"):
            built = views.frame(snap, seat)
        assert answer == {**built, "table": answer["table"]}
        assert answer["table"]["game_name"] == built["table"]["game_name"]


def test_the_socket_speaks_the_language_of_its_hello(client: TestClient) -> None:
    table, tokens = played(client)
    with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as czech, \
            client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as english:
        czech.send_json({"type": "hello", "token": tokens["0"], "lang": "cs"})
        english.send_json({"type": "hello", "token": tokens["0"]})
        first_cs, first_en = czech.receive_json(), english.receive_json()
        assert first_cs["type"] == first_en["type"] == "frame"
        assert all(text.endswith("[cs]") for text in words(first_cs))
        assert all(text.endswith("[en]") for text in words(first_en))


def test_log_texts_are_kept_per_viewer_and_language(client: TestClient) -> None:
    table, tokens = played(client, moves=2)
    for lang in i18n.LANGUAGES:
        for seat in (None, "0", "1"):
            headers = bearer(tokens[seat]) if seat is not None else {}
            log = client.get(f"/api/tables/{table}/frame?lang={lang}", headers=headers).json()["log"]
            assert log and all(entry["text"].endswith(f"[{lang}]") for entry in log)
    seat0 = [e["text"] for e in client.get(f"/api/tables/{table}/frame?lang=cs", headers=bearer(tokens["0"])).json()["log"]]
    seat1 = [e["text"] for e in client.get(f"/api/tables/{table}/frame?lang=cs", headers=bearer(tokens["1"])).json()["log"]]
    assert seat0 != seat1  # each seat sees its own draw only, in Czech too


def test_the_record_stays_english_whatever_the_players_read(client: TestClient) -> None:
    table, tokens = seated(client, game="speaking", seats=HUMANS)
    while frame_of(client, table)["status"] != "finished":
        seat = str(frame_of(client, table)["table"]["to_act"])
        current = client.get(f"/api/tables/{table}/frame?lang=cs", headers=bearer(tokens[seat])).json()
        client.post(f"/api/tables/{table}/moves", headers=bearer(tokens[seat]),
                    json={"version": current["version"], "action": current["legal"][0][0]})
    record = client.get(f"/api/tables/{table}/record").json()
    assert all(action["label"].endswith("[en]") for action in record["actions"])


def test_the_lobby_gets_game_names_descriptions_and_options_in_its_language(client: TestClient) -> None:
    english = {g["id"]: g for g in client.get("/api/games").json()}
    czech = {g["id"]: g for g in client.get("/api/games?lang=cs").json()}
    assert english["speaking"]["name"] == "Speaking High Card"
    assert czech["speaking"]["name"] == "Mluvící vysoká karta"
    assert czech["speaking"]["description"] == "drž nebo vyměň jednu skrytou kartu, slovy"
    assert czech["speaking"]["options"][0]["description"] == "zda smí hráči vyměnit kartu"
    assert czech["speaking"]["options"][0]["name"] == "allow_swap"
    assert set(czech) == set(english)
    table, _ = seated(client, game="speaking", seats=HUMANS, public=True)
    assert client.get(f"/api/tables/{table}?lang=cs").json()["game_name"] == "Mluvící vysoká karta"
    listed = client.get("/api/tables?lang=cs&status=playing").json()["tables"]
    assert [t["game_name"] for t in listed] == ["Mluvící vysoká karta"]


@pytest.mark.parametrize("path", ["/api/games?lang=xx", "/api/tables?lang=de", "/api/tables/{table}?lang=",
                                  "/api/tables/{table}/frame?lang=CS", "/api/games/valley/help?lang=xx"])
def test_an_unknown_language_is_refused_naming_the_choices(client: TestClient, path: str) -> None:
    table, _ = seated(client, game="speaking", seats=HUMANS)
    message = error_of(client.get(path.format(table=table)), 400, "bad_request")
    assert "choose one of: en, cs" in message


@pytest.mark.parametrize("lang", ["xx", 5, None])
def test_a_hello_in_an_unknown_language_gets_an_error_frame(client: TestClient, lang: Any) -> None:
    table, tokens = seated(client, game="speaking", seats=HUMANS)
    with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as ws:
        ws.send_json({"type": "hello", "token": tokens["0"], "lang": lang})
        error = ws.receive_json()
        assert error["type"] == "error" and error["code"] == "bad_request"
        assert "lang" in error["message"] or "choose one of: en, cs" in error["message"]
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()


def test_a_table_created_in_czech_is_described_in_czech(client: TestClient) -> None:
    created = client.post("/api/tables?lang=cs", json={"game": "speaking", "players": 2, "seats": HUMANS})
    assert created.status_code == 201 and created.json()["table"]["game_name"] == "Mluvící vysoká karta"
    error_of(client.post("/api/tables?lang=xx", json={"game": "speaking", "players": 2}), 400, "bad_request")
