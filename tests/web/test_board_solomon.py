"""The King Solomon's Treasury board in a real browser: played to the end by clicking the board only, no other
seat's secrets in the page, Czech, the keyboard and a phone-sized screen."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from tests.web.conftest import LiveServer, Tab, box_of, tab_until

TARGETS = "#board [data-actions]"
WAIT_TURN = """(seen) => {
  const version = document.getElementById("version").textContent;
  if (document.getElementById("table-status").textContent === "finished") return {done: true, version};
  if (version === seen) return false;
  const targets = document.querySelectorAll("#board [data-actions]");
  const board = document.querySelector("#board svg");
  if (!board || !targets.length) return false;
  return {done: false, version};
}"""
CHANGED = """(version) => document.getElementById("version").textContent !== version
  || document.getElementById("table-status").textContent === "finished" """
BOARD_DUMP = """() => {
  const board = document.getElementById("board");
  const attributes = [];
  for (const node of board.querySelectorAll("*")) {
    for (const attr of node.attributes) attributes.push(attr.value);
  }
  // Each text node on its own line: textContent would run "card 2" and a following "2" into "card 22".
  const texts = [];
  const walker = document.createTreeWalker(board, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) texts.push(walker.currentNode.nodeValue);
  return {version: document.getElementById("version").textContent, text: texts.join("\\n"), attributes, cards: Array.from(board.querySelectorAll("[data-card]"),
    (node) => Number(node.dataset.card))};
}"""


def create(server: LiveServer, seats: list[dict[str, Any]]) -> dict[str, Any]:
    return server.claimed(server.post("/api/tables", {"game": "solomon", "players": len(seats), "seats": seats}))


def open_seat(tab: Tab, server: LiveServer, created: dict[str, Any], seat: int, lang: str = "en") -> Page:
    if lang != "en":
        tab.context.add_init_script(f"localStorage.setItem('obelisk.lang', '{lang}')")
    tab.page.goto(server.url + created["invite_urls"][str(seat)])
    expect(tab.page.locator("#board svg")).to_be_visible()
    return tab.page


def click_one(page: Page, rng: random.Random) -> None:
    """Clicks one target on the board: a card, a dig, a payment, a tile; now and then a tile move.

    Ending the turn comes before a move: moves are paid at the end of the turn, so they stay on offer
    whatever the seat holds, and a game of moves first would not end.
    """
    targets = page.locator(TARGETS)
    kinds = [str(targets.nth(i).get_attribute("aria-label")) for i in range(targets.count())]
    order = ["choose card", "Seal:", "dig card", "pay", "give", "use", "end turn", "move"]
    if any(k.startswith("move") for k in kinds) and rng.random() < 0.15:
        order.remove("move")
        order.insert(0, "move")
    for word in order:
        picks = [i for i, k in enumerate(kinds) if word in k]
        if picks:
            break
    else:
        picks = list(range(len(kinds)))
    chosen = targets.nth(rng.choice(picks))
    chosen.click()
    menu = page.locator("#board .solomon-menu button:not(.solomon-cancel)")
    if page.locator("#board .solomon-menu").is_visible():
        labels = menu.all_text_contents()
        wanted = [i for i, label in enumerate(labels) if label.startswith(word)] or list(range(len(labels)))
        menu.nth(rng.choice(wanted)).click()


def play_to_end(page: Page, rng: random.Random, check: Callable[[], None] | None = None, limit: int = 400) -> int:
    seen = ""
    moves = 0
    while moves < limit:
        state = page.wait_for_function(WAIT_TURN, arg=seen, polling=20, timeout=30_000).json_value()
        if state["done"]:
            return moves
        seen = state["version"]
        if check is not None:
            check()
        click_one(page, rng)
        page.wait_for_function(CHANGED, arg=seen, polling=20)
        moves += 1
    raise AssertionError(f"no end after {limit} moves")


def test_a_game_is_played_to_the_score_screen_by_clicking_the_board(
        live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    created = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"},
                                   {"kind": "bot", "bot": "greedy"}])
    tab = open_tab()
    page = open_seat(tab, live_server, created, 0)
    moves = play_to_end(page, random.Random(3))
    assert moves >= 8
    expect(page.locator("#turn-title")).to_have_text("Game over")
    expect(page.locator("#scores tbody tr")).to_have_count(3)
    expect(page.locator(TARGETS)).to_have_count(0)
    tab.assert_clean()


def test_the_board_shows_no_other_seats_secrets(live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    created = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bea"}])
    table = created["table"]["id"]
    tokens = created["tokens"]
    live_server.post(f"/api/tables/{table}/claim", {"token": tokens["1"], "name": "Bea"})
    ann, watcher = open_tab(), open_tab()
    page = open_seat(ann, live_server, created, 0)
    watcher.page.goto(live_server.url + created["spectator_url"])
    expect(watcher.page.locator("#board svg")).to_be_visible()
    rng = random.Random(5)
    checked = 0

    def compare(target: Page, seat: int | None) -> None:
        token = tokens[str(seat)] if seat is not None else None
        for _ in range(5):
            mine = live_server.get(f"/api/tables/{table}/frame", token)
            theirs = live_server.get(f"/api/tables/{table}/frame", tokens["1"])
            target.wait_for_function("(v) => document.getElementById('version').textContent === v",
                                     arg=str(mine["version"]), polling=20)
            shown = target.evaluate(BOARD_DUMP)
            after = live_server.get(f"/api/tables/{table}/frame", token)["version"]
            if shown["version"] == str(mine["version"]) == str(theirs["version"]) == str(after):
                break
        else:
            raise AssertionError("the table kept changing while its board was read")
        known = {int(n) for n in mine["view"]["card_shapes"]}
        secret = {int(n) for n in theirs["view"]["card_shapes"]} - known
        assert set(shown["cards"]) <= known
        for number in secret:
            named = re.compile(rf"\bcard {number}\b", re.IGNORECASE)
            found = named.search(shown["text"])
            assert not found, shown["text"][max(0, found.start() - 300):found.end() + 100]
            assert not any(named.search(value) for value in shown["attributes"])
        if theirs["view"]["my_choice"] is not None and mine["view"]["phase"] == "choose":
            assert str(theirs["view"]["my_choice"]) not in shown["cards"]
        assert tokens["1"] not in target.content()

    def check() -> None:
        nonlocal checked
        compare(page, 0)
        compare(watcher.page, None)
        checked += 1

    def bea_moves() -> bool:
        frame = live_server.get(f"/api/tables/{table}/frame", tokens["1"])
        if not frame["legal"]:
            return False
        action = rng.choice([a for a in frame["legal"] if a[2] != "move"] or frame["legal"])
        live_server.post(f"/api/tables/{table}/moves", {"version": frame["version"], "action": action[0]}, tokens["1"])
        return True

    seen = ""
    deadline = time.monotonic() + 60
    while checked < 12 and time.monotonic() < deadline:
        if bea_moves():
            continue
        state = page.evaluate(f"({WAIT_TURN})({json.dumps(seen)})")
        if not state:
            time.sleep(0.05)
            continue
        if state["done"]:
            break
        seen = state["version"]
        check()
        click_one(page, rng)
        page.wait_for_function(CHANGED, arg=seen, polling=20)
    assert checked >= 12
    ann.assert_clean()
    watcher.assert_clean()


def test_the_board_speaks_czech(live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    created = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}])
    tab = open_tab()
    page = open_seat(tab, live_server, created, 0, lang="cs")
    board = page.locator("#board")
    expect(board).to_contain_text("vchod do jeskyně")
    expect(board).to_contain_text("Kolo 1 z 12")
    expect(board).to_contain_text("Vaše Výkopové karty")
    expect(board).to_contain_text("Hráč 1")
    expect(board).to_contain_text("za zástěnou")
    expect(board.locator(".card title").first).to_contain_text("Výkop v tomto tvaru, počet políček")
    titles = " ".join(board.locator(".square title").all_text_contents())
    assert "horní destička" in titles and ("poklad" in titles or "svitek" in titles)
    assert "Prokletí má černé pozadí" in titles or "Svitek má bílé pozadí" in titles
    tab.assert_clean()


def test_a_card_is_chosen_with_the_keyboard_only(live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    created = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}])
    tab = open_tab()
    page = open_seat(tab, live_server, created, 0)
    expect(page.locator(TARGETS).first).to_be_visible()
    version = page.locator("#version").text_content()
    tab_until(page, "(document.activeElement?.getAttribute('aria-label') || '').startsWith('choose card')",
              "a card of the board")
    label = str(page.evaluate("document.activeElement.getAttribute('aria-label')"))
    focused = page.evaluate("document.activeElement.closest('#board') !== null")
    assert focused
    page.keyboard.press("Enter")
    page.wait_for_function(CHANGED, arg=version, polling=20)
    frame = live_server.get(f"/api/tables/{created['table']['id']}/frame", created["tokens"]["0"])
    number = int(label.rsplit(" ", 1)[1])
    assert frame["view"]["my_choice"] == number or frame["view"]["seats"][0]["played"] == [number]
    tab.assert_clean()


def test_a_phone_sized_screen_shows_the_board_without_scrolling_sideways(
        live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    created = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}])
    tab = open_tab()
    tab.page.set_viewport_size({"width": 390, "height": 844})
    page = open_seat(tab, live_server, created, 0)
    box = box_of(page, "#board svg")
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert page.evaluate("document.getElementById('board').scrollWidth <= document.getElementById('board').clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    tab.assert_clean()


def test_a_dig_target_highlights_the_squares_it_would_take(live_server: LiveServer,
                                                           open_tab: Callable[[], Tab]) -> None:
    created = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}])
    tab = open_tab()
    page = open_seat(tab, live_server, created, 0)
    page.locator("#board [aria-label^='choose card']").first.click()
    dig = page.locator("#board .square[aria-label^='dig card']").first
    expect(dig).to_be_visible()
    frame = live_server.get(f"/api/tables/{created['table']['id']}/frame", created["tokens"]["0"])
    label = str(dig.get_attribute("aria-label"))
    action = next(a for a in frame["legal"] if a[1] == label)
    anchor = action[3] % 36
    cells = frame["view"]["card_shapes"][str(frame["view"]["turn"]["card"])]
    expected = sorted(anchor + r * 6 + c for r, c in cells)
    target = page.locator(f"#board .square[aria-label={json.dumps(label)}]")
    target.hover()
    previewed = page.locator("#board .square.preview")
    page.wait_for_function(SQUARES_ARE, arg=[".square.preview", expected])
    page.mouse.move(0, 0)
    expect(previewed).to_have_count(0)
    target.focus()
    page.wait_for_function(SQUARES_ARE, arg=[".square.preview", expected])
    page.keyboard.press("Enter")
    page.wait_for_function(SQUARES_INCLUDE, arg=[".square.changed", expected])
    expect(page.locator("#board .square.changed")).to_have_count(0, timeout=10_000)
    tab.assert_clean()


SQUARES_ARE = """([css, wanted]) => {
  const got = [...document.querySelectorAll("#board " + css)].map((n) => Number(n.dataset.square));
  return JSON.stringify(got.sort((a, b) => a - b)) === JSON.stringify(wanted);
}"""
"""Whether the board's squares matching ``css`` are exactly the ``wanted`` (ascending) square numbers:
read in one step in the page, so a render in between cannot mix two boards."""
SQUARES_INCLUDE = """([css, wanted]) => {
  const got = new Set([...document.querySelectorAll("#board " + css)].map((n) => Number(n.dataset.square)));
  return wanted.every((square) => got.has(square));
}"""
"""Whether the board's squares matching ``css`` include all ``wanted`` square numbers (bots may add more)."""


MOUNT = """async () => {
  const module = await import("/games/solomon/board.js");
  const root = document.createElement("div");
  root.id = "solomon-probe";
  document.body.replaceChildren(root);
  window.__played = [];
  const t = (id, params) => id.replace(/\\{(\\w+)\\}/g, (m, k) => (params && k in params ? String(params[k]) : m));
  t.n = (one, many, n, params) => t(n === 1 ? one : many, { n, ...(params || {}) });
  t.term = (kind, name) => name;
  window.__board = module.mount(root, { t, lang: "en", play: (id) => window.__played.push(id) });
}"""
REACHABLE = """(frame) => {
  window.__board.update(frame);
  const ids = (scope) => Array.from(document.querySelectorAll(`#solomon-probe ${scope}[data-actions]`),
    (node) => node.dataset.actions.split(" ").map(Number)).flat();
  const found = new Set(ids(""));
  const buttons = ids(".buttons ");
  const turns = Array.from(document.querySelectorAll("#solomon-probe .card.target")).length;
  for (let i = 0; i < turns; i += 1) {
    document.querySelectorAll("#solomon-probe .card.target")[i].dispatchEvent(new MouseEvent("click", {bubbles: true}));
    for (const id of ids("")) found.add(id);
  }
  return {found: Array.from(found), buttons, turns};
}"""


def _frame(state: Any, seat: int) -> dict[str, Any]:
    game = state.game
    return {"view": state.observation(seat),
            "legal": [[a, state.action_to_string(a), *game.action_range(a)] for a in state.legal_actions()]}


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


def test_every_legal_action_has_a_target_on_the_board(live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    tab = open_tab()
    tab.page.goto(live_server.url + "/")
    tab.page.evaluate(MOUNT)
    frames = _decisions()
    phases = set()
    turned = 0
    for frame in frames:
        reached = tab.page.evaluate(REACHABLE, frame)
        legal = {a[0]: a for a in frame["legal"]}
        assert set(reached["found"]) == set(legal), frame["view"]["phase"]
        assert all(legal[a][2] == "end" for a in reached["buttons"])
        phases.add(frame["view"]["phase"])
        turned += reached["turns"] > 0
    assert phases >= {"choose", "turn", "pay"} and turned >= 2
    tab.assert_clean()
