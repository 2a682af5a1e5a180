"""Every game's rules help: a summary, every entry with text and its numbers, every name found again."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path
from types import ModuleType

import pytest

import obelisk
from obelisk import games
from obelisk.core import i18n
from obelisk.core.help import fold
from obelisk.core.protocol import Game

GAMES = games.shipped()


def test_every_shipped_game_has_its_own_help() -> None:
    assert _docs_tool().shipped_games() == GAMES
    for game_id in GAMES:
        assert type(obelisk.load(game_id)).help is not Game.help, game_id


@pytest.mark.parametrize("game_id", GAMES)
def test_every_entry_has_text_and_is_found_by_its_name(game_id: str) -> None:
    help = obelisk.load(game_id).help()
    assert len(help.summary) > 300 and help.lookups
    assert help.entries
    for entry in help.entries:
        assert entry.text.strip() and entry.name.strip() and entry.kind, entry.key
        assert "{" not in entry.text, entry.key
        assert help.find(entry.name) is entry
        assert help.find(entry.key) is entry
        assert help.find(fold(entry.name).upper()) is entry


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_has_a_first_game_guide_in_both_languages(game_id: str) -> None:
    game = obelisk.load(game_id)
    english = game.help().guide
    with i18n.language("cs"):
        czech = game.help().guide
    assert 3 <= len(english) <= 5 and len(czech) == len(english)
    assert english[0].startswith("Goal: ") and czech[0].startswith("Cíl: ")
    assert any(step.startswith("Tip: ") for step in english) and any(step.startswith("Tip: ") for step in czech)
    for step, translated in zip(english, czech):
        assert 40 <= len(step) <= 300 and "{" not in step and step.endswith(".")
        assert translated != step and "{" not in translated and translated.endswith(".")
    assert game.help().as_dict()["guide"] == list(english)


def test_the_tomb_guide_counts_the_inscriptions_of_the_chosen_pyramid() -> None:
    assert "read 5 different inscriptions" in obelisk.load("tomb").help().guide[0]
    assert "read 7 different inscriptions" in obelisk.load("tomb", pyramid="big", all_inscriptions=True).help().guide[0]


def test_valley_cards_show_the_numbers_of_the_data_file() -> None:
    game = obelisk.load("valley")
    help = game.help()
    table = game.table
    kind = table.names.index("Statue of Anubis")
    entry = help.find("statue of anu")
    assert entry.text == table.text[kind]
    assert dict(entry.numbers) == {"level": "II", "copies": table.copies[kind], "cost": table.cost[kind],
                                   "gold": table.gold[kind], "set": "statue"}
    assert dict(help.find("shabti").numbers)["VP"] == 1
    assert help.find("book set").text.endswith("all 6 score 36.")
    assert {e.name for e in help.entries if e.kind in ("card", "starter card", "unique card")} == set(table.names)
    assert help.find("shabti").kind == "starter card" and help.find("boat").kind == "unique card"


def test_valley_card_file_without_texts_describes_the_actions(tmp_path: Path) -> None:
    from obelisk.games.valley.data import BUILTIN_PATH

    doc = json.loads(BUILTIN_PATH.read_text(encoding="utf-8"))
    for card in doc["cards"]:
        card.pop("text", None)
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    help = obelisk.load("valley", 2, cards=str(path)).help()
    assert help.find("Statue of Anubis").text == "The card file gives no text; its action is draw count 2."


def test_tomb_counts_the_tiles_and_items_of_the_chosen_pyramid() -> None:
    small, big = obelisk.load("tomb").help(), obelisk.load("tomb", pyramid="big").help()
    flask = dict(small.find("magic flask").numbers)
    assert flask["in play"] == "no" and flask["tiles"] == 0 and flask["protects against"] == "Collapsed walls"
    assert dict(big.find("magic flask").numbers)["in play"] == "yes"
    assert dict(small.find("snake").numbers) == {"map code": "snk", "effect": "kills", "protection": "Torch",
                                                 "tiles": 2}
    game = obelisk.load("tomb")
    assert sum(n for e in small.entries for label, n in e.numbers if label == "tiles") == sum(game.tables.pool)
    assert dict(small.find("ancient").numbers)["needed"] == 5
    assert small.find("Money").key == "item:money" and small.find("map").kind == "tile"


def test_solomon_cards_are_drawn_and_tiles_counted() -> None:
    game = obelisk.load("solomon")
    help = game.help()
    card = help.find("card 3")
    assert card is help.find("3") and dict(card.numbers) == {"number": 3, "squares": 3, "shape": "L3-a"}
    assert card.text.endswith("\n^ entrance\n#.\n##")
    treasure = dict(help.find("treasure").numbers)
    assert treasure["gold backs"] + treasure["dark backs"] == sum(game.tables.gold[:5]) + sum(game.tables.dark[:5])
    assert help.find("mirror").name == "Mirror of the Queen of Sheba" and help.find("seal").kind == "magic item"
    assert len([e for e in help.entries if e.kind == "card"]) == len(game.tables.cards)


def test_cleopatra_pieces_show_costs_and_rewards_of_the_data() -> None:
    game = obelisk.load("cleopatra", 3)
    help = game.help()
    sphinx = help.find("sphinx")
    assert dict(sphinx.numbers) == {"pieces": 6, "cost": "2 artisan, 1 stone, 1 marble", "1st, 3rd, 5th": 2,
                                     "2nd, 4th, 6th": 5}
    assert "the 1st, 3rd and 5th sphinx earn 2 talents, the 2nd, 4th and 6th 5." in sphinx.text
    tainted = help.find("tainted st")
    assert tainted.kind == "tainted card" and "pays 2 units of stone" in tainted.text
    assert dict(help.find("vizier").numbers) == {"copies": 1, "amulets per card": 1}
    assert "worth 3 talents" in help.find("nile").text
    assert {e.name for e in help.entries if e.key.startswith("card:")} == set(game.tables.names)


def _docs_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("help_docs", Path(__file__).resolve().parents[2] / "tools" / "help_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_components_sections_of_the_docs_are_generated_from_the_data() -> None:
    assert _docs_tool().main(["--check"]) == 0


@pytest.mark.parametrize("game_id", GAMES)
def test_the_docs_list_every_entry(game_id: str) -> None:
    tool = _docs_tool()
    help = obelisk.load(game_id).help()
    doc = (Path(__file__).resolve().parents[2] / "docs" / "games" / f"{game_id}.md").read_text(encoding="utf-8")
    written = doc[doc.index("\n## Components\n") + 1:]
    written = written[: written.index("\n## ") + 1]
    assert written == tool.section(game_id, help)
    for entry in help.entries:
        assert f"- **{entry.name}**" in written


def test_the_docs_tool_replaces_a_stale_section_and_adds_a_missing_one() -> None:
    tool = _docs_tool()
    new = "## Components\n\nfresh\n\n"
    stale = "# Game\n\n## Rules\n\nr\n\n## Components\n\nold\n\n## Data\n\nc\n"
    assert tool.updated(stale, new) == "# Game\n\n## Rules\n\nr\n\n## Components\n\nfresh\n\n## Data\n\nc\n"
    missing = "# Game\n\n## Rules\n\nr\n\n## Data\n\nc\n"
    assert tool.updated(missing, new) == tool.updated(stale, new)
    assert tool.updated(tool.updated(stale, new), new) == tool.updated(stale, new)


def test_the_docs_check_fails_on_a_stale_section_and_the_tool_repairs_it(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    tool = _docs_tool()
    root = Path(__file__).resolve().parents[2]
    shutil.copytree(root / "docs" / "games", tmp_path / "docs" / "games")
    for game_id in GAMES:
        (tmp_path / "obelisk" / "games" / game_id).mkdir(parents=True)
        (tmp_path / "obelisk" / "games" / game_id / "game.py").touch()
    monkeypatch.setattr(tool, "ROOT", tmp_path)
    doc = tmp_path / "docs" / "games" / "tomb.md"
    stale = doc.read_text(encoding="utf-8").replace("- **Snake** (map code snk", "- **Snake** (map code xxx")
    doc.write_text(stale, encoding="utf-8")
    assert tool.main(["--check"]) == 1 and doc.read_text(encoding="utf-8") == stale
    assert tool.main([]) == 0 and tool.main(["--check"]) == 0
    assert doc.read_text(encoding="utf-8") == (root / "docs" / "games" / "tomb.md").read_text(encoding="utf-8")
