"""Cards shown in a hand (a Censer revealed, a card returned from the tomb) are remembered publicly."""

from __future__ import annotations

import json
import random

import pytest

from obelisk.games.valley.tensor import layout, seat_width
from tests.games.valley.helpers import act, after_setup, draw, kind, kinds, scenario, set_deck

PYRAMID = ["Statue of Horus", "Statue of Anubis", "Book of Gates", "Ankh Amulet", "Hapy Canopic Jar", "Censer"]


def attacked_with_censer(reveal: bool):
    """Seat 0 attacks with Qebehsenuef; seat 1 holds Censer among 5 cards over a deck of 15 Shabti and Urn."""
    state = scenario(hand=["Qebehsenuef Canopic Jar", "Urn"], pyramid=PYRAMID)
    state.hands[1] = kinds(state, ["Censer", "Urn", "Shabti", "Shabti", "Urn"])
    set_deck(state, 1, ["Shabti"] * 8 + ["Urn"] * 7)
    act(state, "play Qebehsenuef Canopic Jar")
    act(state, "reveal Censer to ignore the attack" if reveal else "sacrifice Shabti")
    return state


def censer_in_hand_after_resampling(state, trials: int = 200) -> int:
    rng = random.Random(3)
    censer = kind(state, "Censer")
    count = 0
    for _ in range(trials):
        other = state.resample_from_infostate(0, rng)
        assert other.observation(0) == state.observation(0)
        count += censer in other.hands[1]
    return count


def test_a_revealed_censer_is_shown_to_everyone_and_stays_in_the_resampled_hand() -> None:
    state = attacked_with_censer(reveal=True)
    for seat in (0, 1, None):
        assert state.observation(seat)["players"][1]["shown"] == ["Censer"]
    assert state.observation(0)["players"][0]["shown"] == []
    assert censer_in_hand_after_resampling(state) == 200
    text = state.game.render_observation(state.observation(0))
    assert "shown in hand: Censer" in text


def test_without_the_reveal_the_censer_may_be_dealt_into_the_deck() -> None:
    state = attacked_with_censer(reveal=False)
    assert state.observation(0)["players"][1]["shown"] == []
    assert 0 < censer_in_hand_after_resampling(state) < 200


def test_a_second_reveal_does_not_count_the_censer_twice() -> None:
    state = attacked_with_censer(reveal=True)
    state.hands[0] = kinds(state, ["Khopesh"])
    state._legal = None
    act(state, "play Khopesh")
    act(state, "reveal Censer to ignore the attack")
    assert state.shown[1] == kinds(state, ["Censer"])


def test_the_shown_card_is_forgotten_when_it_leaves_the_hand_or_the_turn_ends() -> None:
    state = attacked_with_censer(reveal=True)
    act(state, "end turn")
    act(state, "remove Statue of Horus (B1) to the boneyard")
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    assert state.current_player() == 1 and state.shown[1] == kinds(state, ["Censer"])
    act(state, "entomb Censer")
    assert state.shown[1] == []
    state = attacked_with_censer(reveal=True)
    state.shown[1].append(kind(state, "Urn"))
    state.active, state.touched = 1, True
    state.stack = [(0, 1)]
    state._legal = None
    act(state, "end turn")
    assert state.shown[1] == []


def test_a_card_returned_from_the_tomb_is_shown_until_it_leaves_the_hand() -> None:
    state = scenario(hand=["Ankh Amulet", "Urn"], pyramid=PYRAMID)
    state.tombs[0] = kinds(state, ["Shabti", "Statue of Horus"])
    state._legal = None
    act(state, "play Ankh Amulet")
    act(state, "return Statue of Horus from your tomb to your hand")
    assert state.observation(1)["players"][0]["shown"] == ["Statue of Horus"]
    rng = random.Random(0)
    for _ in range(50):
        assert kind(state, "Statue of Horus") in state.resample_from_infostate(1, rng).hands[0]
    act(state, "play Statue of Horus")
    assert state.shown[0] == []


def test_putting_a_card_back_face_down_forgets_what_was_shown() -> None:
    state = scenario(hand=["Offering Table", "Urn", "Shabti"], pyramid=PYRAMID)
    set_deck(state, 0, ["Shabti", "Shabti"])
    state.shown[0] = kinds(state, ["Urn"])
    act(state, "play Offering Table")
    draw(state, "Shabti")
    draw(state, "Shabti")
    act(state, "put Shabti on top of your deck")
    assert state.shown[0] == []
    assert state.observation(1)["players"][0]["shown"] == []


def test_the_tensor_encodes_shown_cards_per_seat() -> None:
    state = attacked_with_censer(reveal=True)
    game = state.game
    k = game.table.size
    start = next(a for name, a, _ in layout(k) if name == "seats")
    width = seat_width(k)
    tensor = game.observation_tensor(state.observation(0))
    opponent = tensor[start + width:start + 2 * width]
    assert opponent[10 + 4 * k + kind(state, "Censer")] == 1.0
    assert sum(tensor[start + 10 + 4 * k:start + width]) == 0.0


def test_a_saved_state_whose_shown_cards_the_history_did_not_show_is_refused() -> None:
    state = after_setup(seed=5)
    state.game.state_from_json(json.dumps(state.to_json()))
    state.shown[1] = kinds(state, ["Boat"])
    with pytest.raises(ValueError, match="field 'shown'\\[1\\] is \\[[0-9]+\\], expected \\[\\] \\(from replaying the history\\)"):
        state.game.state_from_json(json.dumps(state.to_json()))
