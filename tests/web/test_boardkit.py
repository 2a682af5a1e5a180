"""The board kit (/static/boardkit.js) in the real table page, with a small board that only draws and hands its
pieces to the kit: one tap plays, several moves open a menu, a move that cannot be taken back is marked and asked,
the board is inert from a move until the next frame, every piece's text comes on tap, long press, right click,
hover or focus, what changed since the last look glows, previews follow the pointer, and the page's bar offers
only the moves the board does not. Checked the way a person sees them: roles, names, texts and what is drawn."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Locator, Page, Route, expect

from tests.web.conftest import Tab
from tests.web.test_client import HOSTILE, ORIGIN, ScriptedServer, assert_not_injected, frame, summary

BOARD = """
import { createKit } from "/static/boardkit.js";

export function mount(root, ctx) {
  const kit = createKit(root, ctx, {
    preview: (action) => [...root.querySelectorAll(`[data-spot="${action[3] + 1}"]`)],
  });
  const holder = document.createElement("div");
  root.prepend(holder);
  return {
    update(frame) {
      kit.begin(frame);
      holder.replaceChildren();
      for (const piece of frame.view.pieces) {
        const node = document.createElement("span");
        node.textContent = piece.name;
        node.dataset.spot = String(piece.spot);
        node.style.display = "inline-block";
        node.style.margin = "8px";
        node.style.padding = "12px";
        holder.append(node);
        kit.item(node, piece.name, piece.sig);
        const about = { title: piece.name, numbers: "cost 3", text: piece.text };
        kit.info(node, about);
        kit.target(node, (frame.legal || []).filter((a) => a[2] === "spot" && a[3] === piece.spot), { key: piece.name, title: piece.name, info: about });
      }
      kit.end();
    },
    destroy() { kit.destroy(); },
  };
}
"""

PIECES = [
    {"name": "Urn", "spot": 0, "sig": "a", "text": "Spend it for 2 gold."},
    {"name": "Boat", "spot": 1, "sig": "a", "text": "Take a card from the pyramid."},
    {"name": "Censer", "spot": 2, "sig": "a", "text": "Nothing to do with it now."},
]
LEGAL = [
    [10, "buy Urn", "spot", 0, False],
    [11, "buy Boat", "spot", 1, False],
    [12, "entomb Boat", "spot", 1, True],
    [20, "end turn", "end_turn", 0, True],
]
PREVIEWED = "rgb(184, 134, 11)"
"""The page's gold: the outline of a piece an action would change, while the action is pointed at."""


def board_frame(version: int, legal: list[list[Any]] = LEGAL, pieces: list[dict[str, Any]] = PIECES,
                **extra: Any) -> dict[str, Any]:
    table = summary(version=version, board="/games/valley/board.js")
    return frame(version, legal, table=table, view={"current_player": 0, "pieces": pieces}, **extra)


def opened(open_tab: Callable[..., Tab], touch: bool = False, motion: str = "reduce") -> tuple[Tab, ScriptedServer]:
    tab = open_tab(touch=touch, motion=motion) if touch else open_tab(motion=motion)
    server = ScriptedServer(tab.context)

    def serve(route: Route) -> None:
        route.fulfill(status=200, body=BOARD, headers={"content-type": "text/javascript"})

    tab.context.route(f"{ORIGIN}/games/valley/board.js", serve)
    stored = json.dumps({"token": "tok0", "seat": 0, "claimed": True})
    tab.context.add_init_script(f"localStorage.setItem('obelisk.seat.T1', {json.dumps(stored)});")
    tab.page.goto(ORIGIN + "/table/T1")
    server.wait(tab.page, lambda: server.received, "hello")
    return tab, server


def board(page: Page) -> Locator:
    return page.get_by_role("region", name="Board")


def sent(server: ScriptedServer) -> list[dict[str, Any]]:
    return [message for message in server.received if message["type"] != "hello"]


def glowing(node: Locator) -> bool:
    """Whether the piece is drawn with the glow of something that changed."""
    return node.evaluate("(n) => getComputedStyle(n).animationName") == "kit-glow"


def test_one_tap_plays_and_the_board_is_inert_until_the_next_frame(open_tab: Callable[..., Tab]) -> None:
    tab, server = opened(open_tab)
    page = tab.page
    server.send(board_frame(5))
    hint = page.get_by_text("Tap a highlighted piece to play it (where it first shows what it will do, tap it again); tap any other piece to read it.")
    expect(hint).to_be_visible()
    urn = board(page).get_by_role("button", name="buy Urn")
    urn.click()
    assert server.wait(page, lambda: sent(server), "the move") == [{"type": "move", "version": 5, "action": 10}]
    expect(hint).to_be_hidden()
    expect(board(page)).to_have_attribute("aria-busy", "true")
    expect(urn).to_have_attribute("aria-disabled", "true")
    urn.click(force=True)
    page.wait_for_timeout(200)
    assert len(sent(server)) == 1, "a second tap before the next frame sends nothing"
    server.send(board_frame(6))
    expect(board(page)).not_to_have_attribute("aria-busy", "true")
    expect(hint).to_be_hidden(), "the hint goes once a piece was played, and stays away"
    board(page).get_by_role("button", name="buy Urn").click()
    assert server.wait(page, lambda: sent(server)[1:], "the move") == [{"type": "move", "version": 6, "action": 10}]
    tab.assert_clean()


def test_several_moves_on_a_piece_open_a_menu_with_its_text(open_tab: Callable[..., Tab]) -> None:
    tab, server = opened(open_tab)
    page = tab.page
    server.send(board_frame(5))
    boat = board(page).get_by_role("button", name="Boat: buy Boat / entomb Boat (cannot be taken back)")
    boat.click()
    menu = page.get_by_role("menu", name="Boat")
    expect(menu).to_contain_text("Take a card from the pyramid.")
    expect(menu.get_by_role("menuitem")).to_have_text(["buy Boat", "entomb Boat ⚠", "Cancel"])
    expect(menu.get_by_role("menuitem", name="buy Boat")).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(menu.get_by_role("menuitem", name="entomb Boat (cannot be taken back)")).to_be_focused()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    expect(menu.get_by_role("menuitem", name="Cancel")).to_be_focused()
    page.keyboard.press("Escape")
    expect(menu).to_be_hidden()
    expect(boat).to_be_focused()

    page.keyboard.press("Enter")
    server.send(board_frame(5, extra_field=True))
    expect(menu).to_be_visible()
    expect(menu.get_by_role("menuitem", name="buy Boat")).to_be_focused()
    menu.get_by_role("menuitem", name="buy Boat").click()
    assert server.wait(page, lambda: sent(server), "the move") == [{"type": "move", "version": 5, "action": 11}]
    tab.assert_clean()


def test_a_move_that_cannot_be_taken_back_is_asked_with_the_pieces_text(open_tab: Callable[..., Tab]) -> None:
    tab, server = opened(open_tab)
    page = tab.page
    server.send(board_frame(5))
    board(page).get_by_role("button", name="Boat: buy Boat / entomb Boat (cannot be taken back)").click()
    page.get_by_role("menuitem", name="entomb Boat (cannot be taken back)").click()
    dialog = page.get_by_role("dialog", name="This move cannot be taken back")
    expect(dialog).to_contain_text("Once played, entomb Boat cannot be undone.")
    expect(dialog).to_contain_text("Take a card from the pyramid.")
    dialog.get_by_role("button", name="Cancel").click()
    expect(board(page)).not_to_have_attribute("aria-busy", "true")
    assert sent(server) == []
    board(page).get_by_role("button", name="buy Urn").click()
    assert server.wait(page, lambda: sent(server), "the move") == [{"type": "move", "version": 5, "action": 10}]
    tab.assert_clean()


def test_the_bar_offers_only_what_the_board_does_not(open_tab: Callable[..., Tab]) -> None:
    tab, server = opened(open_tab)
    page = tab.page
    server.send(board_frame(5))
    bar = page.get_by_role("region", name="Status")
    expect(bar.get_by_role("button", name="end turn (cannot be taken back)")).to_be_visible()
    expect(bar.get_by_role("button", name="buy Urn")).to_have_count(0)
    expect(board(page).get_by_role("button")).to_have_count(2)
    tab.assert_clean()


def test_every_pieces_text_comes_on_tap_long_press_right_click_hover_or_focus(open_tab: Callable[..., Tab]) -> None:
    tab, server = opened(open_tab)
    page = tab.page
    server.send(board_frame(5))
    text = board(page).get_by_role("status")
    board(page).get_by_text("Censer").click()
    expect(text).to_contain_text("CenserCost 3Nothing to do with it now.", ignore_case=True)
    assert sent(server) == []
    page.keyboard.press("Escape")
    expect(text).to_be_hidden()

    board(page).get_by_role("button", name="buy Urn").click(button="right")
    expect(text).to_contain_text("Spend it for 2 gold.")
    server.send(board_frame(5, extra_field=True))
    expect(text).to_contain_text("Spend it for 2 gold."), "a frame does not close what is being read"
    text.get_by_role("button", name="Close").click()
    expect(text).to_be_hidden()

    board(page).get_by_text("Censer").hover()
    expect(text).to_contain_text("Nothing to do with it now.")
    page.mouse.move(0, 0)
    expect(text).to_be_hidden()
    board(page).get_by_role("button", name="buy Urn").focus()
    expect(text).to_contain_text("Spend it for 2 gold.")
    assert sent(server) == []
    tab.assert_clean()


def test_a_long_press_on_a_phone_reads_a_piece_instead_of_playing_it(open_tab: Callable[..., Tab]) -> None:
    tab, server = opened(open_tab)
    page = tab.page
    server.send(board_frame(5))
    urn = board(page).get_by_role("button", name="buy Urn")
    box = urn.bounding_box()
    assert box
    at = {"clientX": box["x"] + box["width"] / 2, "clientY": box["y"] + box["height"] / 2, "pointerType": "touch",
          "bubbles": True, "isPrimary": True}
    urn.dispatch_event("pointerdown", at)
    page.wait_for_timeout(700)
    urn.dispatch_event("pointerup", at)
    urn.dispatch_event("click", at)
    expect(board(page).get_by_role("status")).to_contain_text("Spend it for 2 gold.")
    page.wait_for_timeout(200)
    assert sent(server) == []
    urn.click()
    assert server.wait(page, lambda: sent(server), "the move") == [{"type": "move", "version": 5, "action": 10}]
    tab.assert_clean()


BOAT_MOVED = [dict(PIECES[0]), dict(PIECES[1], sig="b"), dict(PIECES[2])]
"""The pieces after the Boat changed."""
BY_SEAT_1 = {"log_from": 5, "log": [{"seq": 5, "actor": 1, "text": "buys the Boat"}]}
"""The log of version 6: seat 1 (the other player, whose name is hostile text) made the move."""


def looked_at(open_tab: Callable[..., Tab], motion: str) -> tuple[Tab, ScriptedServer, Locator]:
    """The seat's page with the board of version 5 on screen (the look that later changes are counted from)."""
    tab, server = opened(open_tab, motion=motion)
    server.send(board_frame(5))
    pieces = board(tab.page)
    expect(pieces.get_by_text("Urn")).to_be_visible()
    return tab, server, pieces


def test_what_changed_glows_and_previews_follow_the_pointer(open_tab: Callable[..., Tab]) -> None:
    tab, server, pieces = looked_at(open_tab, "no-preference")
    page = tab.page
    assert not any(glowing(pieces.get_by_text(name, exact=True)) for name in ("Urn", "Boat", "Censer"))
    changed = BOAT_MOVED
    server.send(board_frame(6, pieces=changed))
    expect(pieces.get_by_role("button", name="buy Urn")).to_be_enabled()
    page.wait_for_function("() => [...document.querySelectorAll('[data-spot]')].some((n) => getComputedStyle(n).animationName === 'kit-glow')")
    assert [glowing(pieces.get_by_text(name, exact=True)) for name in ("Urn", "Boat", "Censer")] == [False, True, False]
    server.send(board_frame(6, pieces=changed, extra_field=True))
    assert glowing(pieces.get_by_text("Boat", exact=True)), "drawing the same frame again keeps the glow"

    pieces.get_by_role("button", name="buy Urn").hover()
    expect(pieces.get_by_text("Boat", exact=True)).to_have_css("outline-style", "solid")
    expect(pieces.get_by_text("Boat", exact=True)).to_have_css("outline-color", PREVIEWED)
    expect(pieces.get_by_text("Censer")).to_have_css("outline-style", "none")
    page.mouse.move(0, 0)
    expect(pieces.get_by_text("Boat", exact=True)).to_have_css("outline-style", "none")
    tab.assert_clean()


def test_a_piece_another_player_changed_says_who_did_it(open_tab: Callable[..., Tab]) -> None:
    tab, server, pieces = looked_at(open_tab, "no-preference")
    page = tab.page
    server.send(board_frame(6, pieces=BOAT_MOVED, **BY_SEAT_1))
    label = pieces.get_by_text(HOSTILE, exact=True)
    expect(label).to_be_visible()
    expect(pieces.get_by_text("Boat", exact=True)).to_have_accessible_description(f"Changed by {HOSTILE}")
    expect(pieces.get_by_role("button", name="buy Urn")).not_to_have_accessible_description(re.compile("Changed by"))

    urn_bought = [dict(PIECES[0], sig="b"), dict(PIECES[1], sig="b"), dict(PIECES[2])]
    server.send(board_frame(7, pieces=urn_bought, log_from=6, log=[{"seq": 6, "actor": 0, "text": "buys the Urn"}]))
    page.wait_for_function("() => [...document.querySelectorAll('[data-spot]')]"
                           ".some((n) => n.textContent === 'Urn' && getComputedStyle(n).animationName === 'kit-glow')")
    assert glowing(pieces.get_by_text("Urn", exact=True)), "the seat's own change glows"
    assert pieces.get_by_text("Urn", exact=True).get_attribute("aria-description") is None, "but names nobody"
    expect(label).to_have_count(1)
    expect(label).to_be_hidden(timeout=6000)
    expect(pieces.get_by_text("Boat", exact=True)).not_to_have_accessible_description(f"Changed by {HOSTILE}")

    # Both players moved since the last look: the kit cannot tell whose move changed the Censer, and says so.
    censer_changed = [dict(PIECES[0], sig="b"), dict(PIECES[1], sig="b"), dict(PIECES[2], sig="b")]
    server.send(board_frame(9, pieces=censer_changed, log_from=7, log=[
        {"seq": 7, "actor": 1, "text": "passes"}, {"seq": 8, "actor": 0, "text": "passes"}]))
    expect(pieces.get_by_text("Censer", exact=True)).to_have_accessible_description(f"Changed by {HOSTILE}, you")
    assert_not_injected(page)
    tab.assert_clean()


def test_with_less_motion_a_change_is_marked_still_and_the_mark_goes_in_time(open_tab: Callable[..., Tab]) -> None:
    tab, server, pieces = looked_at(open_tab, "reduce")
    boat = pieces.get_by_text("Boat", exact=True)
    expect(boat).to_have_css("filter", "none")
    server.send(board_frame(6, pieces=BOAT_MOVED, **BY_SEAT_1))
    expect(boat).to_have_css("filter", re.compile("drop-shadow"))
    assert boat.evaluate("(n) => getComputedStyle(n).animationName") == "none", "nothing moves"
    expect(pieces.get_by_text(HOSTILE, exact=True)).to_be_visible()
    expect(boat).to_have_css("filter", "none", timeout=6000)
    expect(pieces.get_by_text(HOSTILE, exact=True)).to_be_hidden()
    expect(boat).not_to_have_accessible_description(re.compile("Changed by"))
    tab.assert_clean()
