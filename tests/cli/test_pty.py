"""A scripted player at a real 80x24 terminal: ``python -m obelisk.cli play`` in a pseudo-terminal.

The other CLI tests replace ``input``; these go through the terminal driver, the line
discipline and Rich's terminal detection, as a person at a keyboard does: the help, the rules,
a component lookup, a hint, an undo, a save, leaving with ``quit``, then ``--resume`` of the
saved record to the end screen.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pexpect
import pytest

import obelisk
from obelisk.core.records import read_record, replay_record

ROOT = Path(__file__).resolve().parents[2]
PROMPT = "your move (number, label or help; q to quit): "
WAIT = 60
"""Seconds any one screen may take: generous, so a busy machine does not fail the test."""
GAMES = {  # game id: the command line's game words (small games, fast bots)
    "solomon": ["solomon", "-p", "2", "--seats", "you,greedy", "--unaffordable", "forbid"],
    "tomb": ["tomb", "-p", "2", "--seats", "you,random", "--max-rounds", "5"],
    "cleopatra": ["cleopatra", "-p", "3", "--seats", "you,greedy,random", "--max-rounds", "3"],
    "valley": ["valley", "-p", "2", "--seats", "you,greedy"],
}
MOST_ANSWERS = 1500
OPTION = re.compile(r"(?:^|\s)(\d+)\. \S", re.M)


def spawn(*words: str) -> pexpect.spawn:
    """The command in a fresh 80x24 pseudo-terminal whose TERM draws no colours or cursor moves."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "dumb", "COLUMNS": "80", "LINES": "24"}
    env.pop("PAGER", None)
    return pexpect.spawn(sys.executable, ["-m", "obelisk.cli", *words], cwd=str(ROOT), env=env,
                         dimensions=(24, 80), encoding="utf-8", codec_errors="replace", timeout=WAIT)


def ask(child: pexpect.spawn, line: str, expected: str) -> str:
    """Type ``line`` at the move prompt; the text shown before the next prompt, which must hold ``expected``."""
    child.sendline(line)
    child.expect_exact(PROMPT)
    shown = child.before
    assert expected in shown, shown[-2000:]
    return shown


def finish(child: pexpect.spawn) -> str:
    """Answer the first listed move until the game ends; everything shown meanwhile."""
    shown = []
    for _ in range(MOST_ANSWERS):
        if child.expect_exact([PROMPT, "final scores"]) == 1:
            child.expect(pexpect.EOF)
            shown.append("final scores" + child.before)
            child.close()
            return "".join(shown)
        shown.append(child.before)
        child.sendline("1")
    raise AssertionError(f"no end after {MOST_ANSWERS} answers")


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_player_at_a_terminal_uses_the_commands_leaves_and_resumes_to_the_end(tmp_path: Path, game_id: str) -> None:
    path = tmp_path / "game.json"
    help = obelisk.load(game_id).help()
    entry = help.entries[-1]
    child = spawn("play", *GAMES[game_id], "--seed", "3", "--save", str(path))
    child.expect_exact(PROMPT)
    first = child.before
    assert "seat 0 to play" in first and "\x1b" not in first
    assert [line for line in first.splitlines() if len(line) > 80 and str(path) not in line] == []
    ask(child, "help", "these commands")
    ask(child, "rules", help.summary.split("\n")[0])
    ask(child, f"{help.lookups[0]} {entry.name.upper()}", entry.describe().split("\n")[0])
    assert re.search(r"^hint: 1\. ", ask(child, "hint", "hint: 1. "), re.M)
    screen, undone = first, ""
    for _ in range(200):  # the last listed move, which is more often one of several steps of a turn
        child.sendline(str(max(int(number) for number in OPTION.findall(screen))))
        child.expect_exact(PROMPT)
        screen = child.before
        undone = ask(child, "undo", "")
        if "took back 1 move" in undone:
            break
    assert "took back 1 move" in undone, "no decision of the game could be taken back"
    assert "seat 0 to play" in undone  # the position before the answer is drawn again
    ask(child, "save", f"record saved to {path}; the game goes on")
    assert json.loads(path.read_text())["result"]["terminal"] is False
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    left = re.search(r"game left unfinished at move (\d+) \(quit\); record saved to (.+?)\s*$", child.before)
    assert left and left.group(2) == str(path), child.before[-500:]
    saved = read_record(path)
    assert len(saved["actions"]) == int(left.group(1))

    child = spawn("play", "--resume", str(path))
    child.expect_exact("resumed at move " + left.group(1))
    end = finish(child)
    assert child.exitstatus == 0, end[-1000:]
    assert re.search(r"│ Place +│", end) and re.search(r"│ Total +│", end), end
    assert f"record saved to {path}" in end and "\x1b" not in end
    assert [line for line in end.splitlines() if len(line) > 80 and str(path) not in line] == [], end
    done = read_record(path)
    assert done["result"]["terminal"] and done["actions"][:len(saved["actions"])] == saved["actions"]
    assert replay_record(done)[1][-1].is_terminal()
