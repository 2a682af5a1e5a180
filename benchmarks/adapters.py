"""Adapter figures: playout speed native vs through the adapters, and our ISMCTS vs OpenSpiel's.

1. Throughput: uniformly random games driven by one Python loop, natively,
   through ``pyspiel`` (``obelisk_<id>``) and through the PettingZoo env;
   prints steps/s, the ratio to native and, for pyspiel, the ratio to
   OpenSpiel's own Python ``python_kuhn_poker`` in the same loop.
2. Strength: ``ismcts:<T>s`` from ``obelisk.bots`` against OpenSpiel's
   Python ``ismcts.ISMCTSBot`` (our determinizer via ``set_resampler``) with
   the same wall time per move, 2 players, seats alternated, chance from a
   shared seed. OpenSpiel's leaves are scored by the engine's ``evaluate()``
   unless ``--openspiel-evaluator rollout``. Goal: ours scores >= 60% (a win
   is 1, a tie 1/2). OpenSpiel's C++ ``ISMCTSBot`` cannot determinize a
   Python game in open_spiel 2.0 (docs/research.md), so the Python bot
   stands in.

    .venv/bin/python benchmarks/adapters.py --seconds 2 --games 20 --move-time 0.1
    .venv/bin/python benchmarks/adapters.py --game valley --skip-throughput

``--toy`` adds the test-only High Card game (tests/core/toy.py).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

import obelisk
from obelisk.bots import make_bot
from obelisk.core import registry, sample_outcome

from engine import playout_loop


def _register_toy() -> None:
    from tests.core.toy import HighCardGame

    registry.register(HighCardGame)


def _pettingzoo_loop(game_id: str, players: int, seconds: float) -> float:
    """Agent steps/s of random games through the (wrapped) PettingZoo env, observations included."""
    from obelisk.adapters.pettingzoo import env as make_env

    env = make_env(game_id, players=players)
    rng = np.random.default_rng(0)
    steps = episode = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        env.reset(seed=episode)
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
                steps += 1
        episode += 1
    return steps / (time.perf_counter() - started)


def kuhn_rate(seconds: float) -> float:
    """Steps/s of OpenSpiel's own Python game ``python_kuhn_poker`` in the same loop: the yardstick."""
    import open_spiel.python.games  # noqa: F401  (registers the python_* games)
    import pyspiel

    kuhn = pyspiel.load_game("python_kuhn_poker")
    return playout_loop(lambda _: kuhn.new_initial_state(), seconds)[0]


def throughput(game_id: str, players: int, seconds: float, kuhn: float) -> None:
    from obelisk.adapters import openspiel

    native = obelisk.load(game_id, players)
    spiel = openspiel.load(game_id, players)
    native_rate = playout_loop(native.new_initial_state, seconds)[0]
    spiel_rate = playout_loop(lambda _: spiel.new_initial_state(), seconds)[0]
    try:
        native.observation_tensor_size()
        pz_rate = _pettingzoo_loop(game_id, players, seconds)
        pz = f"{pz_rate:>10.0f} {pz_rate / native_rate:>6.2f}x"
    except TypeError:
        pz = f"{'no tensor':>10} {'':>7}"
    print(f"{game_id:<10} {players}p  native {native_rate:>10.0f}  pyspiel {spiel_rate:>10.0f} "
          f"{spiel_rate / native_rate:>6.2f}x ({spiel_rate / kuhn:.2f}x kuhn)  pettingzoo (decisions) {pz}")


def _timed_openspiel_bot(game: Any, move_time: float, seed: int, evaluator: str) -> Any:
    """OpenSpiel's Python ISMCTSBot with a wall-time budget per move instead of a simulation count."""
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from obelisk.adapters import openspiel

    class TimedISMCTSBot(ismcts.ISMCTSBot):
        """Runs simulations until ``move_time`` has passed (OpenSpiel's loop, with a deadline)."""

        def run_search(self, state: pyspiel.State) -> list[tuple[int, float]]:
            self.reset()
            legal_actions = state.legal_actions()
            if len(legal_actions) == 1:
                return [(legal_actions[0], 1.0)]
            self._root_node = self.create_new_node(state)
            deadline = time.perf_counter() + move_time
            self.simulations = 0
            while True:
                self.run_simulation(self.sample_root_state(state))
                self.simulations += 1
                # The first simulation only expands the root; a policy needs a second.
                if self.simulations >= 2 and time.perf_counter() >= deadline:
                    break
            return self.get_final_policy(state, self._root_node)

    leaf = (openspiel.EngineEvaluator() if evaluator == "engine"
            else mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed)))
    bot = TimedISMCTSBot(
        game,
        leaf,
        uct_c=2.0,
        max_simulations=0,
        random_state=np.random.RandomState(seed + 1),
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
    )
    bot.set_resampler(openspiel.make_resampler(seed + 2))
    return bot


def play_match_game(game_id: str, index: int, move_time: float, ours_seat: int, toy: bool, evaluator: str
                    ) -> tuple[float, int, int]:
    """One game; returns (our score in {0, 1/2, 1}, our mean iterations, OpenSpiel's mean simulations)."""
    if toy:
        _register_toy()
    from obelisk.adapters import openspiel

    spiel_game = openspiel.load(game_id, 2)
    ours = make_bot(f"ismcts:{move_time}s", spiel_game.obelisk, ours_seat, seed=index)
    theirs = _timed_openspiel_bot(spiel_game, move_time, seed=1000 + index, evaluator=evaluator)
    rng = random.Random(f"adapter-bench:{game_id}:{index}")
    state = spiel_game.new_initial_state()
    ours_iterations: list[int] = []
    their_simulations: list[int] = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
        elif state.current_player() == ours_seat:
            inner = openspiel.obelisk_state(state)
            action = ours.choose(inner)
            if len(state.legal_actions()) > 1:
                ours_iterations.append(ours.last_iterations)
            state.apply_action(action)
        else:
            action = theirs.step(state)
            if len(state.legal_actions()) > 1:
                their_simulations.append(theirs.simulations)
            state.apply_action(action)
    mine, other = state.returns()[ours_seat], state.returns()[1 - ours_seat]
    score = 1.0 if mine > other else 0.5 if mine == other else 0.0
    return score, int(np.mean(ours_iterations or [0])), int(np.mean(their_simulations or [0]))


def _wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def strength(game_id: str, games: int, move_time: float, workers: int, toy: bool, evaluator: str) -> None:
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(play_match_game, game_id, i, move_time, i % 2, toy, evaluator) for i in range(games)]
        results = [f.result() for f in futures]
    scores = [r[0] for r in results]
    total = sum(scores)
    low, high = _wilson(total, games)
    wins = sum(1 for s in scores if s == 1.0)
    ties = sum(1 for s in scores if s == 0.5)
    print(f"{game_id:<10} ours {total / games:6.1%} (95% CI {low:.0%}-{high:.0%}; {wins} wins, {ties} ties, "
          f"{games - wins - ties} losses of {games})  iterations/move ours {np.mean([r[1] for r in results]):.0f} "
          f"vs OpenSpiel {np.mean([r[2] for r in results]):.0f}  [{time.perf_counter() - started:.0f}s]")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", help="game id (repeatable; default: every registered game)")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per throughput measurement")
    parser.add_argument("--games", type=int, default=20, help="games per strength match")
    parser.add_argument("--move-time", type=float, default=0.1, help="wall seconds per move for both bots")
    parser.add_argument("--workers", type=int, default=2, help="processes for the strength matches")
    parser.add_argument("--openspiel-evaluator", choices=("engine", "rollout"), default="engine",
                        help="leaf values for OpenSpiel's bot: the engine's evaluate() (default; random "
                             "rollouts through pyspiel are too slow for a useful search on long games) "
                             "or one random rollout")
    parser.add_argument("--skip-throughput", action="store_true")
    parser.add_argument("--skip-strength", action="store_true")
    parser.add_argument("--toy", action="store_true", help="include the test-only High Card game")
    args = parser.parse_args()
    if args.toy:
        _register_toy()
    infos = {info.id: info for info in obelisk.list_games()}
    game_ids = args.game or sorted(infos)
    if not args.skip_throughput:
        kuhn = kuhn_rate(args.seconds)
        print("Random-playout steps/s (chance included; PettingZoo counts decisions and builds observations); "
              f"OpenSpiel's python_kuhn_poker: {kuhn:.0f}")
        for game_id in game_ids:
            info = infos[game_id]
            for players in range(info.min_players, info.max_players + 1):
                throughput(game_id, players, args.seconds, kuhn)
    if not args.skip_strength:
        print(f"\nismcts:{args.move_time}s (obelisk.bots) vs OpenSpiel Python ISMCTSBot "
              f"({args.openspiel_evaluator} leaves), {args.move_time}s per move, 2 players:")
        for game_id in game_ids:
            if infos[game_id].min_players <= 2 <= infos[game_id].max_players:
                strength(game_id, args.games, args.move_time, args.workers, args.toy, args.openspiel_evaluator)


if __name__ == "__main__":
    main()
