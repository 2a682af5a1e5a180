"""Tomb's board in the browser: a game played to the score screen through the board and its bar, the keyboard,
a phone-sized screen, Czech, menus of orientations, and no other seat's plan knowledge on any page."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import BrowserContext, Page, Route, expect

import obelisk
from obelisk.core.shortcuts import offered
from obelisk.games.tomb.actions import TILE_OFFSET
from obelisk.server.tables import decision
from tests.games.tomb.helpers import draw, figure, give, kind, play, turn
from tests.web.conftest import LiveServer, ROOT, Tab, tab_until
from tests.web.person import (
    FINAL, board, choose, confirm, overflowing, result, smallest_text, status_line, wait_answered, wait_turn,
)
from tests.web.test_client import ORIGIN, ScriptedServer

WEB = ROOT / "obelisk" / "games" / "tomb" / "web"

SHORT = {"max_rounds": 3}
"""A technical round cap of three rounds: the game reaches its score screen within a minute."""
PLAN_RANGES = ("plan", "look", "swap")
ENTRANCE = re.compile(r"^enter at the (north|south)-(west|east) entrance\b")


def create(server: LiveServer, seats: list[dict[str, Any]], options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A tomb table made through the API, its seats claimed: its summary, the seats' tokens and links."""
    return server.claimed(server.post("/api/tables", {"game": "tomb", "players": len(seats),
                                                      "options": options or SHORT, "seats": seats}))


def at_the_entrances(live_server: LiveServer, tab: Tab) -> tuple[dict[str, Any], Page]:
    """A table of Ann against a greedy bot, opened in ``tab`` at her first turn: the four entrances offered."""
    made = create(live_server, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    page = tab.page
    page.goto(live_server.url + made["invite_urls"]["0"])
    expect(board(page).get_by_role("button", name=ENTRANCE)).to_have_count(4)
    return made, page


def square_names(page: Page) -> dict[str, str]:
    """What each square of the maze shows, by its name (the squares that are not moves now)."""
    names = board(page).get_by_role("img").evaluate_all("(nodes) => nodes.map((n) => n.getAttribute('aria-label'))")
    return {name.split(":")[0]: name for name in names if re.match(r"^[A-I][1-9]:", name or "")}


def check_plan_knowledge(server: LiveServer, table: str, pages: dict[int | None, Page], tokens: dict[int, str]) -> int:
    """Each page shows exactly its own seat's plan knowledge; another seat's seen tile appears on no page.

    Returns how many squares some seat knows and another does not (so a test can tell it checked something)."""
    frames = {seat: server.get(f"/api/tables/{table}/frame", tokens.get(seat) if seat is not None else None)
              for seat in pages}
    secrets = 0
    for seat, page in pages.items():
        expect(page.get_by_role("group", name="The table in words").locator("pre")).to_have_text(frames[seat]["text"])
        mine = frames[seat]["view"].get("known", {})
        names = square_names(page)
        html = page.content()
        for square in mine:
            if square in names:
                assert "you saw" in names[square], names[square]
        for other, theirs in frames.items():
            if other == seat:
                continue
            for square, seen in theirs["view"].get("known", {}).items():
                if square in mine:
                    continue
                secrets += 1
                if square in names:
                    assert names[square] == f"{square}: a face-down tile", names[square]
                assert seen not in html
    return secrets


class TombServer(ScriptedServer):
    """The scripted server of the client tests, also serving tomb's board files and its help."""

    def __init__(self, context: BrowserContext) -> None:
        super().__init__(context)
        game = obelisk.load("tomb", 3)
        self.answers[("GET", "/api/games/tomb/help")] = (200, game.help().as_dict())

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
    acting = seat is not None and state.current_player() == seat
    legal = [[a, state.action_to_string(a), *game.action_range(a), state.is_final(a)] for a in state.legal_actions()] \
        if acting else []
    seats = [{"seat": i, "kind": "human", "name": f"P{i}", "bot": None, "claimed": True, "connected": True}
             for i in range(game.num_players)]
    table = {"id": "T1", "game": "tomb", "game_name": "Secret of the Ancient Tomb", "players": game.num_players,
             "options": {}, "seats": seats, "status": "playing", "version": version, "to_act": state.current_player(),
             "commitment": "sha256:" + "0" * 64, "public": False, "created": "2026-01-01T00:00:00Z",
             "updated": "2026-01-01T00:00:00Z", "rematch": None, "board": "/games/tomb/board.js"}
    return {"type": "frame", "table": table, "seat": seat, "version": version, "view": view,
            "text": game.render_observation(view), "legal": legal,
            "shortcuts": [shortcut.to_dict() for shortcut in offered(state, seat)] if acting else [],
            "decision": decision(game, view, state.current_player()), "progress": game.render_progress(view),
            "log": [], "status": "playing", "result": None, "reveal": None}


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
        server.send(tomb_frame(state, seat, 30))
        expect(board(tab.page).get_by_role("img", name=re.compile("^C3: "))).to_be_visible()
        pages[seat] = tab
    looker = pages[0].page
    assert square_names(looker)["C3"] == "C3: face down; you saw Food · corner with your plan"
    assert square_names(looker)["D4"].startswith("D4: face down; you saw Plan")
    bar = looker.get_by_role("region", name="Status")
    expect(bar.get_by_role("button", name="put the tiles on C3 and D4 back unchanged")).to_be_visible()
    expect(bar.get_by_role("button", name=re.compile("^swap the tiles on C3 and D4"))).to_be_visible()
    for seat in (1, None):
        page = pages[seat].page
        for square in ("C3", "D4"):
            assert square_names(page)[square] == f"{square}: a face-down tile"
            board(page).get_by_role("img", name=f"{square}: a face-down tile").click()
            expect(board(page).get_by_role("status")).to_have_text(f"×{square}: a face-down tileLooked at with a plan by P0")
            page.keyboard.press("Escape")
        html = board(page).inner_html()
        assert "Food · corner" not in html and "Plan · corner" not in html and "you saw" not in html
        expect(board(page).get_by_role("button")).to_have_count(0)
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
    assert all(state.is_final(action) for action, _ in orient), "a tile turned is shown to everyone"
    named = "Square C2: " + " / ".join(label + FINAL for _, label in orient)
    tab = open_tab()
    server = TombServer(tab.context)
    page = tab.page
    page.goto(ORIGIN + "/table/T1")
    server.wait(page, lambda: server.received, "hello")
    server.send(tomb_frame(state, 0, 12))
    square = board(page).get_by_role("button", name=named)
    expect(square).to_be_visible()
    expect(board(page).get_by_role("button")).to_have_count(1)
    tab_until(page, "document.activeElement.getAttribute('aria-label') === " + json.dumps(named), "square C2")
    page.keyboard.press("Enter")
    menu = page.get_by_role("menu", name="Square C2")
    expect(menu).to_be_visible()
    expect(menu.get_by_role("menuitem")).to_have_text([re.compile("^" + re.escape(label)) for _, label in orient] + ["Cancel"])
    expect(menu.get_by_role("menuitem").first.locator("svg")).to_have_count(1)
    page.keyboard.press("Escape")
    expect(menu).to_be_hidden()
    expect(square).to_be_focused()
    page.keyboard.press(" ")
    expect(menu.get_by_role("menuitem").first).to_be_focused()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    confirm(page, key="Enter")
    move = server.wait(page, lambda: [m for m in server.received if m["type"] != "hello"], "a move")
    assert move == [{"type": "move", "version": 12, "action": orient[1][0]}]
    tab.assert_clean()


def test_a_game_is_played_to_the_score_screen_through_the_board(
        live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    made = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"},
                                {"kind": "bot", "bot": "random"}])
    tab = open_tab()
    page = tab.page
    page.goto(live_server.url + made["invite_urls"]["0"])
    expect(board(page).get_by_role("group", name="The pyramid")).to_be_visible()
    rng = random.Random(3)
    moves = 0
    while wait_turn(page) == "play":
        choose(page, rng)
        wait_answered(page)
        moves += 1
        assert moves < 400
    assert moves > 3
    expect(status_line(page)).to_have_text("Game over")
    expect(result(page).get_by_role("row")).to_have_count(4)
    expect(board(page).get_by_role("button")).to_have_count(0)
    tab.assert_clean()


def test_the_board_shows_walls_figures_changes_and_texts(live_server: LiveServer,
                                                         open_tab: Callable[[], Tab]) -> None:
    tab = open_tab(motion="no-preference")  # it looks at the changes' animation
    made, page = at_the_entrances(live_server, tab)
    names = square_names(page)
    assert names["E5"].startswith("E5: Burial chamber (closed)")
    assert names["C3"] == "C3: a face-down tile"
    maze = board(page)
    maze.get_by_role("img", name=re.compile("^B1: outer wall")).click()
    expect(maze.get_by_role("status")).to_contain_text("B1: outer wall")
    frame = live_server.get(f"/api/tables/{made['table']['id']}/frame", made["tokens"]["0"])
    enter_se = next(entry for entry in frame["legal"] if entry[2:4] == ["enter", 3])
    se = maze.get_by_role("button", name=re.compile(r"^enter at the south-east entrance\b"))
    expect(se).to_have_attribute("aria-label", re.compile("^" + re.escape(enter_se[1])))
    se.click()
    dialog = page.get_by_role("dialog")
    if dialog.count() and dialog.is_visible():
        dialog.get_by_role("button").first.click()
    wait_answered(page)
    page.wait_for_function("(b) => [...b.querySelectorAll('*')].some((n) => getComputedStyle(n).animationName === 'tomb-glow')",
                           arg=maze.element_handle())
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
    secrets = 0
    deadline = time.monotonic() + 150
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
            wait_turn(ann.page)
            secrets += check_plan_knowledge(live_server, table, pages, tokens)
            choose(ann.page, rng, prefer=("plan", "look at"))
            wait_answered(ann.page)
        else:
            time.sleep(0.05)
    assert live_server.get(f"/api/tables/{table}")["status"] == "finished"
    check_plan_knowledge(live_server, table, pages, tokens)
    for tab in (ann, watcher):
        tab.assert_clean()


def test_a_move_with_the_keyboard_only(live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    tab = open_tab()
    made, page = at_the_entrances(live_server, tab)
    tab_until(page, "/^enter at the/.test(document.activeElement?.getAttribute('aria-label') || '')", "an entrance")
    label = str(page.evaluate("document.activeElement.getAttribute('aria-label')"))
    assert page.evaluate("() => document.activeElement.matches(':focus-visible')")
    page.keyboard.press("Enter")
    if page.get_by_role("dialog").count() and page.get_by_role("dialog").is_visible():
        page.keyboard.press("Enter")
    wait_answered(page)
    frame = live_server.get(f"/api/tables/{made['table']['id']}/frame", made["tokens"]["0"])
    played = [entry["text"] for entry in frame["log"] if entry["actor"] == 0]
    assert label.startswith(played[0])
    tab.assert_clean()


def test_a_phone_sized_screen_fits_the_maze_in_readable_text(
        live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    tab = open_tab()
    tab.page.set_viewport_size({"width": 390, "height": 844})
    _, page = at_the_entrances(live_server, tab)
    box = board(page).get_by_role("group", name="The pyramid").bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["width"] > 340
    assert overflowing(page) == []
    assert smallest_text(page) >= 11
    tab.assert_clean()


def test_the_board_speaks_czech(live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    tab = open_tab()
    tab.context.add_init_script("localStorage.setItem('obelisk.lang', 'cs')")
    made = create(live_server, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    page = tab.page
    page.goto(live_server.url + made["invite_urls"]["0"])
    plan = board(page, "cs")
    expect(plan).to_contain_text("Hráč 1")
    expect(plan).to_contain_text("Jídlo")
    names = plan.get_by_role("img").evaluate_all("(nodes) => nodes.map((n) => n.getAttribute('aria-label'))")
    assert any(name.startswith("E5: Pohřební komnata") for name in names)
    assert "C3: neotočený dílek" in names
    expect(plan.get_by_text("SZ", exact=True)).to_be_visible()
    tab.assert_clean()
