"""Balance figures for the Valley of the Kings card design.

Bots are one-ply greedy players on ``State.evaluate()``: at each decision
they try every legal action on a clone and keep the best value for their
seat (ties broken at random, preferring any action over ending the turn).
A "lover" of card X is the same bot, except that it buys X whenever it can.

Printed figures:
- game length (turns per player) and final tomb scores of greedy self-play,
  for 2, 3 and 4 players;
- for every level II/III card: the share of games in which it was bought
  (greedy self-play) and the win rate of its lover against plain greedy
  bots (2 players, seats alternated, a tie counts half).

Usage: ``python benchmarks/valley_balance.py [--games 100] [--lover-games 100] [--jobs 2] [--cards FILE]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import obelisk
from obelisk.core import CHANCE


def choose(state: Any, rng: random.Random, lover: int) -> int:
    """The one-ply greedy choice of the seat to act (a lover buys its card first)."""
    game = state.game
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    seat = state.current_player()
    if lover >= 0:
        for action in legal:
            if game.a_buy <= action < game.a_play and state.pyramid[action - game.a_buy] == lover:
                return action
    best: list[int] = []
    best_value = -2.0
    for action in legal:
        child = state.clone()
        child.apply_action(action)
        value = child.evaluate()[seat] - (1e-6 if action == game.a_end else 0.0)
        if value > best_value + 1e-12:
            best, best_value = [action], value
        elif value > best_value - 1e-12:
            best.append(action)
    return rng.choice(best)


def play_game(players: int, seed: int, lovers: tuple[int, ...], cards: str) -> dict[str, Any]:
    """One game; ``lovers[seat]`` is the card kind that seat loves (-1: none)."""
    game = obelisk.load("valley", players, cards=cards)
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    bought: list[list[int]] = [[] for _ in range(players)]
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply_action(state.sample_chance(rng))
            continue
        seat = state.current_player()
        action = choose(state, rng, lovers[seat])
        if game.a_buy <= action < game.a_play and state.stack[-1][0] == 0:
            bought[seat].append(state.pyramid[action - game.a_buy])
        state.apply_action(action)
    return {
        "turns": state.turns[0],
        "scores": [state.tomb_score(s) for s in range(players)],
        "returns": state.returns(),
        "bought": bought,
    }


def _run(args: tuple[int, int, tuple[int, ...], str]) -> dict[str, Any]:
    return play_game(*args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="greedy self-play games per player count")
    parser.add_argument("--lover-games", type=int, default=100, help="2-player games per card lover")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cards", default="", help="card file (default: the built-in valley.json)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    table = obelisk.load("valley", 2, cards=args.cards).table
    started = time.time()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        print(f"# Valley of the Kings balance (greedy one-ply bots), seed {args.seed}")
        print("\n## Greedy self-play\n")
        print("| players | games | turns per player (mean, min-max) | winner's tomb score (mean) "
              "| all tomb scores (mean) |")
        print("|---|---|---|---|---|")
        bought_games = [0] * table.size
        for players in (2, 3, 4):
            jobs = [(players, args.seed * 100000 + g, (-1,) * players, args.cards) for g in range(args.games)]
            results = list(pool.map(_run, jobs))
            turns = [r["turns"] for r in results]
            winners = [max(r["scores"]) for r in results]
            scores = [s for r in results for s in r["scores"]]
            print(f"| {players} | {len(results)} | {statistics.mean(turns):.1f} ({min(turns)}-{max(turns)}) | "
                  f"{statistics.mean(winners):.1f} | {statistics.mean(scores):.1f} |")
            if players == 2:
                for r in results:
                    for kind in {k for seat in r["bought"] for k in seat}:
                        bought_games[kind] += 1
        print("\n## Cards (2 players)\n")
        print("| card | level | cost | bought in games (self-play) | lover's win rate vs greedy |")
        print("|---|---|---|---|---|")
        worst = 0.0
        for kind in range(table.size):
            if table.level[kind] == 1:
                continue
            jobs = []
            for g in range(args.lover_games):
                lovers = (kind, -1) if g % 2 == 0 else (-1, kind)
                jobs.append((2, args.seed * 100000 + 50000 + kind * 1000 + g, lovers, args.cards))
            results = list(pool.map(_run, jobs))
            points = 0.0
            for g, r in enumerate(results):
                seat = 0 if g % 2 == 0 else 1
                points += (r["returns"][seat] + 1.0) / 2.0
            rate = points / len(results)
            worst = max(worst, rate)
            print(f"| {table.names[kind]} | {'II' if table.level[kind] == 2 else 'III'} | {table.cost[kind]} | "
                  f"{100.0 * bought_games[kind] / args.games:.0f}% | {100.0 * rate:.0f}% |")
        print(f"\nhighest lover win rate: {100.0 * worst:.0f}%; run time {time.time() - started:.0f} s",
              file=sys.stdout)


if __name__ == "__main__":
    main()
