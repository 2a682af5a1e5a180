"""The table page's weight and speed: a 5-player game at its middle, loaded cold in Debian's Chromium.

The position is the one ``tools/screenshots.py`` pictures (greedy bots play a whole game from a fixed
seed in this process, and the first half of their decisions is made at a real server whose tables get
that seed), here King Solomon's Treasury with 5 players. Each load opens the page as the seat to act in a
fresh browser profile (nothing cached) and counts, through the DevTools protocol, the bytes every HTTP
request took on the wire (headers included) and the websocket's bytes until the first frame, and reads
the browser's own clock: Navigation Timing (DOMContentLoaded, load) and the marks table.js sets when the
first frame is on screen (``obelisk-first-frame``) and when the board has first drawn one
(``obelisk-board-drawn``), all from the navigation's start. A load is over once the board is drawn and the
network is idle, so the board's files, catalog and help are counted.

    .venv/bin/python benchmarks/page_load.py                 # 5 loads in each language
    .venv/bin/python benchmarks/page_load.py --loads 10 --lang cs
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from screenshots import CHROMIUM, SEED, Server, Shot, planned_moves, seat_table  # noqa: E402

from obelisk.core.i18n import LANGUAGES  # noqa: E402

SHOT = Shot("solomon", 5, {})
FIRST_FRAME = "obelisk-first-frame"
BOARD_DRAWN = "obelisk-board-drawn"


@dataclass
class Load:
    """What one cold load of the page took."""

    http_bytes: int = 0
    requests: int = 0
    socket_bytes: int = 0
    by_url: dict[str, int] = field(default_factory=dict)
    first_frame_ms: float = 0.0
    board_drawn_ms: float = 0.0
    dom_ready_ms: float = 0.0
    load_ms: float = 0.0

    @property
    def total_bytes(self) -> int:
        return self.http_bytes + self.socket_bytes

    @property
    def board_bytes(self) -> int:
        """What the game's own board took: its files (``/games/<id>/``) and the game's catalog."""
        return sum(size for path, size in self.by_url.items() if board_path(path))

    @property
    def page_bytes(self) -> int:
        """The page's own weight: everything but the board's, the first websocket frame included."""
        return self.total_bytes - self.board_bytes


def board_path(path: str) -> bool:
    return path.startswith("/games/") or (path.startswith("/api/messages/") and not path.endswith("/obelisk"))


def wire_size(payload: bytes, window_bits: int | None) -> int:
    """A websocket message's size on the wire: DevTools shows the payload as sent, so where the handshake agreed
    on permessage-deflate (RFC 7692, as uvicorn's websockets do) it is compressed here as the server compresses
    it — exact for a first message, an upper bound for later ones (the server also reuses earlier messages)."""
    if window_bits is None:
        return len(payload)
    compressor = zlib.compressobj(6, zlib.DEFLATED, -window_bits)
    return len((compressor.compress(payload) + compressor.flush(zlib.Z_SYNC_FLUSH))[:-4])


def load_once(browser: Any, url: str, table: str, token: str, lang: str) -> Load:
    """Opens the table page in a fresh profile holding ``token``'s seat, reading ``lang``."""
    context = browser.new_context(locale=lang)
    entry = json.dumps({"token": token, "claimed": True})
    context.add_init_script(f"localStorage.setItem('obelisk.lang', {json.dumps(lang)});"
                            f"localStorage.setItem({json.dumps('obelisk.seat.' + table)}, {json.dumps(entry)});")
    page = context.new_page()
    result = Load()
    urls: dict[str, str] = {}
    try:
        devtools = context.new_cdp_session(page)
        devtools.send("Network.enable")
        devtools.on("Network.requestWillBeSent", lambda e: urls.__setitem__(e["requestId"], e["request"]["url"]))

        def finished(event: dict[str, Any]) -> None:
            size = int(event["encodedDataLength"])
            result.http_bytes += size
            result.requests += 1
            path = urls.get(event["requestId"], "?").removeprefix(url)
            result.by_url[path] = result.by_url.get(path, 0) + size

        deflate: dict[str, int] = {}

        def handshake(event: dict[str, Any]) -> None:
            extensions = {k.lower(): v for k, v in event["response"]["headers"].items()}.get("sec-websocket-extensions", "")
            if "permessage-deflate" in extensions:
                bits = re.search(r"server_max_window_bits=(\d+)", extensions)
                deflate["bits"] = int(bits[1]) if bits else 15

        def frame_bytes(event: dict[str, Any]) -> None:
            result.socket_bytes += wire_size(event["response"]["payloadData"].encode(), deflate.get("bits"))

        devtools.on("Network.webSocketHandshakeResponseReceived", handshake)
        devtools.on("Network.loadingFinished", finished)
        devtools.on("Network.webSocketFrameReceived", frame_bytes)
        devtools.on("Network.webSocketFrameSent", frame_bytes)
        page.goto(f"{url}/table/{table}")
        page.wait_for_function("(marks) => marks.every((mark) => performance.getEntriesByName(mark).length > 0)",
                               arg=[FIRST_FRAME, BOARD_DRAWN], polling=10, timeout=30_000)
        page.wait_for_load_state("networkidle")
        timing = page.evaluate("""([first, board]) => {
          const nav = performance.getEntriesByType("navigation")[0];
          return {first: performance.getEntriesByName(first)[0].startTime, ready: nav.domContentLoadedEventEnd,
                  board: performance.getEntriesByName(board)[0].startTime, load: nav.loadEventEnd};
        }""", [FIRST_FRAME, BOARD_DRAWN])
        result.first_frame_ms, result.dom_ready_ms, result.load_ms = timing["first"], timing["ready"], timing["load"]
        result.board_drawn_ms = timing["board"]
        return result
    finally:
        context.close()


def middle_table(server: Server, seed: int) -> tuple[str, str, int]:
    """The 5-player table at its middle: its id, the token of the seat to act, and its version."""
    table, tokens, final = seat_table(server, SHOT, planned_moves(SHOT, seed))
    return table, tokens[str(final["table"]["to_act"])], final["version"]


def measure(loads: int, languages: list[str], seed: int = SEED) -> dict[str, list[Load]]:
    """``loads`` cold loads of the middle table's page in each of ``languages``."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as scratch, sync_playwright() as playwright:
        server = Server(Path(scratch), seed)
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM),
                                             args=["--headless", "--no-sandbox", "--disable-gpu"])
        try:
            table, token, _ = middle_table(server, seed)
            return {lang: [load_once(browser, server.url, table, token, lang) for _ in range(loads)]
                    for lang in languages}
        finally:
            browser.close()
            server.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=5, help="cold loads per language (default 5)")
    parser.add_argument("--lang", choices=LANGUAGES, action="append", help="a language (default: all)")
    args = parser.parse_args(argv)
    if args.loads < 1:
        parser.error("--loads must be at least 1")
    if not CHROMIUM.exists():
        parser.error(f"the benchmark needs Debian's Chromium at {CHROMIUM} (apt-get install chromium)")
    results = measure(args.loads, args.lang or list(LANGUAGES))
    print(f"{SHOT.game}, {SHOT.players} players, at its middle; {args.loads} cold loads per language")
    for lang, loads in results.items():
        first = loads[0]
        print(f"\n[{lang}] {first.requests} HTTP requests, {first.http_bytes:,} bytes; websocket "
              f"{first.socket_bytes:,} bytes; total {first.total_bytes:,} bytes (the page {first.page_bytes:,}, "
              f"its board {first.board_bytes:,})")
        for path, size in sorted(first.by_url.items(), key=lambda item: -item[1]):
            print(f"    {size:>9,}  {path}")
        for name, values in (("first frame drawn", [x.first_frame_ms for x in loads]),
                             ("board drawn", [x.board_drawn_ms for x in loads]),
                             ("DOMContentLoaded", [x.dom_ready_ms for x in loads]),
                             ("load event", [x.load_ms for x in loads])):
            print(f"  {name:<18} median {statistics.median(values):6.1f} ms  "
                  f"(min {min(values):.1f}, max {max(values):.1f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
