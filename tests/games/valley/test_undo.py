"""Undo in Valley of the Kings: what may be taken back, and what reveals."""

from __future__ import annotations

import obelisk
from obelisk.core import State
from obelisk.games.valley import rules as R
from tests.games.undo_util import assert_refused, assert_taken_back, reach


def _game(seed: int = 1) -> State:
    return obelisk.load("valley", 3).new_initial_state(seed)


def _paying(state: State) -> bool:
    return state.stack[-1][0] == R.PAY


def test_paying_with_a_card_surely_in_the_hand_is_taken_back() -> None:
    """More copies in hand and deck than the deck holds: the others know one is in the hand."""
    state = _game()
    action = reach(state, lambda s, a: _paying(s) and s._surely_in_hand(s.current_player(), a - s.rules.a_pay)
                   and not s.reveals(a))
    assert_taken_back(state, state.action_to_string(action))


def test_paying_with_a_card_that_might_be_in_the_deck_stays() -> None:
    state = _game()
    action = reach(state, lambda s, a: _paying(s) and not s._surely_in_hand(s.current_player(), a - s.rules.a_pay))
    assert_refused(state, state.action_to_string(action))


def test_buying_shows_what_the_hand_is_worth_and_stays() -> None:
    state = _game()
    action = reach(state, lambda s, a: s.action_to_string(a).startswith("buy "))
    assert_refused(state, state.action_to_string(action))


def test_putting_a_card_face_down_on_the_deck_is_taken_back() -> None:
    state = _game()
    action = reach(state, lambda s, a: s.stack[-1][0] == R.HAND_PICK and s.stack[-1][2] == R.TOPDECK
                   and not s.reveals(a))
    assert_taken_back(state, state.action_to_string(action))


def test_a_turn_that_draws_stays() -> None:
    state = _game()
    reach(state, lambda s, a: s.action_to_string(a) == "end turn" and s.stack[-1][0] == R.MAIN
          and s.pyramid_count() and s.touched)
    assert_refused(state, "end turn")
    assert state.is_chance_node(), "the next hand is drawn"
