"""The King Solomon's Treasury board in a real browser: played to the end through the board and its bar, no
other seat's secrets in the page, Czech, the keyboard, dig previews and a phone-sized screen."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from obelisk.core import previews
from tests.web.conftest import LiveServer, Tab, tab_until
from tests.web.person import (
    board, choose, confirm, move_label, name_of, overflowing, playable, result, smallest_text, status_line, wait_answered,
    wait_turn,
)

ORDER = ("choose card", "Seal:", "dig card", "pay", "give", "use", "end turn")
"""What a player here clicks first when it is offered: it keeps games short and varied."""
BOARD_DUMP = """(board) => {
  const attributes = [];
  for (const node of board.querySelectorAll("*")) {
    for (const attr of node.attributes) attributes.push(attr.value);
  }
  // Each text node on its own line: textContent would run "card 2" and a following "2" into "card 22".
  const texts = [];
  const walker = document.createTreeWalker(board, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) texts.push(walker.currentNode.nodeValue);
  return {text: texts.join("\\n"), attributes,
          cards: Array.from(board.querySelectorAll("[data-card]"), (node) => Number(node.dataset.card))};
}"""
"""Everything the board shows or carries: what the hidden-information check searches for another seat's cards."""


BOARD_MOVES = 16
"""Decisions the full-game test takes through the board before the API ends the game."""


def create(server: LiveServer, seats: list[dict[str, Any]]) -> dict[str, Any]:
    return server.claimed(server.post("/api/tables", {"game": "solomon", "players": len(seats), "seats": seats}))


def open_seat(tab: Tab, server: LiveServer, created: dict[str, Any], seat: int, lang: str = "en") -> Page:
    if lang != "en":
        tab.context.add_init_script(f"localStorage.setItem('obelisk.lang', '{lang}')")
    tab.page.goto(server.url + created["invite_urls"][str(seat)])
    expect(board(tab.page, lang).get_by_role("group").first).to_be_visible()
    return tab.page


def play_one(page: Page, rng: random.Random) -> None:
    """One decision: a card, a dig, a payment, a tile; now and then a tile move.

    Ending the turn comes before a move: moves are paid at the end of the turn, so they stay on offer
    whatever the seat holds, and a game of moves first would not end.
    """
    order = list(ORDER)
    if rng.random() < 0.15:
        order.insert(0, "move")
    names = [name_of(node) for node in playable(page)]
    for word in order:
        if any(word in name for name in names):
            choose(page, rng, prefer=(word,))
            return
    choose(page, rng)


def test_a_game_is_played_to_the_score_screen_through_the_board(
        live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    created = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"},
                                   {"kind": "bot", "bot": "greedy"}])
    tab = open_tab()
    page = open_seat(tab, live_server, created, 0)
    rng = random.Random(3)
    moves = 0
    while moves < BOARD_MOVES and wait_turn(page) == "play":
        play_one(page, rng)
        wait_answered(page)
        moves += 1
    assert moves >= 8
    table, token = created["table"]["id"], created["tokens"]["0"]
    while (frame := live_server.get(f"/api/tables/{table}/frame", token))["status"] != "finished":
        if frame["legal"]:  # the rest through the API (a whole game by clicks: test_first_game.py)
            live_server.post(f"/api/tables/{table}/moves", {"version": frame["version"],
                                                            "action": frame["legal"][-1][0]}, token)
        else:
            page.wait_for_timeout(20)
    # The page draws each of the ~400 frames the API's moves sent in a second or two: on a loaded machine that
    # takes longer than a person's wait.
    expect(status_line(page)).to_have_text("Game over", timeout=60_000)
    expect(result(page).get_by_role("row")).to_have_count(4)
    expect(board(page).get_by_role("button")).to_have_count(0)
    tab.assert_clean()


def test_the_board_shows_no_other_seats_secrets(live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    created = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bea"}])
    table = created["table"]["id"]
    tokens = created["tokens"]
    live_server.post(f"/api/tables/{table}/claim", {"token": tokens["1"], "name": "Bea"})
    ann, watcher = open_tab(), open_tab()
    page = open_seat(ann, live_server, created, 0)
    watcher.page.goto(live_server.url + created["spectator_url"])
    expect(board(watcher.page).get_by_role("group").first).to_be_visible()
    rng = random.Random(5)
    checked = 0

    def compare(target: Page, seat: int | None) -> None:
        token = tokens[str(seat)] if seat is not None else None
        mine = live_server.get(f"/api/tables/{table}/frame", token)
        theirs = live_server.get(f"/api/tables/{table}/frame", tokens["1"])
        expect(target.get_by_role("group", name="The table in words").locator("pre")).to_have_text(mine["text"])
        shown = board(target).evaluate(BOARD_DUMP)
        known = {int(n) for n in mine["view"]["card_shapes"]}
        secret = {int(n) for n in theirs["view"]["card_shapes"]} - known
        assert set(shown["cards"]) <= known
        for number in secret:
            named = re.compile(rf"\bcard {number}\b", re.IGNORECASE)
            found = named.search(shown["text"])
            assert not found, shown["text"][max(0, found.start() - 300):found.end() + 100]
            assert not any(named.search(value) for value in shown["attributes"])
        if theirs["view"]["my_choice"] is not None and mine["view"]["phase"] == "choose":
            assert theirs["view"]["my_choice"] not in shown["cards"]
        assert tokens["1"] not in target.content()

    def bea_moves() -> bool:
        frame = live_server.get(f"/api/tables/{table}/frame", tokens["1"])
        if not frame["legal"]:
            return False
        action = rng.choice([a for a in frame["legal"] if a[2] != "move"] or frame["legal"])
        live_server.post(f"/api/tables/{table}/moves", {"version": frame["version"], "action": action[0]}, tokens["1"])
        return True

    deadline = time.monotonic() + 90
    while checked < 12 and time.monotonic() < deadline:
        if bea_moves():
            continue
        if live_server.get(f"/api/tables/{table}")["status"] == "finished":
            break
        if not live_server.get(f"/api/tables/{table}/frame", tokens["0"])["legal"]:
            time.sleep(0.05)
            continue
        wait_turn(page)
        compare(page, 0)
        compare(watcher.page, None)
        checked += 1
        play_one(page, rng)
        wait_answered(page)
    assert checked >= 12
    ann.assert_clean()
    watcher.assert_clean()


def test_the_board_speaks_czech(live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    created = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}])
    tab = open_tab()
    page = open_seat(tab, live_server, created, 0, lang="cs")
    plan = board(page, "cs")
    expect(plan).to_contain_text("vchod do jeskyně")
    expect(plan).to_contain_text("Kolo 1 z 12")
    expect(plan).to_contain_text("Vaše Výkopové karty")
    expect(plan).to_contain_text("Ann (vy)")
    expect(plan).to_contain_text("za zástěnou")
    plan.get_by_role("button", name=re.compile("^zvolit kartu")).first.click(button="right")
    expect(plan.get_by_role("status")).to_contain_text("Výkop v tomto tvaru, počet políček")
    row = plan.get_by_text("1", exact=True).first.bounding_box()
    assert row
    page.mouse.click(row["x"] + row["width"] + 30, row["y"] + row["height"] / 2)
    expect(plan.get_by_role("status")).to_contain_text("horní destička")
    tab.assert_clean()


def test_a_card_is_chosen_with_the_keyboard_only(live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    created = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}])
    tab = open_tab()
    page = open_seat(tab, live_server, created, 0)
    wait_turn(page)
    tab_until(page, "(document.activeElement?.getAttribute('aria-label') || '').startsWith('choose card')",
              "a card of the board")
    label = move_label(str(page.evaluate("document.activeElement.getAttribute('aria-label')")))
    page.keyboard.press("Enter")
    confirm(page, key="Enter")
    wait_answered(page)
    frame = live_server.get(f"/api/tables/{created['table']['id']}/frame", created["tokens"]["0"])
    number = int(label.rsplit(" ", 1)[1])
    assert frame["view"]["my_choice"] == number or frame["view"]["seats"][0]["played"] == [number]
    tab.assert_clean()


def test_a_phone_sized_screen_fits_the_board_in_readable_text(
        live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    created = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}])
    tab = open_tab()
    tab.page.set_viewport_size({"width": 390, "height": 844})
    page = open_seat(tab, live_server, created, 0)
    wait_turn(page)
    box = board(page).bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["width"] > 350
    assert overflowing(page) == []
    assert smallest_text(page) >= 11
    tab.assert_clean()


SQUARES_LIT = """([board, colour]) => [...board.querySelectorAll("[data-square]")]
  .filter((node) => getComputedStyle(node.querySelector("rect")).fill === colour)
  .map((node) => Number(node.dataset.square)).sort((a, b) => a - b)"""
"""The cave squares whose ground is drawn in `colour` (the preview's, or the glow of a change)."""
PREVIEW = "rgb(224, 160, 48)"


def test_a_dig_shows_the_squares_and_coins_the_engine_previews(live_server: LiveServer,
                                                               open_tab: Callable[[], Tab]) -> None:
    created = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}])
    tab = open_tab(motion="no-preference")  # it looks at the changes' animation
    page = open_seat(tab, live_server, created, 0)
    wait_turn(page)
    board(page).get_by_role("button", name=re.compile("^choose card")).first.click()
    confirm(page)
    wait_answered(page)
    wait_turn(page)
    dig = board(page).get_by_role("button", name=re.compile("^dig card")).first
    frame = live_server.get(f"/api/tables/{created['table']['id']}/frame", created["tokens"]["0"])
    label = str(dig.get_attribute("aria-label"))
    action = next(a for a in frame["legal"] if a[1] == move_label(label))
    preview = next(p for p in frame["previews"] if action[0] in p["actions"])
    expected = sorted((int(name[1:]) - 1) * 6 + "ABCDEF".index(name[0]) for name in preview["marks"])
    assert "coin" in preview["text"] and preview["text"].startswith("digs " + ", ".join(preview["marks"]))
    target = board(page).get_by_role("button", name=label, exact=True)
    target.hover()
    wanted = json.dumps(json.dumps(expected, separators=(",", ":")))
    page.wait_for_function(f"([board, colour]) => JSON.stringify(({SQUARES_LIT})([board, colour])) === {wanted}",
                           arg=[board(page).element_handle(), PREVIEW])
    expect(board(page).get_by_text(preview["text"])).to_be_visible()
    page.mouse.move(0, 0)
    assert board(page).evaluate(f"(b) => ({SQUARES_LIT})([b, {json.dumps(PREVIEW)}])") == []
    target.focus()
    assert board(page).evaluate(f"(b) => ({SQUARES_LIT})([b, {json.dumps(PREVIEW)}])") == expected
    page.keyboard.press("Enter")
    assert action[4], "a dig uncovers the tiles below: it cannot be taken back"
    dialog = page.get_by_role("dialog", name="This move cannot be taken back")
    expect(dialog).to_contain_text(preview["text"])
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    assert live_server.get(f"/api/tables/{created['table']['id']}/frame", created["tokens"]["0"])["version"] == \
        frame["version"], "nothing is dug before the confirmation"
    target.focus()
    page.keyboard.press("Enter")
    confirm(page, key="Enter")
    wait_answered(page)
    glowing = "(b) => [...b.querySelectorAll('[data-square]')].filter((n) => getComputedStyle(n).animationName === 'kit-glow').map((n) => Number(n.dataset.square))"
    assert set(expected) <= set(board(page).evaluate(glowing))
    tab.assert_clean()


MOUNT = """async () => {
  const module = await import("/games/solomon/board.js");
  const root = document.createElement("div");
  root.setAttribute("role", "region");
  root.setAttribute("aria-label", "Probe");
  document.body.replaceChildren(root);
  window.__placed = [];
  const t = (id, params) => id.replace(/\\{(\\w+)\\}/g, (m, k) => (params && k in params ? String(params[k]) : m));
  t.n = (one, many, n, params) => t(n === 1 ? one : many, { n, ...(params || {}) });
  t.term = (kind, name) => name;
  window.__board = module.mount(root, { t, lang: "en", game: "solomon", play: async () => true,
    placed: (ids) => window.__placed.push([...ids]) });
}"""
OFFERED = """(frame) => {
  window.__board.update(frame);
  const placed = new Set(window.__placed[window.__placed.length - 1]);
  const named = Array.from(document.querySelectorAll("[role=region] [role=button][aria-label]"), (n) => n.getAttribute("aria-label"));
  return {placed: Array.from(placed), named};
}"""


def _frame(state: Any, seat: int) -> dict[str, Any]:
    game = state.game
    return {"version": len(state.history()), "view": state.observation(seat),
            "legal": [[a, state.action_to_string(a), *game.action_range(a), state.is_final(a)] for a in state.legal_actions()],
            "previews": [preview.to_dict() for preview in previews.offered(state, seat)]}


def _decisions() -> list[dict[str, Any]]:
    """Frames of many kinds of decision: card choices, moves and digs, the Mirror, the Seal, payments, gifts."""
    from obelisk.core.registry import load
    from tests.games.solomon.helpers import give, play, set_cave, start_round, started

    frames = []
    for options in ({}, {"mirror_reflect": True}):
        state = started(2, **options)
        set_cave(state, ["3:T1 3:T1 3:T1 2:C3 3:T1 3:T1"] * 6)
        start_round(state, [12, 32])
        give(state, 0, Mi=1, Se=1, Pi=1, Am=1, T5=1)
        frames.append(_frame(state, 0))
        play(state, "use Mirror")
        frames.append(_frame(state, 0))
        play(state, "use Seal")
        frames.append(_frame(state, 0))
    game = load("solomon", 3)
    rng = random.Random(11)
    for seed in range(3):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            if rng.random() < 0.08 or state.phase in ("pay", "give"):
                frames.append(_frame(state, state.current_player()))
            state.apply_action(rng.choice(state.legal_actions()))
    return frames


def test_every_move_but_ending_the_turn_is_on_the_board(live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    tab = open_tab()
    tab.page.goto(live_server.url + "/")
    tab.page.evaluate(MOUNT)
    phases = set()
    for frame in _decisions():
        offered = tab.page.evaluate(OFFERED, frame)
        legal = {a[0]: a for a in frame["legal"]}
        left = set(legal) - set(offered["placed"])
        assert all(legal[a][2] == "end" for a in left), frame["view"]["phase"]
        assert set(offered["placed"]) <= set(legal)
        phases.add(frame["view"]["phase"])
    assert phases >= {"choose", "turn", "pay"}
    tab.assert_clean()
