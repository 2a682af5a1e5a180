"""What the table says in words, in every game: the decision at hand (``Game.render_decision``) and the
progress (``Game.render_progress``).

Seeded random games of every game and player count, in English and in Czech: every decision reached has
a non-empty line, and it is the same whichever seat's view (or a spectator's) it is worded from, so it
names nothing hidden; no line while chance or nobody is to act; the progress is never empty and reads the
same from every view too.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import obelisk
from obelisk.core import State
from obelisk.core.i18n import language

CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("solomon", 2, {}), ("solomon", 3, {}), ("solomon", 4, {}), ("solomon", 5, {}),
    ("tomb", 2, {"max_rounds": 60}), ("tomb", 4, {"max_rounds": 30}), ("tomb", 6, {"max_rounds": 20}),
    ("tomb", 3, {"pyramid": "big", "max_rounds": 40}),
    ("cleopatra", 3, {}), ("cleopatra", 4, {"max_rounds": 12}), ("cleopatra", 5, {"max_rounds": 10}),
    ("valley", 2, {}), ("valley", 3, {}), ("valley", 4, {}),
]


def _lines(state: State, lang: str) -> tuple[str, str]:
    """The decision and the progress, each checked to read the same from every seat's view and a spectator's."""
    game = state.game
    with language(lang):
        views = [state.observation(seat) for seat in [*range(state.num_players), None]]
        decisions = {game.render_decision(view) for view in views}
        progress = {game.render_progress(view) for view in views}
    assert len(decisions) == 1 and len(progress) == 1, (decisions, progress)
    return decisions.pop(), progress.pop()


@pytest.mark.parametrize(("game_id", "players", "options"), CASES,
                         ids=[f"{g}-{p}p" + ("-big" if o.get("pyramid") else "") for g, p, o in CASES])
def test_every_decision_is_said_in_words_that_hide_nothing(game_id: str, players: int, options: dict[str, Any]
                                                            ) -> None:
    state = obelisk.load(game_id, players, **options).new_initial_state(players)
    rng = random.Random(players)
    said: Counter[str] = Counter()
    while not state.is_terminal():
        for lang in ("en", "cs"):
            decision, progress = _lines(state, lang)
            assert progress
            assert bool(decision) == (state.current_player() >= 0), (lang, state.current_player(), decision)
            if lang == "en":
                said[decision] += 1
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert _lines(state, "en")[0] == "" and _lines(state, "cs")[0] == ""
    assert len(said) > 3


def test_the_decision_follows_the_game() -> None:
    valley = obelisk.load("valley", 2).new_initial_state(1)
    while valley.is_chance_node():
        valley.apply_action(valley.sample_chance())
    view = valley.observation(1)
    assert valley.game.render_decision(view) == "buy, play, entomb or end the turn"
    assert valley.game.render_progress(view) == "turn 1 · stock 49 cards · pyramid 6 cards"
    with language("cs"):
        assert valley.game.render_decision(view) == "koupit, zahrát, uložit do hrobky nebo ukončit tah"
    buy = next(a for a in valley.legal_actions() if valley.action_to_string(a).startswith("buy "))
    label = valley.action_to_string(buy)
    valley.apply_action(buy)
    due = valley.observation(0)["pending"]["gold_due"]
    card = label.split("buy ", 1)[1].split(" (")[0]
    assert valley.game.render_decision(valley.observation(0)) == f"pay {due} more gold for {card}"

    tomb = obelisk.load("tomb", 2).new_initial_state(1)
    tomb.apply_action(tomb.sample_chance())
    view = tomb.observation(None)
    die = view["turn"]["die"]
    assert tomb.game.render_decision(view) == f"choose an archaeologist to move {die} step" + ("s" if die > 1 else "")
    assert tomb.game.render_progress(view) == "round 1 · chamber closed · 48 tiles face down"

    solomon = obelisk.load("solomon", 3).new_initial_state(1)
    while solomon.is_chance_node():
        solomon.apply_action(solomon.sample_chance())
    assert solomon.game.render_decision(solomon.observation(2)) == "choose an excavation card for round 1"
    assert solomon.game.render_progress(solomon.observation(2)) == "round 1 of 8 · choosing cards"
