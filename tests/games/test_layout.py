"""Every game folder has one shape, so a reader who knows one game knows where to look in the others.

The modules of a folder, from the bottom up; a module imports only modules listed before it in its
game's order (and ``obelisk.core``), counting every import statement, also those inside functions, so there is no import cycle inside a game.
The one exception is a block under ``if TYPE_CHECKING:``, which never runs: there a helper module may name the
game's ``<Id>State`` for its type hints (``state: CleopatraState``):

- ``data.py`` + ``<id>.json`` — the components: loading, validation, frozen tables
  (alternative shipped mixes are ``<id>_<variant>.json``);
- ``rules.py`` — constants named after the rulebook, the typed ``Rules`` a position reads on every
  step, and pure rule helpers;
- ``actions.py`` — the action ranges, their labels and parsing, and why an action is illegal;
- ``scoring.py`` — final scores, ranks and tie-breaks, and the evaluation the bots use;
- ``view.py`` — ``observation(seat)`` and the terminal text drawn from it;
- ``status.py`` — what a table says in words: the decision at hand and the progress (from a view), the
  shortcuts (several decisions in one answer) and the outcome's reasons (from the final position);
- ``tensor.py`` — the fixed-size numeric encoding of an observation;
- ``state.py`` — the ``<Id>State``: plain fields, turn flow, legal actions, effects, chance, re-deals;
- ``game.py`` — the ``<Id>Game``: options, sizes, new states;
- ``__init__.py`` — the rules in brief and the registration.

Besides modules, a game folder may hold ``locale/`` (its message catalogs, ``cs.po``) and ``web/``
(its board for the browser, ``board.js``).

A game with a concern the others lack has one extra module, placed in its order: the maze geometry
of ``tomb`` (``board.py``) and the card effects of ``valley`` (``effects.py``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import obelisk
from obelisk import games

GAMES = Path(obelisk.__file__).resolve().parent / "games"
ORDER = ["data", "rules", "actions", "scoring", "view", "status", "tensor", "state", "game", "__init__"]
EXTRAS: dict[str, dict[str, str]] = {"tomb": {"board": "data"}, "valley": {"effects": "game"}}
"""Each extra module and the module of the common order that it comes just before."""
FOLDERS = ("locale", "web")
"""The only sub-folders: the game's message catalogs and its board for the browser."""


def order_of(game_id: str) -> list[str]:
    order = list(ORDER)
    for extra, before in EXTRAS.get(game_id, {}).items():
        order.insert(order.index(before), extra)
    return order


def imports_in_folder(path: Path, game_id: str) -> set[str]:
    """The modules of the same game folder that a module imports when it runs."""
    return imports_in_source(path.read_text(encoding="utf-8"), game_id)


def _type_checking_only(tree: ast.AST) -> set[int]:
    """The ids of the nodes under ``if TYPE_CHECKING:`` (not its ``else``): imports there never run."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            for statement in node.body:
                skipped.update(id(inner) for inner in ast.walk(statement))
    return skipped


def imports_in_source(source: str, game_id: str) -> set[str]:
    """The modules of the folder of ``game_id`` that ``source`` names in an import statement that runs."""
    package = f"obelisk.games.{game_id}"
    named: set[str] = set()
    tree = ast.parse(source)
    skipped = _type_checking_only(tree)
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            if target.startswith(package + "."):
                named.add(target[len(package) + 1 :].split(".")[0])
            elif target == package:
                named.add("__init__")
    return named


def test_only_type_checking_imports_may_point_up() -> None:
    """A state class named for type hints is allowed; the same import run at import time, in a function or in
    the ``else`` of the guard is still seen."""
    hint = "from obelisk.games.tomb.state import TombState"
    guarded = f"from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    {hint}\n"
    assert imports_in_source(guarded, "tomb") == set()
    assert imports_in_source(guarded.replace("if TYPE_CHECKING", "if typing.TYPE_CHECKING"), "tomb") == set()
    assert imports_in_source(f"{hint}\n", "tomb") == {"state"}
    assert imports_in_source(f"def f() -> None:\n    {hint}\n", "tomb") == {"state"}
    assert imports_in_source(f"{guarded}else:\n    from obelisk.games.tomb.game import TombGame\n", "tomb") == {"game"}
    assert imports_in_source("if DEBUG:\n    from obelisk.games.tomb.state import TombState\n", "tomb") == {"state"}


@pytest.mark.parametrize("game_id", games.shipped())
def test_game_folder_has_the_common_shape(game_id: str) -> None:
    folder = GAMES / game_id
    modules = sorted(p.stem for p in folder.glob("*.py"))
    assert modules == sorted(order_of(game_id)), f"{game_id}: modules {modules}"
    data_files = sorted(p.name for p in folder.glob("*.json"))
    assert f"{game_id}.json" in data_files
    assert all(name == f"{game_id}.json" or name.startswith(f"{game_id}_") for name in data_files), data_files
    folders = [p.name for p in folder.iterdir() if p.is_dir() and p.name not in ("__pycache__", *FOLDERS)]
    assert not folders, f"only {', '.join(FOLDERS)} as sub-folders"


@pytest.mark.parametrize("game_id", games.shipped())
def test_imports_point_down_only(game_id: str) -> None:
    order = order_of(game_id)
    for module in order:
        rank = order.index(module)
        for target in imports_in_folder(GAMES / game_id / f"{module}.py", game_id):
            assert target in order, f"{game_id}/{module}.py imports unknown module {target}"
            assert order.index(target) < rank, f"{game_id}/{module}.py imports {target}.py, which comes after it"


@pytest.mark.parametrize("game_id", games.shipped())
def test_game_and_state_classes_live_in_their_modules(game_id: str) -> None:
    title = game_id.capitalize()
    game_tree = ast.parse((GAMES / game_id / "game.py").read_text(encoding="utf-8"))
    state_tree = ast.parse((GAMES / game_id / "state.py").read_text(encoding="utf-8"))
    assert f"{title}Game" in {n.name for n in game_tree.body if isinstance(n, ast.ClassDef)}
    assert f"{title}State" in {n.name for n in state_tree.body if isinstance(n, ast.ClassDef)}


@pytest.mark.parametrize("game_id", games.shipped())
def test_a_game_imports_only_the_core_and_itself(game_id: str) -> None:
    for path in (GAMES / game_id).glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
            for name in names:
                if name.startswith("obelisk"):
                    assert name.startswith(("obelisk.core", f"obelisk.games.{game_id}")), f"{path.name} imports {name}"


TESTS = Path(__file__).resolve().parent
TEST_SUPPORT = {"__init__.py", "helpers.py", "privacy.py", "playout_digests.json"}
"""The non-test files a game's test folder may hold: its shared helpers and its kept digests."""


@pytest.mark.parametrize("game_id", games.shipped())
def test_a_games_tests_follow_one_naming(game_id: str) -> None:
    """``tests/games/ID/test_TOPIC.py`` (the folder names the game, the file its topic) and ``helpers.py``."""
    folder = TESTS / game_id
    names = sorted(p.name for p in folder.iterdir() if p.name != "__pycache__")
    stray = [n for n in names if n not in TEST_SUPPORT and not (n.startswith("test_") and n.endswith(".py"))]
    assert not stray, f"tests/games/{game_id}: {stray} are neither test_TOPIC.py nor {sorted(TEST_SUPPORT)}"
    prefixed = [n for n in names if n.startswith(f"test_{game_id}_")]
    assert not prefixed, f"tests/games/{game_id}: {prefixed} repeat the game's id the folder already names"


STATE_SECTIONS = ("setup", "queries", "legal actions", "applying actions", "views, scoring and hidden information")
"""The section banners (``    # --- setup ---``) of every ``state.py``, in this order: a reader who knows where a
concern sits in one game's position finds it at the same place in the others."""


@pytest.mark.parametrize("game_id", games.shipped())
def test_every_state_has_the_same_sections_in_order(game_id: str) -> None:
    text = (GAMES / game_id / "state.py").read_text(encoding="utf-8")
    banners = [line.strip()[len("# --- ") : -len(" ---")] for line in text.splitlines()
               if line.strip().startswith("# --- ") and line.strip().endswith(" ---")]
    assert tuple(banners) == STATE_SECTIONS, f"{game_id}/state.py sections {banners}"
