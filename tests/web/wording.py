"""Whether a page in Czech still shows English: the words it shares with the same page shown in English.

A word left untranslated reads the same on both pages, so every word of the Czech page (three letters or
more) that the English page also shows is English, unless it is a proper name or a word both languages
share (``names``). The text is what a person meets: visible text, the choices of visible selects, placeholders,
labels given as ``aria-label``, pictures' text alternatives and the title; never what is marked
``translate="no"`` (bot programs' ids).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from playwright.sync_api import Page

WORD = re.compile(r"[^\W\d_]{3,}")

SHOWN_TEXT = """() => {
  const kept = (node) => !node.closest('[translate="no"]');
  const seen = (node) => node.checkVisibility({ visibilityProperty: true });
  const parts = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || !kept(parent) || ["SCRIPT", "STYLE"].includes(parent.tagName)) continue;
    const host = parent.closest("select") || parent;
    if (seen(host)) parts.push(node.textContent);
  }
  for (const node of document.querySelectorAll("[placeholder], [aria-label], img[alt], [title]")) {
    if (!kept(node) || !seen(node)) continue;
    for (const name of ["placeholder", "aria-label", "alt", "title"]) {
      if (node.hasAttribute(name)) parts.push(node.getAttribute(name));
    }
  }
  return parts.join("\\n");
}"""


def shown_text(page: Page) -> str:
    """Everything the page shows a reader now, as one text."""
    return str(page.evaluate(SHOWN_TEXT))


def english_leftovers(czech: str, english: str, names: Iterable[str] = ()) -> list[str]:
    """The words of ``czech`` that ``english`` also has, other than ``names``: English left in a Czech page."""
    allowed = {name.casefold() for name in names}
    english_words = {word.casefold() for word in WORD.findall(english)}
    found = {word for word in WORD.findall(czech) if word.casefold() in english_words - allowed}
    return sorted(found)


def english_share(czech: str, english: str, names: Iterable[str] = ()) -> float:
    """The share of the Czech page's words that are English (for reports)."""
    words = WORD.findall(czech)
    leftovers = set(english_leftovers(czech, english, names))
    return sum(word in leftovers for word in words) / max(1, len(words))
