"""Smoke tests: the game loads with its built-in cards and a random game finishes."""

from __future__ import annotations

import obelisk
from obelisk.core import testing


def test_builtin_cards_load() -> None:
    game = obelisk.load("valley", 2)
    assert len(game.table.names) == 35
    assert sum(game.table.copies) == 96


def test_random_game_finishes_with_equal_turns() -> None:
    for players in (2, 3, 4):
        state = testing.random_playout(obelisk.load("valley", players), seed=players)
        assert state.is_terminal()
        assert len(set(state.turns)) == 1
