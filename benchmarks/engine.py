"""Random-playout throughput of every game against OpenSpiel's C++ crazy_eights.

Both engines are driven by the same Python loop (legal actions, a uniform
random choice, chance sampled from the outcome list), so the ratio measures
the engines, not the loop. Times are CPU seconds of this process. The baseline is measured right before and right
after each game and averaged, so drifts of the machine's speed during the run
(frequency scaling, other processes) cancel out of each ratio.
Goal: ratio >= 0.5 for every game and player count.

    make bench            # or: .venv/bin/python benchmarks/engine.py --seconds 3
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any, Callable, Mapping

import obelisk
from obelisk.core import TERMINAL, Game, GameInfo, State, sample_outcome


def random_game(state: Any, rng: random.Random) -> int:
    """Play ``state`` to the end with uniform choices; return the number of steps.

    Works for Obelisk and pyspiel states alike, so both engines run the same loop.
    """
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            action = sample_outcome(state.chance_outcomes(), rng)
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        steps += 1
    return steps


def playout_loop(new_state: Callable[[int], Any], seconds: float) -> tuple[float, float]:
    """(steps/s, games/s) of uniformly random games for about ``seconds`` of this process's CPU time.

    CPU time rather than wall time, so other jobs on the machine do not
    distort the figures.
    """
    rng = random.Random(0)
    steps = games = 0
    started = time.process_time()
    while time.process_time() - started < seconds:
        steps += random_game(new_state(games), rng)
        games += 1
    elapsed = time.process_time() - started
    return steps / elapsed, games / elapsed


class _IdleState(State):
    """A two-seat game whose rules do nothing: 100 turns of five equal choices.

    Run through the same protocol, it measures the floor every game pays per
    step (the loop, legality checks, history) before its own rules run.
    """

    def _init(self) -> None:
        self.turns = 0

    def _current_player(self) -> int:
        return TERMINAL if self.turns >= IDLE_TURNS else self.turns % 2

    def _legal_actions(self) -> list[int]:
        return [0, 1, 2, 3, 4]

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return []

    def _apply_action(self, action: int) -> None:
        self.turns += 1

    def _action_to_string(self, action: int) -> str:
        return f"choice {action}"

    def _rank_keys(self) -> list[Any]:
        return [0, 0]

    def _scores(self) -> list[dict[str, Any]]:
        return [{"total": 0, "breakdown": {}}] * 2

    def _observation(self, seat: int | None) -> dict[str, Any]:
        return {"turns": self.turns}

    def _resample(self, seat: int, rng: random.Random) -> State:
        return self.clone()

    def _render(self) -> str:
        return f"turn {self.turns}"

    def _evaluate(self) -> list[float]:
        return [0.0, 0.0]


class _IdleGame(Game):
    info = GameInfo("idle", "Idle", 2, 2, "rules that do nothing (the benchmark floor)")

    def num_distinct_actions(self) -> int:
        return 5

    def max_chance_outcomes(self) -> int:
        return 0

    def max_game_length(self) -> int:
        return IDLE_TURNS

    def render_observation(self, view: Mapping[str, Any]) -> str:
        return str(view)

    def new_initial_state(self, seed: int = 0) -> State:
        return _IdleState(self, seed)


IDLE_TURNS = 100


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--games", default="", help="comma-separated game ids (default: all)")
    args = parser.parse_args()

    import pyspiel

    baseline_game = pyspiel.load_game("crazy_eights")

    def baseline() -> float:
        return playout_loop(lambda _: baseline_game.new_initial_state(), args.seconds / 2)[0]

    print("baseline: OpenSpiel crazy_eights (C++), steps/s measured around each game")
    print(f"{'game':<10} {'players':>7} {'steps/s':>12} {'games/s':>10} {'baseline':>10} {'ratio':>7}  goal >= 0.5")
    before = baseline()
    idle_steps, idle_games = playout_loop(_IdleGame(2).new_initial_state, args.seconds)
    after = baseline()
    idle_ratio = idle_steps / ((before + after) / 2)
    before = after
    print(f"{'(idle)':<10} {2:>7} {idle_steps:>12,.0f} {idle_games:>10,.1f} {before:>10,.0f} {idle_ratio:>7.2f}"
          "  floor: a game whose rules do nothing")
    wanted = {g for g in args.games.split(",") if g}
    for info in obelisk.games():
        if wanted and info.id not in wanted:
            continue
        for players in range(info.min_players, info.max_players + 1):
            game = obelisk.load(info.id, players)
            steps, games = playout_loop(game.new_initial_state, args.seconds)
            after = baseline()
            base_steps = (before + after) / 2
            before = after
            ratio = steps / base_steps
            mark = "ok" if ratio >= 0.5 else "BELOW GOAL"
            print(f"{info.id:<10} {players:>7} {steps:>12,.0f} {games:>10,.1f} {base_steps:>10,.0f} {ratio:>7.2f}  {mark}")


if __name__ == "__main__":
    main()
