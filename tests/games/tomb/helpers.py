"""Scenario builders for the tomb tests: place tiles and figures directly, then play labelled actions."""

from __future__ import annotations

import obelisk
from obelisk.games.tomb.actions import TILE_OFFSET
from obelisk.games.tomb.board import ITEM_IDS, mask_of, parse_square
from obelisk.games.tomb.rules import ROLL
from obelisk.games.tomb.state import TombState


def new(players: int = 2, **options) -> TombState:
    game = obelisk.load("tomb", players, **options)
    return game.new_initial_state(0)


def kind(state: TombState, name: str) -> int:
    """Index of the tile kind called ``name`` (e.g. 'corner with Food', 'straight')."""
    names = [k.name for k in state.game.tables.kinds]
    assert name in names, f"no tile kind {name!r}; known: {names}"
    return names.index(name)


def cell(square: str) -> int:
    c = parse_square(square)
    assert c is not None
    return c


def tile(state: TombState, square: str, name: str, openings: str) -> None:
    """Lay a revealed tile (taken out of the face-down pool)."""
    k = kind(state, name)
    c = cell(square)
    assert state.kind[c] < 0, f"{square} is not face down"
    state.pool[k] -= 1
    state.kind[c] = k
    state.opn[c] = mask_of(openings)


def figure(state: TombState, seat: int, square: str, index: int = 0) -> None:
    state.fig[3 * seat + index] = cell(square) if square[1:].isdigit() else 81 + ("NW", "NE", "SW", "SE").index(square)


def give(state: TombState, seat: int, *items: str) -> None:
    for item in items:
        i = ITEM_IDS.index(item)
        state.items[seat] |= 1 << i
        state.supply[i] -= 1


def holds(state: TombState, seat: int, item: str) -> bool:
    return bool(state.items[seat] >> ITEM_IDS.index(item) & 1)


def turn(state: TombState, seat: int, die: int, square: str | None = None) -> None:
    """Start ``seat``'s turn with the die showing ``die``; pick the archaeologist on ``square``."""
    state.player = seat
    state.phase = ROLL
    state._legal = None
    state.apply_action(die - 1)
    if square is not None:
        where = f"at the {square} entrance" if not square[1:].isdigit() else f"on {square}"
        play(state, f"move the archaeologist {where}")


def play(state: TombState, *labels: str) -> None:
    for label in labels:
        state.apply_action(state.string_to_action(label))


def draw(state: TombState, name: str) -> None:
    """Resolve a reveal chance node with the tile kind ``name``."""
    assert state.is_chance_node(), f"not a chance node: {labels(state)}"
    state.apply_action(TILE_OFFSET + kind(state, name))


def labels(state: TombState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]
