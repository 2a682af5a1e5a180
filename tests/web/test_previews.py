"""Previews in a real browser: before a move is final the page shows what the rules engine says it would do.

Valley: a buy names the card's price and the hand cards that would pay it. Cleopatra: laying a mosaic outlines
the garden cells it would cover; a piece chosen at the quarry says its cost and talents. Solomon: a dig outlines its squares and names the coins the turn would cost
(tests/web/test_board_solomon.py). Each preview is read by its words on hover, on focus or on a phone's first
tap, and in the confirmation of a move that cannot be taken back; the move happens only once confirmed. The
page reads top to bottom on a phone with the board before the first-game guide.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from tests.web.conftest import LiveServer, Tab
from tests.web.person import WORDS, board, choose, wait_answered, wait_turn

FINAL = WORDS["en"]["final"]
PREVIEW_FILL = "rgb(250, 215, 160)"
"""The fill of a Cleopatra garden cell while a preview outlines it."""


def frame_of(server: LiveServer, table: str, token: str) -> dict[str, Any]:
    return server.get(f"/api/tables/{table}/frame", token)


def preview_of(frame: dict[str, Any], action: list[Any]) -> dict[str, Any]:
    return next(p for p in frame["previews"] if action[0] in p["actions"])


def valley_buy(server: LiveServer, open_tab: Callable[..., Tab], touch: bool
               ) -> tuple[Page, str, str, dict[str, Any], list[Any], Tab]:
    """A Valley table where seat 0, a person, may buy: its page, the table, the token, the frame and a buy."""
    created = server.claimed(server.post("/api/tables", {"game": "valley", "seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}]}))
    table, token = created["table"]["id"], created["tokens"]["0"]
    for _ in range(6):
        server_wait_turn(server, table, token)
        frame = frame_of(server, table, token)
        buys = [a for a in frame["legal"] if a[2] == "buy"]
        if buys:
            break
        end = next(a for a in frame["legal"] if a[2] == "end_turn")
        server.post(f"/api/tables/{table}/moves", {"version": frame["version"], "action": end[0]}, token)
    else:
        raise AssertionError("no buy within six turns")
    tab = open_tab(touch=touch)
    tab.page.goto(server.url + created["invite_urls"]["0"])
    wait_turn(tab.page)
    return tab.page, table, token, frame, buys[0], tab


def server_wait_turn(server: LiveServer, table: str, token: str) -> None:
    for _ in range(200):
        if frame_of(server, table, token)["legal"]:
            return
        time.sleep(0.05)
    raise AssertionError("seat 0 never came to act")


def test_a_buy_names_its_price_and_payment_before_it_is_confirmed(live_server: LiveServer,
                                                                  open_tab: Callable[..., Tab]) -> None:
    page, table, token, frame, buy, tab = valley_buy(live_server, open_tab, touch=False)
    preview = preview_of(frame, buy)
    slot = next(c for c in frame["view"]["pyramid"] if c["slot"] == preview["marks"][0])
    price = slot["cost"] - frame["view"]["turn"]["discount"]
    assert f"costs {price} gold" in preview["text"] and all(card in preview["text"] for card in preview["marks"][1:])
    piece = board(page).get_by_role("button", name=re.compile("^" + re.escape(buy[1])))
    piece.hover()
    expect(board(page).get_by_text(preview["text"])).to_be_visible()
    piece.click()
    dialog = page.get_by_role("dialog", name=FINAL)
    expect(dialog).to_contain_text(preview["text"])
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_be_hidden()
    assert frame_of(live_server, table, token)["version"] == frame["version"], "nothing is sent before the confirmation"
    piece.click()
    dialog.get_by_role("button", name=re.compile("^" + re.escape(buy[1]))).click()
    wait_answered(page)
    after = frame_of(live_server, table, token)
    assert after["version"] > frame["version"] and after["view"]["pending"]["step"] == "pay"
    tab.assert_clean()


def test_a_phone_previews_a_buy_on_the_first_tap_and_plays_it_on_the_second(live_server: LiveServer,
                                                                             open_tab: Callable[..., Tab]) -> None:
    page, table, token, frame, buy, tab = valley_buy(live_server, open_tab, touch=True)
    preview = preview_of(frame, buy)
    piece = board(page).get_by_role("button", name=re.compile("^" + re.escape(buy[1])))
    piece.tap()
    expect(board(page).get_by_text(preview["text"])).to_be_visible()
    dialog = page.get_by_role("dialog", name=FINAL)
    expect(dialog).to_be_hidden()
    assert frame_of(live_server, table, token)["version"] == frame["version"], "a first tap only previews"
    piece.tap()
    expect(dialog).to_contain_text(preview["text"])
    dialog.get_by_role("button", name=re.compile("^" + re.escape(buy[1]))).tap()
    wait_answered(page)
    assert frame_of(live_server, table, token)["view"]["pending"]["step"] == "pay"
    tab.assert_clean()


MOSAIC = ("mosaic", "place", "pay", "finish")
"""Seat 0's moves through the API until it lays a mosaic: it builds mosaics whenever it can."""


def test_a_mosaic_outlines_the_cells_it_would_cover(live_server: LiveServer, open_tab: Callable[..., Tab]) -> None:
    table, tokens, frame = cleopatra_until(live_server, lambda legal: any(a[2] == "place" for a in legal))
    place = next(a for a in frame["legal"] if a[2] == "place")
    preview = preview_of(frame, place)
    assert preview["text"] == "the mosaic would cover " + ", ".join(preview["marks"])
    # A cell where several placements begin opens a menu of them; the placement is pointed at there.
    tab, piece = previewed(open_tab(), live_server.url, table, tokens[0], place[1], preview["text"])
    page = tab.page
    lit = board(page).evaluate(f"""(b) => [...b.querySelectorAll("[data-key^='cell:']")]
      .filter((n) => getComputedStyle(n.querySelector("rect")).fill === "{PREVIEW_FILL}")
      .map((n) => n.dataset.key.slice(5)).sort()""")
    assert lit == sorted(preview["marks"])
    piece.click()
    if place[4]:
        dialog = page.get_by_role("dialog", name=FINAL)
        expect(dialog).to_contain_text(preview["text"])
        assert frame_of(live_server, table, tokens[0])["version"] == frame["version"]
        dialog.get_by_role("button", name=re.compile("^" + re.escape(place[1]))).click()
    wait_answered(page)
    garden = frame_of(live_server, table, tokens[0])["view"]["garden"]
    covered = {f"{chr(97 + c)}{r + 1}" for r, row in enumerate(garden) for c, cell in enumerate(row) if cell.isupper()}
    assert set(preview["marks"]) <= covered
    tab.assert_clean()


PIECES = ("wall", "sphinx", "pedestal", "throne", "obelisk", "door", "mosaic")


def test_a_piece_at_the_quarry_says_its_cost_and_talents_before_it_is_built(live_server: LiveServer,
                                                                           open_tab: Callable[..., Tab]) -> None:
    table, tokens, frame = cleopatra_until(live_server, lambda legal: any(a[2] in PIECES for a in legal))
    piece_action = next(a for a in frame["legal"] if a[2] in PIECES)
    preview = preview_of(frame, piece_action)
    assert ": costs " in preview["text"] and ", brings " in preview["text"]
    tab, piece = previewed(open_tab(), live_server.url, table, tokens[0], piece_action[1], preview["text"])
    page = tab.page
    assert frame_of(live_server, table, tokens[0])["version"] == frame["version"], "pointing at a piece sends nothing"
    piece.click()
    if piece_action[4]:
        page.get_by_role("dialog", name=FINAL).get_by_role(
            "button", name=re.compile("^" + re.escape(piece_action[1]))).click()
    wait_answered(page)
    after = frame_of(live_server, table, tokens[0])
    for _ in range(100):  # the move is sent once the click is handled
        if after["version"] > frame["version"]:
            break
        page.wait_for_timeout(100)
        after = frame_of(live_server, table, tokens[0])
    chosen = after["log"][frame["version"]]
    assert (chosen["actor"], chosen["text"]) == (0, piece_action[1]), "the piece pointed at was chosen"
    if after["view"]["phase"] == "pay":  # unless a payment of one way only was made by the page at once
        assert after["view"]["piece"] == [piece_action[2], piece_action[3]]
    tab.assert_clean()


def previewed(tab: Tab, url: str, table: str, token: str, label: str, text: str) -> tuple[Tab, Any]:
    """The seat's page opened in ``tab``, the move ``label`` pointed at, and its preview ``text`` on the board;
    returns the tab and what was pointed at."""
    tab.page.goto(f"{url}/table/{table}#token={token}")
    wait_turn(tab.page)
    piece = point_at(tab.page, label)
    expect(board(tab.page).get_by_text(text)).to_be_visible()
    return tab, piece


def point_at(page: Page, label: str) -> Any:
    """Points at the move ``label`` as a person does: its piece, or the entry of the menu its piece opens when
    the piece has several moves. Returns what was pointed at."""
    piece = board(page).get_by_role("button", name=re.compile(re.escape(label))).first
    if piece.get_attribute("aria-haspopup") == "menu":
        piece.click()
        piece = page.get_by_role("menuitem", name=re.compile("^" + re.escape(label)))
    piece.hover()
    return piece


def cleopatra_until(server: LiveServer, wanted: Callable[[list[list[Any]]], bool]) -> tuple[str, dict[int, str], dict[str, Any]]:
    """A Cleopatra table of three people played through the API until seat 0 has a decision whose legal
    actions ``wanted`` accepts, with more than one (the page plays a decision's only move by itself); seat 0
    builds mosaics whenever it can. The table, the tokens and seat 0's frame. A game that ends first (the
    shuffle is the server's) is followed by another."""
    seats = [{"kind": "human", "name": name} for name in ("Ann", "Bea", "Cy")]
    rng = random.Random(5)
    for _ in range(8):
        created = server.claimed(server.post("/api/tables", {"game": "cleopatra", "players": 3, "seats": seats,
                                                             "options": {"max_rounds": 6}}))
        table = created["table"]["id"]
        tokens = {int(seat): token for seat, token in created["tokens"].items()}
        for _ in range(600):
            acting = server.get(f"/api/tables/{table}")["to_act"]
            if acting is None:
                break
            frame = frame_of(server, table, tokens[acting])
            if acting == 0 and len(frame["legal"]) > 1 and wanted(frame["legal"]):
                return table, tokens, frame
            liked = [a for a in frame["legal"] if a[2] in MOSAIC] if acting == 0 else []
            action = rng.choice(liked or frame["legal"])
            server.post(f"/api/tables/{table}/moves", {"version": frame["version"], "action": action[0]},
                        tokens[acting])
    raise AssertionError("seat 0 never came to the decision wanted")


def tainted_pay(action: list[Any]) -> bool:
    """A payment with a tainted card (the pay range counts four sources per resource: card, tainted, trompe,
    merchant)."""
    return action[2] == "pay" and action[3] % 4 == 1


def clean_pay(action: list[Any]) -> bool:
    """A payment with a clean card or a Nile merchant."""
    return action[2] == "pay" and action[3] % 4 in (0, 3)


def test_a_tainted_payment_says_so_in_words_and_a_clean_one_too(live_server: LiveServer,
                                                               open_tab: Callable[..., Tab]) -> None:
    table, tokens, frame = cleopatra_until(live_server, lambda legal: any(tainted_pay(a) for a in legal)
                                           and any(clean_pay(a) for a in legal))
    tainted = next(a for a in frame["legal"] if tainted_pay(a))
    said = preview_of(frame, tainted)["text"]
    assert said.startswith("tainted: ") and "amulet of corruption" in said
    others = [a for a in frame["legal"] if clean_pay(a)]
    tab, _ = previewed(open_tab(), live_server.url, table, tokens[0], tainted[1], said)
    page = tab.page
    for clean in others:
        words = preview_of(frame, clean)["text"]
        assert words.startswith("clean: ")
        page.keyboard.press("Escape")
        point_at(page, clean[1])
        expect(board(page).get_by_text(words)).to_be_visible()
    tab.assert_clean()


def test_a_phone_shows_the_board_before_the_guide_and_the_summary(live_server: LiveServer,
                                                                  open_tab: Callable[..., Tab]) -> None:
    created = live_server.claimed(live_server.post("/api/tables", {"game": "valley", "seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}]}))
    tab = open_tab(touch=True)
    page = tab.page
    page.goto(live_server.url + created["invite_urls"]["0"])
    wait_turn(page)
    since = page.get_by_role("group", name="Since your last turn")
    rng = random.Random(2)
    for _ in range(8):
        choose(page, rng, prefer=("end turn",))
        wait_answered(page)
        wait_turn(page)
        if since.is_visible():
            break
    guide = page.get_by_role("region", name=re.compile("^First game"))
    expect(guide).to_be_visible()
    expect(since).to_be_visible()
    # Read top to bottom: the board comes first, then the guide and what happened since the last turn.
    tops = {name: box["y"] for name, box in (("board", board(page).bounding_box()), ("guide", guide.bounding_box()),
                                             ("since", since.bounding_box())) if box}
    assert sorted(tops, key=tops.get)[0] == "board", tops
    tab.assert_clean()
