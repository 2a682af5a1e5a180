"""The clause trace of docs/games/solomon.md names real tests, and the docs and data cite only published sources."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "games" / "solomon.md"
TESTS = Path(__file__).resolve().parent


def _section(text: str, title: str) -> str:
    start = text.index(f"## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def _trace_rows() -> list[list[str]]:
    rows = []
    for line in _section(DOC.read_text(encoding="utf-8"), "Clause trace").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0].isdigit():
            rows.append(cells)
    return rows


def _test_names() -> set[str]:
    names = set()
    for path in TESTS.glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                names.add(node.name)
    return names


def test_every_test_named_in_the_clause_trace_exists() -> None:
    rows = _trace_rows()
    assert [int(row[0]) for row in rows] == list(range(1, len(rows) + 1)) and len(rows) >= 50
    named = {name for row in rows for name in re.findall(r"`(test_\w+)`", row[-1])}
    assert named and not named - _test_names(), f"missing tests: {sorted(named - _test_names())}"


def test_every_clause_is_tested_or_names_an_existing_ruling() -> None:
    rulings = _section(DOC.read_text(encoding="utf-8"), "Rulings")
    numbers = {int(n) for n in re.findall(r"^(\d+)\. \*\*", rulings, re.MULTILINE)}
    assert numbers == set(range(1, len(numbers) + 1))
    for row in _trace_rows():
        cited = {int(n) for n in re.findall(r"rulings? ([\d, ]+)", row[-1]) for n in re.findall(r"\d+", n)}
        assert re.search(r"`test_\w+`", row[-1]) or cited, f"clause {row[0]} is neither tested nor ruled"
        assert cited <= numbers, f"clause {row[0]} cites an unknown ruling"


def test_docs_and_data_cite_no_file_outside_the_repository() -> None:
    outside = re.compile(r"shared/|/work/|/root/|/tmp/|seeds/|\b\d{3}_[0-9a-f]{16}\b")
    for path in (DOC, ROOT / "obelisk" / "games" / "solomon" / "solomon.json"):
        found = outside.findall(path.read_text(encoding="utf-8"))
        assert not found, f"{path.name} cites {found}"
