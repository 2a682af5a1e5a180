"""The Valley of the Kings board in a real browser: a game played by clicking only the board, hidden
information, Czech, the keyboard and a phone-sized screen."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from tests.web.conftest import LiveServer, Tab, box_of, tab_until

TARGETS = "#board .vb-target"
READY = """(version) => {
  if (document.getElementById("version").textContent === version) return false;
  if (document.getElementById("table-status").textContent === "finished") return "over";
  return document.querySelector("#board .vb-target") ? "play" : false;
}"""
DRAWN = """() => Array.from(document.querySelectorAll("#board [data-card]"), (node) => node.getAttribute("data-card"))"""


def create(server: LiveServer, seats: list[dict[str, str]]) -> dict[str, Any]:
    return server.claimed(server.post("/api/tables", {"game": "valley", "seats": seats}))


def click_somewhere(page: Page, rng: random.Random) -> None:
    """Clicks a random highlighted target of the board, and a random entry of the menu it may open."""
    targets = page.locator(TARGETS)
    labels = page.evaluate(f"() => Array.from(document.querySelectorAll({TARGETS!r}), (n) => n.getAttribute('aria-label'))")
    ends = [i for i, label in enumerate(labels) if label == "end turn"]
    index = ends[0] if ends and rng.random() < 0.7 else rng.randrange(len(labels))
    targets.nth(index).click(force=True)
    menu = page.locator("#board .vb-menu")
    if menu.is_visible():
        items = menu.locator("button[role=menuitem]")
        items.nth(rng.randrange(items.count())).click()


def wait_turn(page: Page, version: str) -> str:
    return str(page.wait_for_function(READY, arg=version, polling=20).json_value())


def test_a_game_is_played_to_the_end_by_clicking_only_the_board(live_server: LiveServer,
                                                                 open_tab: Callable[[], Tab]) -> None:
    created = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}])
    tab = open_tab()
    page = tab.page
    page.goto(live_server.url + created["invite_urls"]["0"])
    expect(page.locator("#board svg")).to_be_visible()
    rng = random.Random(3)
    state, moves, highlighted = wait_turn(page, ""), 0, 0
    while state == "play":
        version = page.locator("#version").text_content() or ""
        click_somewhere(page, rng)
        moves += 1
        state = wait_turn(page, version)
        highlighted += page.locator("#board .vb-changed").count() > 0
    assert moves > 10
    assert highlighted > moves / 2, "what changed since the previous frame is highlighted"
    expect(page.locator("#turn-title")).to_have_text("Game over")
    expect(page.locator("#board")).to_contain_text("The game is over.")
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
        expect(tab.page.locator("#board svg")).to_be_visible()
        pages[seat] = tab.page
        tabs.append(tab)
    rng = random.Random(11)
    checked = 0
    for _ in range(60):
        frames = {seat: live_server.get(f"/api/tables/{table}/frame", tokens.get(seat) if seat is not None else None)
                  for seat in (0, 1, None)}
        if frames[None]["status"] == "finished":
            break
        version = frames[None]["version"]
        for seat, page in pages.items():
            page.wait_for_function("(v) => document.getElementById('version').textContent === v", arg=str(version))
            view = frames[seat]["view"]
            drawn = Counter(page.evaluate(DRAWN))
            known = Counter(_names(view))
            assert not drawn - known, f"seat {seat}'s board draws cards its view lacks: {drawn - known}"
            if seat is None:
                expect(page.locator("#board")).not_to_contain_text("Your hand")
            assert tokens[1] not in page.content()
            checked += 1
        to_act = frames[None]["table"]["to_act"]
        if to_act == 0:
            click_somewhere(pages[0], rng)
            pages[0].wait_for_function("(v) => document.getElementById('version').textContent !== v", arg=str(version))
        elif to_act == 1:
            legal = frames[1]["legal"]
            live_server.post(f"/api/tables/{table}/moves", {"version": version, "action": rng.choice(legal)[0]},
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


FOCUSED_TARGET = """() => {
  const node = document.activeElement;
  return Boolean(node && node.closest && node.closest("#board .vb-target"));
}"""


def test_a_move_is_made_with_the_keyboard_only(live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    created = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}])
    tab = open_tab()
    page = tab.page
    page.goto(live_server.url + created["invite_urls"]["0"])
    expect(page.locator(TARGETS).first).to_be_visible()
    version = page.locator("#version").text_content() or ""
    page.locator("body").focus()
    tab_until(page, FOCUSED_TARGET, "a target of the board", presses=80)
    ring = page.evaluate("""() => getComputedStyle(document.activeElement.querySelector('.vb-face')).strokeWidth""")
    assert ring == "4.5px"
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    expect(page.locator("#board .vb-info")).to_contain_text("cost")
    page.keyboard.press("Enter")
    if page.locator("#board .vb-menu").is_visible():
        page.keyboard.press("Enter")
    page.wait_for_function("(v) => document.getElementById('version').textContent !== v", arg=version)
    assert label
    tab.assert_clean()


def test_a_phone_sized_screen_shows_the_board_without_scrolling_sideways(
        live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    created = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}])
    tab = open_tab()
    page = tab.page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + created["invite_urls"]["0"])
    expect(page.locator(TARGETS).first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    box = box_of(page, "#board svg")
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    tab.assert_clean()


def test_the_board_speaks_czech(live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    created = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}])
    tab = open_tab()
    tab.context.add_init_script("localStorage.setItem('obelisk.lang', 'cs')")
    page = tab.page
    page.goto(live_server.url + created["invite_urls"]["0"])
    board = page.locator("#board")
    expect(board).to_contain_text("Vaše ruka: peněžní hodnota")
    expect(board).to_contain_text("Zásoba: ")
    expect(board).to_contain_text("Hřbitov: ")
    expect(board).to_contain_text("Vaše hrobka: 0 bodů")
    hand = page.evaluate("""() => Array.from(document.querySelectorAll("#board .vb-card[data-card] .vb-name"),
                                               (node) => node.textContent)""")
    assert {"Šabti", "Urna", "Schránka s", "Obětní stůl"} & set(hand), hand
    titles = page.evaluate("""() => Array.from(document.querySelectorAll("#board title"), (node) => node.textContent)""")
    assert any("nákupní cena" in title and "peněžní hodnota" in title for title in titles)
    assert page.evaluate("document.documentElement.lang") == "cs"
    tab.assert_clean()


def test_a_card_with_several_actions_offers_them_in_a_menu(live_server: LiveServer,
                                                           open_tab: Callable[[], Tab]) -> None:
    created = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}])
    tab = open_tab()
    page = tab.page
    page.goto(live_server.url + created["invite_urls"]["0"])
    several = page.locator(f'{TARGETS}[aria-label*=" / "]')
    for _ in range(12):
        wait_turn(page, "")
        if several.count():
            break
        version = page.locator("#version").text_content() or ""
        page.locator(TARGETS).last.click()
        if page.locator("#board .vb-menu").is_visible():
            page.locator("#board .vb-menu button[role=menuitem]").first.click()
        wait_turn(page, version)
    target = several.first
    labels = str(target.get_attribute("aria-label")).split(" / ")
    target.click()
    menu = page.locator("#board .vb-menu")
    expect(menu).to_be_visible()
    assert menu.locator("button[role=menuitem]").all_text_contents() == labels
    expect(menu.locator("button[role=menuitem]").first).to_be_focused()
    page.keyboard.press("Escape")
    expect(menu).to_be_hidden()
    expect(target).to_be_focused()
    version = page.locator("#version").text_content() or ""
    target.click()
    menu.locator("button[role=menuitem]").last.click()
    page.wait_for_function("(v) => document.getElementById('version').textContent !== v", arg=version)
    tab.assert_clean()
