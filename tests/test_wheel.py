"""A built wheel is the whole product: installed into a clean environment it serves tables and plays.

The wheel is built from a copy of this checkout's package, as ``pip install .`` would build it (with a
compiled module beside its source, which the wheel must leave out: it is plain Python), with the test
environment's setuptools and no network. It is
installed without its dependencies into a new virtual environment that borrows the test environment's
installed libraries through a path file, but not this checkout: everything ``obelisk`` reads at run
time (component data, catalogs, board scripts, pages, migrations) must come from the wheel.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import site
import subprocess
import sys
import sysconfig
import venv
import zipfile
from collections.abc import Iterator
from pathlib import Path

import httpx2 as httpx
import pytest

from tests.server.servers import Server

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "obelisk"
NOT_COPIED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
COMPILED = "obelisk/core/protocol.cpython-311-x86_64-linux-gnu.so"
"""A compiled module as ``tools/compile.py`` leaves one beside its source; a wheel must not take it."""

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("setuptools") is None or importlib.util.find_spec("pip") is None,
    reason="building the wheel offline needs pip and setuptools in the test environment (make test installs them)",
)


def _run(*command: str | Path, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``command`` with this checkout off the path; fails the test with its output if it fails."""
    env = {name: value for name, value in os.environ.items() if name not in ("PYTHONPATH", "PIP_FIND_LINKS")}
    done = subprocess.run([str(part) for part in command], cwd=cwd, env=env, input=stdin, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, f"{command} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel of a copy of the checkout, as ``pip install .`` builds it, compiled rules beside the sources."""
    folder = tmp_path_factory.mktemp("wheel")
    source = folder / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    shutil.copytree(PACKAGE, source / "obelisk", ignore=NOT_COPIED)
    (source / COMPILED).write_bytes(b"not a library")
    _run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "--no-index",
         "--wheel-dir", folder / "dist", source, cwd=folder)
    (built,) = (folder / "dist").glob("obelisk-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new environment with the wheel installed: its ``bin`` folder."""
    home = tmp_path_factory.mktemp("environment")
    venv.EnvBuilder(with_pip=False).create(home)
    python = home / "bin" / "python"
    own = Path(_run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=home).stdout.strip())
    # The test environment's libraries, as plain path entries: its path files (the editable install of
    # this checkout among them) are not run from there.
    borrowed = [path for path in [*site.getsitepackages(), sysconfig.get_paths()["purelib"]] if Path(path).is_dir()]
    (own / "borrowed_libraries.pth").write_text("".join(f"{path}\n" for path in dict.fromkeys(borrowed)))
    _run(sys.executable, "-m", "pip", "--python", python, "install", "--quiet", "--no-deps", "--no-index", wheel,
         cwd=home)
    return home / "bin"


def _shipped(package: Path) -> Iterator[str]:
    """The files of the package that are not Python, as wheel paths."""
    for path in sorted(package.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix not in (".py", ".pyc", ".so", ".pyd"):
            yield path.relative_to(package.parent).as_posix()


def test_every_file_the_package_reads_is_in_the_wheel_and_no_compiled_rules(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    data = list(_shipped(PACKAGE))
    assert "obelisk/server/static/table.html" in data and "obelisk/games/valley/web/board.js" in data
    assert [name for name in data if name not in names] == []
    assert [name for name in names if name.endswith((".so", ".pyd", ".pyc"))] == []
    sources = {path.relative_to(ROOT).as_posix() for path in PACKAGE.rglob("*.py") if "__pycache__" not in path.parts}
    assert sorted(sources - names) == []


def test_the_installed_command_runs_from_the_wheel_alone(installed: Path, tmp_path: Path) -> None:
    where = _run(installed / "python", "-c", "import obelisk; print(obelisk.__file__)", cwd=tmp_path).stdout
    assert Path(where.strip()).is_relative_to(installed.parent), where
    rules = _run(installed / "obelisk", "rules", "valley", "--lang", "cs", cwd=tmp_path).stdout
    assert "Údolí králů" in rules
    record = tmp_path / "game.json"
    played = _run(installed / "obelisk", "play", "valley", "--seats", "you,greedy", "--seed", "3", "--save", record,
                  cwd=tmp_path, stdin="1\nq\n")
    assert "player 1" in played.stdout and record.is_file()
    _run(installed / "obelisk", "replay", record, "--player", "1", cwd=tmp_path, stdin="e\nq\n")


def test_the_installed_command_serves_a_table(installed: Path, tmp_path: Path) -> None:
    with Server(f"sqlite:///{tmp_path / 'tables.db'}", command=[str(installed / "obelisk")], cwd=tmp_path) as server:
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}]
        created = httpx.post(f"{server.url}/api/tables", json={"game": "valley", "players": 2, "seats": seats},
                             timeout=30)
        assert created.status_code == 201, created.text
        table, invite = created.json()["table"]["id"], created.json()["tokens"]["0"]
        claimed = httpx.post(f"{server.url}/api/tables/{table}/claim", json={"token": invite, "name": "Ann"}, timeout=30)
        assert claimed.status_code == 200, claimed.text
        token = claimed.json()["token"]
        frame = httpx.get(f"{server.url}/api/tables/{table}/frame", timeout=30,
                          headers={"Authorization": f"Bearer {token}"}).json()
        assert frame["legal"] and frame["version"] >= 0
        page = httpx.get(f"{server.url}/table/{table}", timeout=30)
        assert page.status_code == 200 and "<html" in page.text.lower()
        for path in ("/static/table.js", "/static/style.css", "/games/valley/board.js", "/games/valley/board.css"):
            answer = httpx.get(server.url + path, timeout=30)
            assert answer.status_code == 200 and len(answer.content) > 500, path
        czech = httpx.get(f"{server.url}/api/messages/cs/valley", timeout=30).json()
        assert czech["lang"] == "cs" and czech["messages"] and czech["terms"]
    assert "Traceback" not in server.log()
