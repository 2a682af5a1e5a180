"""Every tile of the almanac: inscriptions, items, obstacles, map, secret passage, dark shrine, chest, chamber."""

import pytest

from obelisk.core import CHANCE, IllegalActionError
from obelisk.games.tomb.actions import A_CURSE, A_STEP
from obelisk.games.tomb.board import ITEM_IDS
from obelisk.games.tomb.rules import CHEST_TAKE, CURSE, IN_CHAMBER, MAP_PICK, OVER, RESERVE, ROLL

from tests.games.tomb.helpers import cell, draw, figure, give, holds, labels, new, play, tile, turn


def test_inscription_is_read_when_passing_and_only_once() -> None:
    s = new()
    tile(s, "C2", "t junction with purple inscription", "NSW")
    figure(s, 0, "C1")
    turn(s, 0, 2, "C1")
    play(s, "step south to C2", "step south to C3")
    assert s.insc[0] == 1 << 4
    draw(s, "cross")
    assert s.insc[0] == 1 << 4


def test_item_taken_when_passing_marks_kind_discovered_once_per_player() -> None:
    s = new()
    figure(s, 0, "C1")
    turn(s, 0, 2, "C1")
    play(s, "step south to C2")
    draw(s, "corner with Food")
    play(s, "orient tile: openings N,E")
    assert s.discovered >> ITEM_IDS.index("food") & 1, "finding the tile turns the stack face up"
    play(s, "take the Food")
    assert holds(s, 0, "food") and s.supply[0] == 5
    s2 = new()
    tile(s2, "C2", "t junction with Water", "NEW")
    figure(s2, 0, "C1")
    give(s2, 0, "water")
    turn(s2, 0, 1, "C1")
    play(s2, "step south to C2")
    assert s2.supply[ITEM_IDS.index("water")] == 5, "a player holds at most one of each kind"


@pytest.mark.parametrize(
    "obstacle,protection",
    [("straight with Snake", "torch"), ("straight with Poison gas", "scarf"), ("straight with Trap", "plan")],
)
def test_kill_obstacles(obstacle: str, protection: str) -> None:
    s = new()
    figure(s, 0, "C1")
    turn(s, 0, 3, "C1")
    play(s, "step south to C2")
    draw(s, obstacle)
    assert s.fig[0] == RESERVE and s.player == 1 and s.phase == ROLL, "the archaeologist dies and the turn ends"
    s = new()
    figure(s, 0, "C1")
    give(s, 0, protection)
    turn(s, 0, 3, "C1")
    play(s, "step south to C2")
    draw(s, obstacle)
    assert s.fig[0] == cell("C2") and s.player == 0 and holds(s, 0, protection), "protected: keep going, keep item"


@pytest.mark.parametrize(
    "obstacle,shape,protection",
    [("straight with Hunger", "NS", "food"), ("corner with Fatigue", "NE", "chocolate"), ("corner with Thirst", "NE", "water")],
)
def test_end_turn_obstacles(obstacle: str, shape: str, protection: str) -> None:
    for protected in (False, True):
        s = new()
        tile(s, "C2", obstacle, shape)
        figure(s, 0, "C1")
        if protected:
            give(s, 0, protection)
        turn(s, 0, 4, "C1")
        play(s, "step south to C2")
        assert s.fig[0] == cell("C2")
        assert (s.player == 0) == protected


def test_cannot_enter_obstacle_revealed_stops_the_turn_and_blocks_later() -> None:
    s = new(2, pyramid="big")
    tile(s, "C1", "cross", "NESW")
    figure(s, 0, "C1")
    figure(s, 1, "C1")
    turn(s, 0, 4, "C1")
    play(s, "step south to C2")
    draw(s, "straight with Collapsed walls")
    assert s.fig[0] == cell("C1") and s.kind[cell("C2")] >= 0
    assert s.fig[3] == RESERVE, "blocked on a shared square: the ambush still happens (ruling 6)"
    turn(s, 0, 2, "C1")
    assert "step south to C2" not in labels(s)
    with pytest.raises(IllegalActionError, match="needs the Magic flask"):
        s.apply_action(A_STEP + 2)
    give(s, 0, "magic_flask")
    s._legal = None
    assert "step south to C2" in labels(s)


def test_map_reveals_any_face_down_tile_with_free_orientation() -> None:
    s = new()
    figure(s, 0, "C1")
    turn(s, 0, 1, "C1")
    play(s, "step south to C2")
    draw(s, "t junction with map")
    play(s, "orient tile: openings N,S,W")
    assert s.phase == MAP_PICK and len(labels(s)) == 48 and labels(s)[-1] == "leave the map unused"
    play(s, "use the map: reveal F6")
    draw(s, "corner")
    assert labels(s) == [f"orient tile: openings {o}" for o in ("N,E", "E,S", "N,W", "S,W")]
    play(s, "orient tile: openings S,W")
    assert s.opn[cell("F6")] == 12 and s.player == 1


def test_map_tile_entered_again_does_nothing() -> None:
    s = new()
    tile(s, "C2", "t junction with map", "NEW")
    figure(s, 0, "C1")
    turn(s, 0, 1, "C1")
    play(s, "step south to C2")
    assert s.player == 1


def test_secret_passage_jumps_between_revealed_passages() -> None:
    s = new(2, pyramid="big")
    tile(s, "C3", "dead end with secret passage", "N")
    tile(s, "G7", "corner with secret passage", "NE")
    tile(s, "C2", "straight", "NS")
    figure(s, 0, "C2")
    turn(s, 0, 3, "C2")
    play(s, "step south to C3")
    assert labels(s) == ["take the secret passage to G7"]
    play(s, "take the secret passage to G7")
    assert s.fig[0] == cell("G7") and s.steps == 2 and "take the secret passage to C3" not in labels(s)


def test_dark_shrine_places_and_moves_the_curse() -> None:
    s = new(2, pyramid="big")
    tile(s, "C2", "straight", "NS")
    tile(s, "D2", "straight", "EW")
    tile(s, "G7", "straight", "EW")
    figure(s, 0, "C2")
    figure(s, 1, "D2")
    turn(s, 0, 1, "C2")
    play(s, "step south to C3")
    draw(s, "t junction with dark shrine")
    play(s, "orient tile: openings N,E,S")
    assert s.phase == CURSE and labels(s) == ["put the curse on C2", "put the curse on G7"], "free revealed tiles"
    with pytest.raises(IllegalActionError, match="occupied"):
        s.apply_action(A_CURSE + cell("D2"))
    play(s, "put the curse on C2")
    assert s.curse == cell("C2")
    turn(s, 0, 1, "C3")
    assert "step north to C2" not in labels(s), "the cursed tile cannot be entered"
    s.tasks.append((2,))
    s._settle()
    assert labels(s) == ["put the curse on G7"] or s.curse == cell("G7"), "the curse moves to another tile"


def test_chest_fills_on_first_entry_and_is_never_refilled() -> None:
    s = new(3, pyramid="big")
    tile(s, "C2", "straight", "NS")
    figure(s, 0, "C2")
    give(s, 0, "food")
    turn(s, 0, 1, "C2")
    play(s, "step south to C3")
    draw(s, "dead end with chest")
    assert s.phase == CHEST_TAKE and s.chest_filled
    assert sum(s.chest) == 11 and s.supply[0] == 4
    assert "take Food from the chest" not in labels(s)
    play(s, "take Torch from the chest")
    assert holds(s, 0, "torch") and s.chest[ITEM_IDS.index("torch")] == 0
    play(s, "end turn")
    figure(s, 1, "C2")
    turn(s, 1, 1, "C2")
    play(s, "step south to C3")
    assert s.phase == CHEST_TAKE and sum(s.chest) == 10 and "take Torch from the chest" not in labels(s)


def test_chamber_closed_until_five_inscriptions_then_open_for_all() -> None:
    s = new(3)
    tile(s, "E4", "cross", "NESW")
    tile(s, "D5", "cross", "NESW")
    figure(s, 0, "E4")
    figure(s, 1, "D5")
    figure(s, 2, "D5")
    turn(s, 0, 1, "E4")
    with pytest.raises(IllegalActionError, match="closed: player 1 holds 0 of the 5 inscriptions"):
        s.apply_action(A_STEP + 2)
    s.insc[0] = 0b11111
    s._legal = None
    play(s, "step south to E5")
    assert s.chamber_open and s.finished == [0] and s.fig[:3] == [IN_CHAMBER] * 3 and s.player == 1
    turn(s, 1, 4, "D5")
    play(s, "step east to E5")
    assert s.finished == [0, 1] and s.player == 2, "leftover steps are lost; the open chamber needs no inscriptions"
    turn(s, 2, 1, "D5")
    play(s, "step east to E5")
    assert s.phase == OVER and s.returns() == [1.0, 0.0, -1.0]


def test_closed_chamber_needs_an_opening_or_the_adjacent_option() -> None:
    for entry, allowed in (("opening", False), ("adjacent", True)):
        s = new(2, chamber_entry=entry)
        tile(s, "E4", "straight", "EW")
        figure(s, 0, "E4")
        s.insc[0] = 0b11111
        turn(s, 0, 1, "E4")
        assert ("step south to E5" in labels(s)) == allowed


def test_reveal_is_a_chance_node_over_the_face_down_pool() -> None:
    s = new()
    figure(s, 0, "C1")
    turn(s, 0, 1, "C1")
    play(s, "step south to C2")
    assert s.current_player() == CHANCE
    outcomes = s.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-12 and len(outcomes) == len(s.game.tables.pool)
    assert dict(outcomes)[6 + 0] == pytest.approx(1 / 48)


@pytest.mark.parametrize(
    "obstacle,protection",
    [
        ("straight with Collapsed walls", "magic_flask"),
        ("straight with Mysterious doors", "golden_key"),
        ("straight with Bottomless chasm", "papyrus_of_the_dead"),
    ],
)
def test_cannot_enter_obstacles_are_entered_with_their_item(obstacle: str, protection: str) -> None:
    s = new(2, pyramid="big")
    tile(s, "C1", "cross", "NESW")
    figure(s, 0, "C1")
    give(s, 0, protection)
    turn(s, 0, 2, "C1")
    play(s, "step south to C2")
    draw(s, obstacle)
    assert s.fig[0] == cell("C2") and holds(s, 0, protection) and s.player == 0


def test_evaluation_routes_round_deadly_tiles_the_seat_is_not_protected_against() -> None:
    s = new()
    tile(s, "C2", "straight with Snake", "NS")
    tile(s, "C3", "cross with red inscription", "NESW")
    figure(s, 0, "C1")
    figure(s, 1, "C1")
    give(s, 0, "torch")
    give(s, 1, "food")
    value = s.evaluate()
    assert value[0] > value[1], "the snake on C2 is a wall to seat 1, which has no torch"
    s.items[1] = s.items[0]
    value = s.evaluate()
    assert value[0] == value[1]
