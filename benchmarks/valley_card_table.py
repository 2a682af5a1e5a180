"""Print the Valley of the Kings card list as a Markdown table (name, stats, action, provenance).

Usage: ``python benchmarks/valley_card_table.py [--cards FILE]``; the table in
``docs/games/valley.md`` is this script's output for the built-in card file.
"""

from __future__ import annotations

import argparse

from obelisk.games.valley.data import CARD_FIELDS, TYPES, load_cards
from obelisk.games.valley.effects import describe


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", default="", help="card file (default: the built-in valley.json)")
    table = load_cards(parser.parse_args().cards)
    print("| card | level | copies | cost | gold | type / set | VP | action | reconstructed fields |")
    print("|---|---|---|---|---|---|---|---|---|")
    for k, name in enumerate(table.names):
        kind = TYPES[table.kind_type[k]]
        group = table.set_names[table.set_of[k]] if table.set_of[k] >= 0 else kind
        vp = str(table.vp[k]) if kind != "set" else "set"
        action = describe(table.effect[k], table.params[k]) if table.effect[k] != "none" else "-"
        action = f"`{table.effect[k]}`: {action}" if table.effect[k] != "none" else "-"
        rebuilt = [f for f in CARD_FIELDS if table.provenance[k].get(f) == "reconstructed"]
        level = ("I", "II", "III")[table.level[k] - 1]
        print(f"| {name} | {level} | {table.copies[k]} | {table.cost[k]} | {table.gold[k]} | {group} | {vp} | "
              f"{action} | {', '.join(rebuilt) or '-'} |")


if __name__ == "__main__":
    main()
