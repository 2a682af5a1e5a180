"""Cleopatra's board in a real browser: a whole game played by clicking only inside the board, hidden
information kept out of the page, Czech, the keyboard and a phone-sized screen."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from tests.web.conftest import LiveServer, Tab, box_of, tab_until

BUILDING = {"wall", "sphinx", "pedestal", "throne", "obelisk", "door", "mosaic", "pay", "place", "finish", "claim"}
"""Seat 1 builds whenever it can, so the High Priest dice roll and an Offering comes."""
READY = """() => {
  if (document.querySelector('#scores tbody tr')) return 'over';
  const board = document.querySelector('#board svg');
  if (!board || board.classList.contains('cl-busy')) return false;
  if (!document.querySelector('#board .cl-target')) return false;
  return document.getElementById('version').textContent;
}"""
BOARD = """() => {
  const root = document.getElementById('board');
  return {text: root.textContent,
          cards: Array.from(root.querySelectorAll('[data-info]'), (n) => n.dataset.info),
          keys: Array.from(root.querySelectorAll('[data-key]'), (n) => n.dataset.key)};
}"""


def create(server: LiveServer, seats: list[dict[str, Any]], **options: Any) -> tuple[str, dict[int, str]]:
    made = server.claimed(server.post("/api/tables", {"game": "cleopatra", "players": len(seats), "seats": seats,
                                                      "options": options}))
    return made["table"]["id"], {int(seat): token for seat, token in made["tokens"].items()}


def open_seat(tab: Tab, server: LiveServer, table: str, token: str, lang: str | None = None) -> Page:
    if lang:
        tab.context.add_init_script(f"localStorage.setItem('obelisk.lang', '{lang}')")
    tab.page.goto(f"{server.url}/table/{table}#token={token}")
    expect(tab.page.locator("#board svg")).to_be_visible()
    return tab.page


def click_a_target(page: Page, rng: random.Random) -> str | None:
    """Clicks one highlighted target of the board (and an entry of its menu); the version it answered."""
    ready = page.wait_for_function(READY, polling=20, timeout=30_000).json_value()
    if ready == "over":
        return None
    targets = page.locator("#board .cl-target")
    ranges = targets.evaluate_all("(nodes) => nodes.map((n) => n.dataset.range || '')")
    weights = [0.3 if r in ("end_turn", "pass") else 6.0 if r in ("finish", "limit_keep") else 1.0 for r in ranges]
    choice = rng.choices(range(len(ranges)), weights)[0]
    targets.nth(choice).click()
    menu = page.locator("#board .cl-menu:not([hidden]) .cl-menu-item:not(.cl-menu-cancel)")
    if menu.count():
        menu.nth(rng.randrange(menu.count())).click()
    page.wait_for_function("(v) => document.getElementById('version').textContent !== v "
                           "|| !document.getElementById('table-error').hidden", arg=ready, polling=20)
    expect(page.locator("#table-error")).to_be_hidden()
    return str(ready)


def secrets_of_others(server: LiveServer, table: str, tokens: dict[int, str], seat: int) -> list[str]:
    """Card names another seat holds (or sees drawn) that nothing in ``seat``'s view mentions."""
    mine = json.dumps(server.get(f"/api/tables/{table}/frame", tokens[seat])["view"])
    secret = []
    for other, token in tokens.items():
        if other == seat:
            continue
        view = server.get(f"/api/tables/{table}/frame", token)["view"]
        names = set(view["players"][other].get("hand", {})) | {n for n in view["pending"] if n != "face-down"}
        secret += [name for name in names if json.dumps(name) not in mine]
    return secret


def assert_hides_the_others(page: Page, server: LiveServer, table: str, tokens: dict[int, str], seat: int) -> None:
    shown = page.evaluate(BOARD)
    players = len(server.get(f"/api/tables/{table}")["seats"])
    for other in range(players):
        if other != seat:
            assert f"talents:{other}" not in shown["keys"] and f"amulets:{other}" not in shown["keys"]
    cards = shown["cards"]
    for name in secrets_of_others(server, table, tokens, seat):
        assert not [card for card in cards if card == name or card.startswith(f"{name} (")], name
    view = server.get(f"/api/tables/{table}/frame", tokens[seat])["view"]
    for s, stall in enumerate(view["market"]):
        for i, name in enumerate(stall):
            shown_as = page.locator(f'#board [data-key="stall:{s}:{i}"]').get_attribute("data-info") or ""
            assert shown_as == name if name == "face-down" else shown_as.startswith(name), (name, shown_as)


def test_a_game_played_by_clicking_the_board_to_the_score_screen(
        live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    table, tokens = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bea"},
                                         {"kind": "bot", "bot": "greedy"}], max_rounds=3)
    live_server.post(f"/api/tables/{table}/claim", {"token": tokens[1], "name": "Bea"})
    ann = open_tab()
    page = open_seat(ann, live_server, table, tokens[0])
    rng = random.Random(5)
    moves = 0
    changes = 0
    while True:
        frame = live_server.get(f"/api/tables/{table}/frame", tokens[1])
        if frame["status"] == "finished":
            break
        if frame["legal"]:
            bids = [a for a in frame["legal"] if a[2] == "bid"]
            builds = [a for a in frame["legal"] if a[2] in BUILDING or a[2:] == ["play", 4]]
            action = max(bids, key=lambda a: a[3]) if bids else rng.choice(builds or frame["legal"])
            live_server.post(f"/api/tables/{table}/moves", {"version": frame["version"], "action": action[0]}, tokens[1])
            continue
        if not live_server.get(f"/api/tables/{table}/frame", tokens[0])["legal"]:
            time.sleep(0.05)
            continue
        if moves % 6 == 0:
            assert_hides_the_others(page, live_server, table, tokens, 0)
        if click_a_target(page, rng) is None:
            break
        changes += page.locator("#board .cl-changed").count() > 0
        moves += 1
        assert moves < 400
    expect(page.locator("#turn-title")).to_have_text("Game over")
    expect(page.locator("#scores tbody tr")).to_have_count(3)
    assert moves > 5 and changes > moves // 2
    ann.assert_clean()


def test_the_offering_is_a_secret_bid_dialog(live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    """Until seat 0 has bid, its page names who has bid but shows no amount; its own bid is clicked in the dialog."""
    table, tokens = create(live_server, [{"kind": "human", "name": name} for name in ("Ann", "Bea", "Cid")],
                           priest_faces=3)
    for seat in (1, 2):
        live_server.post(f"/api/tables/{table}/claim", {"token": tokens[seat], "name": f"seat {seat}"})
    tab = open_tab()
    page = open_seat(tab, live_server, table, tokens[0])
    rng = random.Random(3)
    for _ in range(2000):
        frames = {seat: live_server.get(f"/api/tables/{table}/frame", token) for seat, token in tokens.items()}
        seat, frame = next((s, f) for s, f in frames.items() if f["legal"])
        if seat == 0 and frame["view"]["phase"] == "offering" and any(
                f["view"]["offering"][s] >= 0 for s, f in frames.items() if s):
            break
        bids = [a for a in frame["legal"] if a[2] == "bid"]
        builds = [a for a in frame["legal"] if a[2] in BUILDING or a[2:] == ["play", 4]]
        action = rng.choice(bids[1:] or bids) if bids else rng.choice(builds or frame["legal"])
        live_server.post(f"/api/tables/{table}/moves", {"version": frame["version"], "action": action[0]}, tokens[seat])
    else:
        raise AssertionError("no Offering in 2000 moves")
    page.wait_for_function("(v) => document.getElementById('version').textContent === v", arg=str(frame["version"]),
                           polling=20)
    dialog = page.locator("#board .cl-offering")
    expect(dialog.locator(".cl-bid")).to_have_count(len(frame["legal"]))
    shown = dialog.text_content() or ""
    for other in (1, 2):
        bid = frames[other]["view"]["offering"][other]
        assert (f"seat {other}: has bid" if bid >= 0 else f"seat {other}: waiting") in shown
    assert "your bid" not in shown
    others = [frames[s]["view"]["offering"][s] for s in (1, 2) if frames[s]["view"]["offering"][s] >= 0]
    html = page.locator("#board").inner_html()
    for bid in others:
        assert f"your bid {bid}" not in html
    watcher = open_tab()
    watcher.page.goto(f"{live_server.url}/table/{table}")
    watcher.page.wait_for_function("(v) => document.getElementById('version').textContent === v",
                                   arg=str(frame["version"]), polling=20)
    expect(watcher.page.locator("#board .cl-offering")).to_contain_text("seat 0: waiting")
    watched = watcher.page.evaluate(BOARD)
    assert not [key for key in watched["keys"] if key.split(":")[0] in ("hand", "talents", "amulets")]
    assert "your bid" not in watched["text"] and "Your hand" not in watched["text"]
    for other in (1, 2):
        bid = frames[other]["view"]["offering"][other]
        assert (f"seat {other}: has bid" if bid >= 0 else f"seat {other}: waiting") in watched["text"]
    watcher.assert_clean()
    dialog.locator(".cl-bid").nth(1).click()
    page.wait_for_function("(v) => document.getElementById('version').textContent !== v", arg=str(frame["version"]),
                           polling=20)
    after = live_server.get(f"/api/tables/{table}/frame", tokens[0])["view"]
    if after["offering"] is not None:
        expect(page.locator("#board .cl-offering")).to_contain_text("seat 0: your bid 1")
    else:
        assert after["last_offering"]["bids"][0] == 1
    tab.assert_clean()


def test_the_board_speaks_czech(live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    table, tokens = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"},
                                         {"kind": "bot", "bot": "random"}])
    tab = open_tab()
    page = open_seat(tab, live_server, table, tokens[0], lang="cs")
    board = page.locator("#board")
    expect(board).to_contain_text("Trh")
    expect(board).to_contain_text("Palácové zahrady")
    expect(board).to_contain_text("Náměstí Sfing")
    expect(board).to_contain_text("Vaše ruka")
    page.locator('#board [data-key="dais"]').hover()
    expect(page.locator("#board .cl-info")).to_contain_text("Podstavec a trůn")
    tab.assert_clean()


def test_a_move_by_keyboard_alone(live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    table, tokens = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"},
                                         {"kind": "bot", "bot": "random"}])
    tab = open_tab()
    page = open_seat(tab, live_server, table, tokens[0])
    page.wait_for_function(READY, polling=20)
    version = page.locator("#version").text_content()
    page.locator("#board svg").evaluate("(svg) => { svg.setAttribute('tabindex', '-1'); svg.focus(); }")
    tab_until(page, "document.activeElement.classList.contains('cl-target')", "a target of the board")
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert label
    expect(page.locator("#board .cl-info")).to_be_visible()
    page.keyboard.press("Enter")
    if page.locator("#board .cl-menu:not([hidden])").count():
        page.keyboard.press("Enter")
    page.wait_for_function("(v) => document.getElementById('version').textContent !== v", arg=version, polling=20)
    expect(page.locator("#table-error")).to_be_hidden()
    tab.assert_clean()


def test_a_phone_screen_shows_the_board_without_scrolling_sideways(
        live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    table, tokens = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"},
                                         {"kind": "bot", "bot": "random"}])
    tab = open_tab()
    tab.page.set_viewport_size({"width": 390, "height": 844})
    page = open_seat(tab, live_server, table, tokens[0])
    page.wait_for_function(READY, polling=20)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    box = box_of(page, "#board svg")
    assert box["width"] <= 390 and box["width"] > 300
    tab.assert_clean()
