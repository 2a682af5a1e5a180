"""The action space of Secret of the Ancient Tomb (stable ids) and the chance outcome ids.

A turn is broken into small decisions: pick an archaeologist (or bring a new
one in at an entrance), then one step at a time, with item uses as separate
actions at the moments the rules allow them. Follow-up choices (orienting a
revealed tile, placing the curse, taking from the chest, robbing) are their
own ranges. Chance outcomes: ids 0..5 are die rolls 1..6, id ``6 + k`` draws
tile kind ``k`` from the face-down pool.
"""

from __future__ import annotations

from obelisk.core import ActionSpace

from obelisk.games.tomb.data import CELLS, ITEM_IDS

SPACE = ActionSpace(
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
    ]
)

A_SELECT = SPACE.start("select")
A_ENTER = SPACE.start("enter")
A_PASS = SPACE.start("pass")
A_STEP = SPACE.start("step")
A_STEP_IN = SPACE.start("step_in")
A_PASSAGE = SPACE.start("passage")
A_FLASK = SPACE.start("flask")
A_END = SPACE.start("end")
A_FOOD = SPACE.start("food")
A_WATER = SPACE.start("water")
A_CHOCOLATE = SPACE.start("chocolate")
A_TORCH = SPACE.start("torch")
A_SCARF = SPACE.start("scarf")
A_PAPYRUS = SPACE.start("papyrus")
A_PLAN = SPACE.start("plan")
A_BUY = SPACE.start("buy")
A_KEY = SPACE.start("key")
A_ORIENT = SPACE.start("orient")
A_CURSE = SPACE.start("curse")
A_CHEST = SPACE.start("chest")
A_MAP = SPACE.start("map")
A_LOOK = SPACE.start("look")
A_SWAP = SPACE.start("swap")
A_ROB = SPACE.start("rob")

DIE_FACES = 6
TILE_OFFSET = DIE_FACES
"""Chance id of tile kind ``k`` is ``TILE_OFFSET + k``."""
