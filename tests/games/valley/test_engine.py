"""The tuned hot paths agree with their plain definitions."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

import obelisk
from obelisk.core import CHANCE, TERMINAL, pools, testing
from obelisk.games.valley.scoring import GOLD_PROMISE
from tests.games.valley.helpers import after_setup, kind


def test_draws_follow_the_pool_counts_and_the_legal_list_is_the_outcome_ids() -> None:
    game = obelisk.load("valley", 3)
    state = game.new_initial_state(4)
    rng = random.Random(4)
    draws = 0
    while not state.is_terminal():
        assert state.is_chance_node() == (state.current_player() == CHANCE)
        if state.is_chance_node():
            pool = state._draw_pool()[0]
            outcomes = state.chance_outcomes()
            assert outcomes == pools.pool_outcomes(pool)
            assert state.legal_actions() == [k for k, _ in outcomes]
            state._legal = None
            assert state.legal_actions() == [k for k, _ in outcomes]
            draws += 1
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert state.current_player() == TERMINAL and draws > 200


def test_resampled_hands_are_uniform_over_hand_and_deck() -> None:
    state = after_setup(seed=1)
    # seat 1 holds 4 Shabti, 3 Urn, 2 Box of Food, 1 Offering Table in hand and deck: 5 in hand
    rng = random.Random(0)
    seen: Counter[int] = Counter()
    trials = 2000
    for _ in range(trials):
        other = state.resample_from_infostate(0, rng)
        assert len(other.hands[1]) == 5 and other.deck_sizes[1] == 5
        assert sum(other.decks[1]) == 5 and other.tops[1] == []
        seen.update(other.hands[1])
    expected = {"Shabti": 4, "Urn": 3, "Box of Food": 2, "Offering Table": 1}
    for name, copies in expected.items():
        share = seen[kind(state, name)] / (5 * trials)
        assert abs(share - copies / 10) < 0.02, (name, share)


def _plain_evaluate(state) -> list[float]:
    """The documented evaluation, written plainly: tomb points + left share x what owned cards promise."""
    table = state.game.table
    left = (sum(state.stock_sizes) + state.pyramid_count()) / table.stock_total()
    values = []
    for seat in range(state.num_players):
        tomb = state.tombs[seat]
        distinct = [len({k for k in tomb if table.set_of[k] == s}) for s in range(len(table.set_names))]
        owned = [*state.hands[seat], *state.tops[seat], *state.discards[seat]]
        owned += [k for k, c in enumerate(state.decks[seat]) for _ in range(c)]
        if seat == state.active:
            owned += state.play + state.revealed
        promise = 0.0
        for kind, count in Counter(owned).items():
            if table.set_of[kind] >= 0:
                gain = 0 if kind in tomb else 2 * distinct[table.set_of[kind]] + 1
            else:
                gain = table.vp[kind] * count
            promise += 0.5 * gain + GOLD_PROMISE * count * table.gold[kind]
        values.append(state.tomb_score(seat) + left * promise)
    n = state.num_players
    return [math.tanh((v - (sum(values) - v) / (n - 1)) / 12.0) for v in values]


def test_evaluate_matches_its_plain_definition() -> None:
    for players in (2, 4):
        game = obelisk.load("valley", players)
        for state in testing.sampled_states(game, games=2, seed=11, per_game=8):
            if not state.is_terminal():
                assert state.evaluate() == pytest.approx(_plain_evaluate(state), abs=1e-12)
