"""Tomb's board in the browser: a game played to the score screen by clicking only inside the board, the
keyboard, a phone-sized screen, Czech, and no other seat's plan knowledge on any page."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import BrowserContext, Page, Route, expect

import obelisk
from obelisk.games.tomb.actions import TILE_OFFSET
from tests.games.tomb.helpers import draw, figure, give, kind, play, turn
from tests.web.conftest import LiveServer, ROOT, Tab, box_of, tab_until
from tests.web.test_client import ORIGIN, ScriptedServer

WEB = ROOT / "obelisk" / "games" / "tomb" / "web"

SHORT = {"max_rounds": 3}
"""A technical round cap of three rounds: the game reaches its score screen within a minute."""
PLAN_RANGES = ("plan", "look", "swap")

NEXT = """() => {
  if (!document.getElementById("result").hidden) return "over";
  const board = document.getElementById("board");
  const open = board.querySelector(".tomb-menu:not([hidden]) .tomb-choice");
  if (open) return "menu";
  const ready = board.querySelectorAll(".tomb-target:not(.tomb-sent), .tomb-button");
  return ready.length ? "move" : false;
}"""


def create(server: LiveServer, seats: list[dict[str, Any]], options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A tomb table made through the API, its seats claimed: its summary, the seats' tokens and links."""
    return server.claimed(server.post("/api/tables", {"game": "tomb", "players": len(seats),
                                                      "options": options or SHORT, "seats": seats}))


def at_the_entrances(live_server: LiveServer, tab: Tab) -> tuple[dict[str, Any], Page]:
    """A table of Ann against a greedy bot, opened in ``tab`` at her first turn: the four entrances offered."""
    made = create(live_server, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    page = tab.page
    page.goto(live_server.url + made["invite_urls"]["0"])
    expect(page.locator("#board .tomb-target")).to_have_count(4)
    return made, page


def click_once(page: Page, rng: random.Random, prefer: tuple[str, ...] = ()) -> str:
    """Waits for the board to offer a move (or the end) and clicks one target, button or menu choice."""
    state = page.wait_for_function(NEXT, polling=20, timeout=30_000).json_value()
    if state == "over":
        return state
    version = page.locator("#version").text_content()
    board = page.locator("#board")
    if state == "menu":
        choices = board.locator(".tomb-menu .tomb-choice").all()
        rng.choice(choices).click()
    else:
        targets = board.locator(".tomb-target:not(.tomb-sent), .tomb-button").all()
        preferred = [node for node in targets if any(word in (node.get_attribute("aria-label") or node.inner_text())
                                                     for word in prefer)]
        rng.choice(preferred or targets).click()
        if board.locator(".tomb-menu:not([hidden]) .tomb-choice").count():
            rng.choice(board.locator(".tomb-menu .tomb-choice").all()).click()
    page.wait_for_function("(v) => document.getElementById('version').textContent !== v", arg=version, polling=20)
    return state


def check_plan_knowledge(server: LiveServer, table: str, pages: dict[int | None, Page], tokens: dict[int, str]) -> int:
    """Each page marks exactly its own seat's plan knowledge; another seat's seen tile appears on no page.

    Returns how many squares some seat knows and another does not (so a test can tell it checked something)."""
    frames = {seat: server.get(f"/api/tables/{table}/frame", tokens.get(seat) if seat is not None else None)
              for seat in pages}
    secrets = 0
    for seat, page in pages.items():
        page.wait_for_function("(v) => document.getElementById('version').textContent === v",
                               arg=str(frames[seat]["version"]), polling=20)
        mine = frames[seat]["view"].get("known", {})
        marked = page.eval_on_selector_all("#board [data-known]", "(nodes) => nodes.map((n) => n.dataset.known)")
        assert sorted(marked) == sorted(mine)
        infos = dict(page.eval_on_selector_all(
            "#board .tomb-cell", "(nodes) => nodes.map((n) => [n.dataset.square, n.dataset.info || ''])"))
        html = page.content()
        for other, theirs in frames.items():
            if other == seat:
                continue
            for square, kind in theirs["view"].get("known", {}).items():
                if square in mine:
                    continue
                secrets += 1
                assert infos[square].startswith(f"{square}: a face-down tile"), infos[square]
                assert f'data-known="{square}"' not in html
                assert kind not in html
    return secrets


class TombServer(ScriptedServer):
    """The scripted server of the client tests, also serving tomb's board files and its help."""

    def __init__(self, context: BrowserContext) -> None:
        super().__init__(context)
        game = obelisk.load("tomb", 3)
        help_ = game.help()
        self.answers[("GET", "/api/games/tomb/help?lang=en")] = (200, {
            "summary": help_.summary, "lookups": list(help_.lookups), "entries": [e.as_dict() for e in help_.entries]})

    def _http(self, route: Route) -> None:
        path = route.request.url.removeprefix(ORIGIN)
        if path.startswith("/games/tomb/"):
            file = WEB / path.removeprefix("/games/tomb/")
            kind = "text/javascript" if file.suffix == ".js" else "text/css"
            route.fulfill(status=200, body=file.read_bytes(),
                          headers={"content-type": kind, "content-security-policy": "default-src 'self'"})
            return
        super()._http(route)


def tomb_frame(state: Any, seat: int | None, version: int) -> dict[str, Any]:
    """The frame the server sends ``seat`` for a real tomb position."""
    game = state.game
    view = state.observation(seat)
    legal = [[a, state.action_to_string(a), *game.action_range(a)] for a in state.legal_actions()] \
        if seat is not None and state.current_player() == seat else []
    seats = [{"seat": i, "kind": "human", "name": f"P{i}", "bot": None, "claimed": True, "connected": True}
             for i in range(game.num_players)]
    table = {"id": "T1", "game": "tomb", "game_name": "Secret of the Ancient Tomb", "players": game.num_players,
             "options": {}, "seats": seats, "status": "playing", "version": version, "to_act": state.current_player(),
             "commitment": "sha256:" + "0" * 64, "public": False, "created": "2026-01-01T00:00:00Z",
             "updated": "2026-01-01T00:00:00Z", "rematch": None, "board": "/games/tomb/board.js"}
    return {"type": "frame", "table": table, "seat": seat, "version": version, "view": view,
            "text": game.render_observation(view), "legal": legal, "log": [], "status": "playing", "result": None,
            "reveal": None}


def test_only_the_looker_sees_the_tiles_looked_at_with_the_plan(open_tab: Callable[[], Tab]) -> None:
    state = obelisk.load("tomb", 3).new_initial_state(0)
    give(state, 0, "plan")
    turn(state, 0, 3)
    play(state, "study the plan: look at two face-down tiles", "look at the face-down tile on C3")
    state.apply_action(TILE_OFFSET + kind(state, "corner with Food"))
    play(state, "look at the face-down tile on D4")
    state.apply_action(TILE_OFFSET + kind(state, "corner with Plan"))
    assert state.observation(0)["known"] == {"C3": "corner with Food", "D4": "corner with Plan"}
    pages = {}
    for seat in (0, 1, None):
        tab = open_tab()
        server = TombServer(tab.context)
        tab.page.goto(ORIGIN + "/table/T1")
        server.wait(tab.page, lambda: server.received, "hello")
        server.sockets[0].send(json.dumps(tomb_frame(state, seat, 30)))
        expect(tab.page.locator("#board .tomb-cell")).to_have_count(81)
        expect(tab.page.locator('#board .tomb-cell[data-square="C3"]')).to_contain_text("C3")
        pages[seat] = tab
    looker = pages[0].page.locator("#board")
    assert sorted(looker.locator("[data-known]").evaluate_all("(n) => n.map((x) => x.dataset.known)")) == ["C3", "D4"]
    assert looker.locator('[data-square="C3"]').get_attribute("data-info").startswith(
        "C3: face down; you saw Food · corner with your plan")
    expect(looker.locator(".tomb-button")).to_have_text(["put the tiles on C3 and D4 back unchanged",
                                                         "swap the tiles on C3 and D4"])
    for seat in (1, None):
        page = pages[seat].page
        board = page.locator("#board")
        assert board.locator("[data-known]").count() == 0
        for square in ("C3", "D4"):
            info = board.locator(f'[data-square="{square}"]').get_attribute("data-info")
            assert info == f"{square}: a face-down tile — Looked at with a plan by seat 0"
        html = board.inner_html()
        assert "Food · corner" not in html and "Plan · corner" not in html and "you saw" not in html
        assert board.locator(".tomb-target").count() == 0
        pages[seat].assert_clean()
    pages[0].assert_clean()


def test_several_actions_on_one_square_open_a_menu_the_keyboard_works(open_tab: Callable[[], Tab]) -> None:
    state = obelisk.load("tomb", 2).new_initial_state(0)
    figure(state, 0, "NW")
    turn(state, 0, 4, "NW")
    play(state, "step in from the NW entrance to A1", "step east to B1", "step east to C1", "step south to C2")
    draw(state, "corner")
    orient = [[a, state.action_to_string(a)] for a in state.legal_actions()]
    assert [label for _, label in orient] == ["orient tile: openings N,E", "orient tile: openings N,W"]
    tab = open_tab()
    server = TombServer(tab.context)
    page = tab.page
    page.goto(ORIGIN + "/table/T1")
    server.wait(page, lambda: server.received, "hello")
    server.sockets[0].send(json.dumps(tomb_frame(state, 0, 12)))
    square = page.locator('#board [data-target="sq:C2"]')
    expect(square).to_have_attribute("aria-label", "Square C2: " + "; ".join(label for _, label in orient))
    expect(page.locator("#board .tomb-target")).to_have_count(1)
    tab_until(page, "document.activeElement.dataset.target === 'sq:C2'", "square C2")
    page.keyboard.press("Enter")
    menu = page.locator("#board .tomb-menu")
    expect(menu).to_be_visible()
    expect(menu.locator(".tomb-choice")).to_have_text([label for _, label in orient])
    expect(menu.locator(".tomb-choice svg")).to_have_count(2)
    page.keyboard.press("Escape")
    expect(menu).to_be_hidden()
    assert page.evaluate("() => document.activeElement.dataset.target") == "sq:C2"
    page.keyboard.press(" ")
    expect(menu.locator(".tomb-choice").first).to_be_focused()
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    move = server.wait(page, lambda: server.received[1:], "a move")
    assert move == [{"type": "move", "version": 12, "action": orient[1][0]}]
    tab.assert_clean()


def test_a_game_is_played_to_the_score_screen_by_clicking_only_the_board(
        live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    made = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"},
                                {"kind": "bot", "bot": "random"}])
    tab = open_tab()
    page = tab.page
    page.goto(live_server.url + made["invite_urls"]["0"])
    expect(page.locator("#board .tomb-maze")).to_be_visible()
    expect(page.locator("#board .tomb-cell")).to_have_count(81)
    rng = random.Random(3)
    moves = 0
    while click_once(page, rng) != "over":
        moves += 1
        assert moves < 400
    assert moves > 3
    expect(page.locator("#scores tbody tr")).to_have_count(3)
    expect(page.locator("#board .tomb-target")).to_have_count(0)
    tab.assert_clean()


def test_the_board_shows_walls_figures_and_changes_and_hover_texts(live_server: LiveServer,
                                                                   open_tab: Callable[[], Tab]) -> None:
    tab = open_tab()
    made, page = at_the_entrances(live_server, tab)
    board = page.locator("#board")
    assert sorted(board.locator(".tomb-target").evaluate_all("(n) => n.map((x) => x.dataset.target)")) == [
        "ent:NE", "ent:NW", "ent:SE", "ent:SW"]
    assert board.locator('.tomb-cell[data-square="E5"]').get_attribute("data-info").startswith("E5: Burial chamber (closed)")
    assert board.locator('.tomb-cell[data-square="C3"]').get_attribute("data-info") == "C3: a face-down tile"
    board.locator('.tomb-cell[data-square="B1"]').hover()
    expect(board.locator(".tomb-info")).to_contain_text("B1: outer wall")
    expect(board.locator('.tomb-cell[data-square="B1"] title')).to_contain_text("B1: outer wall")
    frame = live_server.get(f"/api/tables/{made['table']['id']}/frame", made["tokens"]["0"])
    enter_se = next(entry for entry in frame["legal"] if entry[2:] == ["enter", 3])
    assert board.locator('[data-target="ent:SE"]').get_attribute("aria-label") == enter_se[1]
    expect(board.locator(".tomb-die")).to_have_attribute("data-die", str(frame["view"]["turn"]["die"]))
    board.locator('[data-target="ent:SE"]').click()
    expect(board.locator(".tomb-figure.tomb-active")).to_have_count(1)
    expect(board.locator(".tomb-fresh")).not_to_have_count(0)
    tab.assert_clean()


def test_no_page_shows_another_seats_plan_knowledge(live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    made = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bea"},
                                {"kind": "bot", "bot": "random"}], {"max_rounds": 4})
    table = made["table"]["id"]
    tokens = {int(seat): token for seat, token in made["tokens"].items()}
    ann, watcher = open_tab(), open_tab()
    ann.page.goto(live_server.url + made["invite_urls"]["0"])
    watcher.page.goto(live_server.url + made["spectator_url"])
    live_server.post(f"/api/tables/{table}/claim", {"token": tokens[1], "name": "Bea"})
    pages: dict[int | None, Page] = {0: ann.page, None: watcher.page}
    rng = random.Random(11)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        summary = live_server.get(f"/api/tables/{table}")
        if summary["status"] == "finished":
            break
        if summary["to_act"] == 1:
            frame = live_server.get(f"/api/tables/{table}/frame", tokens[1])
            plan = [entry[0] for entry in frame["legal"] if entry[2] in PLAN_RANGES]
            action = (plan or [rng.choice(frame["legal"])[0]])[0]
            live_server.post(f"/api/tables/{table}/moves", {"version": frame["version"], "action": action}, tokens[1])
        elif summary["to_act"] == 0:
            check_plan_knowledge(live_server, table, pages, tokens)
            click_once(ann.page, rng, prefer=("plan", "look at"))
        else:
            time.sleep(0.05)
    assert live_server.get(f"/api/tables/{table}")["status"] == "finished"
    check_plan_knowledge(live_server, table, pages, tokens)
    for tab in (ann, watcher):
        tab.assert_clean()
    assert watcher.page.locator("#board [data-known]").count() == 0


def test_a_move_with_the_keyboard_only(live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    tab = open_tab()
    made, page = at_the_entrances(live_server, tab)
    board = page.locator("#board")
    version = page.locator("#version").text_content()
    tab_until(page, "(document.activeElement?.dataset.target || '').startsWith('ent:')", "an entrance")
    target = str(page.evaluate("document.activeElement.dataset.target"))
    focused = page.evaluate("() => document.activeElement.matches('.tomb-target:focus-visible')")
    assert focused
    page.keyboard.press("Enter")
    page.wait_for_function("(v) => document.getElementById('version').textContent !== v", arg=version)
    frame = live_server.get(f"/api/tables/{made['table']['id']}/frame", made["tokens"]["0"])
    played = [entry["text"] for entry in frame["log"] if entry["actor"] == 0]
    assert played[0] == f"bring an archaeologist in at {target[4:]}"
    tab.assert_clean()


def test_a_phone_sized_screen_shows_the_board_without_scrolling_sideways(
        live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    tab = open_tab()
    tab.page.set_viewport_size({"width": 390, "height": 844})
    _, page = at_the_entrances(live_server, tab)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390
    box = box_of(page, "#board .tomb-maze")
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["width"] > 300
    tab.assert_clean()


def test_the_board_speaks_czech(live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    tab = open_tab()
    tab.context.add_init_script("localStorage.setItem('obelisk.lang', 'cs')")
    _, page = at_the_entrances(live_server, tab)
    board = page.locator("#board")
    expect(board.locator(".tomb-seat").first).to_contain_text("Hráč 0")
    expect(board.locator(".tomb-supply")).to_contain_text("Jídlo")
    assert board.locator('.tomb-cell[data-square="E5"]').get_attribute("data-info").startswith("E5: Pohřební komnata")
    assert board.locator('.tomb-cell[data-square="C3"]').get_attribute("data-info") == "C3: neotočený dílek"
    expect(board.locator(".tomb-entrance .door-name").first).to_have_text("SZ")
    tab.assert_clean()
