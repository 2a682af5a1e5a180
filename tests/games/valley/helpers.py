"""Scenario builders for the Valley of the Kings rule tests."""

from __future__ import annotations

import random
from typing import Any, Iterable

import obelisk
import obelisk.games.valley.rules as R
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


__all__ = ["R", "act", "after_setup", "draw", "inconsistency", "kind", "kinds", "labels", "pyramid_names", "scenario",
           "set_deck", "top_code"]


def inconsistency(state: Any) -> str | None:
    """The first way ``state`` breaks card conservation or its shape, or None (a rules invariant)."""
    table = state.game.table
    n = state.num_players
    k = table.size
    for field in ("hands", "decks", "deck_sizes", "tops", "shown", "discards", "tombs", "turns"):
        if len(getattr(state, field)) != n:
            return f"{field} must have one entry per seat ({n})"
    for seat in range(n):
        hand = list(state.hands[seat])
        for kind in state.shown[seat]:
            if kind not in hand:
                return f"seat {seat}: a card shown in the hand ({kind!r}) is not in the hand"
            hand.remove(kind)
    piles = [*state.hands, *state.tops, *state.discards, *state.tombs, state.boneyard, state.play, state.revealed]
    piles.append([c for c in state.pyramid if c != -1])
    for pile in piles:
        if any(type(c) is not int or not 0 <= c < k for c in pile):
            return f"a pile holds a card id outside 0..{k - 1}"
    if len(state.pyramid) != 6:
        return "the pyramid must have 6 slots"
    counts = [0] * k
    for pool in (*state.decks, state.stock_ii, state.stock_iii):
        if len(pool) != k or any(type(c) is not int or c < 0 for c in pool):
            return f"a deck or stock pool must hold {k} non-negative counts"
        for kind, c in enumerate(pool):
            counts[kind] += c
    for seat in range(n):
        if state.deck_sizes[seat] != sum(state.decks[seat]):
            return f"deck size of seat {seat} does not match its pool"
    if state.stock_sizes != [sum(state.stock_ii), sum(state.stock_iii)]:
        return "stock sizes do not match the stock pools"
    for pile in piles:
        for c in pile:
            counts[c] += 1
    for kind in range(k):
        expected = table.per_player[kind] * n if table.level[kind] == 1 else table.copies[kind]
        if counts[kind] != expected:
            return f"{table.names[kind]}: {counts[kind]} copies in play, expected {expected}"
    if not 0 <= state.active < n:
        return f"active seat {state.active} is not a seat"
    if state.over:
        return None if not state.stack else "a finished game has pending steps"
    if not state.stack or any(type(f) is not tuple or not f or type(f[0]) is not int for f in state.stack):
        return "the pending steps are malformed"
    top = state.stack[-1]
    if top[0] not in R.DECISIONS and top[0] not in R.CHANCES:
        return "the pending step on top is not a decision or a draw"
    if top[0] in R.DECISIONS and not 0 <= top[1] < n:
        return "the pending decision names no seat"
    return None
