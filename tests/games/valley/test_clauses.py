"""Clauses of the Czech description that no other test checks (see the clause trace in docs/games/valley.md),
and a check that the doc cites nothing outside the repository (tests/games/test_game_docs.py checks the trace)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import obelisk
import obelisk.games.valley.rules as R
from obelisk.core import IllegalActionError
from obelisk.games.valley.data import BUILTIN_PATH
from tests.games.valley.helpers import act, after_setup, kind, kinds, labels, scenario, top_code

PYRAMID = ["Statue of Horus", "Statue of Anubis", "Book of Gates", "Ankh Amulet", "Hapy Canopic Jar", "Censer"]
ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "games" / "valley.md"


def test_two_to_four_players() -> None:
    """„Hra je určena pro dva až čtyři hráče.“"""
    for players in (2, 3, 4):
        assert obelisk.load("valley", players).num_players == players
    for players in (1, 5):
        with pytest.raises(ValueError, match="players must be from 2 to 4"):
            obelisk.load("valley", players)


def test_every_tomb_starts_empty() -> None:
    """„Každý hráč obdrží balíček deseti základních karet, vedle kterého si položí jednu kartu hrobky.“"""
    state = after_setup(4)
    assert state.tombs == [[], [], [], []]
    assert all(len(state.hands[s]) + state.deck_sizes[s] == 10 for s in range(4))


def test_players_take_turns_in_seat_order() -> None:
    """„Hráči se v tazích pravidelně střídají.“"""
    state = after_setup(3)
    rng = random.Random(1)
    seen = [state.current_player()]
    while len(seen) < 7:
        act(state, "end turn")
        while top_code(state) == R.FORCED:
            act(state, labels(state)[0])
        while state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        seen.append(state.current_player())
    assert seen == [0, 1, 2, 0, 1, 2, 0]


def test_an_entombed_card_can_no_longer_be_spent_or_played() -> None:
    """„K této kartě tím ztrácí přístup a nemůže ji pak již využívat ani k nákupu, ani k zahrání.“"""
    state = scenario(hand=["Statue of Anubis", "Urn", "Shabti"], pyramid=PYRAMID)
    act(state, "entomb Statue of Anubis")
    assert "play Statue of Anubis" not in labels(state)
    with pytest.raises(IllegalActionError, match="no Statue of Anubis in hand"):
        state.apply_action(state.game.a_play + kind(state, "Statue of Anubis"))
    act(state, "buy Statue of Horus (B1) for 3")
    # the entombed statue's 2 gold is out of reach
    assert labels(state) == ["pay with Shabti (1 gold)", "pay with Urn (2 gold)"]
    assert state.tombs[0] == kinds(state, ["Statue of Anubis"])


def test_the_highest_tomb_score_wins() -> None:
    """„Soutěž o nejkrásnější pohřeb vyhrává hráč s nejvyšším počtem vítězných bodů.“"""
    state = after_setup(3)
    state.tombs[0] = kinds(state, ["Shabti"])
    state.tombs[1] = kinds(state, ["Book of Gates", "Book of the Dead"])
    state.tombs[2] = kinds(state, ["Urn", "Urn"])
    state.over = True
    state.stack = []
    assert [state.tomb_score(s) for s in range(3)] == [1, 4, 2]
    returns = state.returns()
    assert returns[1] == max(returns) and returns[1] > returns[2] > returns[0]


def test_five_sets_with_their_frame_colours() -> None:
    """„sarkofágy (červené), kanopy (okrové), amulety (žluté), knihy (zelené), sošky (modré)“"""
    sets = json.loads(BUILTIN_PATH.read_text())["sets"]
    assert {name: spec["frame"] for name, spec in sets.items()} == {
        "sarcophagus": "red", "canopic": "ochre", "amulet": "yellow", "book": "green", "statue": "blue",
    }


def test_the_doc_cites_nothing_outside_the_repository() -> None:
    text = DOC.read_text()
    for word in ("shared/", "seeds/", "004_", "/work", "/root", "/tmp", "digest"):
        assert word not in text, word
