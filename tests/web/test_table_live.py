"""End to end with the real server: a seat takes a move back on the table page and every page's log follows;
a finished table's replay page shows what the API's replay gives."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from tests.web.conftest import LiveServer, Tab
from tests.web.person import result, status, wait_answered, wait_turn
from tests.web.test_client import all_moves, log_items

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


def moves_in(log: list[dict[str, Any]]) -> int:
    """How many moves the page's log shows for these entries: each decision (its chance events folded in), and
    the set-up when chance came first."""
    return sum(entry["actor"] != -1 for entry in log) + (bool(log) and log[0]["actor"] == -1)


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
        wait_turn(page)
        moves = all_moves(page)
        moves.get_by_role("button").first.click()
        dialog = page.get_by_role("dialog", name="This move cannot be taken back")
        if dialog.count() and dialog.is_visible():
            dialog.get_by_role("button").first.click()
        wait_answered(page)
        mine = live_server.get(f"/api/tables/{table}/frame", tokens[seat])
        if not mine["undo"]:
            continue
        undo = status(page).get_by_role("button", name="Undo")
        expect(undo).to_be_visible()
        before = len(mine["log"])
        if undone:
            page.keyboard.press("u")
        else:
            undo.click()
        wait_answered(page)
        after = live_server.get(f"/api/tables/{table}/frame", tokens[seat])
        assert len(after["log"]) == before - 1
        for other, other_page in pages.items():
            expected = live_server.get(f"/api/tables/{table}/frame", tokens[other])
            expect(other_page.get_by_role("group", name="The table in words").locator("pre")).to_have_text(expected["text"])
            expect(log_items(other_page)).to_have_count(moves_in(expected["log"]))
        if undone:
            break
        undone = True
    else:
        raise AssertionError("no decision could be taken back twice")
    for tab in tabs:
        tab.assert_clean()


def test_the_replay_page_shows_the_finished_table(live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    table, tokens = seated(live_server, "solomon")
    post(live_server, f"/api/tables/{table}/chat", {"text": "good luck"}, tokens[0])
    post(live_server, f"/api/tables/{table}/chat", {"text": "what a move", "name": "Eve"}, None)
    while (current := live_server.get(f"/api/tables/{table}/frame"))["status"] != "finished":
        token = tokens[current["table"]["to_act"]]
        mine = live_server.get(f"/api/tables/{table}/frame", token)
        post(live_server, f"/api/tables/{table}/moves", {"version": mine["version"], "action": mine["legal"][-1][0]},
             token)
    tab = open_tab()
    page = tab.page
    page.goto(f"{live_server.url}/table/{table}#token={tokens[1]}")
    replay = result(page).get_by_role("link", name="Replay the game")
    expect(replay).to_be_visible()
    replay.click()
    page.wait_for_url(f"**/table/{table}/replay**")
    end = live_server.get(f"/api/tables/{table}/replay")
    expect(page.get_by_role("heading", name=f"Move {end['steps']} of {end['steps']}")).to_be_visible()
    expect(page.locator("pre")).to_have_text(end["text"])
    page.get_by_label("Seen by").select_option("1")
    page.get_by_role("button", name="Previous turn").click()
    step = max(s for s in end["turns"] if s < end["steps"])
    shown = live_server.get(f"/api/tables/{table}/replay?seat=1&step={step}")
    expect(page.locator("pre")).to_have_text(shown["text"])
    expect(page.get_by_role("region", name="Log").get_by_role("listitem")).to_have_count(step)
    chat = page.get_by_role("region", name="Chat")
    expect(chat.get_by_role("listitem").filter(has_text="good luck")).to_contain_text("Ann: good luck")
    expect(chat.get_by_role("listitem").filter(has_text="what a move")).to_contain_text("Eve (spectator): what a move")
    tab.assert_clean()
