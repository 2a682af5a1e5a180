"""Rule tests for King Solomon's Treasury: set-up, rounds, moves, digs, items, payment, penalties."""

from __future__ import annotations

import json

import pytest

import obelisk
from obelisk.core import CHANCE, IllegalActionError
from obelisk.games.solomon import data as d
from obelisk.games.solomon.rules import ROUNDS
from tests.games.solomon.helpers import KIND, give, labels, play, reveal, set_cave, sq, start_round, started

FLAT3 = ["3:T1 3:T1 3:T1 3:T1 3:T1 3:T1"] * 6


# Set-up ---------------------------------------------------------------------------


@pytest.mark.parametrize("players,cards,coins", [(2, 12, 10), (3, 8, 10), (4, 6, 10), (5, 5, 8)])
def test_setup_deals_cards_and_coins(players: int, cards: int, coins: int) -> None:
    state = started(players)
    assert ROUNDS[players] == cards
    assert [len(h) for h in state.hands] == [cards] * players
    assert state.coins == [coins] * players
    assert state.supply_coins == 40 - coins * players
    assert sum(state.card_pool) == 32 - cards * players
    assert state.heights == [4] * 36 and state.unseen == [3] * 36
    assert all(len(stack) == 1 for stack in state.stacks)
    assert state.current_player() == 0 and state.phase == "choose"


def test_setup_tops_come_from_the_gold_backed_pool() -> None:
    game = obelisk.load("solomon", 2)
    state = game.new_initial_state(0)
    gold = game.tables.gold
    outcomes = dict(state.chance_outcomes())
    assert outcomes == {k: c / 36 for k, c in enumerate(gold) if c}
    for _ in range(36):
        state.apply_action(state.sample_chance())
    assert state.gold_pool == [0] * d.NUM_KINDS
    tops = [0] * d.NUM_KINDS
    for stack in state.stacks:
        tops[stack[-1]] += 1
    assert tops == list(gold)
    assert state.dark_pool == list(game.tables.dark)  # nothing dark-backed seen yet


def test_first_turn_allows_no_moves_because_all_stacks_are_full() -> None:
    state = started(2)
    start_round(state, [3, 20])
    assert state.current_player() == 0
    assert not any(label.startswith("move") for label in labels(state))
    assert "end turn without digging" in labels(state)


# Card choice and turn order ------------------------------------------------------


def test_secret_choice_is_hidden_and_order_follows_card_numbers() -> None:
    state = started(3)
    state.hands = [[d.MAX_STACK + 20], [2], [9]]  # cards 25, 3, 10
    action = state.string_to_action("choose card 25")
    assert state.public_action_string(action, 1) == "seat 0 chooses a card"
    assert state.public_action_string(action, 0) == "choose card 25"
    state.apply_action(action)
    view = state.observation(1)
    assert view["seats"][0]["has_chosen"] and view["hand"] == [3]
    assert "25" not in json.dumps(state.observation(2))
    play(state, "choose card 3", "choose card 10")
    assert state.order == [1, 2, 0]
    assert state.current_player() == 1
    assert state.observation(2)["round_cards"] == [25, 3, 10]


def test_round_count_equals_cards_per_player() -> None:
    state = started(4)
    turns = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
        elif state.phase == "choose":
            state.apply_action(state.legal_actions()[0])
        else:
            end = state.game.actions.start("end")
            state.apply_action(end if end in state.legal_actions() else state.legal_actions()[0])
            turns += 1
    assert turns == 6 * 4
    assert all(len(p) == 6 for p in state.played)


# Moves ------------------------------------------------------------------------------


def _turn(rows: list[str], players: int = 2, first_card: int = 15, **options: object):
    state = started(players, **options)
    set_cave(state, rows)
    cards = [first_card] + [32 - i for i in range(players - 1)]
    start_round(state, cards)
    assert state.current_player() == 0
    return state


def test_move_to_same_or_lower_level_only() -> None:
    state = _turn(["3:T1 3:T1 2:SA", "3:T1 4:T1 1:SB"])
    legal = labels(state)
    assert "move B1→C1" in legal  # 3 -> lands on level 3
    assert "move B1→C2" in legal  # lands on level 2
    assert "move B1→A1" not in legal  # lands on level 4: up
    assert "move B1→B2" not in legal  # B2 is full
    up = state.game.actions.start("move") + sq("C1") * 8 + 3  # C1 west -> B1
    with pytest.raises(IllegalActionError, match="level 2 and would land on level 4; tiles never move up"):
        state.apply_action(up)


def test_uphill_variant_allows_moving_up_but_caps_stacks_at_four() -> None:
    state = _turn(["3:T1 3:T1 2:SA", "3:T1 4:T1 1:SB"], uphill=True)
    legal = labels(state)
    assert "move C1→B1" in legal
    assert "move C2→B2" not in legal  # B2 already holds 4
    with pytest.raises(IllegalActionError, match="B2 already holds 4 tiles"):
        state.apply_action(state.game.actions.start("move") + sq("C2") * 8 + 3)


def test_a_move_exposes_the_tile_below_as_a_dark_backed_reveal() -> None:
    state = _turn(FLAT3[:1] + ["2:T1 2:T1 2:T1 2:T1 2:T1 2:T1"])
    play(state, "move A1→A2")
    assert state.current_player() == CHANCE
    assert dict(state.chance_outcomes()) == {k: c / sum(state.dark_pool) for k, c in enumerate(state.dark_pool) if c}
    before = state.dark_pool[KIND["C3"]]
    reveal(state, "C3")
    assert state.dark_pool[KIND["C3"]] == before - 1
    assert state.stacks[sq("A1")] == (KIND["C3"],) and state.heights[sq("A1")] == 2
    assert state.heights[sq("A2")] == 3 and state.stacks[sq("A2")][-1] == KIND["T1"]
    assert state.moves == 1


def test_moved_tile_covering_a_seen_tile_needs_no_reveal_when_moved_again() -> None:
    state = _turn(["3:T1 2:SA 1:SB"])
    play(state, "move A1→B1")
    reveal(state, "T2")
    play(state, "move B1→C1")
    assert state.current_player() == 0  # B1's scroll A was seen: no chance node
    assert state.stacks[sq("B1")][-1] == KIND["SA"]


def test_each_single_step_must_obey_the_level_rule() -> None:
    # A tile on level 2 may go to level 2 or 1, then on, but never up a step.
    state = _turn(["2:T4 1:SA 2:SB"])
    play(state, "move A1→B1")
    reveal(state, "T1")
    assert "move B1→C1" not in labels(state)  # B1 top is on level 2, C1 has 2: would be level 3


def test_move_limit_option() -> None:
    state = _turn(["3:T1 1:SA"], move_limit=2)
    play(state, "move A1→B1")
    reveal(state, "T1")
    play(state, "move B1→C1") if "move B1→C1" in labels(state) else play(state, "move A1→B2")
    while state.is_chance_node():
        reveal(state, "T1")
    assert not any(label.startswith("move") for label in labels(state))
    with pytest.raises(IllegalActionError, match="at most 2 moves per turn"):
        state.apply_action(state.game.actions.start("move") + sq("A1") * 8 + 4)


def _shuttle(state, times: int) -> None:
    """Move the top tile back and forth between A1 and B1 ``times`` times (each move stays on level 2)."""
    for step in range(times):
        play(state, "move A1→B1" if step % 2 == 0 else "move B1→A1")
        while state.is_chance_node():
            reveal(state, "SC")


def test_moves_are_paid_at_the_end_of_the_turn_with_the_treasures_dug_in_it() -> None:
    # Přesunování: "Během svého tahu může hráč přesunout tolik destiček, kolik chce; avšak na konci svého
    # tahu musí za každý přesun zaplatit zlatou minci nebo poklad v hodnotě 1. K zaplacení mohou být použity
    # také poklady, které byly vykopány v tomto tahu."  A player with nothing moves, digs the treasure that
    # pays for the move, and pays with it.
    state = _turn(["2:T3 3:SA 2:SB"], first_card=1)
    assert state.game.options["unaffordable"] == "penalty" and state.game.options["move_limit"] == 0
    state.coins[0] = 0
    state._legal = None
    assert "move B1→B2" in labels(state)  # nothing held, yet the move is offered: it is paid at the end
    play(state, "move B1→B2")
    reveal(state, "SD")
    assert state.moves == 1 and state.phase == "turn"  # nothing is paid yet
    play(state, "dig card 1 at A1")
    while state.is_chance_node():
        reveal(state, "SD")
    assert state.phase == "pay" and state.owed == 1
    assert labels(state) == ["pay with treasure 3 (change 2)"]
    play(state, "pay with treasure 3 (change 2)")
    assert state.coins[0] == 2 and state.tiles[0][KIND["T3"]] == 0 and state.current_player() == 1


def test_moves_and_a_dig_that_cannot_be_paid_bring_the_penalty() -> None:
    # Nedovolené tahy: "Kdokoli přesune destičky, provede vykopávku, a poté prohlásí, že za to nemůže
    # zaplatit, nemusí cokoli platit. Ale: právě vykopané destičky jsou zamíchány lícem dolů a rovnoměrně
    # rozdány po směru hodinových ručiček všem spoluhráčům. Zbývající destičky jsou vyřazeny."
    state = _turn(["2:SC 3:SA 2:SB"], players=3, first_card=1)
    state.coins[0] = 1
    play(state, "move B1→B2")
    reveal(state, "SD")
    play(state, "move B2→A2")  # a second move: 2 owed, 1 coin held
    assert state.moves == 2 and state.phase == "turn"
    play(state, "dig card 1 at A1")  # scroll C, scroll D, scroll B: no treasure to pay with
    while state.reveal_queue:
        reveal(state, "SA")
    assert state.coins[0] == 1 and sum(state.tiles[0]) == 0  # pays nothing, keeps nothing dug
    assert state.deal_to == [1, 2]  # 3 dug tiles, 2 opponents: one each from the left neighbour
    for short in ("SB", "SC"):
        reveal(state, short)
    assert state.penalties[-1]["removed"] == 1 and state.current_player() == state.order[1]
    assert state.heights[sq("A2")] == 2  # moved tiles stay


def test_the_move_cap_is_all_the_money_in_the_game() -> None:
    # Ruling 15: a turn's moves are paid with coins and treasures, and nobody can hold more than all of
    # them, so the cap refuses no move anyone could pay for; it only keeps a game finite.
    game = obelisk.load("solomon", 2)
    money = 40 + sum(d.TREASURE_VALUE[k] * (game.tables.gold[k] + game.tables.dark[k]) for k in d.TREASURE_KINDS)
    assert game.rules.move_limit == money == 205
    capped = obelisk.load("solomon", 2, move_limit=8)
    assert capped.rules.move_limit == 8 and capped.max_game_length() < game.max_game_length()
    state = _turn(["2:T1 1:SA"], first_card=1)
    state.coins[0] = 0
    _shuttle(state, money)
    assert not any(label.startswith("move") for label in labels(state))
    with pytest.raises(IllegalActionError, match="at most 205 moves per turn, all the money in the game: nobody"):
        state.apply_action(state.game.actions.start("move") + sq("A1") * 8 + 4)
    assert state.move_number() <= game.max_game_length()
    play(state, "end turn without digging")  # the penalty: nothing dug, no tile to give
    assert state.current_player() == 1 and state.coins[0] == 0


def test_pay_bound_variant_offers_a_move_only_while_coins_and_treasures_pay_for_it() -> None:
    # Option unaffordable=forbid (a variant for research and bots, not the rulebook's rule).
    state = _turn(["2:T1 1:SA"], first_card=1, unaffordable="forbid")
    state.coins[0] = 9
    give(state, 0, T3=1)  # 9 coins + a treasure worth 3 pay for 12 moves
    _shuttle(state, 12)
    assert state.moves == 12
    assert not any(label.startswith("move") for label in labels(state))
    with pytest.raises(IllegalActionError, match="could not pay for move 13: coins and treasures are worth 12"):
        state.apply_action(state.game.actions.start("move") + sq("A1") * 8 + 4)
    play(state, "end turn without digging")
    assert state.phase == "pay" and state.owed == 12


def test_pay_bound_variant_leaves_only_the_curses_of_the_dig_unpaid() -> None:
    # Under unaffordable=forbid a player without money makes no move, so the penalty can only come from
    # the curses of the dig.
    state = _turn(["2:T1 1:SA", "2:SB 2:SB"], players=3, first_card=1, unaffordable="forbid")
    set_cave(state, ["2:T1 2:C3 2:SA", "2:SB 2:SB"])
    state.coins[0] = 1
    state._legal = None
    assert "move C1→D1" in labels(state)  # one coin pays for one move
    state.coins[0] = 0
    state._legal = None
    assert not any(label.startswith("move") for label in labels(state))
    with pytest.raises(IllegalActionError, match="seat 0 could not pay for move 1: coins and treasures are worth 0"):
        state.apply_action(state.game.actions.start("move") + sq("A1") * 8 + 4)
    play(state, "dig card 1 at A1")  # treasure 1 + curse 3 + scroll A: owes 3, holds 1
    while state.reveal_queue:
        reveal(state, "SD")
    assert state.deal_to == [1, 2]  # the penalty: dug tiles dealt face down, the third removed
    assert sum(state.tiles[0]) == 0 and state.coins[0] == 0


def test_forbid_option_offers_only_affordable_moves() -> None:
    state = _turn(["4:T1 1:SA", "3:T1 1:SA"], unaffordable="forbid")
    state.coins[0] = 1
    play(state, "move A2→B2")
    reveal(state, "T1")
    assert not any(label.startswith("move") for label in labels(state))
    with pytest.raises(IllegalActionError, match="could not pay for move 2"):
        state.apply_action(state.game.actions.start("move") + sq("A1") * 8 + 4)


def test_the_played_card_is_discarded_even_without_a_dig() -> None:
    # "Rozhodne-li se podle toho, že kopat nechce nebo nemůže, tak kopat nemusí. Zahraná Výkopová karta
    # je odložena na odhazovací balíček."
    state = _turn(FLAT3, first_card=1)
    play(state, "end turn without digging")
    assert state.played[0] == [0] and 0 not in state.hands[0]
    assert state.observation(1)["seats"][0]["played"] == [1]  # the discard pile is open
    assert state.coins[0] == 10 and state.current_player() == 1  # no move, nothing to pay


def test_moves_are_counted_openly() -> None:
    # "Kvůli sledování, kolikrát byla jedna nebo více destiček posunuto, je nejlepší počítat všechny
    # přesuny nahlas."
    state = _turn(["2:T1 1:SA"], first_card=1)
    _shuttle(state, 3)
    for viewer in (0, 1, None):
        assert state.observation(viewer)["turn"]["moves"] == 3
    assert "3 moves" in state.game.render_observation(state.observation(1))


# Digging ------------------------------------------------------------------------------


def test_dig_shape_with_arrow_to_the_entrance_and_same_level() -> None:
    # Card 1 is three squares in a row (arrow toward the entrance).
    state = _turn(["2:T1 2:T2 2:T3 1:SA 2:SB 2:SC"], first_card=1)
    digs = [label for label in labels(state) if label.startswith("dig")]
    assert "dig card 1 at A1" in digs
    assert "dig card 1 at B1" not in digs  # D1 is on another level
    assert not any("rotated" in label for label in digs)
    play(state, "dig card 1 at A1")
    assert [state.tiles[0][KIND[k]] for k in ("T1", "T2", "T3")] == [1, 1, 1]
    assert state.heights[:6] == [1, 1, 1, 1, 2, 2]
    assert state.reveal_queue == [sq("A1"), sq("B1"), sq("C1")]


def test_dig_errors_name_the_problem() -> None:
    state = _turn(["2:T1 2:T2 0:-- 1:SA 2:SB 2:SC"], first_card=1)
    dig = state.game.actions.start("dig")
    with pytest.raises(IllegalActionError, match="covers empty square\\(s\\) C1"):
        state.apply_action(dig + sq("A1"))
    with pytest.raises(IllegalActionError, match="levels 1, 2; all must be on the same level"):
        state.apply_action(dig + sq("D1"))
    with pytest.raises(IllegalActionError, match="turning it needs the Mirror"):
        state.apply_action(dig + 36 + sq("A2"))
    with pytest.raises(IllegalActionError, match="leaves the cave"):
        state.apply_action(dig + sq("E1"))
    with pytest.raises(IllegalActionError, match="never mirrors it"):
        state.apply_action(dig + 4 * 36 + sq("A2"))


def test_dig_bitmasks_match_a_direct_check() -> None:
    tables = obelisk.load("solomon", 2).tables
    for card in tables.cards:
        for o in card.orientations:
            for anchor, mask in card.placements[o]:
                squares = [s for s in range(36) if mask >> s & 1]
                assert len(squares) == card.size
                assert card.masks[o][anchor] == mask
    one = tables.cards[0]
    assert one.orientations == (0, 1)  # a straight three: turning 180° repeats the shape
    assert len(one.placements[0]) == 4 * 6
    seven = tables.cards[6]
    assert seven.orientations == (0,)  # the 2x2 square looks the same every way


def test_mirror_allows_any_rotation() -> None:
    state = _turn(["2:T1 2:T2 2:T3", "2:SA 1:T5 1:T5", "2:SB 1:T5 1:T5"], first_card=1)
    assert "dig card 1 at A1 (rotated 90°)" not in labels(state)
    give(state, 0, Mi=1)
    play(state, "use Mirror")
    assert state.tiles[0][KIND["Mi"]] == 0  # discarded after use
    assert "dig card 1 at A1 (rotated 90°)" in labels(state)
    play(state, "dig card 1 at A1 (rotated 90°)")
    assert state.reveal_queue == [sq("A1"), sq("A2"), sq("A3")]


def test_mirror_reflection_option() -> None:
    # Card 12 is an L of four; flipped over it is a J, which no rotation gives.
    plain = _turn(FLAT3, first_card=12)
    give(plain, 0, Mi=1)
    play(plain, "use Mirror")
    assert not any("mirrored" in label for label in labels(plain))
    state = _turn(FLAT3, first_card=12, mirror_reflect=True)
    give(state, 0, Mi=1)
    play(state, "use Mirror")
    assert "dig card 12 at A1 (mirrored)" in labels(state)
    play(state, "dig card 12 at A1 (mirrored)")
    assert state.reveal_queue == [sq("B1"), sq("B2"), sq("A3"), sq("B3")]


def test_pickaxe_digs_across_levels() -> None:
    state = _turn(["3:T1 2:T2 1:T3"], first_card=1)
    assert "dig card 1 at A1" not in labels(state)
    give(state, 0, Pi=1)
    play(state, "use Pickaxe")
    play(state, "dig card 1 at A1")
    assert state.heights[:3] == [2, 1, 0]


def test_pickaxe_still_needs_a_tile_on_every_square() -> None:
    # "Rovněž všechna políčka povrchu vykopávky musí stále obsahovat alespoň jednu destičku."
    state = _turn(["3:T1 0:-- 1:T3 2:T2"], first_card=1)
    give(state, 0, Pi=1)
    play(state, "use Pickaxe")
    assert "dig card 1 at A1" not in labels(state) and "dig card 1 at B1" not in labels(state)
    with pytest.raises(IllegalActionError, match="covers empty square\\(s\\) B1"):
        state.apply_action(state.game.actions.start("dig") + sq("A1"))
    assert "dig card 1 at C1" in labels(state)  # C1, D1, E1 on levels 1, 2, 1


def test_seal_digs_any_connected_area_of_the_card_size() -> None:
    # Card 1 has 3 squares: with the Seal, A1, B2 and C1 (diagonally connected) on level 2.
    rows = ["2:T1 1:SA 2:T2 3:SA 3:SA 3:SA", "1:SB 2:T3 3:SC 3:SB 3:SA 3:SA"]
    state = _turn(rows + ["4:T1 4:T1 4:T1 4:T1 4:T1 4:T1"] * 4, first_card=1)
    give(state, 0, Se=1)
    play(state, "use Seal")
    starts = [label for label in labels(state) if label.startswith("Seal")]
    assert "Seal: dig A1" in starts and "Seal: dig C2" in starts
    assert "Seal: dig B1" not in starts  # its level-1 area (B1, A2) is smaller than the card's 3
    play(state, "Seal: dig A1")
    assert labels(state) == ["Seal: dig B2"]  # committed: only squares touching the area on level 2
    play(state, "Seal: dig B2")
    assert labels(state) == ["Seal: dig C1"]
    play(state, "Seal: dig C1")
    assert sorted(state.reveal_queue) == [sq("A1"), sq("C1"), sq("B2")]


def test_seal_start_needs_a_large_enough_area() -> None:
    state = _turn(["2:T1 1:SA 3:T2", "3:SB 3:T3 1:SC"], first_card=1)
    give(state, 0, Se=1)
    play(state, "use Seal")
    starts = [label for label in labels(state) if label.startswith("Seal")]
    assert "Seal: dig A1" not in starts  # its level-2 area is just A1
    assert "Seal: dig C1" in starts  # C1, B2, A2 on level 3
    assert "Seal: dig B1" in starts  # B1, C2 and the default level-1 rows below


def test_item_dug_this_turn_cannot_be_used_and_amulet_waives_curses() -> None:
    state = _turn(["2:Am 2:C3 2:C2", "1:SB 1:SB 1:SB"], first_card=1)
    give(state, 0, T1=1)
    play(state, "dig card 1 at A1")
    while state.is_chance_node():
        reveal(state, "T1")
    assert state.phase == "pay" and state.owed == 5
    assert not any(label.startswith("use") for label in labels(state))
    # Next game-turn with the Amulet (dug earlier): curses are free.
    state2 = _turn(["2:T1 2:C3 2:C2"], first_card=1)
    give(state2, 0, Am=1)
    coins = state2.coins[0]
    play(state2, "use Amulet", "dig card 1 at A1")
    while state2.is_chance_node():
        reveal(state2, "T1")
    assert state2.coins[0] == coins and state2.current_player() == 1
    assert state2.tiles[0][KIND["C3"]] == 1 and state2.tiles[0][KIND["C2"]] == 1  # still kept for scoring


def test_amulet_and_pickaxe_combine() -> None:
    state = _turn(["3:C3 2:C2 1:C1"], first_card=1)
    give(state, 0, Am=1, Pi=1)
    play(state, "use Amulet", "use Pickaxe", "dig card 1 at A1")
    while state.is_chance_node():
        reveal(state, "T1")
    assert state.coins[0] == 10 and state.current_player() == 1
    assert state.tiles[0][KIND["Am"]] == 0 and state.tiles[0][KIND["Pi"]] == 0


def test_declared_item_is_used_up_even_without_a_dig() -> None:
    state = _turn(FLAT3, first_card=1)
    give(state, 0, Mi=1)
    play(state, "use Mirror", "end turn without digging")
    assert state.tiles[0][KIND["Mi"]] == 0


# Paying ---------------------------------------------------------------------------------


def test_rulebook_card_15_example_three_moves_and_a_curse_cost_five() -> None:
    # Card 15 covers B2 C2 / B3 C3 / B4. Two scrolls wait on level 2; B3 and B4 are higher.
    rows = [
        "1:SC 1:SC 1:SC 1:SC 1:SC 1:SC",
        "1:SC 2:SA 2:SB 1:SC 1:SC 1:SC",
        "2:T1 3:T3 2:T2 1:SC 1:SC 1:SC",
        "2:T1 4:T4 1:SD 1:SC 1:SC 1:SC",
    ]
    # Příklad: "Hráč zahrál Výkopovou kartu 15. ... musí přesunout 3 destičky. První přesun odhalí Poklad s
    # hodnotou 5, a druhý příp. třetí přesun odhalí Prokletí. ... Hráč si vezme dva Poklady v hodnotě 5 a 2,
    # dva svitky a Prokletí v hodnotě 2. ... Přesuny stojí hráče zlaté mince nebo Poklad v hodnotě 3. Ve
    # skutečnosti musí hráč zaplatit zlaté mince nebo Poklady v hodnotě 5".  The player holds nothing: the
    # treasures of the dig pay for the moves and the curse.
    state = _turn(rows, first_card=15)
    state.coins[0] = 0
    play(state, "move B3→A2")
    reveal(state, "T5")  # the first move reveals a treasure worth 5
    play(state, "move B4→A3")
    reveal(state, "T3")
    play(state, "move B4→C4")
    reveal(state, "C2")  # the third move reveals a curse worth 2
    assert [state.heights[sq(s)] for s in ("B2", "C2", "B3", "C3", "B4")] == [2] * 5
    play(state, "dig card 15 at B2")
    while state.is_chance_node():
        reveal(state, "SD")
    assert sorted(d.KIND_SHORT[k] for k in state.dug) == ["C2", "SA", "SB", "T2", "T5"]
    assert state.phase == "pay" and state.owed == 5  # 3 moves + curse 2
    assert labels(state) == ["pay with treasure 2", "pay with treasure 5"]
    play(state, "pay with treasure 5")  # a treasure dug this turn pays exactly
    assert state.current_player() == 1 and state.coins[0] == 0 and state.tiles[0][KIND["T2"]] == 1
    assert state.tiles[0][KIND["T5"]] == 0 and state.supply_treasures[4] == 1


def test_change_comes_from_the_supply() -> None:
    state = _turn(["2:C2 2:SA 2:SB"], first_card=1)
    give(state, 0, T5=1)
    state.coins[0] = 3
    state.supply_coins = 1
    state.supply_treasures = [1, 0, 0, 0, 0]
    play(state, "dig card 1 at A1")
    while state.is_chance_node():
        reveal(state, "T1")
    assert "pay with treasure 5 (change 3)" in labels(state)
    play(state, "pay with treasure 5 (change 3)")
    # 1 coin and a treasure 1 are all the supply can give: change 2 of 3 (ruling: the rest is lost).
    assert state.coins[0] == 4 and state.tiles[0][KIND["T1"]] == 1
    assert state.supply_coins == 0 and state.supply_treasures == [0, 0, 0, 0, 1]


def test_unlimited_change_option_pays_change_in_coins() -> None:
    state = _turn(["2:C2 2:SA 2:SB"], first_card=1, change="unlimited")
    give(state, 0, T5=1)
    state.supply_coins = 0
    play(state, "dig card 1 at A1")
    while state.is_chance_node():
        reveal(state, "T1")
    play(state, "pay with treasure 5 (change 3)")
    assert state.coins[0] == 13


def test_coins_only_are_paid_without_a_decision() -> None:
    state = _turn(["3:T1 1:SA"], first_card=1)
    play(state, "move A1→B1")
    reveal(state, "SB")
    play(state, "end turn without digging")
    assert state.coins[0] == 9 and state.supply_coins == 21 and state.current_player() == 1


# Unable to pay -------------------------------------------------------------------------------


def test_unable_to_pay_deals_dug_tiles_to_opponents_and_removes_extras() -> None:
    state = _turn(["2:C3 2:C3 2:SA 2:SB 2:T1 1:SC"], players=3, first_card=17)
    # Card 17 is U-shaped: A1 B1 C1 over A2 C2.
    set_cave(state, ["2:C3 2:C3 2:C2 1:SA", "2:SB 1:SA 2:T1 1:SA"])
    state.coins[0] = 0
    play(state, "dig card 17 at A1")
    while state.reveal_queue:
        reveal(state, "SD")
    assert state.coins[0] == 0 and sum(state.tiles[0]) == 0  # pays nothing, keeps nothing dug
    assert state.deal_to == [1, 2, 1, 2]  # 5 tiles, 2 opponents: 2 each from the left neighbour
    deal = state.legal_actions()[0]
    assert state.public_action_string(deal, 2) == "seat 1 receives a dug tile face down"
    assert "face down" in state.public_action_string(deal, 1) and "receives" in state.public_action_string(deal, 1)
    for short in ("C3", "C3", "C2", "SB"):
        reveal(state, short)
    assert state.tiles[1][KIND["C3"]] == 1 and state.tiles[1][KIND["C2"]] == 1  # 1st and 3rd tile
    assert state.tiles[2][KIND["C3"]] == 1 and state.tiles[2][KIND["SB"]] == 1
    assert state.penalties[-1]["removed"] == 1 and [e for e in state.secret if e[1] == -1] == [[0, -1, KIND["T1"]]]
    assert state.coins[1] == 10 and state.current_player() == state.order[1]  # received curses are not paid
    view = state.observation(0)
    assert view["seats"][1]["face_down_tiles"] == 2 and view["seats"][1]["tiles"] == {}
    assert view["penalties"][0]["tiles"] == ["treasure 1", "curse 2", "curse 3", "curse 3", "scroll B"]


def test_more_opponents_than_dug_tiles_active_player_gives_own_tiles() -> None:
    state = _turn(FLAT3, players=5, first_card=1)
    set_cave(state, ["2:C3 2:C3 2:C3"] + FLAT3[1:])
    state.coins[0] = 1
    give(state, 0, SA=1, Mi=1)
    play(state, "dig card 1 at A1")
    while state.reveal_queue:
        reveal(state, "T1")
    assert state.deal_to == [1, 2, 3] and state.give_to == [4]
    for _ in range(3):
        reveal(state, "C3")
    assert state.current_player() == 0 and state.phase == "give"
    assert labels(state) == ["give scroll A to seat 4", "give Mirror to seat 4"]
    play(state, "give Mirror to seat 4")
    assert state.tiles[4][KIND["Mi"]] == 1 and state.tiles[0][KIND["Mi"]] == 0
    assert state.coins[0] == 1 and state.current_player() == state.order[1] == 4


def test_moves_without_dig_that_cannot_be_paid_hand_out_own_tiles() -> None:
    # Ruling 5: moves that cannot be paid and no dig: the penalty with no dug tile, so every opponent gets a
    # tile of the player's own.
    state = _turn(["3:T1 1:SA"], players=3, first_card=1)
    state.coins[0] = 0
    give(state, 0, SB=1)
    play(state, "move A1→B1")
    reveal(state, "SC")
    play(state, "end turn without digging")
    assert state.phase == "give" and state.give_to == [1, 2]
    play(state, "give scroll B to seat 1")
    assert state.current_player() == state.order[1]  # nothing left to give to seat 2
    assert state.heights[sq("B1")] == 2  # moved tiles stay


def test_the_evaluation_charges_an_unpaid_move_the_penalty_ending_the_turn_would_bring() -> None:
    # Moves are paid at the end of the turn, so a player with nothing may move; ending the turn then brings
    # the penalty (ruling 5): two own tiles given to the two opponents. The evaluation counts that before
    # any dig, so an unpaid move never looks free.
    state = _turn(["3:T1 1:SA"], players=3, first_card=1)
    state.coins[0] = 0
    give(state, 0, SB=1, SC=1)
    before = state.evaluate()[0]
    play(state, "move A1→B1")
    reveal(state, "SD")
    assert state.evaluate()[0] < before
    play(state, "end turn without digging")
    assert state.phase == "give" and state.give_to == [1, 2]


def test_deliberate_non_payment_is_not_possible() -> None:
    state = _turn(["2:C3 2:T1 2:T1"], first_card=1)
    state.coins[0] = 1
    play(state, "dig card 1 at A1")
    while state.is_chance_node():
        reveal(state, "T1")
    # Coins and treasures just cover the 3 owed: the player must pay, there is no "cannot pay".
    assert state.phase == "pay" and labels(state) == ["pay 1 with coins", "pay with treasure 1"]
    play(state, "pay with treasure 1", "pay with treasure 1")
    assert state.coins[0] == 0 and state.current_player() == 1


# Illegal actions -------------------------------------------------------------------------------


def test_illegal_actions_change_nothing_and_explain() -> None:
    state = _turn(FLAT3, first_card=1)
    before = json.dumps(state.to_json(), sort_keys=True)
    space = state.game.actions
    cases = {
        space.start("choose") + 5: "cards are chosen at the start of a round",
        space.start("pay_coins"): "payments come after the dig",
        space.start("use") + d.SEAL: "holds no Seal of Solomon",
        space.start("seal") + 3: "needs the Seal of Solomon in use",
    }
    for action, reason in cases.items():
        with pytest.raises(IllegalActionError, match=reason):
            state.apply_action(action)
        assert json.dumps(state.to_json(), sort_keys=True) == before


def test_choice_of_a_card_not_in_hand_is_refused() -> None:
    state = started(2)
    missing = next(c for c in range(32) if c not in state.hands[0])
    with pytest.raises(IllegalActionError, match=f"card {missing + 1} is not in seat 0's hand"):
        state.apply_action(state.game.actions.start("choose") + missing)
