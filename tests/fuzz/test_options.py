"""Malformed players and options at ``obelisk.load``: a one-line ``ValueError``, or a game within every bound."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import obelisk
from obelisk.core import registry
from tests.core.toy import HighCardGame
from tests.fuzz.common import FUZZ, GAME_IDS, json_scalars, one_line

values = json_scalars | st.sampled_from(["", " 7 ", "1e3", "nan", "inf", "-0", "True", "yes", "9" * 5000, "big"])


@pytest.mark.parametrize("game_id", GAME_IDS)
@FUZZ
@given(data=st.data())
def test_malformed_options(game_id: str, data: st.DataObject) -> None:
    info = registry.game_class(game_id).info
    names = st.sampled_from([o.name for o in info.options if o.name not in ("data", "cards")]) | st.text(max_size=8)
    options = data.draw(st.dictionaries(names, values, max_size=3), label="options")
    options = {name: value for name, value in options.items() if name not in ("data", "cards")}
    players = data.draw(st.none() | values | st.integers(info.min_players, info.max_players), label="players")
    try:
        game = obelisk.load(game_id, players, **options)
    except ValueError as error:
        one_line(error)
        return
    for option in info.options:
        value = game.options[option.name]
        assert type(value) is type(option.default)
        assert option.allowed is None or value in option.allowed
        assert option.bounds is None or option.bounds[0] <= value <= option.bounds[1]
    assert info.min_players <= game.num_players <= info.max_players
    assert 0 < game.max_game_length() < 2**63


def test_every_game_is_fuzzed() -> None:
    assert set(GAME_IDS) == {info.id for info in obelisk.list_games()} - {HighCardGame.info.id}
