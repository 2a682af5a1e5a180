"""Which rules run compiled, and a guard against compiled rules older than their source.

``tools/compile.py`` (run by ``make setup``, and by ``make play`` in the
background) compiles the modules listed in ``pyproject.toml`` with mypyc and
puts a ``.so`` file beside each source, which Python imports in place of the
``.py`` file. An edited source whose ``.so`` was not rebuilt would run the old
rules silently, so importing ``obelisk`` refuses that with an error naming the
files. ``tools/compile.py`` loads this module on its own to ask the same
question, so it imports nothing of the package and never runs compiled.
"""

from __future__ import annotations

import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def compiled_files(package: Path = PACKAGE) -> dict[Path, Path]:
    """``{source .py: compiled .so}`` for every module of the package that has a compiled build."""
    found: dict[Path, Path] = {}
    for library in sorted(package.rglob("*.so")):
        source = library.with_name(library.name.split(".", 1)[0] + ".py")
        if source.is_file():
            found[source] = library
    return found


def stale_sources(package: Path = PACKAGE) -> list[Path]:
    """Sources changed after their compiled build."""
    return [
        source
        for source, library in compiled_files(package).items()
        if source.stat().st_mtime > library.stat().st_mtime
    ]


def is_compiled(module: str) -> bool:
    """Whether the imported ``module`` runs from a compiled build."""
    return str(getattr(sys.modules.get(module), "__file__", "")).endswith(".so")


def check_compiled_builds() -> None:
    """Raise ``ImportError`` if a compiled build is older than its source."""
    stale = stale_sources()
    if stale:
        names = ", ".join(str(path.relative_to(PACKAGE.parent)) for path in stale)
        raise ImportError(
            f"compiled rules are older than their source ({names}): run `make setup` to recompile, "
            "or `.venv/bin/python tools/compile.py --clean` to run as plain Python"
        )
