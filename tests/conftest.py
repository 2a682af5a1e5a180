"""Shared fixtures: the test-only High Card game is registered for every test session; the longest tests run first.

``make test`` runs the suite on two workers (pytest-xdist), which take tests in collection order. The whole games
played through a browser or the API take a minute or more each and are collected last (``tests/web``,
``tests/server``); run at the end, one of them keeps a worker busy long after the other is done. Started first,
the short tests fill in beside them.
"""

from __future__ import annotations

import pytest

from obelisk.core import registry
from tests.core.toy import HighCardGame

registry.register(HighCardGame)

LONG = (
    "tests/web/test_first_game.py::",
    "tests/web/test_play.py::test_two_players",
    "tests/web/test_board_solomon.py::",
    "tests/web/test_board_valley.py::test_a_game",
    "tests/web/test_board_valley.py::test_the_board_shows_only",
    "tests/web/test_board_tomb.py::",
    "tests/web/test_board_cleopatra.py::",
    "tests/server/test_replay.py::",
    "tests/server/test_record_proof.py::",
    "tests/server/test_games.py::test_a_full_game",
    "tests/server/test_undo.py::",
)
"""Tests (node id prefixes) that take a long time: whole games through a page or the server."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The database variants a test does not need left out (see ``one_database`` and ``databases_in_turn``);
    then the long tests first, in their own order, then the rest as collected."""
    dropped = [item for item in items if not _database_needed(item, items)]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        kept = set(map(id, dropped))
        items[:] = [item for item in items if id(item) not in kept]
    items.sort(key=lambda item: not item.nodeid.startswith(LONG))


def _database_needed(item: pytest.Item, items: list[pytest.Item]) -> bool:
    """Whether this database variant of a server test runs.

    Every test of storage, restarts, migrations and processes runs on SQLite and on PostgreSQL. A test of what
    the database plays no part in (wording, languages) is marked ``one_database`` and runs on SQLite only. A
    long matrix of whole games (game × language) is marked ``databases_in_turn``: its cases go to the two
    databases in turn, so each database plays every game and each language is played on both."""
    database = getattr(item, "callspec", None) and item.callspec.params.get("db_url")
    if database != "postgresql":
        return database is None or not item.get_closest_marker("databases_in_turn") or _turn(item, items) == 0
    if item.get_closest_marker("one_database"):
        return False
    return not item.get_closest_marker("databases_in_turn") or _turn(item, items) == 1


def _turn(item: pytest.Item, items: list[pytest.Item]) -> int:
    """0 or 1: the position of the item's case among its function's cases (database aside), in turn."""
    def case(other: pytest.Item) -> tuple[str, ...]:
        params = other.callspec.params
        return tuple(str(params[name]) for name in sorted(params) if name != "db_url")

    function = item.nodeid.split("[", 1)[0]
    cases = sorted({case(other) for other in items if other.nodeid.split("[", 1)[0] == function})
    return cases.index(case(item)) % 2
