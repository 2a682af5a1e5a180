"""Seeded randomness for callers that "just play": bots, simulations, the CLI."""

from __future__ import annotations

import random

from obelisk.core import codec
from obelisk.core.protocol import State


def make_rng(*parts: object) -> random.Random:
    """A private generator seeded from ``parts`` (stable across runs and platforms)."""
    return random.Random(":".join(codec.seed_text(p) for p in parts))


def resolve_chance(state: State, rng: random.Random) -> None:
    """Apply sampled outcomes until a player (or the end) is to act."""
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
