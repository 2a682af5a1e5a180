import pytest

import obelisk
from obelisk.core.seeds import MAX_SEED, SecretSeed, check_seed, commitment, verify


def test_secret_seeds_differ_and_stay_in_range():
    drawn = {SecretSeed.new().seed for _ in range(50)}
    assert len(drawn) == 50
    assert all(0 <= s < MAX_SEED for s in drawn)


def test_commitment_verifies_only_its_own_seed_and_salt():
    secret = SecretSeed.new()
    assert verify(secret.seed, secret.salt, secret.commitment)
    assert not verify(secret.seed + 1 if secret.seed + 1 < MAX_SEED else 0, secret.salt, secret.commitment)
    assert not verify(secret.seed, secret.salt + "0", secret.commitment)
    assert not verify(secret.seed, secret.salt, "sha256:" + "0" * 64)
    assert not verify("1", secret.salt, secret.commitment)
    assert not verify(secret.seed, None, secret.commitment)


def test_commitment_is_a_stable_hash():
    assert commitment(7, "ab") == commitment(7, "ab")
    assert commitment(7, "ab") != commitment(7, "ac")
    assert commitment(7, "ab").startswith("sha256:") and len(commitment(7, "ab")) == 7 + 64


def test_repr_never_shows_the_seed():
    secret = SecretSeed(123456789, "feed")
    assert "123456789" not in repr(secret) and "feed" not in repr(secret)


@pytest.mark.parametrize("bad", [-1, MAX_SEED, True, 1.0, "3", None, 10**400])
def test_check_seed_refuses(bad):
    with pytest.raises(ValueError, match="seed must be an integer"):
        check_seed(bad)


HUGE = 10**5000
"""Longer than the 4,300 digits Python converts to text."""


@pytest.mark.parametrize("call,message", [
    (lambda: check_seed(-HUGE), r"^seed must be an integer from 0 to 2\*\*63 - 1, got an integer of 16610 bits$"),
    (lambda: check_seed(HUGE), r"^seed must be an integer from 0 to 2\*\*63 - 1, got an integer of 16610 bits$"),
    (lambda: commitment(HUGE, "ab"), r"^seed must be an integer from 0 to 2\*\*63 - 1, got an integer of 16610 bits$"),
    (lambda: commitment(7, HUGE), r"^a seed's salt must be a string, got an integer of 16610 bits$"),
    (lambda: commitment(7, "\udc80"), r"^a seed's salt must be text UTF-8 can encode, got '\\udc80' \(character 0 "),
    (lambda: SecretSeed(HUGE, "ab"), r"^seed must be an integer from 0 to 2\*\*63 - 1, got an integer of 16610 bits$"),
    (lambda: SecretSeed(7, HUGE), r"^a seed's salt must be a string, got an integer of 16610 bits$"),
    (lambda: SecretSeed(-1, "ab"), r"^seed must be an integer from 0 to 2\*\*63 - 1, got -1$"),
])
def test_every_function_refuses_numbers_too_long_to_print_in_its_own_words(call, message):
    with pytest.raises(ValueError, match=message) as refused:
        call()
    assert "4300" not in str(refused.value)


def test_verify_is_false_for_numbers_too_long_to_print():
    secret = SecretSeed(7, "ab")
    assert not verify(HUGE, "ab", secret.commitment)
    assert not verify(7, HUGE, secret.commitment)
    assert not verify(7, "ab", HUGE)
    assert verify(7, "ab", secret.commitment)


def test_check_seed_accepts_bounds():
    assert check_seed(0) == 0 and check_seed(MAX_SEED - 1) == MAX_SEED - 1


@pytest.mark.parametrize("game_id", [info.id for info in obelisk.list_games()])
@pytest.mark.parametrize("bad", [-1, MAX_SEED, 2**64, 10**30, True, 2.0, "7", None])
def test_games_accept_only_seeds_in_range(game_id: str, bad: object) -> None:
    game = obelisk.load(game_id)
    with pytest.raises(ValueError, match=r"seed must be an integer from 0 to 2\*\*63 - 1"):
        game.new_initial_state(bad)
    with pytest.raises(ValueError, match=r"seed must be an integer from 0 to 2\*\*63 - 1"):
        game.replay(bad, [])
    with pytest.raises(ValueError, match=r"seed must be an integer from 0 to 2\*\*63 - 1"):
        game.state_class(game, bad)


@pytest.mark.parametrize("game_id", [info.id for info in obelisk.list_games()])
def test_the_largest_seed_plays(game_id: str) -> None:
    game = obelisk.load(game_id)
    state = game.new_initial_state(MAX_SEED - 1)
    while state.is_chance_node():
        state.apply_action(state.sample_chance())
    assert state.seed == MAX_SEED - 1
    assert game.replay(MAX_SEED - 1, state.history()).history() == state.history()
