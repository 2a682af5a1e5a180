"""The game loads in both pyramids and random games finish."""

import obelisk
from obelisk.core import testing


def test_both_pyramids_play_to_the_end() -> None:
    for pyramid in ("small", "big"):
        game = obelisk.load("tomb", 3, pyramid=pyramid)
        state = testing.random_playout(game, 7)
        assert state.is_terminal()
