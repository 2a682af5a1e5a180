"""Clicks per decision on the table page: whole games of one game (Valley by default) played through the page.

A seat of a real server (the app of ``obelisk serve`` on a free loopback port, a fresh SQLite file) plays
against greedy bots (one, two for Cleopatra, which needs three players). The person picks among the legal
moves at random (seeded; ending the turn less often) and makes the move the way a person does on the page: a
tap on the piece it concerns (and the entry of the menu the piece opens when it has several moves), else the
bar's button; the bar's shortcut when one covers the move (a payment in one go); the confirmation a move that
cannot be taken back asks for; and on Solomon's cave a tap on the excavation card turned the way of a dig
first, when the cave shows another way. A decision the page plays by itself (the only choice) costs no click;
a shortcut's clicks are shared by the decisions it makes. Printed: the median and mean over every decision of
the seat, and how the decisions were made.

    .venv/bin/python benchmarks/page_clicks.py               # 2 games of Valley
    .venv/bin/python benchmarks/page_clicks.py --game solomon --games 1
    .venv/bin/python benchmarks/page_clicks.py --games 5 --width 390
"""

from __future__ import annotations

import argparse
import random
import re
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

from tests.web.person import NAMES, board, busy, status, status_line  # noqa: E402

SEED = 20261202
END_TURN = 0.35
"""How often the person ends the turn when they may (else any other move, each as likely)."""
GAMES: dict[str, tuple[int, frozenset[str]]] = {
    "valley": (2, frozenset({"end_turn"})),
    "solomon": (2, frozenset({"end"})),
    "tomb": (2, frozenset({"end"})),
    "cleopatra": (3, frozenset({"end_turn", "finish"})),
}
"""Per game: the players at the table (the page's seat and greedy bots) and the ranges that end a turn."""
FINAL = " (cannot be taken back)"
TURN_CARD = "turn the card this way"
"""Solomon's excavation card turned one way: a switch of the cave that shows the digs of that way."""


@dataclass
class Game:
    """What one game through the page took: each click sequence's clicks and decisions, the seat's decisions."""

    sequences: list[tuple[int, int, str]] = field(default_factory=list)
    decisions: int = 0

    def per_decision(self) -> list[float]:
        """The clicks each decision took: a sequence's clicks shared by its decisions, 0 for one played by the page."""
        spent = [clicks / made for clicks, made, _ in self.sequences for _ in range(made)]
        return spent + [0.0] * (self.decisions - len(spent))


def confirm(page: Any, final: bool) -> int:
    """Confirms a move that cannot be taken back (``final``, as the page marks it) when the page asks (the
    player's setting is on); the clicks."""
    if not final:
        return 0
    dialog = page.get_by_role("dialog", name="This move cannot be taken back")
    try:
        dialog.wait_for(state="visible", timeout=5000)
    except Exception:  # noqa: BLE001 - no question asked: the player turned the confirmation off
        return 0
    dialog.get_by_role("button").first.click()
    return 1


def make(page: Any, frame: dict[str, Any], entry: list[Any]) -> tuple[int, int, str]:
    """Makes the legal move ``entry`` as a person does; the clicks, the decisions it made and by which way."""
    action, label = entry[0], entry[1]
    final = len(entry) > 4 and bool(entry[4])
    for shortcut in frame.get("shortcuts") or []:
        if shortcut["actions"] and shortcut["actions"][0] == action:
            status(page).get_by_role("button", name=shortcut["text"]).first.click()
            return 1 + confirm(page, bool(shortcut.get("final"))), len(shortcut["actions"]), "a shortcut"
    turned = turn_card(page, frame, entry)
    found = on_board(page, label)
    if found is not None:
        piece, in_menu = found
        piece.click()
        if in_menu:
            exact = re.compile("^" + re.escape(label) + "(" + re.escape(FINAL) + ")?$")
            page.get_by_role("menu").get_by_role("menuitem", name=exact).first.click()
        way = ("the card turned, " if turned else "") + ("a piece and its menu" if in_menu else "a piece")
        return turned + 1 + in_menu + confirm(page, final), 1, way
    if turned:
        raise SystemExit(f"the card was turned but no square offers {label!r}")
    bar = status(page).get_by_role("button", name=re.compile("^" + re.escape(label) + "(" + re.escape(FINAL) + ")?$"))
    if not bar.count():
        raise SystemExit(f"{label!r} is legal but neither a piece nor the bar offers it")
    bar.first.click()
    return 1 + confirm(page, final), 1, "the bar"


def on_board(page: Any, label: str) -> tuple[Any, bool] | None:
    """The board's piece that plays ``label``, and whether through the menu it opens (its name lists several
    moves, ``title: one / two``), or None."""
    pieces = board(page).get_by_role("button")
    for index, name in enumerate(pieces.evaluate_all(NAMES)):
        if name.removesuffix(FINAL) == label:
            return pieces.nth(index), False
        moves = [part.removesuffix(FINAL) for part in name.split(" / ")]
        if len(moves) > 1 and (label in moves[1:] or moves[0] == label or moves[0].endswith(f": {label}")):
            return pieces.nth(index), True
    return None


def turn_card(page: Any, frame: dict[str, Any], entry: list[Any]) -> int:
    """Solomon: turns the excavation card the way of the dig ``entry`` when the cave shows another way (a
    card per way, in the order of the ways); the clicks (0 or 1)."""
    if entry[2] != "dig":
        return 0
    ways = sorted({a[3] // 36 for a in frame["legal"] if a[2] == "dig"})
    cards = board(page).get_by_role("button", name=TURN_CARD)
    if cards.count() != len(ways) or len(ways) < 2:
        return 0
    card = cards.nth(ways.index(entry[3] // 36))
    if card.get_attribute("aria-pressed") == "true":
        return 0
    card.click()
    return 1


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


def play_game(browser: Any, server: Server, game_id: str, width: int, rng: random.Random) -> Game:
    """One game of the page's seat against greedy bots, through the page."""
    players, ending = GAMES[game_id]
    created = server.call("POST", "/api/tables", {"game": game_id, "players": players, "seats": [
        {"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "greedy"}] * (players - 1)})
    table, invite = created["table"]["id"], created["tokens"]["0"]
    token = server.call("POST", f"/api/tables/{table}/claim", {"token": invite})["token"]  # the invite opens it once
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(f"{server.url}/table/{table}#token={token}")
    game = Game()
    deadline = time.monotonic() + 3600
    try:
        while my_turn(page, deadline):
            frame = server.call("GET", f"/api/tables/{table}/frame", token=token)
            legal = frame["legal"]
            if not legal or len(legal) == 1 and len(legal[0]) > 4 and not legal[0][4]:
                page.wait_for_timeout(30)
                continue
            ends = [entry for entry in legal if entry[2] in ending]
            others = [entry for entry in legal if entry[2] not in ending] or ends
            entry = rng.choice(ends if ends and rng.random() < END_TURN else others)
            game.sequences.append(make(page, frame, entry))
            while str(frame["version"]) == page.get_by_role("main").get_attribute("data-version") or busy(page):
                if time.monotonic() > deadline:
                    raise SystemExit(f"{entry[1]!r} was made but never answered")
                page.wait_for_timeout(30)
        final = server.call("GET", f"/api/tables/{table}/frame", token=token)
        game.decisions = sum(entry["actor"] == 0 for entry in final["log"])
    finally:
        context.close()
    return game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), default="valley", help="the game played (default valley)")
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
            games = [play_game(browser, server, args.game, args.width, rng) for _ in range(args.games)]
        finally:
            browser.close()
            server.stop()
    spent = [clicks for game in games for clicks in game.per_decision()]
    ways: Counter[str] = Counter()
    for game in games:
        for _, made, way in game.sequences:
            ways[way] += made
        ways["the page (the only choice)"] += game.decisions - sum(made for _, made, _ in game.sequences)
    players = GAMES[args.game][0]
    print(f"{args.game}, {players} players ({players - 1} greedy), {args.games} games, {args.width} px wide: "
          f"{len(spent)} decisions")
    print(f"clicks per decision: median {statistics.median(spent):.2f}, mean {statistics.mean(spent):.2f}, "
          f"most {max(spent):.0f}")
    for way, count in ways.most_common():
        print(f"  {count:>5} decisions by {way}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
