"""Scenario builders for the King Solomon's Treasury tests."""

from __future__ import annotations

import random

import obelisk
from obelisk.games.solomon import data as d
from obelisk.games.solomon.state import SolomonState

KIND = {short: k for k, short in enumerate(d.KIND_SHORT)}


def sq(name: str) -> int:
    """Square index of a name like ``C3`` (column letter, row from the entrance)."""
    return (int(name[1]) - 1) * d.SIZE + "ABCDEF".index(name[0])


def started(players: int = 2, seed: int = 0, **options: object) -> SolomonState:
    """A game right after set-up: tops revealed, cards dealt, seat 0 to choose."""
    game = obelisk.load("solomon", players, **options)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    return state


def set_cave(state: SolomonState, rows: list[str], default: str = "1:SA") -> None:
    """Set the cave: ``rows`` are up to 6 strings of up to 6 tokens ``h:XX`` (height and visible top).

    Missing rows and tokens are ``default``.
    Every stack has its top seen and the rest unseen. The dark-backed pool is
    left full, so a test may reveal any kind.
    """
    grid = [row.split() + [default] * (d.SIZE - len(row.split())) for row in rows]
    grid += [[default] * d.SIZE for _ in range(d.SIZE - len(rows))]
    for r in range(d.SIZE):
        for c in range(d.SIZE):
            token = grid[r][c]
            height, _, top = token.partition(":")
            square = r * d.SIZE + c
            h = int(height)
            state.heights[square] = h
            state.stacks[square] = (KIND[top],) if h else ()
            state.unseen[square] = max(h - 1, 0)
    state._sync_cave()
    state._legal = None


def card(number: int) -> int:
    """Card index of a card number in the packaged data (numbers 1..32 in order)."""
    return number - 1


def start_round(state: SolomonState, cards: list[int]) -> None:
    """Give each seat the listed card (by number) and let everyone choose it."""
    for seat, number in enumerate(cards):
        if card(number) not in state.hands[seat]:
            state.hands[seat] = sorted(state.hands[seat][1:] + [card(number)])
    for seat, number in enumerate(cards):
        play(state, f"choose card {number}")


def play(state: SolomonState, *labels: str) -> None:
    for label in labels:
        state.apply_action(state.string_to_action(label))


def reveal(state: SolomonState, short: str) -> None:
    """Resolve the pending reveal (or penalty deal) with the given tile kind."""
    assert state.is_chance_node(), "no chance node pending"
    state.apply_action(KIND[short])


def labels(state: SolomonState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def give(state: SolomonState, seat: int, **tiles: int) -> None:
    """Put tiles behind a seat's screen: ``give(state, 0, T5=1, C2=2)``."""
    for short, count in tiles.items():
        state.tiles[seat][KIND[short]] += count
    state._legal = None
