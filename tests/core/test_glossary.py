"""The Czech catalogs against the glossary (docs/glossary-cs.md) and the rules of how Czech speaks there."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.catalog import Message
from babel.messages.pofile import read_po

from obelisk.core import i18n

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "docs" / "glossary-cs.md"
DOMAINS = ("obelisk", "solomon", "tomb", "cleopatra", "valley")
FIELD = re.compile(r"\{[^{}]*\}")


@dataclass(frozen=True)
class Term:
    english: str
    czech: str
    stems: tuple[str, ...]
    never: tuple[str, ...]
    domains: tuple[str, ...]


def glossary() -> list[Term]:
    """The rows of the glossary's table."""
    rows = [line for line in GLOSSARY.read_text(encoding="utf-8").splitlines() if line.startswith("| ")]
    terms = []
    for row in rows[1:]:  # the first row is the header
        english, czech, stems, never, games, _ = [cell.strip() for cell in row.strip("|").split("|")]
        domains = DOMAINS if games == "all" else tuple(g.strip() for g in games.split(","))
        terms.append(Term(english, czech, tuple(s.strip() for s in stems.split(",")),
                          tuple(n.strip() for n in never.split(",") if n.strip()), domains))
    return terms


def catalog(name: str) -> list[Message]:
    with (i18n.catalog_path(name) / "cs.po").open("rb") as handle:
        return [message for message in read_po(handle, locale="cs") if message.id]


def texts(message: Message) -> tuple[list[str], list[str]]:
    """A message's English texts and its Czech ones."""
    ids = list(message.id) if isinstance(message.id, tuple) else [message.id]
    strings = list(message.string) if isinstance(message.string, tuple) else [message.string]
    return ids, strings


def test_the_glossary_lists_the_rulebooks_words() -> None:
    terms = {term.english: term for term in glossary()}
    assert {"burial chamber", "boneyard", "Nile merchant", "Sphinx square", "screen", "outer wall"} <= set(terms)
    assert all(set(term.domains) <= set(DOMAINS) for term in terms.values())


@pytest.mark.parametrize("term", glossary(), ids=lambda term: term.english)
def test_every_catalog_says_the_glossary_term_and_never_a_variant(term: Term) -> None:
    said = re.compile(rf"\b{re.escape(term.english)}", re.I)
    wrong, odd, used = [], [], False
    for name in term.domains:
        for message in catalog(name):
            english, czech = texts(message)
            joined = " ".join(czech)
            used = used or any(stem.casefold() in joined.casefold() for stem in term.stems)
            wrong += [f"{name}: {text!r}" for text in czech for never in term.never
                      if re.search(rf"(?<!\w){re.escape(never)}(?!\w)", text)]
            if any(said.search(FIELD.sub(" ", text)) for text in english):
                if not any(stem.casefold() in text.casefold() for text in czech for stem in term.stems):
                    odd.append(f"{name}: {english[0]!r} => {czech[0]!r}")
    assert used, f"no catalog of {term.domains} says {term.czech!r}"
    assert not wrong, f"{term.czech!r}, never {term.never}: " + "; ".join(wrong)
    assert not odd, f"{term.english!r} must be said with {term.stems}: " + "; ".join(odd)


NAMING = ("player", "owner", "victim", "taker", "giver", "other", "active", "to", "tile", "card", "item", "what", "name",
          "cells", "set", "piece", "players")
"""Fields that stand for a name, not a number."""
COUNTED = re.compile(r"(?<![–-])\{(?!n\}|" + "|".join(rf"{name}\}}" for name in NAMING) + r")\w+\} (karet|karty|karta|mincí|mince|hráčů|hráči|bodů|body|bod|tahů|tahy|dílků|dílky|"
                     r"destiček|destičky|talentů|talenty|amuletů|amulety|amulet|kroků|kroky|polí)\b")
"""A number put before a counted Czech noun outside the plural forms: the form would be wrong for some numbers."""


@pytest.mark.parametrize("name", DOMAINS)
def test_czech_counts_through_the_plural_forms(name: str) -> None:
    wrong = [f"{texts(m)[0][0]!r} => {text!r}" for m in catalog(name) if not isinstance(m.id, tuple)
             for text in texts(m)[1] if COUNTED.search(text)]
    assert not wrong, "\n".join(wrong)


THOU = re.compile(r"\b(ty|tě|tebe|tobě|tvůj|tvoje|tvá|tvé|tvou|tvého|tvých|jsi|máš|smíš|můžeš|musíš|nemáš)\b", re.I)
"""Addressing the player as "ty"; Czech texts say "vy"."""


@pytest.mark.parametrize("name", DOMAINS)
def test_the_player_is_addressed_as_vy(name: str) -> None:
    wrong = [f"{texts(m)[0][0]!r} => {text!r}" for m in catalog(name) for text in texts(m)[1]
             if THOU.search(text.replace("ty nejlepší", "").replace("(ty se počítají)", ""))]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("name", DOMAINS)
def test_every_log_form_is_in_the_past_or_a_noun_not_a_button(name: str) -> None:
    """A label's log form differs from its button (the infinitive), unless neither has a verb to change."""
    buttons = {m.id: m.string for m in catalog(name) if not m.context and not isinstance(m.id, tuple)}
    same = [f"{m.id!r} => {m.string!r}" for m in catalog(name)
            if m.context == i18n.LOG_CONTEXT and m.string == buttons.get(m.id) and re.search(r"\w+t\b", m.string)
            and m.id not in ("action {action}",)]
    assert not same, "\n".join(same)
