"""Mutated game records: ``replay_record`` refuses them with one-line ``RecordError``s, or replays them exactly."""

from __future__ import annotations

import functools
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from obelisk.core.records import RecordError, make_record, replay_record, verified_commitment
from obelisk.core.seeds import SecretSeed, verify
from obelisk.core.testing import random_playout
from tests.fuzz.common import FUZZ, GAME_IDS, base_state, canonical, game, json_values, mutated, one_line

SECRET = SecretSeed(20_240_601, "fuzz")


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


@functools.lru_cache(maxsize=None)
def _committed_record(game_id: str) -> str:
    """The record of a game drawn from ``SECRET`` as the tables draw, with the commitment that proves it."""
    state = random_playout(game(game_id), SECRET.seed, chance_from_seed=True)
    return json.dumps(make_record(state, seed_commitment=SECRET.commitment, seed_salt=SECRET.salt))


@pytest.mark.parametrize("game_id", GAME_IDS)
@FUZZ
@given(data=st.data())
def test_mutated_committed_records_are_verified_or_refused(game_id: str, data: st.DataObject) -> None:
    doc = data.draw(mutated(json.loads(_committed_record(game_id))), label="record")
    try:
        _, states = replay_record(doc)
    except RecordError as error:
        one_line(error)
        return
    published = verified_commitment(doc)
    if published is None:
        return
    assert verify(doc["seed"], doc["seed_salt"], published)
    for before, entry in zip(states, doc["actions"]):
        if before.is_chance_node():
            assert entry["id"] == before.sample_chance()
