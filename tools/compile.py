"""Compile the rules to C extension modules with mypyc, in place.

The modules listed under ``[tool.obelisk.compile]`` in ``pyproject.toml`` are
type-checked and compiled into one native library; each gets a ``.so`` beside
its ``.py`` that Python imports in its place. The compiled code behaves exactly
like the source (the same tests run against both); it is only faster. A
compiled module older than its source refuses to import (see
``obelisk/__init__.py``), so an edit never runs stale rules: ``make setup``
recompiles.

    .venv/bin/python tools/compile.py          # compile (what make setup runs)
    .venv/bin/python tools/compile.py --clean  # back to plain Python
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tomllib
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GROUP = "obelisk.compiled"


def listed_modules() -> list[str]:
    """Paths of the modules to compile, relative to the project root."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    modules = config["tool"]["obelisk"]["compile"]["modules"]
    missing = [m for m in modules if not (ROOT / m).is_file()]
    if missing:
        raise SystemExit(f"compile: listed modules not found: {', '.join(missing)}")
    return modules


def clean() -> None:
    """Remove every compiled module of the package and the build directory."""
    for library in (ROOT / "obelisk").rglob("*.so"):
        library.unlink()
    shutil.rmtree(ROOT / "build" / "native", ignore_errors=True)


def compile_modules(modules: list[str]) -> None:
    from mypyc.build import mypycify
    from setuptools import setup

    extensions = mypycify(modules, separate=[(modules, GROUP)], opt_level="3", target_dir="build/native/c")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # setuptools' notes on this project's own pyproject.toml
        setup(
            name="obelisk-native",
            ext_modules=extensions,
            script_args=["--quiet", "build_ext", "--inplace", "--build-temp", "build/native/temp"],
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clean", action="store_true", help="remove compiled modules and run as plain Python")
    args = parser.parse_args(argv)
    os.chdir(ROOT)
    clean()
    if args.clean:
        return 0
    modules = listed_modules()
    compile_modules(modules)
    print(f"compiled {len(modules)} modules: {', '.join(modules)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
