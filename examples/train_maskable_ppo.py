"""MaskablePPO (sb3-contrib) on one seat of Valley of the Kings, against ``random`` and then ``greedy``.

The env is ``gymnasium.make("obelisk/Valley-v0", ...)``; MaskablePPO asks it
for ``action_masks()`` before every decision, so the policy never samples an
illegal action. The first half of the steps is played against the ``random``
bot, the second half against ``greedy`` (from each env's next game on). At
every checkpoint the deterministic policy plays fresh games against
``random`` (see ``curves.py``).

    python examples/train_maskable_ppo.py --steps 50000 --plot ppo.png
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))

import curves  # noqa: E402  (sets the thread counts before torch loads)
import gymnasium  # noqa: E402
import numpy as np  # noqa: E402
import torch  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402
from stable_baselines3.common.vec_env import DummyVecEnv  # noqa: E402

import obelisk.adapters.gym  # noqa: E402,F401  (registers obelisk/Valley-v0)


def main(argv: Sequence[str] | None = None) -> list[curves.Checkpoint]:
    p = curves.parser(__doc__.splitlines()[0], steps=50_000)
    p.add_argument("--envs", type=int, default=4, help="parallel games in the rollout (default 4)")
    p.add_argument("--n-steps", type=int, default=256, help="rollout length per env and update (default 256)")
    args = p.parse_args(argv)
    curves.check(args, p)
    torch.set_num_threads(1)

    def build(rank: int):  # noqa: ANN202
        return lambda: gymnasium.make("obelisk/Valley-v0", players=args.players, seat=rank % args.players,
                                      opponents="random")

    env = DummyVecEnv([build(rank) for rank in range(args.envs)])
    env.seed(args.seed)
    model = MaskablePPO("MlpPolicy", env, n_steps=args.n_steps, batch_size=64, n_epochs=4, learning_rate=3e-4,
                        gamma=0.999, ent_coef=0.01, seed=args.seed, device="cpu", verbose=0)

    def choose(observation: np.ndarray, mask: np.ndarray) -> int:
        return int(model.predict(observation, action_masks=mask, deterministic=True)[0])

    curve = []
    switched = False
    for target in curves.schedule(args.steps, args.checkpoints):
        if not switched and target > args.steps // 2:
            env.env_method("set_opponents", "greedy")
            switched = True
        if target > model.num_timesteps:
            # Whole rollouts only: a checkpoint may come a little after its target.
            model.learn(total_timesteps=target - model.num_timesteps, reset_num_timesteps=False)
        point = curves.evaluate(choose, model.num_timesteps, args.eval_games, args.players, args.seed)
        curves.show(point)
        curve.append(point)
    if args.plot:
        curves.plot(curve, args.plot, f"MaskablePPO, Valley {args.players}p (random, then greedy)")
    return curve


if __name__ == "__main__":
    main()
