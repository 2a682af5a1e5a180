"""Write the screens section of docs/play.md: one terminal screen of ``obelisk play`` per game, from a real game.

Each game is played in this process against greedy bots with a fixed seed; a
scripted player answers the first listed move a few times, then asks for a
hint. The screen shown is the last one: the summary of what the bots did, the
position, the moves and the hint, as an 80-column terminal shows them (the
typed answers are echoed after their prompts, as a terminal would). The section runs from its
heading (``HEADING``) to the end of the page; the manual above it is written by hand.

    .venv/bin/python tools/capture_play.py            # rewrite the section
    .venv/bin/python tools/capture_play.py --check    # fail if the section is not what it would write
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import tempfile
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "play.md"
WIDTH = 80
MOST_ANSWERS = 200
GAMES = {  # game id: (command-line words, answers before the hint)
    "solomon": (["-p", "3", "--seed", "4"], 3),
    "tomb": (["-p", "3", "--seed", "4", "--max-rounds", "20"], 4),
    "cleopatra": (["-p", "3", "--seed", "4"], 3),
    "valley": (["-p", "2", "--seed", "4"], 4),
}
HEADING = "## What the screens look like"
INTRO = HEADING + """

One screen of `obelisk play` per game, captured by `tools/capture_play.py` from real seeded games
against greedy bots (the player typed `1` a few times, then `hint`). Each screen starts with the
summary of what happened since the player's last move (one line per seat's run of moves, the chance
events folded into one line), then the position as seat 0 may see it, the legal moves, and the
hint. Regenerate this section with `.venv/bin/python tools/capture_play.py` after changing what the
terminal shows; `--check` fails when it is out of date.

Every screen is at most 80 columns wide and speaks in words: no internal identifiers, no Python lists,
"1 card" rather than "1 cards" (`tests/cli/test_screens.py` checks every decision of seeded random
games, 2 to 6 players, from every seat). The board (the cave, the maze, the garden) has the text about
it to its right — the supply, your hand, the turn, the seats, the stalls — and what does not fit
beside it goes below. The legend of a game's symbols is printed once, before the first move, and
again on `legend`. Moves are numbered down columns that fit the width; a label much longer than the
others (`end turn without digging` among `move A1→B1`) gets its own line after the columns, and a
label too long to share a line wraps under itself. A walk in the tomb shows one line a step (`seat 0
on I3, step 2 of 4 (from I4); board shows the maze`) while nobody else has moved; `board` draws the
whole screen. A payment in Valley or Cleopatra can be made in one answer, `pay` (see "Paying in one
go" above).

How tall the screen of a decision is, rule and prompt included (`tests/cli/test_screens.py` games,
measured; the test holds every game to its median):

| game | median | 24 lines or fewer | tallest | what is still taller, and why |
|---|---|---|---|---|
| Valley of the Kings | 19–22 | 81–98% of decisions | 35 | a long hand: one option per card to play and to entomb |
| Secret of the Ancient Tomb | 23 (2–3 players), 28 (6), 29 (big pyramid) | 78–92% with 2–3 players, and every step of a walk is one line | 58 | the maze takes 20 lines (28 in the big pyramid); with 6 seats their lines do not fit beside it |
| King Solomon's Treasury | 23–26 | about half | 42 | a digging turn lists up to 60 moves: 12–15 rows even in 4–5 columns |
| Cleopatra | 27–29 | 10–22% | 92 | the deck and the discards (2–3 lines), the seats and the latest events go below the garden; laying a mosaic lists up to 300 placements |
"""


def capture(game_id: str, words: list[str], answers: int, folder: Path) -> str:
    """The text of the screen where the player asked for a hint, prompts and typed answers included.

    The player answers ``1`` at least ``answers`` times and until a screen opens with what a bot did.
    """
    from obelisk.cli import main

    out = io.StringIO()
    given: list[str] = []

    def typed(prompt: str = "") -> str:
        if "hint" in given:
            answer = "q"
        elif len(given) >= answers and "seat 1 (greedy): " in _told(_before_screen(out.getvalue())):
            answer = "hint"
        else:
            answer = "1" if len(given) < MOST_ANSWERS else "q"
        given.append(answer)
        out.write(f"{prompt}{answer}\n")
        return answer

    argv = ["play", game_id, *words, "--seats", "you,greedy", "--save", str(folder / f"{game_id}.json")]
    with contextlib.redirect_stdout(out), mock.patch("builtins.input", typed):
        if main(argv) != 0 or "hint" not in given:
            raise SystemExit(f"{game_id}: no hint was asked for:\n{out.getvalue()[-2000:]}")
    text = out.getvalue()
    hint = text.rindex("hint: ")
    before = _before_screen(text[:hint])
    start = len(before) - len(_told(before))
    end = text.index("\n", hint) + 1
    for line in text[end:].split("\n"):
        if not line.startswith("    ") and not line.startswith("  ("):
            break
        end += len(line) + 1
    return text[start:end].rstrip("\n")


def _before_screen(text: str) -> str:
    """``text`` up to the rule that opens its last screen."""
    return text[:text.rfind("\n", 0, text.rfind("seat 0 to play")) + 1]


def _told(text: str) -> str:
    """The summary lines (``chance: …``, ``seat N (…): …``) at the end of ``text``, before the next screen."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    told: list[str] = []
    wrapped: list[str] = []
    for line in reversed(lines):
        if line.startswith("    "):
            wrapped.insert(0, line)
            continue
        if not (line.startswith("chance: ") or line.startswith("seat ") and "): " in line):
            break
        told[:0] = [line, *wrapped]
        wrapped = []
    return "".join(line + "\n" for line in told)


def document() -> str:
    os.environ["COLUMNS"] = str(WIDTH)
    sys.path.insert(0, str(ROOT))
    parts = [INTRO]
    with tempfile.TemporaryDirectory() as folder:
        os.environ["OBELISK_DATA_DIR"] = folder
        import obelisk

        names = {info.id: info.name for info in obelisk.list_games()}
        for game_id, (words, answers) in GAMES.items():
            command = " ".join(["obelisk play", game_id, *words, "--seats you,greedy"])
            screen = capture(game_id, words, answers, Path(folder))
            parts.append(f"### {names[game_id]}\n\n`{command}`\n\n```text\n{screen}\n```\n")
    return "\n".join(parts)


def page(section: str) -> str:
    """docs/play.md with its screens section (from ``HEADING`` to the end) replaced by ``section``."""
    text = DOC.read_text(encoding="utf-8")
    at = text.find(HEADING)
    manual = text[:at] if at >= 0 else text.rstrip("\n") + "\n\n"
    return manual + section


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with docs/play.md instead of writing it")
    args = parser.parse_args()
    text = page(document())
    if args.check:
        if DOC.read_text(encoding="utf-8") != text:
            print(f"{DOC.relative_to(ROOT)} is out of date: run tools/capture_play.py", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(text, encoding="utf-8")
    print(f"wrote {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
