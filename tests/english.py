"""Finding English in a text meant to be Czech, for every test that reads a Czech screen, frame or page.

Every English text the project shows is a message id or a term of a catalog (or words in code that
also appear in one), so the English words to look for are those of the catalogs' ids that no Czech
translation uses, plus the few English function words short ids hide. Proper names and the commands a
player types in English in every language are not English words here (``ALLOWED``).

    from tests.english import english_words
    assert not english_words(text), english_words(text)
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
CATALOGS = sorted((ROOT / "obelisk").rglob("locale/cs.po"))
WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")

ALLOWED = frozenset({
    # what a player types at the prompt, the same in every language
    "help", "rules", "legend", "board", "log", "all", "hint", "undo", "save", "q", "quit", "pay", "card", "tile",
    "item", "obstacle", "piece", "spectator", "enter", "id",
    # proper names, and names that are the same in both languages
    "obelisk", "ankh", "amulet", "talent", "sha", "json", "trompe", "l'œil", "ms", "bot", "map",
})
"""Words that may stand in a Czech text although they are English."""

FUNCTION_WORDS = frozenset({
    "the", "of", "and", "or", "with", "for", "from", "your", "you", "is", "are", "at", "in",
    "seat", "seats", "player", "players", "turn", "move", "moves", "points", "place", "total", "cards", "tiles",
    "draws", "drew", "chance", "hidden", "choice", "bid", "gives", "takes", "plays", "builds", "pays", "nothing",
})
"""English words too short or too common to be sure they come from a catalog id, looked for anyway."""


def _words(text: str) -> set[str]:
    return {word.casefold() for word in WORD.findall(text)}


@functools.cache
def english_vocabulary() -> frozenset[str]:
    """The words of the catalogs' English ids that no Czech translation uses, and the function words."""
    english: set[str] = set()
    czech: set[str] = set()
    for path in CATALOGS:
        with path.open("rb") as handle:
            catalog = read_po(handle, locale="cs")
        for message in catalog:
            if not message.id:
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            for text in ids:
                english |= _words(re.sub(r"\{[^{}]*\}", " ", text))
            for text in strings:
                czech |= _words(re.sub(r"\{[^{}]*\}", " ", text))
    return frozenset((english - czech - ALLOWED) | (FUNCTION_WORDS - ALLOWED))


TYPED = re.compile(r"--[\w-]+|`[^`]*`|'[a-z_]+'|\b[a-z_]+=\S+")
"""What a Czech text quotes for the player to type: ``--players``, ```obelisk replay```, ``'all'``,
``forced_removal='base'``."""


def english_words(text: str) -> list[str]:
    """The English words in ``text`` (sorted, each once), leaving out what it quotes to be typed: none in a
    text that is all Czech."""
    vocabulary = english_vocabulary()
    return sorted(word for word in _words(TYPED.sub(" ", text)) if word in vocabulary)
