"""Reading the JSON files a user may name (``--data``, ``--cards``, records) without trusting them.

Each game validates its own fields; these functions give every file the same
guards: only a regular file (``/dev/zero`` never ends, a pipe may block), a
size cap, the JSON guards of :func:`obelisk.core.codec.parse_json`, and names
that must differ by more than case and spacing (``"Scarab"`` and ``" scarab "``
would be the same label on screen and in ``string_to_action``).
"""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Iterable

from obelisk.core import codec

MAX_BYTES = 4_000_000
"""Largest data file read; the shipped ones are a few kilobytes."""


def read_json(path: str | Path, what: str, limit: int = MAX_BYTES) -> object:
    """The parsed JSON of the file at ``path``; any problem is one ``ValueError`` starting with ``what``."""
    file = Path(path)
    try:
        if not stat.S_ISREG(file.stat().st_mode):
            raise ValueError(f"{what} is not a regular file")
        with file.open("rb") as stream:
            data = stream.read(limit + 1)
    except OSError as error:
        raise ValueError(f"{what} cannot be read: {error.strerror or error}") from None
    if len(data) > limit:
        raise ValueError(f"{what} is larger than {limit // 1_000_000} MB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"{what} is not UTF-8 text: {error.reason} at byte {error.start}") from None
    return codec.parse_json(text, what)


def name_key(name: str) -> str:
    """``name`` with case and spacing ignored: the form two names must not share."""
    return " ".join(name.split()).casefold()


def repeated_name(names: Iterable[str]) -> tuple[int, int] | None:
    """``(first, second)`` indices of the first two names equal up to case and spacing, or None."""
    seen: dict[str, int] = {}
    for index, name in enumerate(names):
        key = name_key(name)
        if key in seen:
            return seen[key], index
        seen[key] = index
    return None
