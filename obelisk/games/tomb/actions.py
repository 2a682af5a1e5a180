"""The action space of Secret of the Ancient Tomb (stable ids) and the chance outcome ids.

A turn is broken into small decisions: pick an archaeologist (or bring a new
one in at an entrance), then one step at a time, with item uses as separate
actions at the moments the rules allow them. Follow-up choices (orienting a
revealed tile, placing the curse, taking from the chest or a tile, robbing)
are their own ranges; the optional ones (taking an item from a tile, using a
flipped map, robbing) can be declined with ``decline``. Chance outcomes: ids
0..5 are die rolls 1..6, id ``6 + k`` draws tile kind ``k`` from the
face-down pool.
"""

from __future__ import annotations

from typing import Final

from obelisk.core import ActionSpace

from obelisk.games.tomb.board import CELLS, ITEM_IDS

SPACE: Final = ActionSpace(
    [
        ("select", CELLS + 4),
        ("enter", 4),
        ("pass", 1),
        ("step", 4),
        ("step_in", 1),
        ("passage", CELLS),
        ("flask", 4),
        ("end", 1),
        ("food", 1),
        ("water", 1),
        ("chocolate", 5),
        ("torch", 1),
        ("scarf", 1),
        ("papyrus", 1),
        ("plan", 1),
        ("buy", len(ITEM_IDS)),
        ("key", CELLS),
        ("orient", 16),
        ("curse", CELLS),
        ("chest", len(ITEM_IDS)),
        ("map", CELLS),
        ("look", CELLS),
        ("swap", 2),
        ("rob", len(ITEM_IDS)),
        ("take", 1),
        ("decline", 1),
    ]
)

A_SELECT: Final = SPACE.start("select")
A_ENTER: Final = SPACE.start("enter")
A_PASS: Final = SPACE.start("pass")
A_STEP: Final = SPACE.start("step")
A_STEP_IN: Final = SPACE.start("step_in")
A_PASSAGE: Final = SPACE.start("passage")
A_FLASK: Final = SPACE.start("flask")
A_END: Final = SPACE.start("end")
A_FOOD: Final = SPACE.start("food")
A_WATER: Final = SPACE.start("water")
A_CHOCOLATE: Final = SPACE.start("chocolate")
A_TORCH: Final = SPACE.start("torch")
A_SCARF: Final = SPACE.start("scarf")
A_PAPYRUS: Final = SPACE.start("papyrus")
A_PLAN: Final = SPACE.start("plan")
A_BUY: Final = SPACE.start("buy")
A_KEY: Final = SPACE.start("key")
A_ORIENT: Final = SPACE.start("orient")
A_CURSE: Final = SPACE.start("curse")
A_CHEST: Final = SPACE.start("chest")
A_MAP: Final = SPACE.start("map")
A_LOOK: Final = SPACE.start("look")
A_SWAP: Final = SPACE.start("swap")
A_ROB: Final = SPACE.start("rob")
A_TAKE: Final = SPACE.start("take")
A_DECLINE: Final = SPACE.start("decline")

DIE_FACES: Final = 6
TILE_OFFSET: Final = DIE_FACES
"""Chance id of tile kind ``k`` is ``TILE_OFFSET + k``."""
