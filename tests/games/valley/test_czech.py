"""Valley of the Kings in Czech: every label, log line, screen and help text renders, with the rulebook's terms,
while the English texts stay as they were."""

from __future__ import annotations

import random

import pytest

import obelisk
from obelisk.core import IllegalActionError, i18n
from obelisk.core.protocol import TERMINAL
from obelisk.games.valley.data import terms
from tests.games.valley.helpers import after_setup, kind


def _playout(seed: int, players: int) -> list[str]:
    """A random game rendered in Czech at every step: labels, hidden labels, illegal reasons and screens."""
    game = obelisk.load("valley", players)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    texts: list[str] = []
    with i18n.language("cs"):
        while not state.is_terminal():
            if state.is_chance_node():
                action = state.sample_chance(rng)
            else:
                legal = state.legal_actions()
                texts += [state.action_to_string(a) for a in legal]
                illegal = next(a for a in rng.sample(range(game.num_distinct_actions()), 40) if a not in legal)
                with pytest.raises(IllegalActionError) as refused:
                    state.apply_action(illegal)
                texts.append(str(refused.value))
                action = rng.choice(legal)
            texts += [state.public_action_string(action, seat) for seat in range(players)]
            state.apply_action(action)
            if rng.random() < 0.2:
                texts += [game.render_observation(state.observation(seat)) for seat in (*range(players), None)]
        texts += [game.render_observation(state.observation(seat)) for seat in (*range(players), None)]
        texts += [game.score_heading(key) for key in state.scores()[0]["breakdown"]]
    assert state.current_player() == TERMINAL
    return texts


@pytest.mark.parametrize("seed, players", [(1, 2), (2, 3), (3, 4)])
def test_a_game_renders_in_czech_throughout(seed: int, players: int) -> None:
    texts = _playout(seed, players)
    joined = "\n".join(texts)
    assert "hráč 1" in joined and "hráč 0" not in joined and "Konec hry: " in joined
    for english in ("seat ", "buy ", "end turn", "draws", "Pyramid,", "tomb score"):
        assert english not in joined, english


def test_labels_and_screens_use_the_rulebook_terms() -> None:
    state = after_setup(seed=5)
    game = state.game
    with i18n.language("cs"):
        labels = {state.action_to_string(a) for a in state.legal_actions()}
        screen = game.render_observation(state.observation(0))
        legend = game.render_legend(state.observation(0))
        assert "ukončit tah" in labels
        assert "Pyramida, vrcholek a mezipatro: " in screen and "Základ (k nákupu): " in screen
        assert "hřbitov" in screen and "Zásoba: " in screen
        assert "Šabti (1/1): Bez akce" in legend
        assert game.score_heading("starters") == "Základní karty"
        assert game.score_heading("statue") == "Sošky"
        assert game.score_heading("uniques") == "Unikátní karty"
        assert i18n.domain("valley").term("game", "Valley of the Kings") == "Údolí králů"
        assert i18n.domain("valley").n("{n} card", "{n} cards", 3) == "3 karty"
        assert i18n.domain("valley").n("{n} card", "{n} cards", 5) == "5 karet"
    assert "end turn" in {state.action_to_string(a) for a in state.legal_actions()}


def test_an_illegal_action_is_explained_in_czech() -> None:
    state = next(s for s in map(lambda seed: after_setup(seed=seed), range(20)) if kind(s, "Shabti") in s.hands[0])
    play_shabti = state.game.a_play + kind(state, "Shabti")
    with i18n.language("cs"), pytest.raises(IllegalActionError) as refused:
        state.apply_action(play_shabti)
    assert str(refused.value) == "kartu Šabti teď nelze zahrát: Šabti nemá žádnou akci"
    with pytest.raises(IllegalActionError, match="^Shabti cannot be played now: Shabti has no action$"):
        state.apply_action(play_shabti)


def test_the_help_speaks_czech_and_keeps_its_keys() -> None:
    game = obelisk.load("valley", 2)
    english = game.help()
    with i18n.language("cs"):
        czech = game.help()
    assert [e.key for e in czech.entries] == [e.key for e in english.entries]
    by_key = {e.key: e for e in czech.entries}
    assert by_key["card:book_of_the_dead"].name == "Kniha mrtvých"
    assert by_key["card:shabti"].name == "Šabti"
    assert dict(by_key["card:urn"].numbers)["nákupní cena"] == 2
    assert by_key["set:statue_set"].name == "sošky"
    assert czech.summary.startswith("Údolí králů je hra o stavění balíčku")
    assert english.summary.startswith("Valley of the Kings is a deck-building game")
    assert by_key["card:shabti"].text != dict((e.key, e) for e in english.entries)["card:shabti"].text


def test_every_term_of_the_card_file_is_translated() -> None:
    with i18n.language("cs"):
        for kind_name, text in terms():
            if kind_name in ("card", "text", "rules", "game"):
                assert i18n.domain("valley").term(kind_name, text) != text, (kind_name, text)


def test_a_labelled_card_is_named_in_czech() -> None:
    state = after_setup(seed=5)
    play = state.game.a_play + kind(state, "Box of Food")
    with i18n.language("cs"):
        assert state.action_to_string(play) == "zahrát kartu Schránka s jídlem"
    assert state.action_to_string(play) == "play Box of Food"
