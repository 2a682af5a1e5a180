"""End to end: the real server and real browsers create a table, play it to the end, spectate and reconnect.

Every few moves each page is compared with what its seat may see, fetched from the API with each seat's
token: a page never shows a line of another seat's view that its own view lacks, nor another seat's log
text, nor (before the end) the seed.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import Page, WebSocketRoute, expect

from obelisk.core.seeds import verify
from tests.web.conftest import LiveServer, Tab
from tests.web.lobby import create_in_lobby, set_name

CHECK_EVERY = 10
LAST_BUTTON = 0.7
"""How often a player clicks the last button (in Valley "end turn"), which halves a game against random clicks."""


SNAPSHOT = """() => ({
  version: document.getElementById("version").textContent,
  text: document.body.textContent,
  view: document.getElementById("view").textContent,
  html: document.documentElement.outerHTML,
  log: Object.fromEntries(Array.from(document.querySelectorAll("#log li"), (li) => [li.dataset.seq, li.textContent])),
})"""
READY = """(version) => {
  if (document.getElementById("version").textContent !== version) return false;
  return document.querySelectorAll("#actions button:not([disabled])").length || false;
}"""
MOVED = """(version) => {
  const now = document.getElementById("version").textContent;
  const error = document.getElementById("table-error");
  if (!error.hidden) return {error: error.textContent};
  if (now === version) return false;
  const turn = document.querySelector("#seats [data-turn]");
  return {version: now, toAct: turn ? Number(turn.dataset.seat) : null};
}"""


def lines(text: str) -> set[str]:
    return {line.strip() for line in text.splitlines() if line.strip()}


def token_of(link: str) -> str:
    return urlsplit(link).fragment.removeprefix("token=")


def check_hidden_information(server: LiveServer, table: str, pages: dict[int | None, Page],
                             tokens: dict[int, str]) -> list[str]:
    """Each page shows its own seat's view and nothing that only another seat's view holds; the pages' HTML."""
    frames = {seat: server.get(f"/api/tables/{table}/frame", tokens.get(seat) if seat is not None else None)
              for seat in pages}
    version = frames[None]["version"]
    assert all(f["version"] == version for f in frames.values())
    html = []
    for seat, page in pages.items():
        page.wait_for_function("(v) => document.getElementById('version').textContent === v", arg=str(version),
                               polling=20)
        shown = page.evaluate(SNAPSHOT)
        html.append(shown["html"])
        mine = frames[seat]
        assert shown["view"] == mine["text"]
        visible = lines(shown["text"])
        for other, theirs in frames.items():
            if other == seat:
                continue
            secret = lines(theirs["text"]) - lines(mine["text"])
            assert not secret & visible, f"seat {seat}'s page shows {other}'s view: {secret & visible}"
            for mine_entry, their_entry in zip(mine["log"], theirs["log"]):
                if mine_entry["text"] != their_entry["text"]:
                    entry = shown["log"][str(mine_entry["seq"])]
                    assert entry.endswith(mine_entry["text"]) and their_entry["text"] not in entry
        for other, token in tokens.items():
            if other != seat:
                assert token not in shown["html"]
    return html


def play_move(page: Page, version: str, rng: random.Random) -> dict[str, Any]:
    """Clicks one of the page's action buttons once it shows ``version``; the version and seat to act next."""
    count = page.wait_for_function(READY, arg=version, polling=10).json_value()
    choice = count - 1 if rng.random() < LAST_BUTTON else rng.randrange(count)
    page.locator("#actions button").nth(choice).click()
    moved: dict[str, Any] = page.wait_for_function(MOVED, arg=version, polling=10).json_value()
    assert "error" not in moved, moved
    return moved


def drop_socket_routes(tab: Tab) -> list[tuple[WebSocketRoute, WebSocketRoute]]:
    """Routes the tab's websockets through the test, so the test can cut them."""
    routes: list[tuple[WebSocketRoute, WebSocketRoute]] = []

    def through(ws: WebSocketRoute) -> None:
        routes.append((ws, ws.connect_to_server()))

    tab.context.route_web_socket(re.compile(r".*/ws/tables/.*"), through)
    return routes


def test_two_players_play_valley_to_the_end_watched_by_a_spectator(
        live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    ann, bea, watcher = open_tab(), open_tab(), open_tab()
    links = create_in_lobby(ann.page, live_server, [("human", "Ann"), ("human", "Bea")], public=False)
    tokens = {0: token_of(links["seat-0"]), 1: token_of(links["seat-1"])}
    table = urlsplit(links["spectator"]).path.rsplit("/", 1)[1]
    cut = drop_socket_routes(bea)

    ann.page.goto(links["seat-0"])
    bea.page.goto(links["seat-1"])
    watcher.page.goto(links["spectator"])
    for tab, who in ((ann, "you are seat 0"), (bea, "you are seat 1"), (watcher, "spectating")):
        expect(tab.page.locator("#whoami")).to_have_text(who)
        expect(tab.page.locator("#connection")).to_have_attribute("data-state", "online")
    assert "token" not in ann.page.url and "token" not in bea.page.url
    stored = json.loads(bea.page.evaluate(f"localStorage.getItem('obelisk.seat.{table}')"))
    assert stored["token"] == tokens[1] and stored["seat"] == 1
    expect(watcher.page.locator("#table-status")).to_have_text("playing")
    commitment = live_server.get(f"/api/tables/{table}")["commitment"]
    expect(watcher.page.locator("#commitment")).to_have_text(commitment)

    pages: dict[int | None, Page] = {0: ann.page, 1: bea.page, None: watcher.page}
    rng = random.Random(7)
    snapshots: list[str] = []
    summary = live_server.get(f"/api/tables/{table}")
    turn: dict[str, Any] = {"version": str(summary["version"]), "toAct": summary["to_act"]}
    moves = 0
    while turn["toAct"] is not None:
        if moves % CHECK_EVERY == 0:
            snapshots.extend(check_hidden_information(live_server, table, pages, tokens))
            expect(watcher.page.locator("#actions button")).to_have_count(0)
        if moves == 20:
            ws, upstream = cut[-1]
            ws.close()
            upstream.close()
            expect(bea.page.locator("#connection")).to_have_attribute("data-state", "offline")
            expect(bea.page.locator("#connection")).to_have_attribute("data-state", "online")
        if moves == 40:
            live_server.restart()
            for page in pages.values():
                expect(page.locator("#connection")).to_have_attribute("data-state", "online", timeout=20_000)
        turn = play_move(pages[turn["toAct"]], turn["version"], rng)
        moves += 1

    assert live_server.get(f"/api/tables/{table}")["status"] == "finished"
    assert len(cut) >= 3, "the dropped socket and the restart were each followed by a new connection"
    reveal = live_server.get(f"/api/tables/{table}/frame")["reveal"]
    seed = str(reveal["seed"])
    assert verify(reveal["seed"], reveal["salt"], commitment)
    assert not any(seed in html for html in snapshots)
    check_hidden_information(live_server, table, pages, tokens)
    for tab in (ann, bea, watcher):
        page = tab.page
        expect(page.locator("#turn-title")).to_have_text("Game over")
        expect(page.locator("#scores tbody tr")).to_have_count(2)
        expect(page.locator("#seed")).to_have_text(seed)
        expect(page.locator("#verified")).to_contain_text("matches the commitment")
        places = page.locator("#scores tbody tr td:first-child").all_text_contents()
        assert places[0] == "1"
        tab.assert_clean()
    record: dict[str, Any] = live_server.get(f"/api/tables/{table}/record")
    assert str(record["seed"]) == seed
    with ann.page.expect_download() as download:
        ann.page.locator("#record").click()
    assert json.loads(open(download.value.path()).read())["seed"] == record["seed"]

    ann.page.locator("#rematch").click()
    expect(ann.page.locator("#table-error")).to_be_hidden()
    ann.page.wait_for_url(lambda url: url != links["spectator"])
    expect(ann.page.locator("#whoami")).to_have_text("you are seat 0")
    expect(bea.page.locator("#rematch")).to_have_text("Join the rematch")
    bea.page.locator("#rematch").click()
    bea.page.wait_for_url(ann.page.url)
    expect(bea.page.locator("#whoami")).to_have_text("you are seat 1")
    expect(ann.page.locator("#table-status")).to_have_text("playing")


def test_a_public_table_is_joined_from_the_open_tables_and_listed_as_mine(
        live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    host, guest = open_tab(), open_tab()
    links = create_in_lobby(host.page, live_server, [("human", "Ann"), ("human", "")], public=True)
    table = urlsplit(links["spectator"]).path.rsplit("/", 1)[1]
    host.page.goto(links["seat-0"])
    expect(host.page.locator("#whoami")).to_have_text("you are seat 0")

    guest.page.goto(live_server.url + "/")
    set_name(guest.page, "Cleo <b>")
    open_tables = guest.page.get_by_role("list", name="Open tables")
    waiting = open_tables.get_by_role("listitem").filter(has_text="Valley of the Kings")
    expect(waiting).to_contain_text("1 free seat of 2")
    expect(waiting).to_contain_text("Waiting: Ann")
    waiting.get_by_role("button", name="Join as player 2").click()
    expect(guest.page.locator("#whoami")).to_have_text("you are seat 1")
    expect(host.page.locator('#seats [data-seat="1"]')).to_contain_text("Cleo <b>")
    expect(host.page.locator("#table-status")).to_have_text("playing")
    guest.page.goto(live_server.url + "/")
    mine = guest.page.get_by_role("list", name="My tables").get_by_role("listitem")
    expect(mine).to_have_count(1)
    expect(mine).to_contain_text("Valley of the Kings")
    expect(mine).to_contain_text("Ann, Cleo <b> (you)")
    expect(mine).to_contain_text("playing")
    expect(guest.page.get_by_text("No table is waiting for players.")).to_be_visible()
    host.assert_clean()
    guest.assert_clean()
