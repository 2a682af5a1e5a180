"""Cleopatra's random-playout speed against OpenSpiel's C++ crazy_eights, robust to a busy machine.

``benchmarks/engine.py`` measures the baseline once and then each game for a
few seconds, so on a shared machine the load can change between the two.
Here every Cleopatra game is sandwiched between two batches of crazy_eights
games driven by the same loop, and the ratio is taken per sandwich; the
median of the ratios is reported with its quartiles.

    .venv/bin/python benchmarks/cleopatra_speed.py --rounds 40
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any, Callable

import obelisk

from engine import random_game


def _play(new_state: Callable[[], Any], games: int, rng: random.Random) -> tuple[int, float]:
    """Steps and seconds of ``games`` uniformly random playouts (the loop of ``engine.py``)."""
    started = time.perf_counter()
    steps = sum(random_game(new_state(), rng) for _ in range(games))
    return steps, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=40, help="Cleopatra games per player count")
    parser.add_argument("--players", default="3,4,5", help="comma-separated player counts")
    args = parser.parse_args()

    import pyspiel

    baseline = pyspiel.load_game("crazy_eights")
    print(f"{'players':>7} {'ratio':>6} {'q1':>6} {'q3':>6} {'steps/s':>9} {'steps/game':>10} {'ms/game':>8}")
    for players in (int(p) for p in args.players.split(",")):
        game = obelisk.load("cleopatra", players)
        rng = random.Random(players)
        ratios = []
        steps = seconds = 0.0
        for index in range(args.rounds):
            before = _play(baseline.new_initial_state, 12, rng)
            own = _play(lambda: game.new_initial_state(index), 1, rng)
            after = _play(baseline.new_initial_state, 12, rng)
            base_rate = (before[0] + after[0]) / (before[1] + after[1])
            ratios.append(own[0] / own[1] / base_rate)
            steps += own[0]
            seconds += own[1]
        ratios.sort()
        n = len(ratios)
        print(f"{players:>7} {ratios[n // 2]:>6.3f} {ratios[n // 4]:>6.3f} {ratios[3 * n // 4]:>6.3f} "
              f"{steps / seconds:>9,.0f} {steps / n:>10.0f} {1000 * seconds / n:>8.1f}")


if __name__ == "__main__":
    main()
