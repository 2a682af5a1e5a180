"""The per-game PettingZoo modules: PettingZoo's test suite, action labels, state(), render modes, max_cycles."""

from __future__ import annotations

import functools
import importlib

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from obelisk.adapters import _spaces  # noqa: E402
from obelisk.adapters import pettingzoo as obelisk_pz  # noqa: E402
from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

# ``pettingzoo.test.state_test`` is also the name of a function the package exports; these are the module's parts.
pz_state = importlib.import_module("pettingzoo.test.state_test")

# Tomb's random games wander for hundreds of rounds; a low cap keeps every check fast.
GAMES = [("solomon", {"players": 2}), ("tomb", {"players": 2, "max_rounds": 4}), ("cleopatra", {"players": 3}),
         ("valley", {"players": 2})]
IDS = [game for game, _ in GAMES]
CYCLES = 60


def _module(game_id: str):
    return importlib.import_module(f"obelisk.adapters.pettingzoo.{game_id}_v0")


@pytest.mark.filterwarnings("ignore:Observation space for each agent:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.parametrize("game_id,kwargs", GAMES, ids=IDS)
def test_pettingzoo_api_seed_render_and_state_tests(game_id: str, kwargs: dict) -> None:
    module = _module(game_id)
    env = module.env(**kwargs)
    assert env.metadata["name"] == f"obelisk_{game_id}_v0"
    assert type(module.raw_env(**kwargs)) is obelisk_pz.ObeliskAECEnv
    api_test(env, num_cycles=CYCLES, verbose_progress=False)
    seed_test(functools.partial(module.env, **kwargs), num_cycles=CYCLES)
    render_test(functools.partial(module.env, **kwargs))
    env = module.env(**kwargs)
    pz_state.test_state_space(env)
    pz_state.test_state(env, num_cycles=CYCLES)


def test_the_generic_entry_point_is_the_same_env() -> None:
    from obelisk.adapters.pettingzoo import valley_v0

    ours, generic = valley_v0.raw_env(players=3), obelisk_pz.raw_env("valley", players=3)
    ours.reset(seed=5)
    generic.reset(seed=5)
    assert ours.state_.to_json() == generic.state_.to_json()
    assert ours.metadata == generic.metadata


@pytest.mark.parametrize("game_id,kwargs", GAMES, ids=IDS)
def test_labels_for_the_agent_to_act_only(game_id: str, kwargs: dict) -> None:
    env = _module(game_id).raw_env(**kwargs)
    env.reset(seed=3)
    for agent in env.agent_iter(200):
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            assert info == {}
            env.step(None)
            continue
        state = env.state_
        assert info["action_labels"] == {a: state.action_to_string(a) for a in state.legal_actions()}
        assert all(env.infos[other] == {} for other in env.agents if other != agent)
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_action_labels_false_leaves_infos_empty_and_the_game_unchanged() -> None:
    from obelisk.adapters.pettingzoo import valley_v0

    quiet, told = valley_v0.raw_env(players=2, action_labels=False), valley_v0.raw_env(players=2)
    quiet.reset(seed=4)
    told.reset(seed=4)
    for agent in quiet.agent_iter(150):
        obs, _, terminated, truncated, info = quiet.last()
        assert info == {} and agent == told.agent_selection
        np.testing.assert_array_equal(obs["observation"], told.observe(agent)["observation"])
        action = None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[-1])
        quiet.step(action)
        told.step(action)
    with pytest.raises(ValueError, match="action_labels must be True or False"):
        valley_v0.env(players=2, action_labels="no")


@pytest.mark.parametrize("game_id,kwargs", GAMES, ids=IDS)
def test_state_is_every_seats_own_tensor_in_seat_order(game_id: str, kwargs: dict) -> None:
    env = _module(game_id).raw_env(**kwargs)
    env.reset(seed=8)
    n = env.game.num_players
    assert env.state_space.shape == (n * _spaces.tensor_size(env.game),)
    for agent in env.agent_iter(30):
        obs, _, terminated, truncated, _ = env.last()
        parts = np.split(env.state(), n)
        for seat, part in enumerate(parts):
            assert np.array_equal(part, env.observe(f"seat_{seat}")["observation"])
        assert env.state_space.contains(env.state())
        env.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))


def test_max_cycles_truncates_after_cycles_times_agents_decisions() -> None:
    env = obelisk_pz.raw_env("valley", players=2, max_cycles=3)
    env.reset(seed=1)
    decisions, ends = 0, {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            ends[agent] = (reward, terminated, truncated)
            env.step(None)
            continue
        decisions += 1
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert decisions == 6
    assert ends == {"seat_0": (0.0, False, True), "seat_1": (0.0, False, True)}
    assert not env.state_.is_terminal()
    for bad in (0, -1, 2.0, True, "3"):
        with pytest.raises(ValueError, match="max_cycles must be None or a positive int"):
            obelisk_pz.env("valley", players=2, max_cycles=bad)
