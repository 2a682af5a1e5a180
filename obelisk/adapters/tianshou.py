"""Tianshou's multi-agent API on Obelisk games, every learning seat trained on its own transitions.

>>> from obelisk.adapters import tianshou as seats
>>> env = PettingZooEnv(valley_v0.env(players=2, action_labels=False))
>>> actor = seats.MaskedActor(Net(...))                   # and critic = seats.ObservationCritic(Net(...))
>>> collector = seats.collector(MultiAgentPolicy({agent: policy for agent in env.agents}), envs, replay,
...                             learners=env.agents, agent_idx=env.agent_idx)        # self-play
>>> collector.collect(n_step=64)          # each finished game lands in replay, one episode per seat
>>> ppo.update(buffer=replay, batch_size=128, repeat=8); replay.reset()

(the whole run: docs/research.md, "Tianshou (multi-agent)", and examples/train_tianshou.py).

Tianshou's ``PettingZooEnv`` writes one row per decision, whichever seat
made it, and its multi-agent algorithms compute returns and bootstrap
targets along those rows: wherever an opponent's decision follows a seat's,
the seat bootstraps from the opponent's view (in a zero-sum game, a value of
the other sign). Here the collector only stages the games: when one ends,
each learning seat's decisions are re-threaded into ``replay``
(:func:`seat_transitions`), where a row's ``obs_next``, reward and ``done``
are those of the same seat's next decision, or of the game's end. Any
single-agent Tianshou algorithm then trains on ``replay`` as is, n-step
returns included: each seat's game is one episode there.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence, cast

import numpy as np
import torch
from tianshou.algorithm.algorithm_base import Policy
from tianshou.data import Batch, Collector, CollectStats, ReplayBuffer, VectorReplayBuffer
from tianshou.data.collector import CollectActionBatchProtocol, EpisodeBatchProtocol, EpisodeRolloutHook, StepHook
from tianshou.data.types import RolloutBatchProtocol
from tianshou.data.types import TObs
from pettingzoo import AECEnv
from tianshou.env import BaseVectorEnv
from tianshou.env.pettingzoo_env import PettingZooEnv
from tianshou.utils.net.common import ActionReprNet

__all__ = ["GameRows", "MaskedActor", "ObservationCritic", "SeatReplay", "SeededPettingZooEnv", "collector",
           "seat_transitions"]

GAME_ROWS = 2048
"""Rows per env in the staging buffer: every decision of one game, all seats' (2-player Valley: about 320)."""


class SeededPettingZooEnv(PettingZooEnv):
    """Tianshou's ``PettingZooEnv`` whose games follow its seed, so that a seeded training run repeats.

    Tianshou's collector resets its envs without a seed, and an Obelisk env
    then deals from fresh entropy. Here ``seed(s)`` (what ``DummyVectorEnv.seed``
    calls, ``s + i`` for env ``i``) or ``reset(seed=s)`` starts a stream of
    game seeds, and every reset deals the stream's next game.
    """

    def __init__(self, env: AECEnv, seed: int | None = None) -> None:
        self._games = np.random.default_rng(seed)
        super().__init__(env)

    def reset(self, *args: Any, seed: int | None = None, **kwargs: Any) -> tuple[dict, dict]:
        if seed is not None:
            self._games = np.random.default_rng(seed)
        return super().reset(*args, seed=int(self._games.integers(2**62)), **kwargs)

    def seed(self, seed: Any = None) -> None:
        self._games = np.random.default_rng(seed)


def seat_transitions(game: Batch, agent: str, column: int) -> Batch:
    """``agent``'s decisions in one finished ``game`` (rows as the collector stores them), one transition each.

    A transition's ``obs_next`` is the seat's observation at its next decision,
    its reward the seat's rewards (column ``column`` of the reward vectors)
    from its decision up to that next one, and only its last decision is
    ``terminated``, with the game's final reward. A game cut short
    (truncated) leaves the seat's last decision out: no observation of the
    seat follows it to bootstrap from.
    """
    rows = np.flatnonzero(game.obs.agent_id == agent)
    truncated = bool(game.truncated[-1]) and not bool(game.terminated[-1])
    if len(rows) == 0 or (truncated and len(rows) == 1):
        return Batch()
    ends = np.append(rows[1:], len(game))
    reward_to = np.concatenate([[0.0], np.cumsum(game.rew[:, column], dtype=float)])
    terminated = np.zeros(len(rows), dtype=bool)
    terminated[-1] = bool(game.terminated[-1])
    transitions = Batch(
        obs=game.obs[rows],
        act=game.act[rows],
        rew=reward_to[ends] - reward_to[rows],
        terminated=terminated,
        truncated=np.zeros(len(rows), dtype=bool),
        obs_next=Batch.cat([game.obs[rows[1:]], game.obs_next[[-1]]]),
        info=game.info[rows],
    )
    return transitions[:-1] if truncated else transitions


class SeatReplay(EpisodeRolloutHook):
    """A collector's ``on_episode_done_hook``: each finished game's learning seats' transitions, into ``replay``.

    The seats' games are added one after the other, each a whole episode, so
    n-step returns in ``replay`` never cross from one seat or game to another.
    """

    def __init__(self, replay: ReplayBuffer, learners: Sequence[str], agent_idx: Mapping[str, int]) -> None:
        unknown = [agent for agent in learners if agent not in agent_idx]
        if unknown or not learners:
            raise ValueError(f"learners must be some of the env's agents {list(agent_idx)}, got {list(learners)}")
        self.replay = replay
        self.columns = {agent: agent_idx[agent] for agent in learners}

    def __call__(self, episode_batch: EpisodeBatchProtocol) -> None:
        for agent, column in self.columns.items():
            transitions = seat_transitions(cast(Batch, episode_batch), agent, column)
            for i in range(len(transitions)):
                self.replay.add(transitions[i])


class GameRows(StepHook):
    """A collector's ``on_step_hook``: stops with an error once a game outgrows the staging buffer's ``game_rows``.

    Past that the buffer would overwrite the game's first decisions before
    :class:`SeatReplay` reads them.
    """

    def __init__(self, game_rows: int) -> None:
        self.game_rows = game_rows
        self.rows: dict[int, int] = {}

    def __call__(self, action_batch: CollectActionBatchProtocol, rollout_batch: RolloutBatchProtocol) -> None:
        env_ids = cast(Batch, rollout_batch.info).env_id
        for env_id, done in zip(env_ids, np.logical_or(rollout_batch.terminated, rollout_batch.truncated)):
            rows = self.rows.get(int(env_id), 0) + 1
            if rows > self.game_rows:
                raise ValueError(f"a game in env {int(env_id)} ran past {self.game_rows} decisions, the staging "
                                 "buffer's game_rows: pass a larger game_rows to collector()")
            self.rows[int(env_id)] = 0 if done else rows


class _StagingCollector(Collector[CollectStats]):
    """A collector whose buffer stages unfinished games only, so a reset of the envs empties it.

    Otherwise the rows of a game abandoned by ``reset(reset_buffer=False)``
    would run on into the next game's rows, and :class:`SeatReplay` would
    thread one seat's transitions across both games.
    """

    def __init__(self, policy: Policy, envs: BaseVectorEnv, seat_replay: SeatReplay, game_rows: int) -> None:
        self.game_rows = GameRows(game_rows)  # set first: the base class resets the envs as it starts
        staging = VectorReplayBuffer(game_rows * envs.env_num, envs.env_num, ignore_obs_next=True)
        super().__init__(policy, envs, staging, exploration_noise=True, on_episode_done_hook=seat_replay,
                         on_step_hook=self.game_rows)

    def reset_env(self, gym_reset_kwargs: dict[str, Any] | None = None) -> tuple[np.ndarray, np.ndarray]:
        self.buffer.reset()
        self.game_rows.rows.clear()
        return super().reset_env(gym_reset_kwargs)


def collector(policy: Policy, envs: BaseVectorEnv, replay: ReplayBuffer, learners: Sequence[str],
              agent_idx: Mapping[str, int], game_rows: int = GAME_ROWS) -> Collector[CollectStats]:
    """A collector (exploration noise on) that feeds ``replay`` with the ``learners``' own transitions.

    ``agent_idx`` maps agent names to reward columns (``PettingZooEnv.agent_idx``).
    Its own buffer only stages the games being played: ``game_rows`` rows
    per env; a longer game stops the collection with a ``ValueError``, and a
    game cut off by ``reset()`` is dropped.
    """
    return _StagingCollector(policy, envs, SeatReplay(replay, learners, agent_idx), game_rows)


class MaskedActor(ActionReprNet[Any]):
    """A discrete actor for Tianshou's policies: ``net``'s logits on ``obs.obs``, illegal actions at the float minimum.

    ``obs`` is the ``{obs, mask}`` batch Tianshou keeps (``mask`` true for the
    legal actions), so sampling, the mode and the log-probabilities in
    training all give the illegal actions probability zero.
    """

    def __init__(self, net: torch.nn.Module) -> None:
        super().__init__()
        self.net = net

    def forward(self, obs: TObs, state: Any = None, info: dict[str, Any] | None = None) -> tuple[torch.Tensor, Any]:
        observation = cast(Batch, obs)
        logits, state = self.net(observation.obs, state=state)
        legal = torch.as_tensor(np.asarray(observation.mask), dtype=torch.bool, device=logits.device)
        return logits.masked_fill(~legal, torch.finfo(logits.dtype).min), state


class ObservationCritic(torch.nn.Module):
    """A critic for Tianshou's actor-critic algorithms: ``net``'s single output on ``obs.obs`` (the mask unread)."""

    def __init__(self, net: torch.nn.Module) -> None:
        super().__init__()
        self.net = net

    def forward(self, obs: TObs, state: Any = None, info: dict[str, Any] | None = None) -> torch.Tensor:
        return self.net(cast(Batch, obs).obs)[0]
