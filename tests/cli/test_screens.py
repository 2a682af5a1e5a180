"""Every terminal screen of seeded random games, from every seat: 80 columns, words instead of identifiers.

A screen is what ``obelisk play`` prints for one decision: the seat's view drawn by the game and
the numbered options in columns. Games whose doc promises a screen of at most 24 lines are held to it.
"""

from __future__ import annotations

import random
import re
import statistics
from pathlib import Path
from typing import Iterator

import pytest

import obelisk
from obelisk.cli.play import option_lines
from obelisk.core import CHANCE
from obelisk.core.text import beside, counted, readable, words, wrapped
from tests.cli.test_terminal import keyboard, run

CASES = {  # game id: (players, seed, options) of the games played
    "solomon": [(2, 1, {}), (3, 2, {}), (5, 3, {})],
    "valley": [(2, 1, {}), (3, 2, {}), (4, 3, {})],
    "cleopatra": [(3, 1, {}), (4, 2, {}), (5, 3, {})],
    "tomb": [(2, 1, {"max_rounds": 40}), (3, 2, {}), (6, 3, {"max_rounds": 30}), (4, 4, {"pyramid": "big"})],
}
MEDIAN_LINES = {
    "solomon": {2: 31, 3: 30, 5: 32},
    "valley": {2: 24, 3: 24, 4: 24},
    "cleopatra": {3: 27, 4: 27, 5: 29},
    "tomb": {2: 24, 3: 24, 6: 29, 4: 29},
}
"""The most lines (view, options and the rule and prompt around them) of the median decision's whole screen,
by game and number of players, as measured in ``CASES`` (docs/play.md says why some games are taller)."""
IDENTIFIER = re.compile(r"\b[a-z]+_[a-z0-9_]+\b")
REPR = re.compile(r"[\[\]{}]")
ONE_OF_MANY = re.compile(r"(?<!seat )(?<!player )(?<!card )(?<![\d.])\b1 (?!lapis\b)[a-z]*[a-rt-z]s\b")


def screens(game_id: str, players: int, seed: int, options: dict) -> Iterator[tuple[str, str]]:
    """The screen of every decision of a random game for the seat deciding (and the one line of a step that
    follows the seat's previous one, and the end), each with what it is."""
    game = obelisk.load(game_id, players, **options)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        actor = state.current_player()
        if actor == CHANCE:
            state.apply_action(state.sample_chance())
            continue
        view = state.observation(actor)
        labels = [label for _, label in view["legal_actions"]]
        yield "decision", "\n".join([game.render_observation(view), *option_lines(labels)])
        brief = game.render_brief(view)
        if brief:
            yield "brief", brief
        state.apply_action(rng.choice(state.legal_actions()))
    yield "end", game.render_observation(state.observation(None))


@pytest.mark.parametrize("game_id,players,seed,options",
                         [(g, *case) for g, cases in CASES.items() for case in cases])
def test_screens_fit_and_speak_words(game_id: str, players: int, seed: int, options: dict) -> None:
    heights = []
    for kind, screen in screens(game_id, players, seed, options):
        lines = screen.split("\n")
        for line in lines:
            assert len(line) <= 80, f"too wide:\n{line}"
            for pattern in (IDENTIFIER, REPR, ONE_OF_MANY):
                assert not pattern.search(line), f"{pattern.pattern!r} in:\n{line}"
        if kind == "decision":
            heights.append(len(lines) + 2)
    assert statistics.median(heights) <= MEDIAN_LINES[game_id][players]


@pytest.mark.parametrize("game_id", sorted(CASES))
def test_every_legend_fits_80_columns(game_id: str) -> None:
    game = obelisk.load(game_id)
    state = game.new_initial_state(1)
    while state.current_player() == CHANCE:
        state.apply_action(state.sample_chance())
    legend = game.render_legend(state.observation(state.current_player()))
    assert legend and [line for line in legend.split("\n") if len(line) > 80] == []


def test_options_go_in_columns_numbered_down() -> None:
    lines = option_lines([f"move {n}" for n in range(1, 21)])
    assert len(lines) < 20 and all(len(line) <= 80 for line in lines)
    assert lines[0].split()[:2] == ["1.", "move"] and lines[1].split()[:2] == ["2.", "move"]
    assert option_lines(["a" * 70, "b"]) == ["  1. " + "a" * 70, "  2. b"]
    long = option_lines(["take " + "card, " * 20])
    assert len(long) == 2 and all(len(line) <= 80 for line in long) and long[1].startswith(" " * 7 + "card")
    assert " ".join(long).split() == ["1.", "take", *["card,"] * 20]
    assert option_lines([]) == []
    moves = option_lines([f"move A{n % 6 + 1}→B{n % 6 + 1}" for n in range(60)] + ["end turn without digging"])
    assert len(moves) == 13 and moves[-1] == "  61. end turn without digging" and len(moves[0].split(".")) == 6
    stalls = option_lines(["take stall A: " + "Artisan, " * 5, "take stall B: Stone"]
                          + [f"build wall L{n} (+3)" for n in range(1, 7)] + ["build mosaic P (top of the stack)"])
    numbers = [int(number) for line in stalls for number in re.findall(r"(\d+)\. ", line)]
    assert len(stalls) == 5 and stalls[0].startswith("  1. take stall A") and sorted(numbers) == list(range(1, 10))
    assert stalls[-1] == "  9. build mosaic P (top of the stack)"


def test_words_and_counts() -> None:
    assert words("first_aid_kit") == "first-aid kit" and words("colour_3") == "colour 3"
    assert [counted(n, "card") for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
    assert readable("seat 1 pays 1 coins, 11 coins, 21 coins") == "seat 1 pays 1 coin, 11 coins, 21 coins"
    assert readable("Offering: bids [1, 0], amulets [1, -1]; reads colour_3") == \
        "Offering: bids 1, 0, amulets 1, -1; reads colour 3"
    assert wrapped("Head: ", ["x" * 50, "y" * 50]) == ["Head: " + "x" * 50 + ",", "    " + "y" * 50]
    assert all(len(line) <= 80 for line in wrapped("H: ", ["z" * 200]))
    long = wrapped("Now: ", ["seat 0, choose archaeologist, die 3, 0 steps (archaeologist on A5, came from A6)"],
                   width=39)
    assert " ".join(long).split() == "Now: seat 0, choose archaeologist, die 3, 0 steps (archaeologist on A5, came " \
        "from A6)".split() and all(len(line) <= 39 for line in long) and "…" not in "".join(long)


def test_notes_go_beside_the_board_while_they_fit_then_below() -> None:
    board = ["+--+", "|ab|", "|cd|", "+--+"]
    notes = [lambda width: wrapped("One: ", ["first note"], width=width),
             lambda width: wrapped("Two: ", ["a note of many words that takes two lines"], width=width),
             lambda width: ["Three"] * 2]
    assert beside(board, notes, width=40) == [
        "+--+  One: first note",
        "|ab|  Two: a note of many words that",
        "|cd|      takes two lines",
        "+--+",
        "Three",
        "Three",
    ]
    assert beside(board, [lambda width: ["x" * 40]], width=40) == [*board, "x" * 40]  # too wide to go beside


def test_play_shows_the_legend_on_demand_only(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    keyboard(monkeypatch, ["1", "1", "1", "legend"], lambda: "q")
    code, out, _ = run(capsys, "play", "solomon", "--seed", "1", "--seats", "you,greedy",
                       "--save", str(tmp_path / "game.json"))
    assert code == 0
    assert out.count("player 1 to play") >= 3
    assert out.count("height:top tile") == 1  # when asked, not before the first move: the board comes first
    assert "Your options" not in out and "[" not in out.split("player 1 to play", 1)[1]


def test_the_valley_legend_says_what_every_card_does() -> None:
    game = obelisk.load("valley", 2)
    legend = game.render_legend(game.new_initial_state(1).observation(0))
    assert "Box of Food (2/1): Draw 1 card." in legend
    assert all(name in legend for name in game.table.names)
    assert all(len(line) <= 80 for line in legend.split("\n"))


def test_a_walk_in_the_tomb_shows_one_line_a_step_until_the_maze_is_asked_for(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    keyboard(monkeypatch, ["1"] * 12 + ["board"], lambda: "q")
    code, out, _ = run(capsys, "play", "tomb", "-p", "3", "--seed", "4", "--seats", "you,greedy",
                       "--save", str(tmp_path / "game.json"))
    assert code == 0
    steps = [line for line in out.splitlines() if line.startswith("player 1 on ") and "board shows the maze" in line]
    assert steps and all(len(line) <= 80 for line in steps)
    last_step = out.rindex("board shows the maze")
    assert out.rindex("player 1 to play") > last_step  # "board" drew the whole screen again


def test_the_tomb_legend_names_every_tile_code() -> None:
    game = obelisk.load("tomb", 3)
    view = game.new_initial_state(1).observation(0)
    legend = game.render_legend(view)
    for code, _ in view["kinds"]:
        if code.strip() and code != "???":
            assert code in legend
    assert "I:3 green inscription" in legend and "colour" not in legend and "first-aid kit" in legend.lower()
