"""Words for terminal screens: identifiers as words, counted nouns, and lines that fit the width."""

from __future__ import annotations

import re
import textwrap
from typing import Callable, Iterable, Sequence

from obelisk.core import i18n

tr = i18n.ui

SCREEN_WIDTH = 80
"""The terminal width every screen fits."""


def words(identifier: str) -> str:
    """An identifier as words: ``first_aid_kit`` → ``first-aid kit``, ``poison_gas`` → ``poison gas``."""
    parts = identifier.split("_")
    if len(parts) == 3 and parts[:2] == ["first", "aid"]:
        return "first-aid " + parts[2]
    return " ".join(parts)


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``1 card``, ``2 cards``, ``0 cards``; ``plural`` for nouns not made by adding an s."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def wrapped(head: str, parts: Iterable[str], separator: str = ", ", indent: int = 4,
            width: int = SCREEN_WIDTH) -> list[str]:
    """``head`` followed by ``parts``, broken between parts into lines of at most ``width`` columns (a head
    wider than that between its words).

    The first part starts on the head's line; a later part too long for the rest of a line starts a
    new one, and one too long for a line of its own is broken between its words: nothing is cut but a
    word wider than a line.
    """
    pad = " " * indent
    lines = [head]
    if len(head) > width:
        lines = textwrap.wrap(head, width, subsequent_indent=pad, break_on_hyphens=False)
        lines[-1] += head[len(head.rstrip()):]
    fresh = True
    tail = separator.rstrip()
    for part in parts:
        glue = "" if fresh else separator
        if len(lines[-1]) + len(glue) + len(part) + len(tail) <= width:
            lines[-1] += glue + part
        elif not fresh and len(pad) + len(part) + len(tail) <= width:
            lines[-1] += "" if fresh else tail
            lines.append(pad + part)
        else:
            start = lines.pop() + glue
            lines += textwrap.wrap(start + part, width - len(tail), subsequent_indent=pad, break_on_hyphens=False,
                                   initial_indent="") or [start.rstrip()]
        fresh = False
    return [line if len(line) <= width else line[:width - 1] + "…" for line in lines]


_ONE_OF_MANY = re.compile(r"(?<![\d.])\b1 (card|coin|tile|talent|turn|step|move|point|merchant|amulet|statue|cell)s\b")
_LIST = re.compile(r"\[([^\[\]{}]*)\]")


def readable(text: str) -> str:
    """A log line for the screen: ``1 coins`` → ``1 coin``, a list ``[1, 2]`` → ``1, 2``, names in words.

    Logs are kept as the game wrote them (they are part of every observation); only their display changes.
    """
    text = _LIST.sub(lambda match: match.group(1).replace("'", ""), text)
    text = _IDENTIFIER.sub(lambda match: words(match.group(0)), text)
    return _ONE_OF_MANY.sub(r"1 \1", text)


_IDENTIFIER = re.compile(r"\b[a-z]+_[a-z0-9_]+\b")


def latest(head: str, entries: Sequence[str], width: int = SCREEN_WIDTH) -> str:
    """``head`` and as many of the latest ``entries`` as fit one line (at least the last one, cut to fit)."""
    shown = [entries[-1]]
    for entry in reversed(entries[:-1]):
        if len(head) + len(" | ".join([entry, *shown])) > width:
            break
        shown.insert(0, entry)
    lines = wrapped(head, [" | ".join(shown)], width=width)
    return lines[0] if len(lines) == 1 else lines[0][:width - 1] + "…"


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``11th`` … in the active language (Czech writes ``1.``)."""
    last = 0 if 10 <= n % 100 <= 20 else n % 10
    if last == 1:
        return tr("{n}st", n=n)
    if last == 2:
        return tr("{n}nd", n=n)
    if last == 3:
        return tr("{n}rd", n=n)
    return tr("{n}th", n=n)



def beside(board: Sequence[str], notes: Sequence[Callable[[int], list[str]]], width: int = SCREEN_WIDTH,
           gap: int = 2) -> list[str]:
    """``board`` with the ``notes`` about it to its right while they fit its height, the others below it.

    A screen that fits 24 lines puts its text where a board leaves the width empty. Each note is
    drawn by a function of the columns it gets (e.g. ``lambda w: wrapped(head, parts, width=w)``);
    the notes keep their order, so the first that does not fit and every later one go below.
    """
    column = max((len(line) for line in board), default=0) + gap
    right: list[str] = []
    below: list[str] = []
    for note in notes:
        lines = note(width - column)
        if not below and len(right) + len(lines) <= len(board) and all(len(line) <= width - column for line in lines):
            right += lines
        else:
            below += note(width)
    joined = [f"{line:<{column}}{right[row]}".rstrip() if row < len(right) else line
              for row, line in enumerate(board)]
    return joined + below
