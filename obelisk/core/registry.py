"""The game registry: ``games()`` lists, ``load()`` builds."""

from __future__ import annotations

from typing import Any

from obelisk.core import codec
from obelisk.core.protocol import Game, GameInfo

_GAMES: dict[str, type[Game]] = {}


def register(game_class: type[Game]) -> type[Game]:
    """Add a game class to the registry (usable as a class decorator)."""
    game_id = game_class.info.id
    if game_id in _GAMES and _GAMES[game_id] is not game_class:
        raise ValueError(f"game id {game_id!r} is registered twice")
    _GAMES[game_id] = game_class
    return game_class


def unregister(game_id: str) -> None:
    """Remove a game (tests register throw-away games)."""
    _GAMES.pop(game_id, None)


def games() -> list[GameInfo]:
    """The registered games, sorted by id."""
    return [_GAMES[k].info for k in sorted(_GAMES)]


def game_class(game_id: str) -> type[Game]:
    if game_id not in _GAMES:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise ValueError(f"unknown game {codec.describe(game_id)}; known games: {known}")
    return _GAMES[game_id]


def load(game_id: str, players: int | None = None, **options: Any) -> Game:
    """Build a game; unknown ids, bad player counts and bad options raise ``ValueError``."""
    return game_class(game_id)(players, **options)
