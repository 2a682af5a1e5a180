"""What a record proves: its commitment opens to its seed and every draw is that seed's, whatever its version
claims; labels are English whatever language the game was played in; no number is too long for an error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import obelisk
from obelisk.core import Game, State, i18n
from obelisk.core.records import (RecordError, make_record, read_record, replay_record, save_record,
                                  verified_commitment)
from obelisk.core.seeds import SecretSeed
from obelisk.core.testing import random_playout
from tests.core.toy import HighCardGame

GAMES = [info.id for info in obelisk.list_games() if info.id != HighCardGame.info.id]
"""The package's games (the test-only High Card joins them where it is imported)."""
HUGE = 10**5000
"""Longer than the 4,300 digits Python converts to text."""


def game_of(game_id: str) -> Game:
    return HighCardGame(3) if game_id == HighCardGame.info.id else obelisk.load(game_id)


def forged_game(game: Game, seed: int, forged_draw: int) -> tuple[State, int]:
    """A game whose draws are the seed's but at its ``forged_draw``-th chance node with a choice, where another
    outcome was chosen by hand; and the number of that action in the history."""
    state = game.new_initial_state(seed)
    choices = 0
    forged_at = -1
    while not state.is_terminal():
        legal = state.legal_actions()
        if state.is_chance_node():
            action = state.sample_chance()
            if len(legal) > 1:
                if choices == forged_draw:
                    forged_at = len(state.history())
                    action = next(a for a in legal if a != action)
                choices += 1
        else:
            action = legal[len(state.history()) % len(legal)]
        state.apply_action(action)
    assert forged_at > 0, "the game has too few draws with a choice"
    return state, forged_at


def claims(doc: dict[str, Any], secret: SecretSeed) -> dict[str, Any]:
    """``doc`` with a commitment and the salt that opens it to the record's seed, added after the record was made
    (as a forger would)."""
    return {**json.loads(json.dumps(doc)), "seed_commitment": secret.commitment, "seed_salt": secret.salt}


@pytest.mark.parametrize("game_id", ["highcard", *GAMES])
def test_a_game_drawn_from_its_seed_is_verified(game_id: str) -> None:
    secret = SecretSeed(987_654_321, "proof")
    state = random_playout(game_of(game_id), secret.seed, chance_from_seed=True)
    doc = make_record(state, seed_commitment=secret.commitment, seed_salt=secret.salt)
    replay_record(json.loads(json.dumps(doc)))
    assert verified_commitment(doc) == secret.commitment


@pytest.mark.parametrize("game_id", ["highcard", *GAMES])
def test_forged_draws_are_refused_at_the_first_that_differs(game_id: str) -> None:
    secret = SecretSeed(123_456_789, "forged")
    state, forged_at = forged_game(game_of(game_id), secret.seed, forged_draw=1)
    plain = json.loads(json.dumps(make_record(state)))
    game, states = replay_record(plain)  # every action is legal: only the claim of a proof is false
    assert len(states) == len(plain["actions"]) + 1 and verified_commitment(plain) is None
    with pytest.raises(RecordError, match=rf"^action #{forged_at}: chance outcome \d+ \(.*\) is not the one the "
                                          r"committed seed draws there, \d+ \(") as refused:
        replay_record(claims(plain, secret))
    assert "\n" not in str(refused.value) and len(str(refused.value)) < 300
    with pytest.raises(ValueError, match=rf"^action #{forged_at}: chance outcome"):
        make_record(state, seed_commitment=secret.commitment, seed_salt=secret.salt)


def test_a_draw_forged_at_the_last_step_is_refused_too() -> None:
    secret = SecretSeed(5, "last")
    game = HighCardGame(2)
    honest = random_playout(game, secret.seed, chance_from_seed=True)
    history = honest.history()
    last_draw = max(i for i in range(len(history)) if game.replay(secret.seed, history[:i]).is_chance_node()
                    and len(game.replay(secret.seed, history[:i]).legal_actions()) > 1)
    before = game.replay(secret.seed, history[:last_draw])
    other = next(a for a in before.legal_actions() if a != history[last_draw])
    forged = before.clone()
    forged.apply_action(other)
    while not forged.is_terminal():
        forged.apply_action(forged.sample_chance() if forged.is_chance_node() else forged.legal_actions()[0])
    with pytest.raises(RecordError, match=rf"^action #{last_draw}: chance outcome {other} "):
        replay_record(claims(make_record(forged), secret))


@pytest.mark.parametrize("fields", [
    {"seed_commitment": "sha256:" + "ab" * 32, "seed_salt": "made up"},
    {"seed_commitment": "genuine", "seed_salt": "genuine"},
    {"seed_commitment": None, "seed_salt": None},
    {"seed_commitment": "sha256:" + "ab" * 32},
    {"seed_salt": "made up"},
])
def test_a_version_1_record_cannot_carry_a_commitment(fields: dict[str, Any]) -> None:
    secret = SecretSeed(42, "salt")
    state = random_playout(HighCardGame(3), secret.seed, chance_from_seed=True)
    doc = json.loads(json.dumps(make_record(state, seed_commitment=secret.commitment, seed_salt=secret.salt)))
    old = {key: value for key, value in doc.items() if key not in ("seed_commitment", "seed_salt")}
    old["version"] = 1
    old.update({key: doc[key] if value == "genuine" else value for key, value in fields.items()})
    with pytest.raises(RecordError, match=r"^a version 1 record cannot carry a seed commitment: field "
                                          r"'seed_(commitment|salt)' came with version 2$"):
        replay_record(old)
    assert verified_commitment(old) is None


def test_a_version_1_record_replays_and_is_not_verified() -> None:
    state = random_playout(HighCardGame(3), 7)
    old = {key: value for key, value in make_record(state).items() if key not in ("seed_commitment", "seed_salt")}
    old["version"] = 1
    replay_record(json.loads(json.dumps(old)))
    assert verified_commitment(old) is None


def labels(game: Game, seed: int, history: list[int], lang: str) -> list[str]:
    """Every action's label in ``lang``, straight from the rules."""
    state = game.new_initial_state(seed)
    worded = []
    with i18n.language(lang):
        for action in history:
            worded.append(state.action_to_string(action))
            state.apply_action(action)
    return worded


@pytest.mark.parametrize("game_id", GAMES)
def test_records_are_written_and_checked_in_english_whatever_the_language(game_id: str) -> None:
    game = obelisk.load(game_id)
    secret = SecretSeed(31_337, "words")
    state = random_playout(game, secret.seed, chance_from_seed=True)
    english = labels(game, secret.seed, state.history(), i18n.DEFAULT_LANGUAGE)
    czech = labels(game, secret.seed, state.history(), "cs")
    assert czech != english  # the game speaks Czech, so a record written in Czech would differ
    with i18n.language("cs"):
        doc = json.loads(json.dumps(make_record(state, seed_commitment=secret.commitment, seed_salt=secret.salt)))
        assert [entry["label"] for entry in doc["actions"]] == english
        replay_record(doc)
    replay_record(doc)
    for lang in i18n.LANGUAGES:
        written_in_czech = json.loads(json.dumps(doc))
        for entry, label in zip(written_in_czech["actions"], czech):
            entry["label"] = label
        with i18n.language(lang), pytest.raises(RecordError, match="label .* does not match the rules'"):
            replay_record(written_in_czech)


def good_record() -> dict[str, Any]:
    secret = SecretSeed(77, "big")
    state = random_playout(HighCardGame(2), secret.seed, chance_from_seed=True)
    return json.loads(json.dumps(make_record(state, seed_commitment=secret.commitment, seed_salt=secret.salt)))


@pytest.mark.parametrize("tamper,message", [
    (lambda d: d.update(seed=HUGE), r"record field 'seed': seed must be an integer from 0 to 2\*\*63 - 1, got an "
                                    r"integer of 16610 bits"),
    (lambda d: d.update(seed=-HUGE), r"record field 'seed': seed must be an integer from 0 to 2\*\*63 - 1"),
    (lambda d: d.update(seed_salt=HUGE), "'seed_salt' must be a string"),
    (lambda d: d.update(num_players=HUGE), "players must be from 2 to 4, got an integer of 16610 bits"),
    (lambda d: d.update(version=HUGE), "record version an integer of 16610 bits is not supported"),
    (lambda d: d.update(options={"allow_swap": HUGE}), "option 'allow_swap' must be .*, got an integer of 16610 bits"),
    (lambda d: d["players"][0].update(name=HUGE), "entry 0 must be an object .*, got a dict of 2 entries"),
    (lambda d: d["actions"][3].update(id=HUGE), r"action #3 \(an integer of 16610 bits\) does not replay"),
    (lambda d: d["result"]["returns"].__setitem__(0, HUGE), "result does not match"),
])
def test_numbers_too_long_to_print_get_the_documented_errors(tamper: Any, message: str) -> None:
    doc = good_record()
    tamper(doc)
    for call in (replay_record, lambda d: save_record(d, Path("never-written.json"))):
        with pytest.raises(RecordError, match=message) as refused:
            call(doc)
        assert "4300" not in str(refused.value) and len(str(refused.value)) < 300
    assert not Path("never-written.json").exists()


def test_make_read_and_save_refuse_long_numbers_in_their_own_words(tmp_path: Path) -> None:
    state = random_playout(HighCardGame(2), 3, chance_from_seed=True)
    with pytest.raises(ValueError, match="^players: entry 1 must be an object with a string name and kind"):
        make_record(state, [{"name": "ann", "kind": "human"}, {"name": HUGE, "kind": "random"}])
    with pytest.raises(ValueError, match="^players must list one entry per seat \\(2\\), got an integer"):
        make_record(state, HUGE)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="does not match the state's seed"):
        make_record(state, seed_commitment="sha256:" + "0" * 64, seed_salt=HUGE)  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="^a record's path must be a string or a path, got an integer of 16610 bits$"):
        read_record(HUGE)  # type: ignore[arg-type]
    path = tmp_path / "r.json"
    for extra, where in ((HUGE, "the record\\['note'\\] is an integer of 16610 bits, longer than 40 digits"),
                         (10**40, "the record\\['note'\\] is 10{40}, longer than 40 digits"),
                         (float("nan"), "the record\\['note'\\] is nan, which JSON cannot carry"),
                         ({1: "x"}, "the record\\['note'\\] has the key 1, not a string"),
                         ({"x"}, "the record\\['note'\\] is a set, not JSON data")):
        doc = {**good_record(), "note": extra}
        with pytest.raises(RecordError, match=f"^cannot save: {where}$"):
            save_record(doc, path)
        assert not path.exists()
    save_record({**good_record(), "note": 10**39}, path)
    assert read_record(path)["note"] == 10**39


def test_long_texts_and_wrong_kinds_get_short_specific_errors(tmp_path: Path) -> None:
    doc = good_record()
    with pytest.raises(RecordError, match=r"^record names a game that cannot be loaded: unknown game 'xxx[x]*\.\.\.; "
                                          r"known games: ") as refused:
        replay_record({**doc, "game": "x" * 100_000})
    assert len(str(refused.value)) < 300
    beyond = json.loads(json.dumps(doc))
    beyond["actions"].append(dict(beyond["actions"][-1]))
    past = len(doc["actions"])
    with pytest.raises(RecordError, match=rf"^action #{past}: record says player -?\d acted, the game is over$"):
        replay_record(beyond)
    with pytest.raises(RecordError, match=r"^record 'y{200}'\.\.\. cannot be read: ") as refused:
        read_record("y" * 100_000)
    assert len(str(refused.value)) < 300
    with pytest.raises(RecordError, match="^a record's path must be a string or a path, got an integer of 16610 bits$"):
        save_record(doc, HUGE)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="^a record is made of a game's State, got an integer of 16610 bits$"):
        make_record(HUGE)  # type: ignore[arg-type]
    assert verified_commitment(HUGE) is None  # type: ignore[arg-type]
