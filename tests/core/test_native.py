"""The compiled build: all listed modules or none, and never older than its source."""

from __future__ import annotations

import importlib
import os
import tomllib
from pathlib import Path

import pytest

from obelisk import native

ROOT = Path(__file__).resolve().parents[2]


def _listed() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return [m.removesuffix(".py").replace("/", ".") for m in config["tool"]["obelisk"]["compile"]["modules"]]


def test_either_every_listed_module_runs_compiled_or_none_does() -> None:
    listed = _listed()
    assert "obelisk.core.protocol" in listed
    for name in listed:
        importlib.import_module(name)
    compiled = [name for name in listed if native.is_compiled(name)]
    assert compiled in ([], listed), f"a partial build: only {compiled} are compiled"
    assert bool(native.compiled_files()) == bool(compiled)


def test_a_source_edited_after_its_build_is_reported(tmp_path: Path) -> None:
    source = tmp_path / "rules.py"
    library = tmp_path / "rules.cpython-311-x86_64-linux-gnu.so"
    source.write_text("X = 1\n")
    library.write_bytes(b"")
    os.utime(source, (1_000, 1_000))
    os.utime(library, (2_000, 2_000))
    assert native.compiled_files(tmp_path) == {source: library}
    assert native.stale_sources(tmp_path) == []
    os.utime(source, (3_000, 3_000))
    assert native.stale_sources(tmp_path) == [source]


def test_a_library_without_a_source_is_not_a_module_build(tmp_path: Path) -> None:
    (tmp_path / "compiled__mypyc.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    assert native.compiled_files(tmp_path) == {}
    assert native.stale_sources(tmp_path) == []


def test_importing_with_a_stale_build_fails_naming_the_file(monkeypatch: pytest.MonkeyPatch) -> None:
    stale = native.PACKAGE / "games" / "solomon" / "state.py"
    monkeypatch.setattr(native, "stale_sources", lambda package=native.PACKAGE: [stale])
    with pytest.raises(ImportError, match=r"obelisk/games/solomon/state\.py.*make setup"):
        native.check_compiled_builds()
    monkeypatch.setattr(native, "stale_sources", lambda package=native.PACKAGE: [])
    native.check_compiled_builds()
