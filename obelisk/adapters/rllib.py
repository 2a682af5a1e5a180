"""Every Obelisk game as an RLlib ``MultiAgentEnv``, with the keys RLlib's action-masking module reads.

>>> from ray.rllib.algorithms.ppo import PPOConfig
>>> from obelisk.adapters import rllib
>>> config = (PPOConfig().environment(rllib.ObeliskRLlibEnv, env_config={"game": "valley", "players": 2})
...           .multi_agent(policies={"shared"}, policy_mapping_fn=rllib.shared_policy)
...           .rl_module(rl_module_spec=rllib.masked_module_spec(["shared"])))

The env is the PettingZoo AEC env (``obelisk.adapters.pettingzoo.env``, so an
illegal action ends the game with -1 for its seat, as RLlib's unmasked env
check needs) behind RLlib's own ``PettingZooEnv``, which reports each decision of the seat
to act and every seat's final reward. Each observation is
``{"observations": float32 tensor, "action_mask": float32 0/1}``: the names
RLlib's ``ActionMaskingTorchRLModule`` expects, which adds ``log(mask)`` to
the logits so that a policy never samples an illegal id, in exploration,
inference and training alike. :func:`masked_module_spec` builds its spec.
``env_config`` is ``{"game": id, "players": n, **game options}``;
:func:`register_envs` also registers ``obelisk_<id>`` names for
``PPOConfig().environment("obelisk_valley")``.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

import numpy as np
from gymnasium import spaces
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
from ray.tune.registry import register_env

from obelisk.adapters import ENV_PREFIX
from obelisk.adapters import pettingzoo
from obelisk.core import registry

__all__ = ["ObeliskRLlibEnv", "masked_module_spec", "register_envs", "shared_policy"]


def _masked(observation: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    return {"observations": observation["observation"],
            "action_mask": observation["action_mask"].astype(np.float32)}


class ObeliskRLlibEnv(PettingZooEnv):
    """An Obelisk game for RLlib: ``env_config`` is ``{"game": id, "players": n, **game options}``.

    Agents are ``seat_0`` .. ``seat_<n-1>``; a bad game, player count or option
    raises the engine's ``ValueError`` when RLlib builds the env.
    """

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        options = dict(config or {})
        if "game" not in options:
            ids = [info.id for info in registry.games()]
            raise ValueError(f"env_config needs the game id under 'game' (one of {ids}), got keys {sorted(options)}")
        game_id = options.pop("game")
        # PettingZoo's usual wrappers: RLlib's env check samples unmasked actions, and an illegal one must
        # end the game (-1 for the offender) rather than raise.
        super().__init__(pettingzoo.env(game_id, action_labels=False, **options))
        # RLlib lists the agents from a set; seat order keeps them the same in every process.
        self.agents = list(self.env.possible_agents)
        self.possible_agents = list(self.env.possible_agents)
        inner = self.env.observation_space(self.env.possible_agents[0])
        space = spaces.Dict({
            "observations": inner["observation"],
            "action_mask": spaces.Box(0.0, 1.0, inner["action_mask"].shape, np.float32),
        })
        self.observation_spaces = {agent: space for agent in self.env.possible_agents}
        self.observation_space = spaces.Dict({agent: space for agent in self.env.possible_agents})

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        """Deal a new game (``seed`` as in the PettingZoo env); the first seat to act observes."""
        observations, infos = super().reset(seed=seed, options=options)
        return {agent: _masked(obs) for agent, obs in observations.items()}, infos

    def step(self, action: dict) -> tuple[dict, dict, dict, dict, dict]:  # type: ignore[override]
        """Apply the acting seat's action; report the next seat to act, or every seat at the end."""
        observations, rewards, terminateds, truncateds, infos = super().step(action)
        return ({agent: _masked(obs) for agent, obs in observations.items()}, rewards, terminateds, truncateds,
                infos)


def shared_policy(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    """Every seat plays the one policy ``"shared"`` (self-play): a ``policy_mapping_fn``."""
    return "shared"


def masked_module_spec(policies: Iterable[str] = ("shared",),
                       model_config: Mapping[str, Any] | None = None) -> MultiRLModuleSpec:
    """One ``ActionMaskingTorchRLModule`` (PPO) per policy id; ``model_config`` as for RLlib's default model."""
    config = dict(model_config or {})
    return MultiRLModuleSpec(rl_module_specs={
        policy: RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config=config) for policy in policies
    })


def register_envs() -> list[str]:
    """Register ``obelisk_<id>`` with RLlib for every registered game; ``env_config`` then omits ``game``."""
    names = []
    for info in registry.games():
        game_id = info.id
        name = ENV_PREFIX + game_id
        register_env(name, lambda config, game_id=game_id: ObeliskRLlibEnv({"game": game_id, **config}))
        names.append(name)
    return names
