"""Spaces, tensors and masks shared by the PettingZoo and Gymnasium adapters."""

from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces

from obelisk.core import Game, State


def tensor_size(game: Game) -> int:
    """The game's observation tensor length; a ``TypeError`` names a game without one."""
    return game.observation_tensor_size()


OBSERVATION_RANGES: dict[str, tuple[float, float]] = {
    "cleopatra": (-2.0, 10.0),
    "solomon": (0.0, 4.0),
    "tomb": (0.0, 1.0),
    "valley": (0.0, 4.0),
}
"""Declared ``(low, high)`` of every feature, per game. One-hots, flags and per-kind shares lie in 0..1 by
construction; the unbounded counts (coins, talents, turns, cards piling up) are scaled to about 0..1 and the
ranges leave room for long random games (tests/adapters/test_bounds.py samples them). Tomb's features are
all shares or flags; Cleopatra's "amulets lost in the last Offering" is the only negative one."""

DEFAULT_RANGE = (-10.0, 10.0)
"""The range of a game missing from ``OBSERVATION_RANGES`` (tensors are scaled to about 0..1)."""

_WARNED: set[str] = set()


def observation_range(game: Game) -> tuple[float, float]:
    """The declared bounds of every feature of the game's tensor."""
    return OBSERVATION_RANGES.get(game.id, DEFAULT_RANGE)


def observation_box(game: Game) -> spaces.Box:
    """Finite bounds, so the space can be sampled and normalised; tensors are clipped into them."""
    low, high = observation_range(game)
    return spaces.Box(low=low, high=high, shape=(tensor_size(game),), dtype=np.float32)


def mask_box(game: Game) -> spaces.Box:
    return spaces.Box(low=0, high=1, shape=(game.num_distinct_actions(),), dtype=np.int8)


def observation_tensor(game: Game, state: State, seat: int | None) -> np.ndarray:
    """``Game.observation_tensor`` of the seat's view, as float32 clipped to ``observation_range``.

    The first clipped value of a game is reported once with ``gymnasium.logger.warn``.
    """
    tensor = np.asarray(game.observation_tensor(state.observation(seat)), dtype=np.float32)
    low, high = observation_range(game)
    if game.id not in _WARNED and (tensor.min() < low or tensor.max() > high):
        _WARNED.add(game.id)
        index = int(np.argmax((tensor < low) | (tensor > high)))
        gymnasium.logger.warn(f"{game.id}: observation feature {index} is {tensor[index]}, outside the declared "
                              f"range [{low}, {high}]; clipped (reported once per game)")
    return np.clip(tensor, low, high)


def action_mask(game: Game, state: State, seat: int) -> np.ndarray:
    """1 for the seat's legal actions; all zeros when the seat is not to act."""
    mask = np.zeros(game.num_distinct_actions(), dtype=np.int8)
    if state.current_player() == seat:
        mask[state.legal_actions()] = 1
    return mask


def action_id(action: object) -> int:
    """``action`` as an int id if it is an integer (Python or NumPy, bools excluded), else ``ValueError``.

    RL libraries pass NumPy integers (also as 0-d arrays); a float, string or
    bool is a caller's mistake that ``int()`` would silently turn into a move.
    """
    if isinstance(action, np.ndarray) and action.ndim == 0:
        action = action[()]
    if isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)):
        return int(action)
    raise ValueError(f"an action must be an integer id (int or NumPy integer), got {action!r:.60}")
