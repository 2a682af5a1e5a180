"""Shared fixtures: the test-only High Card game is registered for every test session."""

from obelisk.core import registry
from tests.core.toy import HighCardGame

registry.register(HighCardGame)
