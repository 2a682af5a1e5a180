"""Scenario builders for the Valley of the Kings rule tests."""

from __future__ import annotations

import random
from typing import Any, Iterable

import obelisk
from obelisk.games.valley import frames as F
from obelisk.games.valley.state import ValleyState


def names_of(state: ValleyState) -> tuple[str, ...]:
    return state.game.table.names


def kind(state_or_game: Any, name: str) -> int:
    table = state_or_game.game.table if hasattr(state_or_game, "game") else state_or_game.table
    return table.names.index(name)


def kinds(state: ValleyState, names: Iterable[str]) -> list[int]:
    return [kind(state, n) for n in names]


def after_setup(players: int = 2, seed: int = 0, **options: Any) -> ValleyState:
    """A new game with the setup draws done: seat 0 to play its first turn."""
    game = obelisk.load("valley", players, **options)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    return state


def scenario(
    players: int = 2,
    hand: Iterable[str] = (),
    pyramid: Iterable[str | None] | None = None,
    stock: Iterable[str] | None = None,
    **options: Any,
) -> ValleyState:
    """Seat 0 to play with the given hand and pyramid (B1 B2 B3 M1 M2 T; None = empty).

    ``stock`` replaces the stock by exactly these cards (all counted as level II
    so they come out first); decks, discards and tombs keep the setup's
    contents unless a test sets them.
    """
    state = after_setup(players, **options)
    state.hands[0] = kinds(state, hand)
    if pyramid is not None:
        state.pyramid = [kind(state, n) if n else -1 for n in pyramid]
    if stock is not None:
        size = state.game.table.size
        state.stock_ii = [0] * size
        state.stock_iii = [0] * size
        for name in stock:
            state.stock_ii[kind(state, name)] += 1
        state.stock_sizes = [sum(state.stock_ii), 0]
    state._legal = None
    return state


def set_deck(state: ValleyState, seat: int, names: Iterable[str]) -> None:
    deck = [0] * state.game.table.size
    for name in names:
        deck[kind(state, name)] += 1
    state.decks[seat] = deck
    state.deck_sizes[seat] = sum(deck)
    state._legal = None


def act(state: ValleyState, label: str) -> None:
    """Apply the legal action with this label."""
    state.apply_action(state.string_to_action(label))


def draw(state: ValleyState, name: str) -> None:
    """Resolve the pending chance node with this card."""
    assert state.is_chance_node(), f"not a chance node: {state.stack[-1]}"
    state.apply_action(kind(state, name))


def labels(state: ValleyState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def pyramid_names(state: ValleyState) -> list[str | None]:
    names = names_of(state)
    return [names[k] if k >= 0 else None for k in state.pyramid]


def top_code(state: ValleyState) -> int:
    return state.stack[-1][0]


__all__ = ["F", "act", "after_setup", "draw", "kind", "kinds", "labels", "pyramid_names", "scenario", "set_deck",
           "top_code"]
