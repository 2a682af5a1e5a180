"""Opponents of the Gymnasium env: bot specs, bot objects, policies, a user's registered bot, self-play."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import gymnasium  # noqa: E402
from obelisk import bots  # noqa: E402
from obelisk.adapters import _spaces  # noqa: E402
from obelisk.adapters.gym import SelfPlay, make  # noqa: E402
from obelisk.bots import RandomBot, register_bot  # noqa: E402


def _play(env, seed: int = 0) -> float:
    _, info = env.reset(seed=seed)
    total, terminated = 0.0, False
    while not terminated:
        _, reward, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        total += reward
    return total


class Last:
    """A policy taking the highest legal id; records what it was shown."""

    def __init__(self) -> None:
        self.seen: list[tuple[object, np.ndarray]] = []
        self.version = 0

    def __call__(self, observation, action_mask):
        self.seen.append((observation, action_mask))
        return np.int64(np.flatnonzero(action_mask)[-1])


def test_a_policys_observation_is_its_own_tensor_and_mask() -> None:
    shown = []

    def policy(observation, action_mask):
        state = env.unwrapped._state
        assert state.current_player() == 1
        expected = _spaces.observation_tensor(env.game, state, 1)
        shown.append(np.array_equal(observation, expected)
                     and list(np.flatnonzero(action_mask)) == state.legal_actions())
        return int(np.flatnonzero(action_mask)[0])

    env = make("solomon", seat=0, opponents=policy, players=2)
    _play(env, seed=3)
    assert shown and all(shown)


def test_dict_mode_policies_get_dict_observations() -> None:
    policy = Last()
    env = make("valley", seat=1, opponents=policy, players=2, dict_observation=True)
    _play(env, seed=2)
    observation, mask = policy.seen[0]
    assert set(observation) == {"observation", "action_mask"}
    assert np.array_equal(observation["action_mask"].astype(bool), mask)


def test_bot_objects_specs_and_policies_mix_per_seat() -> None:
    game = make("solomon", players=3).game
    env = make("solomon", seat=0, opponents=[RandomBot(game, 1, seed=4), Last()], players=3)
    _play(env, seed=1)
    with pytest.raises(ValueError, match="the bot for seat 2 was built for seat 1"):
        make("solomon", seat=0, opponents=["random", RandomBot(game, 1)], players=3)


@pytest.mark.parametrize("bad", [3, None, [1, 2], ["random", 7]])
def test_bad_opponents_are_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="opponent"):
        make("solomon", seat=0, opponents=bad, players=3)


def test_an_illegal_choice_of_a_policy_is_named() -> None:
    env = make("valley", seat=0, opponents=lambda obs, mask: 10**6, players=2)
    with pytest.raises(ValueError, match="opponent policy at seat 1 chose action 1000000, which is not legal"):
        _play(env, seed=0)
    env = make("valley", seat=0, opponents=lambda obs, mask: "first", players=2)
    with pytest.raises(ValueError, match="opponent policy at seat 1: an action must be an integer id"):
        _play(env, seed=0)
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)


def test_a_registered_user_bot_is_named_in_specs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bots, "_KINDS", dict(bots._KINDS))

    class FirstLegal:
        def __init__(self, seat: int) -> None:
            self.name, self.seat, self.calls = "first", seat, 0

        def choose(self, state):
            self.calls += 1
            return state.legal_actions()[0]

    made = []

    def factory(game, seat, seed, argument):
        made.append(FirstLegal(seat))
        return made[-1]

    register_bot("first", factory)
    assert "first" in bots.bot_kinds()
    env = make("valley", seat=0, opponents="first", players=2)
    _play(env, seed=0)
    assert made[-1].seat == 1 and made[-1].calls > 0
    with pytest.raises(ValueError, match="already registered"):
        register_bot("first", factory)
    with pytest.raises(ValueError, match="bot kind"):
        register_bot("my:bot", factory)
    with pytest.raises(ValueError, match="factory"):
        register_bot("other", "not callable")


def test_self_play_opponents_are_a_snapshot() -> None:
    policy = Last()
    env = SelfPlay(make("valley", seat=0, players=2), policy, update_every=2)
    first = env.opponent
    assert first is not policy and isinstance(first, Last)
    _play(env, seed=1)
    assert first.seen and not policy.seen
    policy.version = 1
    _play(env, seed=2)  # second reset: still the first snapshot
    assert env.opponent is first
    _play(env, seed=3)  # third reset: refreshed
    assert env.opponent is not first and env.opponent.version == 1
    policy.version = 2
    env.snapshot()
    assert env.opponent.version == 2
    assert np.array_equal(env.action_masks(), env.unwrapped.action_masks())


def test_self_play_refuses_bad_arguments() -> None:
    with pytest.raises(ValueError, match="update_every"):
        SelfPlay(make("valley", players=2), Last(), update_every=0)
    with pytest.raises(ValueError, match="policy must be callable"):
        SelfPlay(make("valley", players=2), object())
    with pytest.raises(ValueError, match="SelfPlay wraps an Obelisk env, got CartPoleEnv"):
        SelfPlay(gymnasium.make("CartPole-v1"), Last())
