"""Taking decisions back: ``State.undo_points`` and ``State.undo`` on the toy games."""

from __future__ import annotations

import random

import pytest

from obelisk.core import CHANCE, IllegalActionError, State
from obelisk.core.records import make_record
from tests.core.toy import ACTIONS, HighCardGame, HighCardState, TwoStepHighCardGame

HOLD, SWAP = ACTIONS.encode("hold"), ACTIONS.encode("swap")


def dealt(game: HighCardGame, cards: tuple[int, ...] = (5, 0, 3, 1)) -> State:
    state = game.new_initial_state(3)
    for card in cards[:game.num_players]:
        state.apply_action(card)
    return state


def test_the_first_decision_of_a_game_cannot_be_taken_back_before_it_is_made() -> None:
    state = dealt(HighCardGame(2))
    assert state.undo_points(0) == 0 and state.undo_points(1) == 0
    with pytest.raises(IllegalActionError,
                       match="^player 1 cannot take back a decision now: a chance event happened since$"):
        state.undo(0)


def test_a_decision_that_reveals_nothing_is_taken_back_until_another_seat_decides() -> None:
    state = dealt(HighCardGame(3))
    before = state.clone()
    state.apply_action(HOLD)
    assert state.undo_points(0) == 1
    with pytest.raises(IllegalActionError, match="^player 2 cannot take back a decision now: player 1 has decided since$"):
        state.undo(1)
    undone = state.undo(0)
    assert undone.to_json() == before.to_json() and state.history() == before.history() + [HOLD]
    assert undone is not state and undone.current_player() == 0
    state.apply_action(HOLD)
    assert state.undo_points(0) == 0 and state.undo_points(1) == 1
    with pytest.raises(IllegalActionError, match="player 1 cannot take back a decision now: player 2 has decided since"):
        state.undo(0)


def test_a_decision_that_reveals_is_not_taken_back() -> None:
    state = dealt(HighCardGame(2))
    state.apply_action(SWAP)
    assert state.current_player() == CHANCE and state.undo_points(0) == 0
    with pytest.raises(IllegalActionError, match="its decision revealed something hidden"):
        state.undo(0)


def test_nothing_is_taken_back_once_the_game_is_over() -> None:
    state = dealt(HighCardGame(2))
    state.apply_action(HOLD)
    state.apply_action(HOLD)
    assert state.is_terminal() and state.undo_points(1) == 0
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.undo(1)


def test_several_decisions_of_one_turn_are_taken_back_up_to_a_chance_event() -> None:
    game = TwoStepHighCardGame(2)
    state = dealt(game)
    start = state.clone()
    state.apply_action(HOLD)
    middle = state.clone()
    state.apply_action(HOLD)
    assert state.current_player() == 1 and state.undo_points(0) == 2
    assert state.undo(0).to_json() == middle.to_json()
    assert state.undo(0, 2).to_json() == start.to_json()
    with pytest.raises(IllegalActionError, match="^player 1 cannot take back more than 2 decisions now: "
                                                 "a chance event happened since$"):
        state.undo(0, 3)
    swapped = dealt(game)
    swapped.apply_action(SWAP)
    swapped.apply_action(swapped.sample_chance())
    swapped.apply_action(HOLD)
    assert swapped.undo_points(0) == 1
    with pytest.raises(IllegalActionError, match="^player 1 cannot take back more than 1 decision now: a chance event"):
        swapped.undo(0, 2)


def test_undone_steps_leave_no_trace_in_the_record() -> None:
    state = dealt(TwoStepHighCardGame(2))
    state.apply_action(HOLD)
    state.apply_action(HOLD)
    undone = state.undo(0, 2)
    undone.apply_action(SWAP)
    record = make_record(undone)
    assert [a["id"] for a in record["actions"]] == undone.history() == state.history()[:-2] + [SWAP]


@pytest.mark.parametrize("steps", [0, -1, True, 1.0, "1", None])
def test_steps_must_be_a_whole_number_from_one(steps: object) -> None:
    state = dealt(HighCardGame(2))
    state.apply_action(HOLD)
    with pytest.raises(IllegalActionError, match="steps must be a whole number from 1"):
        state.undo(0, steps)


@pytest.mark.parametrize("seat", [-1, 2, None, "0", True])
def test_a_seat_outside_the_game_is_refused(seat: object) -> None:
    state = dealt(HighCardGame(2))
    with pytest.raises(ValueError, match="seat must be 0..1"):
        state.undo_points(seat)
    with pytest.raises(ValueError, match="seat must be 0..1"):
        state.undo(seat)


def test_a_redealt_state_has_nothing_to_take_back() -> None:
    state = dealt(HighCardGame(3))
    state.apply_action(HOLD)
    redealt = state.resample_from_infostate(1, random.Random(1))
    assert redealt.undo_points(0) == 0
    with pytest.raises(IllegalActionError, match="a re-dealt state is not a position of the game"):
        redealt.undo(0)


class CautiousState(HighCardState):
    _reveals = State._reveals


class CautiousGame(HighCardGame):
    state_class = CautiousState


def test_by_default_every_decision_counts_as_revealing() -> None:
    state = dealt(CautiousGame(3))
    state.apply_action(HOLD)
    assert state.undo_points(0) == 0
    with pytest.raises(IllegalActionError, match="its decision revealed something hidden"):
        state.undo(0)


def test_reveals_answers_the_games_hook_for_a_legal_decision_and_refuses_anything_else() -> None:
    state = HighCardGame(2).new_initial_state(3)
    with pytest.raises(IllegalActionError, match="^chance is to act"):
        state.reveals(0)  # the deal
    state = dealt(HighCardGame(2))
    assert state.reveals(HOLD) is False and state.reveals(SWAP) is True
    with pytest.raises(IllegalActionError, match="outside the action space"):
        state.reveals(-1)
    with pytest.raises(IllegalActionError, match="integer id"):
        state.reveals("hold")
    assert dealt(CautiousGame(2)).reveals(HOLD) is True
