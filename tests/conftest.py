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
    """The long tests first, in their own order, then the rest as collected."""
    items.sort(key=lambda item: not item.nodeid.startswith(LONG))
