"""Masked REINFORCE on one seat of an Obelisk game, CPU and numpy only.

A linear softmax policy over the observation tensor learns to play seat 0 of
2-player Valley of the Kings against the ``random`` bot through the Gymnasium
adapter. Illegal actions are masked out of the softmax with
``info["action_mask"]``; the gradient of each episode is its final return
minus a running baseline, times the summed log-probability gradients (plain
REINFORCE, Williams 1992), applied with Adam. Every block of episodes prints
the win rate of the training games; before and after training the greedy
policy plays fresh games (the figures quoted in docs/research.md).

    .venv/bin/python examples/masked_reinforce.py
    .venv/bin/python examples/masked_reinforce.py --episodes 300 --game valley --opponent greedy
"""

from __future__ import annotations

import argparse
import os
import time

# One BLAS thread: the matrices are small, and threads only contend with the game engine.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from obelisk.adapters.gym import make  # noqa: E402


class LinearPolicy:
    """Softmax over ``W @ x + b`` restricted to the legal actions, trained with Adam."""

    def __init__(self, features: int, actions: int, rng: np.random.Generator, lr: float) -> None:
        self.params = [rng.normal(0.0, 0.01, (actions, features)), np.zeros(actions)]
        self.moments = [[np.zeros_like(p), np.zeros_like(p)] for p in self.params]
        self.lr = lr
        self.steps = 0

    def probabilities(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        weights, bias = self.params
        logits = weights @ x + bias
        logits = np.where(mask.astype(bool), logits, -np.inf)
        logits -= logits.max()
        exp = np.exp(logits)
        return exp / exp.sum()

    def episode_gradient(self, xs: list[np.ndarray], deltas: list[np.ndarray]) -> list[np.ndarray]:
        """Sum over steps of d log pi(a|x) / d params, where delta = onehot(a) - pi(.|x)."""
        delta = np.array(deltas)
        return [delta.T @ np.array(xs), delta.sum(axis=0)]

    def ascend(self, gradients: list[np.ndarray]) -> None:
        """One Adam step uphill."""
        self.steps += 1
        beta1, beta2 = 0.9, 0.999
        for param, grad, moment in zip(self.params, gradients, self.moments):
            moment[0] = beta1 * moment[0] + (1 - beta1) * grad
            moment[1] = beta2 * moment[1] + (1 - beta2) * grad * grad
            m_hat = moment[0] / (1 - beta1**self.steps)
            v_hat = moment[1] / (1 - beta2**self.steps)
            param += self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)


def play(env, policy: LinearPolicy, seed: int, rng: np.random.Generator, greedy: bool
         ) -> tuple[float, list[np.ndarray] | None]:
    """One episode; returns the learner's final return and (when sampling) its policy gradient."""
    obs, info = env.reset(seed=seed)
    xs: list[np.ndarray] = []
    deltas: list[np.ndarray] = []
    reward, terminated = 0.0, False
    while not terminated:
        probs = policy.probabilities(obs, info["action_mask"])
        action = int(np.argmax(probs)) if greedy else int(rng.choice(len(probs), p=probs))
        if not greedy:
            delta = -probs
            delta[action] += 1.0
            xs.append(obs)
            deltas.append(delta)
        obs, reward, terminated, truncated, info = env.step(action)
    return float(reward), (policy.episode_gradient(xs, deltas) if xs else None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="valley")
    parser.add_argument("--opponent", default="random", help="obelisk.bots spec of the other seat")
    parser.add_argument("--episodes", type=int, default=500, help="training episodes")
    parser.add_argument("--batch", type=int, default=10, help="episodes per update")
    parser.add_argument("--block", type=int, default=100, help="episodes per printed win rate")
    parser.add_argument("--eval", type=int, default=100, help="greedy evaluation games before and after")
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    env = make(args.game, seat=0, opponents=args.opponent, players=2)
    rng = np.random.default_rng(args.seed)
    policy = LinearPolicy(env.observation_space.shape[0], int(env.action_space.n), rng, args.lr)

    def evaluate(label: str) -> None:
        # Seeds far from the training seeds: games the policy has not trained on.
        results = [play(env, policy, 10**6 + i, rng, greedy=True)[0] for i in range(args.eval)]
        print(f"{label}: greedy win rate {np.mean([r > 0 for r in results]):.1%} over {args.eval} games "
              f"(mean return {np.mean(results):+.2f})", flush=True)

    started = time.perf_counter()
    evaluate("before training")
    baseline, batch, block = 0.0, [], []
    for episode in range(args.episodes):
        result, gradients = play(env, policy, args.seed * 10**7 + episode, rng, greedy=False)
        batch.append((result, gradients))
        block.append(result)
        if len(batch) == args.batch:
            update = [np.zeros_like(p) for p in policy.params]
            for ret, grads in batch:
                for total, grad in zip(update, grads or []):
                    total += (ret - baseline) * grad / len(batch)
            policy.ascend(update)
            baseline = 0.9 * baseline + 0.1 * float(np.mean([ret for ret, _ in batch]))
            batch = []
        if len(block) == args.block:
            print(f"episodes {episode + 1 - args.block:>5}-{episode:<5} training win rate "
                  f"{np.mean([r > 0 for r in block]):.1%}  [{time.perf_counter() - started:.0f}s]", flush=True)
            block = []
    evaluate("after training")


if __name__ == "__main__":
    main()
