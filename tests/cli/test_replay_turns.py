"""``obelisk replay``: stepping by turn, the score table at the end, and its key help shown as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from obelisk.cli.replay import keys_help, turn_starts
from obelisk.core.records import read_record, replay_record
from tests.cli.test_terminal import end_of_input, keyboard, run


@pytest.fixture(scope="module")
def tomb_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from obelisk.cli import main

    path = tmp_path_factory.mktemp("records") / "tomb.json"
    assert main(["play", "tomb", "-p", "2", "--seats", "random", "--seed", "1", "--max-rounds", "3",
                 "--save", str(path)]) == 0
    return path


def deciders(states: list, start: int, end: int) -> set[int]:  # type: ignore[type-arg]
    return {s.current_player() for s in states[start:end] if s.current_player() >= 0}


def test_a_turn_is_one_seats_run_of_decisions(tomb_record: Path) -> None:
    _, states = replay_record(read_record(tomb_record))
    starts = turn_starts(states)
    assert starts[0] == 0 and starts == sorted(set(starts)) and len(starts) > 3
    for start, end in zip(starts[1:], starts[2:] + [len(states)]):
        assert len(deciders(states, start, end)) == 1
        previous = [s.current_player() for s in states[:start] if s.current_player() >= 0]
        assert previous[-1] != states[start].current_player()


def test_t_and_b_step_by_turn_and_show_the_whole_turn(
        capsys: pytest.CaptureFixture[str], tomb_record: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, states = replay_record(read_record(tomb_record))
    starts = turn_starts(states)
    prompts = keyboard(monkeypatch, ["t", "t", "b", "n"], end_of_input)
    code, out, err = run(capsys, "replay", str(tomb_record), "--player", "1")
    assert code == 0 and not err
    assert [p.split("/")[0] for p in prompts] == [
        "[move 0", f"[move {starts[1]}", f"[move {starts[2]}", f"[move {starts[1]}", f"[move {starts[1] + 1}"]
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if f"move {starts[2]} of" in line) + 1
    told = []
    while re.match(r"^(last: |      )(chance|player \d): ", lines[at]):
        told.append(lines[at][6:])
        at += 1
    labels = []
    for before, after in zip(states[starts[1]:starts[2]], states[starts[1] + 1:starts[2] + 1]):
        labels.append(before.public_action_string(after.history()[-1], 0))
    assert " · ".join(label for line in told for label in [line.split(": ", 1)[1]]).split(" · ") == labels


def test_the_end_shows_the_score_table(capsys: pytest.CaptureFixture[str], tomb_record: Path) -> None:
    code, out, _ = run(capsys, "replay", str(tomb_record), "--print")
    assert code == 0 and "final scores" in out and re.search(r"│ Place +│", out) and "│ Inscriptions" in out
    code, out, _ = run(capsys, "replay", str(tomb_record), "--print", "--step", "3")
    assert code == 0 and "final scores" not in out


def test_the_key_help_is_shown_as_written(capsys: pytest.CaptureFixture[str], tomb_record: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    keyboard(monkeypatch, ["?"], end_of_input)
    code, out, _ = run(capsys, "replay", str(tomb_record))
    assert code == 0 and out.count(keys_help()) == 2
    code, out, _ = run(capsys, "replay", "--help")
    flat = " ".join(out.replace("│", " ").split())
    assert code == 0 and "Keys: [enter]/n next step · p previous step · t next turn · b back a turn" in flat
