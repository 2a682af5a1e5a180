"""Random text at ``string_to_action`` and random values at ``apply_action``: a legal id or ``IllegalActionError``."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import obelisk
from tests.fuzz.common import FUZZ, GAME_IDS, base_state, canonical, json_scalars, one_line


def _variants(label: str) -> st.SearchStrategy[str]:
    """Near-misses of a real label: case, spacing, a character dropped or added."""
    return st.sampled_from([label.upper(), f"  {label} ", label.replace(" ", "  "), label[:-1], label + "x",
                            label.swapcase(), "\t".join(label.split())])


@pytest.mark.parametrize("game_id", GAME_IDS)
@FUZZ
@given(data=st.data())
def test_string_to_action_gives_a_legal_id_or_refuses(game_id: str, data: st.DataObject) -> None:
    state = base_state(game_id, data.draw(st.integers(0, 6), label="base"))
    before = canonical(state.to_json())
    legal = state.legal_actions()
    labels = [state.action_to_string(a) for a in legal]
    text_strategy = st.text(max_size=30) | st.integers(-5, 500).map(str) | st.sampled_from(["²", "-²", "٣", "1.0"])
    if labels:
        text_strategy |= st.sampled_from(labels).flatmap(_variants)
    text = data.draw(text_strategy, label="text")
    try:
        action = state.string_to_action(text)
    except obelisk.IllegalActionError as error:
        one_line(error)
    else:
        assert action in legal
    assert canonical(state.to_json()) == before


@pytest.mark.parametrize("game_id", GAME_IDS)
@FUZZ
@given(data=st.data())
def test_apply_action_refuses_anything_but_a_legal_id_from_the_right_seat(game_id: str, data: st.DataObject) -> None:
    state = base_state(game_id, data.draw(st.integers(0, 6), label="base"))
    before = canonical(state.to_json())
    legal = state.legal_actions()
    action = data.draw(json_scalars | st.integers(-3, 2000) | (st.sampled_from(legal) if legal else st.none()),
                       label="action")
    player = data.draw(st.none() | json_scalars | st.integers(-5, 7), label="player")
    valid = type(action) is int and action in legal and (player is None or (
        type(player) is int and player == state.current_player()))
    try:
        state.apply_action(action, player=player)
    except obelisk.IllegalActionError as error:
        one_line(error)
        assert not valid
        assert canonical(state.to_json()) == before
    else:
        assert valid
