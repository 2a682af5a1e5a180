"""The browser client against a scripted server: escaping, the move protocol, errors, reconnection, CSP.

The pages and static files are the real ones; the HTTP API and the websocket are answered by the test, so
these tests pin what the client sends and how it shows what it receives, independent of the server. The page
is read the way a person reads it: by roles, labels and visible text.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlparse

import pytest
from playwright.sync_api import BrowserContext, Locator, Page, Route, WebSocketRoute, expect

from obelisk.core.seeds import commitment
from tests.web.conftest import STATIC, Tab

ORIGIN = "http://localhost:9"
CSP = "default-src 'self'"
HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>&amp;'
TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml",
         ".webp": "image/webp"}


class ScriptedServer:
    """Serves the real static files; API answers come from ``answers`` and every request is recorded."""

    def __init__(self, context: BrowserContext) -> None:
        self.answers: dict[tuple[str, str], tuple[int, Any]] = {}
        self.requests: list[dict[str, Any]] = []
        self.sockets: list[WebSocketRoute] = []
        self.received: list[dict[str, Any]] = []
        context.route(f"{ORIGIN}/**", self._http)
        context.route_web_socket("ws://localhost:9/ws/**", self._socket)

    def _http(self, route: Route) -> None:
        url = urlparse(route.request.url)
        path = url.path
        if path.startswith("/api/"):
            key = path + (f"?{url.query}" if url.query else "")
            self.requests.append({
                "method": route.request.method, "path": key, "headers": route.request.headers,
                "body": route.request.post_data_json if route.request.post_data else None,
            })
            status, body = self.answers.get((route.request.method, key), (404, {"error": {"code": "not_found",
                                                                                       "message": "no such thing"}}))
            route.fulfill(status=status, json=body)
            return
        if path == "/":
            file = STATIC / "lobby.html"
        elif path.startswith("/table/"):
            file = STATIC / "table.html"
        elif path.startswith("/static/"):
            file = STATIC / path.removeprefix("/static/")
        else:
            route.fulfill(status=404, body="not found")
            return
        route.fulfill(status=200, body=file.read_bytes(),
                      headers={"content-type": TYPES[file.suffix], "content-security-policy": CSP})

    def _socket(self, ws: WebSocketRoute) -> None:
        self.sockets.append(ws)
        ws.on_message(lambda message: self.received.append(json.loads(message)))

    def wait(self, page: Page, condition: Callable[[], Any], what: str) -> Any:
        """Lets the page run until ``condition()`` is truthy (Playwright delivers events while the page waits)."""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            found = condition()
            if found:
                return found
            page.wait_for_timeout(25)
        raise AssertionError(f"timed out waiting for {what}")

    def request(self, page: Page, method: str, path: str) -> dict[str, Any]:
        return self.wait(page, lambda: next((r for r in self.requests if r["method"] == method and r["path"] == path),
                                            None), f"{method} {path}")

    def send(self, frame: dict[str, Any], socket: int = -1) -> None:
        self.sockets[socket].send(json.dumps(frame))


def summary(status: str = "playing", version: int = 5, **extra: Any) -> dict[str, Any]:
    seats = [
        {"seat": 0, "kind": "human", "name": "Ann", "bot": None, "claimed": True, "connected": True},
        {"seat": 1, "kind": "human", "name": HOSTILE, "bot": None, "claimed": True, "connected": False},
        {"seat": 2, "kind": "bot", "name": "greedy", "bot": "greedy", "claimed": True, "connected": True},
    ]
    return {"id": "T1", "game": "valley", "game_name": "Valley of the Kings", "players": 3, "options": {},
            "seats": seats, "status": status, "version": version, "commitment": "sha256:" + "0" * 64,
            "public": True, "created": "2026-01-01T00:00:00Z", "updated": "2026-01-01T00:00:00Z", "rematch": None,
            **extra}


def frame(version: int, legal: list[list[Any]], **extra: Any) -> dict[str, Any]:
    """A frame as the server sends it; a legal entry given as ``[id, label]`` gets no range and ``final`` false."""
    acting = 0 if legal else 1
    body = {"type": "frame", "table": summary(version=version), "seat": 0, "version": version,
            "view": {"current_player": acting}, "text": f"board at {version}\n{HOSTILE}",
            "legal": [[*entry, None, None, False][:max(5, len(entry))] for entry in legal], "shortcuts": [],
            "decision": {"seat": acting, "text": f"choose {HOSTILE}"}, "progress": f"turn {version}",
            "log": [{"seq": 0, "actor": -1, "text": "deal"}, {"seq": 1, "actor": 1, "text": HOSTILE}],
            "status": "playing", "result": None, "reveal": None}
    body.update(extra)
    return body


def assert_not_injected(page: Page) -> None:
    assert page.evaluate("window.__pwned") is None
    images = page.evaluate("Array.from(document.images, (img) => new URL(img.src).pathname)")
    assert all(path.startswith("/static/games/") for path in images), images
    assert page.locator("main script").count() == 0


def status_line(page: Page) -> Locator:
    """The line on top that says whose turn it is and what to do."""
    return page.get_by_role("region", name="Status").get_by_role("heading")


def all_moves(page: Page) -> Locator:
    """The full labelled list of moves (folded under the board), opened."""
    moves = page.get_by_role("group", name=re.compile(r"^All moves \(\d+\)$"))
    expect(moves).to_be_visible()
    if moves.get_attribute("open") is None:
        moves.get_by_text(re.compile(r"^All moves")).click()
    return moves


def open_details(page: Page, name: str) -> Locator:
    """Opens the folded section whose summary reads ``name`` and returns it."""
    section = page.get_by_role("group", name=name, exact=True)
    if section.get_attribute("open") is None:
        page.get_by_text(name, exact=True).click()
    return section


def log_items(page: Page) -> Locator:
    """The moves shown in the log (a chance event folded into its move is not an item of its own)."""
    return open_details(page, "Log").get_by_role("list").first.get_by_role("listitem")


def view_text(page: Page) -> Locator:
    """The table in words (the seat's view as text)."""
    return page.get_by_role("group", name="The table in words").locator("pre")


GAMES = [
    {"id": "valley", "name": f"Valley {HOSTILE}", "min_players": 2, "max_players": 4, "default_players": 2,
     "description": HOSTILE, "minutes": None, "turns": [13, 24], "options": [
         {"name": "forced_removal", "default": "base", "allowed": ["base", "any"], "type": "str", "description": "",
          "label": "Removal", "help": HOSTILE, "value_labels": ["Bottom row", f"Any {HOSTILE}"],
          "value_help": ["", f"explained {HOSTILE}"], "unit": "", "rare": False},
         {"name": "tiebreak_gold", "default": False, "allowed": [False, True], "type": "bool", "description": "",
          "label": "Gold breaks ties", "help": "", "value_labels": ["No", "Yes"], "value_help": [], "unit": "",
          "rare": True},
         {"name": "rounds", "default": 3, "allowed": None, "min": 1, "max": 9, "type": "int", "description": "",
          "label": "Rounds", "help": "0: none", "value_labels": [], "value_help": [], "unit": "rounds",
          "rare": True},
     ]},
]


def test_lobby_builds_forms_creates_a_table_and_joins_an_open_seat(open_tab: Callable[[], Tab]) -> None:
    tab = open_tab()
    server = ScriptedServer(tab.context)
    open_table = summary(status="waiting", id="T2")
    open_table["seats"][1]["claimed"] = False
    server.answers[("GET", "/api/games")] = (200, GAMES)
    server.answers[("GET", "/api/tables?status=waiting")] = (200, {"tables": [open_table]})
    page = tab.page
    page.goto(ORIGIN + "/")
    card = page.get_by_role("article", name=f"Valley {HOSTILE}")
    expect(card.get_by_role("heading")).to_have_text(f"Valley {HOSTILE}")
    expect(card).to_contain_text("2–4 players · 13–24 turns each")
    expect(card.get_by_role("img")).to_have_attribute("alt", f"The board of Valley {HOSTILE} in the middle of a game")
    assert_not_injected(page)
    card.get_by_role("button", name="Set up a table").click()
    form = page.get_by_role("form", name=f"New table: Valley {HOSTILE}")
    removal = form.get_by_label("Removal")
    expect(removal.get_by_role("option")).to_have_text(["Bottom row", f"Any {HOSTILE}"])
    expect(form.get_by_label("Rounds")).to_be_hidden()
    form.get_by_text("More options").click()
    expect(form.get_by_label("Gold breaks ties").get_by_role("option")).to_have_text(["No", "Yes"])
    expect(form.get_by_label("Rounds")).to_have_value("3")
    expect(form.get_by_text("rounds", exact=True)).to_be_visible()

    name = page.get_by_label("Your name")
    name.fill("Ann")
    name.dispatch_event("change")
    form.get_by_label("Players", exact=True).select_option(label="3 players")
    expect(form.get_by_label("Player 1 (you)")).to_have_value("you")
    public = form.get_by_label("List in open tables")
    expect(public).not_to_be_checked()
    form.get_by_label("Player 2", exact=True).select_option(label="A person (invite link)")
    form.get_by_label("Name of player 2 (optional)").fill("Bea")
    expect(public).to_be_checked()
    form.get_by_label("Player 3", exact=True).select_option(label="Bot (strong)")
    form.get_by_text("Advanced", exact=True).click()
    form.get_by_label("Bot for player 3").select_option("random")
    expect(form.get_by_label("Time for a move").get_by_role("option")).to_have_text(
        ["No limit", "1 minute", "5 minutes", "15 minutes", "1 hour", "1 day", "3 days", "7 days", "14 days"])
    form.get_by_label("Time for a move").select_option(label="5 minutes")
    form.get_by_label("Gold breaks ties").select_option(label="Yes")
    removal.select_option(label=f"Any {HOSTILE}")
    expect(form.get_by_text(f"explained {HOSTILE}")).to_be_visible()
    form.get_by_label("Rounds").fill("99")
    form.get_by_role("button", name="Create table").click()
    expect(page.get_by_role("alert")).to_have_text("Rounds: enter a whole number from 1 to 9")
    assert not [r for r in server.requests if r["method"] == "POST"]
    form.get_by_label("Rounds").fill("5")

    server.answers[("POST", "/api/tables")] = (201, {
        "table": summary(status="waiting", id="T9"),
        "tokens": {"0": "tok0", "1": "tok1"},
        "invite_urls": {"0": "/table/T9#token=tok0", "1": "/table/T9#token=tok1"},
        "spectator_url": "/table/T9",
    })
    server.answers[("POST", "/api/tables/T9/claim")] = (200, {"seat": 0, "token": "tok-seat-0"})
    server.answers[("GET", "/api/tables/T9")] = (200, summary(status="waiting", id="T9"))
    form.get_by_role("button", name="Create table").click()
    created = server.request(page, "POST", "/api/tables")["body"]
    assert created == {
        "game": "valley", "players": 3, "options": {"forced_removal": "any", "tiebreak_gold": True, "rounds": 5},
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bea"},
                  {"kind": "bot", "bot": "random"}],
        "public": True, "turn_seconds": 300,
    }
    assert server.request(page, "POST", "/api/tables/T9/claim")["body"] == {"token": "tok0", "name": "Ann"}
    links = page.get_by_role("region", name="Table created")
    expect(links.get_by_role("link", name="Go to your table")).to_have_attribute("href", "/table/T9")
    expect(links.get_by_role("textbox", name=f"Invite for player 2 ({HOSTILE})")).to_have_value(
        ORIGIN + "/table/T9#token=tok1")
    expect(links.get_by_role("textbox", name="For spectators")).to_have_value(ORIGIN + "/table/T9")
    expect(links.get_by_role("textbox")).to_have_count(2)
    assert json.loads(page.evaluate("localStorage.getItem('obelisk.seat.T9')"))["token"] == "tok-seat-0", \
        "the lobby keeps the token the claim answered, not the invite it claimed with"
    mine = page.get_by_role("list", name="My tables").get_by_role("listitem")
    expect(mine).to_contain_text(f"Ann (you), {HOSTILE}, Bot (easy)")
    expect(mine).to_contain_text("waiting for players")

    server.answers[("POST", "/api/tables/T2/join")] = (200, {"seat": 1, "token": "joined-token"})
    row = page.get_by_role("list", name="Open tables").get_by_role("listitem")
    expect(row).to_contain_text("1 free seat of 3")
    expect(row).to_contain_text("Waiting: Ann · Also at the table: Bot (easy)")
    row.get_by_role("button", name="Join as player 2").click()
    assert server.request(page, "POST", "/api/tables/T2/join")["body"] == {"seat": 1, "name": "Ann"}
    page.wait_for_url(ORIGIN + "/table/T2")
    stored = json.loads(page.evaluate("localStorage.getItem('obelisk.seat.T2')"))
    assert (stored["token"], stored["seat"]) == ("joined-token", 1)
    assert_not_injected(page)
    tab.assert_clean()


def test_a_join_without_a_name_sends_none_so_the_seat_reads_player_n(open_tab: Callable[[], Tab]) -> None:
    tab = open_tab()
    server = ScriptedServer(tab.context)
    open_table = summary(status="waiting", id="T2")
    open_table["seats"][1]["claimed"] = False
    server.answers[("GET", "/api/games")] = (200, GAMES)
    server.answers[("GET", "/api/tables?status=waiting")] = (200, {"tables": [open_table]})
    server.answers[("POST", "/api/tables/T2/join")] = (200, {"seat": 1, "token": "joined-token"})
    tab.page.goto(ORIGIN + "/")
    tab.page.get_by_role("button", name="Join as player 2").click()
    assert server.request(tab.page, "POST", "/api/tables/T2/join")["body"] == {"seat": 1}
    tab.page.wait_for_url(ORIGIN + "/table/T2")
    tab.assert_clean()


def test_lobby_shows_the_servers_error_in_one_line(open_tab: Callable[[], Tab]) -> None:
    tab = open_tab()
    server = ScriptedServer(tab.context)
    server.answers[("GET", "/api/games")] = (200, GAMES)
    server.answers[("GET", "/api/tables?status=waiting")] = (200, {"tables": []})
    server.answers[("POST", "/api/tables")] = (400, {"error": {"code": "bad_request", "message": HOSTILE}})
    page = tab.page
    page.goto(ORIGIN + "/")
    page.get_by_role("article", name=f"Valley {HOSTILE}").get_by_role("button", name="Set up a table").click()
    page.get_by_role("button", name="Create table").click()
    expect(page.get_by_role("alert")).to_have_text(f"Cannot create the table: {HOSTILE}")
    expect(page.get_by_role("region", name="Table created")).to_be_hidden()
    assert_not_injected(page)
    tab.assert_clean()


def test_lobby_says_a_table_of_bots_alone_plays_the_quick_search_before_asking_the_server(
        open_tab: Callable[[], Tab]) -> None:
    tab = open_tab()
    server = ScriptedServer(tab.context)
    server.answers[("GET", "/api/games")] = (200, GAMES)
    server.answers[("GET", "/api/tables?status=waiting")] = (200, {"tables": []})
    page = tab.page
    page.goto(ORIGIN + "/")
    page.get_by_role("article", name=f"Valley {HOSTILE}").get_by_role("button", name="Set up a table").click()
    form = page.get_by_role("form", name=f"New table: Valley {HOSTILE}")
    form.get_by_label("Player 1 (you)", exact=True).select_option(label="Bot (strong)")
    form.get_by_role("button", name="Create table").click()
    expect(page.get_by_text("A table of bots alone plays the quick search at most: seat a person, or choose "
                            "quicker bots.")).to_be_visible()
    assert not [r for r in server.requests if r["method"] == "POST"]
    form.get_by_label("Player 1 (you)", exact=True).select_option(label="Bot (normal)")
    server.answers[("POST", "/api/tables")] = (201, {
        "table": summary(status="playing", id="T7"), "tokens": {}, "invite_urls": {}, "spectator_url": "/table/T7"})
    form.get_by_role("button", name="Create table").click()
    assert server.request(page, "POST", "/api/tables")["body"]["seats"] == [
        {"kind": "bot", "bot": "ismcts:200"}, {"kind": "bot", "bot": "ismcts:200"}]
    expect(page.get_by_text("A table of bots alone plays the quick search at most")).to_be_hidden()
    tab.assert_clean()


def test_table_claims_plays_recovers_from_errors_and_reconnects(open_tab: Callable[[], Tab]) -> None:
    tab = open_tab()
    server = ScriptedServer(tab.context)
    server.answers[("POST", "/api/tables/T1/claim")] = (200, {"seat": 0, "token": "tok-seat-0"})
    server.answers[("GET", "/api/tables/T1/frame")] = (200, frame(4, []))
    tab.context.add_init_script("localStorage.setItem('obelisk.name', 'Ann')")
    page = tab.page
    page.goto(ORIGIN + "/table/T1#token=tok-secret-0")
    assert server.request(page, "POST", "/api/tables/T1/claim")["body"] == {"token": "tok-secret-0", "name": "Ann"}
    hello = server.wait(page, lambda: server.received, "hello")
    assert hello == [{"type": "hello", "token": "tok-seat-0", "chat": True}]  # the claim's token, not the invite's
    assert "token" not in page.url and page.url == ORIGIN + "/table/T1"
    assert json.loads(page.evaluate("localStorage.getItem('obelisk.seat.T1')"))["token"] == "tok-seat-0"

    labels = [[i, f"buy card {i}"] for i in range(10)] + [[40, f"swap {HOSTILE}"], [73, "swap nothing"]]
    server.send(frame(5, labels))
    expect(view_text(page)).to_have_text(f"board at 5\n{HOSTILE}")
    expect(log_items(page)).to_have_count(2)
    expect(log_items(page).first).to_have_text("Set-up: 1 chance event", use_inner_text=True)
    expect(log_items(page).last).to_have_text(f"{HOSTILE}: {HOSTILE}")
    expect(page.get_by_role("status").filter(has_text="connected")).to_be_visible()
    players = page.get_by_role("region", name="Players at the table")
    expect(players).to_contain_text(HOSTILE)
    expect(players.get_by_role("listitem").nth(2)).to_have_text("Player 3 · bot")
    expect(status_line(page)).to_have_text(f"Your turn — choose {HOSTILE}")
    moves = all_moves(page)
    expect(moves.get_by_role("button")).to_have_count(12)
    assert_not_injected(page)

    page.get_by_label("Filter the moves").fill("swap")
    expect(moves.get_by_role("button")).to_have_count(2)
    page.get_by_label("Filter the moves").press("Enter")
    move = server.wait(page, lambda: server.received[1:], "a move")
    assert move == [{"type": "move", "version": 5, "action": 40}]
    expect(moves.get_by_role("button").first).to_be_disabled()
    expect(page.get_by_role("main")).to_have_attribute("aria-busy", "true")

    server.answers[("GET", "/api/tables/T1/frame")] = (200, frame(6, [], view={"current_player": 1}))
    server.requests.clear()
    server.send({"type": "error", "code": "stale_version", "message": "the table moved on"})
    expect(page.get_by_role("alert")).to_have_text("the table moved on")
    refreshed = server.request(page, "GET", "/api/tables/T1/frame")
    assert refreshed["headers"]["authorization"] == "Bearer tok-seat-0"
    expect(status_line(page)).to_have_text(f"{HOSTILE} is thinking…")
    expect(page.get_by_text(re.compile(r"^All moves"))).to_be_hidden()

    server.sockets[0].close()
    expect(page.get_by_role("status").filter(has_text="connection lost")).to_be_visible()
    server.wait(page, lambda: len(server.sockets) == 2 and server.received[2:], "a second hello")
    assert server.received[2] == {"type": "hello", "token": "tok-seat-0", "chat": True}
    expect(page.get_by_role("status").filter(has_text=re.compile("^connected$"))).to_be_visible()
    server.send(frame(7, [[3, "end turn"], [4, "buy card 4"]]))
    all_moves(page).get_by_role("button", name="end turn").click()
    assert server.wait(page, lambda: server.received[3:], "a move") == [{"type": "move", "version": 7, "action": 3}]
    assert_not_injected(page)
    tab.assert_clean()


def test_a_claim_sends_the_players_name_and_a_used_invite_gives_way_to_the_kept_token(
        open_tab: Callable[[], Tab]) -> None:
    tab = open_tab()
    server = ScriptedServer(tab.context)
    tab.context.add_init_script("localStorage.setItem('obelisk.name', 'Ann')")
    server.answers[("POST", "/api/tables/T1/claim")] = (200, {"seat": 1, "token": "tok-seat-1"})
    page = tab.page
    page.goto(ORIGIN + "/table/T1#token=invite-1")
    assert server.request(page, "POST", "/api/tables/T1/claim")["body"] == {"token": "invite-1", "name": "Ann"}
    assert server.wait(page, lambda: server.received, "hello") == [{"type": "hello", "token": "tok-seat-1", "chat": True}]

    used = {"error": {"code": "invite_used", "message": "this invite was already used: seat 1 is taken"}}
    server.answers[("POST", "/api/tables/T1/claim")] = (403, used)
    server.requests.clear()
    page.goto(ORIGIN + "/table/T1?again#token=invite-1")  # the same link, opened again in this browser
    server.request(page, "POST", "/api/tables/T1/claim")
    assert server.wait(page, lambda: server.received[1:], "hello") == [{"type": "hello", "token": "tok-seat-1", "chat": True}]
    expect(page.get_by_role("alert")).to_be_hidden()
    assert "token" not in page.url

    other = open_tab()
    elsewhere = ScriptedServer(other.context)
    elsewhere.answers[("POST", "/api/tables/T1/claim")] = (403, used)
    other.page.goto(ORIGIN + "/table/T1#token=invite-1")  # in a browser that keeps no token for the table
    expect(other.page.get_by_role("alert")).to_have_text("Cannot take the seat: this invite was already used: "
                                                         "seat 1 is taken")
    assert elsewhere.wait(other.page, lambda: elsewhere.received, "hello") == [{"type": "hello", "token": None, "chat": True}]
    tab.assert_clean()
    other.assert_clean()


def test_a_claim_without_a_name_in_this_browser_keeps_the_seats_name(open_tab: Callable[[], Tab]) -> None:
    tab = open_tab()
    server = ScriptedServer(tab.context)
    server.answers[("POST", "/api/tables/T1/claim")] = (200, {"seat": 0, "token": "tok-seat-0"})
    tab.page.goto(ORIGIN + "/table/T1#token=tok-0")
    assert server.request(tab.page, "POST", "/api/tables/T1/claim")["body"] == {"token": "tok-0"}
    tab.assert_clean()


def outcome(returns: list[float]) -> dict[str, Any]:
    """The result's outcome as the server words it for rank-based returns: the best return wins, ties share a place."""
    places = [1 + sum(other > mine for other in returns) for mine in returns]
    return {"winners": [seat for seat, place in enumerate(places) if place == 1], "places": places, "reasons": []}


def finished(seed: int, salt: str, returns: list[float], **result: Any) -> dict[str, Any]:
    table = summary(status="finished", version=90, commitment=commitment(seed, salt))
    return frame(90, [], table=table, status="finished", view={"current_player": -4}, decision=None,
                 result={"returns": returns, "outcome": outcome(returns), "scores": [
                     {"total": 30, "breakdown": {"amulet": 10, "book": 20}},
                     {"total": 42, "breakdown": {"amulet": 40, "book": 2}},
                     {"total": 18, "breakdown": {"amulet": 18, "book": 0}}], **result},
                 reveal={"seed": seed, "salt": salt})


def test_finished_table_shows_the_winner_places_the_exact_seed_and_checks_the_commitment(
        open_tab: Callable[[], Tab]) -> None:
    tab = open_tab()
    server = ScriptedServer(tab.context)
    seed, salt = 2**63 - 1, "c0ffee"
    tab.context.add_init_script("localStorage.setItem('obelisk.seat.T1', JSON.stringify({token: 't0', seat: 0}))")
    tab.page.goto(ORIGIN + "/table/T1")
    server.wait(tab.page, lambda: server.sockets, "a socket")
    server.send(finished(seed, salt, [0.0, 1.0, -1.0]))
    page = tab.page
    result = page.get_by_role("region", name=f"{HOSTILE} wins")
    expect(result).to_be_visible()
    expect(result).to_contain_text("You finished 2nd of 3.")
    rows = result.get_by_role("table").get_by_role("row")
    expect(rows).to_have_count(4)
    expect(rows.nth(1)).to_have_text(f"1{HOSTILE}42402")
    expect(rows.nth(3)).to_have_text("3Player 318180")
    fairness = open_details(page, "Fair shuffle: checked, the seed matches")
    expect(fairness).to_contain_text(f"Seed {seed}, salt {salt}")
    expect(fairness).to_contain_text("matches the commitment")
    expect(page.get_by_role("link", name="Download the record")).to_have_attribute("href", "/api/tables/T1/record")
    expect(page.get_by_role("button", name="Rematch")).to_be_visible()
    expect(status_line(page)).to_have_text("Game over")
    assert_not_injected(page)
    tab.assert_clean()


@pytest.mark.parametrize("tampered", ["1", "2"])
def test_a_seed_that_does_not_match_the_commitment_is_flagged(open_tab: Callable[[], Tab], tampered: str) -> None:
    tab = open_tab()
    server = ScriptedServer(tab.context)
    table = summary(status="finished", version=90, commitment=commitment(int(tampered) + 10, "salt"))
    final = frame(90, [], table=table, status="finished", view={"current_player": -4}, decision=None,
                  result={"returns": [1.0, 0.0, -1.0], "outcome": outcome([1.0, 0.0, -1.0]), "scores": []},
                  reveal={"seed": int(tampered), "salt": "salt"})
    tab.page.goto(ORIGIN + "/table/T1")
    server.wait(tab.page, lambda: server.sockets, "a socket")
    server.send(final)
    flagged = tab.page.get_by_role("group", name="Fair shuffle: the seed does NOT match!")
    expect(flagged).to_contain_text("does NOT match")
    expect(flagged).to_have_attribute("open", "")
    tab.assert_clean()


def test_a_seat_is_handed_to_a_bot_and_taken_back_and_the_turn_clock_counts_down(
        open_tab: Callable[[], Tab]) -> None:
    tab = open_tab()
    server = ScriptedServer(tab.context)
    tab.context.add_init_script("localStorage.setItem('obelisk.seat.T1', JSON.stringify({token: 't0', seat: 0}))")
    page = tab.page
    page.goto(ORIGIN + "/table/T1")
    server.wait(page, lambda: server.sockets, "a socket")
    started = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime())
    table = summary(to_act=1, turn_seconds=600, turn_started=started)
    for seat in table["seats"]:
        seat["human"] = seat["kind"] == "human"
        seat["timed_out"] = seat["seat"] == 1
    server.send(frame(8, [], table=table))
    clock = page.get_by_role("timer")
    expect(clock).to_contain_text(f"{HOSTILE} to play since")
    expect(clock).to_contain_text("; 10 minutes per turn; 9:5")
    players = page.get_by_role("region", name="Players at the table")
    expect(players.get_by_role("listitem").nth(1)).to_contain_text("out of time")
    expect(players.get_by_role("button")).to_have_text(["Let a bot play for me", f"Let a bot play for {HOSTILE}"])

    server.answers[("POST", "/api/tables/T1/seats/1/bot")] = (200, table)
    players.get_by_role("button", name=f"Let a bot play for {HOSTILE}").click()
    handed = server.request(page, "POST", "/api/tables/T1/seats/1/bot")
    assert handed["body"] == {"bot": "greedy"} and handed["headers"]["authorization"] == "Bearer t0"

    table["seats"][0].update(kind="bot", bot="greedy")
    table["seats"][1].update(kind="bot", bot="greedy", timed_out=False)
    server.send(frame(9, [], table=table))
    expect(players.get_by_role("listitem").first).to_contain_text("bot standing in")
    expect(players.get_by_role("button")).to_have_text(["Take my seat back"])
    server.answers[("POST", "/api/tables/T1/seats/0/human")] = (409, {"error": {"code": "finished",
                                                                               "message": "the game is over"}})
    players.get_by_role("button", name="Take my seat back").click()
    assert server.request(page, "POST", "/api/tables/T1/seats/0/human")["body"] == {}
    expect(page.get_by_role("alert")).to_have_text("the game is over")
    assert_not_injected(page)
    tab.assert_clean()


def test_the_log_grows_by_the_entries_each_frame_brings_and_a_gap_fetches_the_whole_frame(
        open_tab: Callable[[], Tab]) -> None:
    tab = open_tab()
    server = ScriptedServer(tab.context)
    page = tab.page
    page.goto(ORIGIN + "/table/T1")
    server.wait(page, lambda: server.received, "hello")

    def entry(seq: int) -> dict[str, Any]:
        return {"seq": seq, "actor": 1 + seq % 2, "text": f"move {seq}"}

    server.send(frame(2, [], log_from=0, log=[entry(0), entry(1)]))
    expect(log_items(page)).to_have_count(2)
    server.send(frame(4, [], log_from=2, log=[entry(2), entry(3)]))
    expect(log_items(page)).to_have_count(4)
    expect(log_items(page).last).to_have_text("Player 3: move 3")
    server.send(frame(4, [], log_from=4, log=[]))
    expect(log_items(page)).to_have_count(4)

    whole = frame(7, [], log_from=0, log=[entry(seq) for seq in range(7)])
    server.answers[("GET", "/api/tables/T1/frame")] = (200, whole)
    server.send(frame(7, [], log_from=6, log=[entry(6)]))
    server.request(page, "GET", "/api/tables/T1/frame")
    expect(log_items(page)).to_have_count(7)
    expect(log_items(page).nth(5)).to_have_text("Player 3: move 5")

    server.sockets[0].close()
    server.wait(page, lambda: len(server.sockets) == 2 and server.received[1:], "a second hello")
    server.send(frame(8, [], log_from=0, log=[entry(seq) for seq in range(8)]))
    expect(log_items(page)).to_have_count(8)
    assert log_items(page).all_text_contents() == [f"{'Player 3' if seq % 2 else HOSTILE}: move {seq}" for seq in range(8)]
