"""Parsing of bot arguments: the part of a spec string after ``kind:``.

An argument is a comma-separated list. One bare item may give the budget
(``1s``, ``250ms``, ``2000``); every other item is ``name=value``. Keeping the
syntax in one place means ``obelisk play``, ``obelisk arena`` and the server
all accept the same strings, with the same error messages.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any


MAX_ITERATIONS = 100_000_000
"""Largest iteration budget: about a day of search per move, far beyond any useful setting."""
MAX_SECONDS = 86_400.0
"""Largest time budget per move: one day."""


@dataclass(frozen=True)
class Budget:
    """How long a search may run: a number of iterations or a wall-time in seconds (one of the two)."""

    iterations: int | None = None
    seconds: float | None = None

    def describe(self) -> str:
        return f"{self.seconds:g}s" if self.seconds is not None else f"{self.iterations} iterations"


def parse_budget(text: str) -> Budget:
    """``"1s"``, ``"1.5s"``, ``"250ms"`` → wall time; ``"2000"`` → iterations."""
    word = text.strip().lower()
    try:
        if word.endswith("ms"):
            seconds = float(word[:-2]) / 1000
        elif word.endswith("s"):
            seconds = float(word[:-1])
        else:
            iterations = int(word)
            if not 1 <= iterations <= MAX_ITERATIONS:
                raise ValueError(f"an iteration budget must be from 1 to {MAX_ITERATIONS:,}, got {_short(text)}")
            return Budget(iterations=iterations)
    except ValueError as error:
        if str(error).startswith("an iteration budget"):
            raise
        raise ValueError(
            f"budget must be iterations (e.g. 2000) or a time (e.g. 1s, 250ms), got {_short(text)}") from None
    if not (0 < seconds <= MAX_SECONDS):
        raise ValueError(f"a time budget must be positive and finite, at most a day ({MAX_SECONDS:g}s), got {_short(text)}")
    return Budget(seconds=seconds)


def _short(text: str) -> str:
    """``text`` quoted, cut to a readable length (a 5000-digit number is not echoed whole)."""
    return repr(text) if len(text) <= 40 else repr(text[:37] + "...")


def parse_argument(kind: str, argument: str, defaults: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
    """Split ``argument`` into its bare item (or None) and ``name=value`` items typed like ``defaults``.

    Unknown names, repeated names, bad values and a second bare item raise
    ``ValueError`` naming the bot kind and what it accepts.
    """
    bare: str | None = None
    values = dict(defaults)
    seen: set[str] = set()
    for item in (part.strip() for part in argument.split(",")):
        if not item:
            continue
        name, eq, raw = item.partition("=")
        name = name.strip().lower()
        if not eq:
            if bare is not None:
                raise ValueError(f"bot {kind!r}: only one budget may be given, got {_short(bare)} and {_short(item)}")
            bare = item
            continue
        if name not in defaults:
            known = ", ".join(sorted(defaults)) or "none"
            raise ValueError(f"bot {kind!r}: unknown parameter {_short(name)}; known parameters: {known}")
        if name in seen:
            raise ValueError(f"bot {kind!r}: parameter {name!r} given twice")
        seen.add(name)
        values[name] = _convert(kind, name, raw.strip(), defaults[name])
    return bare, values


def _convert(kind: str, name: str, raw: str, default: Any) -> Any:
    wanted = type(default) if default is not None else int
    try:
        if wanted is bool:
            return {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}[raw.lower()]
        if wanted is str:
            return raw.lower()
        value = wanted(raw)
        if wanted is float and not math.isfinite(value):
            raise ValueError
        return value
    except (KeyError, ValueError):
        what = {int: "an integer", float: "a finite number", bool: "true or false"}.get(wanted, wanted.__name__)
        raise ValueError(f"bot {kind!r}: parameter {name!r} must be {what}, got {_short(raw)}") from None
