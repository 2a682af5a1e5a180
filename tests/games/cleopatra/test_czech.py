"""Cleopatra in Czech: seeded playouts render every label, log line, reason, screen and help text in Czech with
the rulebook's terms, and English stays exactly as it was (the digests of tests/games/test_playout_digests.py)."""

from __future__ import annotations

import random

import pytest

import obelisk
from obelisk.core import i18n
from obelisk.games.cleopatra import data


def _playout(seed: int, players: int) -> list[str]:
    """Everything a seeded random game says, in the active language."""
    game = obelisk.load("cleopatra", players=players, max_rounds=4, priest_faces=3)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    said = [game.render_legend(state.observation(0)), game.help().summary]
    said += [entry.name + entry.text + "".join(f"{k}{v}" for k, v in entry.numbers) for entry in game.help().entries]
    while not state.is_terminal():
        if state.current_player() < 0:
            outcome = state.sample_chance()
            said.append(state.action_to_string(outcome))
            state.apply_action(outcome)
            continue
        legal = state.legal_actions()
        said += [state.action_to_string(a) for a in legal]
        illegal = next(a for a in range(game.num_distinct_actions()) if a not in legal)
        with pytest.raises(obelisk.IllegalActionError) as refused:
            state.apply_action(illegal)
        said.append(str(refused.value))
        action = rng.choice(legal)
        said += [state.public_action_string(action, seat) for seat in [*range(players), None]]
        state.apply_action(action)
        said.append(game.render_observation(state.observation(state.move_number() % players)))
    said.append(game.render_observation(state.observation(None)))
    said += [game.score_heading(key) for key in state.scores()[0]["breakdown"]]
    return said


@pytest.mark.parametrize(("seed", "players"), [(1, 3), (2, 4), (3, 5)])
def test_a_czech_playout_renders_and_differs_from_english(seed: int, players: int) -> None:
    english = _playout(seed, players)
    with i18n.language("cs"):
        czech = _playout(seed, players)
    assert len(czech) == len(english)
    assert _playout(seed, players) == english
    changed = sum(1 for e, c in zip(english, czech) if e != c)
    assert changed > 0.9 * len(english)
    text = "\n".join(czech)
    for word in ("Hromádka", "hráč", "sfingy", "Mozaika bohů", "Balíček"):
        assert word in text


def test_rulebook_terms() -> None:
    game = obelisk.load("cleopatra", players=3)
    with i18n.language("cs"):
        names = {entry.key: entry.name for entry in game.help().entries}
        assert names["card:tainted_wood"] == "Nečisté dřevo"
        assert names["card:beggars"] == "Žebráci"
        assert names["card:vizier"] == "Vezír"
        assert names["piece:walls"] == "Obvodová zeď"
        assert names["piece:mosaics"] == "Mozaika bohů"
        assert names["kit:nile_merchant"] == "Nilský kupec"
        assert game.score_heading("eaten") == "Sežrán krokodýlem"
        state = game.new_initial_state(4)
        while state.current_player() < 0:
            state.apply_action(state.sample_chance())
        labels = [state.action_to_string(a) for a in state.legal_actions()]
        assert any(label.startswith("vzít hromádku A") for label in labels)
        tr = i18n.domain("cleopatra")
        assert tr.n("{n} amulet", "{n} amulets", 1) == "1 amulet"
        assert tr.n("{n} amulet", "{n} amulets", 3) == "3 amulety"
        assert tr.n("{n} amulet", "{n} amulets", 5) == "5 amuletů"


def test_terms_list_every_shown_name() -> None:
    terms = set(data.terms())
    tables = data.load_tables()
    assert {("card", name) for name in tables.names} <= terms
    assert {("piece", name) for name in tables.category_names.values()} <= terms


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_log_line_of_the_rules_is_worded_in_czech(players: int) -> None:
    from obelisk.games.cleopatra.view import log_line

    lines: set[str] = set()
    for seed in range(2):
        state = obelisk.load("cleopatra", players=players).new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply_action(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
            lines.update(state.observation(0)["log"])
    with i18n.language("cs"):
        worded = {line: log_line(line) for line in lines}
    untranslated = [line for line, czech in worded.items() if czech == line or " player " in f" {czech} "]
    assert not untranslated
    assert log_line("player 2 takes stall B (3 cards)") == "player 2 takes stall B (3 cards)"
    with i18n.language("cs"):
        assert log_line("player 2 takes stall B (3 cards)") == "hráč 2 vzal hromádku B (3 karty)"
        assert log_line("game over: amulets [2, 0, 5], eaten [3]") == "konec hry: amulety 2, 0, 5, sežráni hráči 3"
