"""The table page's weight stays within its budget (bytes, not timings: sizes do not depend on the machine).

The page is the one ``benchmarks/page_load.py`` measures: a 5-player King Solomon's Treasury at its middle,
opened cold as the seat to act, until its board is drawn. The budget holds everything that load takes: the
page's HTML, scripts, style and catalog, the first websocket frame, and the game's board (its files, its catalog
and its help), with a little room for growth (docs/web.md "Page weight").
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from page_load import SEED, load_once, middle_table  # noqa: E402
from screenshots import Server  # noqa: E402

BUDGET = 80_000
"""Bytes on the wire for a whole mid-game 5-player table, board included: measured at 61,300 (English) and
70,680 (Czech) with the chat, the first frame counted compressed as the socket sends it (docs/web.md "Page weight")."""


@pytest.fixture
def middle(browser: Browser, tmp_path: Path) -> Iterator[tuple[Server, str, str]]:
    server = Server(tmp_path, SEED)
    try:
        table, token, _ = middle_table(server, SEED)
        yield server, table, token
    finally:
        server.stop()


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_the_table_page_stays_within_its_budget(browser: Browser, middle: tuple[Server, str, str], lang: str) -> None:
    server, table, token = middle
    load = load_once(browser, server.url, table, token, lang)
    assert load.socket_bytes > 1000 and "/static/table.js" in load.by_url and "/static/boardkit.js" in load.by_url
    assert "/games/solomon/board.js" in load.by_url, "the board was drawn before the load was measured"
    assert ("/api/messages/cs/obelisk" in load.by_url) == (lang == "cs")
    assert load.total_bytes < BUDGET, f"the page took {load.total_bytes:,} bytes: {load.by_url}"
