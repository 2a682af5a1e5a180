"""Whole games at the keyboard: the setup dialog, hint, log, save, quit, then --resume to the end screen."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import obelisk
from obelisk.core.records import read_record, replay_record
from tests.cli.test_terminal import keyboard, run

GAME_NUMBER = {info.id: str(n) for n, info in enumerate(obelisk.list_games(), 1)}
OPTIONS = {"tomb": ["--max-rounds=6"]}
MOST_ANSWERS = 3000


@pytest.mark.parametrize("game_id", ["solomon", "tomb", "cleopatra", "valley"])
def test_a_whole_game_with_the_dialog_commands_and_a_resume(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game_id: str) -> None:
    path = tmp_path / "g.json"
    keyboard(monkeypatch, [GAME_NUMBER[game_id], "", "", "easy", "hint", "log", "save", "1", "1"], lambda: "q")
    code, out, err = run(capsys, "play", *OPTIONS.get(game_id, []), "--seed", "5", "--save", str(path))
    assert code == 0 and not err
    assert re.search(r"^hint: 1\. .+ \(\d+%(, [+-]\d\.\d\d)?\)", out, re.M)
    assert re.search(r"^ +\d+\. chance: ", out, re.M)
    assert f"record saved to {path}; the game goes on" in out and "game left unfinished" in out
    left = json.loads(path.read_text())
    assert not left["result"]["terminal"] and [p["kind"] for p in left["players"]][1:] == ["greedy"] * (
        left["num_players"] - 1)

    answers = iter(range(MOST_ANSWERS))
    monkeypatch.setattr("builtins.input", lambda prompt="": "1" if next(answers) < MOST_ANSWERS - 1 else "q")
    code, out, err = run(capsys, "play", "--resume", str(path))
    assert code == 0 and not err and "final scores" in out and "game left unfinished" not in out
    done = json.loads(path.read_text())
    assert done["result"]["terminal"] and done["actions"][:len(left["actions"])] == left["actions"]
    assert done["players"] == left["players"]
    screen = out[out.index("final scores"):]
    assert re.search(r"│ Place +│", screen) and re.search(r"│ Total +│", screen)
    assert replay_record(read_record(path))[1][-1].is_terminal()
