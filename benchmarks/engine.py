"""Random-playout throughput of every game against OpenSpiel's C++ crazy_eights.

Both engines are driven by the same Python loop (legal actions, a uniform
random choice, chance sampled from the outcome list), so the ratio measures
the engines, not the loop. Goal: ratio >= 0.5 for every game and player count.

    make bench            # or: .venv/bin/python benchmarks/engine.py --seconds 3
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any, Callable

import obelisk
from obelisk.core import sample_outcome


def random_game(state: Any, rng: random.Random) -> int:
    """Play ``state`` to the end with uniform choices; return the number of steps.

    Works for Obelisk and pyspiel states alike, so both engines run the same loop.
    """
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            action = sample_outcome(state.chance_outcomes(), rng)
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        steps += 1
    return steps


def playout_loop(new_state: Callable[[int], Any], seconds: float) -> tuple[float, float]:
    """(steps/s, games/s) of uniformly random games for about ``seconds``."""
    rng = random.Random(0)
    steps = games = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        steps += random_game(new_state(games), rng)
        games += 1
    elapsed = time.perf_counter() - started
    return steps / elapsed, games / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--games", default="", help="comma-separated game ids (default: all)")
    args = parser.parse_args()

    import pyspiel

    baseline_game = pyspiel.load_game("crazy_eights")
    base_steps, base_games = playout_loop(lambda _: baseline_game.new_initial_state(), args.seconds)
    print(f"baseline OpenSpiel crazy_eights (C++): {base_steps:,.0f} steps/s, {base_games:,.1f} games/s")
    print(f"{'game':<10} {'players':>7} {'steps/s':>12} {'games/s':>10} {'ratio':>7}  goal >= 0.5")
    wanted = {g for g in args.games.split(",") if g}
    for info in obelisk.games():
        if wanted and info.id not in wanted:
            continue
        for players in range(info.min_players, info.max_players + 1):
            game = obelisk.load(info.id, players)
            steps, games = playout_loop(game.new_initial_state, args.seconds)
            ratio = steps / base_steps
            mark = "ok" if ratio >= 0.5 else "BELOW GOAL"
            print(f"{info.id:<10} {players:>7} {steps:>12,.0f} {games:>10,.1f} {ratio:>7.2f}  {mark}")


if __name__ == "__main__":
    main()
