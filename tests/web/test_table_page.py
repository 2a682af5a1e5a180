"""The table page's undo, log replacement, what is new since the last look, the result's headings and ties,
the keyboard shortcuts, and a phone's screen; against a scripted server (see test_client.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, Route, expect

from tests.web.conftest import Tab
from tests.web.test_client import HOSTILE, ORIGIN, ScriptedServer, assert_not_injected, frame, summary

BOARD = """
export function mount(root, ctx) {
  window.__boardSince = [];
  return {
    update(frame) { window.__boardSince.push([frame.version, ctx.since]); root.textContent = "board " + frame.version; },
    destroy() {},
  };
}
"""


def entry(seq: int, actor: int = 1) -> dict[str, Any]:
    return {"seq": seq, "actor": actor, "text": f"move {seq}"}


def seqs(page: Page, selector: str = "#log li") -> list[int]:
    return [int(s) for s in page.locator(selector).evaluate_all("(items) => items.map((i) => i.dataset.seq)")]


def with_board(tab: Tab) -> None:
    """Serves a board script that records the `since` it is given."""
    def board(route: Route) -> None:
        route.fulfill(status=200, body=BOARD, headers={"content-type": "text/javascript"})
    tab.context.route(f"{ORIGIN}/games/valley/board.js", board)


def opened(open_tab: Callable[[], Tab], seen: int | None = None, board: bool = False, phone: bool = False
           ) -> tuple[Tab, ScriptedServer]:
    """The table page of seat 0 (its token stored), with `seen` as the version it saw on its last look."""
    tab = open_tab()
    if phone:
        tab.page.set_viewport_size({"width": 390, "height": 844})
    server = ScriptedServer(tab.context)
    if board:
        with_board(tab)
    stored = {"token": "tok0", "seat": 0, "claimed": True}
    script = f"localStorage.setItem('obelisk.seat.T1', {json.dumps(json.dumps(stored))});"
    if seen is not None:
        script += f"localStorage.setItem('obelisk.seen.T1.0', '{seen}');"
    tab.context.add_init_script(f"if (!sessionStorage.getItem('primed')) {{ {script} sessionStorage.setItem('primed', '1'); }}")
    tab.page.goto(ORIGIN + "/table/T1")
    server.wait(tab.page, lambda: server.received, "hello")
    return tab, server


def test_undo_is_offered_when_the_frame_allows_and_sent_with_the_version(open_tab: Callable[[], Tab]) -> None:
    tab, server = opened(open_tab)
    page = tab.page
    legal = [[3, "take 3"], [4, "take 4"]]
    server.sockets[0].send(json.dumps(frame(5, legal, undo=0, log_from=0, log=[entry(s) for s in range(5)])))
    expect(page.locator("button.action")).to_have_count(2)
    expect(page.locator("#undo")).to_be_hidden()
    page.keyboard.press("u")
    server.sockets[0].send(json.dumps(frame(6, legal, undo=1, log_from=5, log=[entry(5, 0)])))
    expect(page.locator("#undo")).to_be_visible()
    expect(page.locator("#undo")).to_have_text("Undo")
    page.locator("#undo").click()
    server.wait(page, lambda: len(server.received) > 1, "the undo")
    assert server.received[1:] == [{"type": "undo", "version": 6}]
    expect(page.locator("#undo")).to_be_disabled()

    server.sockets[0].send(json.dumps(frame(7, legal, undo=1, log_from=5, log=[])))
    expect(page.locator("#log li")).to_have_count(5)
    expect(page.locator("#undo")).to_be_enabled()
    page.locator("body").click()
    page.keyboard.press("u")
    server.wait(page, lambda: len(server.received) > 2, "the undo by key")
    assert server.received[2] == {"type": "undo", "version": 7}

    server.sockets[0].send(json.dumps({"type": "error", "code": "nothing_to_undo",
                                       "message": f"nothing to undo: {HOSTILE}"}))
    expect(page.locator("#table-error")).to_have_text(f"nothing to undo: {HOSTILE}")
    server.request(page, "GET", "/api/tables/T1/frame")
    assert_not_injected(page)
    tab.assert_clean()


def test_shortcuts_never_fire_while_typing_and_help_lists_them(open_tab: Callable[[], Tab]) -> None:
    tab, server = opened(open_tab)
    page = tab.page
    legal = [[a, f"action {a}"] for a in range(12)]
    server.sockets[0].send(json.dumps(frame(6, legal, undo=1, log_from=0, log=[entry(s) for s in range(6)])))
    expect(page.locator("#filter")).to_be_visible()
    page.locator("#filter").focus()
    page.keyboard.type("u?")
    expect(page.locator("#filter")).to_have_value("u?")
    expect(page.locator("#help")).to_be_hidden()
    page.keyboard.press("Control+u")
    assert server.received[1:] == []

    page.locator("#turn-title").focus()
    page.keyboard.press("?")
    expect(page.locator("#help")).to_be_visible()
    expect(page.locator("#help-keys")).to_contain_text("Take back your last move")
    expect(page.locator("#help-close")).to_be_focused()
    page.keyboard.press("u")
    page.keyboard.press("Tab")
    expect(page.locator("#help-close")).to_be_focused()
    assert server.received[1:] == []
    page.keyboard.press("Escape")
    expect(page.locator("#help")).to_be_hidden()
    page.locator("#help-open").click()
    expect(page.locator("#help")).to_be_visible()
    page.locator("#help-close").click()
    expect(page.locator("#help")).to_be_hidden()
    tab.assert_clean()


def test_an_undo_replaces_the_log_from_log_from_and_a_gap_still_refetches(open_tab: Callable[[], Tab]) -> None:
    tab, server = opened(open_tab)
    page = tab.page
    server.sockets[0].send(json.dumps(frame(6, [], log_from=0, log=[entry(s) for s in range(6)])))
    expect(page.locator("#log li")).to_have_count(6)
    server.sockets[0].send(json.dumps(frame(8, [], log_from=4, log=[])))
    expect(page.locator("#version")).to_have_text("8")
    assert seqs(page) == [0, 1, 2, 3]
    server.sockets[0].send(json.dumps(frame(10, [], log_from=8, log=[entry(8), entry(9)])))
    expect(page.locator("#log li")).to_have_count(6)
    assert seqs(page) == [0, 1, 2, 3, 8, 9]
    server.answers[("GET", "/api/tables/T1/frame")] = (200, frame(13, [], log_from=0, log=[entry(s) for s in (0, 1, 12)]))
    server.sockets[0].send(json.dumps(frame(13, [], log_from=11, log=[entry(12)])))
    server.request(page, "GET", "/api/tables/T1/frame")
    expect(page.locator("#log li")).to_have_count(3)
    assert seqs(page) == [0, 1, 12]
    tab.assert_clean()


def test_what_changed_since_the_last_look_is_highlighted_and_the_title_says_your_move(
        open_tab: Callable[[], Tab]) -> None:
    tab, server = opened(open_tab, seen=3, board=True)
    page = tab.page
    table = summary(version=6, board="/games/valley/board.js")
    server.sockets[0].send(json.dumps(frame(6, [[1, "go"]], table=table, log_from=0,
                                            log=[entry(s) for s in range(6)])))
    expect(page.locator("#log li.new")).to_have_count(3)
    assert seqs(page, "#log li.new") == [3, 4, 5]
    expect(page).to_have_title("(your move) Obelisk: Valley of the Kings")
    server.wait(page, lambda: page.evaluate("window.__boardSince && window.__boardSince.length"), "the board")
    assert page.evaluate("window.__boardSince")[-1] == [6, 3]
    assert page.evaluate("localStorage.getItem('obelisk.seen.T1.0')") == "6"

    server.sockets[0].send(json.dumps(frame(7, [], table=summary(version=7, board="/games/valley/board.js"),
                                            log_from=6, log=[entry(6, 0)])))
    expect(page).to_have_title("Obelisk: Valley of the Kings")
    assert page.evaluate("localStorage.getItem('obelisk.seen.T1.0')") == "7"

    page.reload()
    server.wait(page, lambda: len(server.sockets) == 2 and len(server.received) > 1, "the second hello")
    server.sockets[1].send(json.dumps(frame(9, [], table=summary(version=9, board="/games/valley/board.js"),
                                            log_from=0, log=[entry(s) for s in range(9)])))
    expect(page.locator("#log li")).to_have_count(9)
    assert seqs(page, "#log li.new") == [7, 8]
    tab.assert_clean()


def test_the_result_has_headings_places_and_the_tie_break_and_links_the_replay(open_tab: Callable[[], Tab]) -> None:
    tab, server = opened(open_tab)
    page = tab.page
    scores = [{"total": 10, "breakdown": {"scroll_sets": 4, "gold": 6}},
              {"total": 10, "breakdown": {"scroll_sets": 3, "gold": 7}},
              {"total": 8, "breakdown": {"scroll_sets": 8, "gold": 0}}]
    result = {"returns": [1.0, 0.0, -1.0], "scores": scores,
              "headings": {"scroll_sets": "Scroll sets", "gold": HOSTILE}}
    server.sockets[0].send(json.dumps(frame(20, [], table=summary("finished", version=20), status="finished",
                                            result=result, reveal={"seed": 5, "salt": "ab"})))
    expect(page.locator("#scores thead th")).to_have_text(["Place", "Seat", "Points", "Scroll sets", HOSTILE])
    expect(page.locator("#scores tbody tr").first.locator("td").first).to_have_text("1")
    expect(page.locator("#ties")).to_have_text(
        f"seat 0 (Ann), seat 1 ({HOSTILE}) have 10 points each; the tie-break decided: "
        f"seat 0 (Ann) in place 1, seat 1 ({HOSTILE}) in place 2.")
    expect(page.locator("#replay")).to_have_attribute("href", "/table/T1/replay")
    shared = {**result, "returns": [0.5, 0.5, -1.0]}
    server.sockets[0].send(json.dumps(frame(21, [], table=summary("finished", version=21), status="finished",
                                            result=shared, reveal={"seed": 5, "salt": "ab"})))
    expect(page.locator("#ties")).to_have_text(f"seat 0 (Ann), seat 1 ({HOSTILE}) tied on 10 points and share place 1.")
    expect(page.locator("#undo")).to_be_hidden()
    assert_not_injected(page)
    tab.assert_clean()


def test_on_a_phone_the_board_comes_first_and_nothing_scrolls_sideways(open_tab: Callable[[], Tab]) -> None:
    tab, server = opened(open_tab, board=True, phone=True)
    page = tab.page
    legal = [[a, f"place the scarab on space {a} of the long river"] for a in range(8)]
    text = "\n".join("|" + "=" * 120 + "|" for _ in range(5))
    table = summary(version=6, board="/games/valley/board.js", commitment="sha256:" + "f" * 64)
    server.sockets[0].send(json.dumps(frame(6, legal, table=table, text=text, undo=1,
                                            log=[{"seq": 0, "actor": 1, "text": "x" * 300}])))
    expect(page.locator("button.action")).to_have_count(8)
    expect(page.locator("#board")).to_have_text("board 6")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    board_top = page.locator("#board-box").bounding_box()
    turn_top = page.locator("#turn").bounding_box()
    view_top = page.locator("#view").bounding_box()
    assert board_top and turn_top and view_top
    assert board_top["y"] < turn_top["y"] < view_top["y"]
    for button in [*page.locator("button.action").all(), page.locator("#undo")]:
        box = button.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390
    tab.assert_clean()
