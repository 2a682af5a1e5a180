"""The simulation's account of why a game stopped by the round cap could never have ended."""

import importlib.util
from pathlib import Path

from tests.games.tomb.helpers import new, tile

_SPEC = importlib.util.spec_from_file_location(
    "tomb_data", Path(__file__).resolve().parents[3] / "benchmarks" / "tomb_data.py"
)
tomb_data = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(tomb_data)

PREVIOUS = "obelisk/games/tomb/tomb_rebalanced.json"


def _causes(state) -> list[str]:
    return tomb_data.never_ends(state.game, state.observation(None))


def test_a_fresh_game_can_end() -> None:
    assert _causes(new(4)) == []


def test_a_colour_whose_only_tile_is_walled_off() -> None:
    """H2 touches the outer wall on its north and east sides, which never open toward it."""
    s = new(2, data=PREVIOUS)
    tile(s, "H2", "corner with blue inscription", "NE")
    assert _causes(s) == ["blue lies on H2 behind walls"]


def test_a_chamber_all_four_neighbours_turn_away_from() -> None:
    s = new(2)
    for square, openings in (("D5", "NSW"), ("F5", "NES"), ("E4", "NEW"), ("E6", "ESW")):
        tile(s, square, "t junction", openings)
    assert _causes(s) == ["the chamber cannot be reached"]
    s.chamber_open = True
    assert _causes(s) == ["the open chamber cannot be reached"]
