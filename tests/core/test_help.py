"""The rules-help lookup: exact names, keys, prefixes, accents and spacing, and one-line refusals."""

from __future__ import annotations

import pytest

from obelisk.core.help import GameHelp, HelpEntry, HelpLookupError, fold

HELP = GameHelp(
    "summary",
    (
        HelpEntry("card:shabti", "Shabti", "card", "No action.", (("cost", 1),)),
        HelpEntry("card:ankh", "Ankh Amulet", "card", "Return a card."),
        HelpEntry("card:djed", "Djed Amulet", "card", "Costs 2 less."),
        HelpEntry("tile:pole", "Kleopatřin pól", "tile", "A tile."),
        HelpEntry("set:amulet", "amulet set", "set", "Five amulets."),
    ),
    ("card",),
)


@pytest.mark.parametrize("typed, key", [
    ("Shabti", "card:shabti"),
    ("  shABTI ", "card:shabti"),
    ("card:djed", "card:djed"),
    ("djed", "card:djed"),
    ("POLE", "tile:pole"),
    ("ankh", "card:ankh"),
    ("amulet", "set:amulet"),
    ("kleopatrin pol", "tile:pole"),
    ("KLEOPATŘIN", "tile:pole"),
    ("djed   amulet", "card:djed"),
])
def test_a_name_is_found_whatever_its_case_accents_spacing_or_length(typed: str, key: str) -> None:
    assert HELP.find(typed).key == key


def test_an_ambiguous_prefix_names_every_candidate() -> None:
    with pytest.raises(HelpLookupError, match=r"^'a' could be Ankh Amulet, amulet set; type more of the name$"):
        HELP.find("a")


def test_a_misspelt_name_gets_a_did_you_mean() -> None:
    with pytest.raises(HelpLookupError, match=r"^nothing is called 'shabi'; did you mean Shabti\?$"):
        HELP.find("shabi")


@pytest.mark.parametrize("typed", ["zzz", "", "x" * 500])
def test_an_unknown_name_is_one_line_listing_the_names(typed: str) -> None:
    with pytest.raises(HelpLookupError) as error:
        HELP.find(typed)
    message = str(error.value)
    assert "\n" not in message and "Shabti" in message and len(message) < 300


def test_two_entries_may_not_share_a_name() -> None:
    with pytest.raises(ValueError, match="share the name"):
        GameHelp("s", (HelpEntry("card:a", "Scarab", "card", "x"), HelpEntry("tile:b", " SCARAB", "tile", "y")))


def test_fold_ignores_case_accents_and_spacing() -> None:
    assert fold("  Kleopatřin   PÓL ") == "kleopatrin pol"


def test_entries_serialise_for_the_browser() -> None:
    assert HELP.as_dict()["entries"][0] == {"key": "card:shabti", "name": "Shabti", "kind": "card",
                                           "text": "No action.", "numbers": {"cost": 1}}


def test_a_game_without_components_says_so() -> None:
    with pytest.raises(HelpLookupError, match="^this game has no components to look up$"):
        GameHelp("summary", ()).find("anything")


def test_a_game_keeps_its_description_as_help_until_it_explains_its_components() -> None:
    from tests.core.toy import HighCardGame

    game = HighCardGame(2)
    help = game.help()
    assert help.summary == game.info.description and help.entries == () and help.lookups == ()
