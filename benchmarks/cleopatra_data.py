"""Simulate Cleopatra on the stand-in garden: how many mosaics get placed, how many sanctuaries appear.

Uses only the core protocol: ``obelisk.load``, ``legal_actions``, ``apply_action``,
``sample_chance``, ``resample_from_infostate``, ``evaluate`` and the final
``observation(None)``. Two policies: uniformly random, and a one-ply greedy
that scores each legal action by ``evaluate()`` on one determinization of the
seat's information (chance after the action sampled once).

    .venv/bin/python benchmarks/cleopatra_data.py --games 200 --greedy-games 30

Without ``--max-rounds`` a game has no round limit, as in the rulebook, and
ends at the latest at the technical cap (``rules.ROUND_CAP``); the report says
how many games reach it, and the most character cards played in one turn
(against the technical bound of one play per character card in the deck).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import obelisk


def greedy_choice(state: obelisk.State, rng: random.Random) -> int:
    seat = state.current_player()
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    world = state.resample_from_infostate(seat, rng)
    best, best_value = legal[0], -2.0
    for action in legal:
        after = world.clone()
        after.apply_action(action)
        while after.is_chance_node():
            after.apply_action(after.sample_chance(rng))
        value = after.evaluate()[seat] + rng.random() * 1e-6
        if value > best_value:
            best, best_value = action, value
    return best


def play(players: int, seed: int, policy: str, options: dict) -> dict:
    game = obelisk.load("cleopatra", players, **options)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    plays: dict[tuple[int, int], int] = {}
    while not state.is_terminal():
        if state.is_chance_node():
            action = state.sample_chance(rng)
        elif policy == "greedy":
            action = greedy_choice(state, rng)
        else:
            action = rng.choice(state.legal_actions())
        if not state.is_chance_node() and state.action_to_string(action).startswith("play "):
            now = state.observation(None)
            key = (now["round"], now["turn"])
            plays[key] = plays.get(key, 0) + 1
        state.apply_action(action)
    view = state.observation(None)
    return {
        "mosaics": len(view["mosaics"]),
        "removed": len(view["removed_tiles"]),
        "sanctuaries": len(view["sanctuary_regions"]),
        "sizes": [len(r) for r in view["sanctuary_regions"]],
        "claimed": len(view["sanctuaries"]),
        "rounds": view["round"] - (0 if view["cleopatra"] >= view["cleopatra_steps"] else 1),
        "limit": view["cleopatra"] < view["cleopatra_steps"],
        "mosaics_complete": "mosaics" in view["completed"],
        "eaten": sum(view["final"]["eaten"]),
        "plays": max(plays.values(), default=0),
    }


def report(label: str, results: list[dict], seconds: float) -> None:
    def mean(key: str) -> float:
        return statistics.mean(r[key] for r in results)

    sizes = [s for r in results for s in r["sizes"]]
    print(f"{label}: {len(results)} games, {seconds / len(results) * 1000:.0f} ms/game")
    print(f"  mosaics placed {mean('mosaics'):.2f} (min {min(r['mosaics'] for r in results)}, "
          f"max {max(r['mosaics'] for r in results)}), tiles removed as unfit {mean('removed'):.2f}, "
          f"mosaic category completed in {sum(r['mosaics_complete'] for r in results) / len(results):.0%}")
    print(f"  sanctuaries appearing {mean('sanctuaries'):.2f}, claimed {mean('claimed'):.2f}, "
          f"size mean {statistics.mean(sizes) if sizes else 0:.2f} (max {max(sizes, default=0)}), "
          f"games with none {sum(1 for r in results if not r['sanctuaries']) / len(results):.0%}")
    rounds = [r["rounds"] for r in results]
    print(f"  rounds {mean('rounds'):.1f} (max {max(rounds)}), ended by the round limit or cap "
          f"{sum(r['limit'] for r in results)} of {len(results)}, players eaten per game {mean('eaten'):.2f}, "
          f"most characters played in one turn {max(r['plays'] for r in results)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="random games per player count")
    parser.add_argument("--greedy-games", type=int, default=30, help="greedy games per player count")
    parser.add_argument("--players", type=int, nargs="*", default=[3, 4, 5])
    parser.add_argument("--mirror", action="store_true", help="allow mirrored mosaics (option mosaic_mirror)")
    parser.add_argument("--max-rounds", type=int, default=0, help="option max_rounds (default 0: no limit)")
    args = parser.parse_args()
    options = {"mosaic_mirror": args.mirror, "max_rounds": args.max_rounds}
    for players in args.players:
        for policy, count in (("random", args.games), ("greedy", args.greedy_games)):
            if not count:
                continue
            start = time.process_time()
            results = [play(players, seed, policy, options) for seed in range(count)]
            report(f"{players} players, {policy}", results, time.process_time() - start)


if __name__ == "__main__":
    main()
