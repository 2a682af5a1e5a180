"""Tomb in Czech: every label, log line, screen and help text of seeded games renders in the rulebook's words,
and English stays exactly as it was (the playout digests check labels and views)."""

from __future__ import annotations

import random

import pytest

import obelisk
from obelisk.core import i18n
from obelisk.core.text import words
from obelisk.games.tomb.board import ITEM_IDS
from obelisk.games.tomb.data import item_word, tile_name
from obelisk.games.tomb.view import _event_patterns, event_text
from tests.games.tomb.helpers import figure, give, labels, new, play, turn


def playout(players: int, seed: int, **options: object) -> list[tuple[object, int | None]]:
    """A seeded random game: each position (a clone) with the seat to act."""
    game = obelisk.load("tomb", players, **options)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    seen = []
    for _ in range(500):
        if state.is_terminal():
            break
        seen.append((state.clone(), None if state.is_chance_node() else state.current_player()))
        state.apply_action(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    seen.append((state, None))
    return seen


@pytest.mark.parametrize(("players", "seed", "pyramid"), [(2, 1, "small"), (4, 2, "big"), (6, 3, "small")])
def test_seeded_games_render_in_czech(players: int, seed: int, pyramid: str) -> None:
    game = obelisk.load("tomb", players, pyramid=pyramid)
    events: set[str] = set()
    with i18n.language("cs"):
        for state, actor in playout(players, seed, pyramid=pyramid):
            for seat in [None, *range(players)]:
                view = state.observation(seat)
                screen = game.render_observation(view)
                assert "Hráč 1" in screen and "Hráč 0" not in screen and "Seat " not in screen
                game.render_legend(view)
                game.render_brief(view)
                events.update(view["events"])
            if state.is_terminal():
                continue
            actions = state.legal_actions()
            for action in actions:
                label = state.action_to_string(action)
                assert label
                for seat in range(players):
                    assert state.public_action_string(action, seat)
            if actor is not None:
                illegal = next(a for a in range(game.num_distinct_actions()) if a not in actions)
                with pytest.raises(obelisk.IllegalActionError) as refused:
                    state.apply_action(illegal)
                assert "seat " not in str(refused.value)
    with i18n.language("cs"):
        for event in events:
            assert event_text(event) != event or not any(ch.isalpha() for ch in event.replace("player", ""))


def test_every_event_line_the_rules_write_has_its_message() -> None:
    for players, seed, pyramid in ((3, 4, "big"), (5, 5, "small")):
        for state, _ in playout(players, seed, pyramid=pyramid):
            for event in state.events:
                assert any(pattern.fullmatch(event) for pattern, _ in _event_patterns()), event
                assert event_text(event) == event


def test_spot_checks_use_the_rulebooks_words() -> None:
    s = new(3)
    give(s, 0, "plan", "food")
    figure(s, 0, "NW")
    with i18n.language("cs"):
        turn(s, 0, 3)
        assert "nasadit u jihovýchodního vchodu" in labels(s)
        assert "táhnout archeologem u vchodu SZ" in labels(s)
        assert "použít plánek: prohlédnout si dvě neodkrytá pole" in labels(s)
        assert "sníst jídlo: kostka na 6" in labels(s)
        assert tile_name("corner with Food") == "zatáčka: Jídlo"
        assert tile_name("t junction with blue inscription") == "odbočka: modrý nápis"
        assert tile_name("straight with Poison gas") == "rovná chodba: Jedovatý plyn"
        assert item_word("first_aid_kit") == "lékárnička"
        game = s.game
        assert [game.score_heading(c) for c in ("inscriptions", "items", "chamber_entry")] == [
            "Nápisy", "Předměty", "Vstup do komnaty"]
        help_ = game.help()
        names = {entry.key: entry.name for entry in help_.entries}
        assert names["item:papyrus_of_the_dead"] == "Papyrus mrtvých"
        assert names["obstacle:collapsed_walls"] == "Rozvalené zdi"
        assert names["tile:dark_shrine"] == "Temná svatyně"
        assert names["tile:chamber"] == "Pohřební komnata"
        assert help_.summary.startswith("Tajemství prastaré hrobky")
        assert event_text("player 2 reads the yellow inscription") == "hráč 2 přečetl nápis (žlutá)"
        assert event_text("Snake on C3 kills player 3's archaeologist") == "Had na C3 zabil archeologa hráče 3"
        play(s, "táhnout archeologem u vchodu SZ")
        assert s.public_action_string(s.legal_actions()[0], 1)


def test_czech_plural_forms() -> None:
    tr = i18n.domain("tomb")
    with i18n.language("cs"):
        assert [tr.n("{n} step", "{n} steps", n) for n in (1, 3, 5, 0)] == ["1 krok", "3 kroky", "5 kroků", "0 kroků"]
        assert tr.n("{n} archaeologist in reserve", "{n} archaeologists in reserve", 2) == "2 archeologové v záloze"


def test_english_names_are_unchanged() -> None:
    for pyramid in ("small", "big"):
        game = obelisk.load("tomb", 2, pyramid=pyramid)
        for kind in game.tables.kinds:
            assert tile_name(kind.name) == kind.name
    assert [item_word(item) for item in ITEM_IDS] == [words(item) for item in ITEM_IDS]
    game = obelisk.load("tomb", 2)
    assert [game.score_heading(c) for c in ("inscriptions", "items", "chamber_entry")] == [
        "Inscriptions", "Items", "Chamber entry"]


def test_the_game_and_its_options_are_named_in_czech() -> None:
    tr = i18n.domain("tomb")
    info = obelisk.load("tomb", 2).info
    with i18n.language("cs"):
        assert tr.term("game", info.name) == "Tajemství prastaré hrobky"
        assert tr.term("game", info.description) != info.description
        for option in info.options:
            assert tr.term("option", option.description) != option.description
        pyramid = next(option for option in info.options if option.name == "pyramid")
        assert [tr.term("option", label) for label in pyramid.value_labels] == ["Malá", "Velká"]
