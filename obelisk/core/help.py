"""Rules help built from a game's data: the rules summary, a first-game guide and a glossary of its components.

Every game builds one :class:`GameHelp` from its own data file, so the terminal,
the browser and the docs show the same texts. A name is looked up ignoring case,
accents and spacing; a unique prefix is enough, anything else is one
:class:`HelpLookupError` line saying what was meant.
"""

from __future__ import annotations

import difflib
import unicodedata
from dataclasses import dataclass
from typing import Any

Number = int | str
Numbers = tuple[tuple[str, Number], ...]
"""An entry's numbers: ``(label, value)`` pairs in the order they are shown."""


@dataclass(frozen=True)
class HelpEntry:
    """One component: a card, tile, item, obstacle or piece, with its full text and its numbers."""

    key: str
    """Stable identifier within the game (``kind:slug``); names may be translated, keys never."""
    name: str
    kind: str
    text: str
    numbers: Numbers = ()
    """E.g. ``(("cost", 3), ("gold", 1))``."""

    def as_dict(self) -> dict[str, Any]:
        return {"key": self.key, "name": self.name, "kind": self.kind, "text": self.text,
                "numbers": dict(self.numbers)}

    def describe(self) -> str:
        """The entry as the terminal shows it: name and kind, its numbers, then its text."""
        head = f"{self.name} ({self.kind})"
        if self.numbers:
            head += " — " + ", ".join(f"{label} {value}" for label, value in self.numbers)
        return f"{head}\n{self.text}"


class HelpLookupError(ValueError):
    """A name that matches no entry or several; the message is one line with the likely meanings."""


def fold(name: str) -> str:
    """``name`` without case, accents and repeated spaces: the form names are compared in."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.replace("-", " ").replace("_", " ").split()).casefold()


@dataclass(frozen=True)
class GameHelp:
    """A game's rules summary and its component glossary, in the order the data file gives them."""

    summary: str
    entries: tuple[HelpEntry, ...]
    lookups: tuple[str, ...] = ()
    """The words that look an entry up at the play prompt (``card``, ``tile``, ``item``, …)."""
    guide: tuple[str, ...] = ()
    """A first game in 3 to 5 short steps: what you are trying to do, how a turn goes, what ends the game,
    one tip. The table page shows them one at a time; ``obelisk rules`` lists them first."""

    def __post_init__(self) -> None:
        seen: dict[str, str] = {}
        for entry in self.entries:
            for form in _forms(entry):
                if seen.get(form, entry.key) != entry.key:
                    raise ValueError(f"help entries {seen[form]!r} and {entry.key!r} share the name {form!r}")
                seen[form] = entry.key

    def kinds(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(entry.kind for entry in self.entries))

    def find(self, name: str) -> HelpEntry:
        """The entry called ``name`` (or its key, with or without the kind), else the only one whose name starts with it."""
        wanted = fold(name)
        if not self.entries:
            raise HelpLookupError("this game has no components to look up")
        if not wanted:
            raise HelpLookupError(f"name a component: {self._some()}")
        for entry in self.entries:
            if wanted in _forms(entry):
                return entry
        starting = [e for e in self.entries if any(form.startswith(wanted) for form in _prefixes(e))]
        if len(starting) == 1:
            return starting[0]
        shown = _shown(name)
        if starting:
            names = ", ".join(e.name for e in starting[:8]) + (", …" if len(starting) > 8 else "")
            raise HelpLookupError(f"{shown} could be {names}; type more of the name")
        close = difflib.get_close_matches(wanted, [fold(e.name) for e in self.entries], n=3, cutoff=0.6)
        if close:
            by_form = {fold(e.name): e.name for e in self.entries}
            names = " or ".join(by_form[form] for form in close)
            raise HelpLookupError(f"nothing is called {shown}; did you mean {names}?")
        raise HelpLookupError(f"nothing is called {shown}; known names: {self._some()}")

    def _some(self) -> str:
        names = [entry.name for entry in self.entries]
        return ", ".join(names[:12]) + (f", … ({len(names)} in all)" if len(names) > 12 else "")

    def glossary(self) -> str:
        """Every entry's name by kind, one line per kind: the list a lookup chooses from."""
        lines = []
        for kind in self.kinds():
            lines.append(f"{kind}: " + ", ".join(e.name for e in self.entries if e.kind == kind))
        return "\n".join(lines)

    def as_dict(self) -> dict[str, Any]:
        return {"summary": self.summary, "guide": list(self.guide), "lookups": list(self.lookups),
                "entries": [entry.as_dict() for entry in self.entries]}


def _forms(entry: HelpEntry) -> set[str]:
    """The exact forms that find ``entry``: its name, its key and its key without the kind (``card:7`` → ``7``)."""
    return {fold(entry.name), fold(entry.key), fold(entry.key.partition(":")[2])}


def _prefixes(entry: HelpEntry) -> tuple[str, str]:
    """The forms a unique beginning may be of: the name in the active language and the key's words, which
    are the English name's, so a name typed in English is found in every language."""
    return fold(entry.name), fold(entry.key.partition(":")[2])


def _shown(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:40] + "…")
