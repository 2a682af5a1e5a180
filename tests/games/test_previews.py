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
    ("cleopatra", 3, {"max_rounds": 6}, {"place", "pay", "wall", "sphinx", "door", "mosaic"}),
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


PIECES = {"wall", "sphinx", "pedestal", "throne", "obelisk", "door", "mosaic"}


def test_cleopatra_piece_previews_say_the_engines_cost_talents_and_completion() -> None:
    """Each piece's preview names what the engine would do on finishing it now: its cost, the talents it brings
    (a mosaic: those of the places it fits) and, for the last of a category, Cleopatra's next step."""
    seen: set[str] = set()
    for seed in (1, 2, 3):
        _play_building(seed, seen)
    assert {"wall", "sphinx", "pedestal", "door", "mosaic", "completes"} <= seen


def _play_building(seed: int, seen: set[str]) -> None:
    """A seeded game in which the seat to act builds whenever it can, each piece preview checked."""
    game = obelisk.load("cleopatra", 3, max_rounds=8)
    state = game.new_initial_state(3)
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        for preview in offered(state, state.current_player()):
            name, index = game.actions.decode(preview.actions[0])
            if name in PIECES:
                seen.update({name, "completes"} if "it completes the " in preview.text else {name})
                _check_piece(state, preview.text, name, index)
        legal = state.legal_actions()
        building = [a for a in legal if game.actions.decode(a)[0] in PIECES | {"pay", "place"}]
        state.apply_action(rng.choice(building or legal))


def _check_piece(state: Any, text: str, name: str, index: int) -> None:
    from obelisk.games.cleopatra.actions import cost_text
    from obelisk.games.cleopatra.state import PIECE_CATEGORY
    tables = state.tables
    assert f"costs {cost_text(tables.costs[PIECE_CATEGORY[name]])}, brings " in text
    finished = state.clone()
    finished.apply_action(state.game.actions.encode(name, index))
    while finished.phase == "pay" and not finished.is_chance_node():
        finished.apply_action(finished.legal_actions()[0])
    seat = state.turn
    if name == "mosaic":
        places = [finished._rules.placement_rewards[index][state.game.actions.decode(a)[1]]
                  for a in finished.legal_actions()]
        assert f"fits in {len(places)} place" in text
        low, high = min(places), max(places)
        assert (f"brings {low} talent" if low == high else f"brings {low} to {high} talents") in text
        after = finished.clone()
        after.apply_action(finished.legal_actions()[0])
        while after.is_chance_node() and not after.is_terminal():
            after.apply_action(after.legal_actions()[0])
    else:
        after = finished
        gained = after.talents[seat] - state.talents[seat]
        assert f"brings {gained} talent" in text
    completes = after.cleopatra > state.cleopatra
    assert ("it completes the " in text) == completes, text
    if completes and not after.is_terminal():
        assert f"Cleopatra moves to step {after.cleopatra} of " in text
