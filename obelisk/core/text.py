"""Words for terminal screens: identifiers as words, counted nouns, and lines that fit the width."""

from __future__ import annotations

import re
from typing import Iterable

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
    for part in parts:
        line = lines[-1]
        glue = "" if line == head or line == " " * indent else separator
        if len(line) + len(glue) + len(part) <= width:
            lines[-1] = line + glue + part
        else:
            lines[-1] = line + separator.rstrip()
            lines.append(" " * indent + part)
    return [line if len(line) <= width else line[:width - 1] + "…" for line in lines]


_ONE_OF_MANY = re.compile(r"(?<![\d.])\b1 (card|coin|tile|talent|turn|step|move|point|merchant|amulet|statue)s\b")


def singular_ones(text: str) -> str:
    """``text`` with a plural after the number 1 made singular (``1 coins`` → ``1 coin``), for log lines
    written before their count was known."""
    return _ONE_OF_MANY.sub(r"1 \1", text)
