"""Messages in English and Czech, from catalogs shared by the terminal, the browser and the docs.

A message id is the English text itself (``"buy {card} for {cost}"``); English needs no catalog, Czech
is a gettext catalog (``locale/cs.po``) next to the code that speaks: ``obelisk/locale/`` for the
terminal and the browser pages (domain ``obelisk``), each game's folder for its labels, log lines, screens
and rule help (domain = the game id, falling back to ``obelisk``). Component names are terms: a message
with the component's kind as context (``tr.term("card", "Ankh")``), listed by each game's ``data.terms()``
(its name, description and options come from its ``GameInfo``).

Code speaks through a ``Domain`` named ``tr``::

    tr = i18n.domain("valley")
    tr("buy {card} for {cost}", card=tr.term("card", name), cost=3)
    tr.n("{n} card", "{n} cards", count)

and the language is chosen around the call, not passed down: ``with i18n.language("cs"): ...``. So the
rules keep one code path, a game's English output (its records' labels) never changes with the reader's
language, and a missing translation falls back to English; ``tools/messages.py --check`` (run by the
tests) fails when a catalog lacks a message the code or a board script uses.

An action's label is both a button ("buy Urn for 2") and, once taken, a line of the game's log. English
reads well either way, Czech does not (a button is an infinitive, a log line is in the past tense), so a
label is spoken with ``tr.action("buy {card} for {cost}", ...)`` and every catalog gives it a second form
with the context ``log``, which ``State.public_action_string`` chooses by speaking inside ``telling()``.
"""

from __future__ import annotations

import ast
import contextlib
import contextvars
import functools
import gettext
import io
import re
from collections.abc import Collection, Iterable, Iterator
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from obelisk.core import codec

LANGUAGES = ("en", "cs")
DEFAULT_LANGUAGE = "en"
LANGUAGE_NAMES = {"en": "English", "cs": "Čeština"}
UI_DOMAIN = "obelisk"

_ROOT = Path(__file__).resolve().parent.parent
_active: contextvars.ContextVar[str] = contextvars.ContextVar("obelisk_language", default=DEFAULT_LANGUAGE)
_telling: contextvars.ContextVar[bool] = contextvars.ContextVar("obelisk_telling", default=False)
LOG_CONTEXT = "log"
"""The catalog context of an action label's log form (``tr.action``)."""


def check_language(lang: Any) -> str:
    """``lang`` if it is one of ``LANGUAGES``, else a ``ValueError`` naming them."""
    if isinstance(lang, str) and lang in LANGUAGES:
        return lang
    raise ValueError(f"unknown language {codec.describe(lang)}; choose one of: {', '.join(LANGUAGES)}")


@contextlib.contextmanager
def language(lang: str) -> Iterator[str]:
    """Speak ``lang`` inside the block (this thread or task only)."""
    token = _active.set(check_language(lang))
    try:
        yield lang
    finally:
        _active.reset(token)


def set_language(lang: str) -> None:
    """Speak ``lang`` from now on in this thread (a terminal session chooses once)."""
    _active.set(check_language(lang))


def current_language() -> str:
    return _active.get()


@contextlib.contextmanager
def telling() -> Iterator[None]:
    """Word action labels inside the block as the log tells them (their ``log`` form), not as buttons."""
    token = _telling.set(True)
    try:
        yield
    finally:
        _telling.reset(token)


def negotiate(accept_language: str | None) -> str:
    """The best of ``LANGUAGES`` for an HTTP ``Accept-Language`` header; English when nothing fits."""
    wanted: list[tuple[float, str]] = []
    for part in (accept_language or "").split(","):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                continue
        if tag:
            wanted.append((quality, tag.strip().lower()))
    for _, tag in sorted(wanted, key=lambda item: -item[0]):
        primary = tag.split("-")[0]
        if primary in LANGUAGES:
            return primary
    return DEFAULT_LANGUAGE


def catalog_path(name: str) -> Path:
    """Where domain ``name`` keeps its catalogs: ``obelisk/locale`` or the game's ``locale`` folder."""
    if name == UI_DOMAIN:
        return _ROOT / "locale"
    return _ROOT / "games" / name / "locale"


def _load(name: str, lang: str) -> gettext.NullTranslations:
    """One domain's catalog compiled in memory (gettext's own lookup and plural rules); empty for English."""
    path = catalog_path(name) / f"{lang}.po"
    if lang == DEFAULT_LANGUAGE or not path.exists():
        return gettext.NullTranslations()
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=lang)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


@functools.cache
def _chain(name: str, lang: str) -> gettext.NullTranslations:
    """A domain's catalog with the UI's behind it, so words shared by the games are translated once."""
    own = _load(name, lang)
    if name != UI_DOMAIN:
        own.add_fallback(_chain(UI_DOMAIN, lang))
    return own


class Domain:
    """The messages of one domain (``obelisk`` or a game id), in the active language."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def _catalog(self, lang: str) -> gettext.NullTranslations:
        return _chain(self.name, lang)

    def __call__(self, msgid: str, /, **params: Any) -> str:
        lang = _active.get()
        text = msgid if lang == DEFAULT_LANGUAGE else self._catalog(lang).gettext(msgid)
        return text.format(**params) if params else text

    def n(self, singular: str, plural: str, count: int, /, **params: Any) -> str:
        """The plural form for ``count`` (Czech has three), formatted with ``n=count`` and ``params``."""
        lang = _active.get()
        if lang == DEFAULT_LANGUAGE:
            text = singular if count == 1 else plural
        else:
            text = self._catalog(lang).ngettext(singular, plural, count)
        return text.format(n=count, **params)

    def action(self, msgid: str, /, **params: Any) -> str:
        """An action's label: the button's words, or inside ``telling()`` the log's (the ``log`` form, which
        every catalog gives each label; English has one text for both)."""
        lang = _active.get()
        if lang == DEFAULT_LANGUAGE:
            text = msgid
        elif _telling.get():
            text = self._catalog(lang).pgettext(LOG_CONTEXT, msgid)
        else:
            text = self._catalog(lang).gettext(msgid)
        return text.format(**params) if params else text

    def term(self, kind: str, name: str) -> str:
        """The name of a component of ``kind`` (``card``, ``tile``, ``item``…) in the active language."""
        lang = _active.get()
        if lang == DEFAULT_LANGUAGE:
            return name
        return self._catalog(lang).pgettext(kind, name)

    def __repr__(self) -> str:
        return f"Domain({self.name!r})"


@functools.cache
def domain(name: str) -> Domain:
    """The domain of the UI (``obelisk``) or of a game (its id), which falls back to the UI's messages."""
    return Domain(name)


ui = domain(UI_DOMAIN)


def plural_categories(lang: str) -> list[str]:
    """The CLDR plural category of each gettext plural form of ``lang`` (``Intl.PluralRules`` names), so a
    browser picks the same form as the terminal."""
    plural = gettext.c2py(Catalog(locale=check_language(lang)).plural_expr)
    locale = Locale.parse(lang)
    forms: dict[int, str] = {}
    for n in range(200):
        forms.setdefault(plural(n), locale.plural_form(n))
    return [forms[index] for index in sorted(forms)]


_JS_STRING = r"""("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')"""
JS_MESSAGE = re.compile(r"\bt(\.n|\.term)?\(\s*" + _JS_STRING + r"(?:\s*,\s*" + _JS_STRING + r")?")
"""A page's or a board's message: ``t("…")``, ``t.n("…", "…", n)`` or ``t.term("kind", "Name")`` (literal ids)."""
HTML_MESSAGE = re.compile(r'\bdata-i18n(?:-[a-z]+(?:-[a-z]+)*)?="([^"]*)"')
"""A page's static text: ``data-i18n="…"`` and its attribute forms (``data-i18n-aria-label="…"``)."""


def js_literal(literal: str) -> str:
    """The text of a quoted JavaScript string literal as the patterns above catch it."""
    return str(ast.literal_eval(literal))


def spoken_by_pages(paths: Iterable[Path]) -> tuple[frozenset[str], frozenset[str]]:
    """What the pages and scripts at ``paths`` say: their message ids (a plural by its singular) and the kinds
    of the terms they look up (``t.term("card", name)``). A browser needs no other message of a catalog."""
    ids: set[str] = set()
    kinds: set[str] = set()
    for path in paths:
        text = path.read_text(encoding="utf-8")
        for match in JS_MESSAGE.finditer(text):
            (kinds if match.group(1) == ".term" else ids).add(js_literal(match.group(2)))
        if path.suffix == ".html":
            ids.update(match.group(1) for match in HTML_MESSAGE.finditer(text))
    return frozenset(ids), frozenset(kinds)


def messages(name: str, lang: str, ids: Collection[str] | None = None,
             kinds: Collection[str] | None = None) -> dict[str, Any]:
    """One domain's catalog as plain data for a browser: ``{"lang", "plural", "messages", "terms"}``.

    ``messages`` maps a message id to its text (or the list of plural forms keyed by the singular id);
    ``terms`` maps ``"kind\\u0004name"`` (gettext's context separator) to the name. English is empty.
    A reader that needs only part of it says which: ``ids`` keeps those messages, ``kinds`` the terms of those
    kinds (``spoken_by_pages`` finds both for the browser).
    """
    check_language(lang)
    result: dict[str, Any] = {"lang": lang, "plural": plural_categories(lang), "messages": {}, "terms": {}}
    path = catalog_path(name) / f"{lang}.po"
    if lang == DEFAULT_LANGUAGE or not path.exists():
        return result
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=lang)
    for message in catalog:
        if not message.id or not message.string:
            continue
        key = message.id[0] if isinstance(message.id, tuple) else message.id
        if message.context:
            if kinds is None or message.context in kinds:
                result["terms"][f"{message.context}\u0004{message.id}"] = message.string
        elif ids is not None and key not in ids:
            continue
        elif isinstance(message.id, tuple):
            result["messages"][message.id[0]] = list(message.string)
        else:
            result["messages"][message.id] = message.string
    return result
