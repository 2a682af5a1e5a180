"""Game records: saved, replayed, and refused when tampered with."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from obelisk.core.records import RECORD_VERSION, RecordError, make_record, read_record, replay_record, save_record
from obelisk.core.seeds import MAX_SEED, SecretSeed
from obelisk.core.testing import random_playout
from tests.core.toy import HighCardGame

WRITTEN_BEFORE = Path(__file__).parent / "records"
"""Records of version 2, saved before players were counted from 1: their labels say "seat 0"."""


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
        (lambda d: d.update(seed=-1), "'seed': seed must be an integer from 0 to 2\\*\\*63 - 1"),
        (lambda d: d.update(seed=MAX_SEED), "'seed': seed must be an integer from 0 to 2\\*\\*63 - 1"),
        (lambda d: d["actions"].__setitem__(0, "x"), "action #0 is malformed"),
        (lambda d: d.update(players=[]), "one entry per seat"),
        (lambda d: d.pop("result"), "'result' is missing"),
        (lambda d: d.pop("players"), "'players' is missing"),
        (lambda d: d.pop("seed_commitment"), "'seed_commitment' is missing"),
        (lambda d: d.pop("seed_salt"), "'seed_salt' is missing"),
        (lambda d: d["actions"][1].pop("label"), "action #1 is malformed"),
        (lambda d: d["actions"][2].pop("player"), "action #2 is malformed"),
        (lambda d: d["actions"][2].update(player=None), "action #2 is malformed"),
        (lambda d: d["actions"][2].update(label=None), "action #2 is malformed"),
        (lambda d: d.update(players=["ann", "bob", "cy"]), "entry 0 must be an object"),
        (lambda d: d["players"][1].update(name=None), "entry 1 must be an object with a string name"),
        (lambda d: d["players"][2].pop("kind"), "entry 2 must be an object with a string name and kind"),
        (lambda d: d.update(seed_salt="ab"), "'seed_salt' must be null when 'seed_commitment' is null"),
        (lambda d: d.update(version=True), "version True is not supported"),
        (lambda d: d.update(version=10**5000), "version an integer of 16610 bits is not supported"),
        (lambda d: d.update(format="x" * 10**5), "format='xxx"),
        (lambda d: d["actions"].__setitem__(0, {"id": [[None] * 10**4]}), "action #0 is malformed .*: a dict of 1 entry$"),
        (lambda d: d["actions"][0].update(player=10**5000), "record says player an integer of 16610 bits acted"),
        (lambda d: d["actions"][0].update(id=10**5000), "action #0 \\(an integer of 16610 bits\\) does not replay"),
        (lambda d: d["actions"][1].update(label="y" * 10**5), "action #1: label 'yyy[y]*[.][.][.] does not match"),
    ],
)
def test_tampered_records_are_refused(tmp_path: Path, tamper, message: str) -> None:
    doc, _ = record(tmp_path)
    doc = json.loads(json.dumps(doc))
    tamper(doc)
    with pytest.raises(RecordError, match=message) as refused:
        replay_record(doc)
    assert len(str(refused.value)) < 300


def test_unreadable_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="record .* cannot be read"):
        read_record(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(RecordError, match="not valid JSON"):
        read_record(bad)
    with pytest.raises(RecordError, match="must be a JSON object"):
        replay_record([1, 2])


def committed(tmp_path: Path) -> dict:
    secret = SecretSeed.new()
    state = random_playout(HighCardGame(3), seed=secret.seed, chance_from_seed=True)
    doc = make_record(state, [{"name": n, "kind": "random"} for n in ("ann", "bob", "cy")],
                      seed_commitment=secret.commitment, seed_salt=secret.salt)
    save_record(doc, tmp_path / "committed.json")
    return read_record(tmp_path / "committed.json")


def test_records_are_version_3_with_commitment_fields(tmp_path: Path) -> None:
    doc, _ = record(tmp_path)
    assert doc["version"] == RECORD_VERSION == 4
    assert doc["seed_commitment"] is None and doc["seed_salt"] is None
    doc = committed(tmp_path)
    assert doc["seed_commitment"].startswith("sha256:") and isinstance(doc["seed_salt"], str)
    game, states = replay_record(doc)
    assert states[-1].is_terminal() and states[-1].seed == doc["seed"]


@pytest.mark.parametrize(
    "tamper,message",
    [
        (lambda d: d.update(seed=(d["seed"] + 1) % MAX_SEED), "'seed_commitment' does not match"),
        (lambda d: d.update(seed_salt=d["seed_salt"] + "0"), "'seed_commitment' does not match"),
        (lambda d: d.update(seed_commitment="sha256:" + "0" * 64), "'seed_commitment' does not match"),
        (lambda d: d.update(seed_commitment="sha256:xyz"), "'seed_commitment' must be null or 'sha256:'"),
        (lambda d: d.update(seed_commitment=7), "'seed_commitment' must be null or 'sha256:'"),
        (lambda d: d.update(seed_salt=None), "'seed_salt' must be a string"),
        (lambda d: d.update(seed_salt=5), "'seed_salt' must be a string"),
        (lambda d: d.pop("seed_salt"), "'seed_salt' is missing"),
    ],
)
def test_commitment_mismatches_are_refused(tmp_path: Path, tamper, message: str) -> None:
    doc = committed(tmp_path)
    tamper(doc)
    with pytest.raises(RecordError, match=message):
        replay_record(doc)


def test_make_record_checks_the_commitment_it_is_given() -> None:
    secret = SecretSeed.new()
    state = random_playout(HighCardGame(2), seed=secret.seed)
    other = SecretSeed.new()
    with pytest.raises(ValueError, match="does not match"):
        make_record(state, seed_commitment=other.commitment, seed_salt=secret.salt)
    with pytest.raises(ValueError, match="give both or neither"):
        make_record(state, seed_commitment=secret.commitment)
    with pytest.raises(ValueError, match="give both or neither"):
        make_record(state, seed_salt=secret.salt)


def version_1(doc: dict) -> dict:
    """A record as version 1 wrote it: no commitment fields."""
    old = {k: v for k, v in doc.items() if k not in ("seed_commitment", "seed_salt")}
    old["version"] = 1
    return old


def test_version_1_records_are_still_read(tmp_path: Path) -> None:
    doc, _ = record(tmp_path)
    old = version_1(doc)
    path = tmp_path / "v1.json"
    path.write_text(json.dumps(old))
    game, states = replay_record(read_record(path))
    assert states[-1].returns() == doc["result"]["returns"]


@pytest.mark.parametrize(
    "tamper,message",
    [
        (lambda d: d.pop("result"), "'result' is missing"),
        (lambda d: d.pop("players"), "'players' is missing"),
        (lambda d: d["actions"][0].pop("label"), "action #0 is malformed"),
        (lambda d: d["actions"][0].pop("player"), "action #0 is malformed"),
        (lambda d: d.update(seed=MAX_SEED), "'seed': seed must be an integer"),
    ],
)
def test_version_1_records_are_refused_when_tampered(tmp_path: Path, tamper, message: str) -> None:
    doc, _ = record(tmp_path)
    old = version_1(json.loads(json.dumps(doc)))
    tamper(old)
    with pytest.raises(RecordError, match=message):
        replay_record(old)


def test_a_redeal_has_no_record() -> None:
    state = HighCardGame(3).new_initial_state(4)
    state.apply_action(2)
    redeal = state.resample_from_infostate(0, 1)
    with pytest.raises(ValueError, match="re-dealt state .* has no record"):
        make_record(redeal)


@pytest.mark.parametrize("game_id", ["solomon", "tomb", "cleopatra", "valley"])
def test_a_record_labelled_before_players_were_counted_from_1_still_replays(game_id: str) -> None:
    doc = read_record(WRITTEN_BEFORE / f"{game_id}-v2.json")
    assert doc["version"] == 2
    game, states = replay_record(doc)
    assert states[-1].history() == [a["id"] for a in doc["actions"]]
    today = [states[i].action_to_string(a["id"]) for i, a in enumerate(doc["actions"])]
    if game_id != "tomb":  # the other games' old labels named seats from 0; today's count players from 1
        assert any("seat" in a["label"] for a in doc["actions"]) and not any("seat" in label for label in today)


def test_an_old_record_is_checked_by_its_ids_and_actors() -> None:
    doc = read_record(WRITTEN_BEFORE / "valley-v2.json")
    doc["actions"][3]["label"] = "anything at all"
    replay_record(doc)  # an old label is not compared
    doc["actions"][3]["player"] = 1 - doc["actions"][3]["player"] if doc["actions"][3]["player"] >= 0 else 0
    with pytest.raises(RecordError, match="action #3: record says player"):
        replay_record(doc)


def test_a_version_3_record_replays_though_its_tomb_labels_are_worded_as_before() -> None:
    doc = read_record(WRITTEN_BEFORE / "tomb-v3.json")
    assert "bring an archaeologist in at NW" in [a["label"] for a in doc["actions"]]
    game, states = replay_record(doc)
    assert "enter at the north-west entrance" in [
        s.action_to_string(a["id"]) for s, a in zip(states, doc["actions"]) if not s.is_chance_node()]


def test_a_version_4_record_with_an_old_label_is_refused() -> None:
    doc = read_record(WRITTEN_BEFORE / "valley-v2.json")
    doc["version"] = 4
    with pytest.raises(RecordError, match="action #0: label 'deal Djed Amulet to B1' does not match the rules' "
                                          "'Djed Amulet dealt to B1'"):
        replay_record(doc)
