"""The shipped component data, the data=FILE option and precise errors for malformed files."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

import obelisk
from obelisk.games.cleopatra.data import DEFAULT_PATH, DataError, build_tables, load_tables
from tests.games.cleopatra.helpers import do, labels, set_hand, start

DOC = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))


def test_shipped_data_matches_the_rulebook() -> None:
    t = load_tables()
    assert t.deck_size == 109  # 110 cards without the promo card
    assert sum(t.copies[:5]) == 75 and sum(t.copies[5:11]) == 23 and sum(t.copies[11:]) == 11
    assert t.costs["walls"] == (1, 1, 0, 1, 0) and t.costs["mosaics"] == (2, 1, 1, 0, 1)
    assert t.costs["throne"] == (3, 0, 2, 0, 2) and t.costs["obelisks"] == (3, 2, 0, 2, 0)
    assert t.costs["doors"] == (2, 0, 1, 1, 1) and t.costs["sphinxes"] == (2, 1, 1, 0, 0)
    assert t.pieces == {"walls": 9, "sphinxes": 6, "throne": 2, "obelisks": 2, "doors": 2, "mosaics": 12}
    assert bin(t.palm_mask).count("1") == 12 and bin(t.playable_mask).count("1") == 72
    assert all(len(cells) for cells in t.placements)
    for section in ("cards_provenance", "kit", "mosaics_provenance", "garden", "high_priest_dice"):
        entry = DOC[section]
        assert "source" in entry and "confidence" in entry, section


def test_shipped_data_and_doc_cite_only_published_sources() -> None:
    """Sources name the published rulebook (title, section) or the docs in this repository, never a file
    of some machine."""
    doc_text = (Path(__file__).resolve().parents[3] / "docs" / "games" / "cleopatra.md").read_text(encoding="utf-8")
    sources = []

    def walk(node) -> None:
        if isinstance(node, dict):
            sources.extend(v for k, v in node.items() if k == "source")
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(DOC)
    assert len(sources) >= 12
    for text in sources + [doc_text]:
        assert not re.search(r"(^|[\s(`])/(work|root|tmp|home)/|seeds/|shared/|\.txt\b", text), text[:200]
    assert all("Kleopatra & Společenství architektů" in s for s in sources if s.startswith("Czech rulebook"))


def test_data_option_loads_a_replacement_file(tmp_path) -> None:
    doc = copy.deepcopy(DOC)
    doc["garden"]["palms"] = []
    doc["categories"][5]["reward"]["base"] = 7
    path = tmp_path / "garden.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    s = start(data=str(path))
    s.stack_top, s.stack_rest = 1, [0]
    set_hand(s, 0, artisan=2, stone=1, marble=1, lapis=1)
    do(s, "build mosaic I")
    assert all(label.endswith("(+7)") for label in labels(s))


@pytest.mark.parametrize("edit,message", [
    (lambda d: d.pop("cards"), "the top level lacks field 'cards'"),
    (lambda d: d["cards"][0].update(kind="gold"), "cards[0] has unknown kind 'gold'; allowed kinds: artisan"),
    (lambda d: d["cards"][1].update(copies=-2), "card 'stone' field 'copies' must be a whole number >= 0, got -2"),
    (lambda d: d["cards"].pop(16), "cards lacks kind(s) vizier"),
    (lambda d: d["cards"][1].update(name="Artisan"), "card 'stone' field 'name' 'Artisan' is already used"),
    (lambda d: d["cards"][5].update(resource="wood"), "card 'tainted_artisan' field 'resource' must be 'artisan'"),
    (lambda d: d["categories"][0]["cost"].update(gold=1), "category 'walls' cost names unknown resource 'gold'"),
    (lambda d: d["categories"][1]["reward"].pop("even"), "category 'sphinxes' reward lacks field 'even'"),
    (lambda d: d["garden"]["palms"].append([9, 0]), "garden.palms[12] = [9, 0] lies outside the 9x9 garden"),
    (lambda d: d["garden"]["palms"].append([4, 4]), "garden.palms[12] = [4, 4] is a blocked cell"),
    (lambda d: d["garden"]["wall_slots"].pop(), "garden.wall_slots has 8 slots but category 'walls' has 9 pieces"),
    (lambda d: d["garden"]["doors"][0]["walk"].append("Q9"), "garden.doors[0].walk[9] = 'Q9' is not a wall slot id"),
    (lambda d: d["mosaics"][0].update(cells=[[0, 0], [0, 2]]), "mosaic 'F' cells must be orthogonally connected"),
    (lambda d: d["mosaics"].pop(), "mosaics lists 11 tiles but category 'mosaics' has 12 pieces"),
    (lambda d: d["kit"].update(talents="five"), "kit field 'talents' must be a whole number, got 'five'"),
    (lambda d: d["offering"].update(later_places_gain=[1, 2]), "offering.later_places_gain needs 4 entries"),
])
def test_malformed_data_is_refused_precisely(edit, message: str) -> None:
    doc = copy.deepcopy(DOC)
    edit(doc)
    with pytest.raises(DataError) as error:
        build_tables(doc)
    assert message in str(error.value)


def test_unreadable_or_invalid_file_through_the_option(tmp_path) -> None:
    with pytest.raises(ValueError, match="cannot be read"):
        obelisk.load("cleopatra", 3, data=str(tmp_path / "missing.json"))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match="is not valid JSON"):
        obelisk.load("cleopatra", 3, data=str(bad))


def test_options_are_validated() -> None:
    with pytest.raises(ValueError, match="offering_ties"):
        obelisk.load("cleopatra", 3, offering_ties="random")
    with pytest.raises(ValueError, match="players must be from 3 to 5"):
        obelisk.load("cleopatra", 2)
