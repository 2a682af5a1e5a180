"""Commands at the ``obelisk play`` move prompt: help, log, save (hint and undo have their own tests)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

import pytest

import obelisk
from obelisk.cli.play import COMMANDS
from obelisk.core import CHANCE
from obelisk.core.records import replay_record
from tests.cli.test_terminal import keyboard, run


def test_help_lists_every_command(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    keyboard(monkeypatch, ["help"], lambda: "q")
    code, out, _ = run(capsys, "play", "valley", "--seats", "you", "--seed", "1")
    assert code == 0
    for name, entry in COMMANDS.items():
        assert re.search(rf"^  {re.escape(entry.usage)} +{re.escape(entry.meaning())}$", out, re.M), name
    assert "q, quit" in out


def expected_log(game_id: str, seed: int, history: list[int], seat: int) -> list[str]:
    state = obelisk.load(game_id, 2).new_initial_state(seed)
    lines = []
    for action in history:
        actor = state.current_player()
        who = "chance" if actor == CHANCE else f"player {actor + 1}"
        lines.append(f"{state.move_number():>4}. {who}: {state.public_action_string(action, seat)}")
        state.apply_action(action)
    return lines


def test_log_shows_the_game_as_the_seat_saw_it(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.json"
    keyboard(monkeypatch, ["1", "1", "log all", "log 2", "log"], lambda: "q")
    code, out, _ = run(capsys, "play", "valley", "--players", "2", "--seats", "you,random", "--seed", "5",
                       "--save", str(path))
    assert code == 0
    history = [a["id"] for a in json.loads(path.read_text())["actions"]]
    lines = expected_log("valley", 5, history, 0)
    shown = [line for line in out.splitlines() if re.match(r"^ *\d+\. (chance|player \d):", line)]
    assert shown == lines + lines[-2:] + lines[-20:]
    true_labels = {a["label"] for a in json.loads(path.read_text())["actions"] if a["player"] == CHANCE}
    hidden = [line for line in lines if "player 2 drew a card" in line]
    assert hidden and not any(label in out for label in true_labels if label.startswith("player 2 drew "))


@pytest.mark.parametrize("argument", ["x", "-1", "²", "9" * 100])
def test_log_refuses_a_bad_count(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                 argument: str) -> None:
    keyboard(monkeypatch, [f"log {argument}"], lambda: "q")
    code, out, err = run(capsys, "play", "valley", "--seats", "you", "--seed", "1")
    assert code == 0 and not err and out.count("log takes a number of steps or 'all'") == 1


def test_save_writes_the_record_and_the_game_goes_on(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.json"
    answers = iter(["1", "save", "1", "1", "save", "q"])
    saved: list[dict[str, Any]] = []

    def typed(prompt: str = "") -> str:
        if path.exists():
            saved.append(json.loads(path.read_text()))
        return next(answers)

    monkeypatch.setattr("builtins.input", typed)
    code, out, _ = run(capsys, "play", "cleopatra", "--seats", "you,random", "--seed", "4", "--no-auto",
                       "--save", str(path))
    assert code == 0 and out.count(f"record saved to {path}; the game goes on") == 2
    first, second = saved[0], saved[-1]
    assert [len([a for a in doc["actions"] if a["player"] == 0]) for doc in (first, second)] == [1, 3]
    assert second["actions"][:len(first["actions"])] == first["actions"]
    for doc in (first, second):
        assert not doc["result"]["terminal"]
    assert replay_record(second)[1][-1].move_number() == len(second["actions"])


def test_hint_shows_the_searchs_top_three(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from obelisk.bots.hints import suggest

    keyboard(monkeypatch, ["hint"], lambda: "q")
    code, out, _ = run(capsys, "play", "valley", "--seats", "you", "--seed", "6")
    state = obelisk.load("valley").new_initial_state(6)
    while state.current_player() == CHANCE:
        state.apply_action(state.sample_chance())
    expected = suggest(state, 0, seed=state.move_number())
    shown = out[out.index("hint: "):out.index("  (share of the search")].splitlines()
    assert code == 0 and len(expected) == 3 and all(len(line) <= 80 for line in shown)
    assert " ".join(shown).split() == ("hint: " + " · ".join(f"{n}. {s.label} ({s.share:.0%}, {s.value:+.2f})"
                                                            for n, s in enumerate(expected, 1))).split()


@pytest.fixture
def two_step() -> Iterator[str]:
    from obelisk.core import registry
    from tests.core.toy import TwoStepHighCardGame

    registry.register(TwoStepHighCardGame)
    yield TwoStepHighCardGame.info.id
    registry.unregister(TwoStepHighCardGame.info.id)


def test_undo_takes_back_moves_of_this_turn_and_they_leave_no_trace(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, two_step: str) -> None:
    path = tmp_path / "g.json"
    keyboard(monkeypatch, ["hold", "undo", "hold", "undo 2", "undo", "swap", "undo", "hold"], lambda: "q")
    code, out, _ = run(capsys, "play", two_step, "--seats", "you,random", "--seed", "1", "--save", str(path))
    assert code == 0 and out.count("took back 1 move") == 2 and "took back 2 moves" not in out
    assert re.findall(r"^nothing to undo: (.*)$", out, re.M) == [
        "player 1 cannot take back more than 1 decision now: a chance event happened since",
        "player 1 cannot take back a decision now: a chance event happened since",
    ]
    mine = [a["label"] for a in json.loads(path.read_text())["actions"] if a["player"] == 0]
    assert mine == ["swap", "hold"]


def test_undo_says_why_there_is_nothing_to_take_back(capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    keyboard(monkeypatch, ["1", "undo", "undo x", "undo 0"], lambda: "q")
    code, out, _ = run(capsys, "play", "valley", "--seats", "you", "--seed", "2")
    assert code == 0
    assert "nothing to undo: player 1 cannot take back a decision now: its decision revealed something hidden" in out
    assert out.count("undo takes a number of moves from 1") == 2


def test_undo_takes_back_the_single_choices_played_for_you_with_the_answer_before_them(two_step: str) -> None:
    from obelisk.cli.play import _asked_steps

    state = obelisk.load(two_step, 2, allow_swap=False).new_initial_state(1)
    for _ in range(2):
        state.apply_action(state.sample_chance())
    state.apply_action(0)
    state.apply_action(0)
    assert _asked_steps(state, 0, 1, False, []) == 1
    assert _asked_steps(state, 0, 1, True, []) == 3
