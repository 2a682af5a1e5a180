"""Component data of Secret of the Ancient Tomb: loading, validation and building the static tables.

``tomb.json`` (next to this module) holds the board geometry, the outer wall
of the small pyramid, the item and obstacle almanac and the tile list. A user
may replace the tile list (and the outer wall) with ``data=FILE``: a JSON
object with a ``tiles`` list in the same format and optionally an
``outer_wall`` list. Every error names the entry, the field and what is
allowed.

The tables built here (``Tables``, defined with the board's codes in
:mod:`obelisk.games.tomb.board`, which the rules compile) are immutable and
live on the ``Game``; states hold only plain indices into them.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Final

from obelisk.core import i18n
from obelisk.core.codec import describe
from obelisk.core.datafiles import name_key, read_json
from obelisk.core.help import GameHelp, HelpEntry, Numbers
from obelisk.games.tomb.board import (
    CANNOT_ENTER,
    CELLS,
    CHAMBER,
    DIR_LETTERS,
    DIR_NAMES,
    ENTRANCES,
    FEATURES,
    GROUPS,
    INSCRIPTION,
    ITEM,
    OBSTACLE,
    ITEM_IDS,
    KILL,
    OBSTACLE_IDS,
    SIZE,
    WALL,
    Kind,
    Tables,
    mask_of,
    parse_square,
    rotations,
    square_name,
)

DATA_FILE = Path(__file__).with_name("tomb.json")

RULE_GROUP = {
    "snake": "kill",
    "poison_gas": "kill",
    "trap": "kill",
    "hunger": "end_turn",
    "fatigue": "end_turn",
    "thirst": "end_turn",
    "collapsed_walls": "cannot_enter",
    "mysterious_doors": "cannot_enter",
    "bottomless_chasm": "cannot_enter",
}
"""The almanac's obstacle groups; the data file must agree (the engine implements these effects)."""
RULE_PROTECTION = {
    "snake": "torch",
    "poison_gas": "scarf",
    "trap": "plan",
    "hunger": "food",
    "fatigue": "chocolate",
    "thirst": "water",
    "collapsed_walls": "magic_flask",
    "mysterious_doors": "golden_key",
    "bottomless_chasm": "papyrus_of_the_dead",
}

SETS = ("basic", "expansion")

tr = i18n.domain("tomb")

FEATURE_CODES: Final = {"plain": "   ", "map": "Map", "secret_passage": "Psg", "dark_shrine": "Shr", "chest": "Cst"}
"""The code of a tile's feature on the maze (items and obstacles have theirs in the data file)."""
CHAMBER_CODE: Final = "CHM"

SHAPE_WORDS = ("dead end", "straight", "corner", "t junction", "cross", "outer wall", "burial chamber")
"""The words a tile kind's name starts with (``corner with Food``): its shape, or the printed squares."""
FEATURE_WORDS = {"map": "map", "secret_passage": "secret passage", "dark_shrine": "dark shrine", "chest": "chest"}
"""The special features as a tile kind's name says them."""


class DataError(ValueError):
    """A malformed data file; the message names the entry and field."""


def _fail(where: str, message: str) -> None:
    raise DataError(f"{where}: {message}")


def _read_json(path: str) -> Any:
    try:
        return read_json(path, f"data file {path!r}")
    except ValueError as error:
        raise DataError(str(error)) from None


@lru_cache(maxsize=1)
def _shipped() -> Any:
    """The shipped data file, parsed once per process (it is only read)."""
    return _read_json(str(DATA_FILE))


def _check_keys(entry: Any, where: str, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> None:
    if not isinstance(entry, dict):
        _fail(where, f"must be an object, got {type(entry).__name__}")
    for key in required:
        if key not in entry:
            _fail(where, f"field {key!r} is missing")
    unknown = sorted(set(entry) - set(required) - set(optional))
    if unknown:
        _fail(where, f"unknown field(s) {', '.join(map(repr, unknown))}; allowed: {', '.join(required + optional)}")


def _openings(value: Any, where: str) -> int:
    if not isinstance(value, str) or not value or any(ch not in DIR_LETTERS for ch in value) or len(set(value)) != len(value):
        _fail(where, f"openings must be a non-empty string of distinct letters from 'NESW', got {describe(value)}")
    return mask_of(value)


def load_tables(pyramid: str, all_inscriptions: bool, data_path: str) -> Tables:
    """Read the shipped data (and the user's tile list) and build the tables for one configuration."""
    base = _shipped()
    user = _read_json(data_path) if data_path else None
    source = data_path or "tomb.json"
    if user is not None:
        _check_keys(user, f"data file {data_path!r}", ("tiles",), ("outer_wall", "provenance", "format", "version"))
    shapes = {name: mask_of(letters) for name, letters in base["shapes"].items()}
    items = base["items"]
    obstacles = base["obstacles"]
    if [i["id"] for i in items] != list(ITEM_IDS) or [o["id"] for o in obstacles] != list(OBSTACLE_IDS):
        _fail("tomb.json", "items and obstacles must list the almanac's kinds in the engine's order")
    colours_basic = tuple(base["inscriptions"]["basic"])
    colours_all = colours_basic + tuple(base["inscriptions"]["expansion"])
    blue = {i["id"] for i in items if i["blue_border"]}
    big = pyramid == "big"
    in_play_items = [i["id"] for i in items if big or i["id"] not in blue]
    in_play_colours = colours_all if big else colours_basic

    tiles = (user or base)["tiles"]
    if not isinstance(tiles, list):
        _fail(f"{source}: 'tiles'", "must be a list of tile objects")
    seen_ids: dict[str, int] = {}
    kinds_order: list[tuple[str, str, str]] = []
    kind_tiles: dict[tuple[str, str, str], list[str]] = {}
    per_set = {"basic": 0, "expansion": 0}
    for index, tile in enumerate(tiles):
        where = f"{source}: tile #{index + 1}"
        if isinstance(tile, dict) and isinstance(tile.get("id"), str) and tile["id"]:
            where = f"{source}: tile {tile['id']!r}"
        _check_keys(tile, where, ("id", "set", "shape", "feature"), ("detail",))
        tid = tile["id"]
        if not isinstance(tid, str) or not tid:
            _fail(where, f"field 'id' must be a non-empty string, got {describe(tid)}")
        if name_key(tid) in seen_ids:
            _fail(where, f"id repeats tile #{seen_ids[name_key(tid)] + 1} (case and spacing ignored)")
        seen_ids[name_key(tid)] = index
        for key in ("set", "shape", "feature"):
            if not isinstance(tile[key], str):
                _fail(where, f"field {key!r} must be a string, got {type(tile[key]).__name__}")
        if tile["set"] not in SETS:
            _fail(where, f"field 'set' must be one of {', '.join(SETS)}, got {describe(tile['set'])}")
        if tile["shape"] not in shapes:
            _fail(where, f"field 'shape' must be one of {', '.join(shapes)}, got {describe(tile['shape'])}")
        feature = tile["feature"]
        if feature not in FEATURES:
            _fail(where, f"field 'feature' must be one of {', '.join(FEATURES)}, got {describe(feature)}")
        detail = tile.get("detail")
        allowed_detail = {
            "inscription": (colours_basic if tile["set"] == "basic" else colours_all),
            "item": tuple(ITEM_IDS),
            "obstacle": tuple(OBSTACLE_IDS),
        }.get(feature)
        if allowed_detail is None:
            if detail is not None:
                _fail(where, f"field 'detail' is not allowed for a {feature} tile")
            detail = ""
        elif detail not in allowed_detail:
            _fail(where, f"field 'detail' of a {tile['set']} {feature} tile must be one of {', '.join(allowed_detail)}, got {describe(detail)}")
        if tile["set"] == "basic":
            needs = detail if feature == "item" else RULE_PROTECTION.get(detail) if feature == "obstacle" else None
            if needs in blue:
                _fail(where, f"a basic tile cannot use {needs!r}, a blue-border item that the small pyramid leaves out")
            if feature == "chest":
                _fail(where, "the chest is an expansion tile (the rulebook: 'if a chest tile is in play')")
        per_set[tile["set"]] += 1
        if tile["set"] == "basic" or big:
            key = (tile["shape"], feature, detail)
            if key not in kind_tiles:
                kind_tiles[key] = []
                kinds_order.append(key)
            kind_tiles[key].append(tid)
    for name, expected in (("basic", 48), ("expansion", 32)):
        if per_set[name] != expected:
            _fail(f"{source}: 'tiles'", f"needs exactly {expected} {name} tiles to fill the board, got {per_set[name]}")
    needed = len(in_play_colours) if all_inscriptions else 5
    present = {d for (_, f, d) in kinds_order if f == "inscription"}
    missing = [c for c in in_play_colours if c not in present]
    if len(in_play_colours) - len(missing) < needed:
        _fail(
            f"{source}: 'tiles'",
            f"only {len(in_play_colours) - len(missing)} inscription colours are on the {pyramid} pyramid's tiles, "
            f"{needed} are needed to open the chamber (missing: {', '.join(missing)})",
        )

    item_index = {name: i for i, name in enumerate(ITEM_IDS)}
    obstacle_index = {name: i for i, name in enumerate(OBSTACLE_IDS)}
    for o in obstacles:
        if o["group"] != RULE_GROUP[o["id"]]:
            _fail(f"tomb.json: obstacle {o['id']!r}", f"group must be {RULE_GROUP[o['id']]!r} (the almanac)")
    protection = {i["protects"]: i["id"] for i in items if i["protects"]}
    if protection != {k: v for k, v in RULE_PROTECTION.items()}:
        _fail("tomb.json: items", "protections must match the almanac")
    obstacle_protection = tuple(item_index[RULE_PROTECTION[o]] for o in OBSTACLE_IDS)
    obstacle_group = tuple(GROUPS.index(RULE_GROUP[o]) for o in OBSTACLE_IDS)
    item_names = tuple(i["name"] for i in items)
    item_codes = tuple(i["code"] for i in items)
    obstacle_names = tuple(o["name"] for o in obstacles)
    obstacle_codes = tuple(o["code"] for o in obstacles)
    feature_code = FEATURE_CODES

    kinds: list[Kind] = []
    blocker: list[int] = []
    hazard: list[int] = []
    for shape, feature, detail in kinds_order:
        fcode = FEATURES.index(feature)
        if feature == "inscription":
            d = colours_all.index(detail)
            code, label = f"I:{d + 1}" if d < 5 else f"I:{detail[0]}", f"{detail} inscription"
        elif feature == "item":
            d = item_index[detail]
            code, label = item_codes[d], item_names[d]
        elif feature == "obstacle":
            d = obstacle_index[detail]
            code, label = obstacle_codes[d], obstacle_names[d]
        else:
            d = -1
            code, label = feature_code[feature], FEATURE_WORDS.get(feature, "")
        name = shape.replace("_", " ") + (f" with {label}" if label else "")
        mask = shapes[shape]
        kinds.append(Kind(shape, mask, fcode, d, code, name, rotations(mask), tuple(kind_tiles[(shape, feature, detail)])))
        blocker.append(obstacle_protection[d] if feature == "obstacle" and obstacle_group[d] == CANNOT_ENTER else -1)
        dangerous = feature == "obstacle" and obstacle_group[d] in (KILL, CANNOT_ENTER)
        hazard.append(obstacle_protection[d] if dangerous else -1)
    pool = tuple(len(kind_tiles[k]) for k in kinds_order)
    wall_kind = len(kinds)
    kinds.append(Kind("outer_wall", 0, WALL, -1, "   ", "outer wall", (), ()))
    chamber_kind = len(kinds)
    kinds.append(Kind("chamber", 15, CHAMBER, -1, CHAMBER_CODE, "burial chamber", (15,), ()))
    blocker += [-1, -1]
    hazard += [-1, -1]

    board = base["board"]
    chamber = parse_square(board["chamber"])
    if chamber != 40:
        _fail("tomb.json: board", "the burial chamber must be E5, the middle of the 9x9 board")
    corners = tuple(parse_square(e["corner"]) for e in board["entrances"])
    outer = tuple(mask_of(e["outer"]) for e in board["entrances"])
    start_kind = [-1] * CELLS
    start_open = [0] * CELLS
    start_kind[chamber] = chamber_kind
    if not big:
        ring_cells = [c for c in range(CELLS) if c // SIZE in (0, SIZE - 1) or c % SIZE in (0, SIZE - 1)]
        wall = (user or {}).get("outer_wall", base["outer_wall"]) if user else base["outer_wall"]
        wsource = source if user and "outer_wall" in user else "tomb.json"
        if not isinstance(wall, list):
            _fail(f"{wsource}: 'outer_wall'", "must be a list of square objects")
        done: dict[int, int] = {}
        for index, entry in enumerate(wall):
            where = f"{wsource}: outer_wall #{index + 1}"
            _check_keys(entry, where, ("square", "openings"), ("entrance",))
            cell = parse_square(entry["square"])
            if cell is None or cell not in ring_cells:
                _fail(where, f"square must be one of the 32 outer-wall squares (A1..I1, A9..I9, A2..A8, I2..I8), got {describe(entry['square'])}")
            if cell in done:
                _fail(where, f"square {entry['square']} repeats entry #{done[cell] + 1}")
            done[cell] = index
            if "entrance" in entry:
                e = entry["entrance"]
                if e not in ENTRANCES or corners[ENTRANCES.index(e)] != cell:
                    _fail(where, f"entrance {e!r} does not belong to square {entry['square']}; corners: NW=A1, NE=I1, SW=A9, SE=I9")
            elif cell in corners:
                _fail(where, f"corner square {entry['square']} must link its entrance ({ENTRANCES[corners.index(cell)]})")
            start_kind[cell] = wall_kind
            start_open[cell] = _openings(entry["openings"], where)
        if len(done) != len(ring_cells):
            missing_sq = [square_name(c) for c in ring_cells if c not in done]
            _fail(f"{wsource}: 'outer_wall'", f"must describe all 32 squares; missing {', '.join(missing_sq)}")
    if sum(pool) != start_kind.count(-1):
        _fail(f"{source}: 'tiles'", f"{sum(pool)} tiles for {start_kind.count(-1)} face-down squares")

    items_mask = sum(1 << item_index[i] for i in in_play_items)
    buyable = sum(1 << item_index[i["id"]] for i in items if i["buyable"] and i["id"] in in_play_items)
    provenance = dict(base["provenance"])
    if user is not None:
        provenance["tiles"] = f"user file {data_path}" + (f": {user['provenance']}" if "provenance" in user else "")
    return Tables(
        big=big,
        kinds=tuple(kinds),
        pool=pool,
        wall_kind=wall_kind,
        chamber_kind=chamber_kind,
        chamber=chamber,
        start_kind=tuple(start_kind),
        start_open=tuple(start_open),
        corners=corners,
        outer=outer,
        colours=in_play_colours,
        needed=needed,
        items_in_play=items_mask,
        items_per_kind=int(base["items_per_kind"]),
        item_names=item_names,
        item_codes=item_codes,
        buyable=buyable,
        obstacle_names=obstacle_names,
        obstacle_codes=obstacle_codes,
        obstacle_group=obstacle_group,
        obstacle_protection=obstacle_protection,
        blocker=tuple(blocker),
        features=tuple(k.feature for k in kinds),
        hazard=tuple(hazard),
        provenance=provenance,
    )


def build_help(tables: Tables) -> GameHelp:
    """The rules summary and every item, obstacle and tile feature, the texts from ``tomb.json`` in the active
    language.

    The numbers are those of this configuration: how many face-down tiles carry
    each item, obstacle or feature, and whether an item is in play at all.
    """
    base = _shipped()
    texts = base["help"]
    pool = tables.pool

    def tiles(feature: int, detail: int = -1) -> int:
        return sum(pool[k] for k, kind in enumerate(tables.kinds[: len(pool)])
                   if kind.feature == feature and (detail < 0 or kind.detail == detail))

    def word(text: str) -> str:
        return tr.term("help", text)

    def yes(flag: bool) -> str:
        return word(texts["yes"] if flag else texts["no"])

    labels = {key: word(text) for key, text in texts["labels"].items()}
    kinds = {key: word(text) for key, text in texts["kinds"].items()}
    entries = []
    for index, item in enumerate(base["items"]):
        protects = (tr.term("obstacle", tables.obstacle_names[OBSTACLE_IDS.index(item["protects"])])
                    if item["protects"] else word(texts["nothing"]))
        numbers: Numbers = (
            (labels["label"], code_word(item["code"])),
            (labels["protects"], protects),
            (labels["in_play"], yes(bool(tables.items_in_play >> index & 1))),
            (labels["buyable"], yes(bool(tables.buyable >> index & 1))),
            (labels["tokens"], tables.items_per_kind),
            (labels["tiles"], tiles(ITEM, index)),
        )
        entries.append(HelpEntry(f"item:{item['id']}", tr.term("item", item["name"]), kinds["item"],
                                 tr.term("text", item["text"]), numbers))
    for index, obstacle in enumerate(base["obstacles"]):
        numbers = (
            (labels["label"], code_word(obstacle["code"])),
            (labels["effect"], word(texts["groups"][obstacle["group"]])),
            (labels["protection"], tr.term("item", tables.item_names[tables.obstacle_protection[index]])),
            (labels["tiles"], tiles(OBSTACLE, index)),
        )
        entries.append(HelpEntry(f"obstacle:{obstacle['id']}", tr.term("obstacle", obstacle["name"]), kinds["obstacle"],
                                 tr.term("text", obstacle["text"]), numbers))
    for feature, spec in texts["features"].items():
        numbers = () if feature == "chamber" else ((labels["tiles"], tiles(FEATURES.index(feature))),)
        if feature == FEATURES[INSCRIPTION]:
            numbers += ((labels["colours"], ", ".join(tr.term("colour", c) for c in tables.colours)),
                        (labels["needed"], tables.needed))
        entries.append(HelpEntry(f"tile:{feature}", tr.term("tile", spec["name"]), kinds["tile"],
                                 tr.term("text", spec["text"]), numbers))
    summary = "\n\n".join(tr.term("rules", paragraph) for paragraph in texts["summary"])
    guide = tuple(tr.term("guide", step).format(needed=tables.needed) for step in texts["guide"])
    return GameHelp(summary, tuple(entries), ("tile", "item", "obstacle"), guide)


def tile_name(name: str) -> str:
    """A tile kind's name (``corner with Food``, ``t junction with blue inscription``) in the active language.

    Kind names are built from the shape and the feature, so they are translated from those parts; in English
    the name comes back unchanged."""
    shape, with_, feature = name.partition(" with ")
    if not with_:
        return tr.term("shape", name)
    return tr("{shape} with {feature}", shape=tr.term("shape", shape), feature=feature_name(feature))


def feature_name(feature: str) -> str:
    """The feature part of a tile kind's name (``Food``, ``blue inscription``, ``map``) in the active language."""
    if feature.endswith(" inscription"):
        return inscription_name(feature.removesuffix(" inscription"))
    if feature in FEATURE_WORDS.values():
        return tr.term("feature", feature)
    if feature in obstacle_names():
        return tr.term("obstacle", feature)
    return tr.term("item", feature)


def inscription_id(colour: str) -> str:
    """The message id of an inscription of ``colour`` (``red inscription``): one whole name per colour, because
    Czech puts the colour before the noun and agrees it with it ("červený nápis")."""
    return f"{colour} inscription"


def inscription_name(colour: str) -> str:
    """An inscription of ``colour`` (``red``) as a person says it, in the active language ("červený nápis")."""
    return tr.term("inscription", inscription_id(colour))


def item_word(item_id: str) -> str:
    """An item id (``first_aid_kit``) as the screens say it (``first-aid kit``), in the active language."""
    return tr.term("item", item_names()[item_id]).lower()


@lru_cache(maxsize=1)
def item_names() -> dict[str, str]:
    """The items' English names by id (``first_aid_kit`` → ``First-aid kit``), as the data file gives them."""
    return {entry["id"]: entry["name"] for entry in _shipped()["items"]}


@lru_cache(maxsize=1)
def obstacle_names() -> frozenset[str]:
    """The obstacles' English names, as the data file gives them."""
    return frozenset(o["name"] for o in _shipped()["obstacles"])


def terms() -> list[tuple[str, str]]:
    """Every name and text of the data file that a player reads, with its kind: what the catalogs translate
    (``tools/messages.py`` adds the game's name, description and options from its ``GameInfo``)."""
    base = _shipped()
    texts = base["help"]
    found: list[tuple[str, str]] = []
    found += [("rules", paragraph) for paragraph in texts["summary"]]
    found += [("guide", step) for step in texts["guide"]]
    for item in base["items"]:
        found += [("item", item["name"]), ("text", item["text"])]
    for obstacle in base["obstacles"]:
        found += [("obstacle", obstacle["name"]), ("text", obstacle["text"])]
    for spec in texts["features"].values():
        found += [("tile", spec["name"]), ("text", spec["text"])]
    found += [("help", text) for text in (texts["yes"], texts["no"], texts["nothing"])]
    found += [("help", text) for group in ("labels", "kinds", "groups") for text in texts[group].values()]
    found += [("colour", colour) for group in base["inscriptions"].values() for colour in group]
    found += [("inscription", inscription_id(colour)) for group in base["inscriptions"].values() for colour in group]
    found += [("shape", shape) for shape in SHAPE_WORDS]
    found += [("feature", feature) for feature in FEATURE_WORDS.values()]
    found += [("direction", name) for name in DIR_NAMES] + [("opening", letter) for letter in DIR_LETTERS]
    found += [("entrance", name) for name in ENTRANCES]
    found += [("code", thing["code"]) for group in ("items", "obstacles") for thing in base[group]
              if thing["code"] != "$$$"]
    found += [("code", code) for code in (*FEATURE_CODES.values(), CHAMBER_CODE) if code.strip()]
    return found


def code_word(code: str) -> str:
    """A tile's three-character code as the maze and the legend show it, in the active language (``Fod`` is
    ``Jíd`` in Czech); inscription codes (``I:3``), money (``$$$``) and blanks are the same in every language."""
    if not code.strip() or code.startswith("I:") or code == "$$$":
        return code
    return tr.term("code", code)
