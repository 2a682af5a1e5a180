"""RLlib PPO on the PettingZoo env of Valley of the Kings: every seat plays one shared, masked policy (self-play).

``obelisk.adapters.rllib.ObeliskRLlibEnv`` is the PettingZoo env behind
RLlib's ``PettingZooEnv`` with the observation keys RLlib's
``ActionMaskingTorchRLModule`` reads (``masked_module_spec``), so no sampled
action is ever illegal. Everything runs in this process (no env-runner or
learner actors). Steps are RLlib's env steps: every seat's decisions. At every
checkpoint the policy's most likely legal action plays fresh games against
Obelisk's ``random`` bot (see ``curves.py``).

    python examples/train_rllib.py --steps 100000 --plot rllib.png
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))

import curves  # noqa: E402  (sets the thread counts before torch loads)
import numpy as np  # noqa: E402
import ray  # noqa: E402
import torch  # noqa: E402
from ray.rllib.algorithms.ppo import PPOConfig  # noqa: E402
from ray.rllib.core.columns import Columns  # noqa: E402

from obelisk.adapters import rllib  # noqa: E402


def main(argv: Sequence[str] | None = None) -> list[curves.Checkpoint]:
    p = curves.parser(__doc__.splitlines()[0], steps=100_000)
    p.add_argument("--batch", type=int, default=2000, help="env steps per PPO iteration (default 2000)")
    args = p.parse_args(argv)
    curves.check(args, p)
    torch.set_num_threads(1)
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR,
             ignore_reinit_error=True)
    try:
        config = (
            PPOConfig()
            .environment(rllib.ObeliskRLlibEnv, env_config={"game": "valley", "players": args.players})
            .multi_agent(policies={"shared"}, policy_mapping_fn=rllib.shared_policy)
            .rl_module(rl_module_spec=rllib.masked_module_spec(["shared"], {"fcnet_hiddens": [256, 256]}))
            .env_runners(num_env_runners=0, num_envs_per_env_runner=1)
            .learners(num_learners=0)
            .training(train_batch_size_per_learner=args.batch, minibatch_size=min(128, args.batch), num_epochs=4,
                      lr=3e-4, gamma=0.999, entropy_coeff=0.01)
            .debugging(seed=args.seed, log_level="ERROR")
        )
        algo = config.build_algo()
        module = algo.get_module("shared")

        def choose(observation: np.ndarray, mask: np.ndarray) -> int:
            batch = {Columns.OBS: {"observations": torch.from_numpy(observation[None]),
                                   "action_mask": torch.from_numpy(mask[None].astype(np.float32))}}
            with torch.no_grad():
                logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
            return int(logits.argmax(dim=1)[0])

        curve = []
        trained = 0
        for target in curves.schedule(args.steps, args.checkpoints):
            while trained < target:
                result = algo.train()
                trained = int(result["num_env_steps_sampled_lifetime"])
            point = curves.evaluate(choose, trained, args.eval_games, args.players, args.seed)
            curves.show(point)
            curve.append(point)
        algo.stop()
    finally:
        ray.shutdown()
    if args.plot:
        curves.plot(curve, args.plot, f"RLlib PPO self-play, Valley {args.players}p",
                    steps="decisions trained, every seat's")
    return curve


if __name__ == "__main__":
    main()
