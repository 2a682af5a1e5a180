"""Game-agnostic engine: protocol, registry, pools, records. Imports no game."""

from obelisk.core.protocol import (
    CHANCE,
    TERMINAL,
    ActionSpace,
    Game,
    GameInfo,
    IllegalActionError,
    Option,
    State,
    rank_returns,
    sample_outcome,
)
from obelisk.core.registry import game_class, games, load, register, unregister

__all__ = [
    "CHANCE",
    "TERMINAL",
    "ActionSpace",
    "Game",
    "GameInfo",
    "IllegalActionError",
    "Option",
    "State",
    "game_class",
    "games",
    "load",
    "rank_returns",
    "sample_outcome",
    "register",
    "unregister",
]
