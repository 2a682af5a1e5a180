"""The evaluation the bots use: building must look worth it from its first decision."""

from __future__ import annotations

import math

from tests.games.cleopatra.helpers import action, do, set_hand, start

WALL = dict(artisan=1, wood=1, stone=1)


def test_a_piece_waiting_for_payment_counts_its_reward() -> None:
    # A Nile merchant makes the payment a choice, so the wall waits in the pay phase.
    s = start(merchants=1)
    set_hand(s, 0, **WALL)
    before = s.evaluate()[0]
    do(s, "build wall L2 (+3)")
    assert s.phase == "pay" and s.talents[0] == 5
    assert s.evaluate()[0] > before


def test_the_turns_building_bonus_counts_before_the_turn_is_finished() -> None:
    s = start()
    set_hand(s, 0, artisan=2, wood=2, stone=2)
    do(s, "build wall L2")
    do(s, "build wall L3")
    unfinished = s.evaluate()[0]
    do(s, "finish building")
    assert s.talents[0] == 5 + 3 + 3 + 2
    assert abs(s.evaluate()[0] - unfinished) < 1e-9


def test_cards_beyond_the_hand_limit_add_nothing() -> None:
    s = start()
    limit = s.tables.kit["hand_limit"]
    set_hand(s, 0, stone=limit)
    at_limit = s.evaluate()[0]
    set_hand(s, 0, stone=limit + 3)
    assert s.evaluate()[0] == at_limit


def test_a_secret_bid_counts_as_spent_before_the_offering_is_resolved() -> None:
    s = start()
    s.talents, s.altar = [20, 20, 20], 4
    set_hand(s, 0, scribes=1)
    do(s, "play Scribes: set a High Priest die")
    assert s.phase == "offering" and s.actor == 0
    no_bid = s.clone()
    no_bid.apply_action(action(no_bid, "bid", 0))
    big_bid = s.clone()
    big_bid.apply_action(action(big_bid, "bid", 15))
    assert big_bid.phase == "offering" and big_bid.talents[0] == 20
    assert big_bid.evaluate()[0] < no_bid.evaluate()[0]


def test_level_corruption_is_little_risk_but_one_amulet_more_is() -> None:
    """Nobody is eaten while everybody is level (ruling 8). With empty hands, no merchants and no bids a
    seat's wealth is its talents, here 10 above the mean; level, each architect is more likely to survive
    than not, so more than half of that lead counts (not so under ``crocodile_ties=all``, which eats every
    level architect). One amulet more puts the crocodile on that seat."""
    s = start()
    s.talents = [20, 10, 0]
    s.amulets = [3, 3, 3]
    level = s.evaluate()
    assert level[0] > math.tanh(0.5 * 10 / 20) and level[2] < 0
    s.amulets = [4, 3, 3]
    assert s.evaluate()[0] < 0 < level[0]
    eat_all = start(crocodile_ties="all")  # everybody level is everybody eaten: the risk stays high
    eat_all.talents, eat_all.amulets = [20, 10, 0], [3, 3, 3]
    assert 0 < eat_all.evaluate()[0] < math.tanh(0.5 * 10 / 20)
