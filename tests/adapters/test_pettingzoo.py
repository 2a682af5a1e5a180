"""The PettingZoo adapter: PettingZoo's API and seed tests for every game, views, masks, rendering."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import obelisk  # noqa: E402
from obelisk.adapters import pettingzoo as obelisk_pz  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402
from tests.adapters.common import CASES, GAME_CASES, require_tensor  # noqa: E402

CYCLES = 300


@pytest.mark.filterwarnings("ignore:Observation space for each agent:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.parametrize("game_id,players", CASES)
def test_api(game_id: str, players: int) -> None:
    require_tensor(obelisk.load(game_id, players))
    env = obelisk_pz.env(game_id, players=players)
    assert env.metadata["name"] == f"obelisk_{game_id}_v0"
    api_test(env, num_cycles=CYCLES, verbose_progress=False)


@pytest.mark.parametrize("game_id,players", CASES)
def test_seed(game_id: str, players: int) -> None:
    require_tensor(obelisk.load(game_id, players))
    seed_test(lambda: obelisk_pz.env(game_id, players=players), num_cycles=CYCLES)


def _trajectory(env, seed: int) -> list[int]:
    env.reset(seed=seed)
    actions = []
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = int(np.flatnonzero(obs["action_mask"])[-1])
        actions.append(action)
        env.step(action)
    return env.unwrapped.state_.history()


def test_seed_drives_chance() -> None:
    env = obelisk_pz.env("highcard", players=4)
    histories = {tuple(_trajectory(env, seed)) for seed in range(6)}
    assert len(histories) > 1
    assert _trajectory(env, 3) == _trajectory(env, 3)


def test_any_non_negative_reset_seed_is_accepted_as_in_gymnasium() -> None:
    env = obelisk_pz.env("highcard", players=3)
    huge = 2**63 + 5
    assert _trajectory(env, huge) == _trajectory(env, huge)
    assert env.unwrapped.state_.seed == 5
    assert len({tuple(_trajectory(env, seed)) for seed in (2**64, 2**80, 10**30, 2**63 - 1)}) > 1
    assert _trajectory(env, 10**5000) == _trajectory(env, 10**5000)  # beyond what Python prints in decimal
    raw = obelisk_pz.raw_env("highcard", players=2)
    for bad in (-1, 1.5, "3", True):
        with pytest.raises(ValueError, match="reset seed must be None or a non-negative integer"):
            raw.reset(seed=bad)


@pytest.mark.parametrize("game_id,players", GAME_CASES)
def test_views_and_masks(game_id: str, players: int) -> None:
    game = obelisk.load(game_id, players)
    require_tensor(game)
    env = obelisk_pz.raw_env(game_id, players=players)
    env.reset(seed=4)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        state = env.state_
        for other in env.agents:
            seat = env.possible_agents.index(other)
            view = env.observe(other)
            expected = np.asarray(game.observation_tensor(state.observation(seat)), dtype=np.float32)
            assert np.array_equal(view["observation"], expected)
            if other == agent:
                assert list(np.flatnonzero(view["action_mask"])) == state.legal_actions()
            else:
                assert not view["action_mask"].any()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_final_rewards_are_the_returns() -> None:
    env = obelisk_pz.raw_env("highcard", players=3)
    env.reset(seed=9)
    finals = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated:
            finals[agent] = reward
            env.step(None)
        else:
            env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    returns = env.state_.returns()
    assert finals == {f"seat_{i}": returns[i] for i in range(3)}


def test_render_shows_the_view_of_the_seat_to_act(capsys: pytest.CaptureFixture[str]) -> None:
    env = obelisk_pz.env("highcard", players=2, render_mode="ansi")
    env.reset(seed=1)
    state = env.unwrapped.state_
    seat = state.current_player()
    assert env.render() == (f"move {state.move_number()}, seat_{seat} to act; seat_{seat}'s view\n"
                            + env.unwrapped.game.render_observation(state.observation(seat)))
    human = obelisk_pz.env("highcard", players=2, render_mode="human")
    human.reset(seed=1)
    assert human.render() is None
    assert capsys.readouterr().out == env.render() + "\n"
    with pytest.raises(ValueError, match="render_mode must be None, 'human' or 'ansi'"):
        obelisk_pz.env("highcard", players=2, render_mode="rgb_array")


def test_render_shows_the_spectator_view_at_the_end() -> None:
    env = obelisk_pz.raw_env("highcard", players=2, render_mode="ansi")
    _trajectory(env, 2)
    state = env.state_
    assert env.render() == (f"move {state.move_number()}, game over\n"
                            + env.game.render_observation(state.observation(None)))


@pytest.mark.parametrize("bad", [1.9, 0.0, "1", False, np.float32(1.0), np.bool_(True)])
def test_raw_step_refuses_an_action_that_is_not_an_integer(bad: object) -> None:
    env = obelisk_pz.raw_env("highcard", players=2)
    env.reset(seed=0)
    before = env.state_.to_json()
    with pytest.raises(ValueError, match="an action must be an integer id"):
        env.step(bad)
    assert env.state_.to_json() == before
    obs, *_ = env.last()
    env.step(np.int64(np.flatnonzero(obs["action_mask"])[0]))
    assert env.state_.move_number() > len(before["history"])
