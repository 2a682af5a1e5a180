"""The rulebook's constants, and the option values and card tables a Solomon position reads on every step,
typed for the compiled state."""

from __future__ import annotations

from typing import Any, Final, Mapping

import obelisk.games.solomon.data as d
from obelisk.core import ActionSpace

ROUNDS: Final = {2: 12, 3: 8, 4: 6, 5: 5}
"""Cards dealt per player = number of rounds."""
LOG_LINES: Final = 16
"""Lines of the recent log a view shows."""
TOTAL_COINS: Final = 40
"""Gold coins in the box."""
START_COINS: Final = {2: 10, 3: 10, 4: 10, 5: 8}
"""Coins each player starts with, by player count."""
PHASES: Final = ("choose", "turn", "pay", "give", "end")
"""A round's phases: secret card choices, then per turn the tile moves and the dig, the payment, the gifts of a
player who could not pay; ``end`` once the last round is over."""


class Draws:
    """Every outcome a draw from a pool that starts as ``counts`` can have, made once per pool and shared.

    ``outcomes[kind * per_kind + count * per_count + total]`` is the chance outcome
    ``(kind, count / total)`` while the pool holds ``total`` tiles, ``count`` of them of
    ``kind`` (``None`` where no pool can be so). Over a game a pool's draws hand out
    these tuples instead of building ``len(pool)`` new ones each (a draw is about half
    of all of a game's steps). They are made in the order of that index, so the
    outcomes of one kind and count lie side by side in memory: successive draws,
    whose totals differ by one, read neighbouring memory rather than missing the cache.
    """

    def __init__(self, counts: tuple[int, ...]) -> None:
        size = sum(counts)
        largest = max(counts, default=0)
        self.per_count: int = size + 1
        self.per_kind: int = (largest + 1) * self.per_count
        # One float per probability, shared by the outcomes of all kinds: fewer objects for a draw to read.
        shares = [count / total if 0 < count <= total else 0.0 for count in range(largest + 1) for total in range(size + 1)]
        self.outcomes: tuple[object, ...] = tuple(
            (kind, shares[count * self.per_count + total]) if 0 < count <= min(most, total) else None
            for kind, most in enumerate(counts)
            for count in range(largest + 1)
            for total in range(size + 1)
        )


_DRAWS: Final[dict[tuple[int, ...], Draws]] = {}


def draws_from(counts: tuple[int, ...]) -> Draws:
    """The shared ``Draws`` of a pool that starts as ``counts``."""
    table = _DRAWS.get(counts)
    if table is None:
        table = Draws(counts)
        _DRAWS[counts] = table
    return table


class Rules:
    """One game's rules as plain typed fields: built once from its data and options, shared by all its states.

    The card fields are indexed like ``tables.cards``; ``card_fits[c][o]`` is
    ``Card.fits[o]`` of card ``c`` (the anchors of its placements and the
    offsets of its squares), read by the dig search on every decision.
    """

    def __init__(self, tables: d.Tables, options: Mapping[str, Any], num_players: int, actions: ActionSpace) -> None:
        self.tables = tables
        self.actions = actions
        self.num_actions: int = actions.size
        # Every action id as one shared object: a legal list built from them allocates no number (Python
        # caches only the ints up to 256).
        self.action_ids: tuple[Any, ...] = tuple(range(actions.size))
        self.uphill: bool = bool(options["uphill"])
        self.forbid_unaffordable: bool = options["unaffordable"] == "forbid"
        # The most moves one turn can hold: the fixed cap, or else all the money in the game (ruling 15). A
        # turn's bill is paid with coins and treasures and no player can hold more than all of them, so a
        # further move could never be paid: this cap refuses no turn anyone could pay for, yet keeps every
        # game finite (a tile could otherwise shuttle between two stacks forever).
        treasure_values = sum(d.TREASURE_VALUE[k] * (tables.gold[k] + tables.dark[k]) for k in d.TREASURE_KINDS)
        self.move_limit: int = int(options["move_limit"]) or TOTAL_COINS + treasure_values
        self.change_unlimited: bool = options["change"] == "unlimited"
        self.orientation_limit: int = d.ORIENTATIONS if options["mirror_reflect"] else 4
        self.rounds: int = ROUNDS[num_players]
        self.cards_to_deal: int = num_players * self.rounds
        cards = tables.cards
        self.card_numbers: tuple[int, ...] = tuple(card.number for card in cards)
        self.card_sizes: tuple[int, ...] = tuple(card.size for card in cards)
        self.card_orientations: tuple[tuple[int, ...], ...] = tuple(card.orientations for card in cards)
        self.card_fits: tuple[tuple[tuple[int, tuple[int, ...]], ...], ...] = tuple(card.fits for card in cards)
        self.gold_draws: Draws = draws_from(tables.gold)
        self.dark_draws: Draws = draws_from(tables.dark)
        self.card_draws: Draws = draws_from((1,) * len(cards))
