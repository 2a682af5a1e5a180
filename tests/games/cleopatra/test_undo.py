"""Undo in Cleopatra and the Society of Architects: what may be taken back, and what reveals."""

from __future__ import annotations

from collections.abc import Callable

import obelisk
from obelisk.core import State
from tests.games.undo_util import assert_refused, assert_taken_back, reach


def _named(name: str, quiet: bool | None = None) -> Callable[[State, int], bool]:
    """A ``reach`` predicate: an action of the range ``name`` (and, if given, one that reveals nothing or does)."""

    def wanted(state: State, action: int) -> bool:
        if state._rules.actions.decode(action)[0] != name:
            return False
        return quiet is None or state.reveals(action) != quiet

    return wanted


def _game(seed: int = 1) -> State:
    return obelisk.load("cleopatra", 4).new_initial_state(seed)


def test_paying_with_a_nile_merchant_is_taken_back() -> None:
    state = _game()
    action = reach(state, lambda s, a: _named("pay", True)(s, a) and "Nile merchant" in s.action_to_string(a))
    assert_taken_back(state, state.action_to_string(action))


def test_paying_with_a_card_the_others_have_not_seen_stays() -> None:
    state = _game()

    def unseen_card(s: State, action: int) -> bool:
        if not _named("pay")(s, action):
            return False
        r, source = divmod(action - s._rules.pay, 4)
        kind = s._source_kind(r, source)
        return kind >= 0 and s.known[s.num_players][s.turn][kind] == 0

    action = reach(state, unseen_card)
    assert_refused(state, state.action_to_string(action))


def test_taking_a_stall_stays() -> None:
    """The taker sees the face-down cards, and the refill is drawn."""
    state = _game()
    action = reach(state, _named("take"))
    assert_refused(state, state.action_to_string(action))


def test_choosing_a_piece_with_a_hidden_hand_stays() -> None:
    """Only a hand that can pay is offered the piece: choosing it tells the others so."""
    state = _game()
    action = reach(state, lambda s, a: _named("wall")(s, a) and not s._hand_public(s.turn))
    assert_refused(state, state.action_to_string(action))


def test_a_secret_bid_before_the_last_is_taken_back_and_the_last_stays() -> None:
    state = _game()
    reach(state, lambda s, a: _named("bid")(s, a) and len(s.responders) == s.num_players)
    assert_taken_back(state, "bid 0 talents")
    while len(state.responders) > 1:
        state.apply_action(state.string_to_action("bid 0 talents"))
    assert_refused(state, "bid 0 talents")
    assert state.last_offering["bids"] == [0] * state.num_players


def test_ending_the_turn_with_a_full_hand_and_keeping_it_is_taken_back() -> None:
    state = _game()
    reach(state, lambda s, a: _named("end_turn", True)(s, a)
          and sum(s.hands[s.turn]) > s._rules.hand_limit and not s.smuggled)
    assert_taken_back(state, "end turn", state.action_to_string(state._rules.limit_discard))
