"""Mutated data files (``--data``, ``--cards``): a one-line ``ValueError``, or a game whose random playouts work."""

from __future__ import annotations

import functools
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import obelisk
from obelisk.core import testing
from tests.fuzz.common import FUZZ, GAME_IDS, mutated, one_line

SHIPPED = {"cleopatra": "cleopatra/cleopatra.json", "solomon": "solomon/solomon.json", "tomb": "tomb/tomb.json",
           "valley": "valley/valley.json"}
OPTION = {"valley": "cards"}


@functools.lru_cache(maxsize=None)
def _shipped(game_id: str) -> Any:
    doc = json.loads((Path(obelisk.__file__).parent / "games" / SHIPPED[game_id]).read_text(encoding="utf-8"))
    return {"tiles": doc["tiles"]} if game_id == "tomb" else doc  # a tomb data file replaces the tile list only


@pytest.mark.parametrize("game_id", GAME_IDS)
@FUZZ
@given(data=st.data())
def test_mutated_data_files(game_id: str, data: st.DataObject) -> None:
    doc = data.draw(mutated(_shipped(game_id)), label="data file")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "data.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        try:
            game = obelisk.load(game_id, **{OPTION.get(game_id, "data"): str(path)})
        except ValueError as error:
            one_line(error)
            return
    state = testing.random_playout(game, data.draw(st.integers(0, 100), label="seed"))
    assert state.is_terminal()
    assert game.state_from_json(json.dumps(state.to_json())).to_json() == state.to_json()
