"""Clicks per decision on the table page: whole games of Valley of the Kings played through the page.

A seat of a real server (the app of ``obelisk serve`` on a free loopback port, a fresh SQLite file) plays
against a greedy bot. The person picks among the legal moves at random (seeded; ending the turn less often) and
makes the move the way a person does on the page: a tap on the piece it concerns (and the entry of the menu the
piece opens when it has several moves), else the bar's button; the bar's shortcut when one covers the move (a
payment in one go); and the confirmation a move that cannot be taken back asks for. A decision the page plays
by itself (the only choice) costs no click; a shortcut's clicks are shared by the decisions it makes. Printed:
the median and mean over every decision of the seat, and how the decisions were made.

    .venv/bin/python benchmarks/page_clicks.py               # 2 games
    .venv/bin/python benchmarks/page_clicks.py --games 5 --width 390
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT))

from screenshots import CHROMIUM, Server  # noqa: E402

from tests.web.person import board, busy, status, status_line  # noqa: E402

SEED = 20261202
END_TURN = 0.35
"""How often the person ends the turn when they may (else any other move, each as likely)."""


@dataclass
class Game:
    """What one game through the page took: each click sequence's clicks and decisions, the seat's decisions."""

    sequences: list[tuple[int, int, str]] = field(default_factory=list)
    decisions: int = 0

    def per_decision(self) -> list[float]:
        """The clicks each decision took: a sequence's clicks shared by its decisions, 0 for one played by the page."""
        spent = [clicks / made for clicks, made, _ in self.sequences for _ in range(made)]
        return spent + [0.0] * (self.decisions - len(spent))


def confirm(page: Any) -> int:
    """Confirms a move that cannot be taken back if the page asks (the player's setting is on); the clicks."""
    dialog = page.get_by_role("dialog", name="This move cannot be taken back")
    try:
        dialog.wait_for(state="visible", timeout=300)
    except Exception:  # noqa: BLE001 - no question asked: the move could be taken back
        return 0
    dialog.get_by_role("button").first.click()
    return 1


def make(page: Any, frame: dict[str, Any], entry: list[Any]) -> tuple[int, int, str]:
    """Makes the legal move ``entry`` as a person does; the clicks, the decisions it made and by which way."""
    action, label = entry[0], entry[1]
    for shortcut in frame.get("shortcuts") or []:
        if shortcut["actions"] and shortcut["actions"][0] == action:
            status(page).get_by_role("button", name=shortcut["text"]).first.click()
            return 1 + confirm(page), len(shortcut["actions"]), "a shortcut"
    for piece in board(page).get_by_role("button").all():
        name = piece.get_attribute("aria-label") or ""
        if name == label or name.startswith(f"{label} ("):
            piece.click()
            return 1 + confirm(page), 1, "a piece"
        if label in [part.split(" (cannot")[0] for part in name.split(": ", 1)[-1].split(" / ")]:
            piece.click()
            page.get_by_role("menu").get_by_role("menuitem", name=label).first.click()
            return 2 + confirm(page), 1, "a piece and its menu"
    status(page).get_by_role("button", name=label).first.click()
    return 1 + confirm(page), 1, "the bar"


def my_turn(page: Any, deadline: float) -> bool:
    """Waits until the seat may move (True) or the game is over (False)."""
    while time.monotonic() < deadline:
        line = status_line(page).inner_text()
        if line == "Game over":
            return False
        if line.startswith("Your turn") and not busy(page):
            return True
        page.wait_for_timeout(30)
    raise SystemExit("the game took too long")


def play_game(browser: Any, server: Server, width: int, rng: random.Random) -> Game:
    """One game of the page's seat against greedy, through the page."""
    created = server.call("POST", "/api/tables", {"game": "valley", "players": 2, "seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}]})
    table, invite = created["table"]["id"], created["tokens"]["0"]
    token = server.call("POST", f"/api/tables/{table}/claim", {"token": invite})["token"]  # the invite opens it once
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(f"{server.url}/table/{table}#token={token}")
    game = Game()
    deadline = time.monotonic() + 900
    try:
        while my_turn(page, deadline):
            frame = server.call("GET", f"/api/tables/{table}/frame", token=token)
            legal = frame["legal"]
            if not legal or len(legal) == 1 and len(legal[0]) > 4 and not legal[0][4]:
                page.wait_for_timeout(30)
                continue
            ends = [entry for entry in legal if entry[2] == "end_turn"]
            others = [entry for entry in legal if entry[2] != "end_turn"] or ends
            entry = rng.choice(ends if ends and rng.random() < END_TURN else others)
            game.sequences.append(make(page, frame, entry))
            while str(frame["version"]) == page.get_by_role("main").get_attribute("data-version") or busy(page):
                page.wait_for_timeout(30)
        final = server.call("GET", f"/api/tables/{table}/frame", token=token)
        game.decisions = sum(entry["actor"] == 0 for entry in final["log"])
    finally:
        context.close()
    return game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games to play (default 2)")
    parser.add_argument("--width", type=int, default=1280, help="the window's width in CSS pixels (default 1280)")
    parser.add_argument("--seed", type=int, default=SEED, help=f"the person's choices and the tables' seed (default {SEED})")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if not CHROMIUM.exists():
        parser.error(f"the benchmark needs Debian's Chromium at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    games = []
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as scratch, sync_playwright() as playwright:
        server = Server(Path(scratch), args.seed)
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox", "--disable-gpu"])
        try:
            games = [play_game(browser, server, args.width, rng) for _ in range(args.games)]
        finally:
            browser.close()
            server.stop()
    spent = [clicks for game in games for clicks in game.per_decision()]
    ways: Counter[str] = Counter()
    for game in games:
        for _, made, way in game.sequences:
            ways[way] += made
        ways["the page (the only choice)"] += game.decisions - sum(made for _, made, _ in game.sequences)
    print(f"valley, 2 players against greedy, {args.games} games, {args.width} px wide: {len(spent)} decisions")
    print(f"clicks per decision: median {statistics.median(spent):.2f}, mean {statistics.mean(spent):.2f}, "
          f"most {max(spent):.0f}")
    for way, count in ways.most_common():
        print(f"  {count:>5} decisions by {way}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
