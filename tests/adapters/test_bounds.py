"""The declared observation bounds hold for every feature of every game's tensor in sampled random play."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import obelisk  # noqa: E402
from obelisk import games  # noqa: E402
from obelisk.adapters import _spaces  # noqa: E402

FOUR = games.shipped()
# Tomb's random games wander for hundreds of rounds; a cap keeps the sample fast without changing the encoding.
OPTIONS = {"tomb": {"max_rounds": 40}}


def _sampled_tensors(game_id: str, players: int, seed: int, every: int = 2):
    game = obelisk.load(game_id, players, **OPTIONS.get(game_id, {}))
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    step = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        step += 1
        if step % every == 0 or state.is_terminal():
            for seat in [*range(players), None]:
                yield np.asarray(game.observation_tensor(state.observation(seat)), dtype=np.float32)


@pytest.mark.parametrize("game_id", FOUR)
def test_random_play_stays_inside_the_declared_range(game_id: str) -> None:
    info = next(g for g in obelisk.list_games() if g.id == game_id)
    low, high = _spaces.observation_range(obelisk.load(game_id, info.min_players))
    assert np.isfinite([low, high]).all() and low < high
    seen = 0
    for players in (info.min_players, info.max_players):
        for seed in (1, 2):
            for tensor in _sampled_tensors(game_id, players, seed):
                outside = np.flatnonzero((tensor < low) | (tensor > high))
                where = f"{game_id} {players}p seed {seed}"
                assert outside.size == 0, f"{where}: feature {outside[0]} is {tensor[outside[0]]}"
                seen += 1
    assert seen > 100


@pytest.mark.parametrize("game_id", FOUR)
def test_every_game_declares_its_range(game_id: str) -> None:
    assert game_id in _spaces.OBSERVATION_RANGES


def test_a_value_outside_the_range_is_clipped_and_reported_once(monkeypatch: pytest.MonkeyPatch) -> None:
    game = obelisk.load("valley", 2)
    state = game.new_initial_state(3)
    raw = list(game.observation_tensor(state.observation(0)))
    raw[0], raw[1] = 99.0, -5.0
    monkeypatch.setattr(game, "observation_tensor", lambda view: raw)
    monkeypatch.setattr(_spaces, "_WARNED", set())
    warnings = []
    monkeypatch.setattr(_spaces.gymnasium.logger, "warn", warnings.append)
    for _ in range(2):
        tensor = _spaces.observation_tensor(game, state, 0)
        assert (tensor[0], tensor[1]) == (4.0, 0.0)
        assert _spaces.observation_box(game).contains(tensor)
    assert len(warnings) == 1 and "valley: observation feature 0 is 99.0" in warnings[0]
