"""Game length of Valley of the Kings: the ceiling set by the rules, and what card costs change.

Every turn removes at least one card from the pyramid or the stock (a turn
that did not touch the pyramid ends with a forced removal), no card ever
returns there, and the game ends with the round in which the last one
leaves. With R removable cards after setup (the level II and III cards minus
the one that starts the boneyard) and N players, no game can last more than
ceil(R / N) turns per player: that many if every turn removes exactly one.

The script prints that ceiling per player count, then the turns per player
of greedy self-play (the bots of ``valley_balance.py``) with every level II
and III cost raised by each of the given shifts (temporary card files).

    .venv/bin/python benchmarks/valley_length.py [--games 40] [--shifts 0,1,2] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import obelisk
from obelisk.games.valley.data import BUILTIN_PATH
from valley_balance import _run


def shifted_cards(shift: int, folder: Path) -> str:
    """A card file like the built-in one with every level II and III cost raised by ``shift``."""
    doc = json.loads(BUILTIN_PATH.read_text(encoding="utf-8"))
    for card in doc["cards"]:
        if card["level"] > 1:
            card["cost"] += shift
    path = folder / f"cards_plus{shift}.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40, help="greedy self-play games per player count and shift")
    parser.add_argument("--shifts", default="0,1,2", help="comma-separated cost shifts of level II and III cards")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    table = obelisk.load("valley", 2).table
    removable = table.stock_total() - 1
    print(f"removable cards after setup: {removable} "
          f"(level II and III: {table.stock_total()}, one starts the boneyard)")
    for players in (2, 3, 4):
        print(f"  {players} players: at most {math.ceil(removable / players)} turns per player")
    print("\n| level II/III costs | 2 players | 3 players | 4 players |")
    print("|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder, ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for shift in (int(s) for s in args.shifts.split(",")):
            cards = shifted_cards(shift, Path(folder))
            cells = []
            for players in (2, 3, 4):
                jobs = [(players, args.seed * 100000 + g, (-1,) * players, cards) for g in range(args.games)]
                turns = [r["turns"] for r in pool.map(_run, jobs)]
                cells.append(f"{statistics.mean(turns):.1f} ({min(turns)}-{max(turns)})")
            print(f"| +{shift} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
