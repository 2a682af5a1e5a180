"""The RLlib env: RLlib's observation keys, float masks, every seat's reward, the seat's own view only."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("ray.rllib", reason="the RLlib env needs ray[rllib] (the 'train' extra)")
pytest.importorskip("torch", reason="RLlib's masking module needs torch (the 'train' extra)")

from obelisk.adapters import pettingzoo as obelisk_pz  # noqa: E402
from obelisk.adapters import rllib  # noqa: E402


def test_a_game_through_the_rllib_env_masks_and_pays_every_seat() -> None:
    env = rllib.ObeliskRLlibEnv({"game": "valley", "players": 3})
    twin = obelisk_pz.raw_env("valley", players=3)
    observations, _ = env.reset(seed=5)
    twin.reset(seed=5)
    rng = np.random.default_rng(0)
    steps = 0
    while True:
        (agent, observation), = observations.items()
        assert env.observation_space[agent].contains(observation)
        assert agent == twin.agent_selection
        expected = twin.observe(agent)
        np.testing.assert_array_equal(observation["observations"], expected["observation"])
        np.testing.assert_array_equal(observation["action_mask"], expected["action_mask"].astype(np.float32))
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observations, rewards, terminateds, truncateds, _ = env.step({agent: action})
        twin.step(action)
        steps += 1
        if terminateds["__all__"]:
            break
    assert set(rewards) == {"seat_0", "seat_1", "seat_2"} and sum(rewards.values()) == pytest.approx(0.0)
    assert not truncateds["__all__"] and steps > 100


def test_env_config_needs_a_game_and_checks_it() -> None:
    with pytest.raises(ValueError, match="under 'game'"):
        rllib.ObeliskRLlibEnv({"players": 2})
    with pytest.raises(ValueError):
        rllib.ObeliskRLlibEnv({"game": "valley", "players": 9})


def test_registered_names_build_the_env() -> None:
    from ray.tune.registry import ENV_CREATOR, _global_registry

    assert "obelisk_valley" in rllib.register_envs()
    env = _global_registry.get(ENV_CREATOR, "obelisk_valley")({"players": 2})
    assert env.possible_agents == ["seat_0", "seat_1"]


def test_masked_module_spec_names_one_module_per_policy() -> None:
    spec = rllib.masked_module_spec(["a", "b"], {"fcnet_hiddens": [8]})
    assert set(spec.rl_module_specs) == {"a", "b"}
    assert spec.rl_module_specs["a"].model_config == {"fcnet_hiddens": [8]}
