"""Undo in every game: what the hook calls non-revealing really shows nobody anything.

Seeded random games; at every decision ``_reveals`` calls non-revealing:
- undoing it gives every seat (and a spectator) exactly the observation it had before (checked on a
  sample of the decisions: each undo replays the game from the start);
- for every seat, a position it cannot tell from the true one (``resample_from_infostate``), after
  the same decision, still looks to it exactly like the true one does: what the seat sees after is
  a function of what it saw before and the decision's public label, so neither the actor nor anyone
  else learned anything hidden from it.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import obelisk
from obelisk import games
from obelisk.core import State

CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("solomon", 2, {}), ("solomon", 4, {}),
    ("tomb", 2, {}), ("tomb", 4, {"max_rounds": 30}),
    ("cleopatra", 3, {"max_rounds": 12}), ("cleopatra", 5, {"max_rounds": 8}),
    ("valley", 2, {}), ("valley", 4, {}), ("valley", 3, {"forced_removal": "any", "spent_cards": "discard"}),
]
SEEDS = (1, 2)
UNDO_EVERY = 40  # undo replays the whole game: besides the first three, every 40th decision is taken back


def _views(state: State) -> list[Any]:
    return [state.observation(seat) for seat in [*range(state.num_players), None]]


def _check_decision(state: State, action: int, rng: random.Random, undo: bool) -> int:
    """Apply ``action`` (non-revealing) to ``state`` checking indistinguishability (and ``undo``); the pairs compared."""
    actor = state.current_player()
    before = _views(state)
    shadows = []
    for seat in range(state.num_players):
        label = state.public_action_string(action, seat)
        shadow = state.resample_from_infostate(seat, rng)
        if shadow.current_player() == actor and action in shadow.legal_actions() \
                and shadow.public_action_string(action, seat) == label:
            shadows.append((seat, shadow))
    state.apply_action(action)
    if undo:
        assert state.undo_points(actor) >= 1
        assert _views(state.undo(actor)) == before
    for seat, shadow in shadows:
        shadow.apply_action(action)
        assert shadow.observation(seat) == state.observation(seat), (seat, state.action_to_string(action))
    return len(shadows)


def test_every_game_is_checked() -> None:
    assert sorted({game_id for game_id, _, _ in CASES}) == games.shipped()


@pytest.mark.parametrize(("game_id", "players", "options"), CASES, ids=[f"{g}-{p}p" for g, p, _ in CASES])
@pytest.mark.parametrize("seed", SEEDS)
def test_a_decision_called_non_revealing_shows_nobody_anything(
        game_id: str, players: int, options: dict[str, Any], seed: int) -> None:
    state = obelisk.load(game_id, players, **options).new_initial_state(seed)
    rng = random.Random(seed)
    undoable = compared = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        action = rng.choice(state.legal_actions())
        if state.reveals(action):
            state.apply_action(action)
            continue
        undoable += 1
        compared += _check_decision(state, action, rng, undoable <= 3 or undoable % UNDO_EVERY == 0)
    assert undoable and compared >= undoable
