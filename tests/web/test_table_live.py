"""End to end with the real server: a seat takes a move back on the table page and every page's log follows;
a finished table's replay page shows what the API's replay gives."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from tests.web.conftest import LiveServer, Tab

HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


def post(server: LiveServer, path: str, body: Any, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    request = urllib.request.Request(server.url + path, data=json.dumps(body).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def seated(server: LiveServer, game: str, options: dict[str, Any] | None = None) -> tuple[str, dict[int, str]]:
    created = post(server, "/api/tables", {"game": game, "players": 2, "seats": HUMANS, "options": options or {}})
    table = created["table"]["id"]
    return table, {int(seat): post(server, f"/api/tables/{table}/claim",
                                   {"token": invite, "name": HUMANS[int(seat)]["name"]})["token"]
                   for seat, invite in created["tokens"].items()}


def test_a_move_taken_back_on_the_page_leaves_every_log(live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    table, tokens = seated(live_server, "tomb", {"max_rounds": 30})
    pages: dict[int, Page] = {}
    tabs = []
    for seat, token in tokens.items():
        tab = open_tab()
        tab.page.goto(f"{live_server.url}/table/{table}#token={token}")
        tabs.append(tab)
        pages[seat] = tab.page
    undone = False
    for _ in range(200):
        current = live_server.get(f"/api/tables/{table}/frame")
        seat = current["table"]["to_act"]
        page = pages[seat]
        version = str(current["version"])
        expect(page.locator("#version")).to_have_text(version)
        expect(page.locator("#actions button:not([disabled])").first).to_be_visible()
        page.locator("#actions button").first.click()
        expect(page.locator("#version")).not_to_have_text(version)
        mine = live_server.get(f"/api/tables/{table}/frame", tokens[seat])
        if not mine["undo"]:
            continue
        expect(page.locator("#undo")).to_be_visible()
        before = len(mine["log"])
        if undone:
            page.keyboard.press("u")
        else:
            page.locator("#undo").click()
        expect(page.locator("#version")).to_have_text(str(mine["version"] + 1))
        after = live_server.get(f"/api/tables/{table}/frame", tokens[seat])
        assert len(after["log"]) == before - 1
        for other, other_page in pages.items():
            expected = live_server.get(f"/api/tables/{table}/frame", tokens[other])
            expect(other_page.locator("#version")).to_have_text(str(expected["version"]))
            expect(other_page.locator("#log li")).to_have_count(len(expected["log"]))
            assert [int(s) for s in other_page.locator("#log li").evaluate_all(
                "(items) => items.map((i) => i.dataset.seq)")] == [e["seq"] for e in expected["log"]]
        if undone:
            break
        undone = True
    else:
        raise AssertionError("no decision could be taken back twice")
    for tab in tabs:
        tab.assert_clean()


def test_the_replay_page_shows_the_finished_table(live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    table, tokens = seated(live_server, "solomon")
    while (current := live_server.get(f"/api/tables/{table}/frame"))["status"] != "finished":
        token = tokens[current["table"]["to_act"]]
        mine = live_server.get(f"/api/tables/{table}/frame", token)
        post(live_server, f"/api/tables/{table}/moves", {"version": mine["version"], "action": mine["legal"][-1][0]},
             token)
    tab = open_tab()
    page = tab.page
    page.goto(f"{live_server.url}/table/{table}#token={tokens[1]}")
    expect(page.locator("#replay")).to_be_visible()
    page.locator("#replay").click()
    page.wait_for_url(f"**/table/{table}/replay**")
    end = live_server.get(f"/api/tables/{table}/replay")
    expect(page.locator("#step-title")).to_have_text(f"Move {end['steps']} of {end['steps']}")
    expect(page.locator("#view")).to_have_text(end["text"])
    page.locator("#seat").select_option("1")
    page.locator("#prev-turn").click()
    step = max(s for s in end["turns"] if s < end["steps"])
    shown = live_server.get(f"/api/tables/{table}/replay?seat=1&step={step}")
    expect(page.locator("#view")).to_have_text(shown["text"])
    expect(page.locator("#log li")).to_have_count(step)
    tab.assert_clean()
