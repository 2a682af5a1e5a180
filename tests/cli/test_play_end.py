"""The end screen of ``obelisk play``: places, readable category headings, ties and tie-breaks."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Callable

import pytest

import obelisk
from obelisk.cli.play import _places, _ties, ordinal, print_scores
from obelisk.core import State
from obelisk.games.valley.data import SET
from tests.cli.test_terminal import run


@pytest.mark.parametrize("name,shown", [("scroll_sets", "Scroll sets"), ("coins", "Coins"),
                                        ("chamber_entry", "Chamber entry"), ("", "")])
def test_headings_are_readable(name: str, shown: str) -> None:
    assert obelisk.load("highcard", 2).score_heading(name) == shown


def test_ordinals() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"]


@pytest.mark.parametrize("returns,places", [
    ([1.0, -1.0], ["1st", "2nd"]),
    ([0.0, 0.0], ["=1st", "=1st"]),
    ([-1.0, 0.5, 0.5, -1 / 3], ["4th", "=1st", "=1st", "3rd"]),
    ([1.0, -0.5, -0.5, -0.0], ["1st", "=3rd", "=3rd", "2nd"]),
])
def test_places_share_ties(returns: list[float], places: list[str]) -> None:
    assert _places(returns) == places


def scores(*totals: int) -> list[dict[str, object]]:
    return [{"total": t, "breakdown": {}} for t in totals]


def test_tie_lines_say_tied_or_which_tie_break_decided() -> None:
    state = obelisk.load("highcard", 4).new_initial_state(1)  # a game that names no tie-break
    assert _ties(state, scores(5, 7, 3), ["2nd", "1st", "3rd"]) == []
    assert _ties(state, scores(7, 7, 3), ["=1st", "=1st", "3rd"]) == [
        "player 1 and player 2 tied on 7 points and share the 1st place"]
    assert _ties(state, scores(3, 7, 7, 1), ["3rd", "2nd", "1st", "4th"]) == [
        "player 2 and player 3 have 7 points each; the tie-break decided: player 3 1st,", "    player 2 2nd"]


def finished(game_id: str, players: int, **options: object) -> State:
    """The end of a seeded random game, whose results a test then rewrites into a tie."""
    state = obelisk.load(game_id, players, **options).new_initial_state(7)
    rng = random.Random(7)
    while not state.is_terminal():
        state.apply_action(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    return state


def solomon_tie() -> State:
    state = finished("solomon", 2, tiebreak="coins")
    treasure_2 = 1  # the kinds in data.py's order: treasures 1-5 first
    state.coins = [3, 5]
    state.tiles = [[0] * 16, [0] * 16]
    state.tiles[0][treasure_2] = 1
    return state


def valley_tie() -> State:
    state = finished("valley", 2, tiebreak="sets")
    table = state.rules.table
    by_set: dict[int, list[int]] = {}
    for kind in range(table.size):
        if table.kind_type[kind] == SET:
            by_set.setdefault(table.set_of[kind], []).append(kind)
    kinds = list(by_set.values())
    state.tombs = [[kinds[0][0], kinds[0][1]], [kinds[n][0] for n in range(4)]]  # 2 squared, or 1 + 1 + 1 + 1
    return state


def tomb_tie(finished_order: list[int], third: int = 0b11) -> State:
    state = finished("tomb", 3, max_rounds=2)
    state.insc = [0b11111, 0b11111, third]
    state.finished = finished_order
    return state


def cleopatra_tie(eaten: list[bool], amulets: list[int]) -> State:
    state = finished("cleopatra", 3, max_rounds=2)
    state.final = {"tainted_in_hand": [0, 0, 0], "sanctuary_relief": [0, 0, 0], "amulets": amulets,
                   "eaten": eaten, "merchant_bonus": [0, 0, 0], "talents": [20, 20, 9]}
    return state


@pytest.mark.parametrize("make,line", [
    (solomon_tie, "player 1 and player 2 have 5 points each; the tie-break (more coins left) decided: player 2 1st, "
                  "player 1 2nd"),
    (valley_tie, "player 1 and player 2 have 4 points each; the tie-break (more different sets begun in the tomb) "
                 "decided: player 2 1st, player 1 2nd"),
    (lambda: tomb_tie([1, 0]), "player 1 and player 2 have 5 points each; the tie-break (entered the burial chamber "
                               "first) decided: player 2 1st, player 1 2nd"),
    (lambda: tomb_tie([1]), "player 1 and player 2 have 5 points each; the tie-break (entered the burial chamber) "
                            "decided: player 2 1st, player 1 2nd"),
    (lambda: tomb_tie([2, 0], 0b11111), "player 1, player 2 and player 3 have 5 points each; the tie-break (entered the "
                                         "burial chamber first, then entered the burial chamber) decided: player 3 1st, "
                                         "player 1 2nd, player 2 3rd"),
    (lambda: cleopatra_tie([False, False, False], [4, 2, 0]),
     "player 1 and player 2 have 20 points each; the tie-break (fewer amulets) decided: player 2 1st, player 1 2nd"),
    (lambda: cleopatra_tie([True, False, False], [4, 4, 0]), "player 1 and player 2 have 20 points each; the tie-break "
                                                             "(not eaten by the crocodile) decided: player 2 1st, player 1 "
                                                             "3rd"),
], ids=["solomon", "valley", "tomb-first", "tomb-entered", "tomb-three", "cleopatra-amulets", "cleopatra-crocodile"])
def test_the_end_screen_names_the_rule_that_broke_a_tie(capsys: pytest.CaptureFixture[str],
                                                         make: Callable[[], State], line: str) -> None:
    state = make()
    assert state.is_terminal()
    print_scores(state, [{"name": f"p{seat}", "kind": "random"} for seat in range(state.num_players)])
    out = capsys.readouterr().out
    shown = out[out.index("player 1", out.index("└")):]
    assert " ".join(shown.split()) == line and all(len(row) <= 80 for row in shown.splitlines())


def test_a_tie_the_game_does_not_break_is_shared() -> None:
    state = solomon_tie()
    state.coins = [4, 4]
    state.tiles[0][1] = 0
    state.tiles[0][0] = 0
    assert [entry["total"] for entry in state.scores()] == [4, 4] and state.returns() == [0.0, 0.0]
    assert state.tie_break(0, 1) is None and state.tie_break(1, 0) is None


def test_the_end_screen_of_a_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "play", "solomon", "--seats", "random,greedy", "--seed", "2", "--save",
                       str(tmp_path / "g.json"))
    assert code == 0
    screen = out[out.index("final scores"):]
    assert re.search(r"player 1 +┃ +player 2 +┃ +player 3", screen) and re.search(r"random bot +┃ greedy bot +┃ greedy bot", screen)
    for row in ("Place", "Coins", "Treasures", "Scrolls", "Curses", "Magic", "Total"):
        assert re.search(rf"│ {row} +│", screen), row
    places = re.search(r"│ Place +│(.*)│", screen)
    assert places and sorted(places.group(1).replace("│", " ").split()) == ["1st", "2nd", "3rd"]
