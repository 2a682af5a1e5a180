"""Every game's data file refuses names equal up to case and spacing, deep nesting, huge numbers and huge files."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Callable

import pytest

import obelisk
from obelisk.core import datafiles
from obelisk.core.records import RecordError, read_record

GAMES = Path(obelisk.__file__).parent / "games"


def _solomon(doc: dict[str, Any]) -> tuple[dict[str, Any], str]:
    doc["cards"][1]["name"] = "  " + doc["cards"][0]["name"].upper() + " "
    return doc, r"cards\[1\]\.name: .* is also the name of card 1 \(case and spacing ignored\)"


def _cleopatra(doc: dict[str, Any]) -> tuple[dict[str, Any], str]:
    doc["cards"][1]["name"] = doc["cards"][0]["name"].swapcase() + "  "
    return doc, r"field 'name' .* is already used \(case and spacing ignored\)"


def _tomb(doc: dict[str, Any]) -> tuple[dict[str, Any], str]:
    tiles = doc["tiles"]
    tiles[1]["id"] = " " + tiles[0]["id"].lower()
    return {"tiles": tiles}, r"id repeats tile #1 \(case and spacing ignored\)"


def _valley(doc: dict[str, Any]) -> tuple[dict[str, Any], str]:
    doc["cards"][1]["name"] = doc["cards"][0]["name"].lower().replace(" ", "   ") + " "
    return doc, r"card 2 .*: field 'name' repeats card 1 \(case and spacing ignored\)"


CASES: dict[str, tuple[str, str, Callable[[dict[str, Any]], tuple[dict[str, Any], str]]]] = {
    "solomon": ("data", "solomon/solomon.json", _solomon),
    "cleopatra": ("data", "cleopatra/cleopatra.json", _cleopatra),
    "tomb": ("data", "tomb/tomb.json", _tomb),
    "valley": ("cards", "valley/valley.json", _valley),
}


def _load(game_id: str, path: Path) -> obelisk.Game:
    option, _, _ = CASES[game_id]
    return obelisk.load(game_id, **{option: str(path)})


@pytest.mark.parametrize("game_id", sorted(CASES))
def test_names_equal_up_to_case_and_spacing_are_refused(game_id: str, tmp_path: Path) -> None:
    _, shipped, rename = CASES[game_id]
    doc, message = rename(json.loads((GAMES / shipped).read_text(encoding="utf-8")))
    path = tmp_path / "data.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(ValueError, match=message) as caught:
        _load(game_id, path)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "is nested too deeply"),
        (b'{"cards": ' + b"[" * 70 + b"]" * 70 + b"}", "is nested too deeply"),
        (b'{"cards": [' + b"7" * 1000 + b"]}", "holds an integer of 1000 digits"),
        (b'{"cards": [1e999]}', "overflows a float"),
        (b'{"cards": [NaN]}', "NaN"),
        (b"\xff\xfe{}", "is not UTF-8 text"),
        (b" " * (datafiles.MAX_BYTES + 1), "is larger than 4 MB"),
        (b"{oops", "is not valid JSON"),
    ],
)
@pytest.mark.parametrize("game_id", sorted(CASES))
def test_malformed_json_is_one_line_naming_the_file(game_id: str, content: bytes, message: str,
                                                    tmp_path: Path) -> None:
    path = tmp_path / "bad data.json"
    path.write_bytes(content)
    with pytest.raises(ValueError, match=message) as caught:
        _load(game_id, path)
    text = str(caught.value)
    assert "\n" not in text and str(path) in text and len(text) < 300


def test_repeated_name_ignores_case_and_spacing() -> None:
    assert datafiles.repeated_name(["Scarab", "Ankh", " scarab "]) == (0, 2)
    assert datafiles.repeated_name(["Book of Gates", "book  of\tgates"]) == (0, 1)
    assert datafiles.repeated_name(["Scarab", "Scarabs"]) is None
    assert datafiles.name_key("  Ankh   Amulet ") == "ankh amulet"


def test_a_tomb_tile_field_of_the_wrong_type_is_refused(tmp_path: Path) -> None:
    tiles = json.loads((GAMES / "tomb/tomb.json").read_text(encoding="utf-8"))["tiles"]
    tiles[3]["shape"] = ["cross"]
    path = tmp_path / "tiles.json"
    path.write_text(json.dumps({"tiles": tiles}), encoding="utf-8")
    with pytest.raises(ValueError, match="tile 'B04': field 'shape' must be a string, got list"):
        obelisk.load("tomb", data=str(path))


def test_only_a_regular_file_is_read(tmp_path: Path) -> None:
    """A device never ends and a pipe may block: both are refused before anything is read."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for path, reason in (("/dev/zero", "is not a regular file"), (fifo, "is not a regular file"),
                         (tmp_path / "missing.json", "cannot be read")):
        with pytest.raises(ValueError, match=reason):
            datafiles.read_json(path, "data file")


def test_records_are_read_with_the_same_guards(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000)
    huge = tmp_path / "huge.json"
    huge.write_text('{"seed": ' + "9" * 5000 + "}")
    for path, reason in (("/dev/zero", "not a regular file"), (deep, "nested too deeply"), (huge, "digits")):
        with pytest.raises(RecordError, match=reason):
            read_record(path)
