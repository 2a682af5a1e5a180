"""The message catalogs: which messages the code uses, and whether every language has them all.

    python tools/messages.py --check     # fail on a missing, untranslated, stale or mis-formatted message
    python tools/messages.py --update    # add new messages to every catalog (untranslated), drop stale ones

Messages are found where they are spoken: Python calls ``tr("…")``, ``tr.n("…", "…", n)``,
``tr.action("…")`` (an action label: a translation for the button and one with the context ``log`` for
the log line) and ``tr.term("kind", "Name")`` (``ast``, so only literal ids count and a computed id is an error); browser
scripts ``t("…")``, ``t.n("…", "…", n)``, ``t.term("kind", "Name")``; pages ``data-i18n="…"``; the tools
that talk to a player (``SPEAKING_TOOLS``); each
game's name, description and options from its ``GameInfo``; and its component names from
``data.terms()``. A domain is the UI (``obelisk``: everything outside the game folders) or one game (its
folder, board scripts included).
"""

from __future__ import annotations

import argparse
import ast
import importlib
import string
from datetime import datetime, timezone
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "obelisk"
sys.path.insert(0, str(ROOT))

from obelisk.core import GameInfo, game_class  # noqa: E402
from obelisk.core.i18n import (  # noqa: E402
    DEFAULT_LANGUAGE, HTML_MESSAGE, JS_MESSAGE, LANGUAGES, LOG_CONTEXT, UI_DOMAIN, catalog_path, js_literal,
)



@dataclass
class Messages:
    """What one domain speaks: plain ids, plural pairs and terms, each with where it was found (an action
    label is a plain id and a ``log`` term of the same id)."""

    plain: dict[str, str] = field(default_factory=dict)
    plural: dict[tuple[str, str], str] = field(default_factory=dict)
    terms: dict[tuple[str, str], str] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)


def games() -> list[str]:
    return sorted(p.name for p in (PACKAGE / "games").iterdir() if (p / "game.py").exists())


SPEAKING_TOOLS = (ROOT / "tools" / "compile.py",)
"""Tools that talk to a player (``make play`` runs the compiler), in the UI's domain."""


def _sources(name: str) -> Iterable[Path]:
    if name == UI_DOMAIN:
        yield from SPEAKING_TOOLS
        for path in sorted(PACKAGE.rglob("*")):
            if "games" in path.relative_to(PACKAGE).parts[:1]:
                continue
            if path.suffix in (".py", ".js", ".html"):
                yield path
    else:
        for path in sorted((PACKAGE / "games" / name).rglob("*")):
            if path.suffix in (".py", ".js", ".html"):
                yield path


def _python(path: Path, found: Messages) -> None:
    where = str(path.relative_to(ROOT))
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id == "tr":
            kind = ""
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "tr":
            kind = func.attr
        else:
            continue
        args = [a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None for a in node.args]
        at = f"{where}:{node.lineno}"
        if kind in ("", "action") and args and args[0] is not None:
            found.plain.setdefault(args[0], at)
            if kind == "action":
                found.terms.setdefault((LOG_CONTEXT, args[0]), at)
        elif kind == "n" and len(args) >= 2 and args[0] is not None and args[1] is not None:
            found.plural.setdefault((args[0], args[1]), at)
        elif kind == "term" and len(args) >= 2 and args[0] is not None:
            if args[1] is not None:
                found.terms.setdefault((args[0], args[1]), at)
        elif kind in ("", "n", "action"):
            found.errors.append(f"{at}: a message id must be a literal string")


def _script(path: Path, found: Messages) -> None:
    text = path.read_text(encoding="utf-8")
    where = str(path.relative_to(ROOT))
    for match in JS_MESSAGE.finditer(text):
        at = f"{where}:{text.count(chr(10), 0, match.start()) + 1}"
        kind, first, second = match.group(1), js_literal(match.group(2)), match.group(3)
        if kind is None:
            found.plain.setdefault(first, at)
        elif kind == ".n" and second is not None:
            found.plural.setdefault((first, js_literal(second)), at)
        elif kind == ".term" and second is not None:
            found.terms.setdefault((first, js_literal(second)), at)
    if path.suffix == ".html":
        for match in HTML_MESSAGE.finditer(text):
            found.plain.setdefault(match.group(1), f"{where}:{text.count(chr(10), 0, match.start()) + 1}")


def extract(name: str) -> Messages:
    """Every message domain ``name`` speaks."""
    found = Messages()
    for path in _sources(name):
        if path.suffix == ".py":
            _python(path, found)
        else:
            _script(path, found)
    if name != UI_DOMAIN:
        for kind, term in _info_terms(game_class(name).info):
            found.terms.setdefault((kind, term), f"obelisk/games/{name}/__init__.py")
        data = importlib.import_module(f"obelisk.games.{name}.data")
        terms = getattr(data, "terms", None)
        if terms is not None:
            for kind, term in terms():
                found.terms.setdefault((kind, term), f"obelisk/games/{name}/data.py")
    return found


def _info_terms(info: GameInfo) -> Iterable[tuple[str, str]]:
    """The game's name and description, and its options' descriptions, labels, value names, explanations and
    units, as the pages and the terminal show them (``tr.term("game", ...)`` and ``tr.term("option", ...)``)."""
    yield "game", info.name
    yield "game", info.description
    for option in info.options:
        yield "option", option.description
        for text in option.texts():
            yield "option", text


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def _read(name: str, lang: str) -> Catalog:
    path = catalog_path(name) / f"{lang}.po"
    if not path.exists():
        return Catalog(locale=lang, domain=name, project="Obelisk", creation_date=datetime(2026, 12, 1, tzinfo=timezone.utc))
    with path.open("rb") as handle:
        return read_po(handle, locale=lang, domain=name)


def check(name: str, lang: str, found: Messages) -> list[str]:
    """What is wrong with domain ``name``'s catalog for ``lang``: one line per problem."""
    problems = list(found.errors)
    catalog = _read(name, lang)
    where = f"{catalog_path(name).relative_to(ROOT)}/{lang}.po"
    wanted: dict[tuple[str | None, str], str] = {(None, m): at for m, at in found.plain.items()}
    wanted.update({(None, s): at for (s, _), at in found.plural.items()})
    wanted.update({(k, t): at for (k, t), at in found.terms.items()})
    present = set()
    for message in catalog:
        if not message.id:
            continue
        key_id = message.id[0] if isinstance(message.id, tuple) else message.id
        key = (message.context, key_id)
        present.add(key)
        if key not in wanted:
            problems.append(f"{where}: stale message {key_id!r}" + (f" ({message.context})" if message.context else ""))
            continue
        forms = list(message.string) if isinstance(message.id, tuple) else [message.string]
        if not all(forms) or message.fuzzy:
            problems.append(f"{where}: {key_id!r} is not translated (used at {wanted[key]})")
            continue
        allowed = _fields(key_id) | (_fields(message.id[1]) | {"n"} if isinstance(message.id, tuple) else set())
        for form in forms:
            if not _fields(form) <= allowed or (not isinstance(message.id, tuple) and _fields(form) != allowed):
                problems.append(f"{where}: {key_id!r} and its translation {form!r} name different fields")
    for key, at in wanted.items():
        if key not in present:
            problems.append(f"{where}: {key[1]!r} is missing (used at {at})")
    return problems


def update(name: str, lang: str, found: Messages) -> int:
    """Write the catalog with every message ``found`` (old translations kept), returning how many are new."""
    path = catalog_path(name) / f"{lang}.po"
    if not path.exists() and not (found.plain or found.plural or found.terms):
        return 0
    old = _read(name, lang)
    catalog = Catalog(
        locale=lang, domain=name, project="Obelisk", version="1", fuzzy=False,
        header_comment=f"# The {name} messages of Obelisk in {lang}; the message ids are the English text.",
        last_translator="Obelisk", language_team="Obelisk", msgid_bugs_address="",
        creation_date=old.creation_date, revision_date=old.creation_date,
    )
    added = 0

    def keep(msgid: str | tuple[str, str], context: str | None, at: str) -> None:
        nonlocal added
        previous = old.get(msgid, context=context)
        text = previous.string if previous is not None else ("", "", "")[: catalog.num_plurals] if isinstance(msgid, tuple) else ""
        if previous is None:
            added += 1
        catalog.add(msgid, text, locations=[(at.rsplit(":", 1)[0], 0)], context=context)

    for msgid, at in found.plain.items():
        keep(msgid, None, at)
    for pair, at in found.plural.items():
        keep(pair, None, at)
    for (kind, term), at in sorted(found.terms.items()):
        keep(term, kind, at)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        write_po(handle, catalog, width=0, omit_header=False, no_location=False, include_lineno=False)
    return added


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--check", action="store_true", help="fail on any missing or stale message")
    group.add_argument("--update", action="store_true", help="add new messages, drop stale ones")
    args = parser.parse_args(argv)
    problems: list[str] = []
    for name in [UI_DOMAIN, *games()]:
        found = extract(name)
        for lang in LANGUAGES:
            if lang == DEFAULT_LANGUAGE:
                continue
            if args.update:
                added = update(name, lang, found)
                print(f"{name} {lang}: {added} new message(s) to translate")
            problems.extend(check(name, lang, found))
    for line in problems:
        print(line)
    if args.check and not problems:
        print("every message is translated")
    return 1 if problems and args.check else 0


if __name__ == "__main__":
    raise SystemExit(main())
