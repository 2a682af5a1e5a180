"""Single-agent Gymnasium env: a learner plays one seat, Obelisk bots or policies play the others.

>>> import gymnasium, obelisk.adapters.gym        # registers obelisk/Valley-v0 and the others
>>> env = gymnasium.make("obelisk/Valley-v0", players=2, seat=0, opponents="random")
>>> obs, info = env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(env.unwrapped.action_masks())[0]))

Every registered game is ``obelisk/<Id>-v0`` (``Solomon``, ``Tomb``,
``Cleopatra``, ``Valley``), with the keyword arguments of
:class:`ObeliskGymEnv` (game options included). The observation is the
learner's float32 tensor (its own view only, clipped to the declared bounds,
see ``_spaces``), or with ``dict_observation=True`` a dict of that tensor and
the mask of legal ids; the action is a ``Discrete(num_distinct_actions)`` id;
``info["action_mask"]`` and ``action_masks()`` mark the legal ids.
Opponents are bot specs for ``obelisk.bots.make_bot``, bot objects, or
policies ``(observation, action_mask) -> action`` that see their own seat's
view only (one for all, or one per other seat, in seat order). The reward is
the learner's rank-based return, paid at the end.

An illegal action ends the episode with reward -1 and
``info["illegal_action"] = True`` rather than raising, so generic tools that
sample from the whole action space (``check_env``) still run; mask-aware
agents never see it. If the game ends before the learner's first decision,
the first ``step`` ignores its action and reports the result.
"""

from __future__ import annotations

import copy
import random
from typing import Any, Callable, Sequence, Union, cast

import gymnasium
import numpy as np
from gymnasium import spaces

from obelisk.adapters import _spaces
from obelisk.bots import Bot, make_bot
from obelisk.core import Game, State, registry
from obelisk.core.rng import make_rng

__all__ = ["ObeliskGymEnv", "Opponent", "Policy", "SelfPlay", "env_id", "make", "register_envs"]

ILLEGAL_ACTION_REWARD = -1.0
NAMESPACE = "obelisk"

Policy = Callable[[Any, np.ndarray], Any]
"""``policy(observation, action_mask) -> action id``: the seat's observation as the env gives it, a bool mask."""
Opponent = Union[str, Bot, Policy]
"""A bot spec (``"greedy"``, ``"ismcts:0.2s"``), a bot object for that seat, or a :data:`Policy`."""


def env_id(game_id: str) -> str:
    """The Gymnasium id of a game: ``obelisk/Valley-v0`` for ``valley``."""
    return f"{NAMESPACE}/{game_id.capitalize()}-v0"


def register_envs() -> list[str]:
    """Register every game of ``obelisk.list_games()`` not yet known to Gymnasium; return all their ids."""
    ids = []
    for info in registry.games():
        name = env_id(info.id)
        if name not in gymnasium.registry:
            gymnasium.register(id=name, entry_point=f"{__name__}:ObeliskGymEnv", kwargs={"game_id": info.id})
        ids.append(name)
    return ids


def make(game_id: str, seat: int = 0, opponents: Opponent | Sequence[Opponent] = "greedy",
         players: int | None = None, render_mode: str | None = None, dict_observation: bool = False,
         **options: Any) -> "ObeliskGymEnv":
    """Build the env without Gymnasium's wrappers; bad games, seats, options or opponents raise ``ValueError``."""
    return ObeliskGymEnv(game_id, seat=seat, opponents=opponents, players=players, render_mode=render_mode,
                         dict_observation=dict_observation, **options)


class _PolicySeat:
    """A policy playing one seat from that seat's observation and mask."""

    def __init__(self, env: "ObeliskGymEnv", seat: int, policy: Policy) -> None:
        self.name = "policy"
        self.env, self.seat, self.policy = env, seat, policy

    def choose(self, state: State) -> int:
        chosen = self.policy(self.env._observation(self.seat), self.env._mask(self.seat).astype(bool))
        try:
            action = _spaces.action_id(chosen)
        except ValueError as error:
            raise ValueError(f"the opponent policy at seat {self.seat}: {error}") from None
        if action not in state.legal_actions():
            raise ValueError(f"the opponent policy at seat {self.seat} chose action {action}, which is not legal "
                             f"(legal: {state.legal_actions()})")
        return action


class ObeliskGymEnv(gymnasium.Env):
    """One seat of an Obelisk game against bots or policies."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, game_id: str, seat: int = 0, opponents: Opponent | Sequence[Opponent] = "greedy",
                 players: int | None = None, render_mode: str | None = None, dict_observation: bool = False,
                 **options: Any) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.game: Game = registry.load(game_id, players, **options)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.game.num_players:
            raise ValueError(f"seat must be an int from 0 to {self.game.num_players - 1}, got {seat!r}")
        self.seat = seat
        self.render_mode = render_mode
        self.dict_observation = bool(dict_observation)
        box = _spaces.observation_box(self.game)
        mask = spaces.MultiBinary(self.game.num_distinct_actions())
        self.observation_space = (spaces.Dict({"observation": box, "action_mask": mask}) if self.dict_observation
                                  else box)
        self.action_space = spaces.Discrete(self.game.num_distinct_actions())
        self._opponents: dict[int, Opponent] = {}
        self.set_opponents(opponents)
        self._state: State = self.game.new_initial_state(0)
        self._players: dict[int, Bot] = {}
        self._chance: random.Random = random.Random(0)
        self._done = True

    def set_opponents(self, opponents: Opponent | Sequence[Opponent]) -> None:
        """Replace the other seats' players from the next ``reset`` on (checked now: ``ValueError``)."""
        others = [s for s in range(self.game.num_players) if s != self.seat]
        single = isinstance(opponents, str) or callable(opponents) or hasattr(opponents, "choose")
        given: list[Opponent]
        if single:
            given = [cast(Opponent, opponents)] * len(others)
        elif isinstance(opponents, Sequence):
            given = list(opponents)
        else:
            raise ValueError("opponents must be a bot spec, a bot, a policy or a sequence of them, "
                             f"got {opponents!r:.60}")
        if len(given) != len(others):
            raise ValueError(f"need one opponent or {len(others)} (one per other seat), got {len(given)}")
        for other, opponent in zip(others, given):
            if isinstance(opponent, str):
                make_bot(opponent, self.game, other, 0)  # fail now on an unknown spec
            elif hasattr(opponent, "choose"):
                built_for = getattr(opponent, "seat", other)
                if built_for != other:
                    raise ValueError(f"the bot for seat {other} was built for seat {built_for}")
            elif not callable(opponent):
                raise ValueError(f"opponent for seat {other} must be a bot spec, a bot or a policy, "
                                 f"got {opponent!r:.60}")
        self._opponents = dict(zip(others, given))

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Deal a new game and let the opponents play up to the learner's first decision."""
        super().reset(seed=seed)
        # Every episode seed comes from np_random, so one reset seed fixes all later episodes.
        episode = int(self.np_random.integers(2**62))
        self._chance = make_rng("gym-chance", episode)
        self._players = {other: self._player(other, opponent, episode) for other, opponent in self._opponents.items()}
        self._state = self.game.new_initial_state(episode)
        self._done = False
        self._advance()
        return self._observation(self.seat), self._info()

    def _player(self, seat: int, opponent: Opponent, episode: int) -> Bot:
        if isinstance(opponent, str):
            return make_bot(opponent, self.game, seat, episode)
        if hasattr(opponent, "choose"):
            return cast(Bot, opponent)
        return _PolicySeat(self, seat, cast(Policy, opponent))

    def step(self, action: int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Apply the learner's action, then opponents and chance until the learner decides again or the game ends."""
        if self._done:
            raise RuntimeError("step() called on a finished episode; call reset()")
        action = _spaces.action_id(action)
        state = self._state
        if not state.is_terminal():
            if action not in state.legal_actions():
                self._done = True
                return (self._observation(self.seat), ILLEGAL_ACTION_REWARD, True, False,
                        {**self._info(), "illegal_action": True})
            state.apply_action(action)
            self._advance()
        if state.is_terminal():
            self._done = True
            return self._observation(self.seat), float(state.returns()[self.seat]), True, False, self._info()
        return self._observation(self.seat), 0.0, False, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The learner's legal ids as a bool array (what ``MaskablePPO`` asks for); all false when it is not to act."""
        return self._mask(self.seat).astype(bool)

    def _advance(self) -> None:
        """Play chance and opponents up to the learner's decision; an opponent's error ends the episode."""
        state = self._state
        while not state.is_terminal():
            current = state.current_player()
            if current == self.seat:
                return
            if state.is_chance_node():
                state.apply_action(state.sample_chance(self._chance))
                continue
            try:
                action = self._players[current].choose(state)
            except Exception:
                self._done = True
                raise
            state.apply_action(action)

    def _mask(self, seat: int) -> np.ndarray:
        return _spaces.action_mask(self.game, self._state, seat)

    def _observation(self, seat: int) -> Any:
        tensor = _spaces.observation_tensor(self.game, self._state, seat)
        if self.dict_observation:
            return {"observation": tensor, "action_mask": self._mask(seat)}
        return tensor

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask(self.seat)}

    def render(self) -> str | None:
        """The learner's view as text (mode ``"ansi"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; use render_mode='ansi'")
            return None
        return self.game.render_observation(self._state.observation(self.seat))


class SelfPlay(gymnasium.Wrapper):
    """The other seats are played by a snapshot of the learner's own policy.

    ``policy(observation, action_mask) -> action`` is copied with ``snapshot_copy``
    (``copy.deepcopy`` by default, so later training does not move the
    opponents); :meth:`snapshot` takes a fresh copy, and ``update_every=N``
    does so at every N-th ``reset``. Each opponent seat gets its own
    observation and mask, never the learner's.
    """

    def __init__(self, env: gymnasium.Env, policy: Policy, update_every: int | None = None,
                 snapshot_copy: Callable[[Policy], Policy] = copy.deepcopy) -> None:
        super().__init__(env)
        inner = env.unwrapped
        if not isinstance(inner, ObeliskGymEnv):
            raise ValueError(f"SelfPlay wraps an Obelisk env, got {type(inner).__name__}")
        self._inner: ObeliskGymEnv = inner
        if update_every is not None and (isinstance(update_every, bool) or not isinstance(update_every, int)
                                         or update_every < 1):
            raise ValueError(f"update_every must be None or a positive int, got {update_every!r}")
        if not callable(policy):
            raise ValueError(f"policy must be callable as policy(observation, action_mask), got {policy!r:.60}")
        self.policy = policy
        self.update_every = update_every
        self._copy = snapshot_copy
        self._resets = 0
        self.snapshot()

    def snapshot(self) -> None:
        """Copy the policy as it is now; the opponents play this copy from the next ``reset``."""
        self.opponent = self._copy(self.policy)
        self._inner.set_opponents(self.opponent)

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        """Refresh the snapshot every ``update_every`` resets, then reset."""
        if self.update_every is not None and self._resets and self._resets % self.update_every == 0:
            self.snapshot()
        self._resets += 1
        return self.env.reset(**kwargs)

    def action_masks(self) -> np.ndarray:
        """The learner's legal ids (see :meth:`ObeliskGymEnv.action_masks`)."""
        return self._inner.action_masks()


register_envs()
