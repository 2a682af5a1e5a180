"""``obelisk play --resume RECORD``: an unfinished game goes on with its seats and its seed; bad records are refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from obelisk.core.records import read_record, replay_record
from tests.cli.test_terminal import keyboard, run


def left_game(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, path: Path,
              *argv: str, answers: int = 3) -> dict[str, object]:
    keyboard(monkeypatch, ["1"] * answers, lambda: "q")
    code, out, _ = run(capsys, "play", *argv, "--save", str(path))
    assert code == 0 and "game left unfinished" in out
    return json.loads(path.read_text())


def test_a_game_goes_on_where_it_was_left(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.json"
    before = left_game(capsys, monkeypatch, path, "valley", "-p", "3", "--seats", "greedy,you,random", "--seed", "8")
    keyboard(monkeypatch, ["1"] * 3, lambda: "q")
    code, out, err = run(capsys, "play", "--resume", str(path))
    after = json.loads(path.read_text())
    assert code == 0 and not err and f"resumed at move {len(before['actions'])}" in out  # type: ignore[arg-type]
    assert after["players"] == before["players"] and after["seed"] == 8 and after["seed_commitment"] is None
    assert after["actions"][:len(before["actions"])] == before["actions"]  # type: ignore[arg-type]
    mine = [[a for a in doc["actions"] if a["player"] == 1] for doc in (before, after)]  # type: ignore[union-attr]
    assert len(mine[1]) > len(mine[0])
    replay_record(read_record(path))


def test_a_secret_seed_stays_secret_until_the_resumed_game_ends(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.json"
    before = left_game(capsys, monkeypatch, path, "highcard", "--seats", "you,random", answers=0)
    other = tmp_path / "other.json"
    keyboard(monkeypatch, ["hold"], lambda: "q")
    code, out, err = run(capsys, "play", "--resume", str(path), "--save", str(other))
    after = json.loads(other.read_text())
    assert code == 0 and not err and after["result"]["terminal"]
    assert (after["seed"], after["seed_commitment"], after["seed_salt"]) == (
        before["seed"], before["seed_commitment"], before["seed_salt"])
    assert (f"shuffles committed: {before['seed_commitment']} (the record's seed and every draw verified against it)"
            in out)
    assert out.index(f"seed revealed: {before['seed']}") > out.index("final scores")
    assert out.count(str(before["seed"])) == 1
    assert json.loads(path.read_text()) == before


def test_a_finished_game_is_not_resumed(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    assert run(capsys, "play", "highcard", "--seats", "random", "--seed", "1", "--save", str(path))[0] == 0
    code, out, err = run(capsys, "play", "--resume", str(path))
    assert code == 2 and not out and err == (f"obelisk: error: the game in {str(path)!r} is finished; "
                                             "`obelisk replay` shows it\n")


def tampered(doc: dict[str, object], how: str) -> dict[str, object]:
    doc = json.loads(json.dumps(doc))
    if how == "seed":
        doc["seed"] = doc["seed"] + 1  # type: ignore[operator]
    elif how == "action":
        doc["actions"][-1]["id"] += 1  # type: ignore[index]
    elif how == "other game":
        doc["game"], doc["options"] = "tomb", {}
    elif how == "bot":
        doc["players"][1]["kind"] = "wizard"  # type: ignore[index]
    return doc


@pytest.mark.parametrize("how,message", [
    ("seed", "does not match the record's seed and seed_salt"),
    ("action", "does not"),
    ("other game", "action #"),
    ("bot", "unknown bot 'wizard'"),
])
def test_a_tampered_record_is_refused_in_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch, how: str, message: str) -> None:
    path = tmp_path / "g.json"
    doc = left_game(capsys, monkeypatch, path, "valley", "--seats", "you,greedy", answers=2)
    path.write_text(json.dumps(tampered(doc, how)))
    code, out, err = run(capsys, "play", "--resume", str(path))
    assert code == 2 and not out and err.startswith("obelisk: error: ") and err.count("\n") == 1
    assert message in err, err


@pytest.mark.parametrize("content,message", [(None, "cannot be read"), ("{", "not valid JSON"),
                                             ("[]", "a record must be a JSON object"),
                                             ('{"format": "x"}', "not an obelisk-record file")])
def test_a_file_that_is_no_record_is_refused_in_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                         content: str | None, message: str) -> None:
    path = tmp_path / "g.json"
    if content is not None:
        path.write_text(content)
    code, out, err = run(capsys, "play", "--resume", str(path))
    assert code == 2 and not out and err.count("\n") == 1 and message in err, err


@pytest.mark.parametrize("argv", [["valley"], ["--seats", "you"], ["--seed", "3", "-p", "2"], ["--colour=red"],
                                  ["--strength", "easy"]])
def test_resume_takes_no_other_game_settings(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                             argv: list[str]) -> None:
    code, out, err = run(capsys, "play", "--resume", str(tmp_path / "g.json"), *argv)
    assert code == 2 and not out and err == (
        "obelisk: error: --resume continues the record's own game, seats and seed: give no game, game options, "
        "--players, --seats, --strength or --seed with it\n")
