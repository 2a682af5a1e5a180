"""Component data of King Solomon's Treasury: loading, validation and precomputed tables.

The data file (``solomon.json`` next to this module, or a user's file given
with the ``data`` option) holds the tile mix by back colour and the
excavation cards. Everything the rules need at speed is precomputed here
once per game: the 16 tile kinds, the 8-neighbourhood of every square, and
for every card and orientation the bitmask of each placement on the 6x6
cave, so a dig check is a couple of integer operations.

Board convention: square ``sq = row * 6 + col``; row 0 touches the cave
entrance (the north side). Squares are written column letter + row number,
``A1`` .. ``F6``, so row 1 is next to the entrance.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Iterator

from obelisk.core import i18n
from obelisk.core.codec import describe
from obelisk.core.datafiles import read_json, repeated_name
from obelisk.core.help import GameHelp, HelpEntry, Numbers

SIZE: Final = 6
SQUARES: Final = SIZE * SIZE
MAX_STACK: Final = 4
DARK_PER_SQUARE: Final = 3
DEFAULT_DATA = Path(__file__).with_name("solomon.json")
FORMAT = "obelisk-solomon-data"

tr = i18n.domain("solomon")

TREASURE_VALUES = (1, 2, 3, 4, 5)
CURSE_VALUES = (1, 2, 3)
SCROLL_SYMBOLS = ("A", "B", "C", "D")
MAGIC_KINDS = ("mirror", "pickaxe", "seal", "amulet")
MAGIC_NAMES = ("Mirror", "Pickaxe", "Seal", "Amulet")
MAGIC_FULL_NAMES = ("Mirror of the Queen of Sheba", "Magic Pickaxe", "Seal of Solomon", "Amulet of Samson's Hair")

# Tile kinds: fixed ids, the chance outcomes of every tile reveal.
TREASURE0: Final = 0
CURSE0: Final = TREASURE0 + len(TREASURE_VALUES)
SCROLL0: Final = CURSE0 + len(CURSE_VALUES)
MAGIC0: Final = SCROLL0 + len(SCROLL_SYMBOLS)
NUM_KINDS: Final = MAGIC0 + len(MAGIC_KINDS)
MIRROR: Final = 0
PICKAXE: Final = 1
SEAL: Final = 2
AMULET: Final = 3

KIND_NAMES: tuple[str, ...] = (
    tuple(f"treasure {v}" for v in TREASURE_VALUES)
    + tuple(f"curse {v}" for v in CURSE_VALUES)
    + tuple(f"scroll {s}" for s in SCROLL_SYMBOLS)
    + MAGIC_NAMES
)
KIND_SHORT: tuple[str, ...] = (
    tuple(f"T{v}" for v in TREASURE_VALUES)
    + tuple(f"C{v}" for v in CURSE_VALUES)
    + tuple(f"S{s}" for s in SCROLL_SYMBOLS)
    + ("Mi", "Pi", "Se", "Am")
)
TREASURE_VALUE: tuple[int, ...] = tuple(TREASURE_VALUES) + (0,) * (NUM_KINDS - len(TREASURE_VALUES))
CURSE_VALUE: tuple[int, ...] = (0,) * CURSE0 + tuple(CURSE_VALUES) + (0,) * (NUM_KINDS - SCROLL0)
TREASURE_KINDS = tuple(range(TREASURE0, CURSE0))
CURSE_KINDS = tuple(range(CURSE0, SCROLL0))
SCROLL_KINDS = tuple(range(SCROLL0, MAGIC0))
MAGIC_KIND_IDS = tuple(range(MAGIC0, NUM_KINDS))

_TYPE_KEYS: dict[str, tuple[str, ...]] = {
    "treasure": tuple(str(v) for v in TREASURE_VALUES),
    "curse": tuple(str(v) for v in CURSE_VALUES),
    "scroll": SCROLL_SYMBOLS,
    "magic": MAGIC_KINDS,
}
_TYPE_FIRST = {"treasure": TREASURE0, "curse": CURSE0, "scroll": SCROLL0, "magic": MAGIC0}
BACKS = {"gold": SQUARES, "dark": SQUARES * DARK_PER_SQUARE}
MIN_CARDS: Final = 25
MAX_CARDS: Final = 99

# Orientation o = rotation (0..3, clockwise quarter turns) + 4 * reflected.
ORIENTATIONS: Final = 8


def square_name(sq: int) -> str:
    """``A1`` .. ``F6``: column letter, then row number counted from the entrance."""
    return f"{'ABCDEF'[sq % SIZE]}{sq // SIZE + 1}"


def _neighbours(sq: int) -> tuple[int, ...]:
    r, c = divmod(sq, SIZE)
    out = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr or dc) and 0 <= r + dr < SIZE and 0 <= c + dc < SIZE:
                out.append((r + dr) * SIZE + c + dc)
    return tuple(out)


DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(sq) for sq in range(SQUARES))
MOVE_TARGET: tuple[int, ...] = tuple(
    (sq // SIZE + dr) * SIZE + sq % SIZE + dc
    if 0 <= sq // SIZE + dr < SIZE and 0 <= sq % SIZE + dc < SIZE
    else -1
    for sq in range(SQUARES)
    for dr, dc in DIRECTIONS
)
"""``MOVE_TARGET[sq * 8 + d]``: the square one step from ``sq`` in direction ``d``, or -1 off the board."""
MOVES_FROM: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((sq * 8 + k, MOVE_TARGET[sq * 8 + k]) for k in range(8) if MOVE_TARGET[sq * 8 + k] >= 0)
    for sq in range(SQUARES)
)
"""``MOVES_FROM[sq]``: ``(move index, target square)`` of every on-board step from ``sq``."""
NEIGHBOUR_MASK: tuple[int, ...] = tuple(sum(1 << n for n in NEIGHBOURS[sq]) for sq in range(SQUARES))
FULL_MASK: Final = (1 << SQUARES) - 1


def _move_sets(sq: int) -> dict[int, tuple[int, ...]]:
    """For every subset of ``sq``'s neighbours (as a square bitmask): the ascending move ids into that subset."""
    steps = MOVES_FROM[sq]
    table = {}
    for subset in range(1 << len(steps)):
        chosen = [(action, to) for i, (action, to) in enumerate(steps) if subset >> i & 1]
        table[sum(1 << to for _, to in chosen)] = tuple(action for action, _ in chosen)
    return table


MOVE_SETS: tuple[dict[int, tuple[int, ...]], ...] = tuple(_move_sets(sq) for sq in range(SQUARES))
"""``MOVE_SETS[sq][targets]``: the move ids from ``sq`` onto the squares of the bitmask ``targets``."""


def _transform(cells: tuple[tuple[int, int], ...], o: int) -> tuple[tuple[int, int], ...]:
    """Cells of a shape in orientation ``o``, normalized to a top-left corner of (0, 0)."""
    pts = [(r, -c) if o >= 4 else (r, c) for r, c in cells]
    for _ in range(o % 4):
        pts = [(c, -r) for r, c in pts]  # a clockwise quarter turn with rows growing downwards
    r0 = min(r for r, _ in pts)
    c0 = min(c for _, c in pts)
    return tuple(sorted((r - r0, c - c0) for r, c in pts))


@dataclass(frozen=True)
class Card:
    """An excavation card: its number (turn order), a name and the squares it digs."""

    number: int
    name: str
    cells: tuple[tuple[int, int], ...]
    orientations: tuple[int, ...]
    """Orientations whose covered shape differs from every lower orientation."""
    placements: tuple[tuple[tuple[int, int], ...], ...]
    """``placements[o]``: ``(anchor square, bitmask)`` for every placement fully on the board."""
    masks: tuple[tuple[int, ...], ...]
    """``masks[o][anchor]``: the bitmask of that placement, or 0 when it leaves the board or o is a duplicate."""
    fits: tuple[tuple[int, tuple[int, ...]], ...]
    """``fits[o]``: the bitmask of the anchors of ``placements[o]`` and the offsets of the covered squares
    from the anchor, so the anchors whose squares all lie in a square set ``m`` are
    ``anchors & (m >> off1) & (m >> off2) ...`` (one integer operation per cell, not per placement)."""

    @property
    def size(self) -> int:
        return len(self.cells)


@dataclass(frozen=True)
class Tables:
    """The validated component data of one game."""

    source: str
    gold: tuple[int, ...]
    dark: tuple[int, ...]
    cards: tuple[Card, ...]

    def card_index(self, number: int) -> int:
        for i, card in enumerate(self.cards):
            if card.number == number:
                return i
        raise KeyError(number)


def _fail(source: str, where: str, message: str) -> ValueError:
    return ValueError(f"solomon data {source}: {where}: {message}")


def _count(source: str, where: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _fail(source, where, f"must be a whole number >= 0, got {describe(value)}")
    return value


def _parse_back(source: str, back: str, doc: Any) -> tuple[int, ...]:
    where = f"tiles.{back}"
    if not isinstance(doc, dict):
        raise _fail(source, where, f"must be an object with keys {', '.join(_TYPE_KEYS)}, got {type(doc).__name__}")
    unknown = sorted(set(doc) - set(_TYPE_KEYS))
    if unknown:
        raise _fail(source, where, f"unknown tile type(s) {', '.join(map(repr, unknown))}; allowed: {', '.join(_TYPE_KEYS)}")
    counts = [0] * NUM_KINDS
    for type_name, keys in _TYPE_KEYS.items():
        part = doc.get(type_name, {})
        if not isinstance(part, dict):
            raise _fail(source, f"{where}.{type_name}", f"must be an object mapping {', '.join(keys)} to counts")
        bad = sorted(set(part) - set(keys))
        if bad:
            raise _fail(
                source, f"{where}.{type_name}", f"unknown key(s) {', '.join(map(repr, bad))}; allowed: {', '.join(keys)}"
            )
        for i, key in enumerate(keys):
            counts[_TYPE_FIRST[type_name] + i] = _count(source, f"{where}.{type_name}.{key}", part.get(key, 0))
    total = sum(counts)
    if total != BACKS[back]:
        per = "one per square" if back == "gold" else f"{DARK_PER_SQUARE} per square"
        raise _fail(source, where, f"must hold exactly {BACKS[back]} tiles ({per} of the 36 squares), got {total}")
    return tuple(counts)


def _connected(cells: list[tuple[int, int]]) -> bool:
    """Whether the cells are connected orthogonally or diagonally."""
    todo = [cells[0]]
    seen = {cells[0]}
    cellset = set(cells)
    while todo:
        r, c = todo.pop()
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                nxt = (r + dr, c + dc)
                if nxt in cellset and nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
    return len(seen) == len(cells)


def _build_card(number: int, name: str, cells: tuple[tuple[int, int], ...]) -> Card:
    seen_shapes: list[tuple[tuple[int, int], ...]] = []
    distinct = []
    placements = []
    masks = []
    fits = []
    for o in range(ORIENTATIONS):
        shape = _transform(cells, o)
        unique = shape not in seen_shapes
        if unique:
            seen_shapes.append(shape)
            distinct.append(o)
        height = max(r for r, _ in shape) + 1
        width = max(c for _, c in shape) + 1
        row_masks = [0] * SQUARES
        row_places = []
        for r0 in range(SIZE - height + 1):
            for c0 in range(SIZE - width + 1):
                mask = 0
                for r, c in shape:
                    mask |= 1 << ((r0 + r) * SIZE + c0 + c)
                anchor = r0 * SIZE + c0
                if unique:
                    row_masks[anchor] = mask
                    row_places.append((anchor, mask))
        placements.append(tuple(row_places))
        masks.append(tuple(row_masks))
        anchors = sum(1 << anchor for anchor, _ in row_places)
        fits.append((anchors, tuple(r * SIZE + c for r, c in shape)))
    return Card(number, name, cells, tuple(distinct), tuple(placements), tuple(masks), tuple(fits))


def _parse_cards(source: str, doc: Any) -> tuple[Card, ...]:
    if not isinstance(doc, list):
        raise _fail(source, "cards", f"must be a list of cards, got {type(doc).__name__}")
    if not MIN_CARDS <= len(doc) <= MAX_CARDS:
        raise _fail(
            source, "cards",
            f"must hold {MIN_CARDS} to {MAX_CARDS} cards (the rulebook has 32; 5 players need 25), got {len(doc)}",
        )
    cards = []
    numbers: dict[int, int] = {}
    for i, entry in enumerate(doc):
        where = f"cards[{i}]"
        if not isinstance(entry, dict):
            raise _fail(source, where, "must be an object with number, name and cells")
        extra = sorted(set(entry) - {"number", "name", "cells", "source"})
        if extra:
            raise _fail(source, where, f"unknown field(s) {', '.join(map(repr, extra))}; allowed: number, name, cells, source")
        number = entry.get("number")
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise _fail(source, f"{where}.number", f"must be a whole number >= 1, got {describe(number)}")
        if number in numbers:
            raise _fail(source, f"{where}.number", f"{number} is also the number of cards[{numbers[number]}]; numbers must be unique")
        numbers[number] = i
        where = f"{where} (card {number})"
        name = entry.get("name", f"card {number}")
        if not isinstance(name, str) or not name:
            raise _fail(source, f"{where}.name", f"must be a non-empty string, got {describe(name)}")
        raw = entry.get("cells")
        if not isinstance(raw, list) or not 3 <= len(raw) <= 6:
            got = len(raw) if isinstance(raw, list) else repr(raw)
            raise _fail(source, f"{where}.cells", f"must be a list of 3 to 6 [row, column] pairs, got {got}")
        cells = []
        for j, cell in enumerate(raw):
            if (
                not isinstance(cell, list)
                or len(cell) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in cell)
            ):
                raise _fail(source, f"{where}.cells[{j}]", f"must be a [row, column] pair of whole numbers, got {describe(cell)}")
            cells.append((cell[0], cell[1]))
        if len(set(cells)) != len(cells):
            raise _fail(source, f"{where}.cells", "lists the same square twice")
        if not _connected(cells):
            raise _fail(source, f"{where}.cells", "squares must be connected orthogonally or diagonally")
        # At most 6 connected squares always fit on the 6x6 cave.
        r0 = min(r for r, _ in cells)
        c0 = min(c for _, c in cells)
        shape = tuple(sorted((r - r0, c - c0) for r, c in cells))
        cards.append(_build_card(number, name, shape))
    repeat = repeated_name(card.name for card in cards)
    if repeat is not None:
        first, second = cards[repeat[0]], cards[repeat[1]]
        raise _fail(source, f"cards[{repeat[1]}].name", f"{second.name!r} is also the name of card {first.number} "
                    "(case and spacing ignored); names must be unique")
    cards.sort(key=lambda card: card.number)
    return tuple(cards)


def parse(doc: Any, source: str) -> Tables:
    """Validate a data document; every error names the entry, the field and what is allowed."""
    if not isinstance(doc, dict):
        raise _fail(source, "<root>", "must be a JSON object with 'tiles' and 'cards'")
    if doc.get("format", FORMAT) != FORMAT:
        raise _fail(source, "format", f"must be {FORMAT!r}, got {describe(doc.get('format'))}")
    missing = [key for key in ("tiles", "cards") if key not in doc]
    if missing:
        raise _fail(source, "<root>", f"missing field(s) {', '.join(missing)}")
    tiles = doc["tiles"]
    if not isinstance(tiles, dict) or set(tiles) != set(BACKS):
        got = sorted(tiles) if isinstance(tiles, dict) else type(tiles).__name__
        raise _fail(source, "tiles", f"must be an object with exactly the backs 'gold' and 'dark', got {got}")
    gold = _parse_back(source, "gold", tiles["gold"])
    dark = _parse_back(source, "dark", tiles["dark"])
    return Tables(source, gold, dark, _parse_cards(source, doc["cards"]))


_CACHE: dict[str, Tables] = {}


def load(path: str = "") -> Tables:
    """The tables of ``path`` (a user's data file) or of the packaged stand-in data."""
    target = Path(path) if path else DEFAULT_DATA
    key = str(target.resolve()) if target.exists() else str(target)
    if not path and key in _CACHE:
        return _CACHE[key]
    tables = parse(read_json(target, f"solomon data {target}"), str(target))
    if not path:
        _CACHE[key] = tables
    return tables


def terms() -> Iterator[tuple[str, str]]:
    """Every component name and data text shown to players, with its kind: what the catalogs translate
    (``tools/messages.py`` adds the game's name, description and options from its ``GameInfo``)."""
    for name in KIND_NAMES:
        yield "tile", name
    for name in MAGIC_FULL_NAMES:
        yield "item", name
    doc = read_json(DEFAULT_DATA, "solomon.json")
    for card in doc["cards"]:  # type: ignore[index]
        yield "shape", card["name"]
    texts = doc["help"]  # type: ignore[index]
    for paragraph in texts["summary"]:
        yield "help", paragraph
    for step in texts["guide"]:
        yield "guide", step
    for spec in (*texts["tiles"].values(), *texts["magic"].values()):
        yield "help", spec["name"]
        yield "help", spec["text"]
    for key in ("name", "text", "entrance"):
        yield "help", texts["card"][key]
    for label in texts["labels"].values():
        yield "label", label
    for kind in texts["kinds"].values():
        yield "kind", kind


def build_help(tables: Tables) -> GameHelp:
    """The rules summary, the tile types, the magic items and every excavation card of ``tables``, in the
    active language.

    The texts come from the packaged ``solomon.json``; the counts and card shapes from ``tables``
    (a user's data file included).
    """
    texts = read_json(DEFAULT_DATA, "solomon.json")["help"]  # type: ignore[index]
    labels = {key: tr.term("label", text) for key, text in texts["labels"].items()}
    kinds = {key: tr.term("kind", text) for key, text in texts["kinds"].items()}
    entries = []
    numbers: Numbers
    for type_name, keys in _TYPE_KEYS.items():
        first = _TYPE_FIRST[type_name]
        ids = range(first, first + len(keys))
        backs = ((labels["gold"], sum(tables.gold[k] for k in ids)), (labels["dark"], sum(tables.dark[k] for k in ids)))
        if type_name == "magic":
            for index, key in enumerate(keys):
                spec = texts["magic"][key]
                numbers = ((labels["gold"], tables.gold[first + index]), (labels["dark"], tables.dark[first + index]))
                entries.append(HelpEntry(f"magic:{key}", tr.term("help", spec["name"]), kinds["magic"],
                                         tr.term("help", spec["text"]), numbers))
            continue
        spread = ", ".join(f"{key}×{tables.gold[first + i] + tables.dark[first + i]}" for i, key in enumerate(keys))
        label = labels["symbols"] if type_name == "scroll" else labels["values"]
        spec = texts["tiles"][type_name]
        entries.append(HelpEntry(f"tile:{type_name}", tr.term("help", spec["name"]), kinds["tile"],
                                 tr.term("help", spec["text"]), (*backs, (label, spread))))
    card_text = texts["card"]
    entrance = tr.term("help", card_text["entrance"])
    for card in tables.cards:
        text = tr.term("help", card_text["text"]).format(size=card.size, drawing=_drawing(card, entrance))
        numbers = ((labels["number"], card.number), (labels["squares"], card.size),
                   (labels["shape"], tr.term("shape", card.name)))
        entries.append(HelpEntry(f"card:{card.number}", tr.term("help", card_text["name"]).format(number=card.number),
                                 kinds["card"], text, numbers))
    summary = "\n\n".join(tr.term("help", paragraph) for paragraph in texts["summary"])
    guide = tuple(tr.term("guide", step) for step in texts["guide"])
    return GameHelp(summary, tuple(entries), ("tile", "item", "card"), guide)


def _drawing(card: Card, entrance: str) -> str:
    """The card's squares as rows of ``#`` and ``.``, under a line marking the entrance side."""
    rows = 1 + max(r for r, _ in card.cells)
    cols = 1 + max(c for _, c in card.cells)
    grid = ["".join("#" if (r, c) in card.cells else "." for c in range(cols)) for r in range(rows)]
    return "\n".join([f"^ {entrance}", *grid])
