"""Mutated game records: ``replay_record`` refuses them with one-line ``RecordError``s, or replays them exactly."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from obelisk.core.records import RecordError, make_record, replay_record
from tests.fuzz.common import FUZZ, GAME_IDS, base_state, canonical, json_values, mutated, one_line


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_an_unfinished_game_has_a_record(game_id: str) -> None:
    state = base_state(game_id, 1)
    game, states = replay_record(json.loads(json.dumps(make_record(state))))
    assert states[-1].history() == state.history() and not states[-1].is_terminal()


@pytest.mark.parametrize("game_id", GAME_IDS)
@FUZZ
@given(data=st.data())
def test_mutated_records(game_id: str, data: st.DataObject) -> None:
    state = base_state(game_id, data.draw(st.sampled_from([3, 7]), label="finished game"))
    before = canonical(state.to_json())
    record = json.loads(json.dumps(make_record(state)))
    doc = data.draw(mutated(record), label="record")
    try:
        game, states = replay_record(doc)
    except RecordError as error:
        one_line(error)
    else:
        assert [entry["id"] for entry in doc["actions"]] == states[-1].history()
        assert game.id == doc["game"]
    assert canonical(state.to_json()) == before


@FUZZ
@given(doc=json_values)
def test_random_json_is_not_a_record(doc: object) -> None:
    with pytest.raises(RecordError) as caught:
        replay_record(doc)
    one_line(caught.value)
