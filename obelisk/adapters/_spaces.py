"""Spaces, tensors and masks shared by the PettingZoo and Gymnasium adapters."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from obelisk.core import Game, State


def tensor_size(game: Game) -> int:
    """The game's observation tensor length; a ``TypeError`` names a game without one."""
    return game.observation_tensor_size()


def observation_box(game: Game) -> spaces.Box:
    """Observation tensors are finite float32 vectors; each game documents their ranges."""
    return spaces.Box(low=-np.inf, high=np.inf, shape=(tensor_size(game),), dtype=np.float32)


def mask_box(game: Game) -> spaces.Box:
    return spaces.Box(low=0, high=1, shape=(game.num_distinct_actions(),), dtype=np.int8)


def observation_tensor(game: Game, state: State, seat: int | None) -> np.ndarray:
    """``Game.observation_tensor`` of the seat's view, as float32."""
    return np.asarray(game.observation_tensor(state.observation(seat)), dtype=np.float32)


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
