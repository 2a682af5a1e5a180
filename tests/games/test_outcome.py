"""How a game ended, in words: ``State.outcome()`` in every game, with ties, tie-breaks and the crocodile.

Each scenario is the end of a seeded random game whose result fields a test then rewrites (the ranking,
the scores and the reasons are all read from them), so every rule that decides a place is met.
"""

from __future__ import annotations

import random
from typing import Any, Callable

import pytest

import obelisk
from obelisk.core import State
from obelisk.core.i18n import language
from obelisk.games.cleopatra.scoring import tally
from obelisk.games.valley.data import SET


def finished(game_id: str, players: int, **options: Any) -> State:
    """The end of a seeded random game."""
    state = obelisk.load(game_id, players, **options).new_initial_state(7)
    rng = random.Random(7)
    while not state.is_terminal():
        state.apply_action(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    return state


def solomon_tie(tiebreak: str = "coins") -> State:
    state = finished("solomon", 2, tiebreak=tiebreak)
    treasure_2 = 1  # the kinds in data.py's order: treasures 1-5 first
    state.coins = [3, 5]
    state.tiles = [[0] * 16, [0] * 16]
    state.tiles[0][treasure_2] = 1
    return state


def valley_tie(tiebreak: str = "sets") -> State:
    state = finished("valley", 2, tiebreak=tiebreak)
    table = state.rules.table
    by_set: dict[int, list[int]] = {}
    for kind in range(table.size):
        if table.kind_type[kind] == SET:
            by_set.setdefault(table.set_of[kind], []).append(kind)
    kinds = list(by_set.values())
    state.tombs = [[kinds[0][0], kinds[0][1]], [kinds[n][0] for n in range(4)]]  # 2 squared, or 1 + 1 + 1 + 1
    return state


def tomb_end(finished_order: list[int], inscriptions: tuple[int, int, int] = (0b11111, 0b11111, 0b11)) -> State:
    state = finished("tomb", 3, max_rounds=2)
    state.insc = list(inscriptions)
    state.finished = finished_order
    return state


def cleopatra_end(amulets: list[int], talents: list[int], rule: str = "all") -> State:
    """Cleopatra's end with these amulets and talents, the crocodile judging them again by ``rule``."""
    state = finished("cleopatra", 3, max_rounds=2, crocodile_ties=rule)
    state.amulets = list(amulets)
    state.talents = list(talents)
    state.merchants = [0, 0, 0]
    state.hands = [[0] * len(hand) for hand in state.hands]
    state.sanctuaries = []
    state.final = tally(state, at_end=True)
    return state


CASES: list[tuple[str, Callable[[], State], list[int], list[int], list[str]]] = [
    ("solomon-coins", solomon_tie, [1], [2, 1], [
        "Player 2 won with 5 points.",
        "Player 1 and player 2 had 5 points each; the tie-break (more coins left) decided: player 2 1st, "
        "player 1 2nd."]),
    ("solomon-shared", lambda: solomon_tie("shared"), [0, 1], [1, 1], [
        "Player 1 and player 2 share the win with 5 points each."]),
    ("valley-sets", valley_tie, [1], [2, 1], [
        "Player 2 won with 4 points.",
        "Player 1 and player 2 had 4 points each; the tie-break (more different sets begun in the tomb) decided: "
        "player 2 1st, player 1 2nd."]),
    ("valley-shared", lambda: valley_tie("shared"), [0, 1], [1, 1], [
        "Player 1 and player 2 share the win with 4 points each."]),
    ("tomb-first", lambda: tomb_end([1, 0]), [1], [2, 1, 3], [
        "Player 2 was the first into the burial chamber.",
        "Then player 1 entered it.",
        "The game stopped at the limit of 2 rounds.",
        "Outside the chamber, the inscriptions read decided: player 3 3rd (2 inscriptions)."]),
    ("tomb-outside-tie", lambda: tomb_end([2], (0b11, 0b11, 0b11111)), [2], [2, 2, 1], [
        "Player 3 was the first into the burial chamber.",
        "The game stopped at the limit of 2 rounds.",
        "Outside the chamber, the inscriptions read decided: player 1 2nd (2 inscriptions), "
        "player 2 2nd (2 inscriptions).",
        "Player 1 and player 2 tied with 2 inscriptions each and share the 2nd place."]),
    ("tomb-nobody-inside", lambda: tomb_end([], (0b11, 0b111, 0b111)), [1, 2], [3, 1, 1], [
        "The game stopped at the limit of 2 rounds.",
        "Nobody reached the burial chamber, so the inscriptions read decided.",
        "Player 2 and player 3 share the win with 3 inscriptions each."]),
    ("cleopatra-crocodile", lambda: cleopatra_end([9, 2, 4], [40, 20, 30]), [2], [3, 2, 1], [
        "Player 1 had the most corruption (9 amulets) and was eaten by the crocodile.",
        "Player 3, the richest architect left, won with 30 talents."]),
    ("cleopatra-amulets", lambda: cleopatra_end([9, 2, 4], [10, 20, 20]), [1], [3, 1, 2], [
        "Player 1 had the most corruption (9 amulets) and was eaten by the crocodile.",
        "Player 2, the richest architect left, won with 20 talents.",
        "Player 2 and player 3 had 20 talents each; the tie-break (fewer amulets) decided: player 2 1st, "
        "player 3 2nd."]),
    ("cleopatra-all-eaten", lambda: cleopatra_end([5, 5, 1], [40, 30, 10]), [2], [2, 2, 1], [
        "Player 1 and player 2 tied for the most corruption (5 amulets) and were all eaten by the crocodile.",
        "Player 3, the richest architect left, won with 10 talents."]),
    ("cleopatra-none-eaten", lambda: cleopatra_end([5, 5, 1], [40, 30, 10], "none"), [0], [1, 2, 3], [
        "Player 1 and player 2 tied for the most corruption (5 amulets), so the crocodile ate nobody.",
        "Player 1, the richest architect left, won with 40 talents."]),
    ("cleopatra-richest-eaten", lambda: cleopatra_end([5, 5, 1], [40, 30, 10], "richest"), [1], [3, 1, 2], [
        "Player 1 and player 2 tied for the most corruption (5 amulets); the crocodile ate the richest of them, "
        "player 1.",
        "Player 2, the richest architect left, won with 30 talents."]),
    ("cleopatra-everyone-eaten", lambda: cleopatra_end([5, 5, 5], [40, 30, 10]), [], [1, 1, 1], [
        "Player 1, player 2 and player 3 tied for the most corruption (5 amulets) and were all eaten by the "
        "crocodile.",
        "Every architect was eaten: nobody wins."]),
]


@pytest.mark.parametrize(("make", "winners", "places", "reasons"), [case[1:] for case in CASES],
                         ids=[case[0] for case in CASES])
def test_the_outcome_says_who_won_and_why(make: Callable[[], State], winners: list[int], places: list[int],
                                          reasons: list[str]) -> None:
    state = make()
    assert state.is_terminal()
    assert state.outcome() == {"winners": winners, "places": places, "reasons": reasons}
    with language("cs"):
        czech = state.outcome()
    assert czech["winners"] == winners and czech["places"] == places
    assert len(czech["reasons"]) == len(reasons) and all(c != e for c, e in zip(czech["reasons"], reasons))


def test_places_follow_the_returns_in_every_game() -> None:
    for game_id, players, options in [("valley", 3, {}), ("solomon", 4, {}), ("tomb", 4, {"max_rounds": 30}),
                                      ("cleopatra", 4, {"max_rounds": 8})]:
        state = finished(game_id, players, **options)
        outcome = state.outcome()
        returns = state.returns()
        assert outcome["places"] == [1 + sum(r > mine for r in returns) for mine in returns]
        assert set(outcome["winners"]) <= {seat for seat, place in enumerate(outcome["places"]) if place == 1}
        assert outcome["reasons"] and all(line[:1].isupper() and line.endswith(".") for line in outcome["reasons"])


def test_czech_names_players_hrac() -> None:
    with language("cs"):
        reasons = cleopatra_end([9, 2, 4], [40, 20, 30]).outcome()["reasons"]
    assert reasons[0].startswith("Hráč 1 ") and "krokodýl" in reasons[0]


def test_there_is_no_outcome_before_the_end() -> None:
    state = obelisk.load("valley", 2).new_initial_state(1)
    with pytest.raises(ValueError, match="^the game is not over: it has no outcome yet$"):
        state.outcome()
