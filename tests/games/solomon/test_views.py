"""What each seat sees, resampling of hidden information, rendering and saved states."""

from __future__ import annotations

import json
import random

import pytest

import obelisk
from obelisk.core import testing
from obelisk.games.solomon import data as d
from obelisk.games.solomon.state import REMOVED, _deal_face_down
from tests.games.solomon.helpers import KIND, give, play, reveal, set_cave, start_round, started


def _penalty_state():
    """3 players; seat 0 could not pay 6 for its curses: seats 1 and 2 got 2 dug tiles each face down, 1 removed."""
    state = started(3, seed=4)
    set_cave(state, ["2:C3 2:T5 2:C3", "2:SB 1:SA 2:SC"])
    start_round(state, [17, 30, 31])
    state.coins[0] = 0
    play(state, "dig card 17 at A1")
    while state.reveal_queue:
        reveal(state, "SD")
    for short in ("T5", "C3", "C3", "SB"):  # seat 1 gets the 1st and 3rd, seat 2 the 2nd and 4th
        reveal(state, short)
    return state


def test_observation_hides_hands_and_shows_the_public_table() -> None:
    state = started(3, seed=2)
    view = state.observation(1)
    numbers = [c + 1 for c in state.hands[1]]
    assert view["hand"] == numbers
    assert all(s["hand_size"] == 8 for s in view["seats"])
    assert set(view["card_shapes"]) == {str(n) for n in numbers}
    spectator = state.observation(None)
    assert spectator["hand"] == [] and spectator["card_shapes"] == {}
    assert view["heights"] == [4] * 36 and all(len(stack) == 1 for stack in view["stacks"])
    assert sum(view["unseen_dark_tiles"].values()) == 108


def test_dug_tiles_and_coins_stay_public_for_everyone() -> None:
    state = started(2)
    set_cave(state, ["2:T5 2:C1 2:Mi"])
    start_round(state, [1, 30])
    play(state, "dig card 1 at A1")
    while state.is_chance_node():
        reveal(state, "SA")
    play(state, "pay with treasure 5 (change 4)")
    view = state.observation(1)
    assert view["seats"][0]["tiles"] == {"curse 1": 1, "Mirror": 1}
    assert view["seats"][0]["coins"] == 14 and view["seats"][0]["face_down_tiles"] == 0
    assert "digs treasure 5 (A1), curse 1 (B1), Mirror (C1)" in " ".join(view["log"])


def test_face_down_penalty_tiles_are_known_only_to_their_holder() -> None:
    state = _penalty_state()
    for viewer in (0, 2):
        assert state.observation(viewer)["seats"][1]["face_down_tiles"] == 2
        assert state.observation(viewer)["seats"][1]["tiles"] == {}
    own = state.observation(1)
    assert own["seats"][1]["tiles"] == {"treasure 5": 1, "curse 3": 1}
    assert own["penalties"][0]["you_hold_face_down"] == ["treasure 5", "curse 3"]
    assert own["penalties"][0]["received"] == [0, 2, 2] and own["penalties"][0]["removed"] == 1


def test_resample_permutes_unseen_penalty_tiles_and_keeps_the_seats_own() -> None:
    state = _penalty_state()
    event_tiles = sorted(k for _, _, k in state.secret)
    rng = random.Random(1)
    seen_for_0 = set()
    for _ in range(40):
        other = state.resample_from_infostate(1, rng)
        assert other.tiles[1] == state.tiles[1]
        assert other.observation(1) == state.observation(1)
        assert sorted(k for _, _, k in other.secret) == event_tiles
        other0 = state.resample_from_infostate(0, rng)
        assert other0.observation(0) == state.observation(0)
        seen_for_0.add(tuple(other0.tiles[1]))
    assert len(seen_for_0) > 3  # seat 1's face-down tiles really are re-dealt for seat 0


def _penalty_state_dealt(first: str, second: str, third: str, fourth: str):
    """``_penalty_state`` with other kinds for the dug tiles: seat 1 gets the 1st and 3rd, seat 2 the others."""
    state = started(3, seed=4)
    set_cave(state, ["2:C3 2:T5 2:C3", "2:SB 1:SA 2:SC"])
    start_round(state, [17, 30, 31])
    state.coins[0] = 0
    play(state, "dig card 17 at A1")
    while state.reveal_queue:
        reveal(state, "SD")
    for short in (first, second, third, fourth):
        reveal(state, short)
    return state


def _redeals(state, seat: int, count: int = 12) -> list[list[object]]:
    """``count`` re-deals for ``seat``, one per generator seed, as every seat's view of them."""
    redeals = [state.resample_from_infostate(seat, random.Random(k)) for k in range(count)]
    return [[other.observation(viewer) for viewer in range(state.num_players)] for other in redeals]


def test_removed_tiles_with_nobody_paying_are_redealt_from_public_information() -> None:
    # For seat 0 (it saw the dug tiles, not who got which) these are one position: treasure 5 went to
    # seat 1 or to seat 2 (the last seat), scroll C was removed. "Nobody pays" once shared the holder
    # code of removed tiles, so the re-deal read the last seat's true tiles.
    truth = _penalty_state_dealt("T5", "C3", "C3", "SB")
    twin = _penalty_state_dealt("C3", "T5", "C3", "SB")
    assert truth.observation(0) == twin.observation(0) and truth.tiles[2] != twin.tiles[2]
    assert truth.phase == "turn" and [e for e in truth.secret if e[1] == REMOVED] == [[0, -1, KIND["SC"]]]
    assert _redeals(truth, 0) == _redeals(twin, 0)


def test_a_penalty_deal_in_progress_is_redealt_with_its_undealt_tiles() -> None:
    truth = started(3, seed=4)
    set_cave(truth, ["2:C3 2:T5 2:C3", "2:SB 1:SA 2:SC"])
    start_round(truth, [17, 30, 31])
    truth.coins[0] = 0
    play(truth, "dig card 17 at A1")
    while truth.reveal_queue:
        reveal(truth, "SD")
    twin = truth.clone()
    reveal(truth, "T5")
    reveal(truth, "C3")  # seat 2's tile: seat 1 does not see it, so the undealt rest is hidden too
    reveal(twin, "T5")
    reveal(twin, "SB")
    assert truth.deal_to == [1, 2] and truth.observation(1) == twin.observation(1)
    assert truth.penalty_pool != twin.penalty_pool
    assert _redeals(truth, 1) == _redeals(twin, 1)
    for other in (truth.resample_from_infostate(1, random.Random(k)) for k in range(20)):
        assert other.penalty_pool[KIND["T5"]] == 0 and sum(other.penalty_pool) == 3
        undealt = [k for k, c in enumerate(other.penalty_pool) for _ in range(c)]
        hidden = [k for _, h, k in other.secret if h == 2] + undealt
        assert sorted(hidden) == sorted([KIND["C3"], KIND["C3"], KIND["SB"], KIND["SC"]])


def _spent_twins():
    """Two positions seat 0 cannot tell apart: two penalties dealt seats 1 and 2 one tile each, {T1, T2}
    and {T1, C1}; seat 1 later paid with a face-down treasure 1, from the first penalty or the second."""
    states = []
    for first, second in (((KIND["T1"], KIND["T2"]), (KIND["C1"], KIND["T1"])),
                          ((KIND["T2"], KIND["T1"]), (KIND["T1"], KIND["C1"]))):
        state = started(3, seed=4)
        state.penalties = [
            {"seat": 0, "tiles": sorted(first), "received": [0, 1, 1], "removed": 0, "gifts": []},
            {"seat": 0, "tiles": sorted(second), "received": [0, 1, 1], "removed": 0, "gifts": []},
        ]
        entries = [[0, 1, first[0]], [0, 2, first[1]], [1, 1, second[0]], [1, 2, second[1]]]
        spent = next(e for e in entries if e[1] == 1 and e[2] == KIND["T1"])
        entries.remove(spent)
        state.secret = entries
        state.spent = [spent + [2]]
        for _, holder, kind in entries:
            state.tiles[holder][kind] += 1
        states.append(state)
    return states


def test_spent_face_down_tiles_are_placed_from_public_information() -> None:
    truth, twin = _spent_twins()
    assert truth.observation(0) == twin.observation(0) and truth.secret != twin.secret
    assert _redeals(truth, 0, 30) == _redeals(twin, 0, 30)
    held = set()
    for other in (truth.resample_from_infostate(0, random.Random(k)) for k in range(30)):
        assert other.observation(0) == truth.observation(0)
        assert [entry[1:3] for entry in other.spent] == [[1, KIND["T1"]]]
        (kept,) = [k for _, h, k in other.secret if h == 1]
        held.add(kept)
        assert sorted([kept, KIND["T1"]] + [k for _, h, k in other.secret if h == 2]) == sorted(
            [KIND["T1"], KIND["T2"], KIND["T1"], KIND["C1"]]
        )
    assert held == {KIND["T1"], KIND["T2"], KIND["C1"]}  # every tile seat 1 may still hold face down


def test_resample_redeals_opponent_hands_and_secret_choice() -> None:
    state = started(3, seed=5)
    play(state, f"choose card {state.hands[0][0] + 1}")
    rng = random.Random(0)
    other = state.resample_from_infostate(1, rng)
    assert other.hands[1] == state.hands[1]
    assert other.hands[0] != state.hands[0] or other.hands[2] != state.hands[2]
    assert other.chosen[0] in other.hands[0]
    all_cards = sorted(c for h in other.hands for c in h) + [c for c, n in enumerate(other.card_pool) if n]
    assert sorted(all_cards) == list(range(32))


def test_spending_a_face_down_tile_reveals_it() -> None:
    state = _penalty_state()
    # Seat 1 plays next; it holds the face-down treasure 5 and pays a move with it.
    assert state.current_player() == 1
    set_cave(state, ["3:SA 1:SB"])
    play(state, "move A1→B1")
    reveal(state, "SC")
    play(state, "end turn without digging")
    assert state.phase == "pay"
    play(state, "pay with treasure 5 (change 4)")
    assert [e for e in state.secret if e[1] == 1] == [[0, 1, KIND["C3"]]]
    assert state.observation(0)["seats"][1]["face_down_tiles"] == 1


def _paying_state(coins: int):
    """Seat 1 (face down: treasure 5 and curse 3) has moved once and is deciding how to pay 1."""
    state = _penalty_state()
    state.coins[1] = coins
    set_cave(state, ["3:SA 1:SB"])
    play(state, "move A1→B1")
    reveal(state, "SC")
    play(state, "end turn without digging")
    assert state.phase == "pay" and state.current_player() == 1 and state.owed == 1
    return state


@pytest.mark.parametrize("coins", [10, 0])
def test_resample_redeals_a_paying_players_face_down_tiles_but_keeps_it_able_to_pay(coins: int) -> None:
    # Seat 1 is choosing how to pay, so everyone knows it holds a treasure; with no coins
    # that treasure must also cover the 1 owed. The only treasure of the event is the 5.
    state = _paying_state(coins)
    rng = random.Random(3)
    held = set()
    for viewer in (0, 2):
        seen = state.observation(viewer)
        for _ in range(30):
            other = state.resample_from_infostate(viewer, rng)
            assert other.observation(viewer) == seen
            assert other.tiles[1][KIND["T5"]] == 1  # forced: the only treasure
            assert other.coins[1] + sum(v * other.tiles[1][KIND[f"T{v}"]] for v in range(1, 6)) >= other.owed
            held.add(tuple(other.tiles[1]))
    assert len(held) > 1  # the second face-down tile is really re-dealt, not kept


def test_resampled_paying_player_can_always_finish_the_game() -> None:
    state = _paying_state(0)
    rng = random.Random(8)
    for _ in range(10):
        other = state.resample_from_infostate(0, rng)
        assert other.legal_actions() == [other.string_to_action("pay with treasure 5 (change 4)")]
        while not other.is_terminal():
            chance = other.is_chance_node()
            other.apply_action(other.sample_chance(rng) if chance else rng.choice(other.legal_actions()))


def test_face_down_deal_meets_the_payers_need_even_when_random_deals_rarely_do() -> None:
    # Two events; the payer holds 2 tiles of the first and 1 of the second and needs 9:
    # only 5+4 from the first (plus anything), or 5 or 4 with the second's 5.
    first = [KIND[k] for k in ("T5", "T4", "C1", "C2", "C3", "SA", "SB", "SC")]
    second = [KIND[k] for k in ("T5", "C1", "C2", "C3", "SD")]
    rng = random.Random(0)
    deals = set()
    for _ in range(200):
        (mine1, rest1), (mine2, rest2) = _deal_face_down([sorted(first), sorted(second)], [2, 1], 9, rng)
        assert sorted(mine1 + rest1) == sorted(first) and sorted(mine2 + rest2) == sorted(second)
        assert len(mine1) == 2 and len(mine2) == 1
        assert sum(d.TREASURE_VALUE[k] for k in mine1 + mine2) >= 9
        deals.add((tuple(sorted(mine1)), tuple(mine2)))
    assert len(deals) > 5
    [(mine, rest)] = _deal_face_down([sorted(first)], [1], 0, rng)  # no need: any tile will do
    assert len(mine) == 1 and sorted(mine + rest) == sorted(first)


def test_render_observation_draws_the_cave_screen_and_cards() -> None:
    state = started(2, seed=1)
    game = state.game
    text = game.render_observation(state.observation(0))
    assert "round 1 of 12, choosing cards" in text and text.split("\n")[1].split()[:6] == list("ABCDEF")
    assert " 1  4:" in text and "Your hand" in text
    assert f"#{state.hands[0][0] + 1}" in text and "##" in text  # the cards' shapes while choosing one
    legend = game.render_legend(state.observation(0))
    assert "height:top tile" not in text and "height:top tile" in legend and "entrance (north) is at the top" in legend
    spectator = game.render_observation(state.observation(None))
    assert "Your hand" not in spectator
    assert str(state).startswith("round index 0")


def test_labels_are_readable() -> None:
    state = started(2)
    set_cave(state, ["3:T1 2:T2 2:T3", "2:SA 2:SB 2:SC", "2:SA 2:SB 2:SC"])
    start_round(state, [15, 30])
    give(state, 0, Mi=1)
    play(state, "use Mirror")
    names = [state.action_to_string(a) for a in state.legal_actions()]
    assert "move A1→B2" in names
    assert "dig card 15 at B1" in names
    assert "dig card 15 at A2 (rotated 90°)" in names
    action = state.string_to_action("dig card 15 at a2 (ROTATED 90°)")
    assert state.action_to_string(action) == "dig card 15 at A2 (rotated 90°)"


def test_saved_state_round_trips_with_face_down_penalty_tiles_and_is_checked() -> None:
    game = obelisk.load("solomon", 3)
    rng = random.Random(0)
    state = game.new_initial_state(0)
    while not state.secret:
        state.apply_action(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    doc = state.to_json()
    restored = game.state_from_json(json.dumps(doc))
    assert str(restored) == str(state)
    broken = json.loads(json.dumps(doc))
    fields = broken["state"]["#d"]
    for pair in fields:
        if pair[0] == "heights":
            pair[1][0] = 9
    with pytest.raises(ValueError, match="field 'heights'\\[0\\] is 9, expected [0-4]"):
        game.state_from_json(broken)


def test_evaluate_is_bounded_and_favours_the_leader() -> None:
    state = started(3)
    state.coins = [30, 5, 5]
    values = state.evaluate()
    assert all(-1 <= v <= 1 for v in values)
    assert values[0] > 0 > values[1]


@pytest.mark.parametrize("players", [2, 5])
def test_options_play_through(players: int) -> None:
    game = obelisk.load("solomon", players, uphill=True, change="unlimited", unaffordable="forbid",
                        mirror_reflect=True, tiebreak="coins", move_limit=4)
    testing.check_playouts(game, 3, seed=11)
    testing.check_no_leaks(game, 2, seed=12)


def test_observation_tensor_has_a_fixed_size_and_reads_only_the_view() -> None:
    state = _penalty_state()
    game = state.game
    size = game.observation_tensor_size()
    for seat in (None, 0, 1, 2):
        assert len(game.observation_tensor(state.observation(seat))) == size
    rng = random.Random(3)
    other = state.resample_from_infostate(2, rng)
    assert game.observation_tensor(other.observation(2)) == game.observation_tensor(state.observation(2))
    mine = game.observation_tensor(state.observation(1))
    theirs = game.observation_tensor(state.observation(2))
    assert mine != theirs  # seat 1 sees its face-down tiles, seat 2 does not
