"""The replay page of a finished table: steps by move and by turn, the slider, the seat's view, the keyboard;
against a scripted server (see test_client.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlparse

from playwright.sync_api import BrowserContext, Page, Route, expect

from tests.web.conftest import STATIC, Tab
from tests.web.test_client import CSP, HOSTILE, ORIGIN, ScriptedServer, assert_not_injected, summary

STEPS = 12
TURNS = [2, 5, 9]


class ReplayServer(ScriptedServer):
    """Serves the replay page and answers every replay request from :func:`replay`."""

    def __init__(self, context: BrowserContext) -> None:
        super().__init__(context)
        context.route(f"{ORIGIN}/table/*/replay*", self._page)

    def _page(self, route: Route) -> None:
        route.fulfill(status=200, body=(STATIC / "replay.html").read_bytes(),
                      headers={"content-type": "text/html", "content-security-policy": CSP})

    def _http(self, route: Route) -> None:
        url = urlparse(route.request.url)
        if url.path == "/api/tables/T1/replay":
            query = dict(part.split("=", 1) for part in url.query.split("&") if part)
            self.requests.append({"method": "GET", "path": f"{url.path}?{url.query}", "query": query})
            step = int(query.get("step", STEPS))
            seat = None if query.get("seat", "spectator") == "spectator" else int(query["seat"])
            route.fulfill(status=200, json=replay(step, seat))
            return
        super()._http(route)


def replay(step: int, seat: int | None) -> dict[str, Any]:
    return {"table": summary("finished", version=30), "seat": seat, "version": step, "step": step, "steps": STEPS,
            "turns": TURNS, "to_act": None if step == STEPS else step % 2, "view": {}, "legal": [], "undo": 0,
            "text": f"view of {seat} at {step} {HOSTILE}",
            "log": [{"seq": i, "actor": i % 2, "text": f"move {i}"} for i in range(step)], "log_from": 0,
            "status": "finished", "result": None, "reveal": None}


def asked(server: ReplayServer) -> list[dict[str, Any]]:
    return [r["query"] for r in server.requests if "query" in r]


def at(page: Page, step: int, seat: str = "spectator") -> None:
    expect(page.locator("#step-title")).to_have_text(f"Move {step} of {STEPS}")
    expect(page.locator("#view")).to_have_text(f"view of {None if seat == 'spectator' else seat} at {step} {HOSTILE}")
    expect(page.locator("#log li")).to_have_count(step)
    expect(page.locator("#slider")).to_have_value(str(step))


def test_the_replay_steps_by_move_and_turn_and_shows_any_seats_view(open_tab: Callable[[], Tab]) -> None:
    tab = open_tab()
    server = ReplayServer(tab.context)
    page = tab.page
    page.goto(ORIGIN + "/table/T1/replay")
    at(page, STEPS)
    assert asked(server)[0] == {"seat": "spectator"}
    expect(page.locator("#next")).to_be_disabled()
    expect(page.locator("#to-act")).to_have_text("The game is over.")
    page.locator("#prev").click()
    at(page, STEPS - 1)
    page.locator("#prev-turn").click()
    at(page, 9)
    page.locator("#prev-turn").click()
    at(page, 5)
    page.locator("#next-turn").click()
    at(page, 9)
    page.locator("#first").click()
    at(page, 0)
    expect(page.locator("#prev")).to_be_disabled()
    page.locator("#next").click()
    at(page, 1)

    page.locator("#seat").select_option("1")
    at(page, 1, "1")
    assert asked(server)[-1] == {"seat": "1", "step": "1"}
    assert page.url.endswith("/table/T1/replay?seat=1&step=1")

    page.locator("#step-title").focus()
    page.keyboard.press("End")
    at(page, STEPS, "1")
    page.keyboard.press("ArrowLeft")
    at(page, STEPS - 1, "1")
    page.keyboard.press("PageUp")
    at(page, 9, "1")
    page.keyboard.press("Home")
    at(page, 0, "1")

    page.locator("#slider").fill("7")
    at(page, 7, "1")
    page.evaluate("""() => {
      const slider = document.getElementById("slider");
      for (const value of [1, 2, 3, 4, 5, 6, 8, 10, 3]) {
        slider.value = String(value);
        slider.dispatchEvent(new Event("input"));
      }
    }""")
    at(page, 3, "1")
    expect(page.locator("#back")).to_have_attribute("href", "/table/T1")
    assert_not_injected(page)
    tab.assert_clean()


def test_a_linked_position_opens_there_and_an_unfinished_table_says_so(open_tab: Callable[[], Tab]) -> None:
    tab = open_tab()
    ReplayServer(tab.context)
    page = tab.page
    page.goto(ORIGIN + "/table/T1/replay?seat=0&step=4")
    at(page, 4, "0")
    expect(page.locator("#seat")).to_have_value("0")

    other = open_tab()
    refused = ReplayServer(other.context)
    refused.answers[("GET", "/api/tables/T2/replay?seat=spectator")] = (409, {"error": {
        "code": "not_finished", "message": "a table is replayed once its game is finished"}})
    other.page.goto(ORIGIN + "/table/T2/replay")
    expect(other.page.locator("#replay-error")).to_have_text(
        "The game is not finished yet: its replay opens at the end.")
    tab.assert_clean()
    other.assert_clean()
