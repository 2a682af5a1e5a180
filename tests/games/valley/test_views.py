"""Views and hidden information, labels, illegal-action messages, rendering and evaluation."""

from __future__ import annotations

import json
import random
import re

import pytest

import obelisk
import obelisk.games.valley.rules as R
from obelisk.core import IllegalActionError
from tests.games.valley.helpers import act, after_setup, draw, kind, kinds, scenario, set_deck

PYRAMID = ["Statue of Horus", "Statue of Anubis", "Book of Gates", "Ankh Amulet", "Hapy Canopic Jar", "Censer"]


def test_hands_and_decks_are_hidden_counts_are_public() -> None:
    state = after_setup()
    mine, theirs, spectator = state.observation(0), state.observation(1), state.observation(None)
    assert "hand" in mine["players"][0] and "hand" not in mine["players"][1]
    assert "hand" in theirs["players"][1] and "hand" not in theirs["players"][0]
    assert all("hand" not in p for p in spectator["players"])
    for view in (mine, theirs, spectator):
        assert [p["hand_size"] for p in view["players"]] == [5, 5]
        assert [p["deck_size"] for p in view["players"]] == [5, 5]
        assert view["stock"] == {"level_ii": 22, "level_iii": 27}
        assert len(view["boneyard"]) == 1 and all(c["card"] for c in view["pyramid"])
    # hand and deck together are public (every card's owner is known), their split is not
    assert spectator["players"][0]["hand_and_deck"] == {"Shabti": 4, "Urn": 3, "Box of Food": 2, "Offering Table": 1}
    json.dumps(spectator)


def test_draws_are_seen_only_by_the_drawer() -> None:
    state = obelisk.load("valley", 2).new_initial_state(0)
    while state.stack[-1][0] != R.DRAW:
        state.apply_action(state.sample_chance(random.Random(0)))
    action = state.sample_chance(random.Random(1))
    seat = state.stack[-1][1]
    assert state.public_action_string(action, seat).startswith(f"seat {seat} draws ")
    assert state.public_action_string(action, 1 - seat) == f"seat {seat} draws a card"
    assert state.public_action_string(action, None) == f"seat {seat} draws a card"


def test_pyramid_and_gates_reveals_are_public() -> None:
    state = obelisk.load("valley", 2).new_initial_state(0)
    action = state.sample_chance(random.Random(1))
    assert state.public_action_string(action, 1) == state.action_to_string(action)
    assert state.action_to_string(action).startswith("deal ")


def test_resample_redeals_opponents_and_keeps_own_knowledge() -> None:
    state = scenario(hand=["Offering Table", "Shabti"], pyramid=PYRAMID)
    set_deck(state, 0, ["Urn", "Urn"])
    act(state, "play Offering Table")
    draw(state, "Urn")
    draw(state, "Urn")
    act(state, "put Shabti on top of your deck")
    changed = False
    for i in range(20):
        rng = random.Random(i)
        own = state.resample_from_infostate(0, rng)
        assert own.hands[0] == state.hands[0] and own.tops[0] == state.tops[0]
        assert own.observation(0) == state.observation(0)
        other = state.resample_from_infostate(1, rng)
        assert other.hands[1] == state.hands[1]
        assert other.observation(1) == state.observation(1)
        assert sorted(other.hands[0]) != sorted(state.hands[0]) or other.tops[0] != state.tops[0] or changed
        changed = changed or other.hands[0] != state.hands[0]
    assert changed


def test_resample_keeps_a_half_paid_purchase_payable() -> None:
    state = scenario(hand=["Urn", "Urn", "Shabti"], pyramid=PYRAMID)
    set_deck(state, 0, ["Shabti"] * 6)
    act(state, "buy Statue of Anubis (B2) for 5")
    act(state, "pay with Shabti (1 gold)")
    assert state.stack[-1] == (R.PAY, 0, 1, 4)
    for i in range(30):
        other = state.resample_from_infostate(1, random.Random(i))
        assert other.purse(0) >= 4
        assert other.legal_actions()


def test_illegal_actions_have_specific_messages_and_change_nothing() -> None:
    state = scenario(hand=["Urn", "Shabti"], pyramid=PYRAMID)
    before = json.dumps(state.to_json(), sort_keys=True)
    cases = [
        (state.game.a_buy + 1, "Statue of Anubis costs 5 but your hand is worth only 3 gold"),
        (state.game.a_play + kind(state, "Book of Gates"), "seat 0 has no Book of Gates in hand"),
        (state.game.a_pay + kind(state, "Urn"), "'pay with Urn (2 gold)' is not possible now; seat 0: buy, play"),
        (state.game.a_take + 3, "is not possible now"),
        (state.game.num_distinct_actions() + 3, "outside the action space"),
    ]
    for action, message in cases:
        with pytest.raises(IllegalActionError, match=re.escape(message)):
            state.apply_action(action)
        assert json.dumps(state.to_json(), sort_keys=True) == before
    with pytest.raises(IllegalActionError, match="not seat 1's turn"):
        state.apply_action(state.game.a_end, player=1)


def test_render_observation_draws_the_pyramid_hand_tomb_discard_and_boneyard() -> None:
    state = scenario(hand=["Urn", "Shabti"], pyramid=PYRAMID)
    state.tombs[0] = kinds(state, ["Shabti", "Book of Gates"])
    state.discards[0] = kinds(state, ["Urn", "Statue of Horus"])
    view = state.observation(0)
    text = state.game.render_observation(view)
    lines = text.splitlines()
    assert lines[0].startswith("Pyramid, top and middle: T Censer (4) · M1 Ankh Amulet (4)")
    assert "M2 Hapy Canopic Jar (5)" in lines[0] + lines[1]
    base = text[text.index("Base row (to buy): "):text.index("Stock:")]
    assert "B1 Statue of Horus (3)" in base and "B3 Book of Gates (4)" in base
    assert "hand: Shabti, Urn" in text
    assert "tomb: Book of Gates, Shabti" in text
    assert "(top Statue of Horus)" in text
    assert "boneyard 1 (top " in text and "1 cards" not in text
    assert "Now: seat 0: buy, play, entomb or end the turn" in text
    assert "hand:" not in state.game.render_observation(state.observation(1)).split("Seat 1")[0].split("Seat 0")[1]


def test_god_view_is_deterministic_and_complete() -> None:
    state = after_setup(seed=3)
    text = str(state)
    assert text == str(state.clone())
    assert "stock III (27)" in text and "hand:" in text


def test_evaluate_prefers_the_richer_tomb() -> None:
    state = after_setup()
    state.tombs[0] = kinds(state, ["Statue of Thoth", "Statue of Horus", "Statue of Isis", "Statue of Ptah"])
    values = state.evaluate()
    assert values[0] > 0 > values[1]
    assert all(-1.0 <= v <= 1.0 for v in values)


def test_clone_is_independent() -> None:
    state = scenario(hand=["Urn", "Urn"], pyramid=PYRAMID)
    clone = state.clone()
    act(clone, "buy Statue of Horus (B1) for 3")
    assert state.stack[-1] == (R.MAIN, 0) and state.hands[0] == kinds(state, ["Urn", "Urn"])
    assert clone.to_json() != state.to_json()


def test_resample_never_consults_the_real_hand_order() -> None:
    """Two hands that differ only in order are re-dealt alike: the deal starts from kinds."""
    state = scenario(hand=["Urn", "Shabti", "Box of Food", "Offering Table"], pyramid=PYRAMID)
    set_deck(state, 0, ["Shabti", "Urn", "Shabti"])
    twin = state.clone()
    twin.hands[0] = list(reversed(twin.hands[0]))
    assert twin.observation(1) == state.observation(1)
    dealt = set()
    for i in range(30):
        ours = state.resample_from_infostate(1, random.Random(i))
        theirs = twin.resample_from_infostate(1, random.Random(i))
        assert ours.hands == theirs.hands and ours.decks == theirs.decks
        dealt.add(tuple(ours.hands[0]))
    assert len(dealt) > 1
