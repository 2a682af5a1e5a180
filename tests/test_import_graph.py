"""The modules of ``obelisk`` import each other without a cycle.

A cycle makes the import order decide what a module sees at import time, and it hides which module is
the lower layer. The graph counts every import statement of the package, also those inside functions
(a lazy import still ties the two modules together), but not those under ``if TYPE_CHECKING:``, which
never run. An import names the most specific module it reaches: ``from obelisk.sim import arena`` is an
edge to ``obelisk.sim.arena``, ``from obelisk.sim.arena import play_game`` one to ``obelisk.sim.arena``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import obelisk

PACKAGE = Path(obelisk.__file__).resolve().parent


def module_names() -> dict[str, Path]:
    """Every module of the package by its dotted name (a package by the name of its ``__init__``)."""
    names = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = ("obelisk", *path.relative_to(PACKAGE).with_suffix("").parts)
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return names


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _import_nodes(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """The import statements of a module, skipping the bodies of ``if TYPE_CHECKING:``."""
    found: list[ast.Import | ast.ImportFrom] = []
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        elif isinstance(node, ast.If) and _is_type_checking(node):
            pending.extend(node.orelse)
        else:
            pending.extend(ast.iter_child_nodes(node))
    return found


def imports_of(name: str, path: Path, modules: set[str]) -> set[str]:
    """The modules of the package that module ``name`` (at ``path``) imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in _import_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            candidates = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            candidates = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        for target in candidates:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                targets.add(target)
    return targets


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One cycle of ``graph`` as the modules along it (first = last), or ``[]`` when there is none."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return []


def import_graph() -> dict[str, set[str]]:
    modules = module_names()
    return {name: imports_of(name, path, set(modules)) for name, path in modules.items()}


def test_the_package_imports_without_a_cycle() -> None:
    cycle = find_cycle(import_graph())
    assert not cycle, "import cycle: " + " -> ".join(cycle)


def test_the_walk_sees_lazy_imports_and_skips_type_checking_ones(tmp_path: Path) -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "import obelisk.sim.stats\n"
        "if TYPE_CHECKING:\n"
        "    from obelisk.server import app\n"
        "def later():\n"
        "    from obelisk.sim import arena\n"
        "    from . import ray_backend\n"
    )
    path = tmp_path / "probe.py"
    path.write_text(source, encoding="utf-8")
    modules = set(module_names())
    assert imports_of("obelisk.sim.probe", path, modules) == {
        "obelisk.sim.stats", "obelisk.sim.arena", "obelisk.sim.ray_backend"}
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "d": {"a", "c"}}) == []
