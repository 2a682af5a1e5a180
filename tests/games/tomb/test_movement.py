"""Turn structure and movement: entrances, walls, no backtracking, reveals, compulsory movement."""

import pytest

from obelisk.core import CHANCE, IllegalActionError
from obelisk.games.tomb.actions import A_ORIENT, A_STEP
from obelisk.games.tomb.board import mask_of
from obelisk.games.tomb.rules import MOVE, ORIENT, RESERVE, ROLL, SELECT

from tests.games.tomb.helpers import cell, draw, figure, give, labels, new, play, tile, turn


def test_setup_small_and_big() -> None:
    small = new(4)
    assert small.kind.count(-1) == 48 and sum(small.pool) == 48
    assert small.kind[cell("E5")] == small.game.tables.chamber_kind
    assert all(small.kind[c] == small.game.tables.wall_kind for c in (cell("A1"), cell("I9"), cell("E1")))
    assert small.game.tables.needed == 5 and len(small.game.tables.colours) == 5
    assert [i for i in range(11) if small.supply[i]] == list(range(8)), "the 3 blue-border items stay out"
    big = new(4, pyramid="big")
    assert big.kind.count(-1) == 80 and len(big.game.tables.colours) == 7 and all(big.supply)
    assert new(2, pyramid="big", all_inscriptions=True).game.tables.needed == 7
    assert all(p == RESERVE for p in small.fig) and small.current_player() == CHANCE


def test_roll_then_enter_at_any_corner_counts_as_first_step() -> None:
    s = new()
    assert s.chance_outcomes() == [(i, 1 / 6) for i in range(6)]
    s.apply_action(2)
    assert s.phase == SELECT and s.die == 3
    assert labels(s) == [f"enter at the {e} entrance"
                         for e in ("north-west", "north-east", "south-west", "south-east")]
    play(s, "enter at the north-west entrance")
    assert s.steps == 1 and labels(s) == ["step in from the NW entrance to A1"]
    play(s, "step in from the NW entrance to A1")
    assert sorted(labels(s)) == ["step east to B1", "step south to A2"]
    play(s, "step east to B1")
    assert s.phase == ROLL and s.player == 1 and s.fig[0] == cell("B1")


def test_roll_of_one_leaves_the_figure_at_the_entrance() -> None:
    s = new()
    turn(s, 0, 1)
    play(s, "enter at the south-east entrance")
    assert s.player == 1 and s.fig[0] == 84
    turn(s, 0, 2, "SE")
    play(s, "step in from the SE entrance to I9")
    assert s.fig[0] == cell("I9")


def test_no_straight_backtracking_and_walls() -> None:
    s = new()
    figure(s, 0, "B1")
    turn(s, 0, 3, "B1")
    play(s, "step east to C1")
    options = labels(s)
    assert "step west to B1" not in options, "the square just left is barred"
    assert "step east to D1" in options and "step south to C2" in options
    with pytest.raises(IllegalActionError, match="straight back to B1"):
        s.apply_action(A_STEP + 3)  # west
    with pytest.raises(IllegalActionError, match="no square north of C1"):
        s.apply_action(A_STEP + 0)
    s = new()
    figure(s, 0, "B1")
    turn(s, 0, 2, "B1")
    before = s.to_json()
    with pytest.raises(IllegalActionError, match="wall: B1 has no opening to the south"):
        s.apply_action(A_STEP + 2)
    assert s.to_json() == before


def test_backtrack_ban_resets_next_turn() -> None:
    s = new()
    figure(s, 0, "B1")
    turn(s, 0, 1, "B1")
    play(s, "step east to C1")
    turn(s, 0, 1, "C1")
    assert "step west to B1" in labels(s)


def test_rulebook_l_tile_example_two_orientations_then_must_enter() -> None:
    s = new()
    figure(s, 0, "C1")
    turn(s, 0, 1, "C1")
    play(s, "step south to C2")
    assert s.current_player() == CHANCE
    draw(s, "corner")
    assert s.phase == ORIENT
    assert labels(s) == ["orient tile: openings N,E", "orient tile: openings N,W"]
    with pytest.raises(IllegalActionError, match="opens toward the square you come from"):
        s.apply_action(A_ORIENT + mask_of("ES"))
    play(s, "orient tile: openings N,E")
    assert s.fig[0] == cell("C2") and s.player == 1


def test_single_orientation_is_applied_at_once() -> None:
    s = new()
    figure(s, 0, "C1")
    turn(s, 0, 1, "C1")
    play(s, "step south to C2")
    draw(s, "cross")
    assert s.fig[0] == cell("C2") and s.opn[cell("C2")] == 15


def test_movement_is_compulsory_and_ends_in_a_dead_end() -> None:
    s = new()
    tile(s, "C2", "dead end", "N")
    figure(s, 0, "B1")
    turn(s, 0, 5, "B1")
    play(s, "step east to C1")
    assert "end turn" not in labels(s)
    play(s, "step south to C2")
    assert s.player == 1 and s.fig[0] == cell("C2"), "no legal step left: movement ends early"


def test_scarf_allows_walking_back_out_of_a_dead_end() -> None:
    s = new()
    tile(s, "C2", "dead end", "N")
    figure(s, 0, "C1")
    give(s, 0, "scarf")
    turn(s, 0, 3, "C1")
    play(s, "step south to C2")
    assert s.phase == MOVE and labels(s) == ["end turn", "wear the scarf: stepping back allowed this turn"]
    play(s, "wear the scarf: stepping back allowed this turn", "step north to C1")
    assert s.fig[0] == cell("C1") and "step south to C2" in labels(s)


def test_other_figures_do_not_block_and_passing_is_no_ambush() -> None:
    s = new()
    figure(s, 0, "A1")
    figure(s, 1, "B1")
    give(s, 1, "torch")
    turn(s, 0, 2, "A1")
    play(s, "step east to B1", "step east to C1")
    assert s.fig[3] == cell("B1") and not s.items[0]


def test_pass_when_nothing_can_move() -> None:
    s = new()
    tile(s, "C2", "dead end", "S")
    tile(s, "C3", "dead end", "N")
    for i in range(3):
        figure(s, 0, "C2", i)
    s.curse = cell("C3")
    turn(s, 0, 4)
    assert labels(s) == ["pass (no archaeologist can move)"]
    play(s, "pass (no archaeologist can move)")
    assert s.player == 1


def test_step_onto_known_deadly_tile_is_legal_when_it_is_the_only_step() -> None:
    s = new()
    tile(s, "C2", "straight with Snake", "NS")
    tile(s, "C3", "dead end", "N")
    figure(s, 0, "C2")
    turn(s, 0, 2, "C2")
    assert labels(s) == ["step north to C1", "step south to C3"]
