"""Single-agent Gymnasium env: a learner plays one seat, Obelisk bots play the others.

>>> import gymnasium, obelisk.adapters.gym        # registers obelisk/Valley-v0 and the others
>>> env = gymnasium.make("obelisk/Valley-v0", players=2, seat=0, opponents="random")
>>> obs, info = env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))

Every registered game is ``obelisk/<Id>-v0`` (``Solomon``, ``Tomb``,
``Cleopatra``, ``Valley``), with the keyword arguments of
:class:`ObeliskGymEnv` (game options included). The observation is the
learner's float32 tensor (its own view only, clipped to the declared bounds,
see ``_spaces``), or with ``dict_observation=True`` a dict of that tensor and
the mask of legal ids; ``info["action_mask"]`` and ``action_masks()`` mark
the legal ids.

The observation is the learner's float32 tensor (its own view only), the
action a ``Discrete(num_distinct_actions)`` id, and ``info["action_mask"]``
the int8 mask of legal ids. Opponents are bot specs for
``obelisk.bots.make_bot`` (one spec for all, or one per other seat, in seat
order). The reward is the learner's rank-based return, paid at the end.

An illegal action ends the episode with reward -1 and
``info["illegal_action"] = True`` rather than raising, so generic tools that
sample from the whole action space (``check_env``) still run; mask-aware
agents never see it. If the game ends before the learner's first decision,
the first ``step`` ignores its action and reports the result.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

import gymnasium
import numpy as np
from gymnasium import spaces

from obelisk.adapters import _spaces
from obelisk.bots import Bot, make_bot
from obelisk.core import Game, State, registry
from obelisk.core.rng import make_rng

__all__ = ["ObeliskGymEnv", "env_id", "make", "register_envs"]

ILLEGAL_ACTION_REWARD = -1.0
NAMESPACE = "obelisk"


def env_id(game_id: str) -> str:
    """The Gymnasium id of a game: ``obelisk/Valley-v0`` for ``valley``."""
    return f"{NAMESPACE}/{game_id.capitalize()}-v0"


def register_envs() -> list[str]:
    """Register every game of ``obelisk.games()`` not yet known to Gymnasium; return all their ids."""
    ids = []
    for info in registry.games():
        name = env_id(info.id)
        if name not in gymnasium.registry:
            gymnasium.register(id=name, entry_point=f"{__name__}:ObeliskGymEnv", kwargs={"game_id": info.id})
        ids.append(name)
    return ids


def make(game_id: str, seat: int = 0, opponents: str | Sequence[str] = "greedy", players: int | None = None,
         render_mode: str | None = None, dict_observation: bool = False, **options: Any) -> "ObeliskGymEnv":
    """Build the env without Gymnasium's wrappers; bad game ids, seats, options or bot specs raise ``ValueError``."""
    return ObeliskGymEnv(game_id, seat=seat, opponents=opponents, players=players, render_mode=render_mode,
                         dict_observation=dict_observation, **options)


class ObeliskGymEnv(gymnasium.Env):
    """One seat of an Obelisk game against bots."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, game_id: str, seat: int = 0, opponents: str | Sequence[str] = "greedy",
                 players: int | None = None, render_mode: str | None = None, dict_observation: bool = False,
                 **options: Any) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.game: Game = registry.load(game_id, players, **options)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.game.num_players:
            raise ValueError(f"seat must be an int from 0 to {self.game.num_players - 1}, got {seat!r}")
        self.seat = seat
        others = [s for s in range(self.game.num_players) if s != seat]
        specs = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(specs) != len(others):
            raise ValueError(f"need one opponent spec or {len(others)} (one per other seat), got {len(specs)}")
        self._specs = dict(zip(others, specs))
        for other, spec in self._specs.items():
            make_bot(spec, self.game, other, 0)  # fail now on an unknown spec
        self.render_mode = render_mode
        self.dict_observation = bool(dict_observation)
        box = _spaces.observation_box(self.game)
        mask = spaces.MultiBinary(self.game.num_distinct_actions())
        self.observation_space = spaces.Dict({"observation": box, "action_mask": mask}) if self.dict_observation else box
        self.action_space = spaces.Discrete(self.game.num_distinct_actions())
        self._state: State = self.game.new_initial_state(0)
        self._bots: dict[int, Bot] = {}
        self._chance: random.Random = random.Random(0)
        self._done = True

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Any, dict[str, Any]]:
        """Deal a new game and let the bots play up to the learner's first decision."""
        super().reset(seed=seed)
        # Every episode seed comes from np_random, so one reset seed fixes all later episodes.
        episode = int(self.np_random.integers(2**62))
        self._chance = make_rng("gym-chance", episode)
        self._bots = {other: make_bot(spec, self.game, other, episode) for other, spec in self._specs.items()}
        self._state = self.game.new_initial_state(episode)
        self._done = False
        self._advance()
        return self._observation(), self._info()

    def step(self, action: int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Apply the learner's action, then bots and chance until the learner decides again or the game ends."""
        if self._done:
            raise RuntimeError("step() called on a finished episode; call reset()")
        action = _spaces.action_id(action)
        state = self._state
        if not state.is_terminal():
            if action not in state.legal_actions():
                self._done = True
                return self._observation(), ILLEGAL_ACTION_REWARD, True, False, {**self._info(),
                                                                                   "illegal_action": True}
            state.apply_action(action)
            self._advance()
        if state.is_terminal():
            self._done = True
            return self._observation(), float(state.returns()[self.seat]), True, False, self._info()
        return self._observation(), 0.0, False, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The learner's legal ids as a bool array (what ``MaskablePPO`` asks for); all false when it is not to act."""
        return self._mask(self.seat).astype(bool)

    def _advance(self) -> None:
        state = self._state
        while not state.is_terminal():
            current = state.current_player()
            if current == self.seat:
                return
            if state.is_chance_node():
                state.apply_action(state.sample_chance(self._chance))
            else:
                state.apply_action(self._bots[current].choose(state))

    def _mask(self, seat: int) -> np.ndarray:
        return _spaces.action_mask(self.game, self._state, seat)

    def _observation(self) -> Any:
        tensor = _spaces.observation_tensor(self.game, self._state, self.seat)
        if self.dict_observation:
            return {"observation": tensor, "action_mask": self._mask(self.seat)}
        return tensor

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask(self.seat)}

    def render(self) -> str | None:
        """The learner's view as text (mode ``"ansi"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; use render_mode='ansi'")
            return None
        return self.game.render_observation(self._state.observation(self.seat))


register_envs()
