"""The observation tensor: a fixed-size float encoding of one seat's view.

It is built from the dict ``State.observation(seat)`` returns and from the
static tables only, so it can carry nothing the seat may not see. The size
depends on the data file (kinds, garden, palace slots, tiles) but not on the
player count: per-seat blocks are padded to 5 seats and ordered from the
viewer's seat onwards (a spectator counts from seat 0). Counts are divided
by a typical maximum of a real game so values lie roughly in [0, 1]; unbounded
counts (talents, amulets, cards piling up on a stall) may exceed 1, mostly in
random play.

The layout is a list of named segments (``TensorLayout.segments``);
docs/games/cleopatra.md lists them with their slices.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from obelisk.games.cleopatra.data import CATEGORIES, RESOURCES, Tables
from obelisk.games.cleopatra.rules import MAX_SEATS, NUM_KINDS, PHASES, STALLS

PIECES = ("wall", "sphinx", "pedestal", "throne", "obelisk", "door", "mosaic")

CARDS_SCALE = 5.0
HAND_SCALE = 20.0
TALENT_SCALE = 50.0
AMULET_SCALE = 20.0
BID_SCALE = 20.0
PILE_SCALE = 5.0
DISCARD_SCALE = 10.0
ROUND_SCALE = 60

SEAT_FIELDS: tuple[tuple[str, int, str], ...] = (
    ("present", 1, "1 if this seat exists at the player count"),
    ("merchants", 1, "Nile merchants / merchants in the kit (3)"),
    ("statues", 1, "Anubis statues / statues in the kit (2)"),
    ("hand_size", 1, "cards in hand / 20"),
    ("cards", NUM_KINDS, "cards per kind / 5: the whole hand where visible (own seat, end), else the cards seen in it"),
    ("hand_visible", 1, "1 if the cards above are the whole hand"),
    ("talents", 1, "talents / 50 where visible, else 0"),
    ("amulets", 1, "amulets in the pyramid / 20 where visible, else 0"),
    ("palace", len(CATEGORIES), "pieces built by this seat per category / pieces of the category"),
    ("sanctuary_cells", 1, "cells of this seat's sanctuaries / 10"),
    ("has_bid", 1, "1 if this seat has bid in the running Offering"),
    ("own_bid", 1, "this seat's bid / 20 (own seat only)"),
    ("last_bid", 1, "bid in the last Offering / 20"),
    ("last_amulets", 1, "amulets gained (+) or removed (-) in the last Offering / 4"),
    ("offered", len(RESOURCES), "standard cards offered to the Envoys per resource / 5"),
    ("eaten", 1, "1 if eaten by the crocodile (end of game)"),
    ("final_talents", 1, "final talents / 50 (end of game)"),
    ("final_amulets", 1, "final amulets / 20 (end of game)"),
)


class TensorLayout:
    """Segment offsets and the name-to-index tables for one data file."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        cells = tables.rows * tables.cols
        tiles = len(tables.tile_ids)
        self.seat_size = sum(size for _, size, _ in SEAT_FIELDS)
        self.segments: list[tuple[str, int, str]] = [
            ("spectator", 1, "1 for the spectator view (seat None)"),
            ("current_player", MAX_SEATS + 2, "seat to act relative to the viewer (one-hot), then chance, terminal"),
            ("turn", MAX_SEATS, "seat whose turn it is, relative to the viewer (one-hot)"),
            ("phase", len(PHASES), "pending decision type (one-hot over " + ", ".join(PHASES) + ")"),
            ("round", 1, f"round / max_rounds (/ {ROUND_SCALE} without a round limit), at most 1"),
            ("cleopatra", 1, "Cleopatra's step / steps to the end"),
            ("completed", len(CATEGORIES), "category complete (" + ", ".join(CATEGORIES) + ")"),
            ("palace", len(CATEGORIES), "pieces built / pieces per category"),
            ("walls", len(tables.wall_ids), "wall slot built (" + " ".join(tables.wall_ids) + ")"),
            ("doors", len(tables.door_ids), "door frame built (" + " ".join(tables.door_ids) + ")"),
            ("altar", 1, "High Priest dice on the altar / dice"),
            ("deck", 1, "cards in the deck / deck size"),
            ("deck_face_up", 1, "face-up cards in the deck / deck size"),
            ("discards", NUM_KINDS + 1,
             "discard pile: cards known to be there per kind / 10, then the others / 10"),
        ]
        for s in range(STALLS):
            self.segments.append((f"stall_{s}", NUM_KINDS + 1,
                                  f"stall {'ABC'[s]}: face-up cards per kind / 5, then face-down cards / 5"))
        self.segments += [
            ("pending", NUM_KINDS + 1,
             "drawn cards waiting (refill, Vizier): per kind where seen / 5, then unseen / 5"),
            ("garden_mosaic", cells, "garden cell covered by a mosaic (row-major)"),
            ("garden_sanctuary", cells, "garden cell in a claimed sanctuary"),
            ("garden_claimable", cells, "garden cell in a sanctuary that may be claimed now"),
            ("stack_top", tiles, "tile on top of the mosaic stack (one-hot)"),
            ("stack_others", tiles, "tiles below the top of the stack"),
            ("removed_tiles", tiles, "tiles removed as fitting nowhere"),
            ("piece", len(PIECES), "piece being built (one-hot over " + ", ".join(PIECES) + ")"),
            ("piece_index", 1, "slot or tile index of that piece / 12"),
            ("to_pay", len(RESOURCES), "units still to pay per resource / 3"),
            ("credit", len(RESOURCES), "tainted halves left per resource"),
            ("build", 3, "pieces built this turn / 5, Scribe picks left / 2, Smugglers played"),
            ("offering", 1, "1 while an Offering is running"),
            ("seats", MAX_SEATS * self.seat_size,
             f"{MAX_SEATS} seat blocks of {self.seat_size}, the viewer's seat first (see the seat block)"),
        ]
        self.offsets: dict[str, int] = {}
        offset = 0
        for name, size, _ in self.segments:
            self.offsets[name] = offset
            offset += size
        self.size = offset
        self.seat_offsets: dict[str, int] = {}
        offset = 0
        for name, size, _ in SEAT_FIELDS:
            self.seat_offsets[name] = offset
            offset += size
        self.kind_of = {name: k for k, name in enumerate(tables.names)}
        self.tile_of = {tid: i for i, tid in enumerate(tables.tile_ids)}
        self.wall_of = {wid: i for i, wid in enumerate(tables.wall_ids)}
        self.door_of = {did: i for i, did in enumerate(tables.door_ids)}
        self.cell_of = {tables.cell_name(c): c for c in range(cells)}
        self.phase_of = {p: i for i, p in enumerate(PHASES)}
        self.piece_of = {p: i for i, p in enumerate(PIECES)}
        self.category_of = {c: i for i, c in enumerate(CATEGORIES)}

    def encode(self, view: Mapping[str, Any]) -> list[float]:
        """The tensor of one observation dict (also after a JSON round trip)."""
        t = self.tables
        out = [0.0] * self.size
        at = self.offsets
        players = view["players"]
        n = len(players)
        seat = view["seat"]
        origin = 0 if seat is None else seat

        def rel(q: int) -> int:
            return (q - origin) % n

        out[at["spectator"]] = float(seat is None)
        current = view["current_player"]
        if 0 <= current < n:
            out[at["current_player"] + rel(current)] = 1.0
        else:
            out[at["current_player"] + MAX_SEATS + (0 if current == -1 else 1)] = 1.0
        out[at["turn"] + rel(view["turn"])] = 1.0
        out[at["phase"] + self.phase_of[view["phase"]]] = 1.0
        out[at["round"]] = min(view["round"] / (view["max_rounds"] or ROUND_SCALE), 1.0)
        out[at["cleopatra"]] = view["cleopatra"] / view["cleopatra_steps"]
        for category in view["completed"]:
            out[at["completed"] + self.category_of[category]] = 1.0

        owners = self._owners(view)
        built = [0] * len(CATEGORIES)
        for c, seats in enumerate(owners):
            built[c] = len(seats)
            out[at["palace"] + c] = len(seats) / t.pieces[CATEGORIES[c]]
        for wid in view["walls"]:
            out[at["walls"] + self.wall_of[wid]] = 1.0
        for did in view["doors"]:
            out[at["doors"] + self.door_of[did]] = 1.0
        out[at["altar"]] = view["altar"] / view["dice"]
        out[at["deck"]] = view["deck"] / t.deck_size
        out[at["deck_face_up"]] = view["deck_face_up"] / t.deck_size
        self._counts(out, at["discards"], view["discards"], DISCARD_SCALE)
        out[at["discards"] + NUM_KINDS] = (view["discard_pile"] - sum(view["discards"].values())) / DISCARD_SCALE
        for s, stall in enumerate(view["market"]):
            self._pile(out, at[f"stall_{s}"], stall)
        self._pile(out, at["pending"], view["pending"])

        sanctuary = set()
        for _, cells in view["sanctuaries"]:
            for name in cells:
                cell = self.cell_of[name]
                sanctuary.add(cell)
                out[at["garden_sanctuary"] + cell] = 1.0
        cols = t.cols
        for r, row in enumerate(view["garden"]):
            for c, mark in enumerate(row):
                cell = r * cols + c
                if mark not in "#.*" and cell not in sanctuary:
                    out[at["garden_mosaic"] + cell] = 1.0
        for region in view["claimable"]:
            for name in region:
                out[at["garden_claimable"] + self.cell_of[name]] = 1.0
        if view["stack_top"] is not None:
            out[at["stack_top"] + self.tile_of[view["stack_top"]]] = 1.0
        for tid in view["stack_others"]:
            out[at["stack_others"] + self.tile_of[tid]] = 1.0
        for tid in view["removed_tiles"]:
            out[at["removed_tiles"] + self.tile_of[tid]] = 1.0

        piece = view["piece"]
        if piece:
            out[at["piece"] + self.piece_of[piece[0]]] = 1.0
            out[at["piece_index"]] = piece[1] / 12
        for r, resource in enumerate(RESOURCES):
            out[at["to_pay"] + r] = view["to_pay"].get(resource, 0) / 3
            out[at["credit"] + r] = float(view["credit"].get(resource, 0))
        out[at["build"]] = view["pieces_built"] / 5
        out[at["build"] + 1] = view["scribe_picks"] / 2
        out[at["build"] + 2] = float(view["smuggled"])
        offering = view["offering"]
        out[at["offering"]] = float(offering is not None)

        self._seats(out, view, owners, rel)
        return out

    def _owners(self, view: Mapping[str, Any]) -> list[list[int]]:
        """Per category, the seat of every piece built (from the public palace)."""
        by_category = {
            "walls": list(view["walls"].values()),
            "sphinxes": list(view["sphinxes"]),
            "throne": list(view["throne"]),
            "obelisks": list(view["obelisks"]),
            "doors": list(view["doors"].values()),
            "mosaics": [entry[2] for entry in view["mosaics"]],
        }
        return [by_category[c] for c in CATEGORIES]

    def _counts(self, out: list[float], start: int, counts: Mapping[str, int], scale: float) -> None:
        for name, count in counts.items():
            out[start + self.kind_of[name]] += count / scale

    def _pile(self, out: list[float], start: int, cards: list[str]) -> None:
        """Visible cards per kind, then the number of face-down ones (each / 5)."""
        kind_of = self.kind_of
        for name in cards:
            index = kind_of.get(name, NUM_KINDS)
            out[start + index] += 1 / PILE_SCALE

    def _seats(self, out: list[float], view: Mapping[str, Any], owners: list[list[int]],
               rel: Callable[[int], int]) -> None:
        t = self.tables
        base = self.offsets["seats"]
        f = self.seat_offsets
        seat = view["seat"]
        offering = view["offering"]
        last = view["last_offering"]
        final = view.get("final")
        for q, player in enumerate(view["players"]):
            at = base + rel(q) * self.seat_size
            out[at + f["present"]] = 1.0
            out[at + f["merchants"]] = player["merchants"] / max(1, t.kit["nile_merchants"])
            out[at + f["statues"]] = player["statues"] / max(1, t.kit["anubis_statues"])
            out[at + f["hand_size"]] = player["hand_size"] / HAND_SCALE
            visible = "hand" in player
            self._counts(out, at + f["cards"], player["hand"] if visible else player["known_cards"], CARDS_SCALE)
            if visible:
                out[at + f["hand_visible"]] = 1.0
                out[at + f["talents"]] = player["talents"] / TALENT_SCALE
                out[at + f["amulets"]] = player["amulets"] / AMULET_SCALE
            for c, seats in enumerate(owners):
                out[at + f["palace"] + c] = seats.count(q) / t.pieces[CATEGORIES[c]]
            if offering is not None:
                bid = offering[q]
                if q == seat:
                    if bid >= 0:
                        out[at + f["has_bid"]] = 1.0
                        out[at + f["own_bid"]] = bid / BID_SCALE
                elif bid == "bid":
                    out[at + f["has_bid"]] = 1.0
            if last:
                out[at + f["last_bid"]] = last["bids"][q] / BID_SCALE
                out[at + f["last_amulets"]] = last["amulets"][q] / 4
            if final:
                out[at + f["eaten"]] = float(final["eaten"][q])
                out[at + f["final_talents"]] = final["talents"][q] / TALENT_SCALE
                out[at + f["final_amulets"]] = final["amulets"][q] / AMULET_SCALE
        for owner, cells in view["sanctuaries"]:
            out[base + rel(owner) * self.seat_size + f["sanctuary_cells"]] += len(cells) / 10
        for giver, name in view["offers"]:
            out[base + rel(giver) * self.seat_size + f["offered"] + self.kind_of[name]] += 1 / CARDS_SCALE

    def describe(self) -> list[tuple[str, str]]:
        """``(slice, meaning)`` rows of the layout, for the docs."""
        rows = []
        for name, size, text in self.segments:
            start = self.offsets[name]
            rows.append((f"{start}:{start + size}", f"`{name}`: {text}"))
        for name, size, text in SEAT_FIELDS:
            start = self.seat_offsets[name]
            rows.append((f"+{start}:{start + size}", f"seat block `{name}`: {text}"))
        return rows
