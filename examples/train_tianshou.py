"""Tianshou multi-agent DQN on the PettingZoo env of Valley of the Kings: seat 0 learns, the others play at random.

The env is ``valley_v0.env(players=...)`` wrapped in Tianshou's own
``PettingZooEnv``, which turns our ``{"observation", "action_mask"}`` dict
into ``obs.obs`` and ``obs.mask``; Tianshou's ``MultiAgentOffPolicyAlgorithm``
gives every seat its algorithm: a DQN for ``seat_0`` (its Q-values and its
exploration both honour the mask) and Tianshou's masked random agent for the
others. Steps are counted as Tianshou's collector counts them: every seat's
decisions, the random seats' included. At every checkpoint the greedy
Q-policy plays fresh games against Obelisk's ``random`` bot (see ``curves.py``).

    python examples/train_tianshou.py --steps 100000 --plot tianshou.png
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))

import curves  # noqa: E402  (sets the thread counts before torch loads)
import numpy as np  # noqa: E402
import torch  # noqa: E402
from tianshou.algorithm import DQN, MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm  # noqa: E402
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy  # noqa: E402
from tianshou.algorithm.optim import AdamOptimizerFactory  # noqa: E402
from tianshou.data import Collector, CollectStats, VectorReplayBuffer  # noqa: E402
from tianshou.env import DummyVectorEnv  # noqa: E402
from tianshou.env.pettingzoo_env import PettingZooEnv  # noqa: E402
from tianshou.utils.net.common import Net  # noqa: E402
from tianshou.utils.torch_utils import policy_within_training_step, torch_train_mode  # noqa: E402

from obelisk.adapters.pettingzoo import valley_v0  # noqa: E402


def main(argv: Sequence[str] | None = None) -> list[curves.Checkpoint]:
    p = curves.parser(__doc__.splitlines()[0], steps=100_000)
    p.add_argument("--envs", type=int, default=4, help="parallel games collected from (default 4)")
    args = p.parse_args(argv)
    curves.check(args, p)
    # The collector's statistics warn at every game that the rewards are per-seat vectors, which is what
    # the multi-agent API returns.
    logging.getLogger("tianshou.data.stats").setLevel(logging.ERROR)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    torch.set_num_threads(1)

    def build() -> PettingZooEnv:
        # Tianshou stores infos in Batches, whose keys must be strings: no {id: label} dicts.
        return PettingZooEnv(valley_v0.env(players=args.players, action_labels=False))

    probe = build()
    features = probe.observation_space["observation"].shape[0]
    actions = int(probe.action_space.n)
    net = Net(state_shape=features, action_shape=actions, hidden_sizes=[256, 256])
    learner_policy = DiscreteQLearningPolicy(model=net, action_space=probe.action_space, eps_training=0.2,
                                             eps_inference=0.0)
    # Tianshou's n-step returns run over the shared buffer, every seat's steps in turn: the game-ending reward
    # often comes several opponent decisions after the learner's last one, so the horizon is long.
    learner = DQN(policy=learner_policy, optim=AdamOptimizerFactory(lr=3e-4), gamma=0.99,
                  n_step_return_horizon=10, target_update_freq=500)
    others = [MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=probe.action_space)
              for _ in range(args.players - 1)]
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=[learner, *others], env=probe)

    envs = DummyVectorEnv([build for _ in range(args.envs)])
    envs.seed(args.seed)
    collector = Collector[CollectStats](algorithm, envs, VectorReplayBuffer(50_000, args.envs),
                                        exploration_noise=True)
    collector.reset()

    def choose(observation: np.ndarray, mask: np.ndarray) -> int:
        with torch.no_grad():
            q, _ = net(observation[None])
        return int(learner_policy.compute_q_value(q, mask[None]).argmax(dim=1)[0])

    curve = []
    trained = 0
    for target in curves.schedule(args.steps, args.checkpoints):
        while trained < target:
            with policy_within_training_step(learner_policy), torch_train_mode(learner_policy, False):
                learner_policy.set_eps_training(max(0.05, 0.2 * (1 - trained / args.steps)))
                trained += collector.collect(n_step=8 * args.envs).n_collected_steps
            with policy_within_training_step(algorithm.policy), policy_within_training_step(learner_policy):
                for _ in range(2):
                    algorithm.update(buffer=collector.buffer, sample_size=64)
        net.eval()
        point = curves.evaluate(choose, trained, args.eval_games, args.players, args.seed)
        curves.show(point)
        curve.append(point)
    if args.plot:
        curves.plot(curve, args.plot, f"Tianshou DQN, Valley {args.players}p (vs random seats)",
                    steps="decisions trained, every seat's")
    return curve


if __name__ == "__main__":
    main()
