"""People who play over days, end to end in real browsers: two accounts play a rated game to its end and talk in
the players' chat, a third person watches and talks in the spectators' chat apart, and the leaderboard changes."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from playwright.sync_api import BrowserContext, Page, expect

from tests.web.conftest import LiveServer, Tab
from tests.web.lobby import create_in_lobby, table_of
from tests.web.person import result
from tests.web.test_accounts import PASSWORD, account_form
from tests.web.test_chat import chat_of, write

def sign_up(page: Page, server: LiveServer, name: str) -> None:
    page.goto(server.url + "/account")
    account_form(page, "Create an account", name, PASSWORD, "Create the account")
    expect(page.get_by_role("heading", name=f"Signed in as {name}")).to_be_visible()


def session_call(context: BrowserContext, server: LiveServer, method: str, path: str,
                 body: dict[str, Any] | None = None) -> Any:
    """A request of the signed-in browser ``context`` itself: its session cookie, and the CSRF header its pages
    send (read from the cookie the pages read it from). None when the table moved on first."""
    csrf = next(c["value"] for c in context.cookies() if c["name"] == "obelisk_csrf")
    response = context.request.fetch(server.url + path, method=method, data=body,
                                     headers={"Origin": server.url, "X-CSRF-Token": csrf})
    if response.status == 409 and response.json()["error"]["code"] in ("stale_version", "not_your_turn"):
        return None
    assert response.ok, response.text()
    return response.json()


def play_out(contexts: dict[int, BrowserContext], server: LiveServer, table: str, rng: random.Random) -> None:
    """Plays the table to its end, each seat's move sent by its own signed-in browser (no token)."""
    for _ in range(2000):
        public = server.get(f"/api/tables/{table}/frame")
        if public["status"] == "finished":
            return
        context = contexts[public["table"]["to_act"]]
        mine = session_call(context, server, "GET", f"/api/tables/{table}/frame")
        if mine["legal"]:
            session_call(context, server, "POST", f"/api/tables/{table}/moves",
                         {"version": mine["version"], "action": rng.choice(mine["legal"])[0]})
    raise AssertionError("the game did not end")


def test_two_accounts_play_a_rated_game_with_chat_and_a_spectator_talks_apart(
        live_server: LiveServer, open_tab: Callable[..., Tab]) -> None:
    ann_tab, bob_tab, cy_tab = open_tab(), open_tab(), open_tab()
    ann, bob, cy = ann_tab.page, bob_tab.page, cy_tab.page
    sign_up(ann, live_server, "Ann")
    sign_up(bob, live_server, "Bob")
    links = create_in_lobby(ann, live_server, [("human", "Ann"), ("human", "Bob")], public=True, rated=True)
    table = table_of(links["spectator"])
    ann.goto(links["seat-0"])
    bob.goto(links["seat-1"])
    expect(bob.get_by_text("You play as Bob.")).to_be_visible()
    cy.goto(links["spectator"])

    board = live_server.get("/api/ratings/valley")
    assert board["players"] == []
    cy.goto(live_server.url + "/ratings/valley")
    expect(cy.get_by_text("Nobody has finished a rated game of Valley of the Kings yet.")).to_be_visible()
    cy.goto(links["spectator"])

    write(ann, "good luck, Bob")
    expect(chat_of(bob).get_by_role("listitem").filter(has_text="good luck, Bob")).to_contain_text("Ann:")
    expect(chat_of(cy).get_by_role("listitem").filter(has_text="good luck, Bob")).to_be_visible()
    chat_of(cy).get_by_label("Your name").fill("Cy")
    write(cy, "Bob should buy the scarab")
    expect(chat_of(cy).get_by_text("Cy (spectator): Bob should buy the scarab")).to_be_visible()
    write(bob, "thanks, you too")
    expect(chat_of(ann).get_by_text("thanks, you too")).to_be_visible()
    for page in (ann, bob):
        expect(page.get_by_text("Bob should buy the scarab")).to_have_count(0)

    for page in (ann, bob, cy):  # the rest of the game is played by the players' sessions, pages closed
        page.goto("about:blank")
    play_out({0: ann.context, 1: bob.context}, live_server, table, random.Random(3))
    final = live_server.get(f"/api/tables/{table}/frame")
    places = final["result"]["outcome"]["places"]
    for page, seat in ((ann, 0), (bob, 1)):
        page.goto(f"{live_server.url}/table/{table}")  # no token: the session opens its seat
        expect(result(page)).to_be_visible()
        expect(result(page)).to_contain_text("You finished 1st of 2." if places[seat] == 1 else "You finished 2nd of 2.")
    expect(chat_of(ann).get_by_text("Cy (spectator): Bob should buy the scarab")).to_be_visible()  # after the end

    cy.goto(live_server.url + "/ratings/valley")
    leaderboard = cy.get_by_role("table", name="Leaderboard: Valley of the Kings")
    rows = leaderboard.get_by_role("row")
    expect(rows).to_have_count(3)
    first = "Ann" if places[0] < places[1] else "Bob"
    expect(rows.nth(1)).to_contain_text(first)
    for row in (rows.nth(1), rows.nth(2)):
        expect(row.get_by_role("cell").nth(2)).to_have_text("1")  # one rated game each
    for tab in (ann_tab, bob_tab, cy_tab):
        tab.assert_clean()
