"""What the training examples share: the command line, the win rate against ``random`` and the curve.

Every example trains for ``--steps`` learner decisions, stops at
``--checkpoints`` evenly spaced points to play ``--eval-games`` fresh games
against the ``random`` bot (the learner alternates seats, so neither seat's
advantage is counted), prints one line per checkpoint and, with ``--plot
FILE``, saves the curve as a PNG.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from typing import Callable, Sequence

# One thread each for BLAS and torch: the networks are small and threads only contend with the game engine.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from obelisk.adapters.gym import make  # noqa: E402

Choose = Callable[[np.ndarray, np.ndarray], int]
"""``choose(observation, bool mask) -> action id`` for the learner's seat."""


@dataclass(frozen=True)
class Checkpoint:
    """The learner after ``steps`` decisions of training, against ``random``."""

    steps: int
    win_rate: float
    mean_return: float
    games: int


def parser(description: str, steps: int) -> argparse.ArgumentParser:
    """The options every example takes."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--steps", type=int, default=steps, help="learner decisions to train for (default %(default)s)")
    p.add_argument("--checkpoints", type=int, default=5, help="evaluations after training starts (default 5)")
    p.add_argument("--eval-games", type=int, default=40, help="games against random per evaluation (default 40)")
    p.add_argument("--players", type=int, default=2, help="players at the table (default 2)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--plot", metavar="FILE", help="save the learning curve as a PNG")
    return p


def check(args: argparse.Namespace, p: argparse.ArgumentParser) -> None:
    """One clear error for numbers that make no run."""
    for name in ("steps", "checkpoints", "eval_games"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1")


def schedule(steps: int, checkpoints: int) -> list[int]:
    """0 (the untrained policy), then evenly spaced checkpoints ending at ``steps`` (no duplicates)."""
    return sorted({0} | {max(1, round(steps * (i + 1) / checkpoints)) for i in range(checkpoints)})


def evaluate(choose: Choose, steps: int, games: int, players: int = 2, seed: int = 0,
             game_id: str = "valley") -> Checkpoint:
    """Play ``games`` games against ``random``, the learner in seat ``g % players`` of game ``g``.

    A win is a positive return (first place alone); the fresh games are seeded
    apart from training (``seed`` + 10**6 onwards), so every checkpoint meets the same deals.
    """
    returns = []
    envs = {seat: make(game_id, seat=seat, players=players, opponents="random") for seat in range(players)}
    for g in range(games):
        env = envs[g % players]
        obs, info = env.reset(seed=seed + 10**6 + g)
        reward, done = 0.0, False
        while not done:
            obs, reward, done, _, info = env.step(choose(obs, info["action_mask"].astype(bool)))
            if info.get("illegal_action"):
                raise RuntimeError(f"the policy chose an illegal action in evaluation game {g}: is its mask applied?")
        returns.append(float(reward))
    values = np.asarray(returns)
    return Checkpoint(steps, float((values > 0).mean()), float(values.mean()), games)


def show(point: Checkpoint) -> None:
    """One line of the learning curve."""
    print(f"steps {point.steps:>8}  win rate vs random {point.win_rate:6.1%}  mean return {point.mean_return:+.2f}"
          f"  ({point.games} games)", flush=True)


def plot(curve: Sequence[Checkpoint], path: str, title: str, steps: str = "learner decisions trained") -> None:
    """Save the win rate against ``random`` over training ``steps`` (as the library counts them) as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.6), dpi=100)
    ax.plot([p.steps for p in curve], [100 * p.win_rate for p in curve], marker="o")
    ax.axhline(50, color="grey", linewidth=0.8, linestyle="--")
    ax.set_ylim(0, 100)
    ax.set_xlabel(steps)
    ax.set_ylabel("win rate vs random (%)")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    print(f"saved {path}")
