"""Tianshou's multi-agent collector re-threaded per seat: a seat learns only from its own decisions."""

from __future__ import annotations

import logging

import numpy as np
import pytest
import torch

pytest.importorskip("tianshou", reason="the Tianshou adapter needs tianshou (the 'train' extra)")

from tianshou.algorithm import PPO, MARLRandomDiscreteMaskedOffPolicyAlgorithm  # noqa: E402
from tianshou.algorithm.modelfree.reinforce import DiscreteActorPolicy  # noqa: E402
from tianshou.algorithm.multiagent.marl import MultiAgentPolicy  # noqa: E402
from tianshou.algorithm.optim import AdamOptimizerFactory  # noqa: E402
from tianshou.data import Batch, ReplayBuffer  # noqa: E402
from tianshou.env import DummyVectorEnv  # noqa: E402
from tianshou.env.pettingzoo_env import PettingZooEnv  # noqa: E402
from tianshou.utils.net.common import Net  # noqa: E402
from tianshou.utils.torch_utils import policy_within_training_step  # noqa: E402

from obelisk.adapters import tianshou as seats  # noqa: E402
from obelisk.adapters.pettingzoo import valley_v0  # noqa: E402

AGENT_IDX = {"seat_0": 0, "seat_1": 1}


def _game(order: str, rewards: dict[int, tuple[float, float]], terminated: bool = True) -> Batch:
    """Rows as the collector stores them: row ``i`` is decision ``i``, made by seat ``order[i]``; obs = ``i``."""
    n = len(order)
    rew = np.zeros((n, 2))
    for row, values in rewards.items():
        rew[row] = values
    ends = np.zeros(n, dtype=bool)
    ends[-1] = True

    def views(rows: np.ndarray) -> Batch:
        seats_of = np.array([f"seat_{order[min(r, n - 1)]}" for r in rows])
        return Batch(obs=rows[:, None].astype(np.float32), agent_id=seats_of, mask=np.ones((len(rows), 3), bool))

    return Batch(obs=views(np.arange(n)), act=np.arange(n) % 3, rew=rew, terminated=ends & terminated,
                 truncated=ends & (not terminated), obs_next=views(np.arange(1, n + 1)),
                 info=Batch(env_id=np.zeros(n, dtype=int)))


def test_a_seats_transition_leads_to_its_own_next_decision() -> None:
    game = _game("0011101", {6: (-1.0, 1.0)})
    mine = seats.seat_transitions(game, "seat_0", 0)
    assert mine.obs.obs[:, 0].tolist() == [0, 1, 5]
    assert mine.obs_next.obs[:-1, 0].tolist() == [1, 5]
    assert set(mine.obs.agent_id) == set(mine.obs_next.agent_id[:-1]) == {"seat_0"}
    assert mine.act.tolist() == [0, 1, 2]
    assert mine.rew.tolist() == [0.0, 0.0, -1.0]
    assert mine.terminated.tolist() == [False, False, True] and not mine.truncated.any()
    theirs = seats.seat_transitions(game, "seat_1", 1)
    assert theirs.obs.obs[:, 0].tolist() == [2, 3, 4, 6]
    assert theirs.obs_next.obs[:-1, 0].tolist() == [3, 4, 6]
    assert theirs.rew.tolist() == [0.0, 0.0, 0.0, 1.0]
    assert theirs.terminated.tolist() == [False, False, False, True]


def test_rewards_paid_during_the_opponents_turn_go_to_the_seats_last_decision_before_it() -> None:
    game = _game("0110", {1: (0.5, -0.5), 2: (0.25, 0.0), 3: (1.0, -1.0)})
    assert seats.seat_transitions(game, "seat_0", 0).rew.tolist() == [0.75, 1.0]
    assert seats.seat_transitions(game, "seat_1", 1).rew.tolist() == [-0.5, -1.0]


def test_a_truncated_game_leaves_out_each_seats_last_decision() -> None:
    game = _game("0101", {}, terminated=False)
    mine = seats.seat_transitions(game, "seat_0", 0)
    assert mine.obs.obs[:, 0].tolist() == [0] and mine.obs_next.obs[:, 0].tolist() == [2]
    assert not mine.terminated.any() and not mine.truncated.any()
    assert len(seats.seat_transitions(_game("01", {}, terminated=False), "seat_1", 1)) == 0


def test_a_seat_without_decisions_has_no_transitions() -> None:
    assert len(seats.seat_transitions(_game("000", {2: (1.0, -1.0)}), "seat_1", 1)) == 0


def test_learners_must_be_the_envs_agents() -> None:
    with pytest.raises(ValueError, match=r"learners must be some of the env's agents \['seat_0', 'seat_1'\]"):
        seats.SeatReplay(ReplayBuffer(10), ["seat_2"], AGENT_IDX)
    with pytest.raises(ValueError, match="got \\[\\]"):
        seats.SeatReplay(ReplayBuffer(10), [], AGENT_IDX)


def _build() -> PettingZooEnv:
    logging.getLogger("tianshou.data.stats").setLevel(logging.ERROR)
    return PettingZooEnv(valley_v0.env(players=2, action_labels=False))


def test_the_collector_fills_the_replay_with_the_learners_own_games() -> None:
    build = _build
    probe = build()
    random_policy = MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=probe.action_space).policy
    policy = MultiAgentPolicy({agent: random_policy for agent in probe.agents})
    envs = DummyVectorEnv([build, build])
    envs.seed(3)
    replay = ReplayBuffer(5000)
    collector = seats.collector(policy, envs, replay, ["seat_1"], probe.agent_idx)
    collector.reset()
    stats = collector.collect(n_episode=2)
    finals = [float(episode_return[1]) for episode_return in stats.returns]

    rows = np.arange(len(replay))
    data = replay[rows]
    assert 0 < len(replay) < stats.n_collected_steps
    assert set(data.obs.agent_id) == {"seat_1"} and set(data.obs_next.agent_id[~data.done]) == {"seat_1"}
    assert data.terminated.sum() == 2 and not data.truncated.any()
    assert sorted(data.rew[data.done].tolist()) == sorted(finals) and not data.rew[~data.done].any()
    going_on = rows[~data.done]
    assert np.array_equal(data.obs_next.obs[going_on], replay[replay.next(going_on)].obs.obs)
    assert data.obs.mask.any(axis=1).all()


def test_the_masked_actor_gives_illegal_actions_probability_zero() -> None:
    torch.manual_seed(0)
    actor = seats.MaskedActor(Net(state_shape=4, action_shape=5, hidden_sizes=[8]))
    mask = np.array([[True, False, True, False, False], [False, False, False, False, True]])
    logits, _ = actor(Batch(obs=np.random.default_rng(0).normal(size=(2, 4)).astype(np.float32), mask=mask))
    probabilities = torch.distributions.Categorical(logits=logits).probs
    assert torch.all(probabilities[torch.as_tensor(~mask)] == 0)
    assert torch.allclose(probabilities.sum(dim=1), torch.ones(2))
    assert probabilities[1, 4] == 1 and torch.isfinite(torch.distributions.Categorical(logits=logits).entropy()).all()


def test_ppo_self_play_trains_on_each_seats_own_transitions() -> None:
    torch.manual_seed(0)
    probe = _build()
    features, actions = probe.observation_space["observation"].shape[0], int(probe.action_space.n)
    actor = seats.MaskedActor(Net(state_shape=features, action_shape=actions, hidden_sizes=[32]))
    critic = seats.ObservationCritic(Net(state_shape=features, action_shape=1, hidden_sizes=[32]))
    policy = DiscreteActorPolicy(actor=actor, action_space=probe.action_space, deterministic_eval=True)
    ppo = PPO(policy=policy, critic=critic, optim=AdamOptimizerFactory(lr=1e-3))
    replay = ReplayBuffer(2000, ignore_obs_next=True)
    envs = DummyVectorEnv([_build])
    envs.seed(5)
    collector = seats.collector(MultiAgentPolicy({agent: policy for agent in probe.agents}), envs, replay,
                                learners=probe.agents, agent_idx=probe.agent_idx)
    collector.reset()
    with policy_within_training_step(policy):
        stats = collector.collect(n_episode=1)
    assert len(replay) == stats.n_collected_steps and replay.terminated.sum() == 2
    before = [parameter.detach().clone() for parameter in actor.parameters()]
    with policy_within_training_step(policy):
        losses = ppo.update(buffer=replay, batch_size=64, repeat=1)
    assert np.isfinite(losses.loss.mean) and np.isfinite(losses.ent_loss.mean)
    assert any(not torch.equal(old, new) for old, new in zip(before, actor.parameters()))


def test_a_game_longer_than_the_staging_buffer_stops_the_collection() -> None:
    probe = _build()
    random_policy = MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=probe.action_space).policy
    replay = ReplayBuffer(1000)
    collector = seats.collector(MultiAgentPolicy({agent: random_policy for agent in probe.agents}),
                                DummyVectorEnv([_build]), replay, ["seat_0"], probe.agent_idx, game_rows=40)
    collector.reset()
    with pytest.raises(ValueError, match="a game in env 0 ran past 40 decisions.*pass a larger game_rows"):
        collector.collect(n_step=100)
    assert len(replay) == 0


def test_a_seeded_env_deals_the_same_games_after_every_reset() -> None:
    def deals(seed: int) -> list[np.ndarray]:
        env = seats.SeededPettingZooEnv(valley_v0.env(players=2, action_labels=False))
        env.seed(seed)
        return [env.reset()[0]["obs"] for _ in range(3)]

    first, again, other = deals(3), deals(3), deals(4)
    assert all(np.array_equal(a, b) for a, b in zip(first, again))
    assert not np.array_equal(first[0], first[1])
    assert not all(np.array_equal(a, b) for a, b in zip(first, other))
    env = seats.SeededPettingZooEnv(valley_v0.env(players=2, action_labels=False))
    assert np.array_equal(env.reset(seed=3)[0]["obs"], first[0])


def test_a_reset_in_the_middle_of_a_game_drops_that_game_from_the_staging() -> None:
    probe = _build()
    random_policy = MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=probe.action_space).policy
    replay = ReplayBuffer(5000)
    envs = DummyVectorEnv([_build])
    envs.seed(7)
    collector = seats.collector(MultiAgentPolicy({agent: random_policy for agent in probe.agents}), envs, replay,
                                learners=probe.agents, agent_idx=probe.agent_idx, game_rows=400)
    collector.reset()
    collector.collect(n_step=30)
    assert collector.game_rows.rows == {0: 30}
    collector.reset(reset_buffer=False)  # the game under way is abandoned, its rows must not reach a seat
    assert collector.game_rows.rows == {} and len(collector.buffer) == 0
    stats = collector.collect(n_episode=1)
    assert len(replay) == stats.n_collected_steps and replay.terminated.sum() == 2
