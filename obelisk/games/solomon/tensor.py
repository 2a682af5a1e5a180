"""Flat observation tensor of King Solomon's Treasury, built from an observation dict alone.

Layout (5 seat slots whatever the player count; counts are scaled to about 0..1):

1. cave, per square A1..F6: height / 4, unseen tiles / 3, one-hot visible top kind (16) — 36 x 18
2. unseen dark-backed tiles per kind / 9 — 16
3. per seat slot: present, is me, coins / 40, seen tiles per kind / 10 (16), face-down tiles / 36,
   hand size / 12, has chosen, this round's card number / highest number, is active — 5 x 24
4. my hand (multi-hot over the cards) and my secret choice (one-hot) — 2 x cards
5. turn: moves / 20 (at most MOVES_SEEN of them), items in use (4), Seal squares (36), owed / 20 — 42
6. phase one-hot (choose, turn, pay, give, end), round / rounds, setup done, is my decision — 8
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import obelisk.games.solomon.data as d
from obelisk.games.solomon.rules import PHASES

SEAT_SLOTS = 5
SEAT_WIDTH = 8 + d.NUM_KINDS
_KIND = {name: k for k, name in enumerate(d.KIND_NAMES)}
_ITEM = {name: i for i, name in enumerate(d.MAGIC_NAMES)}


MOVES_SEEN = 60
"""Moves of a turn the tensor tells apart: a turn may hold up to 205 (ruling 15), yet past a few dozen the
count says nothing new, and capped it keeps the feature within the adapters' declared range (at most 3)."""


def tensor_size(card_numbers: Sequence[int]) -> int:
    return d.SQUARES * (2 + d.NUM_KINDS) + d.NUM_KINDS + SEAT_SLOTS * SEAT_WIDTH + 2 * len(card_numbers) + 42 + 8


def _square(name: str) -> int:
    return (int(name[1:]) - 1) * d.SIZE + "ABCDEF".index(name[0])


def encode(view: Mapping[str, Any], card_numbers: Sequence[int]) -> list[float]:
    """The tensor of ``view`` (see the module docstring for the layout)."""
    out: list[float] = []
    for h, unseen, stack in zip(view["heights"], view["unseen"], view["stacks"]):
        top = [0.0] * d.NUM_KINDS
        if stack:
            top[_KIND[stack[-1]]] = 1.0
        out += [h / d.MAX_STACK, unseen / d.DARK_PER_SQUARE] + top
    pool = [0.0] * d.NUM_KINDS
    for name, count in view["unseen_dark_tiles"].items():
        pool[_KIND[name]] = count / 9
    out += pool
    seat = view["seat"]
    top_number = max(card_numbers)
    turn = view["turn"]
    for q in range(SEAT_SLOTS):
        if q >= len(view["seats"]):
            out += [0.0] * SEAT_WIDTH
            continue
        info = view["seats"][q]
        tiles = [0.0] * d.NUM_KINDS
        for name, count in info["tiles"].items():
            tiles[_KIND[name]] = count / 10
        card = view["round_cards"][q]
        out += [1.0, float(q == seat), info["coins"] / 40] + tiles
        out += [
            info["face_down_tiles"] / 36,
            info["hand_size"] / 12,
            float(info["has_chosen"]),
            (card or 0) / top_number,
            float(turn is not None and turn["seat"] == q),
        ]
    index = {number: i for i, number in enumerate(card_numbers)}
    hand = [0.0] * len(card_numbers)
    for number in view["hand"]:
        hand[index[number]] = 1.0
    choice = [0.0] * len(card_numbers)
    if view["my_choice"] is not None:
        choice[index[view["my_choice"]]] = 1.0
    out += hand + choice
    items = [0.0] * len(d.MAGIC_NAMES)
    seal = [0.0] * d.SQUARES
    moves = owed = 0.0
    if turn is not None:
        moves = min(turn["moves"], MOVES_SEEN) / 20
        owed = turn["owed"] / 20
        for name in turn["items_used"]:
            items[_ITEM[name]] = 1.0
        for name in turn["seal_squares"]:
            seal[_square(name)] = 1.0
    out += [moves] + items + seal + [owed]
    out += [float(view["phase"] == p) for p in PHASES]
    out += [view["round"] / view["rounds"], float(view["setup_done"]), float(view["current_player"] == seat)]
    return out
