"""``action_masks()`` and the Dict observation mode of the Gymnasium env."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import gymnasium  # noqa: E402
import obelisk  # noqa: E402
from gymnasium import spaces  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from obelisk.adapters.gym import make  # noqa: E402

SMALL = [("solomon", 2, {}), ("tomb", 2, {"max_rounds": 3}), ("cleopatra", 3, {}), ("valley", 2, {})]


@pytest.mark.parametrize("dict_observation", [False, True], ids=["box", "dict"])
@pytest.mark.parametrize("game_id,players,options", SMALL, ids=[case[0] for case in SMALL])
def test_check_env_in_both_modes(game_id: str, players: int, options: dict, dict_observation: bool) -> None:
    env = make(game_id, seat=players - 1, opponents="random", players=players, dict_observation=dict_observation,
               **options)
    check_env(env, skip_render_check=True)


def test_dict_observation_holds_the_tensor_and_the_mask() -> None:
    env = make("valley", seat=0, opponents="random", players=2, dict_observation=True)
    assert isinstance(env.observation_space, spaces.Dict)
    assert isinstance(env.observation_space["action_mask"], spaces.MultiBinary)
    assert env.observation_space["observation"] == make("valley", players=2).observation_space
    obs, info = env.reset(seed=5)
    assert env.observation_space.contains(obs)
    assert np.array_equal(obs["action_mask"], info["action_mask"])
    state = env.unwrapped._state
    expected = np.asarray(env.game.observation_tensor(state.observation(0)), dtype=np.float32)
    assert np.array_equal(obs["observation"], expected)


@pytest.mark.parametrize("game_id,players,options", SMALL, ids=[case[0] for case in SMALL])
def test_action_masks_are_the_learners_legal_actions(game_id: str, players: int, options: dict) -> None:
    env = make(game_id, seat=0, opponents="random", players=players, **options)
    _, info = env.reset(seed=2)
    for _ in range(20):
        masks = env.action_masks()
        assert masks.dtype == np.bool_ and masks.shape == (env.action_space.n,)
        assert list(np.flatnonzero(masks)) == env.unwrapped._state.legal_actions()
        assert np.array_equal(masks, info["action_mask"].astype(bool))
        _, _, terminated, _, info = env.step(int(np.flatnonzero(masks)[0]))
        if terminated:
            assert not env.action_masks().any()
            break


def test_action_masks_through_gymnasium_make_and_make_vec() -> None:
    env = gymnasium.make("obelisk/Valley-v0", players=2, opponents="random")
    _, info = env.reset(seed=3)
    assert np.array_equal(env.get_wrapper_attr("action_masks")(), info["action_mask"].astype(bool))
    envs = gymnasium.make_vec("obelisk/Valley-v0", num_envs=2, players=2, opponents="random")
    _, info = envs.reset(seed=3)
    masks = envs.call("action_masks")
    assert all(np.array_equal(m, i.astype(bool)) for m, i in zip(masks, info["action_mask"]))
    envs.close()
    assert obelisk.load("valley", 2).num_distinct_actions() == len(masks[0])
