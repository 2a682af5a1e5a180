"""The per-game PettingZoo modules under PettingZoo's API and seed tests."""

from __future__ import annotations

import functools
import importlib

import pytest

pytest.importorskip("pettingzoo")

from obelisk.adapters import pettingzoo as obelisk_pz  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

# Tomb's random games wander for hundreds of rounds; a low cap keeps every check fast.
GAMES = [("solomon", {"players": 2}), ("tomb", {"players": 2, "max_rounds": 4}), ("cleopatra", {"players": 3}),
         ("valley", {"players": 2})]
IDS = [game for game, _ in GAMES]
CYCLES = 60


def _module(game_id: str):
    return importlib.import_module(f"obelisk.adapters.pettingzoo.{game_id}_v0")


@pytest.mark.filterwarnings("ignore:Observation space for each agent:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.parametrize("game_id,kwargs", GAMES, ids=IDS)
def test_pettingzoo_api_and_seed_tests(game_id: str, kwargs: dict) -> None:
    module = _module(game_id)
    env = module.env(**kwargs)
    assert env.metadata["name"] == f"obelisk_{game_id}_v0"
    assert type(module.raw_env(**kwargs)) is obelisk_pz.ObeliskAECEnv
    api_test(env, num_cycles=CYCLES, verbose_progress=False)
    seed_test(functools.partial(module.env, **kwargs), num_cycles=CYCLES)


def test_the_generic_entry_point_is_the_same_env() -> None:
    from obelisk.adapters.pettingzoo import valley_v0

    ours, generic = valley_v0.raw_env(players=3), obelisk_pz.raw_env("valley", players=3)
    ours.reset(seed=5)
    generic.reset(seed=5)
    assert ours.state_.to_json() == generic.state_.to_json()
    assert ours.metadata == generic.metadata
