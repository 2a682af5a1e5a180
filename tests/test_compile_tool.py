"""``tools/compile.py``: which build runs, and that ``make play`` never waits for the compiler.

The tool works here on a small package of its own in a temporary folder, so no test touches the
compiled rules of this checkout; the compiler itself is never run (``make setup`` runs it for real).
"""

from __future__ import annotations

import fcntl
import importlib.util
import os
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from obelisk.core import i18n

ROOT = Path(__file__).resolve().parents[1]
SUFFIX = ".cpython-311-x86_64-linux-gnu.so"
MODULES = ["obelisk/rules.py"]


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("compile_tool", ROOT / "tools" / "compile.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Spawned:
    """Stands in for ``subprocess.Popen``: notes the background compiler it was asked to start."""

    def __init__(self) -> None:
        self.commands: list[list[str]] = []
        self.options: list[dict[str, Any]] = []

    def __call__(self, command: list[str], **options: Any) -> None:
        self.commands.append(command)
        self.options.append(options)


@pytest.fixture()
def tool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The tool aimed at ``tmp_path``: a package with one compiled module, a build folder, a C compiler."""
    module = _tool()
    package = tmp_path / "obelisk"
    package.mkdir()
    (package / "rules.py").write_text("X = 1\n")
    (package / "view.py").write_text("Y = 2\n")
    build = tmp_path / "build" / "native"
    places = dict(ROOT=tmp_path, PACKAGE=package, BUILD=build, STAGED=build / "lib", LOG=build / "compile.log",
                  BUILT=build / "built.fingerprint", FAILED=build / "failed.fingerprint",
                  INSTALLED=build / "installed.fingerprint")
    for name, value in places.items():
        monkeypatch.setattr(module, name, value)
    monkeypatch.setattr(module, "missing_tool", lambda: None)
    monkeypatch.setattr(module.subprocess, "Popen", Spawned())
    i18n.set_language("en")
    return module


def _finish_build(tool: ModuleType, wanted: str) -> None:
    """What the background compiler leaves when it is done: the libraries and the fingerprint, last."""
    staged = tool.STAGED / "obelisk"
    staged.mkdir(parents=True)
    (staged / f"compiled__mypyc{SUFFIX}").write_bytes(b"group")
    (staged / f"rules{SUFFIX}").write_bytes(b"rules")
    tool._write(tool.BUILT, wanted)


def _placed(tool: ModuleType) -> list[str]:
    return [path.name for path in tool.placed()]


def test_without_a_build_play_starts_the_compiler_in_the_background_and_says_so_in_one_line(
        tool: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    (tool.PACKAGE / f"rules{SUFFIX}").write_bytes(b"old build")
    assert tool.compile_later(MODULES) == 0
    line = capsys.readouterr().out
    assert line.count("\n") == 1 and "compiling in the background" in line and "build/native/compile.log" in line
    assert _placed(tool) == []
    (command,) = tool.subprocess.Popen.commands
    assert command[-1] == "--stage"
    # Ctrl+C on `make play` reaches its whole process group: the compiler has a session of its own.
    assert tool.subprocess.Popen.options[0]["start_new_session"] is True


def test_a_finished_build_of_these_sources_runs_from_the_next_start(
        tool: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    _finish_build(tool, tool.fingerprint(MODULES))
    tool.compile_later(MODULES)
    assert "run compiled" in capsys.readouterr().out
    assert _placed(tool) == [f"compiled__mypyc{SUFFIX}", f"rules{SUFFIX}"]
    assert (tool.PACKAGE / f"rules{SUFFIX}").stat().st_mtime >= (tool.PACKAGE / "rules.py").stat().st_mtime
    assert tool.is_current(tool.fingerprint(MODULES))
    tool.compile_later(MODULES)
    assert capsys.readouterr().out == "" and tool.subprocess.Popen.commands == []


def test_a_build_of_other_sources_never_runs(tool: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    _finish_build(tool, tool.fingerprint(MODULES))
    tool.compile_later(MODULES)
    (tool.PACKAGE / "view.py").write_text("Y = 3\n")  # not compiled itself, but the compiled rules may use it
    tool.compile_later(MODULES)
    assert _placed(tool) == []
    assert "compiling in the background" in capsys.readouterr().out.splitlines()[-1]
    assert len(tool.subprocess.Popen.commands) == 1


def test_a_source_touched_after_its_build_gets_the_build_copied_again_not_compiled(tool: ModuleType) -> None:
    wanted = tool.fingerprint(MODULES)
    _finish_build(tool, wanted)
    tool.compile_later(MODULES)
    now = time.time()
    os.utime(tool.PACKAGE / f"rules{SUFFIX}", (now - 100, now - 100))
    os.utime(tool.PACKAGE / "rules.py", (now - 50, now - 50))  # the same text, checked out again since
    assert not tool.is_current(wanted)
    tool.compile_later(MODULES)
    assert tool.is_current(wanted) and tool.subprocess.Popen.commands == []


def test_while_the_compiler_runs_play_serves_plain_python_without_waiting(
        tool: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    (tool.PACKAGE / f"rules{SUFFIX}").write_bytes(b"old build")
    tool.BUILD.mkdir(parents=True)
    with (tool.BUILD / "lock").open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        tool.compile_later(MODULES)
    assert "still compiling in the background" in capsys.readouterr().out
    assert _placed(tool) == [] and tool.subprocess.Popen.commands == []


@pytest.mark.parametrize("mode", ["compile_later", "compile_now"])
def test_without_a_c_compiler_the_rules_run_as_plain_python_and_one_line_says_so(
        tool: ModuleType, mode: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    (tool.PACKAGE / f"rules{SUFFIX}").write_bytes(b"old build")
    monkeypatch.setattr(tool, "missing_tool", lambda: "gcc")
    assert getattr(tool, mode)(MODULES) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "plain Python" in out and "gcc" in out
    assert _placed(tool) == [] and tool.subprocess.Popen.commands == []


def test_a_failed_background_compile_is_reported_not_retried_on_every_start(
        tool: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    tool._write(tool.FAILED, tool.fingerprint(MODULES))
    tool.compile_later(MODULES)
    assert "compiling them failed" in capsys.readouterr().out
    assert tool.subprocess.Popen.commands == []


def test_the_lines_speak_czech_when_asked(tool: ModuleType, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("OBELISK_LANG", "cs")
    try:
        tool.compile_later(MODULES)
    finally:
        i18n.set_language("en")
    assert "na pozadí se kompilují" in capsys.readouterr().out


def test_a_missing_compiler_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    tool = _tool()
    monkeypatch.delenv("CC", raising=False)
    monkeypatch.setattr(tool.sysconfig, "get_config_var", lambda name: "no-such-cc-here -pthread")
    assert tool.missing_tool() == "no-such-cc-here"
    monkeypatch.setenv("CC", "another-missing-cc")
    assert tool.missing_tool() == "another-missing-cc"

