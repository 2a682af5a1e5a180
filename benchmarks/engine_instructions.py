"""Machine instructions per random-playout step, every game against OpenSpiel's C++ crazy_eights.

The same loop as ``engine.py`` (legal actions, a uniform random choice,
chance sampled from the outcome list) runs under ``valgrind --tool=callgrind``,
which counts executed instructions; a run with no games is subtracted, so
start-up and imports drop out. Instruction counts do not move with the load
on the machine, so this ratio (crazy_eights instructions per step over the
game's) is the steady figure behind ``engine.py``'s timed one. It runs a few
seconds per game under valgrind's ~50x slowdown. Needs ``valgrind``.

    .venv/bin/python benchmarks/engine_instructions.py --games solomon --count 5
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

import obelisk
from engine import GOAL

_LOOP = """
import random, sys
sys.path.insert(0, {benchmarks!r})
from engine import random_game
kind, game_id, players, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
if kind == "openspiel":
    import pyspiel
    game = pyspiel.load_game(game_id)
    new_state = lambda seed: game.new_initial_state()
else:
    import obelisk
    game = obelisk.load(game_id, players)
    new_state = game.new_initial_state
rng = random.Random(0)
print("steps", sum(random_game(new_state(seed), rng) for seed in range(count)))
"""


def _count(kind: str, game_id: str, players: int, count: int) -> tuple[int, int]:
    """(instructions, steps) of ``count`` seeded random games under callgrind."""
    script = _LOOP.format(benchmarks=str(Path(__file__).parent))
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
         sys.executable, "-c", script, kind, game_id, str(players), str(count)],
        capture_output=True, text=True, check=True,
    )
    instructions = int(re.search(r"Collected : (\d+)", done.stderr).group(1))
    steps = int(re.search(r"^steps (\d+)", done.stdout, re.MULTILINE).group(1))
    return instructions, steps


def per_step(kind: str, game_id: str, players: int, count: int) -> tuple[float, int]:
    """Instructions per step of ``count`` games, the start-up (a run of no games) subtracted."""
    total, steps = _count(kind, game_id, players, count)
    empty, _ = _count(kind, game_id, players, 0)
    return (total - empty) / steps, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=5, help="seeded random games per game and player count")
    parser.add_argument("--games", default="", help="comma-separated game ids (default: all)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("engine_instructions.py needs valgrind (apt-get install valgrind)")
    baseline, base_steps = per_step("openspiel", "crazy_eights", 0, args.count * 4)
    print(f"baseline: OpenSpiel crazy_eights (C++), {baseline:,.0f} instructions/step over {base_steps} steps")
    print(f"{'game':<10} {'players':>7} {'steps':>7} {'instr/step':>11} {'ratio':>7}  goal >= {GOAL}")
    wanted = {g for g in args.games.split(",") if g}
    for info in obelisk.list_games():
        if wanted and info.id not in wanted:
            continue
        for players in range(info.min_players, info.max_players + 1):
            cost, steps = per_step("obelisk", info.id, players, args.count)
            ratio = baseline / cost
            mark = "ok" if ratio >= GOAL else "BELOW GOAL"
            print(f"{info.id:<10} {players:>7} {steps:>7} {cost:>11,.0f} {ratio:>7.2f}  {mark}", flush=True)


if __name__ == "__main__":
    main()
