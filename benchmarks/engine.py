"""Random-playout throughput of every game against OpenSpiel's C++ crazy_eights.

Both engines are driven by the same Python loop (legal actions, a uniform
random choice, chance sampled from the outcome list), so the ratio measures
the engines, not the loop. Times are CPU seconds of this process. Each row's
time is cut into slices, every game slice between two baseline slices, and the
row reports the median of the slices' ratios: drifts of the machine's speed
(frequency scaling, other processes) cancel out of each ratio, and a burst of
load spoils one slice rather than the row.
Goal: ratio >= 0.75 (``GOAL``) for every game and player count.

    make bench            # or: .venv/bin/python benchmarks/engine.py --seconds 3
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any, Callable, Mapping

import obelisk
from obelisk.core import TERMINAL, Game, GameInfo, State, sample_outcome

GOAL = 0.75
"""The least ratio to crazy_eights every game and player count should reach."""


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


def interleaved_ratio(
    new_state: Callable[[int], Any], baseline: Callable[[int], Any], seconds: float, rounds: int
) -> tuple[float, float, float, float]:
    """(ratio, steps/s, games/s, baseline steps/s) of ``new_state``'s random playouts against the baseline's.

    The time is cut into ``rounds`` slices, each game slice between two baseline
    slices; the ratio is the median of the slices' ratios, so a burst of load
    on the machine spoils one slice rather than the figure.
    """
    share = seconds / rounds
    before = playout_loop(baseline, share / 2)[0]
    ratios, steps, games, bases = [], [], [], []
    for _ in range(rounds):
        slice_steps, slice_games = playout_loop(new_state, share)
        after = playout_loop(baseline, share / 2)[0]
        base = (before + after) / 2
        ratios.append(slice_steps / base)
        steps.append(slice_steps)
        games.append(slice_games)
        bases.append(base)
        before = after
    return statistics.median(ratios), statistics.median(steps), statistics.median(games), statistics.median(bases)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per game and player count")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved slices per measurement (median taken)")
    parser.add_argument("--games", default="", help="comma-separated game ids (default: all)")
    args = parser.parse_args()

    import pyspiel

    baseline_game = pyspiel.load_game("crazy_eights")

    def baseline(_: int) -> Any:
        return baseline_game.new_initial_state()

    def row(name: str, players: int, new_state: Callable[[int], Any]) -> float:
        ratio, steps, games, base = interleaved_ratio(new_state, baseline, args.seconds, args.rounds)
        print(f"{name:<10} {players:>7} {steps:>12,.0f} {games:>10,.1f} {base:>10,.0f} {ratio:>7.2f}", end="")
        return ratio

    print(f"baseline: OpenSpiel crazy_eights (C++); median of {args.rounds} interleaved slices per row")
    print(f"{'game':<10} {'players':>7} {'steps/s':>12} {'games/s':>10} {'baseline':>10} {'ratio':>7}  goal >= {GOAL}")
    row("(idle)", 2, _IdleGame(2).new_initial_state)
    print("  floor: a game whose rules do nothing")
    wanted = {g for g in args.games.split(",") if g}
    for info in obelisk.list_games():
        if wanted and info.id not in wanted:
            continue
        for players in range(info.min_players, info.max_players + 1):
            ratio = row(info.id, players, obelisk.load(info.id, players).new_initial_state)
            print("  ok" if ratio >= GOAL else "  BELOW GOAL")


if __name__ == "__main__":
    main()
