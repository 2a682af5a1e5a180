"""Undo in Secret of the Ancient Tomb: what may be taken back, and what reveals."""

from __future__ import annotations

import obelisk
from obelisk.core import State
from obelisk.games.tomb.actions import A_LOOK, A_PLAN, A_STEP
from obelisk.games.tomb.state import DRAW
from tests.games.undo_util import assert_refused, assert_taken_back, assert_two_in_a_row_taken_back, reach


def _quiet_step(state: State, action: int) -> bool:
    return A_STEP <= action < A_STEP + 4 and not state.reveals(action)


def test_steps_over_face_up_tiles_are_taken_back_together() -> None:
    state = obelisk.load("tomb", 2).new_initial_state(1)

    assert_two_in_a_row_taken_back(state, _quiet_step)


def test_a_step_toward_a_face_down_tile_stays() -> None:
    state = obelisk.load("tomb", 2).new_initial_state(1)

    def turns_a_tile(s: State, action: int) -> bool:
        if not A_STEP <= action < A_STEP + 4:
            return False
        after = s.clone()
        after.apply_action(action)
        return after.phase == DRAW

    assert_refused(state, state.action_to_string(reach(state, turns_a_tile)))
    assert state.is_chance_node(), "the tile is drawn"


def test_studying_the_plan_is_taken_back_but_a_look_stays() -> None:
    state = obelisk.load("tomb", 2).new_initial_state(0)
    reach(state, lambda s, a: a == A_PLAN)
    undone = assert_taken_back(state, "study the plan: look at two face-down tiles")
    assert undone.phase != state.phase
    look = next(a for a in state.legal_actions() if a >= A_LOOK)
    assert_refused(state, state.action_to_string(look))


def test_the_decision_that_hands_the_die_on_stays() -> None:
    state = obelisk.load("tomb", 2).new_initial_state(1)

    def ends_the_turn(s: State, action: int) -> bool:
        after = s.clone()
        after.apply_action(action)
        return after.is_chance_node() and after.current_player() != s.current_player() and after.player != s.player

    assert_refused(state, state.action_to_string(reach(state, ends_the_turn)))
