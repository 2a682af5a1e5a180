"""Item uses (one-time effects) and ambushes."""

import random

import pytest

from obelisk.core import CHANCE, IllegalActionError
from obelisk.games.tomb.actions import A_BUY, A_CHOCOLATE, A_KEY
from obelisk.games.tomb.board import ITEM_IDS
from obelisk.games.tomb.rules import LOOK, MOVE, RESERVE, ROB, SWAP, TURN_KEY

from tests.games.tomb.helpers import cell, draw, figure, give, holds, kind, labels, new, play, tile, turn


def test_food_mid_move_sets_the_die_to_six_counting_steps_taken() -> None:
    """The rulebook's example: rolled 2, walked 2 onto food, eat it, walk 4 more."""
    s = new()
    tile(s, "C2", "corner with Food", "NE")
    figure(s, 0, "B1")
    turn(s, 0, 2, "B1")
    play(s, "step east to C1", "step south to C2", "take the Food")
    assert s.phase == MOVE and holds(s, 0, "food") and "eat food: die to 6" in labels(s)
    play(s, "eat food: die to 6")
    assert s.die == 6 and s.steps == 2 and not holds(s, 0, "food") and s.supply[0] == 6
    play(s, "step east to D2")
    draw(s, "cross")
    assert s.steps == 3 and s.player == 0


def test_water_can_lower_the_die_and_end_movement() -> None:
    s = new()
    figure(s, 0, "A1")
    give(s, 0, "water")
    turn(s, 0, 6, "A1")
    for _ in range(5):
        step = [label for label in labels(s) if label.startswith("step")][0]
        play(s, step)
    assert s.steps == 5 and s.phase == MOVE
    play(s, "drink water: die to 5")
    assert s.player == 1, "steps taken reach the new value: movement ends (ruling 17)"


def test_chocolate_only_lowers_and_only_before_moving() -> None:
    s = new()
    figure(s, 0, "A1")
    give(s, 0, "chocolate")
    turn(s, 0, 4)
    assert [label for label in labels(s) if "chocolate" in label] == [f"eat chocolate: die to {v}" for v in (1, 2, 3)]
    play(s, "move the archaeologist on A1", "step east to B1")
    with pytest.raises(IllegalActionError, match="only before moving"):
        s.apply_action(A_CHOCOLATE)
    s = new()
    give(s, 0, "chocolate")
    turn(s, 0, 4)
    play(s, "enter at the north-west entrance")
    assert not any("chocolate" in label for label in labels(s)), "placing at an entrance is the first step"


def test_torch_reveals_open_neighbours_without_effects() -> None:
    s = new()
    tile(s, "D3", "cross", "NESW")
    tile(s, "D2", "straight", "NS")
    figure(s, 0, "D2")
    give(s, 0, "torch")
    turn(s, 0, 2, "D2")
    play(s, "step south to D3", "light the torch: reveal the neighbouring face-down tiles")
    assert not holds(s, 0, "torch")
    # C3, E3 and D4 are face down behind openings of the cross: revealed E, S, W order after... N first
    draw(s, "straight with Snake")
    assert s.fig[0] == cell("D3"), "a torch reveal has no effect on the archaeologist"
    play(s, "orient tile: openings E,W")
    draw(s, "corner with Food")
    play(s, "orient tile: openings N,E")
    assert s.discovered & 1 and not holds(s, 0, "food"), "the kind is discovered but not taken"
    draw(s, "cross")
    assert s.kind[cell("E3")] >= 0 and s.kind[cell("D4")] >= 0 and s.kind[cell("C3")] >= 0
    assert s.phase == MOVE and s.player == 0 and s.steps == 1


def test_plan_peek_is_secret_kept_by_resampling_and_may_swap() -> None:
    s = new(3)
    give(s, 0, "plan")
    turn(s, 0, 3)
    play(s, "study the plan: look at two face-down tiles")
    assert s.phase == LOOK and len(labels(s)) == 48
    play(s, "look at the face-down tile on C3")
    assert s.current_player() == CHANCE
    outcome = 6 + kind(s, "corner with Food")
    assert s.public_action_string(outcome, 1) == "player 1 saw the tile on C3"
    assert "Food" in s.public_action_string(outcome, 0)
    s.apply_action(outcome)
    play(s, "look at the face-down tile on D4")
    s.apply_action(6 + kind(s, "cross"))
    assert s.phase == SWAP
    assert s.public_action_string(s.legal_actions()[1], 2).startswith("put the two tiles back")
    play(s, "swap the tiles on C3 and D4")
    assert s.assigned == {cell("C3"): kind(s, "cross"), cell("D4"): kind(s, "corner with Food")}
    assert s.observation(0)["known"] == {"C3": "cross", "D4": "corner with Food"}
    assert s.observation(1)["known"] == {} and s.observation(None)["known"] == {}
    assert s.observation(1)["peeked"] == {"C3": [0], "D4": [0]}
    rng = random.Random(1)
    for _ in range(5):
        assert s.resample_from_infostate(0, rng).assigned == s.assigned
    changed = {tuple(sorted(s.resample_from_infostate(1, rng).assigned.items())) for _ in range(30)}
    assert len(changed) > 1
    # revealing a looked-at tile uses its known kind: no chance node
    s.phase, s.active = MOVE, -1
    tile(s, "C2", "straight", "NS")
    figure(s, 0, "C2")
    turn(s, 0, 1, "C2")
    play(s, "step south to C3")
    assert s.kind[cell("C3")] == kind(s, "cross") and cell("C3") not in s.assigned


def test_golden_key_turns_own_or_free_adjacent_tile_not_the_chamber() -> None:
    s = new(2, pyramid="big")
    tile(s, "E4", "straight", "EW")
    tile(s, "D4", "corner", "NE")
    tile(s, "F4", "cross", "NESW")
    tile(s, "E3", "dead end", "S")
    figure(s, 0, "E4")
    figure(s, 1, "E3")
    give(s, 0, "golden_key")
    turn(s, 0, 2, "E4")
    keys = [label for label in labels(s) if "golden key" in label]
    assert keys == ["use the golden key on D4", "use the golden key on E4"], "occupied, cross and chamber excluded"
    with pytest.raises(IllegalActionError, match="occupied"):
        s.apply_action(A_KEY + cell("E3"))
    play(s, "use the golden key on D4")
    assert s.phase == TURN_KEY and labels(s) == [
        "turn D4: openings E,S", "turn D4: openings N,W", "turn D4: openings S,W"]
    play(s, "turn D4: openings S,W")
    assert s.opn[cell("D4")] == 12 and not holds(s, 0, "golden_key") and s.phase == MOVE


def test_magic_flask_passes_one_wall_onto_a_revealed_tile() -> None:
    s = new(2, pyramid="big")
    tile(s, "C3", "dead end", "N")
    tile(s, "D3", "cross", "NESW")
    tile(s, "C2", "straight", "NS")
    figure(s, 0, "C2")
    give(s, 0, "magic_flask")
    turn(s, 0, 3, "C2")
    play(s, "step south to C3")
    assert "use the magic flask: through the wall east to D3" in labels(s)
    play(s, "use the magic flask: through the wall east to D3")
    assert s.fig[0] == cell("D3") and s.steps == 2 and not holds(s, 0, "magic_flask")


def test_papyrus_ghost_walk_ignores_walls_and_resolves_only_the_last_square() -> None:
    s = new(2, pyramid="big")
    tile(s, "C2", "straight with Snake", "EW")
    tile(s, "C1", "dead end", "S")
    figure(s, 0, "C1")
    give(s, 0, "papyrus_of_the_dead")
    turn(s, 0, 3, "C1")
    play(s, "read the papyrus of the dead: ghost walk")
    play(s, "step south to C2 (ghost)")
    assert s.fig[0] == cell("C2"), "the snake has no effect on a ghost"
    play(s, "step south to C3 (ghost)")
    assert s.kind[cell("C3")] < 0, "crossed face-down tiles stay face down"
    play(s, "step east to D3 (ghost)")
    assert s.current_player() == CHANCE, "the last square is revealed"
    draw(s, "corner with Food")
    assert len(labels(s)) == 4, "free orientation on the last square"
    play(s, "orient tile: openings N,E", "take the Food")
    assert holds(s, 0, "food") and s.fig[0] == cell("D3") and s.player == 1


def test_papyrus_landing_on_a_cannot_enter_tile_falls_back() -> None:
    s = new(2, pyramid="big")
    tile(s, "C1", "dead end", "S")
    tile(s, "C2", "straight with Mysterious doors", "EW")
    figure(s, 0, "C1")
    give(s, 0, "papyrus_of_the_dead")
    turn(s, 0, 2, "C1")
    play(s, "read the papyrus of the dead: ghost walk", "step south to C2 (ghost)")
    assert s.fig[0] == cell("C2") and s.player == 0
    play(s, "step west to B2 (ghost)")
    draw(s, "straight with Bottomless chasm")
    play(s, "orient tile: openings N,S")
    assert s.fig[0] == cell("C1") and s.player == 1, "fell back past the doors to the start"


def test_money_buys_only_discovered_non_magic_items() -> None:
    s = new(2, pyramid="big")
    give(s, 0, "money")
    s.discovered = (1 << ITEM_IDS.index("torch")) | (1 << ITEM_IDS.index("golden_key"))
    turn(s, 0, 2)
    buys = [label for label in labels(s) if label.startswith("buy")]
    assert buys == ["buy Torch with money"]
    with pytest.raises(IllegalActionError, match="not been discovered"):
        s.apply_action(A_BUY + ITEM_IDS.index("food"))
    with pytest.raises(IllegalActionError, match="cannot be bought"):
        s.apply_action(A_BUY + ITEM_IDS.index("golden_key"))
    play(s, "buy Torch with money")
    assert holds(s, 0, "torch") and not holds(s, 0, "money")


def _ambush(kit: bool) -> object:
    s = new(2)
    figure(s, 0, "A1")
    figure(s, 1, "B1", 0)
    figure(s, 1, "B1", 1)
    give(s, 1, "torch", "food", "plan")
    if kit:
        give(s, 1, "first_aid_kit")
    turn(s, 0, 1, "A1")
    play(s, "step east to B1")
    return s


def test_ambush_robs_one_item_per_figure_and_wounds() -> None:
    s = _ambush(kit=False)
    assert s.phase == ROB and labels(s) == [
        "rob Food from player 2",
        "rob Torch from player 2",
        "rob Plan from player 2",
        "rob nothing from player 2",
    ]
    play(s, "rob Torch from player 2", "rob Plan from player 2")
    assert holds(s, 0, "torch") and holds(s, 0, "plan") and not holds(s, 1, "torch")
    assert s.fig[3] == RESERVE and s.fig[4] == RESERVE and s.player == 1


def test_first_aid_kit_prevents_wounding_even_when_stolen() -> None:
    s = _ambush(kit=True)
    play(s, "rob First-aid kit from player 2", "rob Food from player 2")
    assert holds(s, 0, "first_aid_kit") and not holds(s, 1, "first_aid_kit")
    assert s.fig[3] == cell("B1") and s.fig[4] == cell("B1"), "robbed but not wounded"


def test_dying_archaeologist_does_not_ambush() -> None:
    s = new(2)
    tile(s, "C2", "straight with Snake", "NS")
    figure(s, 0, "C1")
    figure(s, 1, "C2")
    give(s, 1, "food")
    turn(s, 0, 1, "C1")
    play(s, "step south to C2")
    assert s.fig[0] == RESERVE and s.fig[3] == cell("C2") and holds(s, 1, "food")
