"""Data file validation, options, end conditions, observations, rendering and illegal-action messages."""

import json
from collections import Counter
from pathlib import Path

import pytest

import obelisk
from obelisk.core import IllegalActionError
from obelisk.core.testing import random_playout
from obelisk.games.tomb.actions import A_END, A_FOOD, A_ORIENT, A_SELECT, A_STEP, A_TORCH, SPACE
from obelisk.games.tomb.data import DATA_FILE
from obelisk.games.tomb.rules import OVER

from tests.games.tomb.helpers import figure, labels, new, play, turn

SHIPPED = json.loads(DATA_FILE.read_text())

BASIC_COLOURS = ("red", "blue", "green", "yellow", "purple")
"""The small pyramid's inscription colours, by the names the board draws them in."""


def _user_file(tmp_path: Path, tiles: list, **extra) -> str:
    path = tmp_path / "tiles.json"
    path.write_text(json.dumps({"tiles": tiles, **extra}))
    return str(path)


def _tiles() -> list:
    return json.loads(json.dumps(SHIPPED["tiles"]))


def test_shipped_data_has_48_basic_and_32_expansion_tiles() -> None:
    sets = [t["set"] for t in SHIPPED["tiles"]]
    assert sets.count("basic") == 48 and sets.count("expansion") == 32
    assert len(SHIPPED["outer_wall"]) == 32 and "tiles" in SHIPPED["provenance"]


def test_user_tile_list_is_loaded(tmp_path: Path) -> None:
    tiles = _tiles()
    tiles[12]["shape"] = "cross"
    game = obelisk.load("tomb", 2, data=_user_file(tmp_path, tiles))
    assert "B13" in [tid for k in game.tables.kinds if k.shape == "cross" for tid in k.tile_ids]
    assert game.tables.pool != obelisk.load("tomb", 2).tables.pool


@pytest.mark.parametrize(
    "change,message",
    [
        (lambda t: t[0].pop("shape"), "tile 'B01': field 'shape' is missing"),
        (lambda t: t[3].update(shape="hexagon"), "tile 'B04': field 'shape' must be one of dead_end, straight"),
        (lambda t: t[3].update(feature="gold"), "tile 'B04': field 'feature' must be one of plain"),
        (lambda t: t[6].update(detail="dragon"), "tile 'B07': field 'detail' of a basic obstacle tile must be one of"),
        (lambda t: t[4].update(detail="golden_key"), "a basic tile cannot use 'golden_key'"),
        (lambda t: t[6].update(detail="collapsed_walls"), "a basic tile cannot use 'magic_flask'"),
        (lambda t: t[1].update(id="B01"), "tile 'B01': id repeats tile #1"),
        (lambda t: t.pop(), "needs exactly 32 expansion tiles to fill the board, got 31"),
        (lambda t: t[0].update(detail="pink"), "detail' of a basic inscription tile must be one of red"),
        (lambda t: t[12].update(feature="plain", detail="x"), "field 'detail' is not allowed for a plain tile"),
        (lambda t: t[12].update(feature="chest"), "the chest is an expansion tile"),
        (lambda t: t[0].update(extra=1), "unknown field(s) 'extra'"),
        (lambda t: [x.update(feature="plain") or x.pop("detail") for x in t if x.get("detail") == "red"],
         "only 4 inscription colours"),
    ],
)
def test_bad_tile_lists_give_precise_errors(tmp_path: Path, change, message: str) -> None:
    tiles = _tiles()
    change(tiles)
    with pytest.raises(ValueError) as error:
        obelisk.load("tomb", 2, data=_user_file(tmp_path, tiles))
    assert message in str(error.value)


def test_bad_files_and_outer_walls(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="cannot be read"):
        obelisk.load("tomb", 2, data=str(tmp_path / "missing.json"))
    broken = tmp_path / "broken.json"
    broken.write_text("{tiles: ")
    with pytest.raises(ValueError, match="not valid JSON"):
        obelisk.load("tomb", 2, data=str(broken))
    with pytest.raises(ValueError, match="field 'tiles' is missing"):
        obelisk.load("tomb", 2, data=str(_write(tmp_path, {"cards": []})))
    wall = json.loads(json.dumps(SHIPPED["outer_wall"]))
    wall[1]["openings"] = "EWX"
    with pytest.raises(ValueError, match="outer_wall #2: openings must be a non-empty string"):
        obelisk.load("tomb", 2, data=_user_file(tmp_path, _tiles(), outer_wall=wall))
    wall = json.loads(json.dumps(SHIPPED["outer_wall"]))
    wall[0].pop("entrance")
    with pytest.raises(ValueError, match="corner square A1 must link its entrance"):
        obelisk.load("tomb", 2, data=_user_file(tmp_path, _tiles(), outer_wall=wall))
    with pytest.raises(ValueError, match="must describe all 32 squares; missing B1"):
        obelisk.load("tomb", 2, data=_user_file(tmp_path, _tiles(), outer_wall=SHIPPED["outer_wall"][:1]))


def _write(tmp_path: Path, doc: dict) -> Path:
    path = tmp_path / "other.json"
    path.write_text(json.dumps(doc))
    return path


def test_options_are_validated() -> None:
    with pytest.raises(ValueError, match="pyramid"):
        obelisk.load("tomb", 2, pyramid="huge")
    with pytest.raises(ValueError, match="max_rounds' must be an int from 1 to 1000000, got 0"):
        obelisk.load("tomb", 2, max_rounds=0)
    with pytest.raises(ValueError, match="max_rounds' must be an int from 1 to 1000000, got 1000001"):
        obelisk.load("tomb", 2, max_rounds=1_000_001)
    assert obelisk.load("tomb", 6, max_rounds=100_000).max_game_length() < 2**63
    with pytest.raises(ValueError, match="players must be from 2 to 6"):
        obelisk.load("tomb", 7)


def test_round_limit_ranks_by_inscriptions() -> None:
    s = new(3, max_rounds=1)
    s.insc = [0b1, 0b111, 0b1]
    for seat in range(3):
        turn(s, seat, 1)
        play(s, "enter at the north-west entrance")
    assert s.phase == OVER and s.returns() == [-0.5, 1.0, -0.5]
    assert s.scores()[1] == {"total": 3, "breakdown": {"inscriptions": 3, "items": 0, "chamber_entry": 0}}


@pytest.mark.parametrize("end,over_after", [("first", 1), ("decided", 2), ("last", 3)])
def test_end_option(end: str, over_after: int) -> None:
    s = new(3, end=end)
    s.chamber_open = True
    for seat in range(3):
        figure(s, seat, "D5")
    s.kind[39] = s.game.tables.kinds.index(next(k for k in s.game.tables.kinds if k.name == "cross"))
    s.pool[s.kind[39]] -= 1
    s.opn[39] = 15
    for seat in range(3):
        turn(s, seat, 1, "D5")
        play(s, "step east to E5")
        if len(s.finished) >= over_after:
            break
    assert s.phase == OVER and len(s.finished) == over_after


def test_random_games_terminate_within_the_bound_in_every_configuration(tmp_path: Path) -> None:
    walled = [dict(t, shape="dead_end") if t["set"] == "basic" and i % 3 == 0 else t for i, t in enumerate(_tiles())]
    for options in ({"pyramid": "big"}, {"pyramid": "big", "all_inscriptions": True}, {"end": "first"},
                    {"chamber_entry": "adjacent"}, {"data": _user_file(tmp_path, walled)}):
        game = obelisk.load("tomb", 4, **options)
        state = random_playout(game, 3)
        assert state.is_terminal() and len(state.history()) <= game.max_game_length()


def test_observation_and_rendering_show_public_state_only() -> None:
    s = new(2)
    figure(s, 1, "B1")
    turn(s, 0, 2)
    view = s.observation(0)
    assert view["turn"]["die"] == 2 and view["players"][1]["figures"] == ["B1", "reserve", "reserve"]
    assert view["face_down"] == 48 and sum(view["unrevealed"].values()) == 48
    text = s.game.render_observation(view)
    assert "Player 2 (b)" in text and "CHM" in text and "???" in text
    assert "Round 1:" in text and "of 300" not in text, "the technical round cap is no part of play, so the screen does not count toward it"
    assert text.splitlines()[2].startswith(" 1|     b "), "the figure letter is drawn on B1"
    json.dumps(view)
    assert "pool" not in view


def test_illegal_actions_explain_why_and_change_nothing() -> None:
    s = new(2)
    figure(s, 0, "A1")
    turn(s, 0, 3)
    before = s.to_json()
    for action, message in (
        (s.game.num_distinct_actions() + 3, "outside"),
        (1, "player 1 has no archaeologist on B1"),
    ):
        with pytest.raises(IllegalActionError, match=message):
            s.apply_action(action)
    for action, message in (
        (A_STEP, "first choose an archaeologist"),
        (A_FOOD, "does not hold the Food"),
        (A_ORIENT + 3, "only possible as a follow-up choice"),
        (A_TORCH, "first choose an archaeologist"),
    ):
        with pytest.raises(IllegalActionError, match=message):
            s.apply_action(action)
    assert s.to_json() == before
    play(s, "move the archaeologist on A1")
    with pytest.raises(IllegalActionError, match="movement is compulsory"):
        s.apply_action(A_END)
    with pytest.raises(IllegalActionError, match="already belongs to the archaeologist on A1"):
        s.apply_action(A_SELECT + 5)
    assert labels(s) == ["step east to B1", "step south to A2"]


def test_action_ids_stay_stable_and_the_optional_choices_come_last() -> None:
    """Taking a tile's item and declining an optional choice were added after the other ranges, so saved
    records keep their ids; the doc's action table lists these ranges."""
    assert [SPACE.start(name) for name in ("step", "map", "rob", "take", "decline")] == [90, 392, 556, 567, 568]
    assert obelisk.load("tomb", 4).num_distinct_actions() == SPACE.size == 569


OPENINGS = {"dead_end": 1, "straight": 2, "corner": 2, "t_junction": 3, "cross": 4}


def _basic(tiles: list[dict]) -> list[dict]:
    return [t for t in tiles if t["set"] == "basic"]


def test_default_mix_uses_every_shape_for_features_and_earlier_mixes_stay_loadable() -> None:
    """The stand-in mix puts inscriptions and items on corners, straights and junctions, not only on crosses;
    the map lies on a tile a figure can walk on from (more than one opening); the earlier mixes load with
    ``data=``."""
    basic = _basic(_tiles())
    assert {t["shape"] for t in basic if t["feature"] == "inscription"} == set(OPENINGS)
    assert {t["shape"] for t in basic if t["feature"] == "item"} >= {"dead_end", "straight", "corner", "t_junction", "cross"}
    assert all(OPENINGS[t["shape"]] >= 2 for t in basic if t["feature"] == "map")
    mean = sum(OPENINGS[t["shape"]] for t in basic) / len(basic)
    earlier = {}
    for name in ("tomb_narrow.json", "tomb_crossings.json", "tomb_rebalanced.json"):
        path = DATA_FILE.with_name(name)
        game = obelisk.load("tomb", 4, data=str(path))
        tiles = _basic(json.loads(path.read_text())["tiles"])
        earlier[name] = sum(OPENINGS[t["shape"]] for t in tiles) / len(tiles)
        assert sum(game.tables.pool) == 48 and "user file" in game.tables.provenance["tiles"]
    assert earlier["tomb_narrow.json"] < mean < earlier["tomb_crossings.json"]


def test_default_mix_has_two_tiles_per_basic_inscription_colour() -> None:
    """A colour is lost for good only when all its tiles end up in face-down squares that walls cut off (the
    small pyramid has no key, flask or papyrus); with one tile per colour that stopped about one game in five
    (docs: simulation), with two both must be cut off. The previous mix keeps one tile per colour."""
    count = Counter(t["detail"] for t in _basic(_tiles()) if t["feature"] == "inscription")
    assert count == {colour: 2 for colour in BASIC_COLOURS}
    previous = json.loads(DATA_FILE.with_name("tomb_rebalanced.json").read_text())["tiles"]
    assert Counter(t["detail"] for t in _basic(previous) if t["feature"] == "inscription") == {
        colour: 1 for colour in BASIC_COLOURS
    }
