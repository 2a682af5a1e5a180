"""End to end: the real server and real browsers create a table, play it to the end, spectate and reconnect.

Every few moves each page is compared with what its seat may see, fetched from the API with each seat's
token: a page never shows a line of another seat's view that its own view lacks, nor another seat's log
text, nor (before the end) the seed. The players use the page as a person does: its lists, buttons and texts.
The two-player game is played through the pages for its first ``PAGE_MOVES`` decisions (a dropped socket and a
server restart among them); its rest is played through the API with the seats' tokens while the pages follow
it, so that the end is reached in a test of bounded length (whole games by clicks alone are in
``test_first_game.py``).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import Locator, Page, WebSocketRoute, expect

from obelisk.core.seeds import verify
from tests.web.conftest import LiveServer, Tab
from tests.web.person import result, status_line, wait_answered
from tests.web.test_client import all_moves, open_details
from tests.web.lobby import create_in_lobby, set_name

CHECK_EVERY = 10
PAGE_MOVES = 30
"""Decisions the players take through their pages before the API plays the rest of the game."""
LAST_BUTTON = 0.7
"""How often a player clicks the last button (in Valley "end turn"), which halves a game against random clicks."""


SNAPSHOT = """() => ({
  text: document.body.innerText,
  html: document.documentElement.outerHTML,
})"""


def lines(text: str) -> set[str]:
    return {line.strip() for line in text.splitlines() if line.strip()}


def token_of(link: str) -> str:
    return urlsplit(link).fragment.removeprefix("token=")


def kept_token(tab: Tab, table: str) -> str:
    """The seat token a page keeps for ``table`` (what its claim answered), for the test's own API calls."""
    stored = json.loads(tab.page.evaluate(f"localStorage.getItem('obelisk.seat.{table}')"))
    return str(stored["token"])


def check_hidden_information(server: LiveServer, table: str, pages: dict[int | None, Page],
                             tokens: dict[int, str]) -> list[str]:
    """Each page shows its own seat's view and nothing that only another seat's view or log holds; the pages' HTML."""
    frames = {seat: server.get(f"/api/tables/{table}/frame", tokens.get(seat) if seat is not None else None)
              for seat in pages}
    version = frames[None]["version"]
    assert all(f["version"] == version for f in frames.values())
    html = []
    for seat, page in pages.items():
        mine = frames[seat]
        expect(page.get_by_role("group", name="The table in words").locator("pre")).to_have_text(mine["text"])
        wait_answered(page)
        shown = page.evaluate(SNAPSHOT)
        html.append(shown["html"])
        visible = lines(shown["text"])
        for other, theirs in frames.items():
            if other == seat:
                continue
            # a line of their view that my own view nowhere holds (a wrapped line of their hand may be one card's
            # name, which is no secret where my view names that card too: on the pyramid, say)
            secret = {line for line in lines(theirs["text"]) if line not in mine["text"]}
            assert not secret & visible, f"seat {seat}'s page shows {other}'s view: {secret & visible}"
            public = {entry["text"] for entry in mine["log"]}
            for mine_entry, their_entry in zip(mine["log"], theirs["log"]):
                if their_entry["text"] not in public:
                    assert their_entry["text"] not in shown["html"], f"seat {seat}'s page shows {other}'s log"
        for other, token in tokens.items():
            if other != seat:
                assert token not in shown["html"]
    return html


def play_move(page: Page, rng: random.Random) -> None:
    """Clicks one of the moves in the page's list of all moves (the last one most often: in Valley "end turn")."""
    buttons = all_moves(page).get_by_role("button")
    expect(buttons.first).to_be_enabled()
    count = buttons.count()
    choice = count - 1 if rng.random() < LAST_BUTTON else rng.randrange(count)
    buttons.nth(choice).click()
    dialog = page.get_by_role("dialog", name="This move cannot be taken back")
    if dialog.count() and dialog.is_visible():
        dialog.get_by_role("button").first.click()
    wait_answered(page)
    expect(page.get_by_role("alert")).to_be_hidden()


def to_act(server: LiveServer, table: str) -> int | None:
    return server.get(f"/api/tables/{table}")["to_act"]


def drop_socket_routes(tab: Tab) -> list[tuple[WebSocketRoute, WebSocketRoute]]:
    """Routes the tab's websockets through the test, so the test can cut them."""
    routes: list[tuple[WebSocketRoute, WebSocketRoute]] = []

    def through(ws: WebSocketRoute) -> None:
        routes.append((ws, ws.connect_to_server()))

    tab.context.route_web_socket(re.compile(r".*/ws/tables/.*"), through)
    return routes


def connection(page: Page) -> Locator:
    return page.get_by_role("banner").get_by_role("status")


def test_two_players_play_valley_to_the_end_watched_by_a_spectator(
        live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    ann, bea, watcher = open_tab(), open_tab(), open_tab()
    links = create_in_lobby(ann.page, live_server, [("human", "Ann"), ("human", "Bea")], public=False)
    mine, invite = token_of(links["seat-0"]), token_of(links["seat-1"])
    table = urlsplit(links["spectator"]).path.rsplit("/", 1)[1]
    cut = drop_socket_routes(bea)

    ann.page.goto(links["seat-0"])
    bea.page.goto(links["seat-1"])
    watcher.page.goto(links["spectator"])
    for tab, who in ((ann, "You play as Ann."), (bea, "You play as Bea."), (watcher, "You are watching this table.")):
        expect(tab.page.get_by_role("region", name="Players at the table")).to_contain_text(who)
        expect(connection(tab.page)).to_have_text("connected")
    assert "token" not in ann.page.url and "token" not in bea.page.url
    tokens = {seat: kept_token(tab, table) for seat, tab in ((0, ann), (1, bea))}
    # the creator's page keeps the token the lobby's claim answered, Bea's the one her claim answered
    assert tokens[0] == mine and tokens[1] != invite
    commitment = live_server.get(f"/api/tables/{table}")["commitment"]
    expect(open_details(watcher.page, "Fair shuffle")).to_contain_text(commitment)

    pages: dict[int | None, Page] = {0: ann.page, 1: bea.page, None: watcher.page}
    rng = random.Random(7)
    snapshots: list[str] = []
    moves = 0
    while (acting := to_act(live_server, table)) is not None:
        if moves % CHECK_EVERY == 0 and moves <= PAGE_MOVES:
            snapshots.extend(check_hidden_information(live_server, table, pages, tokens))
            expect(watcher.page.get_by_text(re.compile("^All moves"))).to_be_hidden()
        if moves == 10:
            ws, upstream = cut[-1]
            ws.close()
            upstream.close()
            expect(connection(bea.page)).to_have_text(re.compile("^(connection lost|connecting)"))
            expect(connection(bea.page)).to_have_text("connected")
        if moves == 20:
            live_server.restart()
            for page in pages.values():
                expect(connection(page)).to_have_text("connected", timeout=20_000)
        if moves < PAGE_MOVES:
            page = pages[acting]
            expect(status_line(page)).to_have_text(re.compile("^Your turn"))
            play_move(page, rng)
        else:
            frame = live_server.get(f"/api/tables/{table}/frame", tokens[acting])
            live_server.post(f"/api/tables/{table}/moves", {"version": frame["version"],
                                                            "action": frame["legal"][-1][0]}, tokens[acting])
        moves += 1

    assert live_server.get(f"/api/tables/{table}")["status"] == "finished"
    assert len(cut) >= 3, "the dropped socket and the restart were each followed by a new connection"
    reveal = live_server.get(f"/api/tables/{table}/frame")["reveal"]
    seed = str(reveal["seed"])
    assert verify(reveal["seed"], reveal["salt"], commitment)
    assert not any(seed in html for html in snapshots)
    for page in pages.values():  # the pages follow the moves the API made, frame by frame
        expect(status_line(page)).to_have_text("Game over", timeout=90_000)
    check_hidden_information(live_server, table, pages, tokens)
    for tab in (ann, bea, watcher):
        page = tab.page
        expect(status_line(page)).to_have_text("Game over")
        rows = result(page).get_by_role("row")
        expect(rows).to_have_count(3)
        expect(rows.nth(1).get_by_role("cell").first).to_have_text("1")
        fairness = open_details(page, "Fair shuffle: checked, the seed matches")
        expect(fairness).to_contain_text(f"Seed {seed}")
        expect(fairness).to_contain_text("matches the commitment")
        tab.assert_clean()
    record: dict[str, Any] = live_server.get(f"/api/tables/{table}/record")
    assert str(record["seed"]) == seed
    with ann.page.expect_download() as download:
        ann.page.get_by_role("link", name="Download the record").click()
    assert json.loads(open(download.value.path()).read())["seed"] == record["seed"]

    ann.page.get_by_role("button", name="Rematch").click()
    expect(ann.page.get_by_role("alert")).to_be_hidden()
    ann.page.wait_for_url(lambda url: url != links["spectator"])
    expect(ann.page.get_by_role("region", name="Players at the table")).to_contain_text("You play as Ann.")
    bea.page.get_by_role("button", name="Join the rematch").click()
    bea.page.wait_for_url(ann.page.url)
    expect(bea.page.get_by_role("region", name="Players at the table")).to_contain_text("You play as Bea.")
    expect(status_line(ann.page)).not_to_have_text("Waiting for players to take their seats")


def test_a_public_table_is_joined_from_the_open_tables_and_listed_as_mine(
        live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    host, guest = open_tab(), open_tab()
    links = create_in_lobby(host.page, live_server, [("human", "Ann"), ("human", "")], public=True)
    table = urlsplit(links["spectator"]).path.rsplit("/", 1)[1]
    host.page.goto(links["seat-0"])
    expect(host.page.get_by_role("region", name="Players at the table")).to_contain_text("You play as Ann.")
    expect(status_line(host.page)).to_have_text("Waiting for players to take their seats")

    guest.page.goto(live_server.url + "/")
    set_name(guest.page, "Cleo <b>")
    open_tables = guest.page.get_by_role("list", name="Open tables")
    waiting = open_tables.get_by_role("listitem").filter(has_text="Valley of the Kings")
    expect(waiting).to_contain_text("1 free seat of 2")
    expect(waiting).to_contain_text("Waiting: Ann")
    waiting.get_by_role("button", name="Join as player 2").click()
    expect(guest.page.get_by_role("region", name="Players at the table")).to_contain_text("You play as Cleo <b>.")
    expect(host.page.get_by_role("region", name="Players at the table").get_by_role("listitem").nth(1)).to_contain_text("Cleo <b>")
    expect(status_line(host.page)).not_to_have_text("Waiting for players to take their seats")
    guest.page.goto(live_server.url + "/")
    mine = guest.page.get_by_role("list", name="My tables").get_by_role("listitem")
    expect(mine).to_have_count(1)
    expect(mine).to_contain_text("Valley of the Kings")
    expect(mine).to_contain_text("Ann, Cleo <b> (you)")
    expect(mine).to_contain_text("playing")
    expect(guest.page.get_by_text("No table is waiting for players.")).to_be_visible()
    host.assert_clean()
    guest.assert_clean()


def test_an_invite_link_takes_its_seat_once(live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    """The browser that opens an invite first keeps the seat, through reloads and the link opened again; the
    same link in another browser is told it was used, and that browser only watches."""
    host, bea, other = open_tab(), open_tab(), open_tab()
    links = create_in_lobby(host.page, live_server, [("human", "Ann"), ("human", "Bea")], public=False)
    table = urlsplit(links["spectator"]).path.rsplit("/", 1)[1]
    bea.page.goto(links["seat-1"])
    expect(bea.page.get_by_role("region", name="Players at the table")).to_contain_text("You play as Bea.")
    token = kept_token(bea, table)
    assert token != token_of(links["seat-1"])
    bea.page.reload()
    expect(bea.page.get_by_role("region", name="Players at the table")).to_contain_text("You play as Bea.")
    bea.page.goto(links["seat-1"])
    expect(bea.page.get_by_role("region", name="Players at the table")).to_contain_text("You play as Bea.")
    expect(bea.page.get_by_role("alert")).to_be_hidden()
    assert kept_token(bea, table) == token

    other.page.goto(links["seat-1"])
    expect(other.page.get_by_role("alert")).to_contain_text("this invite was already used")
    expect(other.page.get_by_role("region", name="Players at the table")).to_contain_text("You are watching this table.")
    assert other.page.evaluate(f"localStorage.getItem('obelisk.seat.{table}')") is None
    assert live_server.get(f"/api/tables/{table}/frame", token)["seat"] == 1
    for tab in (host, bea, other):
        tab.assert_clean()
