"""Every name the README and the docs give exists: modules, commands and their options, make targets, files
and links.

Names are read from inline code (backticks) and from the command lines of shell blocks:

- ``obelisk.x.y`` (with or without a call): a module of the package or an attribute of one;
- ``obelisk SUBCOMMAND --option``: a subcommand and options it takes (those that take game options also
  take every game's options, ``--lang`` goes with the commands that speak);
- ``make TARGET``: a target of the Makefile;
- a path under one of the project's folders with a file name or a trailing slash: a file or folder of the
  checkout (``ID``, ``GAME``, ``<id>`` and the like stand for any name, ``[...]`` for an optional part);
- a Markdown link to a page of the checkout: that page, and the heading its ``#anchor`` names.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import re
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer

import obelisk
from obelisk import cli

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
FOLDERS = ("obelisk/", "tests/", "tools/", "benchmarks/", "docs/", "examples/", ".ci/")
"""Where the named files live; `build/` is left out: what the compile step writes there exists only after it ran."""
ROOT_FILES = ("pyproject.toml", "Makefile", "README.md")
PLACEHOLDERS = re.compile(r"<[^>]*>|(?<![A-Za-z])(?:ID|GAME|NAME|VARIANT|Id)(?![A-Za-z])")
EXAMPLES = {
    "obelisk.db",  # the server's SQLite file
    "obelisk.lang",  # the pages' key in the browser's storage
}
"""Names that look like the project's own but are something else."""

_INLINE = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
_FENCE = re.compile(r"^```")
_MODULE = re.compile(r"obelisk(?:\.[A-Za-z_][A-Za-z0-9_]*)+")
_LINK = re.compile(r"\]\(([^)\s]+)\)")


def _strip_fenced(text: str) -> tuple[str, list[str]]:
    """The page without its fenced blocks, and the lines of its shell blocks."""
    kept: list[str] = []
    shell: list[str] = []
    fence: str | None = None
    for line in text.splitlines():
        if _FENCE.match(line):
            fence = None if fence is not None else line[3:].strip() or "text"
            continue
        if fence is None:
            kept.append(line)
        elif fence in ("sh", "bash", "shell"):
            shell.append(line.split("  #", 1)[0].strip())
    return "\n".join(kept), shell


def _names(page: Path) -> Iterator[str]:
    prose, shell = _strip_fenced(page.read_text(encoding="utf-8"))
    yield from (match.group(1).strip() for match in _INLINE.finditer(prose))
    yield from (line for line in shell if line)


@functools.cache
def _commands() -> dict[str, set[str]]:
    """Every subcommand of ``obelisk`` and the options it takes; a group's own subcommands as "group sub"."""
    cli._register_commands()
    group: Any = typer.main.get_command(cli.app)
    game_options = {f"--{option.name.replace('_', '-')}" for info in obelisk.list_games() for option in info.options}
    game_options |= {f"--{option.name}" for info in obelisk.list_games() for option in info.options}
    found: dict[str, set[str]] = {}
    for name, command in group.commands.items():
        options = {"--help"} | {flag for param in command.params for flag in [*param.opts, *param.secondary_opts]}
        if command.context_settings.get("ignore_unknown_options"):
            options |= game_options
        if name in cli.SPEAKING_COMMANDS:
            options.add("--lang")
        found[name] = options
        for sub, subcommand in getattr(command, "commands", {}).items():
            found[f"{name} {sub}"] = {"--help"} | {flag for param in subcommand.params
                                                  for flag in [*param.opts, *param.secondary_opts]}
    return found


def _make_targets() -> set[str]:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    return {match.group(1) for match in re.finditer(r"^([a-z][a-z-]*):", text, re.M)}


def _check_module(name: str) -> str | None:
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        module_name = ".".join(parts[:cut])
        try:
            found = importlib.util.find_spec(module_name)
        except (ImportError, ValueError):
            found = None
        if found is None:
            continue
        if cut == len(parts):
            return None
        target: Any = importlib.import_module(module_name)
        for attribute in parts[cut:]:
            if not hasattr(target, attribute):
                return f"{name}: {module_name} has no {'.'.join(parts[cut:])}"
            target = getattr(target, attribute)
        return None
    return f"{name}: no such module"


def _check_command(words: list[str]) -> str | None:
    if len(words) < 2 or words[1].startswith("-"):
        return None
    commands = _commands()
    if words[1] not in commands:
        return f"obelisk {words[1]}: no such command"
    name, rest = words[1], words[2:]
    if rest and not rest[0].startswith("-") and f"{name} {rest[0]}" in commands:
        name, rest = f"{name} {rest[0]}", rest[1:]
    elif any(key.startswith(f"{name} ") for key in commands) and rest and not rest[0].startswith("-"):
        return f"obelisk {name} {rest[0]}: no such command"
    wrong = [word.split("=", 1)[0] for word in rest
             if word.startswith("-") and word.split("=", 1)[0] not in commands[name]]
    return f"obelisk {name}: no option {', '.join(wrong)}" if wrong else None


def _is_path(word: str) -> bool:
    if word in ROOT_FILES:
        return True
    last = word.rstrip("/").rsplit("/", 1)[-1]
    return word.startswith(FOLDERS) and (word.endswith("/") or re.search(r"\.[a-z]{1,5}$", last) is not None)


def _check_path(word: str) -> str | None:
    pattern = PLACEHOLDERS.sub("*", re.sub(r"\[[^\]]*\]", "", word.split("#", 1)[0].split(":", 1)[0]))
    matches = list(ROOT.glob(pattern.rstrip("/"))) if "*" in pattern else [ROOT / pattern]
    return None if any(path.exists() for path in matches) else f"{word}: no such file or folder"


def _problems(name: str) -> Iterator[str]:
    if name in EXAMPLES:
        return
    if re.search(r"&&|\|\||;|\|", name):
        for part in re.split(r"&&|\|\||;|\|", name):
            yield from _problems(part.strip())
        return
    try:
        words = shlex.split(name)
    except ValueError:
        words = name.split()
    if not words:
        return
    if words[0] == "obelisk" or words[0].endswith("/obelisk"):
        problem = _check_command(words)
        if problem:
            yield problem
    elif words[0] == "make":
        targets = [word for word in words[1:] if not word.startswith("-") and "=" not in word]
        yield from (f"make {target}: no such target" for target in targets if target not in _make_targets())
    for word in words:
        word = word.strip(",;()'\"")
        if word in EXAMPLES:
            continue
        if _MODULE.fullmatch(word.removesuffix("()")):
            problem = _check_module(word.removesuffix("()"))
            if problem:
                yield problem
        elif _is_path(word):
            problem = _check_path(word)
            if problem:
                yield problem
    module = _MODULE.match(name)
    if module and len(words) == 1 and module.group(0) != name.removesuffix("()") and "(" in name:
        problem = _check_module(module.group(0))
        if problem:
            yield problem


def _slug(heading: str) -> str:
    """The anchor a Markdown renderer gives a heading: lower case, punctuation dropped, spaces as dashes."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower().replace("`", ""))
    return text.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    prose, _ = _strip_fenced(page.read_text(encoding="utf-8"))
    return {_slug(line.lstrip("#")) for line in prose.splitlines() if line.startswith("#")}


def _link_problems(page: Path) -> Iterator[str]:
    prose, _ = _strip_fenced(page.read_text(encoding="utf-8"))
    for match in _LINK.finditer(prose):
        target = match.group(1)
        if re.match(r"[a-z]+:", target):
            continue
        file_part, _, anchor = target.partition("#")
        linked = (page.parent / file_part).resolve() if file_part else page
        if not linked.exists():
            yield f"link {target}: no such file"
        elif anchor and linked.suffix == ".md" and anchor not in _anchors(linked):
            yield f"link {target}: no heading #{anchor} in {linked.name}"


@pytest.mark.parametrize("page", PAGES, ids=[str(page.relative_to(ROOT)) for page in PAGES])
def test_every_name_a_page_gives_exists(page: Path) -> None:
    problems = sorted({problem for name in _names(page) for problem in _problems(name)})
    problems += sorted(set(_link_problems(page)))
    assert problems == [], f"{page.relative_to(ROOT)}:\n" + "\n".join(problems)


def test_the_check_finds_what_does_not_exist() -> None:
    assert list(_problems("obelisk.core.files"))
    assert list(_problems("obelisk.core.i18n.no_such_function()"))
    assert list(_problems("obelisk play valley --no-such-option 3"))
    assert list(_problems("obelisk fly"))
    assert list(_problems("make deploy"))
    assert list(_problems("make setup PURE=1 && make deploy"))
    assert list(_problems("tools/no_such_tool.py"))
    assert list(_problems("obelisk/games/ID/no_such.json"))
    for real in ("obelisk.core.datafiles", "obelisk.list_games()", "obelisk.core.i18n.set_language(\"cs\")",
                 "obelisk play valley --max-rounds 3 --lang cs", "obelisk rules valley --lang cs", "make play",
                 "make setup PURE=1", "obelisk/games/ID/locale/cs.po", "docs/images/<game>-<en|cs>[-phone].png",
                 ".venv/bin/python benchmarks/engine.py --seconds 4", "tests/games/"):
        assert list(_problems(real)) == [], real


def test_a_broken_link_or_anchor_is_found(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# Title\n\n## A section (`x.py`)\n\n[ok](#a-section-xpy) [bad](#nope) [gone](missing.md)\n")
    problems = list(_link_problems(page))
    assert any("#nope" in problem for problem in problems) and any("missing.md" in problem for problem in problems)
    assert not any("#a-section-xpy" in problem for problem in problems)


def test_every_benchmark_script_has_its_section() -> None:
    page = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    scripts = sorted(path.relative_to(ROOT).as_posix() for path in (ROOT / "benchmarks").glob("*.py"))
    assert scripts and [script for script in scripts if f"`{script}`" not in page] == []


def test_the_index_links_every_page() -> None:
    index = ROOT / "docs" / "README.md"
    linked = {(index.parent / match.group(1).partition("#")[0]).resolve()
              for match in _LINK.finditer(index.read_text(encoding="utf-8"))}
    pages = {page.resolve() for page in (ROOT / "docs").rglob("*.md") if page != index}
    assert sorted(str(page.relative_to(ROOT)) for page in pages - linked) == []
