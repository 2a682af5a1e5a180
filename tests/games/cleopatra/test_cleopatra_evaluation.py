"""The evaluation the bots use: building must look worth it from its first decision."""

from __future__ import annotations

from tests.games.cleopatra.helpers import do, set_hand, start

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
