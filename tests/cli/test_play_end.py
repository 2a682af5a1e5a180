"""The end screen of ``obelisk play``: places, readable category headings, ties and tie-breaks."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from obelisk.cli.play import _places, _ties, heading, ordinal
from tests.cli.test_terminal import run


@pytest.mark.parametrize("name,shown", [("scroll_sets", "Scroll sets"), ("coins", "Coins"),
                                        ("chamber_entry", "Chamber entry"), ("", "")])
def test_headings_are_readable(name: str, shown: str) -> None:
    assert heading(name) == shown


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
    assert _ties(scores(5, 7, 3), ["2nd", "1st", "3rd"]) == []
    assert _ties(scores(7, 7, 3), ["=1st", "=1st", "3rd"]) == [
        "seat 0 and seat 1 tied on 7 points and share the 1st place"]
    assert _ties(scores(3, 7, 7, 1), ["3rd", "2nd", "1st", "4th"]) == [
        "seat 1 and seat 2 have 7 points each; the tie-break decided: seat 2 1st, seat 1 2nd"]


def test_the_end_screen_of_a_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "play", "solomon", "--seats", "random,greedy", "--seed", "2", "--save",
                       str(tmp_path / "g.json"))
    assert code == 0
    screen = out[out.index("final scores"):]
    assert re.search(r"seat 0 +┃ seat 1 +┃ seat 2", screen) and re.search(r"random +┃ greedy +┃ greedy", screen)
    for row in ("Place", "Coins", "Treasures", "Scrolls", "Curses", "Magic", "Total"):
        assert re.search(rf"│ {row} +│", screen), row
    places = re.search(r"│ Place +│(.*)│", screen)
    assert places and sorted(places.group(1).replace("│", " ").split()) == ["1st", "2nd", "3rd"]
