"""Undo in King Solomon's Treasury: what may be taken back, and what reveals."""

from __future__ import annotations

import obelisk
from obelisk.core import State
from obelisk.games.solomon.actions import END, USE0
from tests.games.solomon.helpers import labels, play, started
from tests.games.undo_util import assert_refused, assert_taken_back, assert_two_in_a_row_taken_back, reach


def _holds_face_down(state: State) -> bool:
    return any(holder == state._active() for _, holder, _kind in state.secret)


def _quiet_move(state: State, action: int) -> bool:
    return state.phase == "turn" and action < USE0 and not state.reveals(action)


def test_a_secret_card_choice_before_the_last_is_taken_back() -> None:
    state = started(3)
    undone = assert_taken_back(state, labels(state)[0])
    assert undone.chosen == [-1, -1, -1] and undone.current_player() == 0


def test_the_last_choice_turns_every_card_face_up_and_stays() -> None:
    state = started(3)
    for _ in range(2):
        play(state, labels(state)[0])
    assert_refused(state, labels(state)[0])
    assert state.order, "the round's turns began: the cards are face up"


def test_moves_that_leave_a_seen_tile_behind_are_taken_back_together() -> None:
    state = obelisk.load("solomon", 3).new_initial_state(4)

    assert_two_in_a_row_taken_back(state, _quiet_move)


def test_a_move_that_uncovers_an_unseen_tile_stays() -> None:
    state = obelisk.load("solomon", 3).new_initial_state(4)
    move = reach(state, lambda s, a: s.phase == "turn" and a < USE0 and len(s.stacks[a >> 3]) == 1)
    assert_refused(state, state.action_to_string(move))
    assert state.is_chance_node(), "the tile below is drawn"


def test_a_dig_that_uncovers_unseen_tiles_stays() -> None:
    state = started(2)
    play(state, "choose card 1", "choose card 8")
    assert_refused(state, "dig card 1 at A1")


def test_settling_up_while_holding_face_down_tiles_stays() -> None:
    """Whether the seat can pay, or has coins only, tells the others something of its face-down tiles."""
    state = obelisk.load("solomon", 3).new_initial_state(4)
    reach(state, lambda s, a: a == END and s.moves > 0 and _holds_face_down(s), limit=100000)
    assert_refused(state, "end turn without digging")


def test_settling_up_with_every_tile_face_up_is_taken_back() -> None:
    state = obelisk.load("solomon", 3).new_initial_state(4)
    reach(state, lambda s, a: a == END and s.moves > 0 and not _holds_face_down(s) and not s.reveals(a))
    assert_taken_back(state, "end turn without digging")
