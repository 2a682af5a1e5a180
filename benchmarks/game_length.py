"""How many turns each player takes in a game, by game and player count: the lobby's "turns each".

Greedy bots play every seat from fixed seeds; at the end the public view says how many rounds were played
(Solomon, Tomb, Cleopatra: every player takes one turn a round) or how many turns each seat took (Valley).
The script prints the median and the range per player count, and the span of medians over the player
counts that ``GameInfo.turns`` holds (docs/web.md "Lobby").

    .venv/bin/python benchmarks/game_length.py [--games 10] [--only tomb,valley] [--jobs 2]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import obelisk
from obelisk.bots import make_bot


def turns_each(view: dict[str, Any]) -> float:
    """Turns per player of a finished game, from its public view."""
    if isinstance(view["players"], list) and "turns" in view["players"][0]:
        turns = [p["turns"] for p in view["players"]]
        return sum(turns) / len(turns)
    return float(view["round"])


def play(game_id: str, players: int, seed: int) -> float:
    """One greedy self-play game from ``seed``: its turns per player."""
    game = obelisk.load(game_id, players)
    state = game.new_initial_state(seed)
    bots = [make_bot("greedy", game, seat, seed) for seat in range(players)]
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(bots[state.current_player()].choose(state))
    return turns_each(state.observation(None))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games per game and player count")
    parser.add_argument("--only", default="", help="comma-separated game ids (default: every game)")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    infos = [i for i in obelisk.list_games() if not args.only or i.id in args.only.split(",")]
    started = time.monotonic()
    with ProcessPoolExecutor(args.jobs) as pool:
        for info in infos:
            medians = []
            for players in range(info.min_players, info.max_players + 1):
                runs = list(pool.map(play, [info.id] * args.games, [players] * args.games, range(args.games)))
                medians.append(statistics.median(runs))
                print(f"{info.id} {players} players: median {medians[-1]:.1f} turns each "
                      f"(range {min(runs):.0f}-{max(runs):.0f}, {args.games} games)", flush=True)
            print(f"{info.id}: turns each {min(medians):.0f}-{max(medians):.0f}", flush=True)
    print(f"{time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
