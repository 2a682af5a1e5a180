"""Does the stand-in tile list of Secret of the Ancient Tomb give a playable game?

Plays seeded games through the core protocol only (legal actions, labels,
chance sampling and observations) with the project's bots (``greedy`` by
default, any bot spec with ``--bot``) and reports: how often the burial
chamber was reached by someone and by every player, the round of each entry,
how often the technical round cap stopped a game, the game length in turns
and rounds (median, quartiles), and how often each item and obstacle tile
was revealed, each item was spent and each obstacle struck. For every game the
cap stopped it says why that game could no longer end, read from the final
public observation (see ``never_ends``).

    .venv/bin/python benchmarks/tomb_data.py --games 200 --players 4 --pyramid small
    .venv/bin/python benchmarks/tomb_data.py --players 4 --seeds 12,13
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import obelisk  # noqa: E402
from obelisk.bots import make_bot  # noqa: E402


USES = {
    "eat food": "food",
    "drink water": "water",
    "eat chocolate": "chocolate",
    "light the torch": "torch",
    "wear the scarf": "scarf",
    "study the plan": "plan",
    "buy ": "money",
    "use the golden key": "golden key",
    "use the magic flask": "magic flask",
    "read the papyrus": "papyrus of the dead",
}
"""Label prefixes of item uses (the first-aid kit is never spent)."""


def _fresh(old: list[str], new: list[str]) -> list[str]:
    """Events in the sliding window ``new`` that were not in ``old``."""
    for start in range(len(old) + 1):
        tail = old[start:]
        if new[: len(tail)] == tail:
            return new[len(tail):]
    return new


SIZE = 9
BIT, OPP = (1, 2, 4, 8), (2, 3, 0, 1)
"""Openings N, E, S, W as bits of a square's openings mask, and the opposite direction of each."""
NEIGH = [
    [r2 * SIZE + c2 if 0 <= r2 < SIZE and 0 <= c2 < SIZE else -1 for r2, c2 in ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1))]
    for r in range(SIZE)
    for c in range(SIZE)
]


def square_name(cell: int) -> str:
    return "ABCDEFGHI"[cell % SIZE] + str(cell // SIZE + 1)


def _item_ids(game: obelisk.Game) -> list[str]:
    """The item ids the observation uses ('first_aid_kit'), in the order of the game's item names."""
    return [name.lower().replace(" ", "_").replace("-", "_") for name in game.tables.item_names]


def _reachable(game: obelisk.Game, view: dict, items: set[str]) -> set[int]:
    """Squares a figure could still reach from the entrances holding ``items`` (ids): through mutual openings,
    never onto the curse or a kill or cannot-enter tile it is not protected against; a face-down square is
    reachable from a neighbour opening toward it (it can be turned to open back) and counts as open all round."""
    t = game.tables
    board, chamber = view["board"], t.chamber
    curse = (int(view["curse"][1]) - 1) * SIZE + "ABCDEFGHI".index(view["curse"][0]) if view["curse"] else -1
    item_ids = _item_ids(game)

    def passable(cell: int) -> bool:
        if cell == curse:
            return False
        if board[cell] is None:
            return True
        need = t.hazard[board[cell][0]]
        return need < 0 or item_ids[need] in items

    seen = {c for c in t.corners if passable(c)}
    todo = list(seen)
    while todo:
        a = todo.pop()
        if a == chamber:
            continue
        mask = 15 if board[a] is None else board[a][1]
        for d in range(4):
            b = NEIGH[a][d]
            if b < 0 or b in seen or not mask & BIT[d]:
                continue
            if b != chamber and (not passable(b) or board[b] is not None and not board[b][1] & BIT[OPP[d]]):
                continue
            seen.add(b)
            todo.append(b)
    return seen


def never_ends(game: obelisk.Game, view: dict) -> list[str]:
    """Why nobody can open the chamber any more, read from a public observation (empty: someone still can).

    Optimistic on purpose, so that every cause reported is certain: an item counts as obtainable if anyone
    holds it (robbery), a reachable tile shows it, it may still lie face down while a face-down square can be
    reached, or money can buy it once discovered; face-down squares are assumed to be turned whichever way
    helps."""
    t = game.tables
    kinds = [name for _, name in view["kinds"]]
    item_ids = _item_ids(game)
    tile_item = {f" with {name}": item_ids[i] for i, name in enumerate(t.item_names)}
    buyable = {item for i, item in enumerate(item_ids) if t.buyable >> i & 1}
    items = {item for p in view["players"] for item in p["items"]}
    while True:
        reach = _reachable(game, view, items)
        face_down = [c for c in reach if view["board"][c] is None]
        found = {kinds[view["board"][c][0]] for c in reach if view["board"][c] is not None}
        if face_down:
            found |= set(view["unrevealed"])
        more = {item for suffix, item in tile_item.items() if any(name.endswith(suffix) for name in found)}
        if "money" in items | more:
            more |= buyable & set(view["discovered"])
        if more <= items:
            break
        items |= more
    everything = _reachable(game, view, set(item_ids))
    causes: list[str] = []
    if view["chamber_open"]:
        return [] if t.chamber in reach else ["the open chamber cannot be reached"]
    for colour in view["colours"]:
        if all(colour in p["inscriptions"] for p in view["players"] if p["place"] is None):
            continue
        label = f"{colour} inscription"
        cells = [c for c, sq in enumerate(view["board"]) if sq is not None and kinds[sq[0]].endswith(label)]
        if any(c in reach for c in cells) or face_down and any(name.endswith(label) for name in view["unrevealed"]):
            continue
        if cells:
            why = "past tiles nobody can get protection against" if any(c in everything for c in cells) else "behind walls"
            causes.append(f"{colour} lies on {', '.join(square_name(c) for c in cells)} {why}")
        else:
            walled = [square_name(c) for c, sq in enumerate(view["board"]) if sq is None]
            causes.append(f"{colour} is still face down and every face-down square ({', '.join(walled)}) is walled off")
    if not causes and t.chamber not in reach:
        causes.append("the chamber cannot be reached")
    return causes


def play(game: obelisk.Game, seed: int, bot: str) -> dict:
    rng = random.Random(seed)
    bots = [make_bot(bot, game, seat, seed) for seat in range(game.num_players)]
    state = game.new_initial_state(seed)
    revealed: Counter = Counter()
    used: Counter = Counter()
    struck: Counter = Counter()
    events: list[str] = []
    turns = 0
    entries: list[int] = []
    entry_rounds: list[int] = []
    while not state.is_terminal():
        if state.is_chance_node():
            action = state.sample_chance(rng)
            label = state.action_to_string(action)
            if label.startswith("roll"):
                turns += 1
                view = state.observation(None)
                entered = len(view["finish_order"])
                entry_rounds.extend([view["round"]] * (entered - len(entries)))
                entries.extend([turns - 1] * (entered - len(entries)))
            elif label.startswith("reveal"):
                revealed[label.split(": ", 1)[1]] += 1
        else:
            action = bots[state.current_player()].choose(state)
            label = state.action_to_string(action)
            used.update(item for prefix, item in USES.items() if label.startswith(prefix))
        state.apply_action(action)
        if not label.startswith(("roll", "move the", "bring")):
            now = state.observation(None)["events"]
            for event in _fresh(events, now):
                if " kills " in event or " ends seat " in event:
                    struck[event.split(" on ")[0]] += 1
            events = now
    view = state.observation(None)
    entry_rounds.extend([view["round"]] * (len(view["finish_order"]) - len(entries)))
    entries.extend([turns] * (len(view["finish_order"]) - len(entries)))
    ready = sum(1 for p in view["players"] if len(p["inscriptions"]) >= view["needed"])
    capped = "the round limit is reached" in view["events"]
    return {"seed": seed, "turns": turns, "round": view["round"], "entries": entries, "entry_rounds": entry_rounds,
            "revealed": revealed, "ready": ready, "used": used, "struck": struck, "capped": capped,
            "causes": never_ends(game, view) if capped else []}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="play seeds 0 .. games-1")
    parser.add_argument("--seeds", default="", help="comma-separated seeds to play instead, e.g. 12,13")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--pyramid", default="small", choices=("small", "big"))
    parser.add_argument("--bot", default="greedy", help="bot spec playing every seat (greedy, random, ismcts:200 ...)")
    parser.add_argument("--max-rounds", type=int, default=None)
    parser.add_argument("--chamber-entry", default="opening", choices=("opening", "adjacent"))
    parser.add_argument("--data", default="")
    args = parser.parse_args()
    options = {"pyramid": args.pyramid, "data": args.data, "chamber_entry": args.chamber_entry}
    if args.max_rounds:
        options["max_rounds"] = args.max_rounds
    game = obelisk.load("tomb", args.players, **options)
    started = time.process_time()
    seeds = [int(seed) for seed in args.seeds.split(",")] if args.seeds else list(range(args.games))
    args.games = len(seeds)
    results = [play(game, seed, args.bot) for seed in seeds]
    seconds = time.process_time() - started
    turns = sorted(r["turns"] for r in results)
    rounds = sorted(r["round"] for r in results)
    first = sum(1 for r in results if r["entries"])
    everyone = sum(1 for r in results if len(r["entries"]) >= args.players)
    quart = statistics.quantiles(turns, n=4) if len(turns) > 1 else [turns[0]] * 3
    print(f"tomb {args.pyramid} pyramid, {args.players} players, {args.games} {args.bot} games, "
          f"options {dict(game.options)} ({seconds / args.games * 1000:.0f} ms CPU per game)")
    print(f"chamber entered by someone: {first}/{args.games}; by every player: {everyone}/{args.games}")
    stuck = sum(1 for r in results if not r["entries"] and r["ready"])
    print(f"games where nobody entered although someone held enough inscriptions: {stuck}")
    print(f"games stopped by the round cap ({game.options['max_rounds']} rounds): {sum(r['capped'] for r in results)}")
    for r in results:
        if r["capped"]:
            print(f"  seed {r['seed']}: " + ("; ".join(r["causes"]) or "could still have ended"))
    for place in range(args.players):
        at = sorted(r["entry_rounds"][place] for r in results if len(r["entry_rounds"]) > place)
        if len(at) >= 2:
            q = statistics.quantiles(at, n=4)
            print(f"entry {place + 1}: {len(at)}/{args.games} games, round median {statistics.median(at):.0f} "
                  f"(quartiles {q[0]:.0f}-{q[2]:.0f}, max {at[-1]})")
    print(f"turns: median {statistics.median(turns):.0f}, quartiles {quart[0]:.0f}-{quart[2]:.0f}, "
          f"max {turns[-1]}; rounds: median {statistics.median(rounds):.0f}")
    firsts = sorted(r["entries"][0] for r in results if r["entries"])
    if firsts:
        print(f"turns until the first chamber entry (games with one): median {statistics.median(firsts):.0f}, "
              f"quartiles {firsts[len(firsts) // 4]}-{firsts[3 * len(firsts) // 4]}")
    for key, what in (("revealed", "tiles revealed"), ("used", "items spent"), ("struck", "obstacles struck")):
        per_game = sorted(sum(r[key].values()) for r in results)
        print(f"{what} per game: median {statistics.median(per_game):.0f}, range {per_game[0]}-{per_game[-1]}")
    for key, title in (("revealed", "item, obstacle and special tiles revealed"), ("used", "items spent"),
                       ("struck", "obstacles striking an unprotected archaeologist")):
        total: Counter = Counter()
        games_with: Counter = Counter()
        for r in results:
            total.update(r[key])
            games_with.update(set(r[key]))
        print(f"{title} (total over all games, games where it happened):")
        for name in sorted(total):
            if key != "revealed" or " with " in name:
                print(f"  {name:42s} {total[name]:6d} {games_with[name]:5d}")


if __name__ == "__main__":
    main()
