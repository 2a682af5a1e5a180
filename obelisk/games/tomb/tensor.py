"""Fixed-size numeric encoding of a tomb observation, for the RL adapters.

Built from the observation dict alone (plus the static tile and item tables), so it cannot leak. Seats are
relative to the viewer (slot 0 = the viewer, a spectator sees seat 0 in slot 0) and padded to 6, so the
size is the same at every player count. Layout, in order:

* per square (81 × 50): face down, seen with the viewer's plan, openings N/E/S/W, feature one-hot (10),
  detail one-hot (7 colours, 11 items, 9 obstacles), curse, figures per seat slot / 3 (6);
* per entrance (4 × 6): figures per seat slot / 3;
* per seat slot (6 × 22): present, items (11), inscriptions (7), figures in reserve / 3, entered the
  chamber, place / 6;
* supply / 6 (11), discovered (11), chest filled, chest contents (11), chamber open, inscriptions
  needed / 7, round / max_rounds;
* turn: player slot (6), phase (15), die (6), steps / 6, active position (85), previous position (85),
  scarf, ghost;
* pending: square (81, the tile being oriented, turned by the key or whose item is offered), its feature (10) and
  detail (27), squares looked at with the plan (81).
"""

from __future__ import annotations

from typing import Any, Mapping

from obelisk.games.tomb.board import CELLS, ENTRANCES, INSCRIPTION, ITEM, ITEM_IDS, OBSTACLE_IDS, Tables, parse_square
from obelisk.games.tomb.rules import PHASE_NAMES

SEATS = 6
FEATURES = 10
COLOURS = 7
DETAILS = COLOURS + len(ITEM_IDS) + len(OBSTACLE_IDS)
PER_SQUARE = 2 + 4 + FEATURES + DETAILS + 1 + SEATS
PER_SEAT = 1 + len(ITEM_IDS) + COLOURS + 3
POSITIONS = CELLS + 4
SIZE = (
    CELLS * PER_SQUARE
    + 4 * SEATS
    + SEATS * PER_SEAT
    + len(ITEM_IDS) * 3 + 4
    + SEATS + len(PHASE_NAMES) + 6 + 1 + 2 * POSITIONS + 2
    + CELLS + FEATURES + DETAILS + CELLS
)


def _position(name: str | None) -> int:
    """Index 0..84 of a square or entrance name, -1 otherwise (reserve, chamber, None)."""
    if not name:
        return -1
    if name.endswith(" entrance"):
        return CELLS + ENTRANCES.index(name.split()[0])
    cell = parse_square(name)
    return -1 if cell is None else cell


class TombTensor:
    """Encoder for one game configuration (the tile kinds differ with the data file)."""

    def __init__(self, tables: Tables) -> None:
        self.feature = [k.feature for k in tables.kinds]
        self.detail = [self._detail(k.feature, k.detail) for k in tables.kinds]
        self.by_name = {k.name: i for i, k in enumerate(tables.kinds)}
        self.colours = {c: i for i, c in enumerate(tables.colours)}
        self.items = {name: i for i, name in enumerate(ITEM_IDS)}

    @staticmethod
    def _detail(feature: int, detail: int) -> int:
        if detail < 0:
            return -1
        if feature == INSCRIPTION:
            return detail
        if feature == ITEM:
            return COLOURS + detail
        return COLOURS + len(ITEM_IDS) + detail

    def encode(self, view: Mapping[str, Any]) -> list[float]:
        out = [0.0] * SIZE
        players = view["players"]
        n = len(players)
        me = view["seat"] or 0

        def slot(seat: int) -> int:
            return (seat - me) % n

        known = {parse_square(sq): self.by_name[name] for sq, name in view.get("known", {}).items()}
        curse = parse_square(view["curse"]) if view["curse"] else -1
        for c, entry in enumerate(view["board"]):
            base = c * PER_SQUARE
            k = -1
            if entry is None:
                out[base] = 1.0
                if c in known:
                    out[base + 1] = 1.0
                    k = known[c]
            else:
                k, mask = entry
                for d in range(4):
                    if mask >> d & 1:
                        out[base + 2 + d] = 1.0
            if k >= 0:
                out[base + 6 + self.feature[k]] = 1.0
                if self.detail[k] >= 0:
                    out[base + 6 + FEATURES + self.detail[k]] = 1.0
            if c == curse:
                out[base + 6 + FEATURES + DETAILS] = 1.0
        entrances = CELLS * PER_SQUARE
        seats = entrances + 4 * SEATS
        for s, player in enumerate(players):
            sl = slot(s)
            reserve = 0
            for where in player["figures"]:
                p = _position(where)
                if 0 <= p < CELLS:
                    out[p * PER_SQUARE + 7 + FEATURES + DETAILS + sl] += 1 / 3
                elif p >= CELLS:
                    out[entrances + (p - CELLS) * SEATS + sl] += 1 / 3
                elif where == "reserve":
                    reserve += 1
            base = seats + sl * PER_SEAT
            out[base] = 1.0
            for item in player["items"]:
                out[base + 1 + self.items[item]] = 1.0
            for colour in player["inscriptions"]:
                out[base + 1 + len(ITEM_IDS) + self.colours[colour]] = 1.0
            tail = base + 1 + len(ITEM_IDS) + COLOURS
            out[tail] = reserve / 3
            if player["place"]:
                out[tail + 1] = 1.0
                out[tail + 2] = player["place"] / SEATS
        i = seats + SEATS * PER_SEAT
        for item, count in view["supply"].items():
            out[i + self.items[item]] = count / 6
        i += len(ITEM_IDS)
        for item in view["discovered"]:
            out[i + self.items[item]] = 1.0
        i += len(ITEM_IDS)
        if view["chest"] is not None:
            out[i] = 1.0
            for item, count in view["chest"].items():
                out[i + 1 + self.items[item]] = float(count)
        i += 1 + len(ITEM_IDS)
        out[i] = float(view["chamber_open"])
        out[i + 1] = view["needed"] / COLOURS
        out[i + 2] = min(1.0, view["round"] / view["max_rounds"])
        i += 3
        turn = view["turn"]
        out[i + slot(turn["player"])] = 1.0
        i += SEATS
        out[i + PHASE_NAMES.index(turn["phase"])] = 1.0
        i += len(PHASE_NAMES)
        if turn["die"]:
            out[i + turn["die"] - 1] = 1.0
        i += 6
        out[i] = turn["steps"] / 6
        i += 1
        for name in (turn["active"], turn["previous"]):
            p = _position(name)
            if p >= 0:
                out[i + p] = 1.0
            i += POSITIONS
        out[i] = float(turn["scarf"])
        out[i + 1] = float(turn["ghost"])
        i += 2
        pending = view["pending"]
        p = _position(pending.get("square"))
        if p >= 0:
            out[i + p] = 1.0
        i += CELLS
        if "tile" in pending:
            k = self.by_name[pending["tile"]]
            out[i + self.feature[k]] = 1.0
            if self.detail[k] >= 0:
                out[i + FEATURES + self.detail[k]] = 1.0
        i += FEATURES + DETAILS
        for sq in pending.get("looked", []):
            out[i + parse_square(sq)] = 1.0
        return out
