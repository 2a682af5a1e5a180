"""Rule tests: setup, buying, entombing, crumbling, forced removal, end of turn, end of game, scoring."""

from __future__ import annotations

import random

import pytest

import obelisk
import obelisk.games.valley.rules as R
from obelisk.core import CHANCE, IllegalActionError
from tests.games.valley.helpers import (
    act,
    after_setup,
    draw,
    inconsistency,
    kind,
    kinds,
    labels,
    pyramid_names,
    scenario,
    set_deck,
    top_code,
)

PYRAMID = ["Statue of Horus", "Statue of Anubis", "Book of Gates", "Ankh Amulet", "Hapy Canopic Jar", "Censer"]


# Setup ------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_decks_pyramid_boneyard_and_hands(players: int) -> None:
    state = after_setup(players)
    table = state.game.table
    for seat in range(players):
        owned = list(state.hands[seat])
        for k, c in enumerate(state.decks[seat]):
            owned += [k] * c
        assert sorted(table.names[k] for k in owned) == sorted(
            ["Shabti"] * 4 + ["Urn"] * 3 + ["Box of Food"] * 2 + ["Offering Table"]
        )
        assert len(state.hands[seat]) == 5
    assert all(k >= 0 for k in state.pyramid)
    assert len(state.boneyard) == 1
    assert state.stock_count() == 56 - 7
    # level II lies on top of level III: the first seven stock cards are all level II
    assert all(table.level[k] == 2 for k in [*state.pyramid, *state.boneyard])
    assert state.stock_sizes == [29 - 7, 27]
    assert inconsistency(state) is None  # spare starters are back in the box
    assert state.current_player() == 0 and top_code(state) == R.MAIN


def test_setup_is_all_chance_nodes() -> None:
    state = obelisk.load("valley", 2).new_initial_state(0)
    steps = 0
    while state.is_chance_node():
        state.apply_action(state.sample_chance(random.Random(steps)))
        steps += 1
    assert steps == 6 + 1 + 2 * 5


def test_level_iii_comes_only_after_level_ii_is_used_up() -> None:
    state = after_setup()
    state.stock_sizes = [1, state.stock_sizes[1]]
    remaining = [k for k, c in enumerate(state.stock_ii) if c][0]
    state.stock_ii = [0] * len(state.stock_ii)
    state.stock_ii[remaining] = 1
    state.stack.append((R.REFILL, 5))
    assert [k for k, _ in state.chance_outcomes()] == [remaining]
    state.apply_action(remaining)
    state.stack.append((R.REFILL, 5))
    assert all(state.game.table.level[k] == 3 for k, _ in state.chance_outcomes())


# Buying -------------------------------------------------------------------------


def test_only_base_cards_can_be_bought() -> None:
    state = scenario(hand=["Urn"] * 5, pyramid=PYRAMID)
    buys = [label for label in labels(state) if label.startswith("buy")]
    assert buys == ["buy Statue of Horus (B1) for 3", "buy Statue of Anubis (B2) for 5", "buy Book of Gates (B3) for 4"]


def test_buy_pays_card_by_card_then_card_goes_on_discard_and_pyramid_crumbles() -> None:
    state = scenario(hand=["Urn", "Urn", "Shabti", "Shabti"], pyramid=PYRAMID)
    act(state, "buy Book of Gates (B3) for 4")
    assert top_code(state) == R.PAY
    assert labels(state) == ["pay with Shabti (1 gold)", "pay with Urn (2 gold)"]
    act(state, "pay with Urn (2 gold)")
    assert state.stack[-1] == (R.PAY, 0, 2, 2)
    act(state, "pay with Urn (2 gold)")
    assert state.discards[0][-1] == kind(state, "Book of Gates")
    assert state.play == kinds(state, ["Urn", "Urn"])
    # B3 took M2, M2 took T, T waits for the stock
    assert pyramid_names(state)[:5] == [
        "Statue of Horus", "Statue of Anubis", "Hapy Canopic Jar", "Ankh Amulet", "Censer"
    ]
    assert state.current_player() == CHANCE
    draw(state, "Djed Amulet")
    assert pyramid_names(state)[5] == "Djed Amulet"
    assert state.touched and state.bought == [4]


def test_surplus_gold_is_not_pooled_across_purchases() -> None:
    state = scenario(hand=["Urn", "Urn", "Shabti"], pyramid=PYRAMID)
    act(state, "buy Statue of Horus (B1) for 3")
    act(state, "pay with Urn (2 gold)")
    act(state, "pay with Urn (2 gold)")  # 4 >= 3: no change is given
    draw(state, "Djed Amulet")
    # the surplus gold is lost; the Shabti alone cannot pay for anything
    assert not any(label.startswith("buy") for label in labels(state))
    with pytest.raises(IllegalActionError, match="Ankh Amulet costs 4 but your hand is worth only 1 gold"):
        state.apply_action(state.game.a_buy + 0)


def test_any_number_of_purchases_in_a_turn() -> None:
    state = scenario(hand=["Urn"] * 4, pyramid=PYRAMID)
    act(state, "buy Statue of Horus (B1) for 3")
    act(state, "pay with Urn (2 gold)")
    act(state, "pay with Urn (2 gold)")
    draw(state, "Djed Amulet")
    assert pyramid_names(state)[0] == "Ankh Amulet"
    act(state, "buy Ankh Amulet (B1) for 4")
    act(state, "pay with Urn (2 gold)")
    act(state, "pay with Urn (2 gold)")
    draw(state, "Statue of Bastet")
    assert state.discards[0][-2:] == kinds(state, ["Statue of Horus", "Ankh Amulet"])


def test_each_hand_card_serves_one_purpose() -> None:
    state = scenario(hand=["Urn", "Urn", "Box of Food"], pyramid=PYRAMID)
    act(state, "buy Statue of Horus (B1) for 3")
    act(state, "pay with Urn (2 gold)")
    act(state, "pay with Urn (2 gold)")
    draw(state, "Djed Amulet")
    assert "entomb Urn" not in labels(state)
    with pytest.raises(IllegalActionError, match="has no Urn in hand"):
        state.apply_action(state.game.a_entomb + kind(state, "Urn"))


def test_one_normal_entombment_per_turn() -> None:
    state = scenario(hand=["Urn", "Shabti"], pyramid=PYRAMID)
    act(state, "entomb Urn")
    assert state.tombs[0][-1] == kind(state, "Urn")
    assert not any(label.startswith("entomb") for label in labels(state))
    with pytest.raises(IllegalActionError, match="already entombed a card this turn"):
        state.apply_action(state.game.a_entomb + kind(state, "Shabti"))


# Crumbling --------------------------------------------------------------------------


def _buy_free(state, slot: str) -> None:
    """Buy from a base slot with a big discount so no payment is needed."""
    state.discount = 99
    state._legal = None
    name = pyramid_names(state)[("B1", "B2", "B3").index(slot)]
    act(state, f"buy {name} ({slot}) for {state.game.table.cost[kind(state, name)]}")


def test_crumble_b1_takes_m1_and_b3_takes_m2() -> None:
    state = scenario(hand=["Shabti"], pyramid=PYRAMID)
    _buy_free(state, "B1")
    draw(state, "Djed Amulet")
    assert pyramid_names(state) == ["Ankh Amulet", "Statue of Anubis", "Book of Gates", "Censer", "Hapy Canopic Jar",
                                    "Djed Amulet"]
    _buy_free(state, "B3")
    draw(state, "Statue of Bastet")
    assert pyramid_names(state) == ["Ankh Amulet", "Statue of Anubis", "Hapy Canopic Jar", "Censer", "Djed Amulet",
                                    "Statue of Bastet"]


@pytest.mark.parametrize(
    "choice,expected", [("M1", ["Censer", "Hapy Canopic Jar"]), ("M2", ["Ankh Amulet", "Censer"])]
)
def test_crumble_b2_remover_chooses_which_middle_drops(choice: str, expected: list) -> None:
    state = scenario(hand=["Shabti"], pyramid=PYRAMID)
    _buy_free(state, "B2")
    assert top_code(state) == R.FILL_B2 and state.current_player() == 0
    assert labels(state) == ["drop M1 (Ankh Amulet) into B2", "drop M2 (Hapy Canopic Jar) into B2"]
    act(state, f"drop {choice} ({'Ankh Amulet' if choice == 'M1' else 'Hapy Canopic Jar'}) into B2")
    names = pyramid_names(state)
    assert names[1] == ("Ankh Amulet" if choice == "M1" else "Hapy Canopic Jar")
    # the top dropped into the emptied middle slot, and the stock refills the top
    assert [names[3], names[4]] == expected
    assert state.current_player() == CHANCE


def test_holes_stay_once_the_stock_is_empty() -> None:
    state = scenario(hand=["Shabti"], pyramid=PYRAMID, stock=[])
    _buy_free(state, "B1")  # M1 -> B1, T -> M1, no refill
    assert pyramid_names(state) == [
        "Ankh Amulet", "Statue of Anubis", "Book of Gates", "Censer", "Hapy Canopic Jar", None
    ]
    assert top_code(state) == R.MAIN
    _buy_free(state, "B1")  # M1 (Censer) -> B1, M1 stays empty
    assert pyramid_names(state) == ["Censer", "Statue of Anubis", "Book of Gates", None, "Hapy Canopic Jar", None]
    _buy_free(state, "B1")  # nothing above B1: the hole stays, nothing slides in from the side
    assert pyramid_names(state) == [None, "Statue of Anubis", "Book of Gates", None, "Hapy Canopic Jar", None]
    _buy_free(state, "B2")  # only M2 is left above B2: it drops without a choice
    assert pyramid_names(state) == [None, "Hapy Canopic Jar", "Book of Gates", None, None, None]
    assert top_code(state) == R.MAIN


# Forced removal and end of turn ----------------------------------------------------------


def test_untouched_pyramid_forces_a_base_removal() -> None:
    state = scenario(hand=["Shabti"], pyramid=PYRAMID)
    act(state, "end turn")
    assert top_code(state) == R.FORCED and state.current_player() == 0
    assert labels(state) == [
        "remove Statue of Horus (B1) to the boneyard",
        "remove Statue of Anubis (B2) to the boneyard",
        "remove Book of Gates (B3) to the boneyard",
    ]
    with pytest.raises(IllegalActionError, match="must take a base card"):
        state.apply_action(state.game.a_remove + 5)
    act(state, "remove Book of Gates (B3) to the boneyard")
    assert state.boneyard[-1] == kind(state, "Book of Gates")
    assert pyramid_names(state)[2] == "Hapy Canopic Jar"


def test_the_forced_removal_crumbles_the_pyramid_as_a_purchase_does() -> None:
    """ "Pokud během svého kola hráč nijak nezasáhl do struktury pyramidální nabídky, musí jednu kartu z
    nabídky odstranit na hřbitov. Tím dojde ke zhroucení pyramidy, která je doplněna ze zásoby podle principu
    popsaného výše." The principle described above starts from a hole in the base: "karta z vyšší úrovně se
    posune na uvolněné místo v základním patře a karta z nejvyšší úrovně následně zaplní uvolněné místo ve
    středním patře. Vrcholek pyramidy se doplní ze zásoby." Only the removal of a base card sets all of it
    off, as a purchase (base cards only) does; a top card taken away leaves nothing to crumble. So the
    default removal takes a base card (ruling 2)."""
    removed = scenario(hand=["Shabti"], pyramid=PYRAMID)
    act(removed, "end turn")
    assert all(label.endswith(("(B1) to the boneyard", "(B2) to the boneyard", "(B3) to the boneyard"))
               for label in labels(removed))
    act(removed, "remove Book of Gates (B3) to the boneyard")
    draw(removed, "Djed Amulet")
    bought = scenario(hand=["Shabti"], pyramid=PYRAMID)
    _buy_free(bought, "B3")
    draw(bought, "Djed Amulet")
    crumbled = ["Statue of Horus", "Statue of Anubis", "Hapy Canopic Jar", "Ankh Amulet", "Censer", "Djed Amulet"]
    assert pyramid_names(removed) == pyramid_names(bought) == crumbled  # M2 into B3, T into M2, T refilled
    top = scenario(hand=["Shabti"], pyramid=PYRAMID, forced_removal="any")
    act(top, "end turn")
    act(top, "remove Censer (T) to the boneyard")
    draw(top, "Djed Amulet")
    assert pyramid_names(top) == PYRAMID[:5] + ["Djed Amulet"]  # no card moved: no crumbling, only a refill


def test_forced_removal_any_slot_option() -> None:
    state = scenario(hand=["Shabti"], pyramid=PYRAMID, forced_removal="any")
    act(state, "end turn")
    assert len(labels(state)) == 6
    act(state, "remove Censer (T) to the boneyard")
    assert state.boneyard[-1] == kind(state, "Censer")
    assert state.current_player() == CHANCE and state.stack[-1] == (R.REFILL, 5)


def test_no_forced_removal_after_touching_the_pyramid() -> None:
    state = scenario(hand=["Urn", "Urn"], pyramid=PYRAMID)
    act(state, "buy Statue of Horus (B1) for 3")
    act(state, "pay with Urn (2 gold)")
    act(state, "pay with Urn (2 gold)")
    draw(state, "Djed Amulet")
    act(state, "end turn")
    assert state.current_player() == CHANCE and state.stack[-1][0] == R.DRAW


def test_no_forced_removal_from_an_empty_pyramid() -> None:
    state = scenario(hand=["Shabti"], pyramid=[None] * 6, stock=[])
    act(state, "end turn")
    assert state.is_terminal() is False
    assert state.stack[-1][0] == R.DRAW  # straight to the seat's draw


def test_end_of_turn_discards_everything_and_draws_five_with_reshuffle() -> None:
    state = scenario(hand=["Urn", "Shabti", "Box of Food"], pyramid=PYRAMID)
    set_deck(state, 0, ["Urn", "Urn"])
    state.discards[0] = kinds(state, ["Shabti", "Shabti", "Statue of Horus"])
    act(state, "buy Statue of Horus (B1) for 3")
    act(state, "pay with Urn (2 gold)")
    act(state, "pay with Shabti (1 gold)")
    draw(state, "Djed Amulet")
    act(state, "end turn")
    # the used Urn and Shabti and the unused Box of Food join the discard pile
    assert len(state.discards[0]) == 3 + 1 + 3
    draw(state, "Urn")
    draw(state, "Urn")
    # the deck ran out: the discard pile becomes the new deck and drawing goes on
    assert state.deck_sizes[0] == 7 and state.discards[0] == []
    for name in ("Shabti", "Shabti", "Statue of Horus"):
        draw(state, name)
    assert len(state.hands[0]) == 5
    assert state.current_player() == 1 and top_code(state) == R.MAIN


def test_draw_fewer_when_deck_and_discard_are_empty() -> None:
    state = scenario(hand=[], pyramid=PYRAMID)
    set_deck(state, 0, ["Urn"])
    state.discards[0] = []
    state.touched = True
    act(state, "end turn")
    draw(state, "Urn")
    assert state.hands[0] == [kind(state, "Urn")]
    assert state.current_player() == 1


# End of game and scoring --------------------------------------------------------------------


def test_game_ends_after_the_round_in_which_stock_and_pyramid_empty() -> None:
    state = scenario(players=3, hand=["Shabti"], pyramid=["Statue of Horus", None, None, None, None, None], stock=[])
    _buy_free(state, "B1")
    assert state.pyramid_count() == 0
    act(state, "end turn")
    while state.is_chance_node():
        state.apply_action(state.sample_chance(random.Random(0)))
    assert state.current_player() == 1  # the round goes on
    for seat in (1, 2):
        assert state.current_player() == seat
        act(state, "end turn")  # nothing to remove: no forced removal
        while state.is_chance_node():
            state.apply_action(state.sample_chance(random.Random(0)))
    assert state.is_terminal()
    assert state.turns == [state.turns[0]] * 3


def test_last_seat_emptying_the_pyramid_ends_the_game_at_once() -> None:
    state = scenario(hand=["Shabti"], pyramid=["Statue of Horus", None, None, None, None, None], stock=[])
    state.active = 1
    state.stack = [(R.MAIN, 1)]
    state.hands[1] = [kind(state, "Shabti")]
    state.discount = 99
    state._legal = None
    state.apply_action(state.game.a_buy + 0)  # seat 1 buys the last card for free
    act(state, "end turn")
    assert state.is_terminal()


def _tomb(state, names: list[str], seat: int = 0) -> None:
    state.tombs[seat] = kinds(state, names)


def test_scoring_example_books_statues_duplicates() -> None:
    state = after_setup()
    _tomb(state, ["Book of Gates", "Book of the Dead", "Book of the Earth", "Book of the Heavens"])
    assert state.tomb_breakdown(0)["book"] == 16
    statues = ["Statue of Thoth", "Statue of Horus", "Statue of Bastet", "Statue of Anubis", "Statue of Isis",
               "Statue of Osiris", "Statue of Ptah"]
    _tomb(state, statues)
    assert state.tomb_breakdown(0)["statue"] == 49
    _tomb(state, statues + ["Statue of Thoth", "Statue of Horus"])
    assert state.tomb_breakdown(0)["statue"] == 49  # duplicates add nothing
    _tomb(state, ["Book of Gates", "Book of Gates"])
    assert state.tomb_score(0) == 1


def test_starters_and_uniques_score_their_vp_and_only_the_tomb_counts() -> None:
    state = after_setup()
    table = state.game.table
    _tomb(state, ["Shabti", "Shabti", "Urn", "Boat", "Throne of the Pharaoh", "Wadjet Amulet"])
    state.hands[0] = kinds(state, ["Statue of Thoth"] * 3)  # cards outside the tomb are worth nothing
    expected = 3 + table.vp[kind(state, "Boat")] + table.vp[kind(state, "Throne of the Pharaoh")] + 1
    assert state.tomb_score(0) == expected
    breakdown = state.scores()[0]["breakdown"]
    assert breakdown["starters"] == 3 and breakdown["amulet"] == 1 and breakdown["statue"] == 0


def _finish(state) -> None:
    state.over = True
    state.stack = []


def test_equal_scores_share_the_place() -> None:
    state = after_setup()
    _tomb(state, ["Shabti", "Urn"], 0)
    _tomb(state, ["Book of Gates"], 1)
    state.tombs[1] += [kind(state, "Shabti")]
    _finish(state)
    assert state.returns() == [0.0, 0.0]


def test_tiebreak_option_prefers_more_sets() -> None:
    state = after_setup(tiebreak="sets")
    _tomb(state, ["Shabti", "Urn"], 0)
    _tomb(state, ["Book of Gates", "Shabti"], 1)
    _finish(state)
    assert state.returns() == [-1.0, 1.0]


def test_random_games_respect_turn_equality_and_bounds() -> None:
    from obelisk.core import testing

    game = obelisk.load("valley", 3)
    for seed in range(5):
        state = testing.random_playout(game, seed)
        assert len(set(state.turns)) == 1
        assert inconsistency(state) is None
