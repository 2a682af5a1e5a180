"""Previews at the move prompt: ``? N`` says what move N would do, in the words of the rules engine's preview
(``obelisk.core.previews``, the table page's one source), and a short decision shows them under its options.

Valley's buy, Solomon's dig and Cleopatra's laying of a mosaic, each reached in a seeded game with every seat at
the keyboard; once in Czech.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import obelisk
from obelisk.cli.play import choice_lines, preview_lines
from obelisk.core import State, i18n
from obelisk.core.previews import offered
from tests.cli.test_terminal import keyboard, run

CASES = {  # game id: (players, the range of a previewed move)
    "valley": (2, "buy"),
    "solomon": (2, "dig"),
    "cleopatra": (3, "place"),
}


def before(game_id: str, wanted: str, seed: int = 1) -> tuple[State, list[str], int]:
    """A seeded game (every seat at the keyboard) at a decision where a move of range ``wanted`` has a preview:
    the position, the answers (listed numbers) that lead there and that move's number in the list."""
    players, _ = CASES[game_id]
    state = obelisk.load(game_id, players).new_initial_state(seed)
    rng = random.Random(seed)
    answers: list[str] = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
            continue
        legal = state.legal_actions()
        for preview in offered(state, state.current_player()):
            if state.game.action_range(preview.actions[0])[0] == wanted:
                return state, answers, legal.index(preview.actions[0]) + 1
        building = [a for a in legal if state.game.action_range(a)[0] in ("mosaic", "pay")]
        action = rng.choice(building or legal)
        answers.append(str(legal.index(action) + 1))
        state.apply_action(action)
    raise AssertionError(f"no {wanted} with a preview in the game")


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("game_id", sorted(CASES))
def test_question_mark_and_a_number_prints_that_moves_preview(
        game_id: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    players, wanted = CASES[game_id]
    state, answers, number = before(game_id, wanted)
    seat = state.current_player()
    action = state.legal_actions()[number - 1]
    (preview,) = [p for p in offered(state, seat) if action in p.actions]
    label = dict(state.observation(seat)["legal_actions"])[action]
    keyboard(monkeypatch, [*answers, f"? {number}", f"preview {number}", "?"], lambda: "q")
    code, out, _ = run(capsys, "play", game_id, "-p", str(players), "--seats", "you", "--seed", str(state.seed),
                       "--no-auto", "--save", str(tmp_path / "g.json"))
    said = flat(f"{number}. {label}: {preview.text}")
    assert code == 0 and flat(out).count(said) == 2, said
    listed = flat("\n".join(preview_lines(offered(state, seat), state.legal_actions())))
    assert listed and listed in flat(out) and flat(preview.text) in listed
    wide = [line for line in out.splitlines() if len(line) > 80 and str(tmp_path) not in line]
    assert not wide, wide


def test_the_previews_speak_czech_and_a_move_without_one_says_so(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    state, answers, number = before("valley", "buy")
    seat = state.current_player()
    action = state.legal_actions()[number - 1]
    plain_move = next(n for n, a in enumerate(state.legal_actions(), 1)
                      if not any(a in p.actions for p in offered(state, seat)))
    with i18n.language("cs"):
        (preview,) = [p for p in offered(state, seat) if action in p.actions]
    keyboard(monkeypatch, [*answers, f"?{number}", f"? {plain_move}", "? 999"], lambda: "q")
    code, out, _ = run(capsys, "play", "valley", "--lang", "cs", "-p", "2", "--seats", "you", "--seed",
                       str(state.seed), "--no-auto", "--save", str(tmp_path / "g.json"))
    assert code == 0 and flat(preview.text) in flat(out) and "stojí" in preview.text
    assert "bez náhledu: co tah udělá, říká jeho popisek" in flat(out)
    assert f"napište ? a číslo od 1 do {len(state.legal_actions())}" in flat(out)


def test_a_short_decision_shows_its_previews_under_the_options(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The first decision whose whole screen, previews included, fits 24 lines shows them under its options,
    before any answer; a taller one leaves them to ``? N``."""
    state, answers, said = fitting()
    keyboard(monkeypatch, answers, lambda: "q")
    code, out, _ = run(capsys, "play", "cleopatra", "-p", "3", "--seats", "you", "--seed", str(state.seed),
                       "--no-auto", "--save", str(tmp_path / "g.json"))
    before_leaving = out[:out.rindex("game left unfinished")].rstrip("\n").split("\n")
    assert code == 0 and before_leaving[-len(said):] == said


def fitting() -> tuple[State, list[str], list[str]]:
    """A seeded Cleopatra game (every seat at the keyboard) at a decision whose screen fits with its previews:
    the position, the answers that lead there and the preview lines."""
    state = obelisk.load("cleopatra", 3).new_initial_state(1)
    rng = random.Random(1)
    answers: list[str] = []
    tall = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
            continue
        seat = state.current_player()
        legal = state.legal_actions()
        said = preview_lines(offered(state, seat), legal)
        if said:
            lines = choice_lines(state, seat, state.game.render_observation(state.observation(seat)))
            if lines[-len(said):] == said:
                assert tall, "a decision too tall for its previews comes first"
                return state, answers, said
            tall += 1
        action = rng.choice(legal)
        answers.append(str(legal.index(action) + 1))
        state.apply_action(action)
    raise AssertionError("no decision fits its previews")
