"""The single-agent Gymnasium adapter: Gymnasium's env checker for every game, bots as opponents, masks."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import gymnasium  # noqa: E402
import obelisk  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from obelisk.adapters.gym import ILLEGAL_ACTION_REWARD, make  # noqa: E402
from obelisk.bots import bot_kinds  # noqa: E402
from tests.adapters.common import TWO_PLAYER_CASES, require_tensor  # noqa: E402

# "random" always exists; "greedy" is the default opponent once registered.
OPPONENTS = [kind for kind in ("random", "greedy") if kind in bot_kinds()]


@pytest.mark.parametrize("opponent", OPPONENTS)
@pytest.mark.parametrize("game_id", TWO_PLAYER_CASES)
def test_check_env(game_id: str, opponent: str) -> None:
    require_tensor(obelisk.load(game_id, 2))
    for seat in (0, 1):
        check_env(make(game_id, seat=seat, opponents=opponent, players=2), skip_render_check=True)


def _episode(env, seed: int, pick=lambda mask: int(np.flatnonzero(mask)[0])):
    obs, info = env.reset(seed=seed)
    observations, total = [obs], 0.0
    terminated = False
    while not terminated:
        obs, reward, terminated, truncated, info = env.step(pick(info["action_mask"]))
        assert not truncated
        observations.append(obs)
        total += reward
    return observations, total


@pytest.mark.parametrize("game_id", TWO_PLAYER_CASES)
def test_episodes_end_with_the_learners_return(game_id: str) -> None:
    require_tensor(obelisk.load(game_id, 2))
    env = make(game_id, seat=1, opponents="random", players=2)
    _, total = _episode(env, seed=2)
    assert total == env.unwrapped._state.returns()[1]
    first, _ = _episode(env, seed=5)
    again, _ = _episode(env, seed=5)
    assert all(np.array_equal(a, b) for a, b in zip(first, again)) and len(first) == len(again)


def test_mask_matches_the_legal_actions() -> None:
    env = make("highcard", seat=0, opponents="random", players=3)
    obs, info = env.reset(seed=0)
    state = env.unwrapped._state
    assert state.current_player() == 0
    assert list(np.flatnonzero(info["action_mask"])) == state.legal_actions()
    assert env.observation_space.contains(obs)


def test_illegal_action_ends_the_episode() -> None:
    env = make("highcard", seat=0, opponents="random", players=2, allow_swap=False)
    _, info = env.reset(seed=0)
    assert list(np.flatnonzero(info["action_mask"])) == [0]
    _, reward, terminated, _, info = env.step(1)
    assert (reward, terminated, info["illegal_action"]) == (ILLEGAL_ACTION_REWARD, True, True)
    with pytest.raises(RuntimeError):
        env.step(0)


def test_per_seat_opponents_and_bad_specs() -> None:
    env = make("highcard", seat=1, opponents=["random", "random"], players=3)
    _episode(env, seed=1)
    with pytest.raises(ValueError):
        make("highcard", opponents=["random"], players=3)
    with pytest.raises(ValueError, match="unknown bot"):
        make("highcard", opponents="no-such-bot", players=2)
    with pytest.raises(ValueError):
        make("highcard", seat=2, opponents="random", players=2)


def test_render_shows_the_learners_view() -> None:
    env = make("highcard", seat=0, opponents="random", players=2, render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    state = env.unwrapped._state
    assert text == env.unwrapped.game.render_observation(state.observation(0))


@pytest.mark.parametrize("bad", [0.7, 0.0, "0", True, np.float64(1.0), np.bool_(False), None, [0], np.array([0])])
def test_step_refuses_an_action_that_is_not_an_integer(bad: object) -> None:
    env = make("highcard", seat=0, opponents="random", players=2)
    _, info = env.reset(seed=0)
    before = env.unwrapped._state.to_json()
    with pytest.raises(ValueError, match="an action must be an integer id"):
        env.step(bad)
    assert env.unwrapped._state.to_json() == before
    legal = int(np.flatnonzero(info["action_mask"])[0])
    _, _, _, _, info = env.step(np.array(legal, dtype=np.int16))
    assert "illegal_action" not in info


def test_step_takes_numpy_integers() -> None:
    env = make("highcard", seat=0, opponents="random", players=2)
    _, info = env.reset(seed=0)
    _, _, _, _, info = env.step(np.int64(np.flatnonzero(info["action_mask"])[0]))
    assert "illegal_action" not in info


def test_any_non_negative_reset_seed_is_accepted_as_in_gymnasium() -> None:
    env = make("highcard", seat=0, opponents="random", players=3)
    for seed in (2**63 - 1, 2**63, 2**64 + 1, 10**40, 10**5000):
        first = env.reset(seed=seed)[0]
        assert 0 <= env.unwrapped._state.seed < 2**63
        assert (env.reset(seed=seed)[0] == first).all()
    with pytest.raises(gymnasium.error.Error, match="Seed must be greater or equal to zero"):
        env.reset(seed=-1)
