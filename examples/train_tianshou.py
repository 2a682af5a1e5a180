"""Tianshou on Valley of the Kings with masked actions, evaluated against the ``random`` bot.

Two ways in, chosen with ``--api``:

* ``gym`` (default): DQN on one learner seat of ``gymnasium.make("obelisk/Valley-v0",
  dict_observation=True, opponents="random")``, its ``{"observation",
  "action_mask"}`` renamed to the ``obs`` / ``mask`` that Tianshou reads; the
  Q-values and the ε-exploration honour the mask. The game's one reward comes
  at its end, some 160 of the seat's decisions after its first, so the
  returns look 10 decisions ahead and the target network follows every 100
  updates. It learns, with dips (docs/research.md, "Curves"). Steps are the
  learner's decisions.
* ``pettingzoo``: Tianshou's multi-agent API on ``valley_v0.env(...)`` wrapped
  in Tianshou's ``PettingZooEnv``, every seat playing one PPO policy
  (self-play) whose illegal actions get probability zero
  (``obelisk.adapters.tianshou.MaskedActor``). The collector's buffer
  interleaves the seats' decisions, so ``obelisk.adapters.tianshou.collector``
  hands PPO each finished game as one chain of transitions per seat (its next
  decision, its reward): the advantages never cross to the opponent's view.
  Steps are every seat's decisions, as the collector counts them.

At every checkpoint the greedy policy plays fresh games against ``random``
(see ``curves.py``).

    python examples/train_tianshou.py --steps 60000 --plot tianshou.png
    python examples/train_tianshou.py --api pettingzoo --steps 60000 --plot tianshou_pettingzoo.png
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))

import curves  # noqa: E402  (sets the thread counts before torch loads)
import gymnasium  # noqa: E402
import numpy as np  # noqa: E402
import torch  # noqa: E402
from tianshou.algorithm import DQN, PPO  # noqa: E402
from tianshou.algorithm.algorithm_base import Policy  # noqa: E402
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy  # noqa: E402
from tianshou.algorithm.modelfree.reinforce import DiscreteActorPolicy  # noqa: E402
from tianshou.algorithm.multiagent.marl import MultiAgentPolicy  # noqa: E402
from tianshou.algorithm.optim import AdamOptimizerFactory  # noqa: E402
from tianshou.data import Batch, Collector, CollectStats, ReplayBuffer, VectorReplayBuffer  # noqa: E402
from tianshou.env import DummyVectorEnv  # noqa: E402
from tianshou.env.pettingzoo_env import PettingZooEnv  # noqa: E402
from tianshou.utils.net.common import Net  # noqa: E402
from tianshou.utils.torch_utils import policy_within_training_step, torch_train_mode  # noqa: E402

import obelisk.adapters.gym  # noqa: E402,F401  (registers obelisk/Valley-v0)
from obelisk.adapters import tianshou as seats  # noqa: E402
from obelisk.adapters.pettingzoo import valley_v0  # noqa: E402

ROLLOUT = 1024
"""PPO updates once this many seat transitions (whole games) are in, then starts a fresh rollout."""


class TianshouKeys(gymnasium.ObservationWrapper):
    """The Gymnasium env's Dict observation under the keys Tianshou reads: ``obs`` and ``mask``."""

    def __init__(self, env: gymnasium.Env) -> None:
        super().__init__(env)
        inner = env.observation_space
        self.observation_space = gymnasium.spaces.Dict({"obs": inner["observation"], "mask": inner["action_mask"]})

    def observation(self, observation: dict) -> dict:
        return {"obs": observation["observation"], "mask": observation["action_mask"]}


def main(argv: Sequence[str] | None = None) -> list[curves.Checkpoint]:
    p = curves.parser(__doc__.splitlines()[0], steps=60_000)
    p.add_argument("--envs", type=int, default=4, help="parallel games collected from (default 4)")
    p.add_argument("--api", choices=("gym", "pettingzoo"), default="gym",
                   help="DQN on one seat against random bots, or PPO self-play through Tianshou's multi-agent "
                        "API (default gym)")
    args = p.parse_args(argv)
    curves.check(args, p)
    # The collector's statistics warn at every game that the rewards are per-seat vectors, which is what
    # the multi-agent API returns.
    logging.getLogger("tianshou.data.stats").setLevel(logging.ERROR)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    torch.set_num_threads(1)

    def build_multi_agent() -> PettingZooEnv:
        # Tianshou stores infos in Batches, whose keys must be strings: no {id: label} dicts.
        return seats.SeededPettingZooEnv(valley_v0.env(players=args.players, action_labels=False))

    def builder(rank: int):  # noqa: ANN202
        return lambda: TianshouKeys(gymnasium.make("obelisk/Valley-v0", players=args.players,
                                                   seat=rank % args.players, opponents="random",
                                                   dict_observation=True))

    multi_agent = args.api == "pettingzoo"
    probe = build_multi_agent() if multi_agent else builder(0)()
    features = probe.observation_space["observation" if multi_agent else "obs"].shape[0]
    actions = int(probe.action_space.n)
    envs = DummyVectorEnv([build_multi_agent if multi_agent else builder(rank) for rank in range(args.envs)])
    envs.seed(args.seed)

    policy: Policy
    if multi_agent:
        actor = seats.MaskedActor(Net(state_shape=features, action_shape=actions, hidden_sizes=[256, 256]))
        critic = seats.ObservationCritic(Net(state_shape=features, action_shape=1, hidden_sizes=[256, 256]))
        policy = DiscreteActorPolicy(actor=actor, action_space=probe.action_space, deterministic_eval=True)
        algorithm = PPO(policy=policy, critic=critic, optim=AdamOptimizerFactory(lr=1e-4), max_grad_norm=0.5,
                        gamma=0.99, gae_lambda=0.95)
        replay = ReplayBuffer(4 * ROLLOUT, ignore_obs_next=True)
        collector = seats.collector(MultiAgentPolicy({agent: policy for agent in probe.agents}), envs, replay,
                                    learners=probe.agents, agent_idx=probe.agent_idx)

        def train() -> None:
            if len(replay) >= ROLLOUT:
                algorithm.update(buffer=replay, batch_size=128, repeat=8)
                replay.reset()

        def choose(observation: np.ndarray, mask: np.ndarray) -> int:
            with torch.no_grad():
                logits, _ = actor(Batch(obs=observation[None], mask=mask[None]))
            return int(logits.argmax(dim=1)[0])
    else:
        net = Net(state_shape=features, action_shape=actions, hidden_sizes=[256, 256])
        policy = q_policy = DiscreteQLearningPolicy(model=net, action_space=probe.action_space, eps_training=0.2)
        learner = DQN(policy=q_policy, optim=AdamOptimizerFactory(lr=3e-4), gamma=0.99, n_step_return_horizon=10,
                      target_update_freq=100)
        collector = Collector[CollectStats](learner, envs, VectorReplayBuffer(50_000, args.envs),
                                            exploration_noise=True)

        def train() -> None:
            for _ in range(2):
                learner.update(buffer=collector.buffer, sample_size=64)
            q_policy.set_eps_training(max(0.05, 0.2 * (1 - trained / args.steps)))

        def choose(observation: np.ndarray, mask: np.ndarray) -> int:
            with torch.no_grad():
                q, _ = net(observation[None])
            return int(q_policy.compute_q_value(q, mask[None]).argmax(dim=1)[0])

    collector.reset()
    curve = []
    trained = 0
    for target in curves.schedule(args.steps, args.checkpoints):
        while trained < target:
            with policy_within_training_step(policy), torch_train_mode(policy, False):
                trained += collector.collect(n_step=8 * args.envs).n_collected_steps
            with policy_within_training_step(policy):
                train()
        point = curves.evaluate(choose, trained, args.eval_games, args.players, args.seed)
        curves.show(point)
        curve.append(point)
    if args.plot:
        if multi_agent:
            curves.plot(curve, args.plot, f"Tianshou PPO self-play, multi-agent API, Valley {args.players}p "
                        "(vs random)", steps="decisions trained, every seat's")
        else:
            curves.plot(curve, args.plot, f"Tianshou DQN, Valley {args.players}p (vs random)")
    return curve


if __name__ == "__main__":
    main()
