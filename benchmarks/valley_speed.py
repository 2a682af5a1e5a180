"""Cost of the Valley of the Kings operations a search bot calls, in microseconds.

Decision points are taken from seeded random 2-player games; each operation
is timed on all of them, in CPU time (so other load on the machine distorts
the figures less; each figure is the best of five rounds). ``apply`` is one random legal action with its automatic
follow-up steps; ``legal`` is a fresh legal-move generation; ``playout`` is
random steps per second; ``ismcts`` is iterations per second of the default
ISMCTS bot.

    .venv/bin/python benchmarks/valley_speed.py [--players 2] [--points 40] [--seconds 1]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any, Callable

import obelisk
from obelisk.bots import make_bot
from obelisk.bots.ismcts import iterations_per_second
from obelisk.core.testing import random_playout

from engine import random_game


def decision_points(game: Any, count: int, seed: int) -> list[Any]:
    """Seat-to-act states spread over seeded random games."""
    points = []
    for g in range(count):
        history = random_playout(game, seed + g).history()
        cut = random.Random(seed + g).randrange(len(history) * 9 // 10)
        state = game.replay(seed + g, history[:cut])
        while state.current_player() < 0:
            state.apply_action(state.sample_chance(random.Random(cut)))
        points.append(state)
    return points


def per_call(label: str, points: list[Any], op: Callable[[Any, random.Random], Any], seconds: float) -> float:
    """Microseconds per call of ``op`` over ``points``: the best of five rounds (load only slows a round)."""
    rng = random.Random(0)
    best = float("inf")
    for _ in range(5):
        calls = 0
        started = time.process_time()
        while time.process_time() - started < seconds / 5:
            for state in points:
                op(state, rng)
            calls += len(points)
        best = min(best, 1e6 * (time.process_time() - started) / calls)
    print(f"{label:<10} {best:9.1f} us")
    return best


def _legal(state: Any, rng: random.Random) -> None:
    state._legal = None
    state.legal_actions()


def _apply(state: Any, rng: random.Random) -> None:
    child = state.clone()
    child.apply_action(rng.choice(child.legal_actions()))


def _steps_per_second(points: list[Any], seconds: float) -> float:
    rng = random.Random(0)
    steps = 0
    started = time.process_time()
    index = 0
    while time.process_time() - started < seconds:
        steps += random_game(points[index % len(points)].clone(), rng)
        index += 1
    return steps / (time.process_time() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--points", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=1.0)
    args = parser.parse_args()
    game = obelisk.load("valley", args.players)
    points = decision_points(game, args.points, seed=5)
    print(f"valley, {args.players} players, {len(points)} decision points")
    per_call("resample", points, lambda s, r: s.resample_from_infostate(s.current_player(), r), args.seconds)
    per_call("clone", points, lambda s, r: s.clone(), args.seconds)
    per_call("legal", points, _legal, args.seconds)
    per_call("clone+apply", points, _apply, args.seconds)
    per_call("evaluate", points, lambda s, r: s.evaluate(), args.seconds)
    per_call("observe", points, lambda s, r: s.observation(s.current_player()), args.seconds)
    print(f"{'playout':<10} {_steps_per_second(points, args.seconds * 2):9.0f} steps/s")
    speeds = []
    for state in points[:: max(1, len(points) // 8)]:
        bot = make_bot("ismcts", game, state.current_player(), seed=1)
        speeds.append(iterations_per_second(bot, state, args.seconds / 2))
    print(f"{'ismcts':<10} {sum(speeds) / len(speeds):9.0f} iterations/s (default spec)")


if __name__ == "__main__":
    main()
