"""Time a time-budgeted search really spends per move, in seeded games against greedy.

A time budget ends early once its choice is decided (``obelisk.bots.ismcts.decided``).
This plays ``--games`` seeded games per game, the search in seat 0 and greedy
elsewhere, and reports for the search's decisions with more than one legal
action how many ended early and the mean wall time each took, and the wall
time per game — what a strength run at that budget costs.

    .venv/bin/python benchmarks/search_time.py --games valley,tomb --count 1 --seed 7
"""

from __future__ import annotations

import argparse
import time

import obelisk
from obelisk.bots import make_bot
from obelisk.bots.ismcts import ISMCTSBot


def play(game: obelisk.Game, spec: str, seed: int) -> tuple[list[float], int]:
    """One game: the wall time of each searched decision and how many of them ended early."""
    bots = [make_bot(spec, game, 0, seed)]
    bots += [make_bot("greedy", game, seat, seed) for seat in range(1, game.num_players)]
    search = bots[0]
    assert isinstance(search, ISMCTSBot), "search_time measures search bots (ismcts, cheater)"
    state = game.new_initial_state(seed)
    times: list[float] = []
    early = 0
    while not state.is_terminal():
        actor = state.current_player()
        if actor < 0:
            state.apply_action(state.sample_chance())
            continue
        started = time.perf_counter()
        action = bots[actor].choose(state)
        if actor == 0 and len(state.legal_actions()) > 1:
            times.append(time.perf_counter() - started)
            early += search.stopped_decided
        state.apply_action(action)
    return times, early


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--spec", default="ismcts:1s", help="search bot spec with a time budget")
    parser.add_argument("--games", default="", help="comma-separated game ids (default: all)")
    parser.add_argument("--count", type=int, default=1, help="games per game id")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    wanted = [g for g in args.games.split(",") if g] or [info.id for info in obelisk.list_games()]
    print(f"{args.spec} against greedy, {args.count} game(s) each")
    print(f"{'game':<10} {'players':>7} {'searched':>9} {'early':>6} {'s/decision':>11} {'s/game':>7}")
    for game_id in wanted:
        info = obelisk.core.game_class(game_id).info
        game = obelisk.load(game_id, max(2, info.min_players))
        times: list[float] = []
        early = 0
        for index in range(args.count):
            game_times, game_early = play(game, args.spec, args.seed + index)
            times += game_times
            early += game_early
        print(f"{game_id:<10} {game.num_players:>7} {len(times):>9} {early / len(times):>6.0%} "
              f"{sum(times) / len(times):>11.3f} {sum(times) / args.count:>7.0f}")


if __name__ == "__main__":
    main()
