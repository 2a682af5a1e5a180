"""The observation tensor: fixed size, finite, a function of the view alone, documented layout."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

import obelisk
from obelisk.games.cleopatra.data import KINDS
from obelisk.games.cleopatra.tensor import SEAT_FIELDS
from tests.games.cleopatra.helpers import chance, do, set_hand, start

DOC = Path(__file__).resolve().parents[3] / "docs" / "games" / "cleopatra.md"


def _random_states(players: int, seed: int, every: int = 1, **options):
    """Yield the positions of one uniformly random game (every ``every``-th, and the last)."""
    state = obelisk.load("cleopatra", players, **options).new_initial_state(seed)
    rng = random.Random(seed)
    step = 0
    while not state.is_terminal():
        if step % every == 0:
            yield state
        action = state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        state.apply_action(action)
        step += 1
    yield state


def _segment(game, view, name: str) -> list[float]:
    layout = game.tensor
    start_at = layout.offsets[name]
    size = dict((n, s) for n, s, _ in layout.segments)[name]
    return game.observation_tensor(view)[start_at:start_at + size]


def _seat_field(game, view, block: int, name: str) -> list[float]:
    layout = game.tensor
    start_at = layout.offsets["seats"] + block * layout.seat_size + layout.seat_offsets[name]
    size = dict((n, s) for n, s, _ in SEAT_FIELDS)[name]
    return game.observation_tensor(view)[start_at:start_at + size]


def test_size_is_the_same_at_every_player_count() -> None:
    sizes = {obelisk.load("cleopatra", n).observation_tensor_size() for n in (3, 4, 5)}
    assert sizes == {666}


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_view_of_a_long_random_game_encodes_also_after_json(players: int) -> None:
    game = obelisk.load("cleopatra", players, max_rounds=100)
    size = game.observation_tensor_size()
    positions = 0
    for state in _random_states(players, seed=players, max_rounds=100):
        positions += 1
        for seat in [None, *range(players)]:
            view = state.observation(seat)
            tensor = game.observation_tensor(view)
            assert len(tensor) == size and all(math.isfinite(x) for x in tensor)
            assert game.observation_tensor(json.loads(json.dumps(view))) == tensor
        if state.is_terminal():
            assert sum(_seat_field(game, state.observation(0), q, "eaten")[0] for q in range(players)) >= 1
    assert positions > 300


@pytest.mark.parametrize("players", [3, 5])
def test_tensor_is_unchanged_by_resampling_the_seats_information(players: int) -> None:
    game = obelisk.load("cleopatra", players)
    rng = random.Random(7)
    checked = 0
    for state in _random_states(players, seed=11, every=9):
        for seat in range(players):
            tensor = game.observation_tensor(state.observation(seat))
            for _ in range(2):
                other = state.resample_from_infostate(seat, rng)
                assert game.observation_tensor(other.observation(seat)) == tensor
            checked += 1
    assert checked > 100


def test_own_hand_first_and_hidden_hands_only_as_seen() -> None:
    s = start(players=4)
    set_hand(s, 0, stone=2)
    set_hand(s, 2, artisan=3, vizier=1)
    s.known[1][2][KINDS.index("vizier")] = 1
    g = s.game
    own = _seat_field(g, s.observation(2), 0, "cards")
    assert own[KINDS.index("artisan")] == pytest.approx(3 / 5) and own[KINDS.index("vizier")] == pytest.approx(1 / 5)
    assert _seat_field(g, s.observation(2), 0, "hand_visible") == [1.0]
    assert _seat_field(g, s.observation(2), 0, "talents")[0] == pytest.approx(s.talents[2] / 50)
    # Seat 1 sees seat 2 one place on, knowing only the Vizier.
    seen = _seat_field(g, s.observation(1), 1, "cards")
    assert seen[KINDS.index("vizier")] == pytest.approx(1 / 5) and seen[KINDS.index("artisan")] == 0
    assert _seat_field(g, s.observation(1), 1, "talents") == [0.0]
    assert _seat_field(g, s.observation(1), 1, "hand_size") == [pytest.approx(4 / 20)]
    # The spectator counts from seat 0 and sees no hand.
    spectator = s.observation(None)
    assert _segment(g, spectator, "spectator") == [1.0]
    assert _seat_field(g, spectator, 0, "hand_visible") == [0.0]
    assert _seat_field(g, spectator, 0, "cards")[KINDS.index("stone")] == 0
    # Seat blocks beyond the player count are empty; turn and actor are relative.
    assert _seat_field(g, s.observation(0), 4, "present") == [0.0]
    assert _segment(g, s.observation(1), "turn") == [0, 0, 0, 1.0, 0]
    assert _segment(g, s.observation(0), "current_player")[0] == 1.0


def test_market_palace_garden_and_decision_are_encoded() -> None:
    s = start(players=3)
    g = s.game
    s.stalls = [[(KINDS.index("stone"), 1), (KINDS.index("wood"), 0), (KINDS.index("lapis"), 0)], [], []]
    stall = _segment(g, s.observation(1), "stall_0")
    assert stall[KINDS.index("stone")] == pytest.approx(1 / 5) and stall[-1] == pytest.approx(2 / 5)
    assert sum(stall) == pytest.approx(3 / 5)
    s.stack_top, s.stack_rest = 1, [0, 2]
    set_hand(s, 0, artisan=2, stone=1, marble=1, lapis=1)
    do(s, "build mosaic I")
    phase = _segment(g, s.observation(0), "phase")
    assert phase[g.tensor.phase_of["place"]] == 1.0 and sum(phase) == 1.0
    assert _segment(g, s.observation(0), "piece")[6] == 1.0
    do(s, "lay I on a1 b1 c1 d1 e1")
    chance(s, 0)
    garden = _segment(g, s.observation(2), "garden_mosaic")
    assert [c for c, x in enumerate(garden) if x] == [0, 1, 2, 3, 4]
    assert _segment(g, s.observation(2), "stack_top")[0] == 1.0
    assert _seat_field(g, s.observation(2), 1, "palace")[5] == pytest.approx(1 / 12)
    assert _seat_field(g, s.observation(0), 0, "palace")[5] == pytest.approx(1 / 12)


def test_layout_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Observation tensor", 1)[1].split("\n## ", 1)[0]
    for span, meaning in obelisk.load("cleopatra", 3).tensor.describe():
        assert f"| {span} | {meaning} |" in section
