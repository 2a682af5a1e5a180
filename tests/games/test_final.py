"""Final decisions said before they happen: ``State.is_final`` in every game and player count.

Seeded random games; at every decision, for every legal action:
- the mark is decided from public information: every seat's re-deal of the position
  (``resample_from_infostate``) marks each action it also offers exactly as the true position does, and
  the actor's re-deals offer the same actions;
- the mark is what the engine's undo then allows: after the action and the chance it leads to, the
  actor is to act again and may take the decision back (``undo_points`` ≥ 1) exactly when the action
  was not marked final (checked on a sample of decisions: each ``undo_points`` replays the game).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import obelisk
from obelisk.core import IllegalActionError, State

CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("solomon", 2, {}), ("solomon", 3, {}), ("solomon", 4, {}), ("solomon", 5, {}),
    ("tomb", 2, {"max_rounds": 40}), ("tomb", 3, {"max_rounds": 30}), ("tomb", 4, {"max_rounds": 25}),
    ("tomb", 5, {"max_rounds": 20}), ("tomb", 6, {"max_rounds": 15}),
    ("tomb", 3, {"pyramid": "big", "max_rounds": 25}),
    ("cleopatra", 3, {"max_rounds": 12}), ("cleopatra", 4, {"max_rounds": 10}), ("cleopatra", 5, {"max_rounds": 8}),
    ("valley", 2, {}), ("valley", 3, {"forced_removal": "any", "spent_cards": "discard"}), ("valley", 4, {}),
]
RESAMPLES = {True: 3, False: 1}
"""Re-deals per decision: of the seat to act (whose marks they are), and of every other seat."""
UNDO_EVERY = 9
"""Besides the first ten decisions, every 9th has every legal action (at most ``UNDO_ACTIONS``) checked
against the engine's undo."""
UNDO_ACTIONS = 12


def _settled(state: State, action: int, rng: random.Random) -> State:
    """A copy of ``state`` after ``action`` and the chance outcomes it leads to."""
    after = state.clone()
    after.apply_action(action)
    while after.is_chance_node():
        after.apply_action(after.sample_chance(rng))
    return after


def _check_public(state: State, legal: list[int], finals: list[bool], rng: random.Random) -> None:
    actor = state.current_player()
    for seat in range(state.num_players):
        for _ in range(RESAMPLES[seat == actor]):
            shadow = state.resample_from_infostate(seat, rng)
            offered = set(shadow.legal_actions())
            if seat == actor:
                assert sorted(offered) == legal
            for action, final in zip(legal, finals):
                if action in offered:
                    assert shadow.is_final(action) == final, (seat, state.action_to_string(action))


def _check_undo(state: State, legal: list[int], finals: list[bool], rng: random.Random) -> None:
    actor = state.current_player()
    picked = sorted(rng.sample(range(len(legal)), min(len(legal), UNDO_ACTIONS)))
    for index in picked:
        after = _settled(state, legal[index], rng)
        undoable = after.current_player() == actor and after.undo_points(actor) >= 1
        assert undoable == (not finals[index]), state.action_to_string(legal[index])


@pytest.mark.parametrize(("game_id", "players", "options"), CASES,
                         ids=[f"{g}-{p}p" + ("-" + "-".join(map(str, o.values())) if o else "") for g, p, o in CASES])
def test_final_marks_are_public_and_match_the_undo(game_id: str, players: int, options: dict[str, Any]) -> None:
    seed = players * 7 + len(game_id)
    state = obelisk.load(game_id, players, **options).new_initial_state(seed)
    rng = random.Random(seed)
    decisions = marked = unmarked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        finals = [state.is_final(action) for action in legal]
        marked += sum(finals)
        unmarked += len(finals) - sum(finals)
        _check_public(state, legal, finals, rng)
        if decisions < 10 or decisions % UNDO_EVERY == 0:
            _check_undo(state, legal, finals, rng)
        decisions += 1
        state.apply_action(rng.choice(legal))
    assert decisions and marked and unmarked


def test_is_final_refuses_what_cannot_be_decided_now() -> None:
    state = obelisk.load("valley", 2).new_initial_state(3)
    with pytest.raises(IllegalActionError, match="^chance is to act: only a seat's decision can be final$"):
        state.is_final(0)  # the deal
    while state.is_chance_node():
        state.apply_action(state.sample_chance())
    legal = state.legal_actions()
    illegal = next(a for a in range(state.game.num_distinct_actions()) if a not in legal)
    with pytest.raises(IllegalActionError, match="cannot be played now"):
        state.is_final(illegal)
    with pytest.raises(IllegalActionError, match="integer id"):
        state.is_final("buy")
    with pytest.raises(IllegalActionError, match="outside the action space"):
        state.is_final(-1)
    before = state.to_json()
    assert all(isinstance(state.is_final(a), bool) for a in legal)
    assert state.to_json() == before
    ended = obelisk.load("valley", 2).new_initial_state(3)
    while not ended.is_terminal():
        ended.apply_action(ended.sample_chance() if ended.is_chance_node() else ended.legal_actions()[-1])
    with pytest.raises(IllegalActionError, match="^the game is over"):
        ended.is_final(0)
