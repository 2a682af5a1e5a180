"""The component data file: packaged stand-in data, a user's file, and precise validation errors."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Callable

import pytest

import obelisk
from obelisk.games.solomon import data as d

PACKAGED = json.loads(d.DEFAULT_DATA.read_text(encoding="utf-8"))


def test_packaged_data_matches_the_rulebook_counts() -> None:
    tables = d.load()
    assert sum(tables.gold) == 36 and sum(tables.dark) == 108
    total = [g + k for g, k in zip(tables.gold, tables.dark)]
    assert sum(total[k] for k in d.TREASURE_KINDS) == 55
    assert sum(total[k] for k in d.CURSE_KINDS) == 34
    assert sum(total[k] for k in d.SCROLL_KINDS) == 38
    assert sum(total[k] for k in d.MAGIC_KIND_IDS) == 17
    assert [c.number for c in tables.cards] == list(range(1, 33))
    assert all(3 <= c.size <= 6 for c in tables.cards)
    sizes = {c.number: c.size for c in tables.cards}
    assert (sizes[1], sizes[15], sizes[32]) == (3, 5, 6)  # the anchors known from the rulebook and a report
    assert all(sizes[a] <= sizes[b] for a, b in zip(range(1, 32), range(2, 33)))  # size grows with number


def test_packaged_data_has_provenance_for_every_field() -> None:
    for key in ("board", "backs", "type_totals", "value_distributions", "gold_dark_split", "cards"):
        entry = PACKAGED["provenance"][key]
        assert entry["confidence"] and entry["source"]


def _write(tmp_path: Path, doc: Any) -> str:
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


def test_a_users_file_is_loaded_through_the_data_option(tmp_path: Path) -> None:
    doc = copy.deepcopy(PACKAGED)
    doc["cards"][0]["cells"] = [[0, 0], [1, 1], [2, 2]]  # a diagonal card (8-connected)
    doc["tiles"]["gold"]["treasure"] = {"5": 14}
    game = obelisk.load("solomon", 2, data=_write(tmp_path, doc))
    assert game.tables.cards[0].cells == ((0, 0), (1, 1), (2, 2))
    assert game.tables.gold[d.TREASURE0 + 4] == 14 and game.tables.gold[d.TREASURE0] == 0
    state = game.new_initial_state(3)
    while state.is_chance_node():
        state.apply_action(state.sample_chance())
    assert state.current_player() == 0


def _mutate(change: Callable[[dict], None]) -> dict:
    doc = copy.deepcopy(PACKAGED)
    change(doc)
    return doc


BAD: list[tuple[str, Callable[[dict], None], str]] = [
    ("gold total", lambda doc: doc["tiles"]["gold"]["treasure"].update({"1": 4}),
     r"tiles\.gold: must hold exactly 36 tiles \(one per square of the 36 squares\), got 37"),
    ("dark total", lambda doc: doc["tiles"]["dark"]["curse"].update({"3": 7}),
     r"tiles\.dark: must hold exactly 108 tiles \(3 per square of the 36 squares\), got 107"),
    ("unknown value", lambda doc: doc["tiles"]["gold"]["treasure"].update({"6": 1}),
     r"tiles\.gold\.treasure: unknown key\(s\) '6'; allowed: 1, 2, 3, 4, 5"),
    ("unknown type", lambda doc: doc["tiles"]["dark"].update({"gem": {}}),
     r"tiles\.dark: unknown tile type\(s\) 'gem'; allowed: treasure, curse, scroll, magic"),
    ("negative", lambda doc: doc["tiles"]["dark"]["magic"].update({"seal": -1}),
     r"tiles\.dark\.magic\.seal: must be a whole number >= 0, got -1"),
    ("backs", lambda doc: doc["tiles"].pop("dark"),
     r"tiles: must be an object with exactly the backs 'gold' and 'dark'"),
    ("missing cards", lambda doc: doc.pop("cards"), r"<root>: missing field\(s\) cards"),
    ("few cards", lambda doc: doc.update(cards=doc["cards"][:24]), r"cards: must hold 25 to 99 cards .*got 24"),
    ("duplicate number", lambda doc: doc["cards"][4].update(number=1),
     r"cards\[4\]\.number: 1 is also the number of cards\[0\]; numbers must be unique"),
    ("bad number", lambda doc: doc["cards"][2].update(number="3"),
     r"cards\[2\]\.number: must be a whole number >= 1, got '3'"),
    ("two cells", lambda doc: doc["cards"][0].update(cells=[[0, 0], [0, 1]]),
     r"cards\[0\] \(card 1\)\.cells: must be a list of 3 to 6 \[row, column\] pairs, got 2"),
    ("bad cell", lambda doc: doc["cards"][1].update(cells=[[0, 0], [1, 0], [2]]),
     r"cards\[1\] \(card 2\)\.cells\[2\]: must be a \[row, column\] pair of whole numbers, got \[2\]"),
    ("repeat cell", lambda doc: doc["cards"][1].update(cells=[[0, 0], [1, 0], [1, 0]]),
     r"cards\[1\] \(card 2\)\.cells: lists the same square twice"),
    ("disconnected", lambda doc: doc["cards"][1].update(cells=[[0, 0], [1, 0], [3, 0]]),
     r"cards\[1\] \(card 2\)\.cells: squares must be connected orthogonally or diagonally"),
    ("extra field", lambda doc: doc["cards"][3].update(arrow="up"),
     r"cards\[3\]: unknown field\(s\) 'arrow'; allowed: number, name, cells, source"),
    ("format", lambda doc: doc.update(format="valley-cards"), r"format: must be 'obelisk-solomon-data'"),
]


@pytest.mark.parametrize("label,change,message", BAD, ids=[b[0] for b in BAD])
def test_malformed_data_gives_a_precise_error(tmp_path: Path, label: str, change: Callable, message: str) -> None:
    path = _write(tmp_path, _mutate(change))
    with pytest.raises(ValueError, match=message):
        obelisk.load("solomon", 2, data=path)


def test_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="cannot be read"):
        obelisk.load("solomon", 2, data=str(tmp_path / "missing.json"))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match="not valid JSON"):
        obelisk.load("solomon", 2, data=str(bad))


def test_option_values_are_checked() -> None:
    with pytest.raises(ValueError, match="'move_limit' must be an int from 0 to 36, got 37"):
        obelisk.load("solomon", 2, move_limit=37)
    with pytest.raises(ValueError, match="'move_limit' must be an int from 0 to 36, got -1"):
        obelisk.load("solomon", 2, move_limit=-1)
    with pytest.raises(ValueError, match="option 'unaffordable' must be one of 'penalty', 'forbid', got 'pay'"):
        obelisk.load("solomon", 2, unaffordable="pay")
    with pytest.raises(ValueError, match="option 'change' must be one of 'supply', 'unlimited'"):
        obelisk.load("solomon", 2, change="bank")
    with pytest.raises(ValueError, match="players must be from 2 to 5"):
        obelisk.load("solomon", 6)
