"""ISMCTS search speed (iterations per second, one core) in every game.

For each game a few decision points are taken from seeded random games and
searched for ``--seconds`` of CPU time each (CPU time, so other load on the
machine does not distort the figures). The baseline measured in the same run is the
engine's speed for random playouts from the same points, so the ratio
"iterations per playout" shows what the search itself costs on top of the
game (1.0 would mean an iteration is as cheap as one random playout).

    .venv/bin/python benchmarks/bots_speed.py                  # default spec, all games
    .venv/bin/python benchmarks/bots_speed.py --spec "ismcts:1,depth=10" --games valley
"""

from __future__ import annotations

import argparse
import random
import time

import obelisk
from obelisk.bots import make_bot
from obelisk.bots.ismcts import ISMCTSBot, iterations_per_second
from obelisk.core import State
from obelisk.core.testing import random_playout


def decision_points(game: obelisk.Game, count: int, seed: int) -> list[State]:
    """Seat-to-act states spread over the first 80% of seeded random games."""
    points = []
    for g in range(count):
        history = random_playout(game, seed + g).history()
        cut = random.Random(seed + g).randrange(len(history) * 4 // 5)
        state = game.replay(seed + g, history[:cut])
        while state.current_player() < 0 or len(state.legal_actions()) < 2:
            state.apply_action(state.sample_chance() if state.current_player() < 0 else state.legal_actions()[0])
        points.append(state)
    return points


def playouts_per_second(states: list[State], seconds: float) -> tuple[float, float]:
    """Random playouts from the given states: (playouts/s, steps/s) — the engine baseline."""
    rng = random.Random(0)
    started = time.process_time()
    playouts = steps = 0
    while time.process_time() - started < seconds:
        state = states[playouts % len(states)].clone()
        start = state.move_number()
        while not state.is_terminal():
            legal = state.legal_actions() if state.current_player() >= 0 else None
            state.apply_action(rng.choice(legal) if legal else state.sample_chance(rng))
        playouts += 1
        steps += state.move_number() - start
    elapsed = time.process_time() - started
    return playouts / elapsed, steps / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--spec", default="ismcts", help="bot spec (its budget is ignored: the search runs --seconds)")
    parser.add_argument("--games", default="", help="comma-separated game ids (default: all)")
    parser.add_argument("--points", type=int, default=4, help="decision points per game")
    parser.add_argument("--seconds", type=float, default=1.0, help="search time per decision point")
    args = parser.parse_args()
    wanted = [g for g in args.games.split(",") if g] or [info.id for info in obelisk.list_games()]
    print(f"spec {args.spec!r}, {args.points} points x {args.seconds:g}s per game")
    print(f"{'game':<10} {'players':>7} {'iter/s':>9} {'playouts/s':>11} {'steps/s':>9} {'iter/playout':>13}")
    for game_id in wanted:
        info = obelisk.core.game_class(game_id).info
        game = obelisk.load(game_id, max(2, info.min_players))
        points = decision_points(game, args.points, seed=11)
        speeds = []
        for state in points:
            bot = make_bot(args.spec, game, state.current_player(), seed=1)
            assert isinstance(bot, ISMCTSBot), "bots_speed measures search bots (ismcts, cheater)"
            speeds.append(iterations_per_second(bot, state, args.seconds))
        iterations = sum(speeds) / len(speeds)
        playouts, steps = playouts_per_second(points, args.seconds * 2)
        print(f"{game_id:<10} {game.num_players:>7} {iterations:>9.0f} {playouts:>11.1f} {steps:>9.0f} "
              f"{iterations / playouts:>13.2f}")


if __name__ == "__main__":
    main()
