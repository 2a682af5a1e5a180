"""``obelisk play`` without a game: the setup dialog, its defaults and re-asks, and leaving it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import obelisk
from obelisk.cli.play import STRENGTHS, strength_meaning
from tests.cli.test_terminal import ctrl_c, end_of_input, keyboard, run

GAME_NUMBER = {info.id: str(n) for n, info in enumerate(obelisk.list_games(), 1)}


def test_enter_takes_every_default(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    prompts = keyboard(monkeypatch, [GAME_NUMBER["valley"], "", "", "easy"], lambda: "q")
    path = tmp_path / "g.json"
    code, out, err = run(capsys, "play", "--seed", "3", "--save", str(path))
    assert code == 0 and not err
    assert [p.split(" (")[0] for p in prompts[:4]] == ["Which game", "How many players", "Your seat", "Bots' strength"]
    record = json.loads(path.read_text())
    assert record["game"] == "valley" and record["num_players"] == 2
    assert [p["kind"] for p in record["players"]] == ["human", "greedy"]
    for name, spec in STRENGTHS.items():
        assert f"{name}" in out and spec in out and strength_meaning(name) in out


def test_every_answer_is_checked_and_asked_again(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    answers = ["chess", GAME_NUMBER["valley"], "1", "5", "²", "3", "3", "-1", "2", "wizard", "EASY"]
    keyboard(monkeypatch, answers, lambda: "q")
    path = tmp_path / "g.json"
    code, out, err = run(capsys, "play", "--seed", "3", "--save", str(path))
    assert code == 0 and not err
    assert out.count("type a number from 1 to") == 1
    assert out.count("type a number from 2 to 4, Enter for 2, or q") == 3
    assert out.count("type a number from 0 to 2, Enter for 0, or q") == 2
    assert out.count("type easy, normal, strong, Enter for normal, or q") == 1
    record = json.loads(path.read_text())
    assert record["num_players"] == 3 and [p["kind"] for p in record["players"]] == ["greedy", "greedy", "human"]


def test_options_on_the_command_line_skip_their_questions(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    prompts = keyboard(monkeypatch, [GAME_NUMBER["valley"]], lambda: "q")
    path = tmp_path / "g.json"
    code, _, err = run(capsys, "play", "--players", "4", "--seats", "random,you", "--seed", "3", "--save", str(path))
    assert code == 0 and not err and prompts[0].startswith("Which game") and prompts[1].startswith("your move")
    record = json.loads(path.read_text())
    assert [p["kind"] for p in record["players"]] == ["random", "human", "human", "human"]
    prompts = keyboard(monkeypatch, [GAME_NUMBER["valley"], "", "1"], lambda: "q")
    code, _, err = run(capsys, "play", "--strength", "easy", "--seed", "3", "--save", str(path))
    assert code == 0 and not err and [p["kind"] for p in json.loads(path.read_text())["players"]] == ["greedy", "human"]
    assert not any(p.startswith("Bots' strength") for p in prompts)


def test_strength_without_the_dialog_fills_the_other_seats(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    keyboard(monkeypatch, [], lambda: "q")
    path = tmp_path / "g.json"
    code, _, _ = run(capsys, "play", "valley", "-p", "3", "--strength", "easy", "--seed", "1", "--save", str(path))
    assert code == 0 and [p["kind"] for p in json.loads(path.read_text())["players"]] == ["human", "greedy", "greedy"]


@pytest.mark.parametrize("argv,message", [
    (["--strength", "heroic"], "--strength must be one of easy, normal, strong, got 'heroic'"),
    (["--strength", "easy", "--seats", "you"], "give --seats or --strength, not both"),
])
def test_bad_strength_is_one_line(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = run(capsys, "play", "valley", *argv)
    assert code == 2 and not out and err == f"obelisk: error: {message}\n"


@pytest.mark.parametrize("answered", range(4))
@pytest.mark.parametrize("how", ["eof", "q", "ctrl-c"])
def test_leaving_the_dialog_at_any_question(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                            data_dir: Path, answered: int, how: str) -> None:
    then = {"eof": end_of_input, "q": lambda: "q", "ctrl-c": ctrl_c}[how]
    keyboard(monkeypatch, [GAME_NUMBER["valley"], "", "", ""][:answered], then)
    code, out, err = run(capsys, "play")
    if how == "ctrl-c":
        assert code == 130 and err == "obelisk: interrupted: no game chosen\n"
    else:
        assert code == 0 and not err and out.endswith("no game chosen\n")
    assert not (data_dir / "records").exists() or not any((data_dir / "records").iterdir())


@pytest.mark.parametrize("argv", [["--max-rounds", "2"], ["--max-rounds=2"], ["-o", "max_rounds=2"]])
def test_game_options_go_with_the_dialog_too(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> None:
    keyboard(monkeypatch, [GAME_NUMBER["tomb"], "2", "", "easy"], lambda: "q")
    path = tmp_path / "g.json"
    code, _, err = run(capsys, "play", *argv, "--seed", "1", "--save", str(path))
    assert code == 0 and not err and json.loads(path.read_text())["options"]["max_rounds"] == 2
