"""Tianshou DQN on Valley of the Kings with masked actions, against the ``random`` bot.

Two ways in, chosen with ``--api``:

* ``gym`` (default): one learner seat of ``gymnasium.make("obelisk/Valley-v0",
  dict_observation=True, opponents="random")``, its ``{"observation",
  "action_mask"}`` renamed to the ``obs`` / ``mask`` that Tianshou's DQN reads.
  Steps are the learner's decisions.
* ``pettingzoo``: Tianshou's multi-agent API on ``valley_v0.env(...)`` wrapped
  in Tianshou's ``PettingZooEnv`` (``obs.obs`` / ``obs.mask``), with a
  ``MultiAgentOffPolicyAlgorithm``: a DQN for ``seat_0`` and Tianshou's masked
  random agent for the other seats. Steps are every seat's decisions, as the
  collector counts them. Its returns run over the shared buffer, where the
  rows after a learner's decision are its opponents': the learner bootstraps
  from an opponent's view, whose value in a zero-sum game has the other sign
  (a seat makes runs of decisions here and the game's reward comes after
  many of them). It runs and masks, but ``gym`` is the default: there every
  row of the buffer is the learner's own (curves in docs/research.md).

In both the Q-values and the ε-exploration honour the mask. At every
checkpoint the greedy Q-policy plays fresh games against ``random`` (see
``curves.py``).

    python examples/train_tianshou.py --steps 60000 --plot tianshou.png
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
from tianshou.algorithm import DQN, MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm  # noqa: E402
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy  # noqa: E402
from tianshou.algorithm.optim import AdamOptimizerFactory  # noqa: E402
from tianshou.data import Collector, CollectStats, VectorReplayBuffer  # noqa: E402
from tianshou.env import DummyVectorEnv  # noqa: E402
from tianshou.env.pettingzoo_env import PettingZooEnv  # noqa: E402
from tianshou.utils.net.common import Net  # noqa: E402
from tianshou.utils.torch_utils import policy_within_training_step, torch_train_mode  # noqa: E402

import obelisk.adapters.gym  # noqa: E402,F401  (registers obelisk/Valley-v0)
from obelisk.adapters.pettingzoo import valley_v0  # noqa: E402


class TianshouKeys(gymnasium.ObservationWrapper):
    """The Gymnasium env's Dict observation under the keys Tianshou's DQN reads: ``obs`` and ``mask``."""

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
                   help="one seat against random bots, or Tianshou's multi-agent API (default gym)")
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
        return PettingZooEnv(valley_v0.env(players=args.players, action_labels=False))

    def builder(rank: int):  # noqa: ANN202
        return lambda: TianshouKeys(gymnasium.make("obelisk/Valley-v0", players=args.players,
                                                   seat=rank % args.players, opponents="random",
                                                   dict_observation=True))

    multi_agent = args.api == "pettingzoo"
    probe = build_multi_agent() if multi_agent else builder(0)()
    features = probe.observation_space["obs" if not multi_agent else "observation"].shape[0]
    actions = int(probe.action_space.n)
    net = Net(state_shape=features, action_shape=actions, hidden_sizes=[256, 256])
    learner_policy = DiscreteQLearningPolicy(model=net, action_space=probe.action_space, eps_training=0.2,
                                             eps_inference=0.0)
    # In the multi-agent buffer the game-ending reward often comes several opponent decisions after the
    # learner's last one, so the horizon there is long.
    learner = DQN(policy=learner_policy, optim=AdamOptimizerFactory(lr=3e-4), gamma=0.99,
                  n_step_return_horizon=10 if multi_agent else 3, target_update_freq=500)
    algorithm: DQN | MultiAgentOffPolicyAlgorithm = learner
    if multi_agent:
        others = [MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=probe.action_space)
                  for _ in range(args.players - 1)]
        algorithm = MultiAgentOffPolicyAlgorithm(algorithms=[learner, *others], env=probe)

    envs = DummyVectorEnv([build_multi_agent if multi_agent else builder(rank) for rank in range(args.envs)])
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
        if multi_agent:
            curves.plot(curve, args.plot, f"Tianshou DQN, multi-agent API, Valley {args.players}p (vs random)",
                        steps="decisions trained, every seat's")
        else:
            curves.plot(curve, args.plot, f"Tianshou DQN, Valley {args.players}p (vs random)")
    return curve


if __name__ == "__main__":
    main()
