"""Hints: the search's top actions for a seat, from that seat's information only."""

from __future__ import annotations

import random

import pytest

import obelisk
from obelisk.bots.hints import suggest
from obelisk.core import IllegalActionError
from tests.bots.test_bots import EDGE_CASES, _first_decision, decision_states, pinned


@pytest.mark.parametrize("opponent", [0, 2, 5])
def test_the_hint_is_the_same_whatever_the_seat_cannot_see(opponent: int) -> None:
    game = obelisk.load("highcard", 2)
    expected = suggest(_first_decision(game, [3, 1]), 0, "200", seed=4)
    assert suggest(_first_decision(game, [3, opponent]), 0, "200", seed=4) == expected


@pytest.mark.parametrize("game_id,players", EDGE_CASES)
def test_the_hint_reads_hidden_information_only_through_resampling(game_id: str, players: int) -> None:
    game = obelisk.load(game_id, players)
    rng = random.Random(3)
    for index, state in enumerate(decision_states(game, 1, seed=300)):
        seat = state.current_player()
        redealt = state.resample_from_infostate(seat, rng)
        honest = suggest(pinned(state, state), seat, "20", seed=index)
        assert suggest(pinned(redealt, state), seat, "20", seed=index) == honest
        assert suggest(redealt, seat, "20", seed=index) == suggest(state, seat, "20", seed=index)
        legal = {a: state.action_to_string(a) for a in state.legal_actions()}
        assert 1 <= len(honest) <= 3 and all(legal[s.action] == s.label for s in honest)
        shares = [s.share for s in honest]
        assert shares == sorted(shares, reverse=True) and 0 < sum(shares) <= 1 + 1e-9
        assert all(s.value is not None and -1 <= s.value <= 1 for s in honest)


@pytest.mark.parametrize("card,expected", [(0, "swap"), (5, "hold")])
def test_the_hint_sees_the_obvious_move(card: int, expected: str) -> None:
    suggestions = suggest(_first_decision(obelisk.load("highcard", 2), [card, 3]), 0, "400", seed=1)
    assert suggestions[0].label == expected and suggestions[0].share > 0.5
    assert sum(s.share for s in suggestions) == pytest.approx(1)


def test_a_single_legal_action_is_suggested_without_searching() -> None:
    game = obelisk.load("highcard", 2, allow_swap=False)
    (only,) = suggest(_first_decision(game, [0, 3]), 0)
    assert (only.label, only.share, only.value) == ("hold", 1.0, None)


def test_no_hint_for_a_seat_that_is_not_to_act() -> None:
    state = _first_decision(obelisk.load("highcard", 2), [0, 3])
    with pytest.raises(IllegalActionError, match="player 2 is not to act"):
        suggest(state, 1)
