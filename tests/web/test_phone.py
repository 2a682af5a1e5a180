"""Every game's table at its middle on a phone's screen (390 px wide), in both languages: no text smaller than
11 CSS pixels, no name or line wider than its box, nothing scrolling sideways, the board as wide as the screen.

The positions are the ones ``tools/screenshots.py`` pictures: greedy bots play a whole game from a fixed seed,
half of its decisions are made at a real server whose tables get that seed, and the page opens as the seat to
act. A game's middle holds more than its start: full markets, tombs of several sets, long logs.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.web.person import board, overflowing, smallest_text

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from screenshots import SEED, Server, Shot, planned_moves, seat_table  # noqa: E402

SHOTS = [Shot("valley", 2, {}), Shot("solomon", 5, {}), Shot("tomb", 3, {}), Shot("cleopatra", 3, {})]


@pytest.fixture(scope="module")
def middles(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, tuple[str, str]]]]:
    """One server with every game's table at its middle: the table and the token of the seat to act, by game."""
    server = Server(tmp_path_factory.mktemp("phone"), SEED)
    try:
        tables = {}
        for shot in SHOTS:
            table, tokens, final = seat_table(server, shot, planned_moves(shot, SEED))
            tables[shot.game] = (table, tokens[str(final["table"]["to_act"])])
        yield server, tables
    finally:
        server.stop()


@pytest.mark.parametrize("lang", ["en", "cs"])
@pytest.mark.parametrize("game", [shot.game for shot in SHOTS])
def test_a_phone_shows_a_games_middle_readable_and_within_the_screen(
        browser: Browser, middles: tuple[Server, dict[str, tuple[str, str]]], game: str, lang: str) -> None:
    server, tables = middles
    table, token = tables[game]
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale=lang, reduced_motion="reduce")
    entry = json.dumps({"token": token, "claimed": True})
    context.add_init_script(f"localStorage.setItem('obelisk.lang', {json.dumps(lang)});"
                            f"localStorage.setItem({json.dumps('obelisk.seat.' + table)}, {json.dumps(entry)});")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"{server.url}/table/{table}")
        plan = board(page, lang)
        expect(plan.get_by_role("button").first).to_be_visible()
        box = plan.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["width"] > 350
        # A board lays itself out again, and scales its texts, once a resize observer has told it its width.
        wide, smallest = overflowing(page), smallest_text(page)
        for _ in range(30):
            if not wide and smallest >= 11:
                break
            page.wait_for_timeout(100)
            wide, smallest = overflowing(page), smallest_text(page)
        assert wide == []
        assert smallest >= 11
        assert errors == []
    finally:
        context.close()
