"""Rulings where the rulebook is silent (numbers as in docs/games/tomb.md) and edge cases."""

import json
import random

import pytest

from obelisk.games.tomb.board import ITEM_IDS
from obelisk.games.tomb.rules import MAP_PICK, MOVE, RESERVE

from tests.games.tomb.helpers import cell, draw, figure, give, holds, kind, labels, new, play, tile, turn


def test_rulebook_second_movement_example() -> None:
    """Behind a wall: no; diagonal: never; the square just left: no; a revealed or a face-down square: yes."""
    s = new()
    tile(s, "C2", "cross", "NESW")
    tile(s, "D2", "t junction", "NEW")
    tile(s, "B2", "straight", "NS")
    figure(s, 0, "C1")
    turn(s, 0, 3, "C1")
    play(s, "step south to C2")
    assert labels(s) == ["step east to D2", "step south to C3"]


def test_big_pyramid_corner_revealed_from_the_entrance_opens_outward() -> None:
    s = new(2, pyramid="big")
    turn(s, 0, 3)
    play(s, "enter at the north-west entrance", "step in from the NW entrance to A1")
    draw(s, "corner")
    assert labels(s) == ["orient tile: openings N,E", "orient tile: openings N,W", "orient tile: openings S,W"]


def test_ambush_at_an_entrance() -> None:
    s = new()
    figure(s, 1, "NE")
    give(s, 1, "torch")
    turn(s, 0, 1)
    play(s, "enter at the north-east entrance", "rob Torch from player 2")
    assert holds(s, 0, "torch") and s.fig[3] == RESERVE


def test_exhausted_supply_gives_nothing() -> None:
    s = new(6)
    tile(s, "C2", "corner with Food", "NE")
    s.supply[ITEM_IDS.index("food")] = 0
    figure(s, 0, "C1")
    turn(s, 0, 1, "C1")
    play(s, "step south to C2")
    assert not holds(s, 0, "food")


def test_another_plan_swap_drops_earlier_knowledge() -> None:
    s = new(2)
    c3, d4 = cell("C3"), cell("D4")
    s.pool[kind(s, "cross")] -= 1
    s.pool[kind(s, "corner")] -= 1
    s.assigned = {c3: kind(s, "cross"), d4: kind(s, "corner")}
    s.knowers = {c3: [0], d4: [0]}
    give(s, 1, "plan")
    turn(s, 1, 2)
    play(s, "study the plan: look at two face-down tiles", "look at the face-down tile on C3")
    assert s.knowers[c3] == [0, 1] and s.current_player() == 1, "a looked-at tile needs no new draw"
    play(s, "look at the face-down tile on D4", "put the tiles on C3 and D4 back unchanged")
    assert s.knowers == {c3: [1], d4: [1]} and s.observation(0)["known"] == {}


def test_ghost_walk_restrictions() -> None:
    s = new(2, pyramid="big")
    tile(s, "C1", "cross", "NESW")
    tile(s, "D1", "straight", "EW")
    figure(s, 0, "C1")
    give(s, 0, "papyrus_of_the_dead", "torch", "plan", "food")
    s.curse = cell("D1")
    turn(s, 0, 3, "C1")
    play(s, "read the papyrus of the dead: ghost walk")
    options = labels(s)
    assert "step east to D1 (ghost)" not in options, "not even a ghost enters the cursed tile"
    assert not any("torch" in o or "plan" in o for o in options), "no items acting on the surroundings"
    assert "eat food: die to 6" in options


def test_flask_only_where_a_wall_blocks() -> None:
    s = new(2, pyramid="big")
    tile(s, "C2", "cross", "NESW")
    tile(s, "D2", "cross", "NESW")
    tile(s, "B2", "straight", "NS")
    figure(s, 0, "C2")
    give(s, 0, "magic_flask")
    turn(s, 0, 2, "C2")
    flask = [o for o in labels(s) if "flask" in o]
    assert flask == ["use the magic flask: through the wall west to B2"]


def test_key_may_turn_the_own_square_even_when_shared() -> None:
    s = new(2, pyramid="big")
    tile(s, "C2", "straight", "NS")
    figure(s, 0, "C2")
    figure(s, 1, "C2")
    give(s, 0, "golden_key")
    turn(s, 0, 2, "C2")
    play(s, "use the golden key on C2")
    assert s.opn[cell("C2")] == 10 and s.phase == MOVE, "a straight has one other orientation: applied at once"


def test_map_revealing_a_map_chains() -> None:
    s = new()
    figure(s, 0, "C1")
    turn(s, 0, 1, "C1")
    play(s, "step south to C2")
    draw(s, "t junction with map")
    play(s, "orient tile: openings N,S,W", "use the map: reveal F6")
    draw(s, "t junction")
    play(s, "orient tile: openings N,E,W")
    assert s.player == 1
    s2 = new(2, pyramid="big")
    tile(s2, "C1", "straight", "NS")
    figure(s2, 0, "C1")
    turn(s2, 0, 1, "C1")
    play(s2, "step south to C2")
    draw(s2, "t junction with map")
    play(s2, "orient tile: openings N,S,W", "use the map: reveal F6")
    draw(s2, "t junction with map")
    play(s2, "orient tile: openings N,E,W")
    assert s2.phase == MAP_PICK, "a map flipped by a map acts too (ruling 10)"


def test_resampled_states_stay_consistent() -> None:
    s = new(3)
    give(s, 0, "plan")
    turn(s, 0, 2)
    play(s, "study the plan: look at two face-down tiles", "look at the face-down tile on C3")
    s.apply_action(6 + kind(s, "corner with Food"))
    rng = random.Random(3)
    for seat in range(3):
        other = s.resample_from_infostate(seat, rng)
        assert sum(other.pool) + len(other.assigned) == 48


def test_a_loaded_state_must_match_its_replayed_history() -> None:
    s = new(2)
    doc = s.to_json()
    state = doc["state"]["#d"]
    for pair in state:
        if pair[0] == "pool":
            pair[1][0] += 1
    with pytest.raises(ValueError, match="field 'pool'\\[0\\] is 2, expected 1 \\(from replaying the history\\)"):
        s.game.state_from_json(json.dumps(doc))

