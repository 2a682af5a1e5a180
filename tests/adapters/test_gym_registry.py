"""Gymnasium ids: ``gymnasium.make``, ``make_vec`` and ``env.spec`` for every game."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import gymnasium  # noqa: E402
import obelisk  # noqa: E402
from obelisk.adapters import gym as obelisk_gym  # noqa: E402

IDS = {"solomon": "obelisk/Solomon-v0", "tomb": "obelisk/Tomb-v0", "cleopatra": "obelisk/Cleopatra-v0",
       "valley": "obelisk/Valley-v0"}
SMALL = {"solomon": {"players": 2}, "tomb": {"players": 2, "max_rounds": 3}, "cleopatra": {"players": 3},
         "valley": {"players": 2}}


@pytest.mark.parametrize("game_id", sorted(IDS))
def test_make_builds_the_game_with_its_kwargs_in_the_spec(game_id: str) -> None:
    env = gymnasium.make(IDS[game_id], seat=1, opponents="random", **SMALL[game_id])
    assert env.spec.id == IDS[game_id]
    assert env.spec.kwargs == {"game_id": game_id, "seat": 1, "opponents": "random", **SMALL[game_id]}
    inner = env.unwrapped
    assert (inner.game.id, inner.seat, inner.game.num_players) == (game_id, 1, SMALL[game_id]["players"])
    obs, info = env.reset(seed=4)
    assert env.observation_space.contains(obs)
    obs, *_ = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    again = gymnasium.make(env.spec)
    assert again.unwrapped.game.options == inner.game.options
    assert np.array_equal(again.reset(seed=4)[0], env.reset(seed=4)[0])


def test_every_registered_game_has_an_id() -> None:
    assert [obelisk_gym.env_id(g.id) for g in obelisk.list_games()] == obelisk_gym.register_envs()
    assert set(IDS.values()) <= set(gymnasium.registry)


def test_make_refuses_bad_kwargs_with_the_engines_error() -> None:
    with pytest.raises(ValueError, match="players must be"):
        gymnasium.make("obelisk/Cleopatra-v0", players=2)
    with pytest.raises(ValueError, match="unknown option"):
        gymnasium.make("obelisk/Valley-v0", colour="blue")
    with pytest.raises(ValueError, match="seat must be"):
        gymnasium.make("obelisk/Valley-v0", players=2, seat=2)


def test_make_vec_steps_several_games() -> None:
    envs = gymnasium.make_vec("obelisk/Valley-v0", num_envs=2, vectorization_mode="sync", players=2,
                              opponents="random")
    assert envs.spec.id == "obelisk/Valley-v0"
    obs, info = envs.reset(seed=[1, 2])
    assert obs.shape == (2, obelisk.load("valley", 2).observation_tensor_size())
    assert not np.array_equal(obs[0], obs[1]) or not np.array_equal(info["action_mask"][0], info["action_mask"][1])
    for _ in range(5):
        actions = np.array([int(np.flatnonzero(mask)[0]) for mask in info["action_mask"]])
        obs, reward, terminated, truncated, info = envs.step(actions)
        assert envs.observation_space.contains(obs)
    envs.close()


def test_module_prefixed_id_needs_no_import() -> None:
    code = ("import gymnasium; e = gymnasium.make('obelisk.adapters.gym:obelisk/Valley-v0', players=2, "
            "opponents='random'); print(e.spec.id, e.reset(seed=0)[0].shape)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split()[0] == "obelisk/Valley-v0"


def test_make_vec_async_with_dict_observations() -> None:
    envs = gymnasium.make_vec("obelisk/Valley-v0", num_envs=2, vectorization_mode="async", players=2,
                              opponents="random", dict_observation=True)
    obs, _ = envs.reset(seed=0)
    for _ in range(5):
        actions = np.array([int(np.flatnonzero(mask)[0]) for mask in obs["action_mask"]])
        obs, *_ = envs.step(actions)
        assert envs.observation_space.contains(obs)
    assert [m.dtype for m in envs.call("action_masks")] == [np.bool_, np.bool_]
    envs.close()
