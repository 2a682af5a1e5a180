"""Option ``spent_cards``: where cards spent on a purchase lie until the turn ends.

The Czech description: „hráč nejprve odhodí z ruky na svoji odhazovací hromádku tolik karet, aby jejich
úhrnná peněžní hodnota dosáhla či překročila nákupní cenu vybrané karty. Koupenou kartu pak umístí na vršek
své odhazovací hromádky.“ (the player first discards from hand onto their discard pile cards worth at least
the cost; the bought card then goes on top of the discard pile). The published rulebook (Valley of the Kings, AEG 2014, purchase rules) keeps
spent cards in play until the end of the turn; that is the default.
"""

from __future__ import annotations

import pytest

import obelisk

from tests.games.valley.helpers import act, draw, inconsistency, kinds, labels, scenario, set_deck

PYRAMID = ["Statue of Horus", "Statue of Anubis", "Book of Gates", "Ankh Amulet", "Hapy Canopic Jar", "Censer"]


def _buy_horus(**options):
    state = scenario(hand=["Book of the Heavens", "Urn", "Urn"], pyramid=PYRAMID, **options)
    state.discards[0] = kinds(state, ["Shabti"] * 2)
    act(state, "buy Statue of Horus (B1) for 3")
    act(state, "pay with Urn (2 gold)")
    act(state, "pay with Urn (2 gold)")
    draw(state, "Djed Amulet")
    return state


def test_default_spent_cards_lie_in_the_play_area() -> None:
    state = _buy_horus()
    assert state.play == kinds(state, ["Urn", "Urn"])
    assert state.discards[0] == kinds(state, ["Shabti", "Shabti", "Statue of Horus"])
    # 3 cards in the discard pile: Book of the Heavens (needs 5) cannot be played
    assert "play Book of the Heavens" not in labels(state)
    act(state, "end turn")
    assert state.play == []


def test_discard_spent_cards_go_to_the_discard_pile_under_the_bought_card() -> None:
    state = _buy_horus(spent_cards="discard")
    assert state.play == []
    assert state.discards[0] == kinds(state, ["Shabti", "Shabti", "Urn", "Urn", "Statue of Horus"])
    # the spent Urns count towards Book of the Heavens' five cards and can be entombed by it
    act(state, "play Book of the Heavens")
    assert "entomb Urn from your discard pile" in labels(state)
    act(state, "entomb Urn from your discard pile")
    assert state.tombs[0][-1] == kinds(state, ["Urn"])[0]


@pytest.mark.parametrize("spent_cards", ["play_area", "discard"])
def test_played_cards_stay_in_the_play_area_under_both_settings(spent_cards: str) -> None:
    state = scenario(hand=["Statue of Horus"], pyramid=PYRAMID, spent_cards=spent_cards)
    act(state, "play Statue of Horus")
    assert state.play == kinds(state, ["Statue of Horus"])


@pytest.mark.parametrize("spent_cards", ["play_area", "discard"])
def test_the_tribute_exemption_counts_the_same_cards_under_both_settings(spent_cards: str) -> None:
    state = _buy_horus(spent_cards=spent_cards)
    set_deck(state, 0, [])
    # hand (Book of the Heavens) + play area + discard pile: 1 + 5 spent and bought either way
    assert state.card_total(0) == 6


def test_the_option_rejects_unknown_values() -> None:
    with pytest.raises(ValueError, match="option 'spent_cards' must be one of 'play_area', 'discard'"):
        obelisk.load("valley", 2, spent_cards="hand")


@pytest.mark.parametrize("players", [2, 4])
def test_random_games_with_spent_cards_discarded_finish_within_the_bound(players: int) -> None:
    from obelisk.core import testing

    game = obelisk.load("valley", players, spent_cards="discard")
    for seed in range(4):
        state = testing.random_playout(game, seed)
        assert len(set(state.turns)) == 1
        assert inconsistency(state) is None
