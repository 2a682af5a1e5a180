"""Every Obelisk game as a PettingZoo AEC environment ``obelisk_<id>_v0``.

>>> from obelisk.adapters.pettingzoo import valley_v0     # or env("valley", players=2)
>>> e = valley_v0.env(players=2)
>>> e.reset(seed=7)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     e.step(None if terminated or truncated else policy(obs))

Agents are the seats ``seat_0`` .. ``seat_<n-1>``. An observation is
``{"observation": float32 tensor, "action_mask": int8 0/1}`` built from the
seat's own view (the mask is all zeros for seats not to act). Actions are
``Discrete(num_distinct_actions)`` ids. Dice, draws and shuffles are resolved
inside ``reset`` and ``step`` from a generator seeded by ``reset(seed=...)``,
so equal seeds give equal games. Rewards are the engine's rank-based returns,
paid when the game ends; games always end within ``max_game_length``, so
nothing is truncated unless ``max_cycles`` caps the decisions. The agent to
act finds its legal actions' labels in ``infos[agent]["action_labels"]``
(``action_labels=False`` leaves every ``infos`` entry empty, for trainers
that need string keys or want the time back).
``render()`` shows the view of the agent to act (mode ``"human"`` prints it,
``"ansi"`` returns it). ``state()`` is the omniscient tensor for centralised
critics: every seat's own tensor, in seat order (see ``state``).
The modules ``solomon_v0``, ``tomb_v0``, ``cleopatra_v0`` and ``valley_v0``
give each game its own ``env()`` / ``raw_env()``, as PettingZoo's suites do.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from obelisk.adapters import ENV_PREFIX
from obelisk.adapters import _spaces
from obelisk.core import Game, State, codec, registry
from obelisk.core.rng import make_rng, resolve_chance
from obelisk.core.seeds import MAX_SEED

__all__ = ["ObeliskAECEnv", "env", "raw_env"]


def env(game_id: str, players: int | None = None, render_mode: str | None = None, max_cycles: int | None = None,
        **options: Any) -> AECEnv:
    """The AEC env with PettingZoo's usual safety wrappers (an illegal action ends the game at -1)."""
    wrapped: AECEnv = ObeliskAECEnv(game_id, players=players, render_mode=render_mode, max_cycles=max_cycles,
                                    **options)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def raw_env(game_id: str, players: int | None = None, render_mode: str | None = None, max_cycles: int | None = None,
            **options: Any) -> "ObeliskAECEnv":
    """The env without wrappers."""
    return ObeliskAECEnv(game_id, players=players, render_mode=render_mode, max_cycles=max_cycles, **options)


class ObeliskAECEnv(AECEnv):
    """One Obelisk game (fixed player count and options) as an AEC env."""

    metadata = {"render_modes": ["human", "ansi"], "name": "obelisk_v0", "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, game_id: str, players: int | None = None, render_mode: str | None = None,
                 max_cycles: int | None = None, action_labels: bool = True, **options: Any) -> None:
        super().__init__()
        if not isinstance(action_labels, bool):
            raise ValueError(f"action_labels must be True or False, got {action_labels!r}")
        self.action_labels = action_labels
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', got {render_mode!r}")
        if max_cycles is not None and (isinstance(max_cycles, bool) or not isinstance(max_cycles, int)
                                       or max_cycles < 1):
            raise ValueError(f"max_cycles must be None or a positive int, got {max_cycles!r}")
        self.game: Game = registry.load(game_id, players, **options)
        self.max_cycles = max_cycles
        self.metadata = {**type(self).metadata, "name": f"{ENV_PREFIX}{game_id}_v0"}
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{i}" for i in range(self.game.num_players)]
        self._seats = {agent: i for i, agent in enumerate(self.possible_agents)}
        observation_space = spaces.Dict(
            {"observation": _spaces.observation_box(self.game), "action_mask": _spaces.mask_box(self.game)}
        )
        action_space = spaces.Discrete(self.game.num_distinct_actions())
        # PettingZoo requires the same space object on every call.
        self.observation_spaces = {agent: observation_space for agent in self.possible_agents}
        self.action_spaces = {agent: action_space for agent in self.possible_agents}
        low, high = _spaces.observation_range(self.game)
        size = self.game.num_players * _spaces.tensor_size(self.game)
        self.state_space = spaces.Box(low=low, high=high, shape=(size,), dtype=np.float32)
        self.state_: State | None = None
        self._decisions = 0
        self._rng = random.Random()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game; chance draws follow ``seed`` (fresh entropy when ``None``).

        Like Gymnasium, any non-negative integer is a seed; the engine state's
        own seed (which must be below 2**63) is ``seed % 2**63``.
        """
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
            raise ValueError(f"reset seed must be None or a non-negative integer, got {codec.describe(seed)}")
        self._rng = make_rng("pettingzoo", seed) if seed is not None else random.Random()
        self.state_ = self.game.new_initial_state(seed % MAX_SEED if seed is not None else 0)
        resolve_chance(self.state_, self._rng)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._decisions = 0
        self._after_move()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The seat's tensor and action mask, from its own view only."""
        seat = self._seats[agent]
        return {
            "observation": _spaces.observation_tensor(self.game, self.state_, seat),
            "action_mask": _spaces.action_mask(self.game, self.state_, seat),
        }

    def step(self, action: int | None) -> None:
        """Apply the selected seat's action, then resolve chance up to the next decision."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action = _spaces.action_id(action)
        self._cumulative_rewards[agent] = 0.0
        self.state_.apply_action(action)
        self._decisions += 1
        resolve_chance(self.state_, self._rng)
        self._after_move()

    def _after_move(self) -> None:
        state = self.state_
        self.infos = {agent: {} for agent in self.agents}
        if state.is_terminal():
            returns = state.returns()
            for agent in self.agents:
                self.rewards[agent] = float(returns[self._seats[agent]])
                self.terminations[agent] = True
            self._accumulate_rewards()
            # Every seat is done; iteration removes them in seat order.
            self.agent_selection = self.agents[0]
        elif self.max_cycles is not None and self._decisions >= self.max_cycles * len(self.possible_agents):
            for agent in self.agents:
                self.truncations[agent] = True
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[state.current_player()]
            if self.action_labels:
                self.infos[self.agent_selection] = {
                    "action_labels": {action: state.action_to_string(action) for action in state.legal_actions()}
                }

    def state(self) -> np.ndarray:
        """Every seat's own observation tensor, in seat order: what all seats know together. For training only.

        It holds each seat's private information (hands, secret choices), so it is
        for centralised critics, never for a policy that acts.
        """
        return np.concatenate([_spaces.observation_tensor(self.game, self.state_, seat)
                               for seat in range(self.game.num_players)])

    def render(self) -> str | None:
        """The view of the seat to act as text (the spectator's once the game is over); printed in ``"human"`` mode."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; use render_mode='human' or 'ansi'")
            return None
        state = self.state_
        if state.is_terminal():
            text = f"move {state.move_number()}, game over\n" + self.game.render_observation(state.observation(None))
        else:
            seat = state.current_player()
            text = (f"move {state.move_number()}, seat_{seat} to act; seat_{seat}'s view\n"
                    + self.game.render_observation(state.observation(seat)))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release; present because PettingZoo expects it alongside ``render``."""
