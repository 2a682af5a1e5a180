"""The board of Secret of the Ancient Tomb and the codes of its components: fixed by the rules, never loaded.

Positions are cells ``row * 9 + col`` of the 9x9 grid, then the four corner
entrances; openings are bit masks N=1, E=2, S=4, W=8. The ``Kind`` and
``Tables`` records are built by :mod:`obelisk.games.tomb.data` from the data
file; they live here, beside the codes they use, so the compiled rules read
them as native objects.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

SIZE: Final = 9
CELLS: Final = 81
DIR_NAMES: Final[tuple[str, ...]] = ("north", "east", "south", "west")
DIR_LETTERS: Final = "NESW"
BIT: Final[tuple[int, ...]] = (1, 2, 4, 8)
OPP: Final[tuple[int, ...]] = (2, 3, 0, 1)
ENTRANCES: Final[tuple[str, ...]] = ("NW", "NE", "SW", "SE")
FIRST_ENTRANCE: Final = CELLS
"""Positions 81..84 are the four off-grid corner entrances NW, NE, SW, SE."""
CHAMBER_CELL: Final = 40
"""E5, the middle of the board (the data loader insists on it)."""

ITEM_IDS: Final[tuple[str, ...]] = (
    "food",
    "water",
    "chocolate",
    "torch",
    "scarf",
    "plan",
    "first_aid_kit",
    "money",
    "magic_flask",
    "golden_key",
    "papyrus_of_the_dead",
)
FOOD: Final = 0
WATER: Final = 1
CHOCOLATE: Final = 2
TORCH: Final = 3
SCARF: Final = 4
PLAN: Final = 5
FIRST_AID: Final = 6
MONEY: Final = 7
FLASK: Final = 8
KEY: Final = 9
PAPYRUS: Final = 10
MAGIC: Final[tuple[int, ...]] = (FLASK, KEY, PAPYRUS)

OBSTACLE_IDS: Final[tuple[str, ...]] = (
    "snake",
    "poison_gas",
    "trap",
    "hunger",
    "fatigue",
    "thirst",
    "collapsed_walls",
    "mysterious_doors",
    "bottomless_chasm",
)
GROUPS: Final[tuple[str, ...]] = ("kill", "end_turn", "cannot_enter")
KILL: Final = 0
END_TURN: Final = 1
CANNOT_ENTER: Final = 2

FEATURES: Final[tuple[str, ...]] = ("plain", "inscription", "item", "obstacle", "map", "secret_passage", "dark_shrine", "chest")
PLAIN: Final = 0
INSCRIPTION: Final = 1
ITEM: Final = 2
OBSTACLE: Final = 3
MAP: Final = 4
PASSAGE: Final = 5
SHRINE: Final = 6
CHEST: Final = 7
WALL: Final = 8
CHAMBER: Final = 9
"""Feature codes; WALL (outer-wall square) and CHAMBER are board squares, never in the tile list."""


SQUARE_NAMES: Final = tuple("ABCDEFGHI"[cell % SIZE] + str(cell // SIZE + 1) for cell in range(CELLS)) + tuple(
    f"{entrance} entrance" for entrance in ENTRANCES
)
"""Per position (cells, then the entrances): ``A1`` is the north-west corner; letters are columns west to east,
numbers rows north to south. Built once because the event log names squares at almost every move."""


def square_name(cell: int) -> str:
    """The name of a cell or entrance (see ``SQUARE_NAMES``)."""
    return SQUARE_NAMES[cell]


def parse_square(text: Any) -> int | None:
    """The cell of a square name such as ``E5``, or None if it is not one."""
    if not isinstance(text, str) or len(text) != 2:
        return None
    col = "ABCDEFGHI".find(text[0].upper())
    if col < 0 or not text[1].isdigit() or not 1 <= int(text[1]) <= SIZE:
        return None
    return (int(text[1]) - 1) * SIZE + col


def mask_of(letters: str) -> int:
    return sum(BIT[DIR_LETTERS.index(ch)] for ch in letters)


OPENING_LETTERS: Final = tuple(",".join(DIR_LETTERS[d] for d in range(4) if mask & BIT[d]) for mask in range(16))
"""Per openings mask: its letters such as ``N,E`` (built once: the log and the labels name openings often)."""


def letters_of(mask: int) -> str:
    return OPENING_LETTERS[mask]


def rotate(mask: int) -> int:
    """Quarter turn clockwise: N→E→S→W→N."""
    return ((mask << 1) | (mask >> 3)) & 15


def rotations(mask: int) -> tuple[int, ...]:
    """The distinct orientations of a tile, ascending."""
    seen = {mask}
    m = mask
    for _ in range(3):
        m = rotate(m)
        seen.add(m)
    return tuple(sorted(seen))


def _neighbours() -> tuple[tuple[int, ...], ...]:
    table = []
    for cell in range(CELLS):
        r, c = divmod(cell, SIZE)
        row = []
        for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
            rr, cc = r + dr, c + dc
            row.append(rr * SIZE + cc if 0 <= rr < SIZE and 0 <= cc < SIZE else -1)
        table.append(tuple(row))
    return tuple(table)


NEIGH: Final = _neighbours()
"""``NEIGH[cell][d]``: the orthogonal neighbour in direction d, or -1 off the board."""


@dataclass(frozen=True)
class Kind:
    """One kind of face-down tile (tiles with equal shape and feature are interchangeable)."""

    shape: str
    mask: int
    feature: int
    detail: int
    """Colour, item or obstacle index for inscription/item/obstacle tiles, else -1."""
    code: str
    name: str
    rotations: tuple[int, ...]
    tile_ids: tuple[str, ...]


@dataclass(frozen=True)
class Tables:
    """Everything static about one configured game."""

    big: bool
    kinds: tuple[Kind, ...]
    """Tile kinds in play, then the outer-wall square kind and the chamber kind."""
    pool: tuple[int, ...]
    """Initial face-down count per tile kind (the first ``len(pool)`` kinds)."""
    wall_kind: int
    chamber_kind: int
    chamber: int
    start_kind: tuple[int, ...]
    """Per cell: -1 for a face-down tile at setup, else the kind of the printed square."""
    start_open: tuple[int, ...]
    corners: tuple[int, ...]
    outer: tuple[int, ...]
    """Per entrance: the outer edges of its corner (big pyramid: a revealed corner must open there)."""
    colours: tuple[str, ...]
    needed: int
    items_in_play: int
    """Bit mask of the item kinds in play."""
    items_per_kind: int
    item_names: tuple[str, ...]
    item_codes: tuple[str, ...]
    buyable: int
    obstacle_names: tuple[str, ...]
    obstacle_codes: tuple[str, ...]
    obstacle_group: tuple[int, ...]
    obstacle_protection: tuple[int, ...]
    blocker: tuple[int, ...]
    """Per kind: the protecting item of a cannot-enter obstacle, else -1."""
    features: tuple[int, ...]
    """Per kind: its feature code, as a flat tuple for the movement rules' inner loops."""
    hazard: tuple[int, ...]
    """Per kind: the protecting item of a kill or cannot-enter obstacle (the evaluation routes round those), else -1."""
    provenance: dict
