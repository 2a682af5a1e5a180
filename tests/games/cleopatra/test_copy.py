"""The hand-written clone: equal to the generic copy, sharing no mutable container with the original."""

from __future__ import annotations

import random
from typing import Any

import obelisk
from obelisk.core import State
from obelisk.core.protocol import state_fields


def _containers(value: Any, found: list[Any]) -> list[Any]:
    if isinstance(value, (list, dict)):
        found.append(value)
        for item in value.values() if isinstance(value, dict) else value:
            _containers(item, found)
    elif isinstance(value, tuple):
        for item in value:
            _containers(item, found)
    return found


def test_clone_matches_the_generic_copy_and_shares_nothing_mutable() -> None:
    game = obelisk.load("cleopatra", 4)
    rng = random.Random(5)
    for seed in range(3):
        state = game.new_initial_state(seed)
        step = 0
        while not state.is_terminal():
            if step % 7 == 0:
                state.legal_actions()
                copy = state.clone()
                generic = State.clone(state)
                copy_fields = state_fields(copy)
                generic_fields = state_fields(generic)
                assert copy_fields.keys() == generic_fields.keys()
                for name, value in generic_fields.items():
                    assert copy_fields[name] == value, name
                originals = {id(c) for c in _containers(list(state_fields(state).values()), [])}
                copies = _containers([v for k, v in copy_fields.items() if k not in ("game", "_legal")], [])
                assert not any(id(c) in originals for c in copies)
                assert copy.observation(1) == state.observation(1)
            action = state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
            state.apply_action(action)
            step += 1
        final = state.clone()
        assert final.returns() == state.returns() and final.scores() == state.scores()
