"""Game records: saved, replayed, and refused when tampered with."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from obelisk.core.records import RecordError, make_record, read_record, replay_record, save_record
from obelisk.core.testing import random_playout
from tests.core.toy import HighCardGame


def record(tmp_path: Path) -> tuple[dict, Path]:
    state = random_playout(HighCardGame(3), seed=4)
    doc = make_record(state, [{"name": n, "kind": "random"} for n in ("ann", "bob", "cy")])
    path = tmp_path / "game.json"
    save_record(doc, path)
    return doc, path


def test_record_round_trip_reproduces_every_state(tmp_path: Path) -> None:
    doc, path = record(tmp_path)
    assert doc["format"] == "obelisk-record" and doc["game"] == "highcard" and doc["num_players"] == 3
    assert all({"id", "label", "player"} <= set(a) for a in doc["actions"])
    game, states = replay_record(read_record(path))
    assert len(states) == len(doc["actions"]) + 1
    assert states[-1].is_terminal() and states[-1].returns() == doc["result"]["returns"]
    assert states[0].move_number() == 0


@pytest.mark.parametrize(
    "tamper,message",
    [
        (lambda d: d["actions"][0].update(id=99), "action #0 \\(99\\) does not replay"),
        (lambda d: d["actions"][1].update(label="draw 9"), "action #1: label 'draw 9' does not match"),
        (lambda d: d["actions"][0].update(player=2), "action #0: record says player 2 acted"),
        (lambda d: d["result"].update(returns=[1.0, 0.0, -1.0]), "result does not match"),
        (lambda d: d.update(game="chess"), "unknown game 'chess'"),
        (lambda d: d.update(num_players=9), "players must be from 2 to 4"),
        (lambda d: d.update(version=7), "version 7 is not supported"),
        (lambda d: d.update(format="png"), "not an obelisk-record"),
        (lambda d: d.update(seed="x"), "'seed' is missing or not a int"),
        (lambda d: d["actions"].__setitem__(0, "x"), "action #0 is malformed"),
        (lambda d: d.update(players=[]), "one entry per seat"),
    ],
)
def test_tampered_records_are_refused(tmp_path: Path, tamper, message: str) -> None:
    doc, _ = record(tmp_path)
    doc = json.loads(json.dumps(doc))
    tamper(doc)
    with pytest.raises(RecordError, match=message):
        replay_record(doc)


def test_unreadable_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read record"):
        read_record(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(RecordError, match="not valid JSON"):
        read_record(bad)
    with pytest.raises(RecordError, match="must be a JSON object"):
        replay_record([1, 2])


def test_a_redeal_has_no_record() -> None:
    state = HighCardGame(3).new_initial_state(4)
    state.apply_action(2)
    redeal = state.resample_from_infostate(0, 1)
    with pytest.raises(ValueError, match="re-dealt state .* has no record"):
        make_record(redeal)
