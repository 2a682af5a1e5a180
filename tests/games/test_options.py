"""Every option of every game speaks to players: a label, a name for each value, units, in English and Czech.

The lobby and the terminal show these texts instead of an option's id and raw values, so a missing one
would put ``spent_cards play_area`` back in front of a player.
"""

from __future__ import annotations

import re

import pytest

from obelisk.core import Option, game_class
from obelisk.core.i18n import domain, language, messages

GAMES = ["solomon", "tomb", "cleopatra", "valley"]
RAW_WORD = re.compile(r"[a-z]+_[a-z_]+|\bruling\b|'[a-z]+'")
"""What a player-facing text must not contain: an option id (``spent_cards``), a ruling reference, a quoted
raw value (``'opening'``)."""


def options(game: str) -> list[Option]:
    return list(game_class(game).info.options)


@pytest.mark.parametrize("game", GAMES)
def test_every_option_has_a_label_and_every_value_a_name(game: str) -> None:
    for option in options(game):
        assert option.label, f"{game}.{option.name} has no label"
        if option.allowed is not None:
            assert len(option.value_labels) == len(option.allowed), f"{game}.{option.name}: a value has no name"
            assert all(option.value_labels), f"{game}.{option.name}: an empty value name"
            assert len(set(option.value_labels)) == len(option.value_labels)
        elif type(option.default) in (int, float):
            assert option.unit and option.help, f"{game}.{option.name}: a number needs its unit and what 0 means"
        for text in option.texts():
            assert not RAW_WORD.search(text), f"{game}.{option.name}: {text!r} speaks in ids or rulings"


@pytest.mark.parametrize("game", GAMES)
def test_every_option_text_is_translated_into_czech(game: str) -> None:
    terms = messages(game, "cs")["terms"]
    for option in options(game):
        for text in option.texts():
            assert terms.get(f"option\u0004{text}"), f"{game}.{option.name}: {text!r} has no Czech"


@pytest.mark.parametrize("game", GAMES)
def test_the_worded_description_carries_every_text_in_the_readers_language(game: str) -> None:
    tr = domain(game)
    with language("cs"):
        worded = [o.to_dict(lambda text: tr.term("option", text)) for o in options(game)]
    for option, doc in zip(options(game), worded):
        english = option.to_dict()
        assert english["label"] == option.label and english["value_labels"] == list(option.value_labels)
        assert doc["name"] == option.name and doc["allowed"] == english["allowed"]
        assert doc["rare"] == option.rare
        assert len(doc["value_labels"]) == len(option.value_labels)
        assert doc["label"] == messages(game, "cs")["terms"][f"option\u0004{option.label}"]


def test_some_options_of_each_game_are_folded_and_the_first_choices_stay_in_view() -> None:
    assert all(any(o.rare for o in options(game)) for game in GAMES)
    assert [o.name for o in options("tomb") if not o.rare and o.allowed] == ["pyramid", "all_inscriptions", "end"]
    assert [o.name for o in options("solomon") if not o.rare and o.allowed] == ["uphill"]


def test_value_texts_must_match_the_allowed_values() -> None:
    with pytest.raises(ValueError, match="value_labels needs one text for each allowed value"):
        Option("side", "a", "a side", ("a", "b"), value_labels=("A",))
    with pytest.raises(ValueError, match="value_help needs one text for each allowed value"):
        Option("side", "a", "a side", ("a", "b"), value_labels=("A", "B"), value_help=("x", "y", "z"))
    with pytest.raises(ValueError, match="value_labels needs one text"):
        Option("turns", 3, "a count", bounds=(1, 5), value_labels=("three",))
    plain = Option("side", "a", "a side", ("a", "b"), label="Side", value_labels=("Left", "Right"))
    shouted = plain.to_dict(str.upper)
    assert (shouted["label"], shouted["value_labels"], shouted["help"]) == ("SIDE", ["LEFT", "RIGHT"], "")
