"""Static rule helpers shared by the state and the renderers: action space, labels, payment arithmetic."""

from __future__ import annotations

from itertools import accumulate, permutations
from typing import Final, Sequence

from obelisk.core import ActionSpace
from obelisk.games.cleopatra.data import KINDS, RESOURCES, TAINTED0, TROMPE, Tables

STALLS: Final = 3
STALL_NAMES: Final = ("A", "B", "C")
PERMS: Final = tuple(permutations(range(STALLS)))
"""Refill assignments: draw j goes to stall ``PERMS[i][j]``."""
SOURCES: Final = ("card", "tainted", "trompe", "merchant")
"""How one unit of a resource is paid."""
CHARACTER_PLAYS: Final = ("beggars", "courtesans", "envoys", "scribes_pick", "scribes_die", "smugglers", "vizier")
MAX_SEATS: Final = 5
MAX_BID: Final = 400
"""Largest bid id; bids above it are not offered (no player comes near it)."""
VIZIER_DRAWS: Final = 5
PHASES: Final = ("setup", "turn", "refill", "build", "pay", "place", "tiles", "claim", "dice", "after", "limit",
          "limit_discard", "offering", "beggars", "courtesans", "envoy_offer", "envoy_accept", "vizier", "end")
"""Every value of a state's ``phase`` (the kind of decision pending)."""
NUM_KINDS: Final = len(KINDS)


def make_actions(tables: Tables) -> ActionSpace:
    """The action-id layout; ranges sized from the data (walls, doors, tiles, placements, garden cells)."""
    playable = bin(tables.playable_mask).count("1")
    return ActionSpace([
        ("take", STALLS),
        ("refill", len(PERMS)),
        ("wall", len(tables.wall_ids)),
        ("sphinx", 1),
        ("pedestal", 1),
        ("throne", 1),
        ("obelisk", 1),
        ("door", len(tables.door_ids)),
        ("mosaic", len(tables.tile_ids)),
        ("place", max(len(p) for p in tables.placements)),
        ("pay", len(RESOURCES) * len(SOURCES)),
        ("finish", 1),
        ("claim", max(1, playable)),
        ("no_claim", 1),
        ("play", len(CHARACTER_PLAYS)),
        ("courtesan", NUM_KINDS),
        ("give_talents", 1),
        ("give_card", len(RESOURCES)),
        ("offer", len(RESOURCES)),
        ("offer_done", 1),
        ("accept", MAX_SEATS * len(RESOURCES)),
        ("accept_done", 1),
        ("keep", 1),
        ("reject", 1),
        ("bid", MAX_BID + 1),
        ("end_turn", 1),
        ("limit_discard", 1),
        ("limit_keep", 1),
        ("discard", NUM_KINDS),
        ("pass", 1),
    ])


def shortfall(tables: Tables, need: Sequence[int], credit: Sequence[int], hand: Sequence[int]) -> tuple[int, int]:
    """Units of ``need`` left open by ``credit`` and the hand's cards of each resource: (all, artisans)."""
    missing = 0
    artisans = 0
    units = tables.units
    for r in range(5):
        lack = need[r] - credit[r] - hand[r] * units[r] - hand[TAINTED0 + r] * units[TAINTED0 + r]
        if lack > 0:
            missing += lack
            if r == 0:
                artisans = lack
    return missing, artisans


def affordable(tables: Tables, need: list[int], credit: list[int], hand: list[int], merchants: int,
            merchant_artisan: bool) -> bool:
    """Whether ``need`` can be paid from ``credit``, the hand and the merchants.

    Standard and tainted cards of a resource pay only that resource, so they
    are used first; what is left must be covered by single-unit wild cards
    (Trompe-l'oeil, then Nile merchants, which may not pay artisans when
    ``merchant_artisan`` is off).
    """
    missing, artisan_missing = shortfall(tables, need, credit, hand)
    trompe = hand[TROMPE]
    if missing > trompe + merchants:
        return False
    return merchant_artisan or artisan_missing <= trompe


def completable(tables: Tables, need: list[int], credit: list[int], hand: list[int], merchants: int,
                merchant_artisan: bool, pool: list[int], budget: int) -> bool:
    """Whether ``hand`` plus at most ``budget`` cards of ``pool`` can pay ``need`` (see ``affordable``).

    A card of a resource closes up to its units of what is open in that
    resource; a Trompe-l'oeil closes one unit of anything. Within a resource
    the cards' gains only shrink (largest cards first), so for the resources
    other than artisans the best ``k`` cards are the ``k`` largest gains
    overall; artisan cards and Trompe-l'oeil, which alone satisfy the
    artisan rule, are tried in every number.
    """
    units = tables.units
    lack = [max(0, need[r] - credit[r] - hand[r] * units[r] - hand[TAINTED0 + r] * units[TAINTED0 + r])
            for r in range(5)]
    trompe = hand[TROMPE]
    excess = sum(lack) - trompe - merchants
    artisan_excess = -1 if merchant_artisan else lack[0] - trompe
    if excess <= 0 and artisan_excess <= 0:
        return True
    gains = []
    for r in range(5):
        left = lack[r]
        found = []
        for size in sorted([units[r]] * pool[r] + [units[TAINTED0 + r]] * pool[TAINTED0 + r], reverse=True):
            if left <= 0:
                break
            found.append(min(size, left))
            left -= found[-1]
        gains.append(found)
    artisan_sums = list(accumulate(gains[0], initial=0))
    other_sums = list(accumulate(sorted((g for found in gains[1:] for g in found), reverse=True), initial=0))
    for a in range(min(budget, len(gains[0])) + 1):
        for t in range(min(budget - a, pool[TROMPE]) + 1):
            k = min(budget - a - t, len(other_sums) - 1)
            if artisan_sums[a] + t + other_sums[k] >= excess and artisan_sums[a] + t >= artisan_excess:
                return True
    return False


def draw_outcomes(deck: list[int], face_up: int) -> list[tuple[int, float]]:
    """Chance outcomes of a deck draw, ``face * 17 + kind``.

    Every card is equally likely and comes face up with chance
    ``face_up / size``. Built in one loop per face with no intermediate
    lists: a deck draw is about a third of all steps of a game.
    """
    size = sum(deck)
    square = size * size
    result: list[tuple[int, float]] = []
    if face_up < size:
        down = (size - face_up) / square
        for kind, count in enumerate(deck):
            if count:
                result.append((kind, count * down))
    if face_up:
        up = face_up / square
        for outcome, count in enumerate(deck, NUM_KINDS):
            if count:
                result.append((outcome, count * up))
    return result


def cost_text(cost: tuple[int, ...] | list[int]) -> str:
    return ", ".join(f"{n} {RESOURCES[r]}" for r, n in enumerate(cost) if n) or "nothing"
