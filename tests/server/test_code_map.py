"""The server's code map (docs/server.md) names every module once, in an order its imports follow: each module
imports only the modules listed above it, so the list can be read from the value outward."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "obelisk" / "server"


def listed() -> list[list[str]]:
    """The code map's rows, each the modules it names (a row may name two), in order."""
    text = (ROOT / "docs" / "server.md").read_text(encoding="utf-8")
    section = text.split("## Code map", 1)[1].split("\n## ", 1)[0]
    return [re.findall(r"`([a-z_]+)\.py`", row.split("|")[1]) for row in section.splitlines()
            if row.startswith("| `")]


def server_imports(module: str) -> set[str]:
    tree = ast.parse((SERVER / f"{module}.py").read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("obelisk.server."):
            found.add(node.module.split(".")[2])
        elif isinstance(node, ast.ImportFrom) and node.module == "obelisk.server":
            found.update(alias.name for alias in node.names)
    return found


def test_every_server_module_is_on_the_code_map_once() -> None:
    names = [name for row in listed() for name in row]
    modules = sorted(path.stem for path in SERVER.glob("*.py") if path.stem != "__init__")
    assert sorted(names) == modules


def test_each_module_imports_only_those_listed_above_it() -> None:
    seen: set[str] = set()
    wrong = []
    for row in listed():
        for module in row:
            above = server_imports(module) - seen
            if above:
                wrong.append(f"{module} imports {', '.join(sorted(above))}, listed below it")
        seen.update(row)
    assert wrong == []
