"""What each seat sees, and the terminal text built from it.

``observation`` is the only path from a position to a player: own hand,
talents and amulets; everybody's merchants, statues, hand sizes and the cards
the viewer has seen entering each hand; the public market (face-down cards
shown as such), palace, garden, mosaic stack, dice, Cleopatra and the discard
pile (its size and the cards the viewer knows to be in it: a Courtesans take
leaves it unseen). ``render_observation`` turns that dict into text;
``render_state`` is the god view (``str(state)``).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from obelisk.core.text import beside, counted, latest, readable, words, wrapped
from obelisk.games.cleopatra.data import RESOURCES, Tables
from obelisk.games.cleopatra.rules import STALL_NAMES


def _counts(tables: Tables, counts: list[int]) -> dict[str, int]:
    return {tables.names[k]: c for k, c in enumerate(counts) if c}


def _garden_rows(state: Any) -> list[str]:
    t = state.tables
    palms = t.palm_mask
    rows = []
    sanctuary = {}
    for owner, cells in state.sanctuaries:
        for c in cells:
            sanctuary[c] = owner
    for r in range(t.rows):
        line = []
        for c in range(t.cols):
            cell = r * t.cols + c
            value = state.garden[cell]
            if value == -2:
                line.append("#")
            elif value >= 0:
                line.append(t.tile_ids[value][0])
            elif cell in sanctuary:
                line.append(str(sanctuary[cell]))
            elif palms >> cell & 1:
                line.append("*")
            else:
                line.append(".")
        rows.append("".join(line))
    return rows


def observation(state: Any, seat: int | None) -> dict[str, Any]:
    t = state.tables
    n = state.num_players
    terminal = state.phase == "end"
    viewer = n if seat is None else seat
    players = []
    for q in range(n):
        entry: dict[str, Any] = {
            "merchants": state.merchants[q],
            "statues": state.statues[q],
            "hand_size": sum(state.hands[q]),
        }
        if q == seat or terminal:
            entry["hand"] = _counts(t, state.hands[q])
            entry["talents"] = state.talents[q]
            entry["amulets"] = state.amulets[q]
        else:
            entry["known_cards"] = _counts(t, state.known[viewer][q])
        players.append(entry)
    own_vizier = state.phase == "vizier" and seat == state.turn
    pending = [t.names[k] if up or own_vizier or terminal else "face-down" for k, up in state.pending]
    view: dict[str, Any] = {
        "phase": state.phase,
        "turn": state.turn,
        "actor": state.actor,
        "round": state.turns_played // n + 1,
        "max_rounds": state.game.options["max_rounds"],
        "players": players,
        "market": [[state._card_look(c) for c in stall] for stall in state.stalls],
        "deck": sum(state.deck),
        "deck_face_up": state.deck_up,
        "discards": _counts(t, state.discards if terminal else state.discard_known[viewer]),
        "discard_pile": sum(state.discards),
        "pending": pending,
        "cleopatra": state.cleopatra,
        "cleopatra_steps": t.steps,
        "completed": list(state.completed),
        "altar": state.altar,
        "dice": t.dice,
        "walls": {t.wall_ids[i]: w for i, w in enumerate(state.walls) if w >= 0},
        "doors": {t.door_ids[i]: d for i, d in enumerate(state.doors) if d >= 0},
        "sphinxes": list(state.sphinxes),
        "throne": list(state.throne),
        "obelisks": list(state.obelisks),
        "garden": _garden_rows(state),
        "mosaics": [[t.tile_ids[tile], state.tables.cell_name(_first(t, tile, i)), s] for tile, i, s in state.mosaics],
        "stack_top": t.tile_ids[state.stack_top] if state.stack_top >= 0 else None,
        "stack_others": [t.tile_ids[x] for x in state.stack_rest],
        "removed_tiles": [t.tile_ids[x] for x in state.removed_tiles],
        "sanctuaries": [[owner, [t.cell_name(c) for c in cells]] for owner, cells in state.sanctuaries],
        "sanctuary_regions": [[t.cell_name(c) for c in range(t.rows * t.cols) if m >> c & 1] for m in state.sanctuary_seen],
        "claimable": [[t.cell_name(c) for c in range(t.rows * t.cols) if m >> c & 1] for m in state.claimable],
        "pieces_built": state.built,
        "credit": {RESOURCES[r]: c for r, c in enumerate(state.credit) if c},
        "to_pay": {RESOURCES[r]: c for r, c in enumerate(state.to_pay) if c} if state.phase == "pay" else {},
        "piece": list(state.piece) if state.piece else None,
        "scribe_picks": state.scribe_picks,
        "smuggled": state.smuggled,
        "offers": [[q, t.names[r]] for q, r in state.offers],
        "offering": [("bid" if b >= 0 else "waiting") if q != seat else b for q, b in enumerate(state.bids)]
        if state.phase == "offering" else None,
        "last_offering": state.last_offering,
        "log": state.log[-8:],
    }
    if terminal:
        view["final"] = state.final
    return view


def _first(t: Tables, tile: int, index: int) -> int:
    r, c = t.placements[tile][index].cells[0]
    return r * t.cols + c


_PHASES = {
    "setup": "setting up", "turn": "choosing an action", "refill": "refilling the stalls", "build": "building",
    "pay": "paying for the building", "place": "placing the piece", "claim": "claiming sanctuaries",
    "tiles": "laying a mosaic", "after": "after the action", "limit": "hand limit",
    "limit_discard": "discarding down to the hand limit", "beggars": "the Beggars' demand",
    "courtesans": "the Courtesans", "vizier": "the Vizier", "envoy_offer": "the Envoys: offering",
    "envoy_accept": "the Envoys: accepting", "offering": "the Offering", "dice": "Cleopatra's dice",
    "end": "game over",
}


def render_legend(tables: Tables, view: Mapping[str, Any]) -> str:
    """What the garden's symbols and the palace's short names mean."""
    return "\n".join([
        "Garden: # dais, * palm, a letter the mosaic tile of that shape, a digit the",
        "    sanctuary of that seat, T the temple ground; rows 1-9 from the palace,",
        "    columns a-i from the left.",
        "Palace: walls L1-L3 (left), C1-C3 (centre), R1-R3 (right); a number is the",
        "    seat that built it.",
    ])


def _each(counts: Mapping[str, int]) -> list[str]:
    return [f"{c}x {name}" if c > 1 else name for name, c in counts.items()]


def _headed(head: str, parts: list[str]) -> list[str]:
    """``parts`` with ``head`` before the first, so a list can wrap between its items."""
    return [head + parts[0], *parts[1:]]


def _resources(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{c} {words(name)}" for name, c in counts.items()) or "nothing"


def render_observation(tables: Tables, view: Mapping[str, Any]) -> str:
    """Terminal text from an observation dict alone: 80 columns wide."""
    seat = view["seat"]
    limit = view["max_rounds"]
    round_text = f"Round {min(view['round'], limit)} of {limit}" if limit else f"Round {view['round']}"
    lines = wrapped(f"{round_text}: ", [
        f"turn of seat {view['turn']}", _PHASES.get(view["phase"], words(view["phase"])),
        f"Cleopatra {view['cleopatra']}/{view['cleopatra_steps']}", f"altar {view['altar']}/{view['dice']}"])
    notes: list[Callable[[int], list[str]]] = []

    def note(head: str, parts: list[str], separator: str = ", ") -> None:
        notes.append(lambda width: wrapped(head, parts, separator, width=width))

    note("Completed: ", [", ".join(view["completed"]) or "nothing yet",
                         f"sphinxes {len(view['sphinxes'])}/{tables.pieces['sphinxes']}, "
                         f"pedestal {'yes' if view['throne'] else 'no'}, "
                         f"throne {'yes' if len(view['throne']) > 1 else 'no'}, "
                         f"obelisks {len(view['obelisks'])}/{tables.pieces['obelisks']}"], "; ")
    walls = " ".join(f"{w}:{view['walls'].get(w, '-')}" for w in tables.wall_ids)
    doors = " ".join(f"{d}:{view['doors'].get(d, '-')}" for d in tables.door_ids)
    note("Walls ", [walls, f"doors {doors}"], "; ")
    note(f"Mosaic stack: top {view['stack_top'] or '-'}; below: ", view["stack_others"] or ["-"], " ")
    if view["removed_tiles"]:
        note("Mosaic tiles removed: ", view["removed_tiles"], " ")
    for owner, cells in view["sanctuaries"]:
        note(f"Sanctuary {owner}: ", cells, " ")
    for s, stall in enumerate(view["market"]):
        note(f"Stall {STALL_NAMES[s]}: ", stall or ["empty"])
    known = _each(view["discards"])
    unknown = view["discard_pile"] - sum(view["discards"].values())
    if unknown:
        known.append(f"{unknown} not seen since a Courtesans take")
    note(f"Deck {view['deck']} ({view['deck_face_up']} up); discards {view['discard_pile']}"
         + (": " if known else ""), known)
    garden = ["    " + "".join(chr(ord("a") + c) if c < 26 else "?" for c in range(tables.cols))]
    garden += [f"{r + 1:>3} {row}" for r, row in enumerate(view["garden"])]
    lines += beside(garden, notes)
    if view["pending"]:
        lines += wrapped("Drawn: ", view["pending"])
    if view["offers"]:
        lines += wrapped("Offered to the Envoys: ", [f"{name} (seat {q})" for q, name in view["offers"]])
    if view["phase"] in ("pay", "build", "place", "claim"):
        built = counted(view["pieces_built"], "piece")
        lines += wrapped("Building: ", [f"{built} so far", f"to pay {_resources(view['to_pay'])}",
                                        f"tainted halves left {_resources(view['credit'])}"], "; ")
    if view["claimable"]:
        lines += wrapped("New sanctuaries: ", [" ".join(c) for c in view["claimable"]], "; ")
    if view["offering"] is not None:
        lines += wrapped("Offering: ", [f"seat {q} " + (b if isinstance(b, str) else f"bid {b}" if b >= 0 else "waiting")
                                        for q, b in enumerate(view["offering"])])
    if view["last_offering"]:
        last = view["last_offering"]
        lines += wrapped("Last Offering: ", [f"seat {q} bid {bid} ({change:+d} amulet{'' if abs(change) == 1 else 's'})"
                                             for q, (bid, change) in enumerate(zip(last["bids"], last["amulets"]))])
    for q, p in enumerate(view["players"]):
        me = " (you)" if q == seat else ""
        parts = [counted(p["hand_size"], "card"), counted(p["merchants"], "merchant"), counted(p["statues"], "statue")]
        if "hand" in p:
            parts += [counted(p["talents"], "talent"), counted(p["amulets"], "amulet")]
            parts += _headed("hand: ", _each(p["hand"]) or ["empty"])
        elif p["known_cards"]:
            parts += _headed("seen in hand: ", _each(p["known_cards"]))
        lines += wrapped(f"Seat {q}{me}: ", parts)
    if view.get("final"):
        f = view["final"]
        for q in range(len(view["players"])):
            fate = "eaten by the crocodile" if f["eaten"][q] else counted(f["talents"][q], "talent")
            lines.append(f"Final seat {q}: {counted(f['amulets'][q], 'amulet')}, {fate}")
    if view["log"]:
        lines.append(latest("Recent: ", [readable(entry) for entry in view["log"][-4:]]))
    return "\n".join(lines)


def render_state(state: Any) -> str:
    """The complete position (god view), deterministic."""
    t = state.tables
    lines = [f"phase {state.phase} turn {state.turn} actor {state.actor} turns {state.turns_played} queue {state.queue}"]
    lines.append(f"cleopatra {state.cleopatra} completed {state.completed} altar {state.altar}")
    lines.append(f"walls {state.walls} doors {state.doors} sphinxes {state.sphinxes} throne {state.throne} "
                 f"obelisks {state.obelisks}")
    lines += _garden_rows(state)
    lines.append(f"stack top {state.stack_top} rest {state.stack_rest} removed {state.removed_tiles}")
    lines.append(f"sanctuaries {state.sanctuaries} seen {len(state.sanctuary_seen)} claimable {len(state.claimable)}")
    for s, stall in enumerate(state.stalls):
        lines.append(f"stall {STALL_NAMES[s]}: " + ", ".join(f"{t.names[k]}{'' if up else ' (down)'}" for k, up in stall))
    lines.append(f"deck {state.deck} up {state.deck_up}")
    lines.append(f"discards {state.discards}")
    lines.append(f"pending {state.pending} offers {state.offers} bids {state.bids} responders {state.responders}")
    lines.append(f"build: built {state.built} piece {state.piece} to_pay {state.to_pay} credit {state.credit} "
                 f"scribe {state.scribe_picks} smuggled {state.smuggled} main_done {state.main_done}")
    for q in range(state.num_players):
        lines.append(f"seat {q}: talents {state.talents[q]} amulets {state.amulets[q]} merchants {state.merchants[q]} "
                     f"statues {state.statues[q]} hand {state.hands[q]}")
    if state.final:
        lines.append(f"final {state.final}")
    return "\n".join(lines)
