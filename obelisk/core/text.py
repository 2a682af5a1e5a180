"""Words for terminal screens: identifiers as words, counted nouns, and lines that fit the width."""

from __future__ import annotations

import re
from typing import Iterable, Sequence

SCREEN_WIDTH = 80
"""The terminal width every screen fits."""


def words(identifier: str) -> str:
    """An identifier as words: ``first_aid_kit`` → ``first-aid kit``, ``colour_3`` → ``colour 3``."""
    parts = identifier.split("_")
    if len(parts) == 3 and parts[:2] == ["first", "aid"]:
        return "first-aid " + parts[2]
    return " ".join(parts)


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``1 card``, ``2 cards``, ``0 cards``; ``plural`` for nouns not made by adding an s."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def wrapped(head: str, parts: Iterable[str], separator: str = ", ", indent: int = 4,
            width: int = SCREEN_WIDTH) -> list[str]:
    """``head`` followed by ``parts``, broken between parts into lines of at most ``width`` columns.

    A part that alone is longer than a line is cut, so no line is ever wider than ``width``.
    """
    lines = [head]
    fresh = True
    for part in parts:
        line = lines[-1]
        glue = "" if fresh else separator
        if len(line) + len(glue) + len(part) + len(separator.rstrip()) <= width:
            lines[-1] = line + glue + part
        else:
            if not fresh:
                lines[-1] = line + separator.rstrip()
            lines.append(" " * indent + part)
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
    return wrapped(head, [" | ".join(shown)], width=width)[0]


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``11th`` …"""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
