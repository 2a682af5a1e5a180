"""The fast paths of the engine agree with direct, slow checks of the rules.

Legal moves come from per-square tables kept in step with the heights, digs
from packed level masks, and ``clone`` is written by hand; these tests replay
random games and compare each with a straightforward computation.
"""

from __future__ import annotations

import random

import pytest

import obelisk
from obelisk.core.protocol import state_fields
from obelisk.games.solomon import data as d
from obelisk.games.solomon import actions
from obelisk.games.solomon import state as state_module
from obelisk.games.solomon.state import SolomonState


def _direct_moves(state: SolomonState) -> list[int]:
    uphill = state.game.options["uphill"]
    heights = state.heights
    return [
        action
        for sq in range(d.SQUARES)
        if heights[sq]
        for action, to in d.MOVES_FROM[sq]
        if heights[to] < (d.MAX_STACK if uphill else heights[sq])
    ]


def _direct_digs(state: SolomonState) -> list[tuple[int, int]]:
    card = state._card(state._active())
    heights = state.heights
    out = []
    for o in state._orientations(state.round_cards[state._active()]):
        for anchor, mask in card.placements[o]:
            covered = [heights[sq] for sq in range(d.SQUARES) if mask >> sq & 1]
            if all(covered) and (state.items[d.PICKAXE] or len(set(covered)) == 1):
                out.append((o, anchor))
    return out


def _digs(state: SolomonState) -> list[tuple[int, int]]:
    digs: list[int] = []
    state._add_digs(digs, state.round_cards[state._active()])
    return [divmod(a - actions.DIG0, d.SQUARES) for a in digs]


def _random_states(game: obelisk.Game, games: int, seed: int):
    for g in range(games):
        rng = random.Random(seed + g)
        state = game.new_initial_state(seed + g)
        while not state.is_terminal():
            yield state, rng
            chance = state.is_chance_node()
            state.apply_action(state.sample_chance(rng) if chance else rng.choice(state.legal_actions()))


def test_action_id_constants_match_the_action_space() -> None:
    space = obelisk.load("solomon", 2).actions
    for name, start in (
        ("move", actions.MOVE0),
        ("use", actions.USE0),
        ("dig", actions.DIG0),
        ("seal", actions.SEAL0),
        ("end", actions.END),
        ("pay_coins", actions.PAY_COINS),
        ("pay_treasure", actions.PAY_TREASURE0),
        ("give", actions.GIVE0),
        ("choose", actions.CHOOSE0),
    ):
        assert space.start(name) == start, name


def test_cave_constants_written_as_numbers_match_the_cave() -> None:
    assert state_module._WINDOW_SHIFT == d.SIZE + 1
    assert state_module._ROW_MASK == (1 << d.SIZE) - 1


@pytest.mark.parametrize("uphill", [False, True])
def test_incremental_move_tables_and_digs_match_a_direct_check(uphill: bool) -> None:
    game = obelisk.load("solomon", 3, uphill=uphill, mirror_reflect=True)
    turns = 0
    for state, rng in _random_states(game, 3, seed=40):
        assert [state._levels(), state.moves_from, state.move_rows] == list(state._cave_tables())
        if state.phase == "turn" and not state.is_chance_node() and not state.seal:
            turns += 1
            assert [a for a in state.legal_actions() if a < actions.USE0] == (
                _direct_moves(state) if state._may_move(state._active()) else []
            )
            assert _digs(state) == _direct_digs(state)
        if state.phase == "turn" and not state.is_chance_node() and rng.random() < 0.05:
            # Items in use change the digs: try every combination of Mirror and Pickaxe on a copy.
            probe = state.clone()
            for mirror in (0, 1):
                for pickaxe in (0, 1):
                    probe.items[d.MIRROR], probe.items[d.PICKAXE] = mirror, pickaxe
                    assert _digs(probe) == _direct_digs(probe)
    assert turns > 100


def test_shared_draw_outcomes_are_each_kind_present_by_its_count() -> None:
    game = obelisk.load("solomon", 4)
    draws = 0
    for state, _ in _random_states(game, 2, seed=41):
        assert state.dark_left == sum(state.dark_pool)
        if state.is_chance_node() and (state.reveal_queue or state.cards_dealt < state._rules.cards_to_deal):
            draws += 1
            pool = state.dark_pool if state.reveal_queue else (
                state.gold_pool if state.tops_revealed < d.SQUARES else state.card_pool)
            total = sum(pool)
            assert state.chance_outcomes() == [(kind, count / total) for kind, count in enumerate(pool) if count]
    assert draws > 100


def test_a_cave_set_by_hand_is_inconsistent_until_synced() -> None:
    state = obelisk.load("solomon", 2).new_initial_state(0)
    state.heights[0] = 3
    state.unseen[0] = 2
    state.dark_pool[state.dark_pool.index(max(state.dark_pool))] -= 1  # the removed tile left the game
    assert [state._levels(), state.moves_from, state.move_rows] != list(state._cave_tables())
    state._sync_cave()
    assert [state._levels(), state.moves_from, state.move_rows] == list(state._cave_tables())


def test_clone_shares_no_mutable_container_with_the_original() -> None:
    game = obelisk.load("solomon", 4)
    checked = 0
    for state, _rng in _random_states(game, 2, seed=70):
        if state.move_number() % 37:
            continue
        copy = state.clone()
        original_fields, copy_fields = state_fields(state), state_fields(copy)
        assert copy_fields.keys() == original_fields.keys()
        for name, value in original_fields.items():
            if isinstance(value, (list, dict)) and name != "_legal":
                assert copy_fields[name] is not value, name
                assert copy_fields[name] == value, name
                for inner, inner_copy in zip(value, copy_fields[name]):
                    if isinstance(inner, (list, dict)):
                        assert inner_copy is not inner, name
        checked += 1
    assert checked > 10


def test_clone_of_a_penalty_in_progress_is_independent() -> None:
    game = obelisk.load("solomon", 3)
    for state, rng in _random_states(game, 6, seed=90):
        if state.penalties and state.deal_to:
            copy = state.clone()
            before = state.to_json()
            while copy.deal_to:
                copy.apply_action(copy.sample_chance(rng))
            assert state.to_json() == before
            return
    pytest.fail("no penalty deal in the sampled games")


def test_states_of_games_with_other_options_interleave() -> None:
    """Each state reads its own game's rules, even when states of differently configured games alternate."""
    games = [obelisk.load("solomon", 2), obelisk.load("solomon", 2, uphill=True, move_limit=3)]

    def play(order: list[int]) -> list[list[int]]:
        states = [game.new_initial_state(5) for game in games]
        rngs = [random.Random(1), random.Random(1)]
        for index in order:
            state, rng = states[index], rngs[index]
            if not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
        return [state.history() for state in states]

    alone = play([0] * 300 + [1] * 300)
    assert play([0, 1] * 300) == alone
    assert alone[0] != alone[1]
