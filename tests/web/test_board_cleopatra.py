"""Cleopatra's board in a real browser: a whole game played through the board and its bar, hidden information
kept out of the page, the secret bid, Czech, the keyboard and a phone-sized screen."""

from __future__ import annotations

import json
import random
import time
import urllib.error
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from tests.web.conftest import LiveServer, Tab, tab_until
from tests.web.person import (
    board, choose, overflowing, result, smallest_text, status_line, wait_answered, wait_turn,
)

BUILDING = {"wall", "sphinx", "pedestal", "throne", "obelisk", "door", "mosaic", "pay", "place", "finish", "claim"}
"""Seat 1 builds whenever it can, so the High Priest dice roll and an Offering comes."""
SHOWN = """(root) => ({text: root.textContent,
  infos: Array.from(root.querySelectorAll('[data-info]'), (n) => n.dataset.info),
  keys: Array.from(root.querySelectorAll('[data-key]'), (n) => n.dataset.key)})"""
"""Everything the board shows or carries (texts, the names of its pieces, what each piece stands for)."""


def create(server: LiveServer, seats: list[dict[str, Any]], **options: Any) -> tuple[str, dict[int, str]]:
    made = server.claimed(server.post("/api/tables", {"game": "cleopatra", "players": len(seats), "seats": seats,
                                                      "options": options}))
    return made["table"]["id"], {int(seat): token for seat, token in made["tokens"].items()}


def open_seat(tab: Tab, server: LiveServer, table: str, token: str, lang: str | None = None) -> Page:
    if lang:
        tab.context.add_init_script(f"localStorage.setItem('obelisk.lang', '{lang}')")
    tab.page.goto(f"{server.url}/table/{table}#token={token}")
    expect(board(tab.page, lang or "en").get_by_role("group").first).to_be_visible()
    return tab.page


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
    shown = board(page).evaluate(SHOWN)
    players = len(server.get(f"/api/tables/{table}")["seats"])
    for other in range(players):
        if other != seat:
            assert f"talents:{other}" not in shown["keys"] and f"amulets:{other}" not in shown["keys"]
    for name in secrets_of_others(server, table, tokens, seat):
        assert not [info for info in shown["infos"] if info == name or info.startswith(f"{name} (")], name


def bea_moves(server: LiveServer, table: str, token: str, rng: random.Random) -> bool:
    """Seat 1 plays through the API when it is to act: it builds when it can and bids its most."""
    frame = server.get(f"/api/tables/{table}/frame", token)
    if not frame["legal"]:
        return False
    bids = [a for a in frame["legal"] if a[2] == "bid"]
    builds = [a for a in frame["legal"] if a[2] in BUILDING or a[2:4] == ["play", 4]]
    action = max(bids, key=lambda a: a[3]) if bids else rng.choice(builds or frame["legal"])
    server.post(f"/api/tables/{table}/moves", {"version": frame["version"], "action": action[0]}, token)
    return True


def test_a_game_played_through_the_board_to_the_score_screen(
        live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    table, tokens = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bea"},
                                         {"kind": "bot", "bot": "greedy"}], max_rounds=3)
    live_server.post(f"/api/tables/{table}/claim", {"token": tokens[1], "name": "Bea"})
    ann = open_tab(motion="no-preference")  # it looks at the changes' animation
    page = open_seat(ann, live_server, table, tokens[0])
    rng = random.Random(5)
    moves = changes = 0
    while live_server.get(f"/api/tables/{table}")["status"] != "finished":
        if bea_moves(live_server, table, tokens[1], rng):
            continue
        if not live_server.get(f"/api/tables/{table}/frame", tokens[0])["legal"]:
            time.sleep(0.05)
            continue
        if wait_turn(page) == "over":
            break
        if moves % 6 == 0:
            assert_hides_the_others(page, live_server, table, tokens, 0)
        choose(page, rng, prefer=("finish", "keep") if rng.random() < 0.7 else (),
               avoid=("end turn", "pass") if rng.random() < 0.7 else ())
        wait_answered(page)
        expect(page.get_by_role("alert")).to_be_hidden()
        changes += board(page).evaluate("(b) => [...b.querySelectorAll('*')].some((n) => getComputedStyle(n).animationName === 'cl-fade')")
        moves += 1
        assert moves < 400
    expect(status_line(page)).to_have_text("Game over")
    expect(result(page).get_by_role("row")).to_have_count(4)
    assert moves > 5 and changes > moves // 2
    ann.assert_clean()


def test_the_offering_is_a_secret_bid(live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    """Until seat 0 has bid, its page names who has bid but shows no amount; its own bid is clicked on the board."""
    table, tokens = create(live_server, [{"kind": "human", "name": name} for name in ("Ann", "Bea", "Cid")],
                           priest_faces=3)
    for seat in (1, 2):
        live_server.post(f"/api/tables/{table}/claim", {"token": tokens[seat], "name": ("Bea", "Cid")[seat - 1]})
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
        builds = [a for a in frame["legal"] if a[2] in BUILDING or a[2:4] == ["play", 4]]
        action = rng.choice(bids[1:] or bids) if bids else rng.choice(builds or frame["legal"])
        try:
            live_server.post(f"/api/tables/{table}/moves", {"version": frame["version"], "action": action[0]}, tokens[seat])
        except urllib.error.HTTPError as error:
            if error.code != 409:  # stale: seat 0's page played its only choice for it meanwhile
                raise
    else:
        raise AssertionError("no Offering in 2000 moves")
    expect(page.get_by_role("group", name="The table in words").locator("pre")).to_have_text(frame["text"])
    offering = board(page).get_by_role("group", name="Offering to the High Priest")
    expect(offering.get_by_role("button")).to_have_count(len(frame["legal"]))
    shown = offering.text_content() or ""
    for other, name in ((1, "Bea"), (2, "Cid")):
        bid = frames[other]["view"]["offering"][other]
        assert (f"{name}: has bid" if bid >= 0 else f"{name}: waiting") in shown
    assert "your bid" not in shown
    html = board(page).inner_html()
    for other in (1, 2):
        bid = frames[other]["view"]["offering"][other]
        if bid >= 0:
            assert f"your bid {bid}" not in html
    watcher = open_tab()
    watcher.page.goto(f"{live_server.url}/table/{table}")
    expect(watcher.page.get_by_role("group", name="The table in words").locator("pre")).to_have_text(
        live_server.get(f"/api/tables/{table}/frame")["text"])
    expect(board(watcher.page).get_by_role("group", name="Offering to the High Priest")).to_contain_text("Ann: waiting")
    watched = board(watcher.page).evaluate(SHOWN)
    assert not [key for key in watched["keys"] if key.split(":")[0] in ("hand", "talents", "amulets")]
    assert "your bid" not in watched["text"] and "Your hand" not in watched["text"]
    watcher.assert_clean()
    offering.get_by_role("button").nth(1).click()
    dialog = page.get_by_role("dialog")
    if dialog.count() and dialog.is_visible():
        dialog.get_by_role("button").first.click()
    wait_answered(page)
    after = live_server.get(f"/api/tables/{table}/frame", tokens[0])["view"]
    if after["offering"] is not None:
        expect(board(page).get_by_role("group", name="Offering to the High Priest")).to_contain_text("Ann: your bid 1")
    else:
        assert after["last_offering"]["bids"][0] == 1
    tab.assert_clean()


def test_the_board_speaks_czech(live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    table, tokens = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"},
                                         {"kind": "bot", "bot": "random"}])
    tab = open_tab()
    page = open_seat(tab, live_server, table, tokens[0], lang="cs")
    plan = board(page, "cs")
    expect(plan).to_contain_text("Trh")
    expect(plan).to_contain_text("Palácové zahrady")
    expect(plan).to_contain_text("Náměstí Sfing")
    expect(plan).to_contain_text("Vaše ruka")
    plan.get_by_text("prázdná vyvýšenina", exact=True).click()
    expect(plan.get_by_role("status")).to_contain_text("Podstavec a trůn")
    tab.assert_clean()


def test_a_move_by_keyboard_alone(live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    table, tokens = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"},
                                         {"kind": "bot", "bot": "random"}])
    tab = open_tab()
    page = open_seat(tab, live_server, table, tokens[0])
    wait_turn(page)
    page.locator("body").focus()
    tab_until(page, "Boolean(document.activeElement.closest('svg [role=button]'))", "a piece of the board")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')")
    page.keyboard.press("Enter")
    if page.get_by_role("menu").count() and page.get_by_role("menu").is_visible():
        page.keyboard.press("Enter")
    if page.get_by_role("dialog").count() and page.get_by_role("dialog").is_visible():
        page.keyboard.press("Enter")
    wait_answered(page)
    expect(page.get_by_role("alert")).to_be_hidden()
    tab.assert_clean()


def test_a_phone_screen_fits_the_board_in_readable_text(
        live_server: LiveServer, open_tab: Callable[[], Tab]) -> None:
    table, tokens = create(live_server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"},
                                         {"kind": "bot", "bot": "random"}])
    tab = open_tab()
    tab.page.set_viewport_size({"width": 390, "height": 844})
    page = open_seat(tab, live_server, table, tokens[0])
    wait_turn(page)
    box = board(page).bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["width"] > 350
    assert overflowing(page) == []
    assert smallest_text(page) >= 11
    tab.assert_clean()
