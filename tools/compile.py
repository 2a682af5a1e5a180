"""Compile the rules to C extension modules with mypyc, and put the build beside the sources.

The modules listed under ``[tool.obelisk.compile]`` in ``pyproject.toml`` are type-checked and compiled
into one native library in ``build/native/lib``; putting it in place copies each module's ``.so`` beside
its ``.py``, which Python then imports instead. The compiled code behaves exactly like the source (the
same tests run against both); it is only faster.

A build is known by a fingerprint of every source of the package (compiled code bakes in the constants and
types of the modules it imports, compiled or not), of this script, of the module list and of the
interpreter. Only a build of the sources as they are is ever put in place, and importing ``obelisk``
refuses a compiled module older than its source (``obelisk/native.py``), so stale rules never run.

    .venv/bin/python tools/compile.py               # make setup: compile now unless the build is current
    .venv/bin/python tools/compile.py --background  # make play: never wait for the compiler
    .venv/bin/python tools/compile.py --clean       # back to plain Python

Compiling takes minutes on a small machine, so ``--background`` never waits: with a current build it
does nothing, with a finished build of these sources it puts that in place, and otherwise it removes
any compiled module, starts the compiler in its own process (``build/native/compile.log``) and returns at
once; the rules run as plain Python until the next start. Without a C compiler, the Python headers or
mypy, both modes leave the rules as plain Python and say so in one line.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import warnings
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from obelisk.core.i18n import Domain

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "obelisk"
GROUP = "obelisk.compiled"
BUILD = ROOT / "build" / "native"
STAGED = BUILD / "lib"
LOG = BUILD / "compile.log"
BUILT = BUILD / "built.fingerprint"
"""The fingerprint of the sources of the finished build in ``STAGED``; written last."""
FAILED = BUILD / "failed.fingerprint"
"""The fingerprint of sources that failed to compile in the background: not tried again on every start."""
INSTALLED = BUILD / "installed.fingerprint"
"""The fingerprint of the build in place beside the sources."""
NATIVE = PACKAGE / "native.py"


def listed_modules() -> list[str]:
    """Paths of the modules to compile, relative to the project root."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    modules = config["tool"]["obelisk"]["compile"]["modules"]
    missing = [m for m in modules if not (ROOT / m).is_file()]
    if missing:
        raise SystemExit(f"compile: listed modules not found: {', '.join(missing)}")
    return modules


def fingerprint(modules: list[str]) -> str:
    """What a build is made of: every source of the package, this script, the list and the interpreter."""
    digest = hashlib.sha256()
    try:
        mypy = metadata.version("mypy")
    except metadata.PackageNotFoundError:
        mypy = ""
    for part in (sys.version, sysconfig.get_config_var("EXT_SUFFIX"), mypy, *modules):
        digest.update(f"{part}\0".encode())
    digest.update(Path(__file__).read_bytes())
    for path in sorted(PACKAGE.rglob("*.py")):
        digest.update(f"\0{path.relative_to(PACKAGE).as_posix()}\0".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _read(path: Path) -> str | None:
    return path.read_text(encoding="ascii").strip() if path.is_file() else None


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text + "\n", encoding="ascii")


def placed() -> list[Path]:
    """The compiled modules beside the sources."""
    return sorted(PACKAGE.rglob("*.so"))


def _native() -> ModuleType:
    """``obelisk/native.py`` on its own: importing the package would refuse a stale build before it is replaced."""
    spec = importlib.util.spec_from_file_location("obelisk_native_check", NATIVE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def is_current(wanted: str) -> bool:
    """Whether the build in place is of these sources, whole, and newer than each source (which a checkout of
    the same text can touch), so that importing ``obelisk`` takes it."""
    staged = sorted(path.relative_to(STAGED) for path in STAGED.rglob("*.so")) if STAGED.is_dir() else []
    return (_read(INSTALLED) == wanted and _read(BUILT) == wanted and bool(staged)
            and sorted(path.relative_to(PACKAGE.parent) for path in placed()) == staged
            and not _native().stale_sources(PACKAGE))


def remove_placed() -> None:
    """Back to plain Python: every compiled module beside the sources goes."""
    INSTALLED.unlink(missing_ok=True)
    for library in placed():
        library.unlink()


def put_in_place(wanted: str) -> None:
    """Copy the finished build beside the sources, each file by an atomic rename, the shared library first.

    Each copy is newer than its source, as ``obelisk/native.py`` requires.
    """
    remove_placed()
    libraries = sorted(STAGED.rglob("*.so"), key=lambda path: (GROUP.split(".")[-1] not in path.name, path))
    for library in libraries:
        target = PACKAGE.parent / library.relative_to(STAGED)
        partial = target.with_name(target.name + ".partial")
        shutil.copyfile(library, partial)
        os.replace(partial, target)
    _write(INSTALLED, wanted)


def missing_tool() -> str | None:
    """What compiling needs and this machine lacks (a C compiler, the Python headers, mypy), or None.

    The compiler is the one setuptools would run: ``$CC``, else the one Python was built with.
    """
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return compiler
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        return "Python.h"
    if importlib.util.find_spec("mypyc") is None:
        return "mypy"
    return None


@contextlib.contextmanager
def locked(wait: bool) -> Iterator[bool]:
    """Hold the build folder's lock (one compiler at a time); without ``wait``, yield False when it is taken."""
    BUILD.mkdir(parents=True, exist_ok=True)
    with (BUILD / "lock").open("w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        yield True


def build(modules: list[str], wanted: str) -> bool:
    """Compile into ``STAGED``; the build counts as finished only if the sources did not change meanwhile."""
    from mypyc.build import mypycify
    from setuptools import setup

    BUILT.unlink(missing_ok=True)
    shutil.rmtree(STAGED, ignore_errors=True)
    extensions = mypycify(modules, separate=[(modules, GROUP)], opt_level="3", target_dir="build/native/c")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # setuptools' notes on this project's own pyproject.toml
        setup(
            name="obelisk-native",
            ext_modules=extensions,
            script_args=["--quiet", "build_ext", "--build-lib", str(STAGED), "--build-temp", "build/native/temp"],
        )
    if fingerprint(modules) != wanted:
        return False
    _write(BUILT, wanted)
    return True


def speaker() -> Domain:
    """The terminal's messages in the person's language (``OBELISK_LANG``, else English).

    Called only once the compiled modules in place are current or gone, as importing ``obelisk`` requires.
    """
    checkout = str(Path(__file__).resolve().parent.parent)
    if checkout not in sys.path:
        sys.path.insert(0, checkout)
    from obelisk.cli import LANGUAGE_VARIABLE
    from obelisk.core import i18n

    chosen = os.environ.get(LANGUAGE_VARIABLE, "")
    i18n.set_language(chosen if chosen in i18n.LANGUAGES else i18n.DEFAULT_LANGUAGE)
    return i18n.ui


def compile_now(modules: list[str]) -> int:
    """``make setup``: the build in place is current when this returns (or the rules run as plain Python)."""
    wanted = fingerprint(modules)
    with locked(wait=False) as free:
        if not free:
            print("compile: waiting for the compiler running in the background", flush=True)
    with locked(wait=True):
        if is_current(wanted):
            return 0
        if _read(BUILT) != wanted:
            missing = missing_tool()
            if missing is not None:
                remove_placed()
                _say_plain(missing)
                return 0
            if not build(modules, wanted):
                raise SystemExit("compile: the sources changed while they compiled; run it again")
        put_in_place(wanted)
    FAILED.unlink(missing_ok=True)
    _say_compiled(len(modules))
    return 0


def compile_later(modules: list[str]) -> int:
    """``make play``: never wait for the compiler; a finished build of these sources is put in place."""
    wanted = fingerprint(modules)
    with locked(wait=False) as free:
        if not free:
            if not is_current(wanted):
                remove_placed()
            _say_still_compiling()
            return 0
        if is_current(wanted):
            return 0
        if _read(BUILT) == wanted:
            put_in_place(wanted)
            _say_compiled_in_background()
            return 0
        remove_placed()
        missing = missing_tool()
        if missing is not None:
            _say_plain(missing)
            return 0
        if _read(FAILED) == wanted:
            _say_failed()
            return 0
        LOG.parent.mkdir(parents=True, exist_ok=True)
        with LOG.open("w") as log:
            # A session of its own: Ctrl+C on the server, which reaches make's process group, leaves it running.
            subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--stage"], cwd=ROOT,
                             stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    _say_compiling()
    return 0


def stage(modules: list[str]) -> int:
    """The background compiler: build into ``STAGED`` at low priority; ``compile_later`` puts it in place."""
    os.nice(10)
    wanted = fingerprint(modules)
    with locked(wait=True):
        if _read(BUILT) == wanted:
            return 0
        try:
            finished = build(modules, wanted)
        except BaseException:
            _write(FAILED, wanted)
            raise
    print("compile: finished" if finished else "compile: the sources changed while they compiled", flush=True)
    return 0


def clean() -> None:
    """Remove every compiled module of the package and the build folder."""
    with locked(wait=True):
        remove_placed()
        for name in ("c", "temp", STAGED.name):
            shutil.rmtree(BUILD / name, ignore_errors=True)
        for stamp in (BUILT, FAILED):
            stamp.unlink(missing_ok=True)


def _log_name() -> str:
    return str(LOG.relative_to(ROOT))


def _say_plain(missing: str) -> None:
    tr = speaker()
    print(tr("The rules run as plain Python, about half as fast: compiling them needs {missing}, which is "
             "missing.", missing=missing), flush=True)


def _say_compiling() -> None:
    tr = speaker()
    print(tr("The rules run as plain Python for now: they are compiling in the background (log: {log}); the next "
             "start runs them compiled.", log=_log_name()), flush=True)


def _say_still_compiling() -> None:
    tr = speaker()
    print(tr("The rules run as plain Python for now: they are still compiling in the background (log: {log}).",
             log=_log_name()), flush=True)


def _say_failed() -> None:
    tr = speaker()
    print(tr("The rules run as plain Python: compiling them failed (log: {log}).", log=_log_name()), flush=True)


def _say_compiled_in_background() -> None:
    tr = speaker()
    print(tr("The rules run compiled: they were compiled in the background."), flush=True)


def _say_compiled(count: int) -> None:
    tr = speaker()
    print(tr.n("Compiled {n} module of the rules.", "Compiled {n} modules of the rules.", count), flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--clean", action="store_true", help="remove compiled modules and run as plain Python")
    mode.add_argument("--background", action="store_true",
                      help="never wait: compile in a process of its own, put in place at the next run")
    mode.add_argument("--stage", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    os.chdir(ROOT)
    if args.clean:
        clean()
        return 0
    modules = listed_modules()
    if args.stage:
        return stage(modules)
    return compile_later(modules) if args.background else compile_now(modules)


if __name__ == "__main__":
    sys.exit(main())
