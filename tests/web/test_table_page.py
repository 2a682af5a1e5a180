"""The table page against a scripted server (see test_client.py): the status line, undo, the log and what is new,
moves that cannot be taken back, the only choice played, shortcuts, the end of the game, the Rules panel and the
first-game guide, settings and turn notifications, the keys, and a phone's screen. Read as a person reads it."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, Route, expect

from tests.web.conftest import Tab
from tests.web.test_client import (
    HOSTILE, ORIGIN, ScriptedServer, all_moves, assert_not_injected, frame, log_items, open_details, status_line,
    summary,
)

BOARD = """
export function mount(root, ctx) {
  window.__boardSince = [];
  return {
    update(frame) { window.__boardSince.push([frame.version, ctx.since]); root.textContent = "board " + frame.version; },
    destroy() {},
  };
}
"""

HELP = {
    "summary": "Valley in short: buy artifacts.\n\nEntomb the best ones.",
    "lookups": ["card"],
    "entries": [
        {"key": "card:urn", "name": "Urn", "kind": "card", "text": "No action: spend it for 2 gold.",
         "numbers": {"cost": 2, "gold": 2}},
        {"key": "card:boat", "name": "Boat", "kind": "card", "text": "Take a card from the pyramid.",
         "numbers": {"cost": 5, "gold": 2}},
    ],
    "guide": ["You buy cards from the pyramid.", "A turn: play, buy, entomb, end.",
              "The game ends when the stock runs out."],
}

NOTIFICATIONS = """
window.__notes = [];
window.__asked = 0;
window.__tones = 0;
window.__hidden = false;
class FakeNotification {
  constructor(title, options) { window.__notes.push([title, options.body]); }
  addEventListener() {}
  close() {}
}
FakeNotification.permission = "default";
FakeNotification.requestPermission = async () => { window.__asked += 1; FakeNotification.permission = "granted"; return "granted"; };
window.Notification = FakeNotification;
class FakeAudio {
  constructor() { this.state = "running"; this.currentTime = 0; this.destination = {}; }
  resume() {}
  createOscillator() {
    window.__tones += 1;
    return { type: "", frequency: {}, connect: (x) => x, start() {}, stop() {} };
  }
  createGain() { return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (x) => x }; }
}
window.AudioContext = FakeAudio;
Object.defineProperty(document, "visibilityState", { get: () => (window.__hidden ? "hidden" : "visible") });
"""


def entry(seq: int, actor: int = 1, text: str | None = None) -> dict[str, Any]:
    return {"seq": seq, "actor": actor, "text": text or f"move {seq}"}


def with_board(tab: Tab) -> None:
    """Serves a board script that records the `since` it is given."""
    def board(route: Route) -> None:
        route.fulfill(status=200, body=BOARD, headers={"content-type": "text/javascript"})
    tab.context.route(f"{ORIGIN}/games/valley/board.js", board)


def opened(open_tab: Callable[[], Tab], seen: int | None = None, board: bool = False, phone: bool = False,
           init: str = "") -> tuple[Tab, ScriptedServer]:
    """The table page of seat 0 (its token stored), with `seen` as the version it saw on its last look."""
    tab = open_tab()
    if phone:
        tab.page.set_viewport_size({"width": 390, "height": 844})
    server = ScriptedServer(tab.context)
    server.answers[("GET", "/api/games/valley/help")] = (200, HELP)
    if board:
        with_board(tab)
    stored = {"token": "tok0", "seat": 0, "claimed": True}
    script = f"localStorage.setItem('obelisk.seat.T1', {json.dumps(json.dumps(stored))});"
    if seen is not None:
        script += f"localStorage.setItem('obelisk.seen.T1.0', '{seen}');"
    tab.context.add_init_script(f"if (!sessionStorage.getItem('primed')) {{ {script} sessionStorage.setItem('primed', '1'); }}")
    if init:
        tab.context.add_init_script(init)
    tab.page.goto(ORIGIN + "/table/T1")
    server.wait(tab.page, lambda: server.received, "hello")
    return tab, server


def undo_button(page: Page):
    return page.get_by_role("region", name="Status").get_by_role("button", name="Undo")


def moves_sent(server: ScriptedServer) -> list[dict[str, Any]]:
    return [message for message in server.received if message["type"] != "hello"]


def test_undo_is_offered_when_the_frame_allows_and_sent_with_the_version(open_tab: Callable[[], Tab]) -> None:
    tab, server = opened(open_tab)
    page = tab.page
    legal = [[3, "take 3"], [4, "take 4"]]
    server.send(frame(5, legal, undo=0, log_from=0, log=[entry(s) for s in range(5)]))
    expect(all_moves(page).get_by_role("button")).to_have_count(2)
    expect(undo_button(page)).to_be_hidden()
    page.keyboard.press("u")
    server.send(frame(6, legal, undo=1, log_from=5, log=[entry(5, 0)]))
    expect(undo_button(page)).to_be_visible()
    undo_button(page).click()
    server.wait(page, lambda: moves_sent(server), "the undo")
    assert moves_sent(server) == [{"type": "undo", "version": 6}]
    expect(undo_button(page)).to_be_disabled()

    server.send(frame(7, legal, undo=1, log_from=5, log=[]))
    expect(log_items(page)).to_have_count(5)
    expect(undo_button(page)).to_be_enabled()
    page.locator("body").click()
    page.keyboard.press("u")
    server.wait(page, lambda: len(moves_sent(server)) > 1, "the undo by key")
    assert moves_sent(server)[1] == {"type": "undo", "version": 7}

    server.send({"type": "error", "code": "nothing_to_undo", "message": f"nothing to undo: {HOSTILE}"})
    expect(page.get_by_role("alert")).to_have_text(f"nothing to undo: {HOSTILE}")
    server.request(page, "GET", "/api/tables/T1/frame")
    assert_not_injected(page)
    tab.assert_clean()


def test_shortcuts_never_fire_while_typing_and_the_keys_dialog_lists_them(open_tab: Callable[[], Tab]) -> None:
    tab, server = opened(open_tab)
    page = tab.page
    legal = [[a, f"action {a}"] for a in range(12)]
    server.send(frame(6, legal, undo=1, log_from=0, log=[entry(s) for s in range(6)]))
    all_moves(page)
    field = page.get_by_label("Filter the moves")
    field.focus()
    page.keyboard.type("ur?")
    expect(field).to_have_value("ur?")
    expect(page.get_by_role("dialog")).to_have_count(0)
    page.keyboard.press("Control+u")
    assert moves_sent(server) == []

    status_line(page).focus()
    page.keyboard.press("?")
    keys = page.get_by_role("dialog", name="Keyboard shortcuts")
    expect(keys).to_be_visible()
    expect(keys).to_contain_text("Take back your last move")
    expect(keys).to_contain_text("Open the rules")
    expect(keys.get_by_role("button", name="Close")).to_be_focused()
    page.keyboard.press("u")
    assert moves_sent(server) == []
    page.keyboard.press("Escape")
    expect(keys).to_be_hidden()
    page.get_by_role("button", name="Keys (?)").click()
    expect(keys).to_be_visible()
    keys.get_by_role("button", name="Close").click()
    expect(keys).to_be_hidden()
    tab.assert_clean()


def test_an_undo_replaces_the_log_from_log_from_and_a_gap_still_refetches(open_tab: Callable[[], Tab]) -> None:
    tab, server = opened(open_tab)
    page = tab.page
    server.send(frame(6, [], log_from=0, log=[entry(s, s % 3) for s in range(6)]))
    expect(log_items(page)).to_have_count(6)
    server.send(frame(8, [], log_from=4, log=[]))
    expect(log_items(page)).to_have_count(4)
    expect(log_items(page).last).to_have_text("Ann: move 3")
    server.send(frame(10, [], log_from=8, log=[entry(8, 2), entry(9, 0)]))
    expect(log_items(page)).to_have_text(["Ann: move 0", f"{HOSTILE}: move 1", "Player 3: move 2", "Ann: move 3",
                                          "Player 3: move 8", "Ann: move 9"])
    server.answers[("GET", "/api/tables/T1/frame")] = (200, frame(13, [], log_from=0, log=[entry(s, 0) for s in (0, 1, 12)]))
    server.send(frame(13, [], log_from=11, log=[entry(12)]))
    server.request(page, "GET", "/api/tables/T1/frame")
    expect(log_items(page)).to_have_text(["Ann: move 0", "Ann: move 1", "Ann: move 12"])
    tab.assert_clean()


def test_what_changed_since_the_last_look_is_highlighted_and_the_title_says_your_move(
        open_tab: Callable[[], Tab]) -> None:
    tab, server = opened(open_tab, seen=3, board=True)
    page = tab.page
    table = summary(version=6, board="/games/valley/board.js")
    server.send(frame(6, [[1, "go"]], table=table, log_from=0, log=[entry(s) for s in range(6)]))
    new = open_details(page, "Log").get_by_title("New since your last look")
    expect(new).to_have_text([f"{HOSTILE}: move 3", f"{HOSTILE}: move 4", f"{HOSTILE}: move 5"])
    expect(page).to_have_title("(your move) Obelisk: Valley of the Kings")
    server.wait(page, lambda: page.evaluate("window.__boardSince && window.__boardSince.length"), "the board")
    assert page.evaluate("window.__boardSince")[-1] == [6, 3]
    assert page.evaluate("localStorage.getItem('obelisk.seen.T1.0')") == "6"

    server.send(frame(7, [], table=summary(version=7, board="/games/valley/board.js"), log_from=6, log=[entry(6, 0)]))
    expect(page).to_have_title("Obelisk: Valley of the Kings")
    assert page.evaluate("localStorage.getItem('obelisk.seen.T1.0')") == "7"

    page.reload()
    server.wait(page, lambda: len(server.sockets) == 2 and len(server.received) > 1, "the second hello")
    server.send(frame(9, [], table=summary(version=9, board="/games/valley/board.js"), log_from=0,
                      log=[entry(s) for s in range(9)]))
    expect(log_items(page)).to_have_count(9)
    expect(page.get_by_title("New since your last look")).to_have_text([f"{HOSTILE}: move 7", f"{HOSTILE}: move 8"])
    tab.assert_clean()


def test_chance_events_fold_into_the_move_that_caused_them_and_the_others_moves_are_summed_up(
        open_tab: Callable[[], Tab]) -> None:
    tab, server = opened(open_tab)
    page = tab.page
    deal = [entry(s, -1, f"deal card {s} to T") for s in range(5)]
    log = [*deal, entry(5, 0, "seat 0 chooses a card"), entry(6, -1, "deal Urn to T"),
           entry(7, 1, "seat 1 chooses a card"), *[entry(s, -1, "seat 1 draws a card") for s in range(8, 13)],
           entry(13, 2, "player 3 pays with Urn (2 gold)"), entry(14, 2, "player 3 pays with Urn (2 gold)"),
           entry(15, 2, "end turn"), entry(16, 1, "take the Boat")]
    server.send(frame(17, [[1, "go"]], log_from=0, log=log, decision={"seat": 0, "text": "buy, play or end the turn"},
                      progress="round 4"))
    items = log_items(page)
    expect(items).to_have_count(7)
    expect(items.first).to_have_text("Set-up: 5 chance events", use_inner_text=True)
    expect(items.nth(1)).to_have_text("Ann: chooses a card → deal Urn to T")
    expect(items.nth(2)).to_have_text(f"{HOSTILE}: chooses a card → seat 1 draws a card ×5")
    expect(items.nth(3)).to_have_text("Player 3: pays with Urn (2 gold)")
    items.first.get_by_text("5 chance events").click()
    expect(items.first.get_by_role("listitem")).to_have_count(5)

    since = page.get_by_role("group", name="Since your last turn")
    expect(since.get_by_role("listitem")).to_have_text([
        f"{HOSTILE}: chooses a card · take the Boat",
        "Player 3: pays with Urn (2 gold) ×2 · end turn",
    ])
    expect(status_line(page)).to_have_text("Your turn — buy, play or end the turn")
    expect(page.get_by_role("region", name="Status")).to_contain_text("round 4")
    server.send(frame(18, [], log_from=17, log=[entry(17, 0, "end turn")],
                      decision={"seat": 1, "text": "choose a card"}, progress="round 4"))
    expect(status_line(page)).to_have_text(f"{HOSTILE} is thinking…")
    expect(since).to_be_hidden()
    assert_not_injected(page)
    tab.assert_clean()


def test_a_move_that_cannot_be_taken_back_is_marked_and_asked_once(open_tab: Callable[[], Tab]) -> None:
    tab, server = opened(open_tab)
    page = tab.page
    legal = [[3, "buy Boat (B2) for 5", "buy", 1, False], [9, "end turn", "end_turn", 0, True]]
    server.send(frame(5, legal, undo=1))
    moves = all_moves(page)
    expect(moves.get_by_role("button", name="end turn (cannot be taken back)")).to_be_visible()
    expect(moves.get_by_role("button", name="buy Boat (B2) for 5", exact=True)).to_be_visible()

    moves.get_by_role("button", name="end turn (cannot be taken back)").click()
    dialog = page.get_by_role("dialog", name="This move cannot be taken back")
    expect(dialog).to_contain_text("Once played, end turn cannot be undone.")
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_be_hidden()
    page.wait_for_timeout(200)
    assert moves_sent(server) == []

    moves.get_by_role("button", name="end turn (cannot be taken back)").click()
    dialog.get_by_role("button", name="end turn").click()
    assert server.wait(page, lambda: moves_sent(server), "the move") == [{"type": "move", "version": 5, "action": 9}]

    server.send(frame(6, legal))
    page.get_by_role("button", name="Settings").click()
    settings = page.get_by_role("dialog", name="Settings")
    settings.get_by_label("Confirm moves that cannot be taken back").uncheck()
    settings.get_by_role("button", name="Close").click()
    page.reload()
    server.wait(page, lambda: len(server.sockets) == 2, "the second socket")
    server.send(frame(7, legal))
    all_moves(page).get_by_role("button", name="end turn (cannot be taken back)").click()
    server.wait(page, lambda: len(moves_sent(server)) == 2, "the move without asking")
    assert moves_sent(server)[1] == {"type": "move", "version": 7, "action": 9}
    expect(page.get_by_role("dialog")).to_have_count(0)
    tab.assert_clean()


def test_the_only_choice_is_played_for_the_seat_unless_it_cannot_be_taken_back(open_tab: Callable[[], Tab]) -> None:
    tab, server = opened(open_tab)
    page = tab.page
    server.send(frame(5, [[4, "draw a card", "draw", 0, False]]))
    assert server.wait(page, lambda: moves_sent(server), "the move") == [{"type": "move", "version": 5, "action": 4}]
    expect(page.get_by_role("status").filter(has_text="Played for you")).to_have_text(
        "Played for you, the only possible move: draw a card")

    server.send(frame(6, [[9, "end turn", "end_turn", 0, True]], undo=1))
    expect(all_moves(page).get_by_role("button")).to_have_count(1)
    page.wait_for_timeout(300)
    assert len(moves_sent(server)) == 1

    undo_button(page).click()
    server.wait(page, lambda: len(moves_sent(server)) == 2, "the undo")
    server.send(frame(8, [[4, "draw a card", "draw", 0, False]]))
    expect(all_moves(page).get_by_role("button")).to_have_count(1)
    page.wait_for_timeout(300)
    assert moves_sent(server)[-1] == {"type": "undo", "version": 6}, "after an undo the only choice waits for the player"

    page.get_by_role("button", name="Settings").click()
    page.get_by_role("dialog", name="Settings").get_by_label("Play my only choice for me").uncheck()
    page.get_by_role("dialog", name="Settings").get_by_role("button", name="Close").click()
    all_moves(page).get_by_role("button", name="draw a card").click()
    server.wait(page, lambda: len(moves_sent(server)) == 3, "the move")
    server.send(frame(9, [[5, "draw another card", "draw", 0, False]]))
    expect(all_moves(page).get_by_role("button")).to_have_count(1)
    page.wait_for_timeout(300)
    assert len(moves_sent(server)) == 3
    tab.assert_clean()


def test_a_shortcut_sends_its_moves_as_one_batch(open_tab: Callable[[], Tab]) -> None:
    tab, server = opened(open_tab)
    page = tab.page
    legal = [[21, "pay with Urn (2 gold)", "pay", 1, False], [22, "pay with Shabti (1 gold)", "pay", 0, False]]
    shortcuts = [{"word": "pay", "text": "pay the 3 gold at once: Urn, Shabti", "actions": [21, 22], "final": False},
                 {"word": "all", "text": f"pay and end {HOSTILE}", "actions": [21, 22, 9], "final": True}]
    server.send(frame(5, legal, shortcuts=shortcuts))
    bar = page.get_by_role("region", name="Status")
    bar.get_by_role("button", name="pay the 3 gold at once: Urn, Shabti").click()
    assert server.wait(page, lambda: moves_sent(server), "the batch") == [
        {"type": "moves", "version": 5, "actions": [21, 22]}]
    server.send(frame(6, legal, shortcuts=shortcuts))
    bar.get_by_role("button", name=f"pay and end {HOSTILE} (cannot be taken back)").click()
    page.get_by_role("dialog", name="This move cannot be taken back").get_by_role("button", name=f"pay and end {HOSTILE}").click()
    assert server.wait(page, lambda: moves_sent(server)[1:], "the batch") == [
        {"type": "moves", "version": 6, "actions": [21, 22, 9]}]
    assert_not_injected(page)
    tab.assert_clean()


def test_the_end_says_who_won_why_and_where_each_finished(open_tab: Callable[[], Tab]) -> None:
    tab, server = opened(open_tab)
    page = tab.page
    scores = [{"total": 10, "breakdown": {"scroll_sets": 4, "gold": 6}},
              {"total": 10, "breakdown": {"scroll_sets": 3, "gold": 7}},
              {"total": 8, "breakdown": {"scroll_sets": 8, "gold": 0}}]
    result = {"returns": [1.0, 0.0, -1.0], "scores": scores, "headings": {"scroll_sets": "Scroll sets", "gold": HOSTILE},
              "outcome": {"winners": [0], "places": [1, 2, 3], "reasons": [f"Ann and {HOSTILE} tied; more coins decided."]}}
    finished = {"table": summary("finished", version=20), "status": "finished", "result": result, "decision": None,
                "reveal": {"seed": 5, "salt": "ab"}}
    server.send(frame(20, [], **finished))
    end = page.get_by_role("region", name="You win!")
    expect(end).to_contain_text("You finished 1st of 3.")
    expect(end.get_by_role("listitem")).to_have_text([f"Ann and {HOSTILE} tied; more coins decided."])
    expect(end.get_by_role("columnheader")).to_have_text(["Place", "Player", "Points", "Scroll sets", HOSTILE])
    expect(end.get_by_role("row").nth(1)).to_have_text("1Ann1046")
    expect(end).to_contain_text(
        f"Ann, {HOSTILE} have 10 points each; the tie-break decided: Ann in place 1, {HOSTILE} in place 2.")
    expect(end.get_by_role("link", name="Replay the game")).to_have_attribute("href", "/table/T1/replay")
    expect(undo_button(page)).to_be_hidden()

    shared = {**result, "returns": [0.5, 0.5, -1.0], "outcome": {"winners": [0, 1], "places": [1, 1, 3], "reasons": []}}
    server.send(frame(21, [], **{**finished, "table": summary("finished", version=21), "result": shared}))
    end = page.get_by_role("region", name=f"You share the win with {HOSTILE}")
    expect(end).to_contain_text(f"Ann, {HOSTILE} tied on 10 points and share place 1.")
    lost = {**result, "returns": [-1.0, 1.0, 0.0], "outcome": {"winners": [1], "places": [3, 1, 2], "reasons": []}}
    server.send(frame(22, [], **{**finished, "table": summary("finished", version=22), "result": lost}))
    expect(page.get_by_role("region", name=f"{HOSTILE} wins")).to_contain_text("You finished 3rd of 3.")
    assert_not_injected(page)
    tab.assert_clean()


def test_the_rules_panel_and_the_first_game_guide_come_from_the_games_help(open_tab: Callable[[], Tab]) -> None:
    tab, server = opened(open_tab)
    page = tab.page
    server.send(frame(5, [[1, "go"]]))
    guide = page.get_by_role("region", name="First game: step 1 of 3")
    expect(guide).to_contain_text("You buy cards from the pyramid.")
    guide.get_by_role("button", name="Next").click()
    guide = page.get_by_role("region", name="First game: step 2 of 3")
    expect(guide).to_contain_text("A turn: play, buy, entomb, end.")
    guide.get_by_role("button", name="Got it, hide the guide").click()
    expect(guide).to_be_hidden()

    page.get_by_role("button", name="Rules").click()
    rules = page.get_by_role("dialog", name="Rules")
    expect(rules).to_contain_text("Valley in short: buy artifacts.")
    expect(rules).to_contain_text("Entomb the best ones.")
    expect(rules.get_by_role("listitem")).to_have_count(3)
    expect(rules).to_contain_text("Take a card from the pyramid.")
    rules.get_by_label("Find a component").fill("urn")
    expect(rules.get_by_text("Take a card from the pyramid.")).to_be_hidden()
    expect(rules.get_by_text("No action: spend it for 2 gold.")).to_be_visible()
    expect(rules.get_by_text("cost 2 · gold 2")).to_be_visible()
    page.keyboard.press("Escape")
    expect(rules).to_be_hidden()
    page.locator("body").click()
    page.keyboard.press("r")
    expect(rules).to_be_visible()
    rules.get_by_role("button", name="Close").click()

    page.reload()
    server.wait(page, lambda: len(server.sockets) == 2, "the second socket")
    server.send(frame(6, [[1, "go"]]))
    expect(status_line(page)).to_have_text(f"Your turn — choose {HOSTILE}")
    expect(page.get_by_role("region", name=re.compile("^First game"))).to_have_count(0)
    page.get_by_role("button", name="Settings").click()
    page.get_by_role("button", name="Show the first-game guide again").click()
    expect(page.get_by_role("region", name="First game: step 1 of 3")).to_be_visible()
    tab.assert_clean()


def test_a_turn_is_announced_only_while_the_tab_is_hidden_and_permission_is_asked_on_a_click(
        open_tab: Callable[[], Tab]) -> None:
    tab, server = opened(open_tab, init=NOTIFICATIONS)
    page = tab.page
    server.send(frame(5, []))
    expect(status_line(page)).to_have_text(f"{HOSTILE} is thinking…")
    assert page.evaluate("window.__asked") == 0
    page.get_by_role("button", name="Settings").click()
    settings = page.get_by_role("dialog", name="Settings")
    settings.get_by_label("Notify me when it is my turn").check()
    settings.get_by_label("Play a sound when it is my turn").check()
    expect(settings.get_by_label("Notify me when it is my turn")).to_be_checked()
    assert page.evaluate("window.__asked") == 1
    settings.get_by_role("button", name="Close").click()
    tones = page.evaluate("window.__tones")
    assert tones > 0, "switching the sound on plays it once"

    server.send(frame(6, [[1, "go"]], decision={"seat": 0, "text": "buy or end the turn"}))
    expect(status_line(page)).to_have_text("Your turn — buy or end the turn")
    assert page.evaluate("window.__notes") == [] and page.evaluate("window.__tones") == tones

    server.send(frame(7, []))
    page.evaluate("window.__hidden = true")
    server.send(frame(8, [[1, "go"]], decision={"seat": 0, "text": "buy or end the turn"}))
    server.wait(page, lambda: page.evaluate("window.__notes.length"), "the notification")
    assert page.evaluate("window.__notes") == [["Your turn: Valley of the Kings", "Your turn — buy or end the turn"]]
    assert page.evaluate("window.__tones") > tones
    expect(page).to_have_title("(your move) Obelisk: Valley of the Kings")
    tab.assert_clean()


def test_on_a_phone_the_board_comes_first_and_nothing_is_too_wide_or_too_small(open_tab: Callable[[], Tab]) -> None:
    tab, server = opened(open_tab, board=True, phone=True)
    page = tab.page
    legal = [[a, f"place the scarab on space {a} of the long river"] for a in range(8)]
    text = "\n".join("|" + "=" * 120 + "|" for _ in range(5))
    table = summary(version=6, board="/games/valley/board.js", commitment="sha256:" + "f" * 64)
    server.send(frame(6, legal, table=table, text=text, undo=1, log=[{"seq": 0, "actor": 1, "text": "x" * 300}]))
    board = page.get_by_role("region", name="Board")
    expect(board).to_have_text("board 6")
    moves = all_moves(page)
    expect(moves.get_by_role("button")).to_have_count(8)
    open_details(page, "The table in words")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    board_top = board.bounding_box()
    moves_top = moves.bounding_box()
    assert board_top and moves_top and board_top["y"] < moves_top["y"]
    for button in [*moves.get_by_role("button").all(), undo_button(page)]:
        box = button.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert smallest_text(page) >= 11
    tab.assert_clean()


SMALLEST_TEXT = """() => {
  let smallest = Infinity;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!node.nodeValue.trim()) continue;
    const element = node.parentElement;
    const box = element.getBoundingClientRect();
    if (!box.width || !box.height || element.closest("[hidden], details:not([open]) > :not(summary)")) continue;
    let size = parseFloat(getComputedStyle(element).fontSize);
    const drawing = element.closest("svg");
    if (drawing && element !== drawing) size *= element.getScreenCTM().a;
    smallest = Math.min(smallest, size);
  }
  return smallest;
}"""
"""The smallest text shown on the page in CSS pixels (a drawing's text scaled as it is drawn)."""


def smallest_text(page: Page) -> float:
    return float(page.evaluate(SMALLEST_TEXT))
