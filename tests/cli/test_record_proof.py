"""What ``obelisk replay`` and ``obelisk play --resume`` say a record proves: "verified" only when its commitment
opens to its seed and every draw is that seed's; records are the same whatever language the game was played in."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

import pytest

import obelisk
from obelisk.core import i18n
from obelisk.core.records import make_record, read_record, replay_record, verified_commitment
from obelisk.core.seeds import SecretSeed
from tests.cli.test_terminal import keyboard, run
from tests.core.test_record_proof import claims, forged_game

VERIFIED = re.compile(r"^verified: the seed opens commitment (sha256:[0-9a-f]{64}) and every chance outcome is the "
                      r"one it draws$", re.M)
NOT_VERIFIED = re.compile(r"^not verified: seed (\d+) was fixed, with no commitment to check it and its draws "
                          r"against$", re.M)


def only_record(data_dir: Path) -> Path:
    records = list((data_dir / "records").glob("*.json"))
    assert len(records) == 1, records
    return records[0]


def bot_game(capsys: pytest.CaptureFixture[str], data_dir: Path, game_id: str = "highcard", *argv: str) -> Path:
    """A finished game of bots with a secret seed, and its record."""
    code, out, err = run(capsys, "play", game_id, "--seats", "random", *argv)
    assert code == 0 and not err
    path = only_record(data_dir)
    assert json.loads(path.read_text())["result"]["terminal"]
    return path


def unfinished(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, path: Path, *argv: str,
               answers: int = 3) -> dict[str, Any]:
    """An unfinished game of a person against a bot, left after ``answers`` decisions, and its record."""
    keyboard(monkeypatch, ["1"] * answers, lambda: "q")
    code, out, err = run(capsys, "play", *argv, "--save", str(path))
    doc = json.loads(path.read_text())
    assert code == 0 and not err and not doc["result"]["terminal"]
    return doc


def rolled_back(doc: dict[str, Any], commitment: str, salt: str) -> dict[str, Any]:
    """``doc`` edited to version 1 with the commitment and salt given."""
    return {**json.loads(json.dumps(doc)), "version": 1, "seed_commitment": commitment, "seed_salt": salt}


ROLLED_BACK = ("obelisk: error: a version 1 record cannot carry a seed commitment: field 'seed_commitment' came "
               "with version 2\n")


@pytest.mark.parametrize("made_up", [True, False])
def test_replay_refuses_a_record_rolled_back_to_version_1_with_a_commitment(
        capsys: pytest.CaptureFixture[str], data_dir: Path, made_up: bool) -> None:
    path = bot_game(capsys, data_dir)
    doc = json.loads(path.read_text())
    commitment, salt = ("sha256:" + "5" * 64, "made up") if made_up else (doc["seed_commitment"], doc["seed_salt"])
    path.write_text(json.dumps(rolled_back(doc, commitment, salt)))
    code, out, err = run(capsys, "replay", str(path), "--print")
    assert (code, out, err) == (2, "", ROLLED_BACK)


def test_resume_refuses_a_record_rolled_back_to_version_1_and_leaves_it_as_it_was(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    doc = unfinished(capsys, monkeypatch, path, "valley", "--seats", "you,random")
    text = json.dumps(rolled_back(doc, "sha256:" + "5" * 64, "made up"))
    path.write_text(text)
    keyboard(monkeypatch, [], lambda: "q")
    code, out, err = run(capsys, "play", "--resume", str(path))
    assert (code, out, err) == (2, "", ROLLED_BACK)
    assert path.read_text() == text


def test_a_version_1_record_resumes_as_not_verified(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    doc = unfinished(capsys, monkeypatch, path, "valley", "--seats", "you,random")
    old = {key: value for key, value in doc.items() if key not in ("seed_commitment", "seed_salt")}
    path.write_text(json.dumps({**old, "version": 1}))
    code, out, err = run(capsys, "replay", str(path), "--print")
    assert code == 0 and NOT_VERIFIED.findall(out) == [str(doc["seed"])] and not VERIFIED.search(out)
    keyboard(monkeypatch, ["1"], lambda: "q")
    code, out, err = run(capsys, "play", "--resume", str(path))
    assert code == 0 and not err and "shuffles committed" not in out and f"fixed-seed game (seed {doc['seed']})" in out
    saved = read_record(path)
    assert (saved["version"], saved["seed_commitment"], saved["seed_salt"]) == (2, None, None)
    replay_record(saved)
    assert verified_commitment(saved) is None


@pytest.fixture
def forged(tmp_path: Path) -> Iterator[tuple[Path, Path, int]]:
    """A Valley game whose second draw with a choice was made by hand: its record claiming a commitment to its
    seed, the same record without the claim, and the number of the forged action."""
    secret = SecretSeed(2024, "forged draws")
    state, forged_at = forged_game(obelisk.load("valley"), secret.seed, forged_draw=1)
    honest = json.loads(json.dumps(make_record(state, [{"name": "you", "kind": "human"},
                                                       {"name": "random", "kind": "random"}])))
    claimed, plain = tmp_path / "claimed.json", tmp_path / "plain.json"
    claimed.write_text(json.dumps(claims(honest, secret)))
    plain.write_text(json.dumps(honest))
    yield claimed, plain, forged_at


def test_replay_refuses_forged_draws_naming_the_first(capsys: pytest.CaptureFixture[str],
                                                      forged: tuple[Path, Path, int]) -> None:
    claimed, plain, forged_at = forged
    code, out, err = run(capsys, "replay", str(claimed), "--print")
    assert code == 2 and not out and err.count("\n") == 1
    assert err.startswith(f"obelisk: error: action #{forged_at}: chance outcome ") and "committed seed draws" in err
    code, out, err = run(capsys, "replay", str(plain), "--print")
    assert code == 0 and not err and NOT_VERIFIED.findall(out) == ["2024"] and not VERIFIED.search(out)


def test_resume_refuses_forged_draws(capsys: pytest.CaptureFixture[str], forged: tuple[Path, Path, int]) -> None:
    claimed, _, forged_at = forged
    before = claimed.read_text()
    code, out, err = run(capsys, "play", "--resume", str(claimed))
    assert code == 2 and not out and err.startswith(f"obelisk: error: action #{forged_at}: chance outcome ")
    assert claimed.read_text() == before


@pytest.mark.parametrize("game_id", [info.id for info in obelisk.list_games()])
def test_every_game_played_with_a_secret_seed_is_verified(capsys: pytest.CaptureFixture[str], data_dir: Path,
                                                          game_id: str) -> None:
    path = bot_game(capsys, data_dir, game_id)
    code, out, err = run(capsys, "replay", str(path), "--print")
    assert code == 0 and not err and VERIFIED.findall(out) == [json.loads(path.read_text())["seed_commitment"]]


@pytest.fixture
def two_step() -> Iterator[str]:
    from obelisk.core import registry
    from tests.core.toy import TwoStepHighCardGame

    registry.register(TwoStepHighCardGame)
    yield TwoStepHighCardGame.info.id
    registry.unregister(TwoStepHighCardGame.info.id)


def test_a_secret_game_with_undos_is_verified(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch, two_step: str) -> None:
    path = tmp_path / "g.json"
    keyboard(monkeypatch, ["hold", "undo", "hold", "undo 2", "undo", "swap", "undo", "hold"], lambda: "q")
    code, out, _ = run(capsys, "play", two_step, "--seats", "you,random", "--save", str(path))
    assert code == 0 and out.count("took back 1 move") == 2
    code, out, err = run(capsys, "replay", str(path), "--print")
    assert code == 0 and not err and VERIFIED.findall(out) == [json.loads(path.read_text())["seed_commitment"]]


def rules_labels(doc: dict[str, Any], lang: str) -> list[str]:
    """The label of every action of a record, worded by the rules in ``lang``."""
    state = obelisk.load(doc["game"], doc["num_players"], **doc["options"]).new_initial_state(doc["seed"])
    labels = []
    with i18n.language(lang):
        for entry in doc["actions"]:
            labels.append(state.action_to_string(entry["id"]))
            state.apply_action(entry["id"])
    return labels


def assert_english(doc: dict[str, Any]) -> None:
    english = rules_labels(doc, "en")
    assert [entry["label"] for entry in doc["actions"]] == english
    assert rules_labels(doc, "cs") != english  # so a record written in Czech would have shown


def test_a_game_played_in_czech_replays_and_resumes_in_english(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, data_dir: Path, tmp_path: Path) -> None:
    finished = bot_game(capsys, data_dir, "valley", "--lang", "cs")
    assert_english(json.loads(finished.read_text()))
    code, out, err = run(capsys, "replay", str(finished), "--print")
    assert code == 0 and not err and VERIFIED.search(out)
    path = tmp_path / "g.json"
    before = unfinished(capsys, monkeypatch, path, "valley", "--lang", "cs", "--seats", "you,random")
    assert_english(before)
    keyboard(monkeypatch, ["1"] * 3, lambda: "q")
    code, out, err = run(capsys, "play", "--resume", str(path))
    after = json.loads(path.read_text())
    assert code == 0 and not err and "(the record's seed and every draw verified against it)" in out
    kept = len(before["actions"])
    assert len(after["actions"]) > kept and after["actions"][:kept] == before["actions"]
    assert_english(after)


def test_a_game_played_in_english_replays_and_resumes_in_czech(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, data_dir: Path, tmp_path: Path) -> None:
    finished = bot_game(capsys, data_dir, "valley")
    code, out, err = run(capsys, "replay", str(finished), "--print", "--lang", "cs")
    commitment = json.loads(finished.read_text())["seed_commitment"]
    assert code == 0 and not err and f"ověřeno: semínko odpovídá závazku {commitment}" in out
    path = tmp_path / "g.json"
    before = unfinished(capsys, monkeypatch, path, "valley", "--seats", "you,random")
    keyboard(monkeypatch, ["1"] * 3, lambda: "q")
    code, out, err = run(capsys, "play", "--resume", str(path), "--lang", "cs")
    after = json.loads(path.read_text())
    assert code == 0 and not err and "semínko záznamu i každý výsledek náhody proti němu ověřeny" in out
    assert len(after["actions"]) > len(before["actions"])
    assert_english(after)
