"""Resampling: hands that a pending decision depends on are always dealt consistently, never kept."""

from __future__ import annotations

import itertools
import random

import pytest

from obelisk.games.cleopatra.data import KINDS, load_tables
from obelisk.games.cleopatra.rules import affordable, completable
from tests.games.cleopatra.helpers import set_hand, start

K = {name: i for i, name in enumerate(KINDS)}


def _paying_lapis(units: int, **hand: int):
    """Seat 0 in the middle of paying a mosaic: ``units`` lapis left, a real choice of source."""
    s = start(players=4)
    set_hand(s, 0, **hand)
    s.phase, s.piece, s.to_pay, s.actor = "pay", ("mosaic", s.stack_top), [0, 0, 0, 0, units], 0
    s.main_done = True
    s._legal = None
    assert len(s.legal_actions()) > 1
    return s


def test_payer_always_can_pay_and_its_real_hand_is_not_kept() -> None:
    s = _paying_lapis(3, lapis=2, trompe_l_oeil=1)
    t = s.tables
    rng = random.Random(3)
    hands = []
    for _ in range(200):
        other = s.resample_from_infostate(1, rng)
        hand = other.hands[0]
        assert sum(hand) == 3 and other.observation(1) == s.observation(1)
        assert affordable(t, other.to_pay, other.credit, hand, other.merchants[0], True)
        assert other.legal_actions()
        assert sorted(other.deck) != sorted(s.deck) or other.hands != s.hands or other.stalls != s.stalls
        hands.append(tuple(hand))
    # Paying 3 lapis from 3 unseen cards is rare in a plain deal (the real hand was kept after
    # 11 failed deals before); every way of paying now appears, the real hand only sometimes.
    assert hands.count(tuple(s.hands[0])) < 0.5 * len(hands)
    assert any(h[K["tainted_lapis"]] for h in hands) and any(h[K["trompe_l_oeil"]] >= 2 for h in hands)
    assert len(set(hands)) >= 5


def test_merchant_that_cannot_replace_an_artisan_is_respected() -> None:
    s = start(players=3, merchant_artisan=False, merchants=2)
    set_hand(s, 0, artisan=1, trompe_l_oeil=1, lapis=1)
    s.phase, s.piece, s.to_pay, s.actor = "pay", ("mosaic", s.stack_top), [2, 0, 0, 0, 1], 0
    s._legal = None
    rng = random.Random(8)
    for _ in range(100):
        other = s.resample_from_infostate(2, rng)
        assert affordable(s.tables, other.to_pay, other.credit, other.hands[0], 2, False)


def test_beggars_victim_without_talents_always_holds_a_standard_card() -> None:
    s = start(players=3)
    set_hand(s, 0, beggars=1)
    set_hand(s, 1, wood=1, vizier=2)
    s.talents[1] = 1
    s._legal = None
    s.apply_action(s.string_to_action("play Beggars: every opponent gives 2 talents or a standard card (+2 amulets)"))
    assert s.phase == "beggars" and s.actor == 1
    rng = random.Random(4)
    given = set()
    for _ in range(100):
        other = s.resample_from_infostate(2, rng)
        victim = other.hands[1]
        assert any(victim[:5]) and sum(victim) == 3
        assert other.legal_actions()
        given |= {k for k in range(5) if victim[k]}
    assert len(given) >= 3


def _multisets(pool: list[int], size: int):
    kinds = [k for k, c in enumerate(pool) for _ in range(c)]
    return {combo for n in range(size + 1) for combo in itertools.combinations(kinds, n)}


@pytest.mark.parametrize("allow", [True, False])
def test_completable_agrees_with_trying_every_set_of_cards(allow: bool) -> None:
    t = load_tables()
    rng = random.Random(11 + allow)
    for _ in range(300):
        need = [rng.randint(0, 2) for _ in range(5)]
        credit = [rng.randint(0, 1) if rng.random() < 0.2 else 0 for _ in range(5)]
        hand = [0] * len(KINDS)
        pool = [0] * len(KINDS)
        for _ in range(rng.randint(0, 3)):
            hand[rng.randrange(11)] += 1
        for _ in range(rng.randint(0, 7)):
            pool[rng.randrange(12)] += 1
        merchants = rng.randint(0, 2)
        budget = rng.randint(0, 3)
        expected = False
        for combo in _multisets(pool, budget):
            trial = list(hand)
            for kind in combo:
                trial[kind] += 1
            if affordable(t, need, credit, trial, merchants, allow):
                expected = True
                break
        assert completable(t, need, credit, hand, merchants, allow, pool, budget) == expected, (
            need, credit, hand, pool, merchants, budget)
