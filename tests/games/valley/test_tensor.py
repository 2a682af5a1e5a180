"""The observation tensor: fixed size, finite, built from the observation alone, seat-relative."""

from __future__ import annotations

import json
import math
import random

import obelisk
from obelisk.core import testing
from obelisk.games.valley.tensor import SEAT_SLOTS, STEPS, layout, seat_width
from tests.games.valley.helpers import act, after_setup, kind, kinds, scenario, set_deck

PYRAMID = ["Statue of Horus", "Statue of Anubis", "Book of Gates", "Ankh Amulet", "Hapy Canopic Jar", "Censer"]


def block(game: obelisk.Game, tensor: list[float], name: str) -> list[float]:
    start, stop = next((a, b) for n, a, b in layout(game.table.size) if n == name)
    return tensor[start:stop]


def seat_block(game: obelisk.Game, tensor: list[float], slot: int) -> list[float]:
    width = seat_width(game.table.size)
    return block(game, tensor, "seats")[slot * width:(slot + 1) * width]


def test_size_is_the_same_for_every_player_count_and_matches_the_layout() -> None:
    sizes = {obelisk.load("valley", n).observation_tensor_size() for n in (2, 3, 4)}
    assert len(sizes) == 1
    k = obelisk.load("valley", 2).table.size
    assert sizes == {layout(k)[-1][2]}
    assert layout(k)[0][1] == 0 and all(a[2] == b[1] for a, b in zip(layout(k), layout(k)[1:]))


def test_long_random_games_encode_every_view_finite_and_in_range() -> None:
    for players in (2, 3, 4):
        game = obelisk.load("valley", players)
        size = game.observation_tensor_size()

        def visit(state, rng) -> None:
            for seat in (None, *range(players)):
                tensor = game.observation_tensor(state.observation(seat))
                assert len(tensor) == size
                assert all(math.isfinite(x) and -1e-9 <= x <= 2.0 for x in tensor)

        final = testing.random_playout(game, seed=40 + players, visit=visit)
        assert final.is_terminal()


def test_tensor_is_equal_after_resampling_for_that_seat() -> None:
    for players in (2, 4):
        game = obelisk.load("valley", players)
        rng = random.Random(players)
        for state in testing.sampled_states(game, games=2, seed=7, per_game=5):
            for seat in range(players):
                other = state.resample_from_infostate(seat, rng)
                expected = game.observation_tensor(state.observation(seat))
                assert game.observation_tensor(other.observation(seat)) == expected


def test_tensor_is_built_from_the_view_alone() -> None:
    state = after_setup(seed=2)
    view = state.observation(1)
    copy = json.loads(json.dumps(view))
    assert state.game.observation_tensor(copy) == state.game.observation_tensor(view)


def test_own_block_holds_the_hand_and_the_known_top_of_deck() -> None:
    state = scenario(hand=["Offering Table", "Urn", "Urn"], pyramid=PYRAMID)
    set_deck(state, 0, ["Shabti", "Shabti"])
    act(state, "play Offering Table")
    state.apply_action(kind(state, "Shabti"))
    state.apply_action(kind(state, "Shabti"))
    act(state, "put Urn on top of your deck")
    game, table = state.game, state.game.table
    k = table.size
    own = block(game, game.observation_tensor(state.observation(0)), "own")
    hand, tops, nxt, rest = own[:k], own[k:2 * k], own[2 * k:3 * k], own[3 * k:]
    urn, shabti = kind(state, "Urn"), kind(state, "Shabti")
    assert hand[urn] == 1 / table.copies[urn] and hand[shabti] == 2 / table.copies[shabti]
    assert tops[urn] == 1 / table.copies[urn] and nxt[urn] == 1.0 and sum(nxt) == 1.0
    assert sum(rest) == 0.0  # the deck was emptied by the draws
    theirs = block(game, game.observation_tensor(state.observation(1)), "own")
    assert theirs[:k] == game.encoder.counts([table.names[c] for c in state.hands[1]])
    assert block(game, game.observation_tensor(state.observation(None)), "own") == [0.0] * (4 * k)


def test_seat_blocks_start_with_the_viewer() -> None:
    state = after_setup(players=3, seed=1)
    state.tombs[2] = kinds(state, ["Boat", "Shabti"])
    game = state.game
    k = game.table.size
    boat = kind(state, "Boat")
    for seat, slot in ((2, 0), (0, 2), (1, 1)):
        tensor = game.observation_tensor(state.observation(seat))
        tomb = seat_block(game, tensor, slot)[10 + 2 * k:10 + 3 * k]
        assert tomb[boat] == 1.0, (seat, slot)
    spectator = game.observation_tensor(state.observation(None))
    assert seat_block(game, spectator, 2)[10 + 2 * k + boat] == 1.0
    assert spectator[0] == 1.0 and seat_block(game, spectator, 3) == [0.0] * seat_width(k)
    assert [seat_block(game, spectator, s)[0] for s in range(SEAT_SLOTS)] == [1.0, 1.0, 1.0, 0.0]


def test_pyramid_and_pending_payment_are_encoded() -> None:
    state = scenario(hand=["Urn", "Urn", "Shabti"], pyramid=PYRAMID)
    act(state, "buy Statue of Anubis (B2) for 5")
    game = state.game
    k = game.table.size
    tensor = game.observation_tensor(state.observation(1))
    pyramid = block(game, tensor, "pyramid")
    b2 = pyramid[k + 2:2 * k + 4]
    assert b2[0] == 1.0 and b2[1] == 0.5 and b2[2 + kind(state, "Statue of Anubis")] == 1.0
    pending = block(game, tensor, "pending")
    assert pending[STEPS.index("pay")] == 1.0 and sum(pending[:len(STEPS)]) == 1.0
    assert pending[len(STEPS)] == 0.5  # 5 gold due
    assert seat_block(game, tensor, 1)[2] == 1.0  # seat 0, second from seat 1's point of view, decides


def test_the_pending_step_is_public_data_in_every_view() -> None:
    state = scenario(hand=["Qebehsenuef Canopic Jar", "Offering Table"], pyramid=PYRAMID)
    set_deck(state, 0, ["Shabti", "Shabti"])
    act(state, "play Qebehsenuef Canopic Jar")
    expected = {"step": "victim", "seat": 1, "purpose": "sacrifice", "attacker": 0}
    assert all(state.observation(s)["pending"] == expected for s in (0, 1, None))
    act(state, "sacrifice " + state.game.table.names[state.hands[1][0]])
    act(state, "play Offering Table")
    assert state.observation(1)["pending"] == {"step": "draw", "seat": 0, "cards": 2}
    state.apply_action(kind(state, "Shabti"))
    state.apply_action(kind(state, "Shabti"))
    assert state.observation(1)["pending"] == {"step": "hand_pick", "seat": 0, "purpose": "topdeck", "cards": 1}
