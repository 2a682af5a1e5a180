"""Shared checks for the games' undo tests: reach a situation in a seeded game, take decisions back."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from obelisk.core import IllegalActionError, State


def views(state: State) -> list[Any]:
    """What every seat and a spectator see."""
    return [state.observation(seat) for seat in [*range(state.num_players), None]]


def reach(state: State, wanted: Callable[[State, int], bool], seed: int = 0, limit: int = 20000) -> int:
    """Play ``state`` on at random until the seat to move has a legal action ``wanted`` accepts; that action."""
    rng = random.Random(seed)
    for _ in range(limit):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        found = [a for a in legal if wanted(state, a)]
        if found:
            return found[0]
        state.apply_action(rng.choice(legal))
    raise AssertionError("the seeded game never reached the situation")


def assert_taken_back(state: State, *labels: str) -> State:
    """Play ``labels`` (one seat's decisions); taking them all back gives exactly the earlier position."""
    actor = state.current_player()
    before, record = views(state), state.to_json()
    for label in labels:
        action = state.string_to_action(label)
        assert not state.reveals(action), label
        state.apply_action(action)
    assert state.undo_points(actor) >= len(labels)
    undone = state.undo(actor, len(labels))
    assert views(undone) == before and undone.to_json() == record
    return undone


def assert_refused(state: State, label: str) -> None:
    """Play ``label``: it reveals something, so it cannot be taken back, and the refusal says so."""
    actor = state.current_player()
    action = state.string_to_action(label)
    assert state.reveals(action), label
    state.apply_action(action)
    assert state.undo_points(actor) == 0
    with pytest.raises(IllegalActionError,
                       match=f"^player {actor + 1} cannot take back a decision now: its decision revealed something hidden$"):
        state.undo(actor)


def assert_two_in_a_row_taken_back(state: State, quiet: Callable[[State, int], bool]) -> State:
    """Plays on to two ``quiet`` decisions in a row of one seat and checks that both are taken back together."""

    def two_quiet(s: State, action: int) -> bool:
        if not quiet(s, action):
            return False
        after = s.clone()
        after.apply_action(action)
        return any(quiet(after, a) for a in after.legal_actions())

    first = reach(state, two_quiet)
    after = state.clone()
    after.apply_action(first)
    second = next(a for a in after.legal_actions() if quiet(after, a))
    return assert_taken_back(state, state.action_to_string(first), after.action_to_string(second))
