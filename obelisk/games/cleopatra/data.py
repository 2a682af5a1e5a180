"""Loading and validating Cleopatra's component data (``cleopatra.json`` or a user's ``data=FILE``).

The engine hard-codes only the card *kinds* (their effects are rules) and the
six palace categories; everything countable or geometric comes from the data
file: copies and amulets of every card, costs and rewards, the kit, the
garden grid with its blocked cells, palms and wall stretches, the door walks
and the mosaic shapes. Every error names the entry, the field and what is
allowed.

Mosaic placements are precomputed here once per (data, mirroring) pair: for
every tile every distinct orientation at every offset that stays on playable
cells, as a bit mask over the garden cells. Fitting a tile is then a scan of
ints (``mask & occupied == 0``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from collections.abc import Iterator
from typing import Any, Final

from obelisk.core import i18n
from obelisk.core.codec import describe
from obelisk.core.datafiles import name_key, read_json
from obelisk.core.help import GameHelp, HelpEntry, Number, Numbers

DEFAULT_PATH = Path(__file__).with_name("cleopatra.json")
tr = i18n.domain("cleopatra")

RESOURCES = ("artisan", "stone", "marble", "wood", "lapis")
"""The five standard resources; payment prompts follow this order."""

KINDS = (
    "artisan", "stone", "marble", "wood", "lapis",
    "tainted_artisan", "tainted_stone", "tainted_marble", "tainted_wood", "tainted_lapis",
    "trompe_l_oeil",
    "beggars", "courtesans", "envoys", "scribes", "smugglers", "vizier",
)
"""Card kinds in the engine's fixed order (state counts are indexed by it)."""

TAINTED0: Final = 5
TROMPE: Final = 10
BEGGARS: Final = 11
COURTESANS: Final = 12
ENVOYS: Final = 13
SCRIBES: Final = 14
SMUGGLERS: Final = 15
VIZIER: Final = 16
CHARACTERS = (BEGGARS, COURTESANS, ENVOYS, SCRIBES, SMUGGLERS, VIZIER)
KIND_TYPES = ("standard",) * 5 + ("tainted",) * 5 + ("trompe",) + ("character",) * 6

CATEGORIES = ("walls", "sphinxes", "throne", "obelisks", "doors", "mosaics")
REWARD_FIELDS = {
    "walls": ("base", "per_adjacent_mosaic"),
    "sphinxes": ("odd", "even"),
    "throne": ("pedestal", "throne"),
    "obelisks": ("each",),
    "doors": ("base", "per_wall"),
    "mosaics": ("base", "per_palm"),
}
SCORE_HEADINGS: Final = {
    "talents": "Talents",
    "merchant_bonus": "Unused Nile merchants",
    "amulets": "Amulets",
    "tainted_in_hand": "Tainted cards in hand",
    "sanctuary_relief": "Sanctuary cells",
    "eaten": "Eaten by the crocodile",
}
"""The heading of each category of a seat's score breakdown (``scoring.scores``), a ``score`` term of the catalog."""
KIT_FIELDS = ("talents", "nile_merchants", "anubis_statues", "cards_dealt", "hand_limit", "merchant_end_value")


class DataError(ValueError):
    """A component data file that the engine cannot use; the message says where and why."""


@dataclass(frozen=True)
class Placement:
    """One way to lay a mosaic tile: its cells (row, col) and their bit mask."""

    cells: tuple[tuple[int, int], ...]
    mask: int


@dataclass(frozen=True)
class Tables:
    """Validated, engine-ready component data (static; never stored in a state)."""

    names: tuple[str, ...]
    copies: tuple[int, ...]
    amulets: tuple[int, ...]
    units: tuple[int, ...]
    envoys_per_card: int
    vizier_per_card: int
    scribes_die_amulets: int
    kit: dict[str, int]
    category_names: dict[str, str]
    pieces: dict[str, int]
    costs: dict[str, tuple[int, ...]]
    rewards: dict[str, dict[str, int]]
    bonus: dict[int, int]
    dice: int
    faces: int
    offering_first: int
    offering_gains: tuple[int, ...]
    steps: int
    rows: int
    cols: int
    playable_mask: int
    palm_mask: int
    wall_ids: tuple[str, ...]
    wall_masks: tuple[int, ...]
    door_ids: tuple[str, ...]
    door_walks: tuple[tuple[int, ...], ...]
    tile_ids: tuple[str, ...]
    tile_size: tuple[int, ...]
    placements: tuple[tuple[Placement, ...], ...]

    @property
    def deck_size(self) -> int:
        return sum(self.copies)

    def cell_name(self, cell: int) -> str:
        """Garden cell name: column letter and row number from the back, e.g. ``c4``."""
        row, col = divmod(cell, self.cols)
        return f"{_column_letter(col)}{row + 1}"


def _column_letter(col: int) -> str:
    letters = ""
    col += 1
    while col:
        col, rest = divmod(col - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return letters


_CACHE: dict[tuple[str, bool], Tables] = {}


def load_tables(path: str = "", mirror: bool = False) -> Tables:
    """Read and validate the data file at ``path`` ("" = the shipped file); cached per path."""
    key = (path, mirror)
    if key not in _CACHE:
        file = Path(path) if path else DEFAULT_PATH
        try:
            doc = read_json(file, f"cleopatra data file {str(file)!r}")
        except ValueError as error:
            raise DataError(str(error)) from None
        _CACHE[key] = build_tables(doc, mirror)
    return _CACHE[key]


def build_tables(doc: Any, mirror: bool = False) -> Tables:
    """Validate a parsed data document and precompute the tables."""
    if not isinstance(doc, dict):
        raise DataError("cleopatra data: the top level must be a JSON object")
    names, copies, amulets, units, extras = _cards(_field(doc, "cards", list, "the top level"))
    kit = {name: _count(_field(_field(doc, "kit", dict, "the top level"), name, int, "kit"), f"kit.{name}")
           for name in KIT_FIELDS}
    if kit["hand_limit"] < 1:
        raise DataError(f"cleopatra data: kit.hand_limit must be at least 1, got {kit['hand_limit']}")
    category_names, pieces, costs, rewards = _categories(_field(doc, "categories", list, "the top level"))
    bonus_doc = _field(doc, "multi_build_bonus", dict, "the top level")
    bonus: dict[int, int] = {}
    for key, value in bonus_doc.items():
        if key in ("confidence", "source"):
            continue
        if not key.isdigit() or int(key) < 2:
            raise DataError(f"cleopatra data: multi_build_bonus key {key!r} must be a piece count of 2 or more")
        bonus[int(key)] = _count(value, f"multi_build_bonus.{key}")
    dice_doc = _field(doc, "high_priest_dice", dict, "the top level")
    dice = _count(_field(dice_doc, "count", int, "high_priest_dice"), "high_priest_dice.count")
    faces = _count(_field(dice_doc, "faces", int, "high_priest_dice"), "high_priest_dice.faces")
    if dice < 1 or faces < 2:
        raise DataError("cleopatra data: high_priest_dice needs count >= 1 and faces >= 2")
    offering = _field(doc, "offering", dict, "the top level")
    first = _count(_field(offering, "first_removes", int, "offering"), "offering.first_removes")
    gains_doc = _field(offering, "later_places_gain", list, "offering")
    gains = tuple(_count(g, f"offering.later_places_gain[{i}]") for i, g in enumerate(gains_doc))
    if len(gains) < 4:
        raise DataError("cleopatra data: offering.later_places_gain needs 4 entries (places 2 to 5)")
    steps = _count(_field(doc, "cleopatra_steps", int, "the top level"), "cleopatra_steps")
    if not 1 <= steps <= len(CATEGORIES):
        raise DataError(f"cleopatra data: cleopatra_steps must be from 1 to {len(CATEGORIES)}, got {steps}")
    garden = _garden(_field(doc, "garden", dict, "the top level"), pieces)
    tile_ids, tile_cells = _mosaics(_field(doc, "mosaics", list, "the top level"), pieces)
    rows, cols, playable, palms, wall_ids, wall_masks, door_ids, door_walks = garden
    placements = tuple(_placements(cells, rows, cols, playable, mirror) for cells in tile_cells)
    for tid, options in zip(tile_ids, placements):
        if not options:
            raise DataError(f"cleopatra data: mosaic {tid!r} fits nowhere in the empty garden")
    return Tables(
        names=names, copies=copies, amulets=amulets, units=units,
        envoys_per_card=extras["envoys"], vizier_per_card=extras["vizier"], scribes_die_amulets=extras["scribes"],
        kit=kit, category_names=category_names, pieces=pieces, costs=costs, rewards=rewards, bonus=bonus,
        dice=dice, faces=faces, offering_first=first, offering_gains=gains, steps=steps,
        rows=rows, cols=cols, playable_mask=playable, palm_mask=palms,
        wall_ids=wall_ids, wall_masks=wall_masks, door_ids=door_ids, door_walks=door_walks,
        tile_ids=tile_ids, tile_size=tuple(len(c) for c in tile_cells), placements=placements,
    )


def _field(doc: dict[str, Any], name: str, kind: type, where: str) -> Any:
    if name not in doc:
        raise DataError(f"cleopatra data: {where} lacks field {name!r}")
    value = doc[name]
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise DataError(f"cleopatra data: {where} field {name!r} must be a whole number, got {describe(value)}")
    elif not isinstance(value, kind):
        raise DataError(f"cleopatra data: {where} field {name!r} must be a JSON {_json_type(kind)}, got {describe(value)}")
    return value


def _json_type(kind: type) -> str:
    return {list: "array", dict: "object", str: "string"}.get(kind, kind.__name__)


def _count(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise DataError(f"cleopatra data: {where} must be a whole number >= 0, got {describe(value)}")
    return value


def _cards(entries: list[Any]) -> tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], dict[str, int]]:
    found: dict[str, dict[str, Any]] = {}
    for index, entry in enumerate(entries):
        where = f"cards[{index}]"
        if not isinstance(entry, dict):
            raise DataError(f"cleopatra data: {where} must be an object")
        kind = _field(entry, "kind", str, where)
        if kind not in KINDS:
            raise DataError(f"cleopatra data: {where} has unknown kind {kind!r}; allowed kinds: {', '.join(KINDS)}")
        if kind in found:
            raise DataError(f"cleopatra data: {where} repeats kind {kind!r}")
        where = f"card {kind!r}"
        expected_type = KIND_TYPES[KINDS.index(kind)]
        if _field(entry, "type", str, where) != expected_type:
            raise DataError(f"cleopatra data: {where} field 'type' must be {expected_type!r}, got {describe(entry['type'])}")
        name = _field(entry, "name", str, where)
        if name_key(name) == "face-down" or any(name_key(other["name"]) == name_key(name) for other in found.values()):
            raise DataError(f"cleopatra data: {where} field 'name' {name!r} is already used (case and spacing "
                            "ignored); views name cards by their names, so they must be distinct and not 'face-down'")
        _count(_field(entry, "copies", int, where), f"{where} field 'copies'")
        _count(_field(entry, "amulets", int, where), f"{where} field 'amulets'")
        index_kind = KINDS.index(kind)
        if index_kind < TROMPE:
            resource = RESOURCES[index_kind % 5]
            if _field(entry, "resource", str, where) != resource:
                raise DataError(f"cleopatra data: {where} field 'resource' must be {resource!r}, got {describe(entry['resource'])}")
            units = _field(entry, "units", int, where)
            if units < 1:
                raise DataError(f"cleopatra data: {where} field 'units' must be at least 1, got {units}")
        found[kind] = entry
    missing = [k for k in KINDS if k not in found]
    if missing:
        raise DataError(f"cleopatra data: cards lacks kind(s) {', '.join(missing)}; every kind must be listed (copies may be 0)")
    extras = {
        "envoys": _count(_field(found["envoys"], "amulets_per_card", int, "card 'envoys'"), "card 'envoys' field 'amulets_per_card'"),
        "vizier": _count(_field(found["vizier"], "amulets_per_card", int, "card 'vizier'"), "card 'vizier' field 'amulets_per_card'"),
        "scribes": _count(_field(found["scribes"], "amulets_die_mode", int, "card 'scribes'"), "card 'scribes' field 'amulets_die_mode'"),
    }
    if sum(found[k]["copies"] for k in KINDS) < 1:
        raise DataError("cleopatra data: the deck has no cards")
    return (
        tuple(found[k]["name"] for k in KINDS),
        tuple(found[k]["copies"] for k in KINDS),
        tuple(found[k]["amulets"] for k in KINDS),
        tuple(found[k].get("units", 0) for k in KINDS),
        extras,
    )


def _categories(entries: list[Any]) -> tuple[dict[str, str], dict[str, int], dict[str, tuple[int, ...]], dict[str, dict[str, int]]]:
    names: dict[str, str] = {}
    pieces: dict[str, int] = {}
    costs: dict[str, tuple[int, ...]] = {}
    rewards: dict[str, dict[str, int]] = {}
    for index, entry in enumerate(entries):
        where = f"categories[{index}]"
        if not isinstance(entry, dict):
            raise DataError(f"cleopatra data: {where} must be an object")
        cid = _field(entry, "id", str, where)
        if cid not in CATEGORIES:
            raise DataError(f"cleopatra data: {where} has unknown id {cid!r}; allowed ids: {', '.join(CATEGORIES)}")
        if cid in names:
            raise DataError(f"cleopatra data: {where} repeats category {cid!r}")
        where = f"category {cid!r}"
        name = _field(entry, "name", str, where)
        if any(name_key(other) == name_key(name) for other in names.values()):
            raise DataError(f"cleopatra data: {where} field 'name' {name!r} is already used (case and spacing ignored)")
        names[cid] = name
        count = _count(_field(entry, "pieces", int, where), f"{where} field 'pieces'")
        if count < 1:
            raise DataError(f"cleopatra data: {where} field 'pieces' must be at least 1")
        if cid == "throne" and count != 2:
            raise DataError(f"cleopatra data: {where} field 'pieces' must be 2 (pedestal and throne), got {count}")
        pieces[cid] = count
        cost = _field(entry, "cost", dict, where)
        for resource in cost:
            if resource not in RESOURCES:
                raise DataError(f"cleopatra data: {where} cost names unknown resource {resource!r}; allowed: {', '.join(RESOURCES)}")
        costs[cid] = tuple(_count(cost.get(r, 0), f"{where} cost.{r}") for r in RESOURCES)
        if not sum(costs[cid]):
            raise DataError(f"cleopatra data: {where} cost must ask for at least one resource")
        reward = _field(entry, "reward", dict, where)
        rewards[cid] = {}
        for name in REWARD_FIELDS[cid]:
            rewards[cid][name] = _count(_field(reward, name, int, f"{where} reward"), f"{where} reward.{name}")
        unknown = sorted(set(reward) - set(REWARD_FIELDS[cid]))
        if unknown:
            raise DataError(f"cleopatra data: {where} reward has unknown field(s) {', '.join(unknown)}; allowed: {', '.join(REWARD_FIELDS[cid])}")
    missing = [c for c in CATEGORIES if c not in names]
    if missing:
        raise DataError(f"cleopatra data: categories lacks {', '.join(missing)}")
    return names, pieces, costs, rewards


def _cell(value: Any, where: str, rows: int, cols: int) -> tuple[int, int]:
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise DataError(f"cleopatra data: {where} must be a [row, col] pair of whole numbers, got {describe(value)}")
    row, col = value
    if not (0 <= row < rows and 0 <= col < cols):
        raise DataError(f"cleopatra data: {where} = {value!r} lies outside the {rows}x{cols} garden")
    return row, col


def _garden(doc: dict[str, Any], pieces: dict[str, int]) -> tuple[Any, ...]:
    rows = _field(doc, "rows", int, "garden")
    cols = _field(doc, "cols", int, "garden")
    if not (1 <= rows <= 30 and 1 <= cols <= 30):
        raise DataError(f"cleopatra data: garden rows and cols must be from 1 to 30, got {rows}x{cols}")
    blocked = 0
    for i, value in enumerate(_field(doc, "blocked", list, "garden")):
        r, c = _cell(value, f"garden.blocked[{i}]", rows, cols)
        blocked |= 1 << (r * cols + c)
    playable = ((1 << (rows * cols)) - 1) & ~blocked
    palms = 0
    for i, value in enumerate(_field(doc, "palms", list, "garden")):
        r, c = _cell(value, f"garden.palms[{i}]", rows, cols)
        bit = 1 << (r * cols + c)
        if not bit & playable:
            raise DataError(f"cleopatra data: garden.palms[{i}] = {value!r} is a blocked cell")
        palms |= bit
    wall_ids: list[str] = []
    wall_masks: list[int] = []
    for i, entry in enumerate(_field(doc, "wall_slots", list, "garden")):
        where = f"garden.wall_slots[{i}]"
        if not isinstance(entry, dict):
            raise DataError(f"cleopatra data: {where} must be an object with 'id' and 'cells'")
        wid = _field(entry, "id", str, where)
        if any(name_key(other) == name_key(wid) for other in wall_ids):
            raise DataError(f"cleopatra data: {where} repeats wall id {wid!r} (case and spacing ignored)")
        mask = 0
        for j, value in enumerate(_field(entry, "cells", list, where)):
            r, c = _cell(value, f"{where}.cells[{j}]", rows, cols)
            mask |= 1 << (r * cols + c)
        wall_ids.append(wid)
        wall_masks.append(mask)
    if len(wall_ids) != pieces["walls"]:
        raise DataError(f"cleopatra data: garden.wall_slots has {len(wall_ids)} slots but category 'walls' has {pieces['walls']} pieces; they must match")
    door_ids: list[str] = []
    walks: list[tuple[int, ...]] = []
    for i, entry in enumerate(_field(doc, "doors", list, "garden")):
        where = f"garden.doors[{i}]"
        if not isinstance(entry, dict):
            raise DataError(f"cleopatra data: {where} must be an object with 'id' and 'walk'")
        did = _field(entry, "id", str, where)
        if any(name_key(other) == name_key(did) for other in door_ids):
            raise DataError(f"cleopatra data: {where} repeats door id {did!r} (case and spacing ignored)")
        walk = []
        for j, wid in enumerate(_field(entry, "walk", list, where)):
            if wid not in wall_ids:
                raise DataError(f"cleopatra data: {where}.walk[{j}] = {wid!r} is not a wall slot id; allowed: {', '.join(wall_ids)}")
            if wall_ids.index(wid) in walk:
                raise DataError(f"cleopatra data: {where}.walk repeats wall {wid!r}")
            walk.append(wall_ids.index(wid))
        door_ids.append(did)
        walks.append(tuple(walk))
    if len(door_ids) != pieces["doors"]:
        raise DataError(f"cleopatra data: garden.doors has {len(door_ids)} doors but category 'doors' has {pieces['doors']} pieces; they must match")
    return rows, cols, playable, palms, tuple(wall_ids), tuple(wall_masks), tuple(door_ids), tuple(walks)


def _mosaics(entries: list[Any], pieces: dict[str, int]) -> tuple[tuple[str, ...], list[tuple[tuple[int, int], ...]]]:
    ids: list[str] = []
    shapes: list[tuple[tuple[int, int], ...]] = []
    for i, entry in enumerate(entries):
        where = f"mosaics[{i}]"
        if not isinstance(entry, dict):
            raise DataError(f"cleopatra data: {where} must be an object with 'id' and 'cells'")
        tid = _field(entry, "id", str, where)
        if any(name_key(other) == name_key(tid) for other in ids):
            raise DataError(f"cleopatra data: {where} repeats mosaic id {tid!r} (case and spacing ignored)")
        cells = []
        for j, value in enumerate(_field(entry, "cells", list, f"mosaic {tid!r}")):
            cells.append(_cell(value, f"mosaic {tid!r} cells[{j}]", 30, 30))
        if not cells or len(set(cells)) != len(cells):
            raise DataError(f"cleopatra data: mosaic {tid!r} cells must be distinct and non-empty")
        if not _connected(cells):
            raise DataError(f"cleopatra data: mosaic {tid!r} cells must be orthogonally connected")
        ids.append(tid)
        shapes.append(_normalize(cells))
    if len(ids) != pieces["mosaics"]:
        raise DataError(f"cleopatra data: mosaics lists {len(ids)} tiles but category 'mosaics' has {pieces['mosaics']} pieces; they must match")
    return tuple(ids), shapes


def _connected(cells: list[tuple[int, int]]) -> bool:
    todo, seen = [cells[0]], {cells[0]}
    members = set(cells)
    while todo:
        r, c = todo.pop()
        for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if n in members and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(members)


def _normalize(cells: Any) -> tuple[tuple[int, int], ...]:
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return tuple(sorted((r - top, c - left) for r, c in cells))


def orientations(cells: tuple[tuple[int, int], ...], mirror: bool) -> list[tuple[tuple[int, int], ...]]:
    """Distinct rotations (and reflections when ``mirror``) in a fixed order: 0°, 90°, 180°, 270°, then mirrored."""
    result: list[tuple[tuple[int, int], ...]] = []
    bases = [cells] + ([tuple((r, -c) for r, c in cells)] if mirror else [])
    for base in bases:
        shape = base
        for _ in range(4):
            norm = _normalize(shape)
            if norm not in result:
                result.append(norm)
            shape = tuple((c, -r) for r, c in shape)
    return result


def _placements(cells: tuple[tuple[int, int], ...], rows: int, cols: int, playable: int, mirror: bool) -> tuple[Placement, ...]:
    found: list[Placement] = []
    seen: set[int] = set()
    for shape in orientations(cells, mirror):
        height = max(r for r, _ in shape) + 1
        width = max(c for _, c in shape) + 1
        for top in range(rows - height + 1):
            for left in range(cols - width + 1):
                placed = tuple(sorted((r + top, c + left) for r, c in shape))
                mask = 0
                for r, c in placed:
                    mask |= 1 << (r * cols + c)
                if mask & ~playable or mask in seen:
                    continue
                seen.add(mask)
                found.append(Placement(placed, mask))
    return tuple(found)


def build_help(tables: Tables) -> GameHelp:
    """The rules summary, every card kind, palace piece and kit component, the texts from ``cleopatra.json``.

    The numbers (copies, amulets, costs, rewards, the kit) are those of ``tables``, so a
    replacement data file is explained with its own figures. Texts and names are in the active language.
    """
    texts = _help_texts()
    labels = {key: tr.term("help", value) for key, value in texts["labels"].items()}
    kinds = {key: tr.term("help", value) for key, value in texts["kinds"].items()}
    entries = []
    numbers: Numbers
    for index, kind in enumerate(KINDS):
        kind_type = KIND_TYPES[index]
        resource = tr.term("card", tables.names[index % 5]) if index < TROMPE else labels["any"]
        template = tr.term("help", texts["cards"].get(kind) or texts["cards"][kind_type])
        per_card = tables.envoys_per_card if index == ENVOYS else tables.vizier_per_card
        text = template.format(units=tables.units[index], resource=resource.lower(), amulets=tables.amulets[index],
                               per_card=per_card, die_amulets=tables.scribes_die_amulets)
        counts: list[tuple[str, Number]] = [(labels["copies"], tables.copies[index])]
        if index <= TROMPE:
            counts += [(labels["resource"], resource), (labels["units"], tables.units[index] or 1)]
        if index in (ENVOYS, VIZIER):
            counts.append((labels["per_card"], per_card))
        else:
            counts.append((labels["amulets"], tables.amulets[index]))
        if index == SCRIBES:
            counts.append((labels["die_amulets"], tables.scribes_die_amulets))
        entries.append(HelpEntry(f"card:{kind}", tr.term("card", tables.names[index]), kinds[kind_type], text,
                                 tuple(counts)))
    for category in CATEGORIES:
        cost = ", ".join(f"{units} {tr.term('card', tables.names[RESOURCES.index(r)]).lower()}"
                         for r, units in zip(RESOURCES, tables.costs[category]) if units)
        reward = tables.rewards[category]
        rewards = tuple((tr.term("help", texts["rewards"][field]), value) for field, value in reward.items())
        numbers = ((labels["pieces"], tables.pieces[category]), (labels["cost"], cost), *rewards)
        entries.append(HelpEntry(f"piece:{category}", tr.term("piece", tables.category_names[category]), kinds["piece"],
                                 tr.term("help", texts["pieces"][category]).format(**reward), numbers))
    values = {**tables.kit, "first_removes": tables.offering_first, "steps": tables.steps}
    for key, spec in texts["kit"].items():
        numbers = ((labels["each"], tables.kit[spec["count"]]),) if "count" in spec else ()
        if key == "high_priest_dice":
            numbers = ((labels["count"], tables.dice), (labels["faces"], tables.faces))
        elif key == "cleopatra":
            numbers = ((labels["steps"], tables.steps),)
        entries.append(HelpEntry(f"kit:{key}", tr.term("kit", spec["name"]), kinds["kit"],
                                 tr.term("help", spec["text"]).format(**values), numbers))
    summary = "\n\n".join(tr.term("help", paragraph) for paragraph in texts["summary"])
    guide = tuple(tr.term("guide", step) for step in texts["guide"])
    return GameHelp(summary, tuple(entries), ("card", "piece"), guide)


def _help_texts() -> dict[str, Any]:
    texts: dict[str, Any] = read_json(DEFAULT_PATH, "cleopatra.json")["help"]  # type: ignore[index]
    return texts


def terms() -> Iterator[tuple[str, str]]:
    """Every name and text of the shipped data that is shown, with its kind: the Czech catalog translates them
    (``tools/messages.py`` adds the game's name, description and options from its ``GameInfo``)."""
    doc = read_json(DEFAULT_PATH, "cleopatra.json")
    for card in doc["cards"]:
        yield "card", card["name"]
    for category in doc["categories"]:
        yield "piece", category["name"]
    for category in CATEGORIES:
        yield "category", category
    for heading in SCORE_HEADINGS.values():
        yield "score", heading
    for resource in RESOURCES:
        yield "resource", resource
    for door in doc["garden"]["doors"]:
        yield "door", door["id"]
    texts = _help_texts()
    for paragraph in texts["summary"]:
        yield "help", paragraph
    for step in texts["guide"]:
        yield "guide", step
    for group in ("labels", "kinds", "rewards", "cards", "pieces"):
        for value in texts[group].values():
            yield "help", value
    for spec in texts["kit"].values():
        yield "kit", spec["name"]
        yield "help", spec["text"]
