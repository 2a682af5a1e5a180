"""What the rules add to a frame for the seat to act: the final marks, the decision and progress, the shortcuts.

The server builds these for every frame of the seat to act (the marks once per version): ``State.is_final``
of every legal action, ``Game.render_decision`` and ``Game.render_progress`` of the seat's view, and
``obelisk.core.shortcuts.offered``. Timed in this process (CPU time) at every decision of seeded random
games, as the mean and the worst per decision; the marks are also timed the way a game that does not
override ``_is_final`` would make them (``_reveals``, then a second look ahead on a copy), for comparison.
Goal: the marks of a decision take less than ``GOAL_MS`` on average for every game (rules as plain Python).

    .venv/bin/python benchmarks/frame_words.py            # every game, 2 games each
    .venv/bin/python benchmarks/frame_words.py --games 1 --only solomon
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any, Callable

import obelisk
from obelisk.core import State
from obelisk.core.shortcuts import offered

GOAL_MS = 1.0
"""The most the final marks of one decision may take on average (milliseconds of CPU)."""
CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("solomon", 2, {}), ("solomon", 4, {}), ("tomb", 2, {"max_rounds": 60}), ("tomb", 4, {"max_rounds": 40}),
    ("cleopatra", 3, {}), ("cleopatra", 5, {}), ("valley", 2, {}), ("valley", 4, {}),
]


def _twice(state: State, action: int) -> bool:
    """The mark as the core's default hook would make it where ``_reveals`` already looks ahead: two copies."""
    if state._reveals(action):
        return True
    after = state.clone()
    after._apply_action(action)
    return after._current_player() != state._current_player()


def _timed(work: Callable[[], Any]) -> float:
    started = time.process_time()
    work()
    return time.process_time() - started


def measure(game_id: str, players: int, options: dict[str, Any], games: int) -> dict[str, list[float]]:
    """Seconds per decision of each part, over ``games`` seeded random games."""
    times: dict[str, list[float]] = {"marks": [], "twice": [], "words": [], "shortcuts": [], "legal": []}
    for seed in range(games):
        state = obelisk.load(game_id, players, **options).new_initial_state(seed)
        game = state.game
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            seat = state.current_player()
            legal = state.legal_actions()
            view = state.observation(seat)
            times["legal"].append(len(legal))
            times["marks"].append(_timed(lambda: [state.is_final(a) for a in legal]))
            times["twice"].append(_timed(lambda: [_twice(state, a) for a in legal]))
            times["words"].append(_timed(lambda: (game.render_decision(view), game.render_progress(view))))
            times["shortcuts"].append(_timed(lambda: offered(state, seat)))
            state.apply_action(rng.choice(legal))
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2, help="seeded games per game and player count")
    parser.add_argument("--only", help="one game id")
    args = parser.parse_args()
    print(f"{'game':<14}{'legal':>7}{'marks ms':>18}{'two copies ms':>18}{'words ms':>16}{'shortcuts ms':>18}")
    failed = []
    for game_id, players, options in CASES:
        if args.only and game_id != args.only:
            continue
        times = measure(game_id, players, options, args.games)

        def cell(name: str) -> str:
            values = times[name]
            return f"{statistics.mean(values) * 1e3:8.3f} / {max(values) * 1e3:6.2f}"

        legal = statistics.mean(times["legal"])
        print(f"{game_id + f'-{players}p':<14}{legal:>7.1f}{cell('marks'):>18}{cell('twice'):>18}{cell('words'):>16}"
              f"{cell('shortcuts'):>18}")
        if statistics.mean(times["marks"]) * 1e3 >= GOAL_MS:
            failed.append(f"{game_id}-{players}p")
    print("(mean / worst per decision; marks: State.is_final of every legal action)")
    print(f"goal {'met' if not failed else 'missed by ' + ', '.join(failed)}: marks under {GOAL_MS} ms on average")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
