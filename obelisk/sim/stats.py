"""Statistics for tournaments: Wilson intervals, mean intervals and Bradley–Terry ratings.

Kept free of numpy so the arena and its workers import quickly.
"""

from __future__ import annotations

import math
from typing import Sequence

Z95 = 1.959963984540054


def wilson_interval(successes: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion; ``(0, 1)`` without trials.

    Ties count as half wins, so ``successes`` may be fractional; the
    interval is still well defined and stays inside [0, 1], unlike the
    normal approximation near 0 % or 100 %.
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(max(p * (1 - p) / trials + z2 / (4 * trials * trials), 0.0)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """``(mean, low, high)`` with the normal-approximation interval of the mean."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = math.fsum(values) / n
    if n == 1:
        return (mean, mean, mean)
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(variance / n)
    return (mean, mean - half, mean + half)


def bradley_terry(
    names: Sequence[str], wins: dict[tuple[str, str], float], prior: float = 0.5, iterations: int = 2000
) -> dict[str, float]:
    """Bradley–Terry ratings on the Elo scale (400·log10 of strength), mean 0.

    ``wins[(a, b)]`` is how often ``a`` beat ``b`` (ties as halves). ``prior``
    adds that many virtual wins each way to every pair that met, so a bot that
    won every game gets a large but finite rating. Fitted with Hunter's MM
    iteration, which converges for any connected comparison graph.
    """
    games: dict[tuple[str, str], float] = {}
    won = {name: 0.0 for name in names}
    for (a, b), count in wins.items():
        if a == b:
            continue
        games[(a, b)] = games.get((a, b), 0.0) + count
        games[(b, a)] = games.get((b, a), 0.0) + count
        won[a] += count
    pairs = {tuple(sorted(p)) for p in games}
    for a, b in pairs:
        games[(a, b)] += 2 * prior
        games[(b, a)] += 2 * prior
        won[a] += prior
        won[b] += prior
    opponents: dict[str, list[tuple[str, float]]] = {name: [] for name in names}
    for (a, b), n in games.items():
        opponents[a].append((b, n))
    strength = {name: 1.0 for name in names}
    for _ in range(iterations):
        updated = {}
        for a in names:
            denominator = sum(n / (strength[a] + strength[b]) for b, n in opponents[a])
            updated[a] = max(won[a] / denominator, 1e-12) if denominator > 0 else 1.0
        scale = math.exp(math.fsum(math.log(v) for v in updated.values()) / len(updated))
        updated = {k: v / scale for k, v in updated.items()}
        converged = max(abs(math.log(updated[k] / strength[k])) for k in names) < 1e-10
        strength = updated
        if converged:
            break
    return {name: 400 * math.log10(strength[name]) for name in names}


def pairwise_wins(lineup: Sequence[str], returns: Sequence[float]) -> dict[tuple[str, str], float]:
    """Pairwise results of one game: the higher return beats the lower, ties give half each."""
    result: dict[tuple[str, str], float] = {}
    for i, a in enumerate(lineup):
        for j in range(i + 1, len(lineup)):
            b = lineup[j]
            if a == b:
                continue
            if returns[i] > returns[j]:
                score = 1.0
            elif returns[i] < returns[j]:
                score = 0.0
            else:
                score = 0.5
            result[(a, b)] = result.get((a, b), 0.0) + score
            result[(b, a)] = result.get((b, a), 0.0) + 1.0 - score
    return result
