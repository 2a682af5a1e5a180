"""Final scores, rank keys and the crocodile's tie-break, and the evaluation the bots use.

Each function reads a position (a ``CleopatraState``) given as a parameter.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Final

from obelisk.core import i18n
from obelisk.games.cleopatra.data import TAINTED0, TROMPE, Tables

if TYPE_CHECKING:
    from obelisk.games.cleopatra.state import CleopatraState

tr = i18n.domain("cleopatra")

CARD_VALUE: Final = 0.7
"""Talents the evaluation credits per resource unit in hand: 0.5 and 1.0 both lost more
pairs to random play (greedy, 3 players, the same 30 games: 0.88 and 0.87 against 0.92)
before secret bids were counted as spent."""


def tally(state: CleopatraState, at_end: bool) -> dict[str, Any]:
    """The end-of-game accounting of the position as it stands.

    Only ``at_end`` does the crocodile eat the most corrupt: before the end
    nobody is eaten, so every architect's merchants count and the tally is
    the points so far, not a forecast. Several architects tied for the most
    follow option ``crocodile_ties``; by default (``most``) they are all
    eaten, unless every architect has as many amulets as the others: then
    nobody has "the most", nobody is eaten and the game names a winner
    (ruling 8).
    """
    n = state.num_players
    t = state.tables
    tainted = [sum(state.hands[s][TAINTED0:]) for s in range(n)]
    relief = [sum(len(cells) for owner, cells in state.sanctuaries if owner == s) for s in range(n)]
    corruption = [max(0, state.amulets[s] + tainted[s] - relief[s]) for s in range(n)]
    eaten: list[int] = []
    if at_end:
        top = max(corruption)
        tied = [s for s in range(n) if corruption[s] == top]
        rule = state._rules.crocodile_ties
        if len(tied) == n and rule == "most":
            eaten = []
        elif len(tied) == 1 or rule in ("most", "all"):
            eaten = tied
        elif rule != "none":
            richest = max(state.talents[s] for s in tied)
            eaten = [s for s in tied if state.talents[s] == richest]
    bonus = [0 if s in eaten else t.kit["merchant_end_value"] * state.merchants[s] for s in range(n)]
    return {
        "tainted_in_hand": tainted,
        "sanctuary_relief": relief,
        "amulets": corruption,
        "eaten": [s in eaten for s in range(n)],
        "merchant_bonus": bonus,
        "talents": [state.talents[s] + bonus[s] for s in range(n)],
    }


def rank_keys(state: CleopatraState) -> list[Any]:
    f = state.final if state.final is not None else tally(state, at_end=False)
    return [(0, 0, 0) if f["eaten"][s] else (1, f["talents"][s], -f["amulets"][s]) for s in range(state.num_players)]


def tie_break(state: CleopatraState, ahead: int, behind: int) -> str | None:
    """In words, why ``ahead`` ranks above ``behind`` with as many talents: the crocodile, then fewer amulets."""
    f = state.final if state.final is not None else tally(state, at_end=False)
    if f["eaten"][ahead]:
        return None
    if f["eaten"][behind]:
        return tr("not eaten by the crocodile")
    if f["amulets"][ahead] < f["amulets"][behind]:
        return tr("fewer amulets")
    return None


def scores(state: CleopatraState) -> list[dict[str, Any]]:
    """Points at the end, or before it the points so far (see ``tally``)."""
    f = state.final if state.final is not None else tally(state, at_end=False)
    result = []
    for s in range(state.num_players):
        result.append({
            "total": f["talents"][s],
            "breakdown": {
                "talents": state.talents[s],
                "merchant_bonus": f["merchant_bonus"][s],
                "amulets": f["amulets"][s],
                "tainted_in_hand": f["tainted_in_hand"][s],
                "sanctuary_relief": f["sanctuary_relief"][s],
                "eaten": int(f["eaten"][s]),
            },
        })
    return result


def evaluate(tables: Tables, hands: list[list[int]], talents: list[int], amulets: list[int], merchants: list[int],
             bids: list[int], sanctuaries: list[tuple[int, tuple[int, ...]]], builder: int, bonus: int,
             reward: int, level_is_safe: bool) -> list[float]:
    """Wealth discounted by the risk of being the most corrupt.

    Wealth is talents, 3 per Nile merchant and ``CARD_VALUE`` talents per
    resource unit in hand up to the hand limit (cards beyond it must be discarded or
    paid for with amulets). For the ``builder``, the building ``bonus`` of
    the turn so far and the ``reward`` of a piece being paid for count as
    earned, and a secret bid in an unresolved Offering as spent: building and
    bidding take effect decisions later, and a one-step lookahead must see
    their talents at the first decision, or it never prefers building to
    taking cards and bids at random. Corruption counts amulets, tainted cards
    in hand and sanctuary relief; the chance of being eaten grows steeply as a
    seat's corruption approaches or passes the highest of the others, and is
    low for everyone while all are level when ``level_is_safe`` (nobody is
    eaten then under ``crocodile_ties`` ``most`` or ``none``). The
    position comes as typed fields, so the compiled code reads them natively.
    """
    n = len(hands)
    limit = tables.kit["hand_limit"]
    merchant_value = tables.kit["merchant_end_value"]
    wealth: list[float] = []
    corruption: list[int] = []
    for s in range(n):
        hand = hands[s]
        relief = sum(len(cells) for owner, cells in sanctuaries if owner == s)
        corruption.append(amulets[s] + sum(hand[TAINTED0:]) - relief)
        cards = sum(hand[:TAINTED0]) + 2 * sum(hand[TAINTED0:TROMPE]) + hand[TROMPE]
        money = talents[s] - max(0, bids[s])
        wealth.append(money + merchant_value * merchants[s] + CARD_VALUE * min(cards, limit))
    if bonus:
        wealth[builder] += bonus
    if reward:
        wealth[builder] += reward
    # A tie for the most is eaten, unless every architect ties and that eats nobody (ruling 8): then level
    # corruption counts as being below the rival, not at it.
    margin = -0.5 if level_is_safe and min(corruption) == max(corruption) else 0.5
    value = []
    for s in range(n):
        rival = max(corruption[q] for q in range(n) if q != s)
        risk = 1.0 / (1.0 + math.exp(-1.3 * (corruption[s] - rival + margin)))
        value.append((1.0 - risk) * wealth[s])
    mean = sum(value) / n
    return [max(-1.0, min(1.0, math.tanh((v - mean) / 20.0))) for v in value]
