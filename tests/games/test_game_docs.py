"""Every game's doc follows the one template of docs/adding-a-game.md, and its clause trace points at code that exists.

The template ("The game's doc") lists the doc's sections in order. The clause trace is one table,

    | # | section | clause (Czech, brief) | gloss | checked by | decided in |

whose "checked by" names tests as ``FILE::TEST`` (``FILE`` in ``tests/games/<id>/``, or a path from the
checkout's root starting with ``tests/``) or rulings (``ruling 4``, ``rulings 5, 6``, ``rulings 1–3``), and
whose "decided in" names the code that decides the clause as ``FILE:NAME`` (``FILE`` in
``obelisk/games/<id>/``, or a path starting with ``obelisk/``; ``NAME`` a module attribute, a
``Class.method``, or a method found among the module's classes). A name written ``fast copy: FILE:NAME``
is an inlined copy of the readable rule named before it on the same line; both are marked in the code:
the rule's docstring or comments say ``Fast copy: `NAME```, the copy's say ``fast copy of `NAME``` (one such
phrase for each rule it copies).
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import re
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest

from obelisk import games

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "docs" / "adding-a-game.md"
TRACE_HEADER = ["#", "section", "clause (czech, brief)", "gloss", "checked by", "decided in"]
GAMES = games.shipped()

_TEST_REF = re.compile(r"`((?:tests/)?[\w/]+\.py)::(\w+)`")
_CODE_REF = re.compile(r"(fast copy: )?`((?:obelisk/)?[\w/]+\.py):([\w.]+)`")
_RULINGS = re.compile(r"\brulings? (\d+(?:\s*[–-]\s*\d+)?(?:,\s*\d+(?:\s*[–-]\s*\d+)?)*)")
_NO_RULE = re.compile(r"^\*?no rule\b")
_COPY_OF = re.compile(r"(?i)fast copy of `([\w.]+)`")


def doc_path(game_id: str) -> Path:
    return ROOT / "docs" / "games" / f"{game_id}.md"


def template_sections() -> list[str]:
    """The section names of the template, in order, from docs/adding-a-game.md."""
    text = section(TEMPLATE.read_text(encoding="utf-8"), "The game's doc")
    return re.findall(r"^\d+\. \*\*(.+?)\*\*", text, re.MULTILINE)


def headings(text: str) -> list[str]:
    """The second-level headings of a Markdown page, outside fenced blocks."""
    found, fenced = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("## "):
            found.append(line[3:].strip())
    return found


def section(text: str, title: str) -> str:
    """The body of the second-level section ``title`` (up to the next one)."""
    start = text.index(f"\n## {title}\n") + len(title) + 5
    end = text.find("\n## ", start)
    return text[start : end if end >= 0 else len(text)]


@dataclass(frozen=True)
class Row:
    number: str
    checked_by: str
    decided_in: str


def trace_rows(text: str) -> list[Row]:
    """The rows of the clause-trace table (the one table of the section with the template's header)."""
    lines = section(text, "Clause trace").splitlines()
    header = next(i for i, line in enumerate(lines) if _cells(line) and [c.lower() for c in _cells(line)] == TRACE_HEADER)
    rows = []
    for line in lines[header + 2 :]:
        if not line.startswith("|"):
            break
        cells = _cells(line)
        assert len(cells) == len(TRACE_HEADER), f"a clause-trace row needs {len(TRACE_HEADER)} cells: {line}"
        rows.append(Row(cells[0], cells[4], cells[5]))
    return rows


def _cells(line: str) -> list[str]:
    line = line.strip()
    if not line.startswith("|"):
        return []
    return [cell.strip() for cell in line.strip("|").split("|")]


def ruling_numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"^(\d+)\. ", section(text, "Rulings"), re.MULTILINE)]


def cited_rulings(cell: str) -> set[int]:
    cited: set[int] = set()
    for group in _RULINGS.findall(cell):
        for part in group.split(","):
            ends = [int(n) for n in re.findall(r"\d+", part)]
            cited.update(range(ends[0], ends[-1] + 1))
    return cited


@functools.cache
def defined_tests(path: Path) -> frozenset[str]:
    """The test functions of a test file (module level or in a class)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in tree.body:
        bodies = node.body if isinstance(node, ast.ClassDef) else [node]
        names.update(n.name for n in bodies if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
    return frozenset(name for name in names if name.startswith("test_"))


def named_test_file(game_id: str, file: str) -> Path:
    return ROOT / file if file.startswith("tests/") else ROOT / "tests" / "games" / game_id / file


@dataclass(frozen=True)
class CodeRef:
    """A ``FILE:NAME`` of the doc: a module of the package and a name in it."""

    module: str
    path: Path
    name: str

    @classmethod
    def parse(cls, game_id: str, file: str, name: str) -> CodeRef:
        relative = Path(file) if file.startswith("obelisk/") else Path("obelisk", "games", game_id, file)
        return cls(".".join(relative.with_suffix("").parts), ROOT / relative, name)

    @property
    def short(self) -> str:
        return self.name.rpartition(".")[2]

    def __str__(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.name}"


def resolve(ref: CodeRef) -> object:
    """The attribute ``ref`` names: dotted from the module, or a method of one of the module's classes."""
    module = importlib.import_module(ref.module)
    head, _, rest = ref.name.partition(".")
    if hasattr(module, head):
        found = getattr(module, head)
        for part in rest.split(".") if rest else []:
            found = getattr(found, part)
        return found
    assert not rest, f"{ref}: {ref.module} has no {head}"
    owners = [cls for cls in _classes(module) if head in vars(cls)]
    assert owners, f"{ref}: {ref.module} has no function {head}, nor a class with a method of that name"
    assert len(owners) == 1, f"{ref}: {len(owners)} classes of {ref.module} define {head}; write Class.{head}"
    return vars(owners[0])[head]


def _classes(module: ModuleType) -> list[type]:
    return [value for value in vars(module).values()
            if inspect.isclass(value) and value.__module__ == module.__name__]


def source_of(ref: CodeRef) -> str:
    """The source text of the function ``ref`` names (docstring and comments included), read from its file."""
    text = ref.path.read_text(encoding="utf-8")
    tree = ast.parse(text)
    head, _, rest = ref.name.partition(".")
    candidates: list[ast.AST] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not rest and node.name == head:
            candidates.append(node)
        if isinstance(node, ast.ClassDef) and (node.name == head or not rest):
            wanted = rest or head
            candidates += [n for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                           and n.name == wanted]
    assert len(candidates) == 1, f"{ref}: no single function of that name in {ref.path.name}"
    segment = ast.get_source_segment(text, candidates[0])
    assert segment is not None
    return segment


def fast_pairs(game_id: str, text: str) -> list[tuple[CodeRef, CodeRef]]:
    """(readable rule, fast copy) for every ``fast copy:`` name of the doc: the rule is the name before it."""
    pairs = []
    for line in text.splitlines():
        readable = None
        for fast, file, name in _CODE_REF.findall(line):
            ref = CodeRef.parse(game_id, file, name)
            if not fast:
                readable = ref
                continue
            assert readable is not None, f"'fast copy: {ref}' follows no readable rule: {line}"
            pairs.append((readable, ref))
    return pairs


def marked_copies(game_id: str) -> set[tuple[str, str]]:
    """(readable name, fast copy's name) for every ``fast copy of `NAME``` the game's modules write."""
    found = set()
    for path in sorted((ROOT / "obelisk" / "games" / game_id).glob("*.py")):
        text = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                segment = ast.get_source_segment(text, node) or ""
                found.update((name.rpartition(".")[2], node.name) for name in _COPY_OF.findall(segment))
    return found


@pytest.mark.parametrize("game_id", GAMES)
def test_the_doc_has_the_sections_of_the_template_in_order(game_id: str) -> None:
    expected = template_sections()
    assert len(expected) >= 10
    assert headings(doc_path(game_id).read_text(encoding="utf-8")) == expected


@pytest.mark.parametrize("game_id", GAMES)
def test_every_clause_is_tested_or_ruled_and_every_test_named_exists(game_id: str) -> None:
    text = doc_path(game_id).read_text(encoding="utf-8")
    rulings = ruling_numbers(text)
    assert rulings == list(range(1, len(rulings) + 1)), "rulings are numbered 1, 2, 3, ..."
    rows = trace_rows(text)
    assert len(rows) >= 20 and len({row.number for row in rows}) == len(rows)
    for row in rows:
        cited = cited_rulings(row.checked_by)
        assert _TEST_REF.search(row.checked_by) or cited or _NO_RULE.match(row.checked_by), (
            f"clause {row.number} is neither tested nor ruled")
        assert cited <= set(rulings), f"clause {row.number} cites a ruling that does not exist"
    named = _TEST_REF.findall(section(text, "Clause trace"))
    missing = [f"{file}::{test}" for file, test in named
               if not named_test_file(game_id, file).exists() or test not in defined_tests(named_test_file(game_id, file))]
    assert named and not missing, f"tests named in the clause trace do not exist: {missing}"


@pytest.mark.parametrize("game_id", GAMES)
def test_every_clause_names_the_code_that_decides_it_and_that_code_exists(game_id: str) -> None:
    text = doc_path(game_id).read_text(encoding="utf-8")
    for row in trace_rows(text):
        if not _NO_RULE.match(row.checked_by):
            assert _CODE_REF.search(row.decided_in), f"clause {row.number} names no code that decides it"
    for part in ("Clause trace", "Code map"):
        for _, file, name in _CODE_REF.findall(section(text, part)):
            ref = CodeRef.parse(game_id, file, name)
            assert ref.path.exists(), f"{ref}: no such file"
            resolve(ref)


@pytest.mark.parametrize("game_id", GAMES)
def test_fast_copies_and_their_rules_name_each_other(game_id: str) -> None:
    text = doc_path(game_id).read_text(encoding="utf-8")
    pairs = fast_pairs(game_id, text)
    for readable, fast in pairs:
        assert re.search(rf"(?i)fast cop(?:y|ies):[^\n]*`(?:[\w.]+\.)?{fast.short}`", source_of(readable)), (
            f"{readable} does not name its fast copy: write Fast copy: `{fast.short}`")
        assert readable.short in {name.rpartition(".")[2] for name in _COPY_OF.findall(source_of(fast))}, (
            f"{fast} does not name the rule it copies: write fast copy of `{readable.short}`")
    documented = {(readable.short, fast.short) for readable, fast in pairs}
    undocumented = marked_copies(game_id) - documented
    assert not undocumented, f"fast copies marked in the code but not in the doc: {sorted(undocumented)}"


@pytest.mark.parametrize("game_id", GAMES)
def test_the_doc_and_data_cite_no_file_outside_the_repository(game_id: str) -> None:
    outside = re.compile(r"shared/|/work/|/root/|/tmp/|seeds/|\b\d{3}_[0-9a-f]{16}\b")
    for path in (doc_path(game_id), ROOT / "obelisk" / "games" / game_id / f"{game_id}.json"):
        found = outside.findall(path.read_text(encoding="utf-8"))
        assert not found, f"{path.name} cites {found}"


def test_the_checks_find_what_is_missing() -> None:
    """The parser of the trace and the name checks fail on the mistakes they are for."""
    doc = (
        "# G\n\n## Rulings\n\n1. **One.** a\n2. **Two.** b\n\n## Clause trace\n\n"
        "| # | section | clause (Czech, brief) | gloss | checked by | decided in |\n|---|---|---|---|---|---|\n"
        "| 1 | S | „a“ | a | `test_x.py::test_a`; rulings 1–2 | `state.py:_may_move` (fast copy: `state.py:_turn_actions`) |\n"
        "| 2 | S | „b“ | b | *no rule* | — |\n\n## Next\n"
    )
    rows = trace_rows(doc)
    assert [row.number for row in rows] == ["1", "2"] and cited_rulings(rows[0].checked_by) == {1, 2}
    assert ruling_numbers(doc) == [1, 2] and _NO_RULE.match(rows[1].checked_by)
    [(readable, fast)] = fast_pairs("solomon", doc)
    assert (readable.name, fast.name) == ("_may_move", "_turn_actions")
    assert "Fast copy: `_turn_actions`" in source_of(readable) and "fast copy of `_may_move`" in source_of(fast)
    resolve(CodeRef.parse("solomon", "state.py", "SolomonState._may_move"))
    for wrong in ("_no_such_rule", "SolomonState.no_such_method", "NoSuchClass.method"):
        with pytest.raises((AssertionError, AttributeError)):
            resolve(CodeRef.parse("solomon", "state.py", wrong))
    with pytest.raises(AssertionError):
        source_of(CodeRef.parse("solomon", "state.py", "_renamed_rule"))
    assert "test_the_checks_find_what_is_missing" in defined_tests(Path(__file__))
