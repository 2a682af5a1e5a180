"""The flow of ``obelisk play``: automatic single choices, bots thinking, and the summary of their moves."""

from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path
from typing import Any, Iterator

import pytest

import obelisk
from obelisk.cli.play import player_name
from obelisk.core import CHANCE
from obelisk.core.text import readable
from tests.cli.test_terminal import keyboard, run

SUMMARY = re.compile(r"^(chance|player 2 \(greedy bot\)|player 1 \(you, the only choice\)): ")


def told(game_id: str, record: dict[str, Any], viewer: int, auto: bool) -> list[str]:
    """The summary lines a viewer should see: runs of one actor's moves, its own only when automatic."""
    state = obelisk.load(game_id, record["num_players"], **record["options"]).new_initial_state(record["seed"])
    runs: list[tuple[int, list[str]]] = []
    for entry in record["actions"]:
        actor = state.current_player()
        automatic = auto and actor == viewer and len(state.legal_actions()) == 1
        if actor != viewer or automatic:
            label = state.public_action_string(entry["id"], viewer)
            if runs and runs[-1][0] == actor:
                runs[-1][1].append(label)
            else:
                runs.append((actor, [label]))
        elif runs:
            runs.append((-99, []))
        state.apply_action(entry["id"])
    names = {p: f"player {p + 1} ({player_name(k)})" for p, k in enumerate(record["players"])}
    names[viewer] = f"player {viewer + 1} (you, the only choice)"
    names[CHANCE] = "chance"
    return [readable(f"{names[actor]}: {' · '.join(labels)}") for actor, labels in runs if labels]


def summary_lines(out: str) -> list[str]:
    """The summary lines printed, each joined with the indented lines it was wrapped into (80 columns at most)."""
    lines: list[str] = []
    going_on = False
    for line in out.splitlines():
        if SUMMARY.match(line):
            lines.append(line)
        elif going_on and line.startswith("    "):
            lines[-1] += " " + line
        going_on = bool(SUMMARY.match(line)) or (going_on and line.startswith("    "))
        assert not going_on or len(line) <= 80, line
    return [" ".join(line.split()) for line in lines]


@pytest.mark.parametrize("auto", [True, False])
@pytest.mark.parametrize("game_id", ["tomb", "valley"])
def test_single_choices_are_played_for_you_and_bots_are_summarised(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        game_id: str, auto: bool) -> None:
    path = tmp_path / "g.json"
    prompts = keyboard(monkeypatch, ["1"] * 12, lambda: "q")
    flag = "--auto" if auto else "--no-auto"
    code, out, _ = run(capsys, "play", game_id, "-p", "2", "--seats", "you,greedy", "--seed", "2", flag,
                       "--save", str(path))
    record = json.loads(path.read_text())
    state = obelisk.load(game_id, 2).new_initial_state(2)
    asked = 0
    for entry in record["actions"]:
        if state.current_player() == 0 and not (auto and len(state.legal_actions()) == 1):
            asked += 1
        state.apply_action(entry["id"])
    assert code == 0 and asked == len(prompts) - 1 == 12
    shown = summary_lines(out)
    expected = [" ".join(line.split()) for line in told(game_id, record, 0, auto)]
    assert shown == expected[:len(shown)] and len(shown) >= len(expected) - 1
    assert auto == any("(you, the only choice)" in line for line in shown)


def test_a_bot_thinks_under_a_live_indicator(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    shown: list[str] = []

    @contextlib.contextmanager
    def status(text: Any) -> Iterator[None]:
        shown.append(str(text))
        yield

    monkeypatch.setattr("obelisk.cli.play.console.status", status)
    keyboard(monkeypatch, ["1", "1"], lambda: "q")
    code, _, _ = run(capsys, "play", "tomb", "-p", "2", "--seats", "you,greedy", "--seed", "2", "--save",
                     str(tmp_path / "g.json"))
    assert code == 0 and shown and set(shown) == {"player 2 (greedy bot) is thinking…"}
