"""The end screen of ``obelisk play``: who won and why, then places and readable category headings."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

import pytest

import obelisk
from obelisk.cli.play import _places, headline, ordinal, print_scores
from obelisk.core import State
from tests.cli.test_terminal import run
from tests.games.test_outcome import cleopatra_end, solomon_tie, tomb_end, valley_tie


@pytest.mark.parametrize("name,shown", [("scroll_sets", "Scroll sets"), ("coins", "Coins"),
                                        ("chamber_entry", "Chamber entry"), ("", "")])
def test_headings_are_readable(name: str, shown: str) -> None:
    assert obelisk.load("highcard", 2).score_heading(name) == shown


def test_ordinals() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"]


@pytest.mark.parametrize("places,shown", [
    ([1, 2], ["1st", "2nd"]),
    ([1, 1], ["=1st", "=1st"]),
    ([4, 1, 1, 3], ["4th", "=1st", "=1st", "3rd"]),
    ([1, 3, 3, 2], ["1st", "=3rd", "=3rd", "2nd"]),
])
def test_places_share_ties(places: list[int], shown: list[str]) -> None:
    assert _places(places) == shown


@pytest.mark.parametrize("outcome,viewer,lines", [
    ({"winners": [1], "places": [2, 1]}, None, ["Player 2 wins"]),
    ({"winners": [1], "places": [2, 1]}, 0, ["Player 2 wins", "You finished 2nd"]),
    ({"winners": [1], "places": [2, 1]}, 1, ["Player 2 wins", "You win"]),
    ({"winners": [0, 2], "places": [1, 3, 1]}, 2, ["Player 1 and player 3 share the win", "You share the win"]),
    ({"winners": [], "places": [1, 1]}, 0, ["Nobody wins", "You finished 1st"]),
])
def test_the_headline_names_the_winner_and_the_viewers_place(outcome: dict[str, list[int]], viewer: int | None,
                                                            lines: list[str]) -> None:
    assert headline(outcome, viewer) == lines


@pytest.mark.parametrize("make", [solomon_tie, valley_tie, lambda: tomb_end([1, 0]),
                                  lambda: cleopatra_end([9, 2, 4], [10, 20, 20])],
                         ids=["solomon", "valley", "tomb", "cleopatra"])
def test_the_end_screen_says_who_won_and_why_before_the_table(capsys: pytest.CaptureFixture[str],
                                                               make: Callable[[], State]) -> None:
    state = make()
    outcome = state.outcome()
    print_scores(state, [{"name": f"p{seat}", "kind": "random"} for seat in range(state.num_players)], viewer=0)
    out = capsys.readouterr().out
    before_table = " ".join(out[:out.index("final scores")].split())
    expected = headline(outcome, 0) + outcome["reasons"]
    assert before_table == " ".join(" ".join(expected).split())
    assert all(len(row) <= 80 for row in out.splitlines())


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
    assert re.search(r"player 1 +┃ player 2 +┃ player 3", screen)
    assert re.search(r"random +┃ +greedy +┃ +greedy", screen)
    for row in ("Place", "Coins", "Treasures", "Scrolls", "Curses", "Magic", "Total"):
        assert re.search(rf"│ {row} +│", screen), row
    places = re.search(r"│ Place +│(.*)│", screen)
    assert places and sorted(places.group(1).replace("│", " ").split()) == ["1st", "2nd", "3rd"]
    winner = [cell.strip() for cell in places.group(1).split("│")].index("1st")
    assert re.search(rf"^Player {winner + 1} wins$", out, re.MULTILINE)
    assert re.search(r"^Player \d won with \d+ points?\.$", out[:out.index("final scores")], re.MULTILINE)
