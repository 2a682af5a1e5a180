"""Face-down pools: a shuffled deck or a tile bag as a multiset of kinds.

Drawing from a pool is a chance node whose outcomes are the kinds present,
with probability proportional to their count. A pool is a plain list of
counts indexed by kind, so it lives inside a state and clones cheaply.
"""

from __future__ import annotations

import random
from typing import Sequence


def pool_outcomes(counts: Sequence[int], offset: int = 0) -> list[tuple[int, float]]:
    """Chance outcomes ``(offset + kind, count / total)`` for the kinds present."""
    total = sum(counts)
    if total <= 0:
        raise ValueError("cannot draw from an empty pool")
    return [(offset + kind, n / total) for kind, n in enumerate(counts) if n]


def pool_size(counts: Sequence[int]) -> int:
    return sum(counts)


def draw_random(counts: list[int], rng: random.Random) -> int:
    """Remove and return one kind drawn uniformly among the pool's items."""
    total = sum(counts)
    if total <= 0:
        raise ValueError("cannot draw from an empty pool")
    pick = rng.randrange(total)
    for kind, n in enumerate(counts):
        if pick < n:
            counts[kind] -= 1
            return kind
        pick -= n
    raise AssertionError("unreachable: pick below total")


def deal_random(counts: list[int], n: int, rng: random.Random) -> list[int]:
    """Draw ``n`` kinds without replacement (used to re-deal hidden items)."""
    return [draw_random(counts, rng) for _ in range(n)]
