"""The evaluation's pull toward ending the game: the last seat outside heads for the chamber, and walling off a
face-down square that may hold an inscription costs the seats that still lack it."""

import pytest

from obelisk.bots import make_bot
from obelisk.games.tomb.rules import IN_CHAMBER
from obelisk.games.tomb.scoring import LAST_DIP

from tests.games.tomb.helpers import figure, new, play, tile, turn


def _last_outside(square: str):
    """Four players, seats 0-2 in the open chamber, seat 3 on ``square`` of a corridor E2-E3-E4 above it."""
    s = new(4)
    tile(s, "E2", "cross", "NESW")
    tile(s, "E3", "cross", "NESW")
    tile(s, "E4", "cross", "NESW")
    s.chamber_open = True
    s.finished = [0, 1, 2]
    for done in (0, 1, 2):
        s.fig[3 * done : 3 * done + 3] = [IN_CHAMBER] * 3
    figure(s, 3, square)
    return s


def test_the_last_seat_outside_is_valued_by_its_way_to_the_chamber() -> None:
    """Its place is fixed, yet nearer the chamber is worth more, and entering (-1) stays worth the most."""
    far, near = _last_outside("E2").evaluate()[3], _last_outside("E4").evaluate()[3]
    assert -1.0 - LAST_DIP <= far < near < -1.0


@pytest.mark.parametrize("seed", range(4))
def test_the_last_seat_outside_steps_toward_the_chamber(seed: int) -> None:
    """With a 1 it could step either way along the corridor; the greedy bot steps toward the chamber."""
    s = _last_outside("E3")
    turn(s, 3, 1, "E3")
    chosen = make_bot("greedy", s.game, 3, seed=seed).choose(s)
    assert s.action_to_string(chosen) == "step south to E4"


def test_walling_off_a_face_down_square_costs_the_colours_still_face_down() -> None:
    """B2 touches the outer wall on two sides; with C2 and B3 turned away no figure can ever reach it, and any
    inscription drawn there is lost (one tile per colour in the previous mix). Seat 0 lacks all five colours,
    seat 1 only one, so the wall costs seat 0 more."""
    values = []
    for c2 in ("NW", "NE"):
        s = new(2, data="obelisk/games/tomb/tomb_rebalanced.json")
        s.insc[1] = 0b01111
        tile(s, "C2", "corner", c2)
        tile(s, "B3", "straight", "EW")
        values.append(s.evaluate()[0])
    reachable, walled = values
    assert walled < reachable
