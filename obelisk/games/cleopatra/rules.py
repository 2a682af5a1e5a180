"""Constants named after the rulebook, the typed ``Rules`` a position reads on every step, and pure rule helpers
(payment arithmetic, deck-draw chances)."""

from __future__ import annotations

from itertools import accumulate, permutations
from typing import Any, Callable, Final, Mapping

from obelisk.core import ActionSpace
from obelisk.games.cleopatra.data import BEGGARS, CATEGORIES, KINDS, TAINTED0, TROMPE, Placement, Tables

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
ROUND_CAP: Final = 200
"""Rounds after which a game without ``max_rounds`` ends anyway (normal scoring), so that
``max_game_length`` is finite; the rulebook has no round limit and real games end near round 30."""
PHASES: Final = ("setup", "turn", "refill", "build", "pay", "place", "tiles", "claim", "dice", "after", "limit",
          "limit_discard", "offering", "beggars", "courtesans", "envoy_offer", "envoy_accept", "vizier", "end")
"""Every value of a state's ``phase`` (the kind of decision pending)."""
NUM_KINDS: Final = len(KINDS)

# Chance queue items are ``(event, payload)`` pairs of ints: the event is one of these codes, the payload the seat
# dealt to (``Q_HAND``), the stall filled (``Q_STALL``) or 0.
Q_HAND: Final = 0
"""A card dealt face-down to the seat in the payload."""
Q_STALL: Final = 1
"""A card drawn onto the stall in the payload."""
Q_PENDING: Final = 2
"""A card drawn to ``pending`` (a refill or a Vizier draw)."""
Q_ORIENT: Final = 3
"""Turn half the deck face-up (no outcome: settled by itself)."""
Q_TILE: Final = 4
"""The top of the mosaic stack."""
Q_DICE: Final = 5
"""The High Priest dice."""
QUEUE_NAMES: Final = ("hand", "stall", "pending", "orient", "tile", "dice")
"""The text of each event code in the rendered position (``hand:1``, ``stall:0``, ``tile``)."""


def queue_text(item: tuple[int, int]) -> str:
    """One queue item as the rendered position writes it: the event, then ``:payload`` for a hand or a stall."""
    event, payload = item
    if event == Q_HAND or event == Q_STALL:
        return f"{QUEUE_NAMES[event]}:{payload}"
    return QUEUE_NAMES[event]


class Rules:
    """The tables and option values a position reads on every step, typed for the compiled state.

    Built once per game from its component data and options; shared by all
    its states (never copied into one).
    """

    def __init__(self, tables: Tables, options: Mapping[str, Any], actions: ActionSpace,
                 dispatch: list[tuple[Callable[[Any, int], None], int]],
                 dice_outcomes: list[tuple[tuple[int, float], ...]]) -> None:
        self.tables = tables
        self.actions = actions
        base = {name: actions.start(name) for name, _ in actions.ranges}
        # The starts the legal-action generators read on every step, as typed attributes.
        self.take: int = base["take"]
        self.refill: int = base["refill"]
        self.wall: int = base["wall"]
        self.sphinx: int = base["sphinx"]
        self.pedestal: int = base["pedestal"]
        self.throne: int = base["throne"]
        self.obelisk: int = base["obelisk"]
        self.door: int = base["door"]
        self.mosaic: int = base["mosaic"]
        self.place: int = base["place"]
        self.pay: int = base["pay"]
        self.finish: int = base["finish"]
        self.play: int = base["play"]
        self.end_turn: int = base["end_turn"]
        self.limit_discard: int = base["limit_discard"]
        self.limit_keep: int = base["limit_keep"]
        self.discard: int = base["discard"]
        self.pass_turn: int = base["pass"]
        self.claim: int = base["claim"]
        self.no_claim: int = base["no_claim"]
        self.courtesan: int = base["courtesan"]
        self.give_talents: int = base["give_talents"]
        self.give_card: int = base["give_card"]
        self.offer: int = base["offer"]
        self.offer_done: int = base["offer_done"]
        self.accept: int = base["accept"]
        self.accept_done: int = base["accept_done"]
        self.keep: int = base["keep"]
        self.reject: int = base["reject"]
        self.bid: int = base["bid"]
        self.sphinxes: int = tables.pieces["sphinxes"]
        self.obelisks: int = tables.pieces["obelisks"]
        self.dispatch = dispatch
        """Per action id: the state's ``_do_<range>`` method and the index within the range."""
        self.dice_outcomes = dice_outcomes
        """Per number of dice on the altar: the chances of each number of priest symbols rolled."""
        self.merchant_artisan: bool = options["merchant_artisan"]
        self.bonus_four_plus: int = options["bonus_four_plus"]
        self.anubis_talents: int = options["anubis_talents"]
        self.max_rounds: int = options["max_rounds"] or ROUND_CAP
        """The round after which the game ends: the option, else the technical cap."""
        self.max_plays: int = sum(tables.copies[BEGGARS:])
        """Character cards one turn may play: as many as the deck holds (more only by taking a played
        card back with the Courtesans over and over), so that a turn, and ``max_game_length``, is finite."""
        self.offering_ties: str = options["offering_ties"]
        self.crocodile_ties: str = options["crocodile_ties"]
        self.units: tuple[int, ...] = tables.units
        self.amulets: tuple[int, ...] = tables.amulets
        self.hand_limit: int = tables.kit["hand_limit"]
        self.playable_mask: int = tables.playable_mask
        self.empty_garden: list[int] = [-1 if tables.playable_mask >> c & 1 else -2
                                        for c in range(tables.rows * tables.cols)]
        """A state's ``garden`` at the start: -1 for a playable cell, -2 for a blocked one."""
        self.cols: int = tables.cols
        cols = tables.cols
        cells = tables.rows * cols
        # A garden mask is cut in two halves that each fit a machine int: on one mask of the 81 cells every
        # shift and AND builds a new big int. The low half holds the cells below ``split``; shifting it up by
        # a row still fits.
        self.split: int = 61 - cols
        self.low_half: int = (1 << self.split) - 1
        not_left = sum(1 << c for c in range(cells) if c % cols != 0)
        not_right = sum(1 << c for c in range(cells) if c % cols != cols - 1)
        self.not_left_low: int = not_left & self.low_half
        self.not_left_high: int = not_left >> self.split
        self.not_right_low: int = not_right & self.low_half
        self.not_right_high: int = not_right >> self.split
        self.wall_cells: list[tuple[int, ...]] = [tuple(c for c in range(cells) if mask >> c & 1)
                                                  for mask in tables.wall_masks]
        self.cost_rows: list[tuple[int, ...]] = [tables.costs[c] for c in CATEGORIES]
        largest = [max(row[r] for row in self.cost_rows) for r in range(5)]
        self.affordable_caps: tuple[int, ...] = (*largest, largest[0], max(sum(row) for row in self.cost_rows))
        """Where more stops mattering to ``CleopatraState._affordable``: units of each resource (its largest
        cost), Trompe-l'oeil (the largest artisan cost) and all wild cards (the largest total cost)."""
        if max(self.affordable_caps) > 255:
            raise ValueError("cleopatra data: a piece costs more than 255 units")
        self.affordable_memo: dict[int, tuple[bool, ...]] = {}
        """``_affordable_categories`` per key of capped numbers, one byte each."""
        self.masks_low: list[tuple[int, ...]] = [tuple(p.mask & self.low_half for p in options)
                                                 for options in tables.placements]
        self.masks_high: list[tuple[int, ...]] = [tuple(p.mask >> self.split for p in options)
                                                  for options in tables.placements]
        """Per tile, per placement: the halves of the cells it covers."""
        self.placement_cells: list[tuple[tuple[int, ...], ...]] = [
            tuple(tuple(r * cols + c for r, c in p.cells) for p in options) for options in tables.placements]
        """Per tile, per placement: the garden indices of its cells."""
        mosaic = tables.rewards["mosaics"]
        self.placement_rewards: list[tuple[int, ...]] = [
            tuple(mosaic["base"] + mosaic["per_palm"] * bin(p.mask & tables.palm_mask).count("1") for p in options)
            for options in tables.placements]
        """Per tile, per placement: the talents it brings (a base and one per palm it covers)."""
        self.orientations: list[tuple[tuple[tuple[int, ...], int, int], ...]] = [
            tuple((offsets, corners & self.low_half, corners >> self.split)
                  for offsets, corners in _orientation_corners(options, cols))
            for options in tables.placements]
        """Per tile: its shapes, as cell offsets from the top-left corner and the halves of the mask of the corners
        where the shape lies on the garden."""


def _orientation_corners(placements: tuple[Placement, ...], cols: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """A tile's placements grouped by shape: (cell offsets from the top-left corner, mask of those corners).

    Whether some placement lies within a set of cells is then a few shifts and
    ANDs per orientation (``CleopatraState._fits_in``) rather than one test
    per placement.
    """
    corners: dict[tuple[int, ...], int] = {}
    for placement in placements:
        top = min(r for r, _ in placement.cells)
        left = min(c for _, c in placement.cells)
        offsets = tuple(sorted((r - top) * cols + c - left for r, c in placement.cells))
        corners[offsets] = corners.get(offsets, 0) | 1 << (top * cols + left)
    return tuple(corners.items())


def shortfall(units: tuple[int, ...], need: list[int], credit: list[int], hand: list[int]) -> tuple[int, int]:
    """Units of ``need`` left open by ``credit`` and the hand's cards of each resource (of ``units`` each):
    (all, artisans)."""
    missing = 0
    artisans = 0
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

    Fast copy: `_affordable_categories` in ``state.py``, for every category at once on capped unit counts.
    """
    missing, artisan_missing = shortfall(tables.units, need, credit, hand)
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


def total(counts: list[int]) -> int:
    """The sum of the counts (``sum``, typed for the compiled build)."""
    result = 0
    for count in counts:
        result += count
    return result


def draw_outcomes(deck: list[int], face_up: int) -> list[tuple[int, float]]:
    """Chance outcomes of a deck draw, ``face * 17 + kind``.

    Every card is equally likely and comes face up with chance
    ``face_up / size``. Built in one loop per face with no intermediate
    lists: a deck draw is about a third of all steps of a game.
    """
    size = total(deck)
    square = size * size
    result: list[tuple[int, float]] = []
    if face_up < size:
        down = (size - face_up) / square
        for kind, count in enumerate(deck):
            if count:
                result.append((kind, count * down))
    if face_up:
        up = face_up / square
        for kind, count in enumerate(deck):
            if count:
                result.append((NUM_KINDS + kind, count * up))
    return result


def is_draw_outcome(deck: list[int], face_up: int, outcome: int) -> bool:
    """Whether ``outcome`` (``face * 17 + kind``) is among ``draw_outcomes(deck, face_up)``.

    A face-down card can be drawn once the deck holds more cards than are face
    up, which the first few kinds usually settle: the deck is not summed whole.
    """
    if not 0 <= outcome < 2 * NUM_KINDS or not deck[outcome % NUM_KINDS]:
        return False
    if outcome >= NUM_KINDS:
        return face_up > 0
    cards = 0
    for count in deck:
        cards += count
        if cards > face_up:
            return True
    return False
