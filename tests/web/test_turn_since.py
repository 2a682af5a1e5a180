"""A table of one move a day: the table page says whose turn it is, since when, and how long the turn may last,
in English and in Czech."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import expect

from tests.web.conftest import LiveServer, Tab

HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


def test_a_person_sees_since_when_the_player_to_act_has_had_the_turn(live_server: LiveServer,
                                                                    open_tab: Callable[..., Tab]) -> None:
    created = live_server.claimed(live_server.post("/api/tables", {
        "game": "valley", "players": 2, "seats": HUMANS, "turn_seconds": 3 * 86400}))
    table = created["table"]["id"]
    acting = live_server.get(f"/api/tables/{table}")["to_act"]
    name = HUMANS[acting]["name"]
    english, czech = open_tab(), open_tab(locale="cs-CZ")
    english.page.goto(f"{live_server.url}/table/{table}")
    czech.page.goto(f"{live_server.url}/table/{table}")
    at = r"\d\d:\d\d( [AP]M)?"
    expect(english.page.get_by_role("timer")).to_have_text(re.compile(
        rf"^{name} to play since {at}, (now|this minute|\d+ seconds? ago); 3 days per turn; 2 d 23 h left$"))
    expect(czech.page.get_by_role("timer")).to_have_text(re.compile(
        rf"^Na tahu je {name} od {at}, (nyní|tuto minutu|před \d+ sekund(ou|ami)); 3 dny na tah; zbývá 2 d 23 h$"))
    english.assert_clean()
    czech.assert_clean()
