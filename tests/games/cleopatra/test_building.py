"""Building: costs, payment sources, tainted splits, rewards, placement rules, bonus, Cleopatra and the end."""

from __future__ import annotations

import pytest

from obelisk.core import IllegalActionError
from obelisk.games.cleopatra.data import KINDS
from tests.games.cleopatra.helpers import action, chance, do, find, labels, set_hand, settle, start

WALL = dict(artisan=1, wood=1, stone=1)


def test_wall_costs_artisan_wood_stone_and_pays_three() -> None:
    s = start()
    set_hand(s, 0, **WALL)
    do(s, "build wall L2")
    assert s.phase == "build" and s.talents[0] == 8 and s.walls[1] == 0
    assert sum(s.hands[0]) == 0 and s.discards[:5] == [1, 1, 0, 1, 0]


def test_piece_not_offered_without_resources_and_reason_names_cost() -> None:
    s = start()
    set_hand(s, 0, artisan=1, wood=1)
    assert not any(lab.startswith("build") for lab in labels(s))
    with pytest.raises(IllegalActionError, match="costs 1 artisan, 1 stone, 1 wood"):
        s.apply_action(action(s, "wall", 0))


def test_wall_reward_counts_distinct_adjacent_mosaics() -> None:
    s = start()
    t = s.tables
    # Two tiles touch wall L1's cells (rows 6-8 of column a): tile 0 covers two of them, tile 1 one.
    for cell, tile in ((6 * 9, 0), (7 * 9, 0), (8 * 9, 1), (8 * 9 + 1, 1)):
        s.garden[cell] = tile
    set_hand(s, 0, **WALL)
    assert find(s, "build wall L1 (+5)")
    assert find(s, "build wall L2 (+3)")
    do(s, "build wall L1")
    assert s.talents[0] == 5 + t.rewards["walls"]["base"] + 2


def test_multi_build_bonus_two_and_three_pieces() -> None:
    s = start()
    set_hand(s, 0, artisan=3, wood=3, stone=3)
    do(s, "build wall L1", "build wall L2")
    assert find(s, "finish building (+2 bonus)")
    do(s, "build wall L3", "finish building (+5 bonus)")
    assert s.talents[0] == 5 + 9 + 5


@pytest.mark.parametrize("option,expected", [(5, 5), (2, 2), (0, 0)])
def test_bonus_for_four_pieces_is_an_option(option: int, expected: int) -> None:
    s = start(bonus_four_plus=option)
    set_hand(s, 0, artisan=4, wood=4, stone=4)
    do(s, "build wall L1", "build wall L2", "build wall L3", "build wall C1", "finish building")
    assert s.talents[0] == 5 + 12 + expected


def test_tainted_double_split_between_two_pieces_costs_one_amulet() -> None:
    s = start()
    set_hand(s, 0, tainted_wood=1, artisan=3, stone=1, marble=1, lapis=1)
    do(s, "build wall L1")
    # the only wood source is the tainted double: the one way to pay it, one half left over
    assert s.credit[3] == 1 and s.amulets[0] == 1 and s.phase == "build"
    do(s, "build door frame left")
    assert s.credit == [0] * 5 and s.doors[0] == 0 and sum(s.hands[0]) == 0
    assert s.talents[0] == 5 + 3 + (4 + 1) and s.amulets[0] == 1


def test_unused_tainted_half_is_lost_when_building_ends() -> None:
    s = start()
    set_hand(s, 0, tainted_wood=1, artisan=1, stone=1)
    do(s, "build wall L1", "finish building")
    assert s.credit == [0] * 5
    assert s.discards[5 + 3] == 1


def test_payment_choice_between_standard_and_tainted_card() -> None:
    s = start()
    set_hand(s, 0, artisan=1, wood=1, tainted_wood=1, stone=1)
    do(s, "build wall L1")
    assert s.phase == "pay"
    assert labels(s) == ["pay wood with Wood", "pay wood with Tainted Wood (+1 amulet)"]
    do(s, "pay wood with Wood")
    assert s.amulets[0] == 0 and s.hands[0][8] == 1


def test_trompe_l_oeil_replaces_one_artisan() -> None:
    s = start()
    set_hand(s, 0, trompe_l_oeil=1, wood=1, stone=1)
    do(s, "build wall L1")
    assert s.walls[0] == 0 and s.amulets[0] == 1


def test_nile_merchant_is_a_one_unit_joker_removed_from_play() -> None:
    s = start(merchants=3)
    set_hand(s, 0, artisan=1, wood=1)
    do(s, "build wall L1", "pay artisan with Artisan", "pay wood with Wood")
    assert s.merchants[0] == 2 and s.walls[0] == 0


def test_merchant_cannot_replace_artisan_with_option_off() -> None:
    s = start(merchants=1, merchant_artisan=False)
    set_hand(s, 0, wood=1, stone=1)
    assert not any(lab.startswith("build wall") for lab in labels(s))
    s2 = start(merchants=1, merchant_artisan=True)
    set_hand(s2, 0, wood=1, stone=1)
    assert any(lab.startswith("build wall") for lab in labels(s2))


def test_payment_must_keep_rest_payable() -> None:
    s = start()
    # a sphinx needs 2 artisans, 1 stone, 1 marble: the Trompe-l'oeil must pay the marble
    set_hand(s, 0, artisan=1, tainted_artisan=1, trompe_l_oeil=1, stone=1)
    do(s, "build sphinx")
    assert labels(s) == ["pay artisan with Artisan", "pay artisan with Tainted Artisan (+1 amulet)"]
    with pytest.raises(IllegalActionError, match="leaves the rest of the cost unpayable"):
        s.apply_action(action(s, "pay", 0 * 4 + 2))
    do(s, "pay artisan with Tainted Artisan")
    assert s.sphinxes == [0] and s.hands[0] == [1] + [0] * 16 and s.amulets[0] == 2


def test_sphinxes_in_order_odd_two_even_five() -> None:
    s = start()
    set_hand(s, 0, artisan=4, stone=2, marble=2)
    do(s, "build sphinx #1 (+2)", "build sphinx #2 (+5)")
    assert s.talents[0] == 5 + 7
    do(s, "finish building (+2 bonus)")
    assert s.talents[0] == 5 + 7 + 2


def test_throne_needs_pedestal_first() -> None:
    s = start()
    set_hand(s, 0, artisan=6, marble=4, lapis=4)
    assert any(lab.startswith("build pedestal (+12)") for lab in labels(s))
    with pytest.raises(IllegalActionError, match="the throne needs the pedestal first"):
        s.apply_action(action(s, "throne"))
    do(s, "build pedestal", "build throne (+12)")
    assert s.talents[0] == 5 + 24
    assert "throne" in s.completed and s.cleopatra == 1


def test_obelisks_twelve_each_and_category_completion_moves_cleopatra() -> None:
    s = start()
    set_hand(s, 0, artisan=6, wood=4, stone=4)
    do(s, "build obelisk (+12)", "build obelisk (+12)")
    assert s.cleopatra == 1 and s.completed == ["obelisks"]
    assert not any(lab.startswith("build obelisk") for lab in labels(s))


def test_door_frame_counts_unbroken_run_of_walls_from_the_door() -> None:
    s = start()
    s.walls = [1, 1, -1, 2, 2, 2, 2, 2, -1]  # L1 L2 built, L3 empty, ..., R1 empty
    set_hand(s, 0, artisan=4, wood=2, marble=2, lapis=2)
    assert find(s, "build door frame left (+6)")
    assert find(s, "build door frame right (+4)")


def test_door_run_turns_corners() -> None:
    s = start()
    s.walls = [1] * 7 + [-1, -1]
    set_hand(s, 0, artisan=2, wood=1, marble=1, lapis=1)
    assert find(s, "build door frame left (+11)")


def test_rewards_are_fixed_when_built() -> None:
    s = start()
    set_hand(s, 0, **WALL)
    do(s, "build wall L1", "finish building")
    talents = s.talents[0]
    s.garden[6 * 9] = 3
    assert s.talents[0] == talents


def test_build_then_dice_roll_then_turn_passes() -> None:
    s = start()
    set_hand(s, 0, **WALL)
    do(s, "build wall L1", "finish building")
    assert s.is_chance_node()
    outcomes = s.chance_outcomes()
    assert [o for o, _ in outcomes] == [0, 1, 2, 3, 4, 5]
    assert outcomes[0][1] == pytest.approx((5 / 6) ** 5)
    chance(s, 2)
    assert s.altar == 2 and s.turn == 1  # nothing left to do: the turn ends


def test_only_dice_off_the_altar_are_rolled() -> None:
    s = start()
    s.altar = 3
    set_hand(s, 0, **WALL)
    do(s, "build wall L1", "finish building")
    assert [o for o, _ in s.chance_outcomes()] == [0, 1, 2]


def test_priest_faces_option_changes_probabilities() -> None:
    s = start(priest_faces=2)
    set_hand(s, 0, **WALL)
    do(s, "build wall L1", "finish building")
    assert dict(s.chance_outcomes())[5] == pytest.approx((1 / 3) ** 5)


def test_game_ends_when_fifth_category_completes_without_dice() -> None:
    s = start()
    s.completed = ["walls", "sphinxes", "doors", "mosaics"]
    s.cleopatra = 4
    s.obelisks = [1]
    set_hand(s, 0, artisan=6, wood=4, stone=4)
    do(s, "build obelisk")
    assert s.is_terminal() and s.cleopatra == 5
    assert s.final is not None and s.altar == 0


def test_game_end_pays_multi_build_bonus() -> None:
    s = start()
    s.completed = ["walls", "sphinxes", "doors", "mosaics"]
    s.cleopatra = 4
    set_hand(s, 0, artisan=6, wood=4, stone=4)
    do(s, "build obelisk", "build obelisk")
    assert s.is_terminal()
    assert s.talents[0] == 5 + 24 + 2


def test_build_action_with_zero_pieces_is_impossible() -> None:
    s = start()
    set_hand(s, 0, **WALL)
    assert not any(lab.startswith("finish") for lab in labels(s))
    with pytest.raises(IllegalActionError, match="not possible now"):
        s.apply_action(action(s, "finish"))


def test_character_between_two_pieces_of_one_build() -> None:
    """ "Tyto karty mohou být zahrány kdykoliv během vašeho kola" (characters may be played at any time of
    your turn): the Courtesans between two pieces bring the lapis the door frame lacks, and the build goes on
    with the tainted wood's half left over and the bonus for two pieces."""
    s = start()
    set_hand(s, 0, courtesans=1, tainted_wood=1, artisan=3, stone=1, marble=1)
    s._discard(KINDS.index("lapis"))  # seen by all
    s._legal = None
    do(s, "build wall L1")
    assert s.phase == "build" and s.credit[3] == 1
    assert not any(lab.startswith("build door") for lab in labels(s))
    do(s, "play Courtesans", "take Lapis from the discard pile")
    assert s.phase == "build" and s.credit[3] == 1 and s.built == 1
    do(s, "build door frame left (+5)", "finish building (+2 bonus)")
    assert s.talents[0] == 5 + 3 + 5 + 2 and s.amulets[0] == 1 + 1


def test_scribes_any_mosaic_between_two_pieces() -> None:
    """The Scribes' any-mosaic use may also come between two pieces; the build then goes on."""
    s = start()
    top, other = s.stack_top, s.stack_rest[0]
    set_hand(s, 0, scribes=1, artisan=3, stone=2, wood=1, marble=1, lapis=1)
    do(s, "build wall L1")
    assert not any("Scribe pick" in lab for lab in labels(s))
    do(s, "play Scribes: build any mosaic")
    assert s.phase == "build" and s.scribe_picks == 1 and s.amulets[0] == 2
    name = s.tables.tile_ids[other]
    do(s, f"build mosaic {name} (Scribe pick)")
    s.apply_action(s.legal_actions()[0])
    if s.phase == "claim":
        do(s, "claim no sanctuary")
    assert s.stack_top == top and other not in s.stack_rest and s.scribe_picks == 0
    do(s, "finish building (+2 bonus)")
    assert s.walls[0] == 0 and s.mosaics[0][0] == other


def test_no_character_in_the_middle_of_paying_a_piece() -> None:
    """A piece is one step of the build: characters come before or after it, not while it is being paid."""
    s = start()
    set_hand(s, 0, smugglers=1, artisan=1, tainted_artisan=1, stone=1, wood=1)
    do(s, "build wall L1")
    assert s.phase == "pay"
    assert labels(s) == ["pay artisan with Artisan", "pay artisan with Tainted Artisan (+1 amulet)"]


def test_dice_filling_the_altar_start_the_offering() -> None:
    """ "Pokud je na oltáři všech 5 kostek, následuje fáze Obětování Velkému knězi" (all 5 dice on the altar:
    the Offering follows)."""
    s = start()
    s.altar = 4
    set_hand(s, 0, **WALL)
    do(s, "build wall L1", "finish building")
    chance(s, 1)
    assert s.phase == "offering" and s.actor == 0 and s.altar == 5
    for seat in range(3):
        s.apply_action(action(s, "bid", 0))
    assert s.altar == 0 and s.last_offering is not None


def test_one_action_per_turn() -> None:
    """ "Ve svém kole musí hráč podniknout 1 (pouze 1) z následujících dvou kroků" (one action, only one):
    after a market visit nothing can be built, after a build no stall can be taken."""
    s = start()
    set_hand(s, 0, artisan=2, wood=2, stone=2)
    s._legal = None
    do(s, "take stall A")
    settle(s)
    assert not any(lab.startswith(("build", "take stall")) for lab in labels(s))
    s = start()
    set_hand(s, 0, **WALL)
    do(s, "build wall L1")
    assert not any(lab.startswith("take stall") for lab in labels(s))
    do(s, "finish building")
    chance(s, 0)
    assert s.turn == 1
