"""The card data file: loading, validation and the static card table.

The built-in cards are ``valley.json``. A card file is JSON:
``{"sets": {name: {"size": n, "frame": colour}}, "cards": [...]}``.
Each card entry holds ``name, level, copies, cost, gold, type, set, vp, action``
plus an optional ``text``, ``provenance`` (``public``/``reconstructed`` per
field) and ``note`` (per reconstructed field, what it was inferred from or that
it is invented). Every problem is reported with the card, the field and what is
allowed, because a user-corrected card file is meant to be edited by hand.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from obelisk.core import GameInfo, Option, i18n
from obelisk.core.codec import describe
from obelisk.core.datafiles import name_key, read_json
from obelisk.core.help import GameHelp, HelpEntry, Number

tr = i18n.domain("valley")
INFO = GameInfo(
    id="valley",
    name="Valley of the Kings",
    min_players=2,
    max_players=4,
    description="deck-building: buy artifacts from a crumbling pyramid, entomb the best; only the tomb scores",
    options=(
        Option("cards", "", "path of a card file (JSON) replacing the built-in valley.json", label="Card file"),
        Option(
            "forced_removal",
            "base",
            "which pyramid card the end-of-turn removal may take when the pyramid was not touched",
            ("base", "any"), label="Card removed when you leave the pyramid untouched",
            help="A turn that did not touch the pyramid ends by moving one of its cards to the boneyard.",
            value_labels=("One of the bottom row", "Any card of the pyramid"),
            rare=True,
        ),
        Option(
            "tiebreak",
            "shared",
            "equal tomb scores share the place, or the tomb with more different sets wins",
            ("shared", "sets"), label="Equal tomb scores",
            value_labels=("Share the place", "More different sets wins"),
            rare=True,
        ),
        Option(
            "spent_cards",
            "play_area",
            "where cards spent on a purchase lie until the turn ends: the play area (published rulebook) "
            "or at once the discard pile, under the bought card (Czech description)",
            ("play_area", "discard"), label="Cards spent on a purchase",
            value_labels=("Stay in play until the turn ends", "Go to the discard pile at once"),
            value_help=("As in the published rulebook", "As in the Czech description: the bought card lies on top of them"),
            rare=True,
        ),
    ),
    default_players=2,
    turns=(13, 24),
)
"""The game's name, description and options, as the lobby shows them (translated as terms)."""

BUILTIN_PATH = Path(__file__).with_name("valley.json")
CARD_FIELDS = ("name", "level", "copies", "cost", "gold", "type", "set", "vp", "action")
OPTIONAL_FIELDS = ("text", "provenance", "note")
TYPES = ("starter", "set", "unique")
PROVENANCES = ("public", "reconstructed")
STARTER_DECKS = 4
"""The box holds four starter decks: every starter's copies split evenly among them."""
MAX_NUMBER = 99

STARTER, SET, UNIQUE = 0, 1, 2

EFFECT_PARAMS: dict[str, dict[str, tuple[int, int]]] = {
    "none": {},
    "draw": {"count": (1, 9)},
    "draw_topdeck": {"draw": (1, 9), "topdeck": (1, 9)},
    "discount": {"amount": (1, 9)},
    "take_base": {"max_cost": (0, 99)},
    "entomb_extra": {},
    "sacrifice_draw": {"count": (1, 9)},
    "take_boneyard": {},
    "retrieve_from_tomb": {},
    "reveal_execute": {},
    "entomb_cheapest": {},
    "sacrifice_take": {"factor": (1, 9)},
    "entomb_from_discard": {"min_discard": (0, 99)},
    "take_stock": {},
    "take_cheaper": {},
    "opponents_sacrifice": {},
    "tribute": {"exempt_at_most": (0, 99)},
    "hand_gold": {"value": (1, 99)},
    "repeat_action": {},
    "boat": {},
    "ward": {},
}
"""The effect keywords a card's action may name, each with its parameters (name → inclusive range);
``effects.py`` carries out exactly these."""


@dataclass(frozen=True)
class CardTable:
    """Per-kind tuples indexed by card-kind id (the order of the file)."""

    names: tuple[str, ...]
    level: tuple[int, ...]
    copies: tuple[int, ...]
    cost: tuple[int, ...]
    gold: tuple[int, ...]
    kind_type: tuple[int, ...]
    set_of: tuple[int, ...]
    vp: tuple[int, ...]
    effect: tuple[str, ...]
    params: tuple[dict[str, int], ...]
    text: tuple[str, ...]
    provenance: tuple[dict[str, str], ...]
    set_names: tuple[str, ...]
    set_sizes: tuple[int, ...]
    set_frames: tuple[str, ...]
    per_player: tuple[int, ...]
    """Starter copies in one player's deck (0 for level II/III cards)."""
    boat_kinds: tuple[int, ...]
    ward_kinds: tuple[int, ...]
    source: str

    @property
    def size(self) -> int:
        return len(self.names)

    def stock_total(self) -> int:
        return sum(c for c, lv in zip(self.copies, self.level) if lv > 1)


class CardFileError(ValueError):
    """A malformed card file; the message names the card, the field and what is allowed."""


def load_cards(path: str = "") -> CardTable:
    """Load and validate a card file (``""`` = the built-in ``valley.json``)."""
    file = Path(path) if path else BUILTIN_PATH
    label = f"cards file {str(file)!r}"
    try:
        doc = read_json(file, label)
    except ValueError as error:
        raise CardFileError(str(error)) from None
    return parse_cards(doc, label)


def parse_cards(doc: Any, label: str = "cards file") -> CardTable:
    """Validate a decoded card document and build the table."""
    if not isinstance(doc, dict):
        raise CardFileError(f"{label}: the top level must be an object with 'sets' and 'cards'")
    for key in ("sets", "cards"):
        if key not in doc:
            raise CardFileError(f"{label}: missing top-level key {key!r}")
    set_names, set_sizes, set_frames = _parse_sets(doc["sets"], label)
    entries = doc["cards"]
    if not isinstance(entries, list) or not entries:
        raise CardFileError(f"{label}: 'cards' must be a non-empty list of card objects")
    columns: dict[str, list[Any]] = {f: [] for f in (*CARD_FIELDS, "text", "provenance", "params")}
    seen: dict[str, int] = {}
    for index, entry in enumerate(entries, 1):
        card = _parse_card(entry, index, label, set_names)
        where = f"{label}: card {index} ({card['name']!r})"
        key = name_key(card["name"])
        if key in seen:
            raise CardFileError(f"{where}: field 'name' repeats card {seen[key]} (case and spacing ignored); "
                                "names must be unique")
        seen[key] = index
        for key, value in card.items():
            columns[key].append(value)
    _check_totals(columns, label, set_names, set_sizes)
    type_codes = tuple(TYPES.index(t) for t in columns["type"])
    effects = tuple((a or {}).get("effect", "none") if a else "none" for a in columns["action"])
    return CardTable(
        names=tuple(columns["name"]),
        level=tuple(columns["level"]),
        copies=tuple(columns["copies"]),
        cost=tuple(columns["cost"]),
        gold=tuple(columns["gold"]),
        kind_type=type_codes,
        set_of=tuple(set_names.index(s) if s is not None else -1 for s in columns["set"]),
        vp=tuple(v or 0 for v in columns["vp"]),
        effect=effects,
        params=tuple(columns["params"]),
        text=tuple(columns["text"]),
        provenance=tuple(columns["provenance"]),
        set_names=set_names,
        set_sizes=set_sizes,
        set_frames=set_frames,
        per_player=tuple(c // STARTER_DECKS if t == STARTER else 0 for c, t in zip(columns["copies"], type_codes)),
        boat_kinds=tuple(k for k, e in enumerate(effects) if e == "boat"),
        ward_kinds=tuple(k for k, e in enumerate(effects) if e == "ward"),
        source=label,
    )


def _parse_sets(sets: Any, label: str) -> tuple[tuple[str, ...], tuple[int, ...], tuple[str, ...]]:
    if not isinstance(sets, dict) or not sets:
        raise CardFileError(f"{label}: 'sets' must be a non-empty object mapping set names to {{'size', 'frame'}}")
    names, sizes, frames = [], [], []
    for name, spec in sets.items():
        where = f"{label}: set {name!r}"
        if not isinstance(spec, dict):
            raise CardFileError(f"{where} must be an object with 'size' and 'frame'")
        extra = sorted(set(spec) - {"size", "frame"})
        if extra:
            raise CardFileError(f"{where}: unknown field(s) {', '.join(extra)}; allowed: size, frame")
        size = spec.get("size")
        if not _is_int(size) or not 1 <= size <= 20:
            raise CardFileError(f"{where}: field 'size' must be a whole number from 1 to 20, got {describe(size)}")
        frame = spec.get("frame", "")
        if not isinstance(frame, str):
            raise CardFileError(f"{where}: field 'frame' must be a string, got {describe(frame)}")
        if any(name_key(other) == name_key(name) for other in names):
            raise CardFileError(f"{where}: repeats a set name (case and spacing ignored)")
        names.append(name)
        sizes.append(size)
        frames.append(frame)
    return tuple(names), tuple(sizes), tuple(frames)


def _parse_card(entry: Any, index: int, label: str, set_names: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(entry, dict):
        raise CardFileError(f"{label}: card {index} must be an object, got {type(entry).__name__}")
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip():
        raise CardFileError(f"{label}: card {index}: field 'name' must be a non-empty string, got {describe(name)}")
    where = f"{label}: card {index} ({name!r})"
    missing = [f for f in CARD_FIELDS if f not in entry]
    if missing:
        raise CardFileError(f"{where}: missing field(s) {', '.join(missing)}")
    extra = sorted(set(entry) - set(CARD_FIELDS) - set(OPTIONAL_FIELDS))
    if extra:
        raise CardFileError(
            f"{where}: unknown field(s) {', '.join(extra)}; allowed: {', '.join(CARD_FIELDS + OPTIONAL_FIELDS)}"
        )
    level = entry["level"]
    if level not in (1, 2, 3) or not _is_int(level):
        raise CardFileError(f"{where}: field 'level' must be 1, 2 or 3, got {describe(level)}")
    copies = _number(entry, "copies", where, 1)
    cost = _number(entry, "cost", where, 0)
    gold = _number(entry, "gold", where, 0)
    kind = entry["type"]
    if kind not in TYPES:
        raise CardFileError(f"{where}: field 'type' must be one of {', '.join(TYPES)}, got {describe(kind)}")
    if (level == 1) != (kind == "starter"):
        raise CardFileError(f"{where}: field 'level' must be 1 exactly for starters (type {kind!r}, level {level})")
    set_name = entry["set"]
    if kind == "set":
        if set_name not in set_names:
            raise CardFileError(f"{where}: field 'set' must be one of {', '.join(set_names)}, got {describe(set_name)}")
    elif set_name is not None:
        raise CardFileError(f"{where}: field 'set' must be null for a {kind} card, got {describe(set_name)}")
    vp = entry["vp"]
    if kind == "set":
        if vp is not None:
            raise CardFileError(f"{where}: field 'vp' must be null for a set card (sets score by size), got {describe(vp)}")
    else:
        vp = _number(entry, "vp", where, 0)
    if kind == "starter" and copies % STARTER_DECKS:
        raise CardFileError(
            f"{where}: field 'copies' of a starter must be a multiple of {STARTER_DECKS} (one share per starter deck), "
            f"got {copies}"
        )
    params = _parse_action(entry["action"], where)
    text = entry.get("text", "")
    if not isinstance(text, str):
        raise CardFileError(f"{where}: field 'text' must be a string, got {describe(text)}")
    provenance = entry.get("provenance", {})
    if not isinstance(provenance, dict):
        raise CardFileError(
            f"{where}: field 'provenance' must be an object mapping field names to public/reconstructed"
        )
    for field, value in provenance.items():
        if field not in CARD_FIELDS:
            raise CardFileError(f"{where}: provenance names unknown field {field!r}; allowed: {', '.join(CARD_FIELDS)}")
        if value not in PROVENANCES:
            raise CardFileError(f"{where}: provenance of {field!r} must be 'public' or 'reconstructed', got {describe(value)}")
    _check_note(entry.get("note", {}), provenance, where)
    return {
        "name": name, "level": level, "copies": copies, "cost": cost, "gold": gold, "type": kind,
        "set": set_name, "vp": vp, "action": entry["action"], "text": text, "provenance": dict(provenance),
        "params": params,
    }


def _check_note(note: Any, provenance: dict[str, Any], where: str) -> None:
    """A note explains a reconstructed value, so it may only name fields marked reconstructed."""
    if not isinstance(note, dict):
        raise CardFileError(f"{where}: field 'note' must be an object mapping reconstructed field names to text")
    for field, text in note.items():
        if field not in CARD_FIELDS:
            raise CardFileError(f"{where}: note names unknown field {field!r}; allowed: {', '.join(CARD_FIELDS)}")
        if provenance.get(field) != "reconstructed":
            raise CardFileError(f"{where}: note on {field!r}, which provenance does not mark 'reconstructed'")
        if not isinstance(text, str) or not text.strip():
            raise CardFileError(f"{where}: note on {field!r} must be a non-empty string, got {text!r}")


def _parse_action(action: Any, where: str) -> dict[str, int]:
    if action is None:
        return {}
    if not isinstance(action, dict) or "effect" not in action:
        raise CardFileError(f"{where}: field 'action' must be null or an object with an 'effect' key, got {describe(action)}")
    effect = action["effect"]
    if not isinstance(effect, str) or effect not in EFFECT_PARAMS:
        raise CardFileError(
            f"{where}: field 'action': unknown effect {describe(effect)}; allowed: {', '.join(sorted(EFFECT_PARAMS))}"
        )
    spec = EFFECT_PARAMS[effect]
    given = {k: v for k, v in action.items() if k != "effect"}
    for key in sorted(set(spec) - set(given)):
        lo, hi = spec[key]
        raise CardFileError(f"{where}: field 'action': effect {effect!r} needs parameter {key!r} ({lo} to {hi})")
    for key in sorted(set(given) - set(spec)):
        allowed = ", ".join(spec) or "none"
        raise CardFileError(f"{where}: field 'action': effect {effect!r} has no parameter {key!r}; allowed: {allowed}")
    for key, value in given.items():
        lo, hi = spec[key]
        if not _is_int(value) or not lo <= value <= hi:
            raise CardFileError(
                f"{where}: field 'action': parameter {key!r} of {effect!r} must be a whole number from {lo} to {hi}, "
                f"got {describe(value)}"
            )
    return given


def _check_totals(
    columns: dict[str, list[Any]], label: str, set_names: tuple[str, ...], sizes: tuple[int, ...]
) -> None:
    for name, size in zip(set_names, sizes):
        members = [n for n, s in zip(columns["name"], columns["set"]) if s == name]
        if len(members) != size:
            raise CardFileError(
                f"{label}: set {name!r} has size {size} but {len(members)} different cards name it"
                f" ({', '.join(members) or 'none'}); the set size must equal its number of different cards"
            )
    if not any(t == "starter" for t in columns["type"]):
        raise CardFileError(f"{label}: at least one starter card (level 1) is needed for the starter decks")
    stock = sum(c for c, lv in zip(columns["copies"], columns["level"]) if lv > 1)
    if stock < 7:
        raise CardFileError(
            f"{label}: the level II and III cards total {stock} copies; at least 7 are needed "
            "(6 for the pyramid and 1 for the boneyard)"
        )


def _number(entry: dict[str, Any], field: str, where: str, lo: int) -> int:
    value = entry[field]
    if not _is_int(value) or not lo <= value <= MAX_NUMBER:
        raise CardFileError(f"{where}: field {field!r} must be a whole number from {lo} to {MAX_NUMBER}, got {describe(value)}")
    return value


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def build_help(table: CardTable) -> GameHelp:
    """The rules summary and one entry per card kind and per set, the texts from the built-in ``valley.json``, in the
    active language.

    The cards and sets are those of ``table`` (a user's card file included); a card
    without its own text is described by its action keyword.
    """
    texts = _help_texts()
    labels = {key: tr.term("label", value) for key, value in texts["labels"].items()}
    kinds = {key: tr.term("label", value) for key, value in texts["kinds"].items()}
    entries = []
    for kind in range(table.size):
        card_set = table.set_of[kind]
        params = table.params[kind]
        effect = table.effect[kind] + "".join(f" {key} {value}" for key, value in params.items())
        text = tr.term("text", table.text[kind]) if table.text[kind] else tr.term("help", texts["untold_action"]).format(
            effect=effect)
        numbers: list[tuple[str, Number]] = [
            (labels["level"], texts["levels"][str(table.level[kind])]),
            (labels["copies"], table.copies[kind]),
            (labels["cost"], table.cost[kind]),
            (labels["gold"], table.gold[kind]),
        ]
        if card_set >= 0:
            numbers.append((labels["set"], tr.term("set", table.set_names[card_set])))
        else:
            numbers += [(labels["type"], tr.term("label", TYPES[table.kind_type[kind]])), (labels["vp"], table.vp[kind])]
        name = table.names[kind]
        entries.append(HelpEntry(f"card:{_slug(name)}", tr.term("card", name), kinds["card"], text, tuple(numbers)))
    for index, name in enumerate(table.set_names):
        size = table.set_sizes[index]
        shown = tr.term("set", name)
        text = tr.term("help", texts["set_text"]).format(size=size, frame=tr.term("colour", table.set_frames[index]),
                                                         set=shown, full=size * size)
        members = sum(1 for s in table.set_of if s == index)
        entries.append(HelpEntry(f"set:{_slug(name)}_set", tr.term("help", texts["set_name"]).format(set=shown),
                                 kinds["set"], text, ((labels["cards"], members), (labels["most_vp"], size * size))))
    summary = "\n\n".join(tr.term("rules", paragraph) for paragraph in texts["summary"])
    guide = tuple(tr.term("guide", step) for step in texts["guide"])
    return GameHelp(summary, tuple(entries), ("card",), guide)


@functools.cache
def _help_texts() -> dict[str, Any]:
    """The help texts of the built-in ``valley.json`` (English: the message ids of their translations)."""
    texts: dict[str, Any] = read_json(BUILTIN_PATH, "valley.json")["help"]  # type: ignore[index]
    return texts


def terms() -> Iterator[tuple[str, str]]:
    """Every name and text of the built-in card file that a reader sees, with its kind: the terms of the game's
    message catalog (``tools/messages.py`` adds the game's name, description and options from its ``GameInfo``)."""
    table = load_cards()
    texts = _help_texts()
    for kind in range(table.size):
        yield "card", table.names[kind]
        if table.text[kind]:
            yield "text", table.text[kind]
    for index, name in enumerate(table.set_names):
        yield "set", name
        yield "colour", table.set_frames[index]
    for paragraph in texts["summary"]:
        yield "rules", paragraph
    for step in texts["guide"]:
        yield "guide", step
    for key in ("set_text", "set_name", "untold_action"):
        yield "help", texts[key]
    for value in (*texts["labels"].values(), *texts["kinds"].values(), *TYPES):
        yield "label", value


def _slug(name: str) -> str:
    return "_".join(name_key(name).split())
