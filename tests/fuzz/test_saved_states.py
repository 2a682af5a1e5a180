"""Mutated saved states: ``Game.state_from_json`` refuses them with one line, or loads exactly the document."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.common import FUZZ, GAME_IDS, base_state, canonical, game, json_values, mutated, one_line


def _load_or_refuse(game_id: str, doc: object, as_text: bool) -> None:
    """Either a one-line ``ValueError``, or a state whose ``to_json`` is the document (nothing was really changed)."""
    original = base_state(game_id, 0)
    before = canonical(original.to_json())
    try:
        loaded = game(game_id).state_from_json(json.dumps(doc) if as_text else doc)
    except ValueError as error:
        one_line(error)
    else:
        assert canonical(loaded.to_json()) == canonical(json.loads(json.dumps(doc))), "loaded a changed document"
        loaded.legal_actions()
    assert canonical(original.to_json()) == before


@pytest.mark.parametrize("game_id", GAME_IDS)
@FUZZ
@given(data=st.data())
def test_mutated_saved_states(game_id: str, data: st.DataObject) -> None:
    state = base_state(game_id, data.draw(st.integers(0, 7), label="base"))
    before = canonical(state.to_json())
    doc = data.draw(mutated(state.to_json()), label="doc")
    _load_or_refuse(game_id, doc, as_text=data.draw(st.booleans(), label="as_text"))
    assert canonical(state.to_json()) == before


@pytest.mark.parametrize("game_id", GAME_IDS)
@FUZZ
@given(data=st.data())
def test_histories_truncated_extended_or_permuted(game_id: str, data: st.DataObject) -> None:
    state = base_state(game_id, data.draw(st.integers(0, 7), label="base"))
    doc = state.to_json()
    history = list(doc["history"])
    edit = data.draw(st.sampled_from(["truncate", "extend", "permute", "swap"]), label="edit")
    if edit == "truncate":
        history = history[:data.draw(st.integers(0, len(history)), label="cut")]
    elif edit == "extend":
        history += data.draw(st.lists(st.integers(-2, 400), min_size=1, max_size=6), label="extra")
    elif edit == "permute":
        history = data.draw(st.permutations(history), label="permuted")
    elif len(history) >= 2:
        i, j = sorted(data.draw(st.lists(st.integers(0, len(history) - 1), min_size=2, max_size=2), label="ij"))
        history[i], history[j] = history[j], history[i]
    _load_or_refuse(game_id, {**doc, "history": history}, as_text=True)


@pytest.mark.parametrize("game_id", GAME_IDS)
@FUZZ
@given(doc=json_values | st.text(max_size=40).map(lambda t: {"format": t}))
def test_random_json_is_refused(game_id: str, doc: object) -> None:
    for candidate in (doc, json.dumps(doc)):
        with pytest.raises(ValueError) as caught:
            game(game_id).state_from_json(candidate)
        one_line(caught.value)


@FUZZ
@given(text=st.text(max_size=60) | st.binary(max_size=60))
def test_random_text_is_refused(text: str | bytes) -> None:
    with pytest.raises(ValueError) as caught:
        game("valley").state_from_json(text)
    one_line(caught.value)
