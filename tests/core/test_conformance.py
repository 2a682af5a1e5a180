"""The conformance suite, run for every registered game and player count."""

from __future__ import annotations

import os

import pytest

import obelisk
from obelisk.core import testing
from tests.core.toy import HighCardGame, LeakyHighCardGame

GAMES_PER_CHECK = int(os.environ.get("OBELISK_CONFORMANCE_GAMES", "12"))
PLAYOUTS = int(os.environ.get("OBELISK_CONFORMANCE_PLAYOUTS", "100"))
TWIN_GAMES = int(os.environ.get("OBELISK_CONFORMANCE_TWIN_GAMES", "1"))

CASES = [
    pytest.param(info.id, n, id=f"{info.id}-{n}p")
    for info in obelisk.list_games()
    for n in range(info.min_players, info.max_players + 1)
]


@pytest.mark.parametrize("game_id,players", CASES)
def test_random_playouts(game_id: str, players: int) -> None:
    testing.check_playouts(obelisk.load(game_id, players), PLAYOUTS, seed=1000)


@pytest.mark.parametrize("game_id,players", CASES)
def test_illegal_actions_rejected(game_id: str, players: int) -> None:
    testing.check_illegal_rejected(obelisk.load(game_id, players), GAMES_PER_CHECK, seed=2000)


@pytest.mark.parametrize("game_id,players", CASES)
def test_clone_serialization_replay(game_id: str, players: int) -> None:
    testing.check_clone_and_serialization(obelisk.load(game_id, players), GAMES_PER_CHECK, seed=3000)


@pytest.mark.parametrize("game_id,players", CASES)
def test_observations_do_not_leak(game_id: str, players: int) -> None:
    testing.check_no_leaks(obelisk.load(game_id, players), GAMES_PER_CHECK, seed=4000)


@pytest.mark.parametrize("game_id,players", CASES)
def test_determinism(game_id: str, players: int) -> None:
    testing.check_determinism(obelisk.load(game_id, players), seed=5000)


@pytest.mark.parametrize("game_id,players", CASES)
def test_resample_depends_only_on_the_infostate(game_id: str, players: int) -> None:
    testing.check_resample_depends_only_on_the_infostate(obelisk.load(game_id, players), TWIN_GAMES, seed=6000)


@pytest.mark.parametrize("game_id,players", CASES)
def test_redeal_hides_the_truth(game_id: str, players: int) -> None:
    testing.check_redeal_hides_the_truth(obelisk.load(game_id, players), 3, seed=6500)


@pytest.mark.parametrize("game_id,players", CASES)
def test_action_strings_do_not_leak(game_id: str, players: int) -> None:
    testing.check_action_strings_do_not_leak(obelisk.load(game_id, players), 4, seed=7000)


@pytest.mark.parametrize("game_id,players", CASES)
def test_scores_at_any_point(game_id: str, players: int) -> None:
    testing.check_scores_at_any_point(obelisk.load(game_id, players), GAMES_PER_CHECK, seed=8000)


@pytest.mark.parametrize("game_id,players", CASES)
def test_terminal_labels(game_id: str, players: int) -> None:
    testing.check_terminal_labels(obelisk.load(game_id, players), 2, seed=9000)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_cleopatra_courtesans_and_vizier_cards_stay_private(players: int) -> None:
    from tests.games.cleopatra.privacy import check_character_cards_private

    assert check_character_cards_private(obelisk.load("cleopatra", players), 3, seed=8000) > 0


def test_the_resample_check_catches_a_redeal_that_reads_hidden_truth() -> None:
    leaky = LeakyHighCardGame(3)
    testing.check_no_leaks(leaky, 4, seed=4000)  # the seat's own view survives the leaky re-deal
    with pytest.raises(AssertionError, match="re-deals them differently .* depends on hidden information"):
        testing.check_resample_depends_only_on_the_infostate(leaky, 1, seed=6000)
    testing.check_resample_depends_only_on_the_infostate(HighCardGame(3), 1, seed=6000)
