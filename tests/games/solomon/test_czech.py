"""King Solomon's Treasury in Czech: every label, log line, screen and help text renders, in the rulebook's words."""

from __future__ import annotations

import random

import pytest

import obelisk
from obelisk.core import i18n
from obelisk.games.solomon import data as d
from obelisk.games.solomon.view import log_line

from .helpers import started


def playout(players: int, seed: int, **options: object) -> tuple[obelisk.Game, list[str]]:
    """Plays one seeded random game, rendering everything in Czech at every step; the English log lines met."""
    game = obelisk.load("solomon", players, **options)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    logs: list[str] = []
    while not state.is_terminal():
        action = state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        with i18n.language("cs"):
            assert state.action_to_string(action)
            for seat in [*range(players), None]:
                assert state.public_action_string(action, seat)
                view = state.observation(seat)
                assert game.render_observation(view)
                assert game.render_legend(view)
        logs.extend(view["log"][-2:])
        state.apply_action(action)
    with i18n.language("cs"):
        for seat in range(players):
            assert "Konečné body:" in game.render_observation(state.observation(seat))
    return game, logs


@pytest.mark.parametrize(("players", "seed", "options"), [
    (2, 1, {}), (3, 2, {}), (5, 3, {}),
    (4, 4, {"move_limit": 3, "unaffordable": "penalty", "mirror_reflect": True, "change": "unlimited"}),
])
def test_seeded_games_render_in_czech_without_english_log_lines(players: int, seed: int,
                                                               options: dict[str, object]) -> None:
    _, logs = playout(players, seed, **options)
    with i18n.language("cs"):
        for line in set(logs):
            shown = log_line(line)
            assert shown != line, f"log line not translated: {line!r}"
            assert "seat" not in shown


def test_every_illegal_reason_renders_in_czech() -> None:
    state = started(3, seed=4)
    rng = random.Random(4)
    with i18n.language("cs"):
        for _ in range(120):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            legal = set(state.legal_actions())
            for action in range(state._rules.actions.size):
                if action not in legal:
                    reason = state._illegal_reason(action)
                    assert reason and "seat" not in reason
            state.apply_action(rng.choice(sorted(legal)))


def test_rulebook_terms_in_labels_screens_and_help() -> None:
    state = started(2, seed=0)
    game = state.game
    with i18n.language("cs"):
        labels = [state.action_to_string(a) for a in state.legal_actions()]
        assert all(label.startswith("zvol kartu ") for label in labels)
        assert state.public_action_string(state.legal_actions()[0], 1) == "hráč 0 volí kartu"
        screen = game.render_observation(state.observation(0))
        assert screen.startswith("Pokladnice krále Šalamouna — kolo 1 z 12, volba karet")
        assert "Zásoba: 20 mincí" in screen
        assert "Hráč 0 (ty): 10 mincí, 12 karet, žádné destičky" in screen
        assert "Vchod do jeskyně (sever) je nahoře" in game.render_legend(state.observation(0))
        names = {entry.key: entry.name for entry in game.help().entries}
        assert names["magic:mirror"] == "Zrcadlo královny ze Sáby"
        assert names["magic:pickaxe"] == "Kouzelný krumpáč"
        assert names["magic:seal"] == "Šalamounova pečeť"
        assert names["magic:amulet"] == "Amulet Samsonův vous"
        assert names["tile:curse"] == "Prokletí" and names["tile:scroll"] == "Svitek" and names["tile:treasure"] == "Poklad"
        assert game.score_heading("magic") == "Magické předměty"
        assert i18n.domain("solomon").term("game", game.info.name) == "Pokladnice krále Šalamouna"
        assert log_line("seat 1 pays 2 with coins") == "hráč 1 platí 2 mincemi"
        assert log_line("seat 0 uses the Seal of Solomon") == "hráč 0 používá: Šalamounova pečeť"
        assert log_line("seat 2 pays with treasure 5, change 2 coins + treasure 1") == (
            "hráč 2 platí pokladem 5, vráceno 2 mince + poklad 1")
        assert log_line("round 2: seat 1 plays card 3, seat 0 plays card 9") == (
            "kolo 2: hráč 1 hraje kartu 3, hráč 0 hraje kartu 9")
        tr = i18n.domain("solomon")
        assert [tr.n("{n} coin", "{n} coins", n) for n in (1, 3, 5)] == ["1 mince", "3 mince", "5 mincí"]


def test_english_stays_as_it_was() -> None:
    state = started(2, seed=0)
    game = state.game
    assert state.action_to_string(state.legal_actions()[0]).startswith("choose card ")
    assert game.render_observation(state.observation(0)).startswith("King Solomon's Treasury — round 1 of 12, choosing cards")
    assert game.score_heading("magic") == "Magic"
    assert game.score_heading("coins") == "Coins"
    assert log_line("seat 1 pays 1 coins") == "seat 1 pays 1 coin"
    assert [t for k, t in d.terms() if k == "tile"] == list(d.KIND_NAMES)
