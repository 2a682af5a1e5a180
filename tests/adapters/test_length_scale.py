"""OpenSpiel's bounds hold, and the information state tensor's move counts are usable, on seeded playouts.

``max_game_length`` (and ``max_chance_nodes_in_history``, which OpenSpiel sets
to it for a Python game) is a true bound but far above real games, so the
tensor divides by ``length_scale`` instead: at the end of a typical game of
random or greedy bots its progress feature is near 1, not ~0.
"""

from __future__ import annotations

import random
import statistics

import pytest

pyspiel = pytest.importorskip("pyspiel")

import obelisk  # noqa: E402
from obelisk.adapters import openspiel  # noqa: E402
from obelisk.bots import make_bot  # noqa: E402
from tests.adapters.common import CASES, GAME_CASES  # noqa: E402

SEEDS = range(3)


def _playout(game: pyspiel.Game, bot: str, seed: int) -> tuple[pyspiel.State, int]:
    """A game of ``bot`` at every seat through pyspiel, chance drawn from ``seed``; the end and its chance count."""
    rng = random.Random(seed)
    bots = [make_bot(bot, game.obelisk, seat, seed) for seat in range(game.num_players())]
    state, chance = game.new_initial_state(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, weights)[0])
            chance += 1
        else:
            state.apply_action(bots[state.current_player()].choose(openspiel.obelisk_state(state)))
    return state, chance


def _check(game_id: str, players: int, bot: str) -> None:
    game = openspiel.load(game_id, players)
    progress, own = [], []
    for seed in SEEDS:
        state, chance = _playout(game, bot, seed)
        assert len(state.history()) <= game.max_game_length()
        assert chance <= game.max_chance_nodes_in_history()
        tensor = state.information_state_tensor(0)
        assert tensor[-1] == pytest.approx(len(state.history()) / game.length_scale)
        progress.append(tensor[-1])
        own.append(max(tensor[game.observation_tensor_size():-1]))
    assert 0.3 <= statistics.median(progress) <= 6.0, progress  # Tomb's random games run long
    assert statistics.median(own) >= 0.03, own  # a seat's most frequent action id, as a share of its typical turns


@pytest.mark.parametrize("game_id,players", CASES)
def test_random_playouts(game_id: str, players: int) -> None:
    _check(game_id, players, "random")


@pytest.mark.parametrize("game_id,players", GAME_CASES)
def test_greedy_playouts(game_id: str, players: int) -> None:
    _check(game_id, players, "greedy")


def test_every_game_has_a_length_scale_far_below_its_bound() -> None:
    for info in obelisk.list_games():
        if info.id in openspiel.LENGTH_SCALES:
            game = obelisk.load(info.id, info.max_players)
            assert openspiel.length_scale(game) * 5 <= game.max_game_length()
