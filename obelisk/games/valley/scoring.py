"""Tomb scores, ranks and the evaluation the bots use.

Only the tomb scores: starters and unique cards their VP, each set the square
of its number of different cards. With option ``tiebreak=sets`` equal scores
are split by the number of different sets begun in the tomb.
"""

from __future__ import annotations

import math
from itertools import compress
from operator import mul
from typing import TYPE_CHECKING, Any

from obelisk.core import i18n
from obelisk.games.valley.data import SET, STARTER, UNIQUE, CardTable
from obelisk.games.valley.rules import Rules

if TYPE_CHECKING:
    from obelisk.games.valley.state import ValleyState

tr = i18n.domain("valley")

GOLD_PROMISE = 0.8
"""Tomb points the evaluation credits per gold of an owned card. Buying power is what wins
the early game; greedy against random (2 players, 100 games) won 0.90 of them at 0.3, 0.91 at
0.5, 0.99 at 0.8 and 0.965 at 1.2."""


def card_worth(table: CardTable) -> tuple[float, ...]:
    """Per card kind, what owning one promises: ``GOLD_PROMISE`` x its gold and half its VP (none for set cards)."""
    return tuple(
        GOLD_PROMISE * table.gold[kind] + (0.0 if table.kind_type[kind] == SET else 0.5 * table.vp[kind])
        for kind in range(table.size)
    )


def tomb_breakdown(table: CardTable, tomb: list[int]) -> dict[str, int]:
    """Points of a tomb: starters and uniques their VP, each set the square of its different cards.

    Fast copy: `evaluate`, which scores every tomb at every leaf of a search.
    """
    starters = uniques = 0
    distinct: list[list[int]] = [[] for _ in table.set_names]
    for kind in tomb:
        kind_type = table.kind_type[kind]
        if kind_type == STARTER:
            starters += table.vp[kind]
        elif kind_type == UNIQUE:
            uniques += table.vp[kind]
        elif kind not in distinct[table.set_of[kind]]:
            distinct[table.set_of[kind]].append(kind)
    result = {"starters": starters, "uniques": uniques}
    for name, kinds in zip(table.set_names, distinct):
        result[name] = len(kinds) ** 2
    return result


def tomb_score(table: CardTable, tomb: list[int]) -> int:
    return sum(tomb_breakdown(table, tomb).values())


def sets_started(table: CardTable, tomb: list[int]) -> int:
    return len({table.set_of[k] for k in tomb if table.kind_type[k] == SET})


def rank_keys(state: ValleyState) -> list[Any]:
    """Tomb scores, with option ``tiebreak=sets`` paired with the sets begun."""
    table = state.rules.table
    if state.game.options["tiebreak"] == "sets":
        return [(tomb_score(table, tomb), sets_started(table, tomb)) for tomb in state.tombs]
    return [tomb_score(table, tomb) for tomb in state.tombs]


def tie_break(state: ValleyState, ahead: int, behind: int) -> str | None:
    """In words (the active language), why ``ahead`` ranks above ``behind`` with the same tomb score (only option
    ``tiebreak=sets`` says)."""
    table = state.rules.table
    if (state.game.options["tiebreak"] == "sets"
            and sets_started(table, state.tombs[ahead]) > sets_started(table, state.tombs[behind])):
        return tr("more different sets begun in the tomb")
    return None


def scores(state: ValleyState) -> list[dict[str, Any]]:
    result = []
    for tomb in state.tombs:
        breakdown = tomb_breakdown(state.rules.table, tomb)
        result.append({"total": sum(breakdown.values()), "breakdown": breakdown})
    return result


def evaluate(rules: Rules, tombs: list[list[int]], owned: list[list[int]], remaining: int) -> list[float]:
    """Tomb points plus, scaled by the share of the stock and pyramid left, what owned cards promise.

    ``owned`` counts per kind every seat's cards outside its tomb; ``remaining`` is the stock and pyramid
    cards left. An owned card promises a share of its gold (buying power) and of what it would add to
    the tomb (its VP, or the growth of its set's square).
    """
    set_of, vp, worth, ids = rules.set_of, rules.vp, rules.worth, rules.kind_ids
    sets = len(rules.table.set_names)
    left = remaining / max(1, rules.stock_total)
    values = []
    for seat in range(len(tombs)):
        counts = owned[seat]
        seen = set()
        distinct = [0] * sets
        score = 0
        for kind in tombs[seat]:  # fast copy of `tomb_breakdown`: the tomb's points, without the breakdown
            if set_of[kind] < 0:
                score += vp[kind]
            elif kind not in seen:
                seen.add(kind)
                distinct[set_of[kind]] += 1
        score += sum(map(mul, distinct, distinct))
        # GOLD_PROMISE x gold and half the VP of every owned card, plus half of what a new set card adds
        promise = 0.0
        for kind in compress(ids, counts):
            promise += counts[kind] * worth[kind]
            if set_of[kind] >= 0 and kind not in seen:
                promise += distinct[set_of[kind]] + 0.5
        values.append(score + left * promise)
    n = len(tombs)
    total = sum(values)
    return [math.tanh((v - (total - v) / (n - 1)) / 12.0) for v in values]


def score_heading(category: str) -> str:
    """The heading of a tomb-score category in the active language: starters, unique cards, or a set's name."""
    if category == "starters":
        return tr("Starters")
    if category == "uniques":
        return tr("Unique cards")
    name = tr.term("set", category)
    return name[:1].upper() + name[1:]
