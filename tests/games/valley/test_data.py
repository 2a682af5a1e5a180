"""The card data file: the built-in set keeps every public fact; user files load or fail precisely."""

from __future__ import annotations

import copy
import json
import string
from collections import Counter
from pathlib import Path

import pytest

import obelisk
from obelisk.games.valley.data import BUILTIN_PATH, CARD_FIELDS, EFFECT_PARAMS, load_cards, parse_cards
from obelisk.games.valley.effects import EFFECTS
from tests.games.valley.helpers import inconsistency

DOC = json.loads(BUILTIN_PATH.read_text())


def by_name(name: str) -> dict:
    return next(c for c in DOC["cards"] if c["name"] == name)


def test_the_box_holds_96_cards_in_the_public_proportions() -> None:
    cards = DOC["cards"]
    assert sum(c["copies"] for c in cards) == 96
    levels = Counter()
    for c in cards:
        levels[c["level"]] += c["copies"]
    assert levels == {1: 40, 2: 29, 3: 27}
    starters = {c["name"]: c["copies"] for c in cards if c["type"] == "starter"}
    assert starters == {"Shabti": 16, "Urn": 12, "Box of Food": 8, "Offering Table": 4}
    per_set = Counter()
    for c in cards:
        per_set[c["set"] or c["type"]] += c["copies"]
    assert per_set == {"starter": 40, "statue": 14, "book": 12, "amulet": 10, "canopic": 8, "sarcophagus": 6,
                       "unique": 6}
    sizes = {name: spec["size"] for name, spec in DOC["sets"].items()}
    assert sizes == {"sarcophagus": 3, "canopic": 4, "amulet": 5, "book": 6, "statue": 7}


def test_level_ii_is_cheaper_than_level_iii() -> None:
    ii = [c["cost"] for c in DOC["cards"] if c["level"] == 2]
    iii = [c["cost"] for c in DOC["cards"] if c["level"] == 3]
    assert sum(ii) / len(ii) < sum(iii) / len(iii)
    assert max(ii) <= min(iii) + 1


def test_known_facts_are_kept_and_marked_public() -> None:
    known_actions = {
        "Book of Gates": "reveal_execute",
        "Book of the Dead": "entomb_cheapest",
        "Book of the Earth": "sacrifice_take",
        "Book of the Heavens": "entomb_from_discard",
        "Book of the Netherworld": "take_stock",
        "Book of Traversing Eternity": "take_cheaper",
        "Qebehsenuef Canopic Jar": "opponents_sacrifice",
        "Statue of Thoth": "hand_gold",
        "Tyet Amulet": "repeat_action",
        "Boat": "boat",
    }
    for name, effect in known_actions.items():
        card = by_name(name)
        assert card["action"]["effect"] == effect
        assert card["provenance"]["name"] == "public" and card["provenance"]["action"] == "public"
    assert by_name("Book of the Earth")["action"]["factor"] == 2
    assert by_name("Book of the Heavens")["action"]["min_discard"] == 5
    assert by_name("Statue of Thoth")["action"]["value"] == 4
    assert by_name("Censer")["type"] == "unique" and by_name("Censer")["provenance"]["name"] == "public"
    for starter in ("Shabti", "Urn", "Box of Food", "Offering Table"):
        assert by_name(starter)["vp"] == 1 and by_name(starter)["provenance"]["vp"] == "public"
    # the tribute action is public; it sits on a card the public references do not name
    tribute = [c for c in DOC["cards"] if c["action"] and c["action"]["effect"] == "tribute"]
    assert len(tribute) == 1 and tribute[0]["action"]["exempt_at_most"] == 5
    assert "Book of Traversing Eternity" < tribute[0]["name"] < "Statue of Thoth"
    # some card returns a card from the tomb
    assert any(c["action"] and c["action"]["effect"] == "retrieve_from_tomb" for c in DOC["cards"])


def test_every_field_has_a_provenance_and_costs_are_reconstructed() -> None:
    for card in DOC["cards"]:
        assert set(card["provenance"]) == set(CARD_FIELDS), card["name"]
        assert set(card["provenance"].values()) <= {"public", "reconstructed"}
        assert card["provenance"]["cost"] == "reconstructed"
        assert card["provenance"]["gold"] == "reconstructed"
        if card["level"] > 1:
            assert card["provenance"]["level"] == "reconstructed"


def test_every_reconstructed_value_has_a_note() -> None:
    for card in DOC["cards"]:
        reconstructed = {f for f, p in card["provenance"].items() if p == "reconstructed"}
        assert set(card["note"]) == reconstructed, card["name"]
        assert all(card["note"][f].startswith(("invented", "inferred", "follows", "the ")) for f in reconstructed)


def test_inferred_copies_and_unique_types_are_reconstructed() -> None:
    """The box lists cards per set and 6 uniques; copies per card and which named cards are unique are inferred."""
    for card in DOC["cards"]:
        if card["type"] != "starter":
            assert card["provenance"]["copies"] == "reconstructed", card["name"]
    for name in ("Boat", "Censer"):
        assert by_name(name)["provenance"]["type"] == "reconstructed"
        assert by_name(name)["note"]["type"].startswith("inferred")


def test_shipped_data_cites_nothing_outside_the_repository() -> None:
    text = json.dumps(DOC)
    for word in ("shared/", "seeds/", ".txt", "/work", "/root", "/tmp", "docslib", "http"):
        assert word not in text, word


def test_every_effect_of_the_vocabulary_is_used() -> None:
    used = {c["action"]["effect"] for c in DOC["cards"] if c["action"]}
    assert used == set(EFFECT_PARAMS) - {"none"}


def test_the_effect_handlers_are_exactly_the_keywords_a_card_file_may_name() -> None:
    """The card file is validated against ``EFFECT_PARAMS``, so every keyword there needs its handlers."""
    assert set(EFFECTS) == set(EFFECT_PARAMS)
    for name, effect in EFFECTS.items():
        assert effect.name == name
        placeholders = {field for _, field, _, _ in string.Formatter().parse(effect.summary) if field}
        assert placeholders <= set(EFFECT_PARAMS[name]), name  # the text may leave a parameter out
        assert (effect.check is not None) == (effect.start is not None) == effect.own_turn, name


def test_an_always_possible_action_is_offered_without_a_check() -> None:
    rules = obelisk.load("valley", 2).rules
    unchecked = {rules.effects[k].name for k in rules.kind_ids if rules.play_checks[k] is True}
    assert unchecked == {"draw", "draw_topdeck", "discount", "hand_gold"}


def test_no_placeholder_names() -> None:
    for card in DOC["cards"]:
        assert "unidentified" not in card["name"].lower() and card["text"]


# User card files -------------------------------------------------------------------------------


def _write(tmp_path: Path, doc: object) -> str:
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(doc) if not isinstance(doc, str) else doc)
    return str(path)


def _mutated(change) -> dict:
    doc = copy.deepcopy(DOC)
    change(doc)
    return doc


def test_a_corrected_card_file_is_used(tmp_path: Path) -> None:
    def cheaper_gates(doc: dict) -> None:
        next(c for c in doc["cards"] if c["name"] == "Book of Gates")["cost"] = 1

    path = _write(tmp_path, _mutated(cheaper_gates))
    game = obelisk.load("valley", 2, cards=path)
    assert game.table.cost[game.table.names.index("Book of Gates")] == 1
    assert game.options["cards"] == path
    state = game.new_initial_state(0)
    assert state.game.table is game.table


def _set(name: str, field: str, value):
    def change(doc: dict) -> None:
        next(c for c in doc["cards"] if c["name"] == name)[field] = value

    return change


def _delete(name: str, field: str):
    def change(doc: dict) -> None:
        del next(c for c in doc["cards"] if c["name"] == name)[field]

    return change


BAD_FILES = [
    (_set("Book of Gates", "cost", "three"),
      r"card 5 \('Book of Gates'\): field 'cost' must be a whole number from 0 to 99, got 'three'"),
    (_set("Urn", "gold", -1), r"card 2 \('Urn'\): field 'gold' must be a whole number from 0 to 99, got -1"),
    (_delete("Boat", "level"), r"\('Boat'\): missing field\(s\) level"),
    (_set("Boat", "colour", "red"), r"\('Boat'\): unknown field\(s\) colour; allowed: name, level"),
    (_set("Boat", "level", 4), r"\('Boat'\): field 'level' must be 1, 2 or 3, got 4"),
    (_set("Boat", "level", 1), r"\('Boat'\): field 'level' must be 1 exactly for starters"),
    (_set("Boat", "type", "relic"), r"\('Boat'\): field 'type' must be one of starter, set, unique, got 'relic'"),
    (_set("Book of Gates", "set", "scroll"),
      r"field 'set' must be one of sarcophagus, canopic, amulet, book, statue, got 'scroll'"),
    (_set("Boat", "set", "book"), r"\('Boat'\): field 'set' must be null for a unique card"),
    (_set("Book of Gates", "vp", 3), r"field 'vp' must be null for a set card"),
    (_set("Shabti", "copies", 15), r"\('Shabti'\): field 'copies' of a starter must be a multiple of 4"),
    (_set("Book of Gates", "action", {"effect": "teleport"}), r"unknown effect 'teleport'; allowed: boat, discount"),
    (_set("Book of Gates", "action", {"effect": ["draw"]}), r"unknown effect \['draw'\]; allowed: boat, discount"),
    (_set("Book of Gates", "action", "draw"), r"field 'action' must be null or an object with an 'effect' key"),
    (_set("Box of Food", "action", {"effect": "draw"}), r"effect 'draw' needs parameter 'count' \(1 to 9\)"),
    (_set("Box of Food", "action", {"effect": "draw", "count": 1, "cards": 2}),
      r"effect 'draw' has no parameter 'cards'; allowed: count"),
    (_set("Box of Food", "action", {"effect": "draw", "count": 0}),
      r"parameter 'count' of 'draw' must be a whole number from 1 to 9, got 0"),
    (_set("Urn", "name", "Shabti"), r"card 2 \('Shabti'\): field 'name' repeats card 1"),
    (_set("Urn", "name", ""), r"card 2: field 'name' must be a non-empty string"),
    (_set("Urn", "provenance", {"cost": "guessed"}),
      r"provenance of 'cost' must be 'public' or 'reconstructed', got 'guessed'"),
    (_set("Urn", "note", "designed"), r"\('Urn'\): field 'note' must be an object mapping reconstructed field names"),
    (_set("Urn", "note", {"colour": "designed"}), r"\('Urn'\): note names unknown field 'colour'; allowed: name, level"),
    (_set("Urn", "note", {"copies": "guessed"}),
      r"\('Urn'\): note on 'copies', which provenance does not mark 'reconstructed'"),
    (_set("Urn", "note", {"cost": " "}), r"\('Urn'\): note on 'cost' must be a non-empty string, got ' '"),
    (_set("Statue of Horus", "set", "book"), r"set 'book' has size 6 but 7 different cards name it"),
    (lambda doc: doc.pop("sets"), r"missing top-level key 'sets'"),
    (lambda doc: doc["sets"]["book"].update(size=0), r"set 'book': field 'size' must be a whole number from 1 to 20"),
    (lambda doc: doc.update(cards=[c for c in doc["cards"] if c["level"] == 1]), r"set 'sarcophagus' has size 3 but 0"),
]


@pytest.mark.parametrize("change,message", BAD_FILES)
def test_malformed_card_files_give_precise_errors(tmp_path: Path, change, message: str) -> None:
    path = _write(tmp_path, _mutated(change))
    with pytest.raises(ValueError, match=message):
        obelisk.load("valley", 2, cards=path)


def test_unreadable_and_invalid_json_files(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="cannot be read"):
        load_cards(str(tmp_path / "missing.json"))
    path = _write(tmp_path, '{"sets": {}, "cards": [}')
    with pytest.raises(ValueError, match=r"is not valid JSON: .* line 1 column"):
        load_cards(path)
    with pytest.raises(ValueError, match="top level must be an object"):
        parse_cards([1, 2])


def test_too_few_stock_cards() -> None:
    doc = {
        "sets": {"book": {"size": 1, "frame": "green"}},
        "cards": [
            {"name": "Shabti", "level": 1, "copies": 4, "cost": 1, "gold": 1, "type": "starter", "set": None, "vp": 1,
             "action": None},
            {"name": "Book", "level": 2, "copies": 3, "cost": 1, "gold": 1, "type": "set", "set": "book", "vp": None,
             "action": None},
        ],
    }
    with pytest.raises(ValueError, match="total 3 copies; at least 7 are needed"):
        parse_cards(doc)
    doc["cards"][1]["copies"] = 7
    table = parse_cards(doc)
    assert table.stock_total() == 7


def test_a_small_user_card_set_plays_to_the_end(tmp_path: Path) -> None:
    from obelisk.core import testing

    doc = {
        "sets": {"book": {"size": 2, "frame": "green"}},
        "cards": [
            {"name": "Shabti", "level": 1, "copies": 8, "cost": 1, "gold": 1, "type": "starter", "set": None, "vp": 1,
             "action": None},
            {"name": "Book A", "level": 2, "copies": 4, "cost": 2, "gold": 1, "type": "set", "set": "book", "vp": None,
             "action": {"effect": "reveal_execute"}},
            {"name": "Book B", "level": 3, "copies": 4, "cost": 3, "gold": 2, "type": "set", "set": "book", "vp": None,
             "action": {"effect": "repeat_action"}},
            {"name": "Boat", "level": 3, "copies": 2, "cost": 3, "gold": 1, "type": "unique", "set": None, "vp": 2,
             "action": {"effect": "boat"}},
        ],
    }
    path = _write(tmp_path, doc)
    game = obelisk.load("valley", 3, cards=path)
    assert game.num_distinct_actions() == game.actions.size
    for seed in range(5):
        state = testing.random_playout(game, seed)
        assert state.is_terminal() and inconsistency(state) is None
