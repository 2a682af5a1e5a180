"""The ``obelisk`` command, run in-process: happy paths and user errors (no tracebacks)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from obelisk.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list_shows_games_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "list")
    assert code == 0 and "highcard" in out and "allow_swap" in out
    assert "pyramid='small': Pyramid" in out and "'big': Big" in out and "'coins': More coins wins" in out
    code, out, _ = run(capsys, "list", "--json")
    ids = [g["id"] for g in json.loads(out)]
    assert code == 0 and "highcard" in ids
    tomb = next(g for g in json.loads(out) if g["id"] == "tomb")
    assert {"name": "max_rounds", "min": 1, "max": 1_000_000}.items() <= next(
        o for o in tomb["options"] if o["name"] == "max_rounds").items()


def test_simulate_json_counts_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "highcard", "-p", "3", "-n", "30", "--seed", "5", "--json")
    result = json.loads(out)
    assert code == 0 and result["games"] == 30
    assert sum(s["wins"] for s in result["seats"]) == pytest.approx(30)
    assert result["steps_per_second"] > 0 and result["mean_length"] >= 5
    again = json.loads(run(capsys, "simulate", "highcard", "-p", "3", "-n", "30", "--seed", "5", "--json")[1])
    assert [s["wins"] for s in again["seats"]] == [s["wins"] for s in result["seats"]]


def test_bot_parameters_stay_with_their_bot_in_every_list(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "highcard", "-n", "2", "--bots", "ismcts:5,depth=1,random", "--json")
    assert code == 0 and json.loads(out)["bots"] == ["ismcts:5,depth=1", "random"]


def test_simulate_passes_game_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "highcard", "-n", "5", "--allow-swap", "false", "--json")
    assert code == 0 and json.loads(out)["options"] == {"allow_swap": False}
    assert json.loads(out)["max_length"] == 4


@pytest.mark.parametrize(
    "argv,message",
    [
        (["simulate", "chess"], "unknown game 'chess'"),
        (["simulate", "highcard", "-p", "7"], "players must be from 2 to 4, got 7"),
        (["simulate", "highcard", "--allow-swap", "maybe"], "option 'allow_swap' must be one of True, False"),
        (["simulate", "highcard", "--colour", "red"], "unknown option(s) colour"),
        (["simulate", "highcard", "--bots", "wizard"], "unknown bot 'wizard'"),
        (["simulate", "highcard", "--bots", "you"], "simulate runs bots only"),
        (["play", "highcard", "--seats", "you,you,you,you,you"], "5 seats given for a 2-player game"),
        (["replay", "/nonexistent/record.json"], "cannot be read"),
        (["replay"], "Missing argument 'FILE'"),
        (["arena"], "Missing argument 'GAME'. (see obelisk arena --help)"),
        (["arena", "highcard", "--games", "0"], "Invalid value for '--games'"),
        (["simulate", "highcard", "-n", "x"], "Invalid value for '--games'"),
        (["play", "highcard", "--seed", "x"], "Invalid value for '--seed'"),
        (["arena", "highcard", "--bots", "ismcts:1s,c=nan"], "'c' must be a finite number"),
        (["chess"], "No such command 'chess'. (see obelisk --help)"),
        (["simulate", "highcard", "--=5"], "an option needs a name: '--=5'"),
        (["simulate", "highcard", "-o", "=5"], "-o needs NAME=VALUE, got '=5'"),
        (["simulate", "highcard", "--bots", ","], "--bots needs at least one entry"),
        (["play", "highcard", "--seats", " , "], "--seats needs at least one entry"),
    ],
)
def test_user_errors_are_one_line(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert message in err and "Traceback" not in err
    assert err.startswith("obelisk: error:")


@pytest.mark.parametrize(
    "argv,message",
    [
        (["arena", "highcard", "-n", "2", "--csv", "{file}/x.csv"], "the CSV folder '{file}' is a file"),
        (["arena", "highcard", "-n", "2", "--csv", "{dir}"], "is a folder"),
        (["arena", "highcard", "-n", "2", "--records", "{file}/records"], "cannot create the records folder"),
        (["analyze", "highcard", "-n", "2", "--out", "{file}/report"], "cannot create the report folder"),
        (["play", "highcard", "--seats", "random", "--save", "{file}/g.json"], "the record folder '{file}' is a file"),
    ],
)
def test_unwritable_outputs_are_refused_before_any_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], message: str
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    words = [w.format(file=blocker, dir=tmp_path) for w in argv]
    code, out, err = run(capsys, *words)
    assert code == 2 and message.format(file=blocker) in err and err.startswith("obelisk: error:")
    assert "final scores" not in out and "report written" not in out


def test_a_record_that_cannot_be_saved_is_printed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def disk_full(record: dict[str, object], path: Path) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("obelisk.cli.play.save_record", disk_full)
    save = str(tmp_path / "g.json")
    code, out, err = run(capsys, "play", "highcard", "--seats", "random", "--seed", "3", "--save", save)
    assert code == 2 and "No space left on device" in err
    record = json.loads(out[out.index("\n{") + 1:])
    assert record["seed"] == 3 and record["actions"]


@pytest.mark.parametrize("game_id,option", [("solomon", "--data"), ("tomb", "--data"), ("cleopatra", "--data"),
                                            ("valley", "--cards")])
def test_data_files_that_never_end_or_are_not_json_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game_id: str, option: str
) -> None:
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe{}")
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000)
    number = tmp_path / "number.json"
    number.write_text('{"cards": ' + "9" * 5000 + "}")
    cases = ((binary, "not UTF-8 text"), (deep, "nested too deeply"), (number, "an integer of 5000 digits"),
             ("/dev/zero", "not a regular file"))
    for path, reason in cases:
        code, _, err = run(capsys, "simulate", game_id, "-n", "1", option, str(path))
        assert code == 2 and reason in err and err.count("\n") == 1, err


def test_no_command_shows_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys)
    assert code == 0 and "arena" in out and "simulate" in out and not err


def test_bot_game_is_saved_and_replayable(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    code, out, _ = run(capsys, "play", "highcard", "--seats", "random", "--seed", "3", "--save", str(path))
    assert code == 0 and "final scores" in out and path.exists()
    code, out, _ = run(capsys, "replay", str(path), "--print", "--seat", "1")
    assert code == 0 and "view of seat 1" in out
    doc = json.loads(path.read_text())
    doc["actions"][2]["id"] = 1 - doc["actions"][2]["id"]
    path.write_text(json.dumps(doc))
    code, _, err = run(capsys, "replay", str(path), "--print")
    assert code == 2 and "does not" in err


def test_interactive_play_reads_numbers_and_labels(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    answers = iter(["nonsense", "9", "swap"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    path = tmp_path / "g.json"
    code, out, _ = run(capsys, "play", "highcard", "--seats", "you,random", "--seed", "1", "--save", str(path))
    assert code == 0
    assert out.count("type a number from 1 to 2, a label from the list, or q") == 2
    assert "1. hold" in out and "2. swap" in out
    assert "final scores" in out
    record = json.loads(path.read_text())
    seat0 = [a for a in record["actions"] if a["player"] == 0]
    assert [a["label"] for a in seat0] == ["swap"]


def test_bot_moves_shown_to_a_human_hide_secret_draws(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("builtins.input", lambda prompt="": "hold")
    code, out, _ = run(capsys, "play", "highcard", "--seats", "you,random", "--seed", "2", "--save",
                       str(tmp_path / "g.json"))
    assert code == 0
    assert "chance: seat 1 draws a card" in out
