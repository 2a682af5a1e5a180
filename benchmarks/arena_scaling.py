"""Arena throughput with 2 worker processes against 1 (goal: >= 1.8x).

The same seeded tournament is played with ``--workers 1`` and ``--workers 2``;
the results must be identical (the benchmark checks it) and the ratio of the
wall-clock throughputs is printed. It needs two idle cores to show the
scaling: on a busy machine the ratio measures the load, not the arena. The
CPU seconds spent per game (this process plus its workers) are printed too:
their ratio is the arena's own overhead, whatever the load.

    .venv/bin/python benchmarks/arena_scaling.py
    .venv/bin/python benchmarks/arena_scaling.py --game solomon --bots greedy,random --games 60
"""

from __future__ import annotations

import argparse
import os
import resource

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
    cpu = {}
    for workers in (1, 2):
        before = _cpu_seconds()
        results, elapsed = timed_run(tournament, workers=workers)
        cpu[workers] = (_cpu_seconds() - before) / len(results)
        rates[workers] = len(results) / elapsed
        summaries[workers] = summarise(tournament, results)
        print(f"{workers} worker(s): {len(results)} games in {elapsed:.1f} s = {rates[workers]:.2f} games/s, "
              f"{cpu[workers] * 1000:.0f} ms CPU per game")
    assert summaries[1] == summaries[2], "results differ between worker counts"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"speed-up 2 vs 1 workers: {rates[2] / rates[1]:.2f}x (goal >= 1.8x); identical results: yes; "
          f"{os.cpu_count()} CPUs, load average {load:.1f}")
    print(f"CPU per game 2 vs 1 workers: {cpu[2] / cpu[1]:.2f}x, so with two free cores the speed-up is at most "
          f"{2 * cpu[1] / cpu[2]:.2f}x")


def _cpu_seconds() -> float:
    """User + system CPU time of this process and its finished worker processes."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


if __name__ == "__main__":
    main()
