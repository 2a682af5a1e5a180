"""Every card action, with the edge cases of the published Card Supplement and the rulings."""

from __future__ import annotations

import pytest

import obelisk.games.valley.rules as R
from obelisk.core import CHANCE, IllegalActionError
from tests.games.valley.helpers import act, draw, kind, kinds, labels, pyramid_names, scenario, set_deck, top_code

PYRAMID = ["Statue of Horus", "Statue of Anubis", "Book of Gates", "Ankh Amulet", "Hapy Canopic Jar", "Censer"]


def cost(state, name: str) -> int:
    return state.game.table.cost[kind(state, name)]


def play_reason(state, name: str) -> str:
    with pytest.raises(IllegalActionError) as error:
        state.apply_action(state.game.a_play + kind(state, name))
    return str(error.value)


# Boat -----------------------------------------------------------------------------------


def _boat_scenario(players: int = 2, **options):
    state = scenario(players=players, hand=["Urn", "Urn"], pyramid=PYRAMID, **options)
    state.hands[1] = kinds(state, ["Boat", "Shabti", "Shabti", "Shabti", "Shabti"])
    state._legal = None
    return state


def test_boat_reaction_after_a_purchase() -> None:
    state = _boat_scenario()
    act(state, "buy Statue of Horus (B1) for 3")
    act(state, "pay with Urn (2 gold)")
    act(state, "pay with Urn (2 gold)")
    draw(state, "Djed Amulet")  # the pyramid crumbles and refills before the reaction
    assert state.current_player() == 1 and top_code(state) == R.BOAT
    assert labels(state) == [
        "use Boat to take Ankh Amulet (B1)",
        "use Boat to take Statue of Anubis (B2)",
        "use Boat to take Book of Gates (B3)",
        "pass (no Boat)",
    ]
    act(state, "use Boat to take Statue of Anubis (B2)")
    assert state.discards[1][-2:] == kinds(state, ["Boat", "Statue of Anubis"])
    assert kind(state, "Boat") not in state.hands[1]
    assert top_code(state) == R.FILL_B2 and state.current_player() == 1  # the Boat user chooses the crumble
    act(state, "drop M2 (Hapy Canopic Jar) into B2")
    draw(state, "Statue of Bastet")
    assert state.current_player() == 0 and top_code(state) == R.MAIN


def test_boat_window_when_boat_is_in_the_deck_offers_only_pass() -> None:
    state = _boat_scenario()
    state.hands[1] = kinds(state, ["Shabti"] * 5)
    set_deck(state, 1, ["Boat", "Urn"])
    act(state, "buy Statue of Horus (B1) for 3")
    act(state, "pay with Urn (2 gold)")
    act(state, "pay with Urn (2 gold)")
    draw(state, "Djed Amulet")
    # whoever owns the Boat is public; whether it is in hand or deck is not
    assert state.current_player() == 1 and labels(state) == ["pass (no Boat)"]
    act(state, "pass (no Boat)")
    assert state.current_player() == 0


def test_no_boat_window_when_the_boat_is_visible_elsewhere() -> None:
    state = _boat_scenario()
    state.hands[1] = kinds(state, ["Shabti"] * 5)
    state.discards[1] = kinds(state, ["Boat"])
    act(state, "buy Statue of Horus (B1) for 3")
    act(state, "pay with Urn (2 gold)")
    act(state, "pay with Urn (2 gold)")
    draw(state, "Djed Amulet")
    assert state.current_player() == 0 and top_code(state) == R.MAIN


def test_boat_cannot_be_played_on_its_owners_turn() -> None:
    state = scenario(hand=["Boat"], pyramid=PYRAMID)
    assert "play Boat" not in labels(state)
    assert "reaction, used right after an opponent buys" in play_reason(state, "Boat")


def test_several_boats_react_in_turn_order_after_the_buyer(tmp_path) -> None:
    import json

    from obelisk.games.valley.data import BUILTIN_PATH

    doc = json.loads(BUILTIN_PATH.read_text())
    for card in doc["cards"]:
        if card["name"] == "Boat":
            card["copies"] = 2
    path = tmp_path / "two_boats.json"
    path.write_text(json.dumps(doc))
    state = scenario(players=3, hand=["Urn", "Urn"], pyramid=PYRAMID, cards=str(path))
    state.active = 1
    state.stack = [(R.MAIN, 1)]
    state.hands[1] = kinds(state, ["Urn", "Urn"])
    state.hands[2] = kinds(state, ["Boat"])
    state.hands[0] = kinds(state, ["Boat"])
    state._legal = None
    act(state, "buy Statue of Horus (B1) for 3")
    act(state, "pay with Urn (2 gold)")
    act(state, "pay with Urn (2 gold)")
    draw(state, "Djed Amulet")
    assert state.current_player() == 2  # the seat after the buyer decides first
    act(state, "use Boat to take Ankh Amulet (B1)")
    draw(state, "Statue of Bastet")  # its take crumbles before the next seat decides
    assert state.current_player() == 0
    assert pyramid_names(state)[0] == "Censer"


# Book of Gates ------------------------------------------------------------------------------


def test_book_of_gates_forces_the_revealed_action() -> None:
    state = scenario(hand=["Book of Gates"], pyramid=PYRAMID)
    set_deck(state, 0, ["Statue of Horus", "Urn"])
    act(state, "play Book of Gates")
    assert state.current_player() == CHANCE
    draw(state, "Statue of Horus")  # revealed: its action (draw 1) must be carried out
    assert state.revealed == kinds(state, ["Statue of Horus"])
    draw(state, "Urn")
    assert state.hands[0] == kinds(state, ["Urn"])
    assert state.revealed == [] and state.discards[0][-1] == kind(state, "Statue of Horus")
    assert state.executed == kinds(state, ["Book of Gates", "Statue of Horus"])


def test_book_of_gates_discards_a_card_without_a_possible_action() -> None:
    for revealed in ("Shabti", "Boat", "Book of the Heavens"):
        state = scenario(hand=["Book of Gates"], pyramid=PYRAMID)
        set_deck(state, 0, [revealed])
        state.discards[0] = []
        act(state, "play Book of Gates")
        draw(state, revealed)
        assert state.discards[0] == kinds(state, [revealed])
        assert kind(state, revealed) not in state.hands[0]  # never usable for gold or entombing
        assert top_code(state) == R.MAIN


def test_book_of_gates_reshuffles_an_empty_deck() -> None:
    state = scenario(hand=["Book of Gates"], pyramid=PYRAMID)
    set_deck(state, 0, [])
    state.discards[0] = kinds(state, ["Urn", "Shabti"])
    act(state, "play Book of Gates")
    assert state.deck_sizes[0] == 2 and state.discards[0] == []
    draw(state, "Urn")
    assert state.discards[0] == kinds(state, ["Urn"])


def test_book_of_gates_needs_a_card_to_reveal() -> None:
    state = scenario(hand=["Book of Gates"], pyramid=PYRAMID)
    set_deck(state, 0, [])
    state.discards[0] = []
    assert "no card to reveal" in play_reason(state, "Book of Gates")


# Pyramid-taking books ---------------------------------------------------------------------------


def test_book_of_the_dead_entombs_the_cheapest_anywhere_with_a_choice_on_ties() -> None:
    state = scenario(hand=["Book of the Dead", "Shabti"], pyramid=PYRAMID)
    low = min(cost(state, n) for n in PYRAMID)
    tied = [n for n in PYRAMID if cost(state, n) == low]
    act(state, "play Book of the Dead")
    if len(tied) > 1:
        assert top_code(state) == R.PICK_SLOT
        act(state, labels(state)[-1])
    assert state.game.table.names[state.tombs[0][-1]] in tied
    assert state.touched
    assert "entomb Shabti" in labels(state) or state.current_player() == CHANCE  # normal entomb still available


def test_book_of_the_dead_from_the_top_slot() -> None:
    pyramid = ["Statue of Anubis", "Statue of Anubis", "Book of the Earth", "Hapy Canopic Jar", "Scarab Amulet",
               "Statue of Horus"]
    state = scenario(hand=["Book of the Dead"], pyramid=pyramid)
    act(state, "play Book of the Dead")  # the single cheapest card is taken at once
    assert state.tombs[0][-1] == kind(state, "Statue of Horus")
    assert state.stack[-1] == (R.REFILL, 5)
    assert not state.entombed


def test_book_of_the_earth_sacrifice_and_take_at_most_double() -> None:
    state = scenario(hand=["Book of the Earth", "Shabti", "Urn"], pyramid=PYRAMID)
    act(state, "play Book of the Earth")
    assert top_code(state) == R.HAND_PICK
    shabti, urn = cost(state, "Shabti"), cost(state, "Urn")
    act(state, f"sacrifice Urn (take a card costing up to {2 * urn})")
    assert state.boneyard[-1] == kind(state, "Urn")
    allowed = [n for n in PYRAMID if cost(state, n) <= 2 * urn]
    if len(allowed) > 1:
        assert {lab.split(" (")[0][5:] for lab in labels(state)} == set(allowed)
        act(state, labels(state)[0])
    assert state.game.table.names[state.discards[0][-1]] in allowed
    assert state.touched
    assert f"sacrifice Shabti (take a card costing up to {2 * shabti})" not in labels(state)


def test_book_of_the_earth_only_playable_with_a_target() -> None:
    pyramid = ["Statue of Ptah", "Book of the Dead", "Chariot", None, None, None]
    state = scenario(hand=["Book of the Earth", "Shabti"], pyramid=pyramid)
    assert "no pyramid card costs at most 2x" in play_reason(state, "Book of the Earth")
    state = scenario(hand=["Book of the Earth"], pyramid=PYRAMID)
    assert "no other card in hand to sacrifice" in play_reason(state, "Book of the Earth")


def test_book_of_the_heavens_needs_five_discards_and_keeps_the_order() -> None:
    state = scenario(hand=["Book of the Heavens"], pyramid=PYRAMID)
    state.discards[0] = kinds(state, ["Shabti", "Urn", "Shabti", "Box of Food"])
    assert "holds 4 cards; at least 5" in play_reason(state, "Book of the Heavens")
    state.discards[0] = kinds(state, ["Shabti", "Urn", "Statue of Horus", "Box of Food", "Urn"])
    state._legal = None
    act(state, "play Book of the Heavens")
    assert labels(state) == [
        "entomb Shabti from your discard pile",
        "entomb Urn from your discard pile",
        "entomb Box of Food from your discard pile",
        "entomb Statue of Horus from your discard pile",
    ]
    act(state, "entomb Statue of Horus from your discard pile")
    assert state.discards[0] == kinds(state, ["Shabti", "Urn", "Box of Food", "Urn"])
    assert state.tombs[0][-1] == kind(state, "Statue of Horus")
    assert not state.entombed  # extra to the normal entombment


def test_book_of_the_heavens_counts_cards_bought_this_turn_not_cards_in_play() -> None:
    state = scenario(hand=["Book of the Heavens", "Urn", "Urn"], pyramid=PYRAMID)
    state.discards[0] = kinds(state, ["Shabti"] * 4)
    act(state, "buy Statue of Horus (B1) for 3")
    act(state, "pay with Urn (2 gold)")
    act(state, "pay with Urn (2 gold)")  # this Urn is in play, not in the discard pile
    draw(state, "Djed Amulet")
    assert len(state.discards[0]) == 5
    assert "play Book of the Heavens" in labels(state)


def test_book_of_the_netherworld_takes_the_stock_top_without_touching() -> None:
    state = scenario(hand=["Book of the Netherworld"], pyramid=PYRAMID, stock=["Tyet Amulet", "Chariot"])
    act(state, "play Book of the Netherworld")
    assert state.current_player() == CHANCE
    draw(state, "Chariot")
    assert state.discards[0][-1] == kind(state, "Chariot")
    assert not state.touched
    act(state, "end turn")
    assert top_code(state) == R.FORCED  # the forced removal still applies


def test_book_of_the_netherworld_needs_a_stock() -> None:
    state = scenario(hand=["Book of the Netherworld"], pyramid=PYRAMID, stock=[])
    assert "the stock is empty" in play_reason(state, "Book of the Netherworld")


def test_book_of_traversing_eternity_takes_a_cheaper_base_card_after_a_purchase() -> None:
    state = scenario(hand=["Book of Traversing Eternity", "Urn", "Urn"], pyramid=PYRAMID)
    assert "not bought a card this turn" in play_reason(state, "Book of Traversing Eternity")
    act(state, "buy Book of Gates (B3) for 4")
    act(state, "pay with Urn (2 gold)")
    act(state, "pay with Urn (2 gold)")
    draw(state, "Djed Amulet")
    act(state, "play Book of Traversing Eternity")
    # only base cards strictly cheaper than 4: the 3-cost Horus (Anubis and Hapy cost 5)
    assert state.discards[0][-1] == kind(state, "Statue of Horus")
    assert state.stack[-1] == (R.REFILL, 5)


# Attacks ------------------------------------------------------------------------------------


def test_qebehsenuef_each_opponent_sacrifices_their_own_choice() -> None:
    state = scenario(players=3, hand=["Qebehsenuef Canopic Jar"], pyramid=PYRAMID)
    state.hands[1] = kinds(state, ["Urn", "Shabti"])
    state.hands[2] = kinds(state, ["Statue of Thoth"])
    act(state, "play Qebehsenuef Canopic Jar")
    assert state.current_player() == 1 and labels(state) == ["sacrifice Shabti", "sacrifice Urn"]
    act(state, "sacrifice Shabti")
    assert state.current_player() == 2
    act(state, "sacrifice Statue of Thoth")
    assert state.boneyard[-2:] == kinds(state, ["Shabti", "Statue of Thoth"])
    assert state.current_player() == 0 and top_code(state) == R.MAIN


def test_attack_skips_opponents_without_cards_and_needs_one_victim() -> None:
    state = scenario(players=3, hand=["Qebehsenuef Canopic Jar"], pyramid=PYRAMID)
    state.hands[1] = []
    state.hands[2] = kinds(state, ["Urn"])
    act(state, "play Qebehsenuef Canopic Jar")
    assert state.current_player() == 2
    state = scenario(players=2, hand=["Qebehsenuef Canopic Jar"], pyramid=PYRAMID)
    state.hands[1] = []
    assert "no opponent has a card in hand" in play_reason(state, "Qebehsenuef Canopic Jar")


def test_censer_wards_off_an_attack() -> None:
    state = scenario(hand=["Qebehsenuef Canopic Jar"], pyramid=PYRAMID)
    state.hands[1] = kinds(state, ["Censer", "Urn"])
    act(state, "play Qebehsenuef Canopic Jar")
    assert "reveal Censer to ignore the attack" in labels(state)
    act(state, "reveal Censer to ignore the attack")
    assert state.hands[1] == kinds(state, ["Censer", "Urn"])
    assert state.current_player() == 0
    state = scenario(hand=["Censer"], pyramid=PYRAMID)
    assert "reaction" in play_reason(state, "Censer")


def test_duamutef_tribute_goes_on_the_attackers_discard_pile_with_exemption() -> None:
    state = scenario(players=3, hand=["Duamutef Canopic Jar"], pyramid=PYRAMID)
    state.hands[1] = kinds(state, ["Urn", "Shabti"])
    set_deck(state, 1, ["Shabti"] * 4)
    state.discards[1] = []
    state.hands[2] = kinds(state, ["Urn", "Shabti"])
    set_deck(state, 2, ["Shabti"] * 3)  # 5 cards in all: exempt
    state.discards[2] = []
    act(state, "play Duamutef Canopic Jar")
    assert state.current_player() == 1 and labels(state) == ["give Shabti to seat 0", "give Urn to seat 0"]
    act(state, "give Urn to seat 0")
    assert state.discards[0][-1] == kind(state, "Urn")
    assert state.current_player() == 0 and top_code(state) == R.MAIN


# Turn-long and repeat effects -------------------------------------------------------------------


def test_statue_of_thoth_makes_every_hand_card_worth_four() -> None:
    pyramid = ["Gilded Burial Mask", "Statue of Anubis", "Book of Gates", "Ankh Amulet", "Hapy Canopic Jar", "Censer"]
    state = scenario(hand=["Statue of Thoth", "Shabti", "Box of Food"], pyramid=pyramid)
    assert not any(label.startswith("buy Gilded") for label in labels(state))
    act(state, "play Statue of Thoth")
    assert any(label.startswith("buy Gilded") for label in labels(state))  # 2 cards x 4 = 8
    act(state, labels(state)[0])
    assert labels(state) == ["pay with Shabti (4 gold)", "pay with Box of Food (4 gold)"]
    act(state, "pay with Shabti (4 gold)")
    act(state, "pay with Box of Food (4 gold)")
    assert state.discards[0][-1] == kind(state, "Gilded Burial Mask")


def test_statue_of_thoth_also_caps_dearer_cards_at_four() -> None:
    state = scenario(hand=["Statue of Thoth", "Gilded Burial Mask"], pyramid=PYRAMID)
    act(state, "play Statue of Thoth")
    assert state.purse(0) == 4


def test_tyet_amulet_repeats_an_executed_action() -> None:
    state = scenario(hand=["Tyet Amulet", "Statue of Horus"], pyramid=PYRAMID)
    set_deck(state, 0, ["Urn", "Urn", "Urn"])
    assert "executed no action" in play_reason(state, "Tyet Amulet")
    act(state, "play Statue of Horus")
    draw(state, "Urn")
    act(state, "play Tyet Amulet")
    assert labels(state) == ["repeat the action of Statue of Horus"]
    act(state, "repeat the action of Statue of Horus")
    draw(state, "Urn")
    assert state.hands[0] == kinds(state, ["Urn", "Urn"])


def test_tyet_amulet_cannot_repeat_thoth_and_needs_a_possible_repeat() -> None:
    state = scenario(hand=["Tyet Amulet", "Statue of Thoth"], pyramid=PYRAMID)
    act(state, "play Statue of Thoth")
    assert "no action executed this turn can be repeated" in play_reason(state, "Tyet Amulet")
    state = scenario(hand=["Tyet Amulet", "Book of the Netherworld"], pyramid=PYRAMID, stock=["Chariot"])
    act(state, "play Book of the Netherworld")
    draw(state, "Chariot")  # the stock is now empty, so the repeat is impossible
    assert "no action executed this turn can be repeated now" in play_reason(state, "Tyet Amulet")


# Level II/III designed effects ----------------------------------------------------------------------


def test_offering_table_puts_a_card_back_on_top_and_the_next_draw_takes_it() -> None:
    state = scenario(hand=["Offering Table", "Shabti"], pyramid=PYRAMID)
    set_deck(state, 0, ["Urn", "Urn", "Box of Food"])
    act(state, "play Offering Table")
    draw(state, "Urn")
    draw(state, "Box of Food")
    assert state.current_player() == 0 and top_code(state) == R.HAND_PICK
    act(state, "put Shabti on top of your deck")
    assert state.tops[0] == kinds(state, ["Shabti"])
    assert state.observation(0)["players"][0]["deck_top"] == ["Shabti"]
    assert "deck_top" not in state.observation(1)["players"][0]
    state.touched = True
    act(state, "end turn")
    # the known top card is drawn without a chance node
    assert state.hands[0] == kinds(state, ["Shabti"])
    assert state.tops[0] == []


def test_topdeck_choice_is_hidden_from_others() -> None:
    state = scenario(hand=["Offering Table", "Shabti"], pyramid=PYRAMID)
    set_deck(state, 0, ["Urn", "Urn"])
    act(state, "play Offering Table")
    draw(state, "Urn")
    draw(state, "Urn")
    action = state.string_to_action("put Shabti on top of your deck")
    assert state.public_action_string(action, 0) == "put Shabti on top of your deck"
    assert state.public_action_string(action, 1) == "seat 0 puts a card from their hand on top of their deck"


def test_imsety_sacrifices_then_draws_two() -> None:
    state = scenario(hand=["Imsety Canopic Jar", "Shabti"], pyramid=PYRAMID)
    set_deck(state, 0, ["Urn", "Urn"])
    act(state, "play Imsety Canopic Jar")
    act(state, "sacrifice Shabti")
    assert state.boneyard[-1] == kind(state, "Shabti")
    draw(state, "Urn")
    draw(state, "Urn")
    assert state.hands[0] == kinds(state, ["Urn", "Urn"])


def test_hapy_takes_the_top_boneyard_card() -> None:
    state = scenario(hand=["Hapy Canopic Jar"], pyramid=PYRAMID)
    state.boneyard = kinds(state, ["Shabti", "Chariot"])
    act(state, "play Hapy Canopic Jar")
    assert state.discards[0][-1] == kind(state, "Chariot") and state.boneyard == kinds(state, ["Shabti"])
    state = scenario(hand=["Hapy Canopic Jar"], pyramid=PYRAMID)
    state.boneyard = []
    assert "boneyard is empty" in play_reason(state, "Hapy Canopic Jar")


def test_ankh_returns_a_tomb_card_to_hand() -> None:
    state = scenario(hand=["Ankh Amulet"], pyramid=PYRAMID)
    assert "your tomb is empty" in play_reason(state, "Ankh Amulet")
    state.tombs[0] = kinds(state, ["Shabti", "Statue of Horus"])
    state._legal = None
    act(state, "play Ankh Amulet")
    act(state, "return Statue of Horus from your tomb to your hand")
    assert state.hands[0] == kinds(state, ["Statue of Horus"]) and state.tombs[0] == kinds(state, ["Shabti"])


def test_discount_applies_to_the_next_purchase_only() -> None:
    state = scenario(hand=["Djed Amulet", "Urn", "Shabti"], pyramid=PYRAMID)
    act(state, "play Djed Amulet")
    assert state.purse(0) == 3 + 2
    act(state, "buy Statue of Anubis (B2) for 5")
    act(state, "pay with Urn (2 gold)")  # 5 - 2 discount = 3 due
    act(state, "pay with Shabti (1 gold)")
    assert state.discount == 0 and state.discards[0][-1] == kind(state, "Statue of Anubis")


def test_scarab_extra_entombment_needs_another_card() -> None:
    state = scenario(hand=["Scarab Amulet"], pyramid=PYRAMID)
    assert "no other card in hand" in play_reason(state, "Scarab Amulet")
    state = scenario(hand=["Scarab Amulet", "Urn", "Shabti"], pyramid=PYRAMID)
    act(state, "entomb Shabti")
    act(state, "play Scarab Amulet")
    act(state, "entomb Urn")
    assert state.tombs[0][-2:] == kinds(state, ["Shabti", "Urn"])


def test_take_base_respects_its_cost_limit() -> None:
    state = scenario(hand=["Statue of Isis"], pyramid=PYRAMID)
    limit = state.game.table.params[kind(state, "Statue of Isis")]["max_cost"]
    act(state, "play Statue of Isis")
    allowed = [n for n in PYRAMID[:3] if cost(state, n) <= limit]
    if len(allowed) > 1:
        act(state, labels(state)[0])
    assert state.game.table.names[state.discards[0][-1]] in allowed
    pyramid = ["Gilded Burial Mask", "Throne of the Pharaoh", "Statue of Osiris", None, None, None]
    state = scenario(hand=["Statue of Isis"], pyramid=pyramid)
    assert f"no base card costs {limit} or less" in play_reason(state, "Statue of Isis")


def test_cards_without_an_action_cannot_be_played() -> None:
    state = scenario(hand=["Shabti"], pyramid=PYRAMID)
    assert "Shabti has no action" in play_reason(state, "Shabti")


def test_boat_reacts_only_to_purchases() -> None:
    state = _boat_scenario()
    state.hands[0] = kinds(state, ["Statue of Isis"])
    state._legal = None
    act(state, "play Statue of Isis")
    allowed = [n for n in PYRAMID[:3] if cost(state, n) <= 3]
    assert allowed == ["Statue of Horus"]
    draw(state, "Djed Amulet")
    assert state.current_player() == 0 and top_code(state) == R.MAIN  # a take is not a purchase


def test_book_of_gates_forced_action_with_a_choice_is_made_by_the_player() -> None:
    state = scenario(hand=["Book of Gates", "Shabti", "Urn"], pyramid=PYRAMID)
    set_deck(state, 0, ["Scarab Amulet"])
    act(state, "play Book of Gates")
    draw(state, "Scarab Amulet")  # forced: entomb a hand card, the player picks which
    assert top_code(state) == R.HAND_PICK and state.revealed == kinds(state, ["Scarab Amulet"])
    act(state, "entomb Urn")
    assert state.tombs[0][-1] == kind(state, "Urn") and not state.entombed
    assert state.discards[0][-1] == kind(state, "Scarab Amulet") and state.revealed == []
