"""Flat observation tensor of Valley of the Kings, built from an observation dict alone.

The tensor never reads a state: it encodes ``State.observation(seat)``, so it
holds exactly what that seat may know. Its size depends only on ``K``, the
number of card kinds of the card table (35 for the built-in file), never on
the player count: per-seat blocks are padded to four seats and ordered from
the viewer (its own seat first, then the next seats in turn order; a
spectator sees seat 0 first). Per-kind counts are divided by the kind's copies
in the box, so they lie in 0..1; other numbers are scaled by the constants
below to about 0..1.

Blocks, in order (``layout`` gives the exact slices):

1. ``global`` (6): spectator, game over, turn number / 30, level II stock / level II copies,
   level III stock / level III copies, boneyard size / level II+III copies.
2. ``pending`` (38): the step waiting (one-hot over the 16 steps of ``rules.STEP_NAMES``), the gold still
   due / 10, the hand-pick purpose (4, one-hot) and its number / 5, the victim purpose (2, one-hot), whether
   a picked pyramid card goes to the tomb, the pyramid slots offered (6, multi-hot), the slot being paid
   for or refilled (6, one-hot), the cards still to draw / 5.
3. ``pyramid`` (6 x (K + 2)): per slot B1 B2 B3 M1 M2 T: occupied, cost / 10, the card kind (one-hot).
4. ``boneyard`` (2K): counts per kind, the top card (one-hot).
5. ``turn`` (6 + 3K): pyramid touched, normal entombment used, hand gold / 4, discount / 5, purchases / 5,
   dearest purchase / 10; cards in the play area per kind, revealed cards per kind, kinds whose action was
   executed (multi-hot).
6. ``own`` (4K): the viewer's hand per kind, its known top-of-deck cards per kind, the next known card
   (one-hot), the rest of its deck per kind (hand-and-deck minus hand minus known top). Zero for a spectator.
7. ``seats`` (4 x (10 + 5K)), per seat slot: present, to play (active), to decide, hand size / 10,
   deck size / 40, discard size / 40, tomb size / 20, tomb score / 100, turns / 30, final return mapped to
   0..1 (0 before the end); then per kind: discard pile, discard top (one-hot), tomb, hand and deck
   together, cards shown in the hand (known to everyone to be there: a Censer revealed, a card returned
   from the tomb).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import obelisk.games.valley.rules as R
from obelisk.games.valley.data import CardTable

SEAT_SLOTS = 4
STEPS = tuple(R.STEP_NAMES.values())
GLOBAL_WIDTH = 6
PENDING_WIDTH = len(STEPS) + 1 + len(R.HAND_PICK_PURPOSES) + 1 + len(R.VICTIM_PURPOSES) + 1 + 6 + 6 + 1
TURN_SCALARS = 6
SEAT_SCALARS = 10
_SLOT = {name: s for s, name in enumerate(R.SLOT_NAMES)}
_STEP = {name: i for i, name in enumerate(STEPS)}

TURN_SCALE = 30
"""Turns per player (a 2-player game lasts about 23)."""
HAND_SCALE, PILE_SCALE, TOMB_SCALE, SCORE_SCALE = 10, 40, 20, 100
GOLD_SCALE, COST_SCALE, COUNT_SCALE = 10, 10, 5


def layout(k: int) -> list[tuple[str, int, int]]:
    """``(block, start, stop)`` of every block for a card table of ``k`` kinds."""
    widths = [
        ("global", GLOBAL_WIDTH),
        ("pending", PENDING_WIDTH),
        ("pyramid", 6 * (k + 2)),
        ("boneyard", 2 * k),
        ("turn", TURN_SCALARS + 3 * k),
        ("own", 4 * k),
        ("seats", SEAT_SLOTS * seat_width(k)),
    ]
    result, start = [], 0
    for name, width in widths:
        result.append((name, start, start + width))
        start += width
    return result


def seat_width(k: int) -> int:
    return SEAT_SCALARS + 5 * k


def tensor_size(k: int) -> int:
    return layout(k)[-1][2]


class Encoder:
    """Encodes observation dicts for one card table (card names are looked up once)."""

    def __init__(self, table: CardTable) -> None:
        self.k = table.size
        self.kind_of = {name: kind for kind, name in enumerate(table.names)}
        self.scale = [1.0 / c for c in table.copies]
        level_ii = sum(c for c, lv in zip(table.copies, table.level) if lv == 2)
        level_iii = sum(c for c, lv in zip(table.copies, table.level) if lv == 3)
        self.level_scale = (1.0 / max(1, level_ii), 1.0 / max(1, level_iii), 1.0 / max(1, level_ii + level_iii))

    def counts(self, cards: Sequence[str] | Mapping[str, int]) -> list[float]:
        """Per-kind counts of a list of card names (or a name → count mapping), over the kind's copies."""
        out = [0.0] * self.k
        kind_of, scale = self.kind_of, self.scale
        items = cards.items() if isinstance(cards, Mapping) else ((name, 1) for name in cards)
        for name, n in items:
            kind = kind_of[name]
            out[kind] += n * scale[kind]
        return out

    def one_hot(self, name: str | None) -> list[float]:
        out = [0.0] * self.k
        if name is not None:
            out[self.kind_of[name]] = 1.0
        return out

    def encode(self, view: Mapping[str, Any]) -> list[float]:
        """The tensor of ``view`` (see the module docstring for the layout)."""
        players = view["players"]
        n = len(players)
        seat = view["seat"]
        first = seat if seat is not None else 0
        order = [(first + i) % n for i in range(n)]
        active = view["active"]
        lii, liii, lall = self.level_scale
        out = [
            float(seat is None),
            float(bool(view["terminal"])),
            players[active]["turns"] / TURN_SCALE,
            view["stock"]["level_ii"] * lii,
            view["stock"]["level_iii"] * liii,
            len(view["boneyard"]) * lall,
        ]
        out += self._pending(view.get("pending"))
        for cell in view["pyramid"]:
            card = cell["card"]
            out.append(float(card is not None))
            out.append((cell["cost"] or 0) / COST_SCALE)
            out += self.one_hot(card)
        boneyard = view["boneyard"]
        out += self.counts(boneyard)
        out += self.one_hot(boneyard[-1] if boneyard else None)
        turn = view["turn"]
        bought = turn["bought_costs"]
        out += [
            float(turn["touched_pyramid"]),
            float(turn["entombed"]),
            turn["hand_gold"] / 4,
            turn["discount"] / COUNT_SCALE,
            len(bought) / COUNT_SCALE,
            max(bought, default=0) / COST_SCALE,
        ]
        out += self.counts(view["in_play"])
        out += self.counts(view["revealed"])
        executed = [0.0] * self.k
        for name in turn["executed"]:
            executed[self.kind_of[name]] = 1.0
        out += executed
        out += self._own(players[seat] if seat is not None else None)
        returns = view.get("returns")
        current = view["current_player"]
        for slot in range(SEAT_SLOTS):
            if slot >= n:
                out += [0.0] * seat_width(self.k)
                continue
            p = order[slot]
            entry = players[p]
            discard = entry["discard"]
            out += [
                1.0,
                float(p == active),
                float(p == current),
                entry["hand_size"] / HAND_SCALE,
                entry["deck_size"] / PILE_SCALE,
                len(discard) / PILE_SCALE,
                len(entry["tomb"]) / TOMB_SCALE,
                entry["tomb_score"] / SCORE_SCALE,
                entry["turns"] / TURN_SCALE,
                (returns[p] + 1.0) / 2.0 if returns else 0.0,
            ]
            out += self.counts(discard)
            out += self.one_hot(discard[-1] if discard else None)
            out += self.counts(entry["tomb"])
            out += self.counts(entry["hand_and_deck"])
            out += self.counts(entry["shown"])
        return out

    def _pending(self, pending: Mapping[str, Any] | None) -> list[float]:
        step = [0.0] * len(STEPS)
        purpose = [0.0] * len(R.HAND_PICK_PURPOSES)
        victim = [0.0] * len(R.VICTIM_PURPOSES)
        offered = [0.0] * 6
        slot = [0.0] * 6
        due = number = to_tomb = cards = 0.0
        if pending is not None:
            step[_STEP[pending["step"]]] = 1.0
            name = pending["step"]
            if name == "pay":
                due = pending["gold_due"] / GOLD_SCALE
            if name in ("pay", "refill"):
                slot[_SLOT[pending["slot"]]] = 1.0
            if name == "draw":
                cards = pending["cards"] / COUNT_SCALE
            if name == "hand_pick":
                purpose[R.HAND_PICK_PURPOSES.index(pending["purpose"])] = 1.0
                number = next((pending[key] for key in ("cards", "factor", "draw") if key in pending), 0) / COUNT_SCALE
            if name == "victim":
                victim[R.VICTIM_PURPOSES.index(pending["purpose"])] = 1.0
            if name == "pick_slot":
                to_tomb = float(pending["destination"] == "tomb")
                for s in pending["slots"]:
                    offered[_SLOT[s]] = 1.0
        return step + [due] + purpose + [number] + victim + [to_tomb] + offered + slot + [cards]

    def _own(self, entry: Mapping[str, Any] | None) -> list[float]:
        if entry is None:
            return [0.0] * (4 * self.k)
        hand = entry["hand"]
        tops = entry["deck_top"]
        rest = dict(entry["hand_and_deck"])
        for name in (*hand, *tops):
            rest[name] -= 1
        return self.counts(hand) + self.counts(tops) + self.one_hot(tops[0] if tops else None) + self.counts(rest)
