"""Cases and helpers shared by the adapter tests."""

from __future__ import annotations

import pytest

import obelisk
from obelisk.core import Game

CASES = [
    pytest.param(info.id, n, id=f"{info.id}-{n}p")
    for info in obelisk.list_games()
    for n in range(info.min_players, info.max_players + 1)
]
"""Every registered game at every player count."""

GAME_CASES = [pytest.param(info.id, info.min_players, id=f"{info.id}-{info.min_players}p") for info in obelisk.list_games()]
"""Every registered game once, at its smallest player count (for the slower per-state checks)."""

TWO_PLAYER_CASES = [
    pytest.param(info.id, id=info.id) for info in obelisk.list_games() if info.min_players <= 2 <= info.max_players
]


def require_tensor(game: Game) -> int:
    """The game's tensor size; skip (naming the game) while it defines no observation tensor."""
    try:
        return game.observation_tensor_size()
    except TypeError as error:
        pytest.skip(str(error))
