"""End-of-game scoring of King Solomon's Treasury.

Each player scores coins + treasure values, 10 per complete set of the four
scroll symbols, and two majority bonuses: the highest curse-value total gets
24 and the second 12; the most unused magic items gets 16 and the second 8.
Ties for first add first + second prize and split it (2 tied: 18/18 and
12/12; 3 tied: 12 each and 8 each) and nobody takes second. A clear first
takes the full first prize and a tie for second splits the second prize.
The half rule: a second prize is paid only if second place has at least half
of first place's measure (29 vs 13 fails, 29 vs 15 passes); a failed second
prize does not pass on to third. Shares are rounded down; a measure of 0
never earns a bonus.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Sequence

from obelisk.core import i18n
from obelisk.games.solomon.data import (
    AMULET,
    CURSE_KINDS,
    CURSE_VALUE,
    MAGIC_KIND_IDS,
    SCROLL_KINDS,
    TREASURE_KINDS,
    TREASURE_VALUE,
)

if TYPE_CHECKING:
    from obelisk.games.solomon.state import SolomonState

SCROLL_SET_BONUS = 10
CURSE_PRIZES = (24, 12)
MAGIC_PRIZES = (16, 8)

tr = i18n.domain("solomon")


def score_heading(category: str) -> str:
    """The heading of a scoring category (a key of ``score_table``'s rows) in the active language; "" for
    any other key."""
    if category == "coins":
        return tr("Coins")
    if category == "treasures":
        return tr("Treasures")
    if category == "scrolls":
        return tr("Scrolls")
    if category == "curses":
        return tr("Curses")
    if category == "magic":
        return tr("Magic")
    return ""


def majority_bonus(measures: Sequence[int], first: int, second: int) -> list[int]:
    """The bonus of each player for one majority (curse value or magic-item count)."""
    bonus = [0] * len(measures)
    levels = sorted({m for m in measures if m > 0}, reverse=True)
    if not levels:
        return bonus
    top = levels[0]
    leaders = [i for i, m in enumerate(measures) if m == top]
    if len(leaders) > 1:
        for i in leaders:
            bonus[i] = (first + second) // len(leaders)
        return bonus
    bonus[leaders[0]] = first
    if len(levels) > 1 and 2 * levels[1] >= top:
        runners = [i for i, m in enumerate(measures) if m == levels[1]]
        for i in runners:
            bonus[i] = second // len(runners)
    return bonus


def curse_total(tiles: Sequence[int]) -> int:
    return sum(tiles[k] * CURSE_VALUE[k] for k in CURSE_KINDS)


def magic_count(tiles: Sequence[int]) -> int:
    return sum(tiles[k] for k in MAGIC_KIND_IDS)


def treasure_total(tiles: Sequence[int]) -> int:
    return sum(tiles[k] * TREASURE_VALUE[k] for k in TREASURE_KINDS)


def scroll_sets(tiles: Sequence[int]) -> int:
    return min(tiles[k] for k in SCROLL_KINDS)


def score_table(coins: Sequence[int], tiles: Sequence[Sequence[int]]) -> list[dict[str, int]]:
    """Per player: coins, treasures, scrolls, curses (bonus), magic (bonus) and total."""
    curses = majority_bonus([curse_total(t) for t in tiles], *CURSE_PRIZES)
    magic = majority_bonus([magic_count(t) for t in tiles], *MAGIC_PRIZES)
    rows = []
    for seat, held in enumerate(tiles):
        row = {
            "coins": coins[seat],
            "treasures": treasure_total(held),
            "scrolls": SCROLL_SET_BONUS * scroll_sets(held),
            "curses": curses[seat],
            "magic": magic[seat],
        }
        row["total"] = sum(row.values())
        rows.append(row)
    return rows


def scores(coins: Sequence[int], tiles: Sequence[Sequence[int]]) -> list[dict[str, Any]]:
    """Per player: the total and its breakdown (the parts of ``score_table``)."""
    return [
        {"total": row["total"], "breakdown": {k: v for k, v in row.items() if k != "total"}}
        for row in score_table(coins, tiles)
    ]


def rank_keys(coins: Sequence[int], tiles: Sequence[Sequence[int]], tiebreak: str) -> list[Any]:
    """What ranks the players: the total, then (option ``tiebreak='coins'``) the coins."""
    rows = score_table(coins, tiles)
    if tiebreak == "coins":
        return [(row["total"], coins[seat]) for seat, row in enumerate(rows)]
    return [row["total"] for row in rows]


def tie_break(state: SolomonState, ahead: int, behind: int) -> str | None:
    """In words, why ``ahead`` ranks above ``behind`` with the same total (only option ``tiebreak='coins'`` says)."""
    if state.game.options["tiebreak"] == "coins" and state.coins[ahead] > state.coins[behind]:
        return tr("more coins left")
    return None


TILE_WORTH = 3.0
"""What the evaluation counts a tile as worth to its holder beyond its treasure value: about a scroll toward a
set or a share of a majority."""


def penalty_loss(held: Sequence[int], dug: Sequence[int], opponents: int) -> float:
    """What the penalty takes from a seat that cannot pay (an estimate for ``evaluate``).

    The dug tiles go to the opponents (their treasure values and ``TILE_WORTH``
    each), and each opponent who gets no dug tile gets one of the seat's own
    tiles while it has any (``TILE_WORTH`` each: the seat gives its cheapest).
    """
    lost = sum(TREASURE_VALUE[k] + TILE_WORTH for k in dug)
    gifts = min(max(0, opponents - len(dug)), sum(held) - len(dug))
    return lost + TILE_WORTH * gifts


def evaluate(
    coins: list[int],
    tiles: list[list[int]],
    phase: str,
    order: list[int],
    turn: int,
    moves: int,
    owed: int,
    items: list[int],
    dug: list[int],
) -> list[float]:
    """Points now, plus progress toward scroll sets, minus what the active turn would cost if it ended now.

    Majority bonuses are credited as they stand now. The active seat is
    charged its running bill (1 per move, the dug curses) when its coins
    and treasures, this turn's included, cover it; otherwise ending the
    turn brings the penalty (*Nedovolené tahy*), so it is charged the dug
    tiles it would lose and the own tiles it would give to the opponents
    left without a dug tile. Moves are paid only at the end of the turn, so
    a seat may run up more moves than it holds money before a dig whose
    treasures pay for them; the charge is what ending the turn at this point
    would cost, never a move count alone. The value is a squashed lead over
    the best opponent. It takes the position's fields of these names one
    by one, typed, for the compiled loop.
    """
    curses = []
    magic = []
    values = []
    for seat, held in enumerate(tiles):
        # The fixed kind order of data.py: treasures 1-5, curses 1-3, scrolls A-D, four items.
        t1, t2, t3, t4, t5, c1, c2, c3, sa, sb, sc, sd, m1, m2, m3, m4 = held
        sets = min(sa, sb, sc, sd)
        partial = (sa > sets) + (sb > sets) + (sc > sets) + (sd > sets)
        held_items = m1 + m2 + m3 + m4
        curses.append(c1 + 2 * c2 + 3 * c3)
        magic.append(held_items)
        values.append(
            coins[seat] + t1 + 2 * t2 + 3 * t3 + 4 * t4 + 5 * t5
            + SCROLL_SET_BONUS * sets + 2.0 * partial + 0.5 * held_items
        )
    for seat, bonus in enumerate(majority_bonus(curses, *CURSE_PRIZES)):
        values[seat] += bonus
    for seat, bonus in enumerate(majority_bonus(magic, *MAGIC_PRIZES)):
        values[seat] += bonus
    if phase in ("turn", "pay") and order:
        seat = order[turn]
        if phase == "pay":
            cost = owed
        else:
            cost = moves + (0 if items[AMULET] or not dug else sum(CURSE_VALUE[k] for k in dug))
        if cost > coins[seat] + treasure_total(tiles[seat]):
            values[seat] -= penalty_loss(tiles[seat], dug, len(tiles) - 1)
        else:
            values[seat] -= cost
    ranked = sorted(values, reverse=True)
    first, second = ranked[0], ranked[1]
    return [math.tanh((value - (second if value == first else first)) / 20.0) for value in values]
