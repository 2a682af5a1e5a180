"""Arena throughput with 2 worker processes against 1 (goal: >= 1.8x).

The same seeded tournament is played with ``--workers 1`` and ``--workers 2``;
the results must be identical (the benchmark checks it) and the ratio of the
wall-clock throughputs is printed. It needs two idle cores to show the
scaling: on a busy machine the ratio measures the load, not the arena.

    .venv/bin/python benchmarks/arena_scaling.py
    .venv/bin/python benchmarks/arena_scaling.py --game solomon --bots greedy,random --games 60
"""

from __future__ import annotations

import argparse
import os

import obelisk
from obelisk.sim.arena import make_tournament, summarise, timed_run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="valley")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--bots", default="greedy,random")
    parser.add_argument("--games", type=int, default=80)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = obelisk.load(args.game, args.players)
    tournament = make_tournament(game, args.bots.split(","), args.games, args.seed)
    rates = {}
    summaries = {}
    for workers in (1, 2):
        results, elapsed = timed_run(tournament, workers=workers)
        rates[workers] = len(results) / elapsed
        summaries[workers] = summarise(tournament, results)
        print(f"{workers} worker(s): {len(results)} games in {elapsed:.1f} s = {rates[workers]:.2f} games/s")
    assert summaries[1] == summaries[2], "results differ between worker counts"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"speed-up 2 vs 1 workers: {rates[2] / rates[1]:.2f}x (goal >= 1.8x); identical results: yes; "
          f"{os.cpu_count()} CPUs, load average {load:.1f}")


if __name__ == "__main__":
    main()
