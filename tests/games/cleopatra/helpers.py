"""Scenario helpers: a started game, hands set by card name, actions chosen by label prefix."""

from __future__ import annotations

import random

import obelisk
from obelisk.games.cleopatra.data import KINDS
from obelisk.games.cleopatra.state import CleopatraState


def start(players: int = 3, seed: int = 0, merchants: int = 0, **options) -> CleopatraState:
    """A game after the setup chance nodes, seat 0 to play, every hand emptied into the deck.

    Seats hold ``merchants`` Nile merchants (0 by default, so payments with
    one card per unit have one way each; ``do`` pays them).
    """
    game = obelisk.load("cleopatra", players, **options)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    for seat in range(players):
        set_hand(state, seat)
    state.merchants = [merchants] * players
    return state


def set_hand(state: CleopatraState, seat: int, **cards: int) -> None:
    """Give ``seat`` exactly ``cards`` (kind=count), moving cards between the hand and the deck."""
    for k in range(len(KINDS)):
        state.deck[k] += state.hands[seat][k]
        state.hands[seat][k] = 0
    for name, count in cards.items():
        k = KINDS.index(name)
        state.hands[seat][k] = count
        state.deck[k] -= count
    for viewer in range(state.num_players + 1):
        state.known[viewer][seat] = [0] * len(KINDS)
    state.deck_up = min(state.deck_up, sum(state.deck))
    state._legal = None


def labels(state: CleopatraState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def find(state: CleopatraState, prefix: str) -> int:
    """The single legal action whose label starts with ``prefix``."""
    hits = [a for a in state.legal_actions() if state.action_to_string(a).startswith(prefix)]
    assert len(hits) == 1, f"{prefix!r} matches {[state.action_to_string(a) for a in hits]} among {labels(state)}"
    return hits[0]


def do(state: CleopatraState, *prefixes: str) -> None:
    """Apply the actions named by ``prefixes``, each followed by the payments that have one way only.

    A hidden hand is asked even for a unit it can pay one way only (ruling 18);
    these scenarios pay such units as a public hand would pay them by itself.
    """
    for prefix in prefixes:
        state.apply_action(find(state, prefix))
        pay_forced(state)


def pay_forced(state: CleopatraState) -> None:
    """Pay every next unit that has a single legal way to be paid."""
    while state.phase == "pay" and not state.is_chance_node() and len(state.legal_actions()) == 1:
        state.apply_action(state.legal_actions()[0])


def chance(state: CleopatraState, outcome: int) -> None:
    assert state.is_chance_node(), f"not a chance node: phase {state.phase}"
    state.apply_action(outcome)


def settle(state: CleopatraState, seed: int = 1) -> None:
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))


def action(state: CleopatraState, name: str, index: int = 0) -> int:
    return state.game.actions.encode(name, index)
