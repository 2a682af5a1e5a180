"""A whole game of every title in Czech at the terminal, every screen read for English.

The player answers the first listed move to the end after trying every command once, against random
bots (fast, and they reach the rarer decisions); what the terminal prints, its prompts, the end screen,
the replay of the saved record and ``obelisk rules`` must hold no English word but the typed commands
and proper names (``tests.english``), and no player counted from 0.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import obelisk
from tests.cli.test_terminal import keyboard, run
from tests.english import english_words

GAMES = {  # the command line of a whole game that ends in a few hundred answers
    "valley": ["valley", "-p", "2", "--seats", "you,random"],
    "solomon": ["solomon", "-p", "2", "--seats", "you,random"],
    "tomb": ["tomb", "-p", "3", "--seats", "you,random,random", "--max-rounds", "8"],
    "cleopatra": ["cleopatra", "-p", "3", "--seats", "you,random,random", "--max-rounds", "4"],
}
MOST_ANSWERS = 3000
PLAYER_ZERO = re.compile(r"\b[Hh]ráč(?:i|e|em)? 0\b")


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_screen_of_a_czech_game_is_czech(game_id: str, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "hra.json"
    help_ = obelisk.load(game_id).help()
    with_lookup = f"{help_.lookups[0]} {help_.entries[0].key.partition(':')[2]}"
    commands = ["help", "legend", "rules", "log all", "board", with_lookup, "hint", "nesmysl", "undo", "save"]
    answers = iter(range(MOST_ANSWERS))
    prompts = keyboard(monkeypatch, commands, lambda: "1" if next(answers) < MOST_ANSWERS - 1 else "q")
    code, out, err = run(capsys, "play", *GAMES[game_id], "--seed", "4", "--lang", "cs", "--save", str(path))
    assert code == 0 and not err, err
    assert "konečné výsledky" in out, out[-2000:]
    code, replayed, err = run(capsys, "replay", str(path), "--print", "--player", "1", "--lang", "cs")
    assert code == 0 and not err, err
    code, rules, err = run(capsys, "rules", game_id, "--lang", "cs")
    assert code == 0 and not err, err
    shown = (out + "".join(prompts) + replayed + rules).replace(str(tmp_path), "")
    assert english_words(shown) == [], [line for line in shown.splitlines() if english_words(line)][:20]
    assert not PLAYER_ZERO.search(shown), PLAYER_ZERO.search(shown)


def test_the_terminals_own_refusals_are_czech(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "play", "valley", "--seats", "you,nobody", "--lang", "cs")
    assert code == 2 and err.startswith("obelisk: chyba: ") and english_words(err) == [], err
    code, _, err = run(capsys, "replay", "/nonexistent/record.json", "--lang", "cs")
    assert code == 2 and err.startswith("obelisk: chyba: ")
