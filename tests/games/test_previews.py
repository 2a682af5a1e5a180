"""Previews in every game that offers them: of the seat's own legal actions, and derivable from its view.

Seeded random games; at every decision the previews of the seat to act (``previews.offered``) are the same
on every re-deal of what that seat cannot see (the other seats' hands, the face-down tiles and cards), in
English and in Czech, and each names one of its legal actions.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import obelisk
from obelisk.core.i18n import language
from obelisk.core.previews import offered

CASES: list[tuple[str, int, dict[str, Any], set[str]]] = [
    ("valley", 2, {}, {"buy"}),
    ("cleopatra", 3, {"max_rounds": 6}, {"place", "pay", "wall"}),
    ("solomon", 2, {}, {"dig", "move"}),
]


@pytest.mark.parametrize(("game_id", "players", "options", "ranges"), CASES, ids=[c[0] for c in CASES])
def test_previews_name_legal_actions_and_read_only_the_seats_view(game_id: str, players: int,
                                                                  options: dict[str, Any], ranges: set[str]) -> None:
    game = obelisk.load(game_id, players, **options)
    state = game.new_initial_state(players)
    rng = random.Random(players)
    seen: set[str] = set()
    decisions = 0
    while not state.is_terminal() and decisions < 400:
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        seat = state.current_player()
        decisions += 1
        found = offered(state, seat)
        assert all(offered(state, other) == [] for other in range(players) if other != seat)
        legal = state.legal_actions()
        named = [action for p in found for action in p.actions]
        assert [p.actions[0] for p in found] == sorted(p.actions[0] for p in found)
        assert len(named) == len(set(named)) and set(named) <= set(legal) and all(p.text for p in found)
        seen.update(game.action_range(action)[0] for action in named)
        if found and decisions % 3 == 0:
            shadow = state.resample_from_infostate(seat, random.Random(decisions))
            assert offered(shadow, seat) == found
            with language("cs"):
                assert offered(shadow, seat) == offered(state, seat)
        state.apply_action(rng.choice(legal))
    assert ranges <= seen
