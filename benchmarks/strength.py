"""Playing strength: ISMCTS vs greedy, greedy vs random, and the cheater as the upper bound.

Each matchup seats the tested bot once per game against the baseline in every
other seat, at the fewest players a game allows from two up (two for Valley,
Solomon and Tomb, three for Cleopatra), seats rotated and deals shared by the
arena's schedule. The score is the tested bot's pairwise win rate: the share
of (tested seat, baseline seat) pairs in which the tested bot finished ahead,
ties counting half — exactly the win rate in two-player games.

Goals (issue: bots): ISMCTS at 1 s/move beats greedy in >= 75 % and greedy
beats random in >= 90 % of games, 200 games each, every game. That is many
hours of CPU; the counts and the time per move are parameters:

    .venv/bin/python benchmarks/strength.py                               # the full run
    .venv/bin/python benchmarks/strength.py --games 20 --time 0.1 --workers 2   # a reduced run
"""

from __future__ import annotations

import argparse
import time

import obelisk
from obelisk.sim.arena import make_tournament, run_tournament
from obelisk.sim.stats import pairwise_wins, wilson_interval

GOALS = {"ismcts-vs-greedy": 0.75, "greedy-vs-random": 0.90, "cheater-vs-greedy": None}


def matchups(seconds: float) -> dict[str, tuple[str, str]]:
    budget = f"{seconds:g}s"
    return {
        "ismcts-vs-greedy": (f"ismcts:{budget}", "greedy"),
        "greedy-vs-random": ("greedy", "random"),
        "cheater-vs-greedy": (f"cheater:{budget}", "greedy"),
    }


def measure(game_id: str, tested: str, baseline: str, games: int, seed: int, workers: int) -> dict:
    info = obelisk.core.game_class(game_id).info
    game = obelisk.load(game_id, max(2, info.min_players))
    specs = [tested] + [baseline] * (game.num_players - 1)
    tournament = make_tournament(game, specs, games, seed)
    started = time.perf_counter()
    results = run_tournament(tournament, workers=workers)
    elapsed = time.perf_counter() - started
    ahead = pairs = 0.0
    for result in results:
        for (a, b), value in pairwise_wins(result.lineup, result.returns).items():
            if a == tested and b != tested:
                ahead += value
                pairs += 1
    low, high = wilson_interval(ahead, pairs)
    return {"players": game.num_players, "rate": ahead / pairs, "low": low, "high": high, "seconds": elapsed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games per matchup and game")
    parser.add_argument("--time", type=float, default=1.0, help="seconds per move of ismcts and the cheater")
    parser.add_argument("--workers", type=int, default=1, help="parallel worker processes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", default="", help="comma-separated game ids (default: all)")
    parser.add_argument("--matchups", default=",".join(GOALS), help="comma-separated: " + ", ".join(GOALS))
    args = parser.parse_args()
    game_ids = [g for g in args.only.split(",") if g] or [info.id for info in obelisk.list_games()]
    chosen = [m for m in args.matchups.split(",") if m]
    table = matchups(args.time)
    print(f"{args.games} games per matchup, {args.time:g} s/move for search bots, {args.workers} worker(s)")
    print(f"{'game':<10} {'players':>7} {'matchup':<20} {'win rate':>8} {'95% CI':>15} {'goal':>6} {'time':>8}")
    for game_id in game_ids:
        for name in chosen:
            tested, baseline = table[name]
            row = measure(game_id, tested, baseline, args.games, args.seed, args.workers)
            goal = GOALS[name]
            verdict = "-" if goal is None else ("met" if row["rate"] >= goal else "missed")
            print(f"{game_id:<10} {row['players']:>7} {name:<20} {row['rate']:>8.1%} "
                  f"{row['low']:>7.1%}–{row['high']:<7.1%} {verdict:>6} {row['seconds']:>7.0f}s", flush=True)


if __name__ == "__main__":
    main()
