"""The Valley of the Kings board in a real browser: a game played by clicking the board and the bar next to it,
hidden information, Czech, the keyboard, menus, card texts on tap and a phone-sized screen."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from tests.web.conftest import LiveServer, Tab, tab_until
from tests.web.person import (
    board, choose, overflowing, result, smallest_text, status, status_line, wait_answered, wait_turn,
)

DRAWN = "(root) => Array.from(root.querySelectorAll('[data-card]'), (node) => node.getAttribute('data-card'))"
"""The card names the board drew (what the hidden-information check compares with the seat's view)."""


BOARD_MOVES = 24
"""Decisions the full-game test takes by clicking the board and its bar before the API ends the game."""


def create(server: LiveServer, seats: list[dict[str, str]]) -> dict[str, Any]:
    return server.claimed(server.post("/api/tables", {"game": "valley", "seats": seats}))


def opened(tab: Tab, server: LiveServer, created: dict[str, Any], seat: int = 0) -> Page:
    tab.page.goto(server.url + created["invite_urls"][str(seat)])
    expect(board(tab.page).get_by_role("group").first).to_be_visible()
    return tab.page


def test_a_game_is_played_to_the_end_by_clicking_the_board_and_its_bar(live_server: LiveServer,
                                                                      open_tab: Callable[[], Tab]) -> None:
    created = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}])
    tab = open_tab(motion="no-preference")  # it looks at the changes' animation
    page = opened(tab, live_server, created)
    rng = random.Random(3)
    moves = glowed = 0
    while moves < BOARD_MOVES and wait_turn(page) == "play":
        choose(page, rng, prefer=("end turn",) if rng.random() < 0.6 else ())
        wait_answered(page)
        moves += 1
        glowed += page.evaluate("() => [...document.querySelectorAll('svg *')].some("
                                "(n) => getComputedStyle(n).animationName !== 'none')")
    assert moves > 10
    assert glowed > moves / 2, "what changed since the previous frame glows"
    table, token = created["table"]["id"], created["tokens"]["0"]
    while (frame := live_server.get(f"/api/tables/{table}/frame", token))["status"] != "finished":
        if frame["legal"]:  # the rest of the game through the API (whole games by clicks: test_first_game.py)
            live_server.post(f"/api/tables/{table}/moves", {"version": frame["version"],
                                                            "action": frame["legal"][-1][0]}, token)
        else:
            page.wait_for_timeout(20)
    expect(status_line(page)).to_have_text("Game over")
    expect(board(page)).to_contain_text("The game is over.")
    expect(result(page)).to_be_visible()
    tab.assert_clean()


def test_the_board_shows_only_what_its_seat_may_see(live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    created = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bea"}])
    table = created["table"]["id"]
    tokens = {int(seat): token for seat, token in created["tokens"].items()}
    pages: dict[int | None, Page] = {}
    tabs = []
    for seat, url in ((0, created["invite_urls"]["0"]), (None, created["spectator_url"])):
        tab = open_tab()
        tab.page.goto(live_server.url + url)
        expect(board(tab.page).get_by_role("group").first).to_be_visible()
        pages[seat] = tab.page
        tabs.append(tab)
    rng = random.Random(11)
    checked = 0
    for _ in range(24):
        frames = {seat: live_server.get(f"/api/tables/{table}/frame", tokens.get(seat) if seat is not None else None)
                  for seat in (0, 1, None)}
        if frames[None]["status"] == "finished":
            break
        for seat, page in pages.items():
            expect(page.get_by_role("group", name="The table in words").locator("pre")).to_have_text(frames[seat]["text"])
            drawn = Counter(board(page).evaluate(DRAWN))
            known = Counter(_names(frames[seat]["view"]))
            assert not drawn - known, f"seat {seat}'s board draws cards its view lacks: {drawn - known}"
            if seat is None:
                expect(board(page)).not_to_contain_text("Your hand")
            assert tokens[1] not in page.content()
            checked += 1
        to_act = frames[None]["table"]["to_act"]
        if to_act == 0:
            wait_turn(pages[0])
            choose(pages[0], rng, prefer=("end turn",) if rng.random() < 0.6 else ())
            wait_answered(pages[0])
        elif to_act == 1:
            legal = frames[1]["legal"]
            live_server.post(f"/api/tables/{table}/moves", {"version": frames[1]["version"], "action": rng.choice(legal)[0]},
                             tokens[1])
    assert checked >= 40
    for tab in tabs:
        tab.assert_clean()


def _names(view: dict[str, Any]) -> list[str]:
    """Every card name in a view."""
    names = [cell["card"] for cell in view["pyramid"] if cell["card"]]
    names += view["boneyard"] + view["in_play"] + view["revealed"]
    for player in view["players"]:
        names += player["discard"] + player["tomb"] + player["shown"] + player.get("hand", []) + player.get("deck_top", [])
    return names


FOCUSED_PIECE = "() => Boolean(document.activeElement && document.activeElement.closest('svg [role=button]'))"


def test_a_move_is_made_with_the_keyboard_only(live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    created = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}])
    tab = open_tab()
    page = opened(tab, live_server, created)
    wait_turn(page)
    page.locator("body").focus()
    tab_until(page, FOCUSED_PIECE, "a piece of the board", presses=80)
    ring = page.evaluate("() => getComputedStyle(document.activeElement.querySelector('rect')).strokeWidth")
    assert ring == "4.5px", "the focused piece is drawn with a thicker ring"
    expect(board(page).get_by_role("status")).to_contain_text("cost")
    page.keyboard.press("Enter")
    if page.get_by_role("menu").count() and page.get_by_role("menu").is_visible():
        page.keyboard.press("Enter")
    if page.get_by_role("dialog").count() and page.get_by_role("dialog").is_visible():
        page.keyboard.press("Enter")
    wait_answered(page)
    log = live_server.get(f"/api/tables/{created['table']['id']}/frame", created["tokens"]["0"])["log"]
    assert any(entry["actor"] == 0 for entry in log)
    tab.assert_clean()


def test_a_phone_sized_screen_fits_the_board_in_readable_text(live_server: LiveServer,
                                                                open_tab: Callable[[], Tab]) -> None:
    created = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}])
    tab = open_tab()
    tab.page.set_viewport_size({"width": 390, "height": 844})
    page = opened(tab, live_server, created)
    wait_turn(page)
    box = board(page).bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["width"] > 350
    assert overflowing(page) == []
    assert smallest_text(page) >= 11
    tab.assert_clean()


def test_the_board_speaks_czech(live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    created = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}])
    tab = open_tab()
    tab.context.add_init_script("localStorage.setItem('obelisk.lang', 'cs')")
    tab.page.goto(live_server.url + created["invite_urls"]["0"])
    page = tab.page
    plan = board(page, "cs")
    expect(plan).to_contain_text("Vaše ruka: peněžní hodnota")
    expect(plan).to_contain_text("Zásoba: ")
    expect(plan).to_contain_text("Hřbitov: ")
    expect(plan).to_contain_text("Vaše hrobka: 0 bodů")
    hand = plan.get_by_role("group").all_text_contents()
    assert any(name in " ".join(hand) for name in ("Šabti", "Urna", "Obětní stůl")), hand
    plan.get_by_text(re.compile("^(Šabti|Urna|Obětní stůl)$")).first.click(button="right")
    expect(plan.get_by_role("status")).to_contain_text("nákupní cena")
    assert page.evaluate("document.documentElement.lang") == "cs"
    tab.assert_clean()


def test_a_card_with_several_moves_offers_them_in_a_menu(live_server: LiveServer,
                                                          open_tab: Callable[[], Tab]) -> None:
    created = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}])
    tab = open_tab()
    page = opened(tab, live_server, created)
    rng = random.Random(5)
    several = board(page).get_by_role("button", name=re.compile(" [/] "))
    for _ in range(16):
        wait_turn(page)
        if several.count():
            break
        choose(page, rng, avoid=("end turn",))
        wait_answered(page)
    target = several.first
    labels = re.sub(r"^[^:]*: ", "", str(target.get_attribute("aria-label"))).split(" / ")
    target.click()
    menu = page.get_by_role("menu")
    expect(menu).to_be_visible()
    expect(menu.get_by_role("menuitem")).to_have_count(len(labels) + 1)
    assert [item.get_attribute("aria-label") or item.inner_text() for item in menu.get_by_role("menuitem").all()][:-1] == labels
    expect(menu.get_by_role("menuitem").first).to_be_focused()
    page.keyboard.press("Escape")
    expect(menu).to_be_hidden()
    expect(target).to_be_focused()
    target.click()
    menu.get_by_role("menuitem").first.click()
    dialog = page.get_by_role("dialog")
    if dialog.count() and dialog.is_visible():
        dialog.get_by_role("button").first.click()
    wait_answered(page)
    tab.assert_clean()


def test_a_payment_is_made_at_once_with_its_shortcut_and_the_counter_is_the_games_own(
        live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    """Buying a card, the bar offers to pay it at once with the cheapest cards (the frame's shortcut); one click
    sends its moves as one batch, and the status shows how far the game is in its own words (``progress``)."""
    created = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}])
    table, token = created["table"]["id"], created["tokens"]["0"]
    tab = open_tab()
    sent: list[dict[str, Any]] = []
    tab.page.on("websocket", lambda socket: socket.on("framesent", lambda data: sent.append(json.loads(data))))
    page = opened(tab, live_server, created)
    rng = random.Random(11)
    for _ in range(40):
        assert wait_turn(page) == "play"
        current = live_server.get(f"/api/tables/{table}/frame", token)
        expect(status(page)).to_contain_text(current["progress"])
        if current["shortcuts"]:
            break
        choose(page, rng, prefer=("buy",), avoid=("end turn",))
        wait_answered(page)
    else:
        raise AssertionError("no payment was offered as a shortcut in 40 decisions")
    shortcut = current["shortcuts"][0]
    button = status(page).get_by_role("button", name=shortcut["text"])
    expect(button).to_be_visible()
    button.click()
    dialog = page.get_by_role("dialog")
    if shortcut["final"]:
        dialog.get_by_role("button").first.click()
    wait_answered(page)
    assert {"type": "moves", "version": current["version"], "actions": shortcut["actions"]} in sent
    after = live_server.get(f"/api/tables/{table}/frame", token)
    paid = [entry for entry in after["log"] if entry["seq"] >= current["version"] and entry["actor"] == 0]
    assert len(paid) >= len(shortcut["actions"]), "each move of the batch is logged as a move of its own"
    tab.assert_clean()
