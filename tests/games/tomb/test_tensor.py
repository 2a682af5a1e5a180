"""The observation tensor: fixed size, a function of the view alone."""

import random

import obelisk
from obelisk.core.testing import random_playout, sampled_states


def test_tensor_has_fixed_size_and_ignores_what_the_seat_cannot_know() -> None:
    sizes = set()
    for players, pyramid in ((2, "small"), (6, "big")):
        game = obelisk.load("tomb", players, pyramid=pyramid)
        sizes.add(game.observation_tensor_size())
        rng = random.Random(5)
        for state in sampled_states(game, 2, seed=11, per_game=3):
            for seat in (None, *range(players)):
                tensor = game.observation_tensor(state.observation(seat))
                assert len(tensor) == game.observation_tensor_size()
                assert all(0.0 <= x <= 1.0 for x in tensor)
                if seat is not None:
                    other = state.resample_from_infostate(seat, rng)
                    assert game.observation_tensor(other.observation(seat)) == tensor
    assert len(sizes) == 1


def test_tensor_marks_the_viewers_plan_knowledge() -> None:
    from tests.games.tomb.helpers import cell, give, kind, play, turn, new

    s = new(2)
    give(s, 0, "plan")
    turn(s, 0, 3)
    play(s, "study the plan: look at two face-down tiles", "look at the face-down tile on C3")
    s.apply_action(6 + kind(s, "cross"))
    mine = s.game.observation_tensor(s.observation(0))
    theirs = s.game.observation_tensor(s.observation(1))
    from obelisk.games.tomb.tensor import PER_SQUARE

    assert mine[cell("C3") * PER_SQUARE + 1] == 1.0 and theirs[cell("C3") * PER_SQUARE + 1] == 0.0


def test_the_square_being_revealed_is_public() -> None:
    """Everyone sees which face-down tile the mover steps toward, before it is drawn."""
    from obelisk.core import CHANCE
    from obelisk.games.tomb.board import square_name

    game = obelisk.load("tomb", 2)
    found = []

    def visit(state, rng) -> None:
        if state.current_player() == CHANCE and state.observation(None)["turn"]["phase"] == "reveal":
            found.append(state.observation(None)["pending"]["square"] == square_name(state.rv_cell))

    random_playout(game, 7000, visit)
    assert found and all(found)
