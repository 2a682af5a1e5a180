"""Secret cards: what the Courtesans take and the Vizier keeps stays with their player, and a payment or the
end of a turn is asked alike whatever the hidden hand holds."""

from __future__ import annotations

import random
import re

import pytest

from obelisk.games.cleopatra.data import KINDS
from tests.games.cleopatra.helpers import action, chance, do, labels, set_hand, start
from tests.games.cleopatra.privacy import check_others_alike_in_lockstep

K = {name: i for i, name in enumerate(KINDS)}
UP = len(KINDS)


def _courtesans_ready():
    """Seat 0 holds the Courtesans and a wall's cards; the discard pile holds 2 Lapis and a Stone, seen by all."""
    s = start()
    set_hand(s, 0, courtesans=1, artisan=1, wood=1, stone=1)
    for kind in ("lapis", "lapis", "stone"):
        s._discard(K[kind])
    s._legal = None
    do(s, "play Courtesans")
    return s


def test_courtesans_card_is_not_shown_to_the_opponents() -> None:
    """Courtesans: "Vybranou kartu svým protihráčům nemusíte ukazovat" (the chosen card need not be shown)."""
    s = _courtesans_ready()
    lapis, stone = action(s, "courtesan", K["lapis"]), action(s, "courtesan", K["stone"])
    for seat in (1, 2, None):
        assert s.public_action_string(lapis, seat) == "seat 0 takes a card from the discard pile"
        assert s.public_action_string(stone, seat) == s.public_action_string(lapis, seat)
    assert s.public_action_string(lapis, 0) == "take Lapis from the discard pile"
    took_lapis, took_stone = s.clone(), s.clone()
    took_lapis.apply_action(lapis)
    took_stone.apply_action(stone)
    for seat in (1, 2, None):
        assert took_lapis.observation(seat) == took_stone.observation(seat)
    view = took_lapis.observation(1)
    assert view["players"][0]["known_cards"] == {}
    # The others knew the pile and know that one card left it: a Lapis for sure, one card they cannot name.
    assert view["discard_pile"] == 3 and view["discards"] == {"Lapis": 1, "Courtesans": 1}
    text = took_lapis.game.render_observation(view)
    beside_the_garden = re.sub(r"(?m)^(    [a-i]{9}|  \d \S{9})  ", "", text)
    assert "discards 3: Lapis, Courtesans, 1 not seen since a Courtesans take" in " ".join(beside_the_garden.split())
    assert "Lapis" not in " ".join(view["log"]) and "Stone" not in " ".join(view["log"])
    assert took_lapis.observation(0)["discards"] == {"Lapis": 1, "Stone": 1, "Courtesans": 1}


def test_courtesans_card_is_re_dealt_for_the_opponents() -> None:
    """What the others cannot know is re-dealt: the card in hand and the card missing from the pile."""
    s = _courtesans_ready()
    do(s, "take Lapis from the discard pile")
    rng = random.Random(2)
    held, piles = set(), set()
    for _ in range(60):
        other = s.resample_from_infostate(1, rng)
        assert other.observation(1) == s.observation(1) and other.observation(None) == s.observation(None)
        held.add(tuple(other.hands[0]))
        piles.add(tuple(other.discards))
    assert len(held) > 3 and len(piles) > 3
    assert all(s.resample_from_infostate(0, rng).discards == s.discards for _ in range(5))


def test_courtesans_player_sees_the_whole_pile() -> None:
    """The Courtesans' player chooses from the pile, so it learns a card another Courtesans took from it."""
    s = _courtesans_ready()
    do(s, "take Lapis from the discard pile")
    assert s.observation(1)["discards"] == {"Lapis": 1, "Courtesans": 1}
    s.turn = s.actor = 1
    s.phase = "turn"
    set_hand(s, 1, courtesans=1)
    s._legal = None
    do(s, "play Courtesans")
    assert s.observation(1)["discards"] == {"Lapis": 1, "Stone": 1, "Courtesans": 1}


def _vizier_drawn(kinds: tuple[int, ...]):
    s = start()
    set_hand(s, 0, vizier=1)
    do(s, "play Vizier")
    for outcome in kinds:
        chance(s, outcome)
    return s


def test_vizier_cards_are_not_shown_even_when_face_up_in_the_deck() -> None:
    """Vizier: "Získané karty nemusíte ukazovat svým soupeřům" (the cards obtained need not be shown)."""
    s = start()
    set_hand(s, 0, vizier=1)
    do(s, "play Vizier")
    lapis_up, stone_up = UP + K["lapis"], UP + K["stone"]
    for seat in (1, 2, None):
        assert s.public_action_string(lapis_up, seat) == "seat 0 draws a card for the Vizier"
        assert s.public_action_string(K["wood"], seat) == "seat 0 draws a card for the Vizier"
    assert s.public_action_string(lapis_up, 0) == "draw Lapis (face-up)"
    first = _vizier_drawn((lapis_up, K["wood"], K["artisan"], K["marble"], K["stone"]))
    second = _vizier_drawn((stone_up, K["wood"], K["artisan"], K["marble"], K["stone"]))
    keep = action(first, "keep")
    for seat in (1, 2, None):
        assert first.observation(seat) == second.observation(seat)
        assert first.public_action_string(keep, seat) == "seat 0 keeps a card (+1 amulet)"
    assert first.observation(0)["pending"][0] == "Lapis"
    do(first, "keep Lapis")
    do(second, "keep Stone")
    for seat in (1, 2, None):
        assert first.observation(seat) == second.observation(seat)
    reject = action(first, "reject")
    assert first.public_action_string(reject, 1) == "discard Wood"  # a discarded card goes openly to the pile
    assert first.known[1][0] == [0] * len(K) and first.known[3][0] == [0] * len(K)


def test_vizier_kept_card_is_re_dealt_for_the_opponents() -> None:
    s = _vizier_drawn((UP + K["lapis"], K["wood"], K["artisan"], K["marble"], K["stone"]))
    do(s, "keep Lapis")
    rng = random.Random(4)
    kinds = set()
    for _ in range(40):
        other = s.resample_from_infostate(2, rng)
        assert other.observation(2) == s.observation(2)
        kinds.add(tuple(other.hands[0]))
        assert all(not up for _, up in other.pending)
    assert len(kinds) > 3


def test_turn_ends_by_itself_only_when_everybody_sees_there_is_no_character() -> None:
    """A hand the others cannot see ends its turn by choice; an empty hand ends it by itself."""
    s = start()
    s.stalls = [[(K["stone"], 0)], [(K["marble"], 1)], [(K["lapis"], 1)]]
    s._legal = None
    do(s, "take stall A")
    for _ in range(3):
        chance(s, K["artisan"])
    assert s.turn == 0 and s.phase == "after"
    do(s, "end turn")
    s.stalls = [[], [], []]
    set_hand(s, 1, artisan=1, wood=1, stone=1)
    do(s, "build wall L1", "finish building")
    chance(s, 0)  # no priest symbol rolled
    assert s.turn == 2  # seat 1's hand is empty: nothing can be hidden in it



WALL_BY_CARDS = ["pay artisan with Artisan", "pay stone with Stone", "pay wood with Wood"]


@pytest.mark.parametrize("second_way,no_way", [
    ("trompe_l_oeil", "marble"), ("tainted_wood", "lapis"), ("tainted_artisan", "marble"),
])
def test_payment_is_asked_alike_whatever_the_hidden_cards(second_way: str, no_way: str) -> None:
    """Ruling 18: a hidden hand is asked for every unit, so whether it had a choice stays hidden.

    The twins hold the cards of a wall plus one hidden card: in the first it
    can pay a unit in a second way, in the second it cannot. Both pay with the
    same cards, and the others must not tell the twins apart through the
    whole build, the dice and the end of the turn.
    """
    twins = []
    for extra in (second_way, no_way):
        s = start()
        set_hand(s, 0, artisan=1, stone=1, wood=1, **{extra: 1})
        twins.append(s)
    script = ["build wall L1", *WALL_BY_CARDS, "finish building", 0, "end turn"]
    assert check_others_alike_in_lockstep(twins, 0, script) == len(script)
    assert [s.walls[0] for s in twins] == [0, 0] and [s.turn for s in twins] == [1, 1]


def test_a_hidden_hand_is_asked_even_for_its_only_way_to_pay() -> None:
    s = start()
    set_hand(s, 0, artisan=1, stone=1, wood=1, marble=1)
    s.apply_action(action(s, "wall", 0))
    assert s.phase == "pay" and s.current_player() == 0
    assert labels(s) == ["pay artisan with Artisan"]
    for seat in (1, 2, None):
        assert s.public_action_string(s.legal_actions()[0], seat) == "pay artisan with Artisan"


def test_a_hand_everybody_knows_pays_its_only_way_by_itself() -> None:
    """When every card of the hand is public knowledge, asking tells nothing: the only way is taken at once."""
    s = start()
    set_hand(s, 0, artisan=1, stone=1, wood=1, marble=1)
    for viewer in range(1, s.num_players + 1):
        s.known[viewer][0] = list(s.hands[0])
    s.apply_action(action(s, "wall", 0))
    assert s.phase == "build" and s.walls[0] == 0 and s.hands[0] == [0, 0, 1] + [0] * 14
    s2 = start()
    set_hand(s2, 0, artisan=1, stone=1, wood=1, tainted_wood=1)
    for viewer in range(1, s2.num_players + 1):
        s2.known[viewer][0] = list(s2.hands[0])
    s2.apply_action(action(s2, "wall", 0))
    assert s2.phase == "pay" and labels(s2) == ["pay wood with Wood", "pay wood with Tainted Wood (+1 amulet)"]
