"""The rulebook's constants of Secret of the Ancient Tomb and the typed ``Rules`` a position reads.

A turn passes through phases: roll (chance) → pick an archaeologist or bring
a new one in → steps and item uses → end of movement → ambush (robbery
decisions) → next player. Pending follow-ups (torch reveals, map, curse,
chest, an item on a tile) wait on a small task stack; a tile being revealed
remembers why (a step must open toward the mover).
"""

from __future__ import annotations

from typing import Final

from obelisk.games.tomb.board import Tables

FIGURES: Final = 3
"""Archaeologists per player."""
RESERVE: Final = -1
"""Figure position: off the board, may come in at an entrance."""
IN_CHAMBER: Final = -2
"""Figure position: its player has entered the burial chamber."""

ROLL: Final = 0
SELECT: Final = 1
MOVE: Final = 2
DRAW: Final = 3
ORIENT: Final = 4
CURSE: Final = 5
CHEST_TAKE: Final = 6
MAP_PICK: Final = 7
LOOK: Final = 8
PEEK: Final = 9
SWAP: Final = 10
TURN_KEY: Final = 11
ROB: Final = 12
TAKE: Final = 13
OVER: Final = 14
PHASE_NAMES: Final[tuple[str, ...]] = (
    "roll",
    "choose archaeologist",
    "move",
    "reveal",
    "orient tile",
    "place curse",
    "take from chest",
    "map",
    "plan: look",
    "plan: peek",
    "plan: swap?",
    "golden key",
    "rob",
    "take item",
    "over",
)

STEP: Final = 0
TORCH_REVEAL: Final = 1
MAP_REVEAL: Final = 2
GHOST_LAND: Final = 3
"""Why a tile is being revealed; STEP reveals must open toward the mover."""
T_REVEAL: Final = 0
T_MAP: Final = 1
T_CURSE: Final = 2
T_CHEST: Final = 3
T_TAKE: Final = 4
"""Pending follow-up tasks."""


class Rules:
    """One game's static tables and the option values its positions read on every step, as typed fields.

    Built once per game (``TombGame``) and shared by all its states.
    """

    def __init__(self, tables: Tables, adjacent_chamber: bool, max_rounds: int, entries_to_end: int) -> None:
        self.tables = tables
        self.adjacent_chamber = adjacent_chamber
        """``chamber_entry=adjacent``: the chamber is entered from any orthogonal neighbour."""
        self.max_rounds = max_rounds
        self.entries_to_end = entries_to_end
        """Chamber entries after which the game is over (option ``end``)."""
