"""Screenshots of the table page for every game in every language: docs/images/<game>-<lang>[-phone].png.

Each game is played to its middle by greedy bots in this process, from a fixed seed; then the same moves are
made at a real server (``obelisk serve``'s app on a free loopback port, a fresh SQLite file, its tables'
secret seed replaced by that fixed one so the chance outcomes are the same), seat by seat through the HTTP
API, and Debian's Chromium opens the table page as the seat to act, in each language. What the page shows
is therefore a real position of a real game, whatever the page draws (the text view, or a game's board
once it has one), and running the script again makes the same pictures.

    .venv/bin/python tools/screenshots.py                  # every game, both languages, desktop and phone
    .venv/bin/python tools/screenshots.py --games valley   # only some games
"""

from __future__ import annotations

import argparse
import io
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import obelisk  # noqa: E402
from obelisk.bots import make_bot  # noqa: E402
from obelisk.core import CHANCE  # noqa: E402
from obelisk.core.i18n import LANGUAGES  # noqa: E402

IMAGES = ROOT / "docs" / "images"
CHROMIUM = Path("/usr/bin/chromium")
SEED = 20261202
NAMES = ["Ann", "Bea", "Cleo", "Dan", "Eve", "Fay"]


@dataclass(frozen=True)
class Shot:
    """One game to picture: its players and options."""

    game: str
    players: int
    options: dict[str, Any]


SHOTS = [
    Shot("solomon", 3, {}),
    Shot("tomb", 3, {}),
    Shot("cleopatra", 3, {}),
    Shot("valley", 2, {}),
]
COLOURS = 256
VIEWPORTS = {"": (1280, 900), "-phone": (390, 844)}
"""File name suffix: (width, height) of the window; the picture is the whole page at that width."""

_SERVE = """
import sys
import uvicorn
import obelisk.server.storage as storage
from obelisk.core.seeds import SecretSeed
from obelisk.server.app import ServerConfig, create_app

class FixedSeed:
    @staticmethod
    def new():
        return SecretSeed(int(sys.argv[3]), "screenshots")

storage.SecretSeed = FixedSeed
config = ServerConfig(db_url=sys.argv[2], bot_workers=0, bot_delay=0.0, rate=1000.0, burst=1000.0)
uvicorn.run(create_app(config), host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
"""


class Server:
    """The server in a subprocess on a free loopback port, tables seeded with ``seed``."""

    def __init__(self, folder: Path, seed: int) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = int(probe.getsockname()[1])
        self.url = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
        self.log = (folder / "server.log").open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-c", _SERVE, str(self.port), f"sqlite:///{folder / 'tables.db'}", str(seed)],
            cwd=ROOT, env=env, stdout=self.log, stderr=self.log)
        deadline = time.monotonic() + 30
        while True:
            if self.process.poll() is not None:
                raise SystemExit(f"the server exited: {(folder / 'server.log').read_text()[-2000:]}")
            try:
                self.call("GET", "/api/games")
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit("the server did not answer within 30 s") from None
                time.sleep(0.1)

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return json.loads(answer.read())
        except urllib.error.HTTPError as error:
            raise SystemExit(f"{method} {path}: {error.code} {error.read().decode()}") from None

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


def planned_moves(shot: Shot, seed: int) -> list[tuple[int, int]]:
    """The (seat, action) decisions of greedy bots from the start to the middle of the game ``seed`` deals:
    the game is played to its end first, and its middle is half of all the seats' decisions."""
    game = obelisk.load(shot.game, shot.players, **shot.options)
    state = game.new_initial_state(seed)
    bots = [make_bot("greedy", game, seat, seed + seat) for seat in range(shot.players)]
    decisions: list[tuple[int, int]] = []
    while not state.is_terminal():
        seat = state.current_player()
        action = state.sample_chance() if seat == CHANCE else bots[seat].choose(state)
        if seat != CHANCE:
            decisions.append((seat, action))
        state.apply_action(action)
    return decisions[: len(decisions) // 2]


def seat_table(server: Server, shot: Shot, moves: list[tuple[int, int]]) -> tuple[str, dict[str, str], dict[str, Any]]:
    """A table of ``shot`` at the server with every seat a person, after ``moves``; its id, tokens, last frame."""
    seats = [{"kind": "human", "name": NAMES[seat]} for seat in range(shot.players)]
    created = server.call("POST", "/api/tables", {"game": shot.game, "players": shot.players, "seats": seats,
                                                  "options": shot.options})
    table = created["table"]["id"]
    tokens = {seat: server.call("POST", f"/api/tables/{table}/claim",
                                {"token": invite, "name": NAMES[int(seat)]})["token"]
              for seat, invite in created["tokens"].items()}
    for seat, action in moves:
        current = server.call("GET", f"/api/tables/{table}/frame", token=tokens[str(seat)])
        if action not in [legal[0] for legal in current["legal"]]:
            raise SystemExit(f"{shot.game}: the server's game went another way than the planned one")
        server.call("POST", f"/api/tables/{table}/moves", {"version": current["version"], "action": action},
                    token=tokens[str(seat)])
    final = server.call("GET", f"/api/tables/{table}/frame")
    return table, tokens, final


def shrink(png: bytes, path: Path) -> None:
    """Writes ``png`` with a palette of ``COLOURS`` (flat page colours and text need no more): a third of the size."""
    from PIL import Image

    with Image.open(io.BytesIO(png)) as picture:
        reduced = picture.convert("RGB").quantize(colors=COLOURS, method=Image.Quantize.FASTOCTREE,
                                                  dither=Image.Dither.NONE)
        reduced.save(path, optimize=True)


READY = """(version) => {
  if (document.querySelector("main").dataset.version !== version) return false;
  if (document.querySelector("main").getAttribute("aria-busy") === "true") return false;
  const box = document.getElementById("board-box");
  return box.hidden || performance.getEntriesByName("obelisk-board-drawn").length > 0;
}"""
"""The page shows the frame of ``version`` and its board has drawn (or the game has none)."""


def shoot(browser: Any, server: Server, shot: Shot, table: str, token: str, version: int, lang: str,
          suffix: str) -> Path:
    width, height = VIEWPORTS[suffix]
    context = browser.new_context(viewport={"width": width, "height": height}, locale=lang, reduced_motion="reduce")
    entry = json.dumps({"token": token, "claimed": True})
    context.add_init_script(f"localStorage.setItem('obelisk.lang', {json.dumps(lang)});"
                            f"localStorage.setItem({json.dumps('obelisk.seat.' + table)}, {json.dumps(entry)});")
    page = context.new_page()
    try:
        page.goto(f"{server.url}/table/{table}")
        page.wait_for_function(READY, arg=str(version), polling=50, timeout=30_000)
        page.evaluate("document.fonts.ready")
        page.evaluate("document.activeElement && document.activeElement.blur()")
        path = IMAGES / f"{shot.game}-{lang}{suffix}.png"
        shrink(page.screenshot(full_page=True, animations="disabled", caret="hide"), path)
        return path
    finally:
        context.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(s.game for s in SHOTS), help="comma-separated game ids")
    parser.add_argument("--seed", type=int, default=SEED, help=f"the games' seed (default {SEED})")
    args = parser.parse_args(argv)
    wanted = [s for s in SHOTS if s.game in args.games.split(",")]
    unknown = set(args.games.split(",")) - {s.game for s in SHOTS}
    if unknown:
        parser.error(f"unknown game(s): {', '.join(sorted(unknown))}")
    if not CHROMIUM.exists():
        parser.error(f"the screenshots need Debian's Chromium at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    IMAGES.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        server = Server(Path(folder), args.seed)
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox",
                                             "--disable-gpu", "--hide-scrollbars", "--font-render-hinting=none"])
        try:
            for shot in wanted:
                moves = planned_moves(shot, args.seed)
                table, tokens, final = seat_table(server, shot, moves)
                to_act = final["table"]["to_act"]
                for lang in LANGUAGES:
                    for suffix in VIEWPORTS:
                        path = shoot(browser, server, shot, table, tokens[str(to_act)], final["version"], lang, suffix)
                        print(f"{path.relative_to(ROOT)}: {shot.game} after {final['version']} moves, seat {to_act}")
        finally:
            browser.close()
            server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
