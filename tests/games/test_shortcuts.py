"""Shortcuts in every game that offers them: derivable from the seat's view, legal, and marked final right.

Seeded random games; at every decision the shortcuts offered to the seat to act (``offered``) are the
same on every re-deal of what that seat cannot see (their actions, words, texts and final marks), each is
a run of the seat's own legal decisions, and it is final exactly when one of its actions is.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import obelisk
from obelisk.core.i18n import language
from obelisk.core.shortcuts import Shortcut, offered

CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("valley", 2, {}), ("valley", 4, {"spent_cards": "discard"}),
    ("cleopatra", 3, {"max_rounds": 12}), ("cleopatra", 5, {"max_rounds": 8}),
    ("solomon", 3, {}), ("tomb", 3, {"max_rounds": 20}),
]


@pytest.mark.parametrize(("game_id", "players", "options"), CASES, ids=[f"{g}-{p}p" for g, p, _ in CASES])
def test_shortcuts_come_from_the_seats_view_and_are_marked_right(game_id: str, players: int,
                                                                 options: dict[str, Any]) -> None:
    state = obelisk.load(game_id, players, **options).new_initial_state(players)
    rng = random.Random(players)
    found = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        seat = state.current_player()
        shortcuts = offered(state, seat)
        assert all(offered(state, other) == [] for other in range(players) if other != seat)
        for shortcut in shortcuts:
            found += 1
            trial = state.clone()
            finals = []
            for action in shortcut.actions:
                assert trial.current_player() == seat and action in trial.legal_actions()
                finals.append(trial.is_final(action))
                trial.apply_action(action)
            assert shortcut.final == any(finals)
        for lang in ("en", "cs"):
            with language(lang):
                words = [s.to_dict() for s in offered(state, seat)]
                for _ in range(2):
                    shadow = state.resample_from_infostate(seat, rng)
                    assert [s.to_dict() for s in offered(shadow, seat)] == words
        action = rng.choice(state.legal_actions())
        buys = [a for a in state.legal_actions() if state.action_to_string(a).split(" ")[0] in ("buy", "wall")]
        state.apply_action(rng.choice(buys) if buys and rng.random() < 0.7 else action)
    assert found or game_id in ("solomon", "tomb")


def test_a_shortcut_is_plain_data() -> None:
    shortcut = Shortcut("pay", "the 5 gold at once", (3, 4), True)
    assert shortcut.to_dict() == {"word": "pay", "text": "the 5 gold at once", "actions": [3, 4], "final": True}
