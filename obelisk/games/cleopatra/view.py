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

import functools
import re
from typing import TYPE_CHECKING, Any, Callable, Mapping

from obelisk.core import i18n
from obelisk.core.text import beside, latest, readable, words, wrapped
from obelisk.games.cleopatra.data import RESOURCES, Tables
from obelisk.games.cleopatra.rules import STALL_NAMES, queue_text

if TYPE_CHECKING:
    from obelisk.games.cleopatra.state import CleopatraState

tr = i18n.domain("cleopatra")


def card_name(name: str) -> str:
    """A card's name in the active language."""
    return tr.term("card", name)


def resource_name(resource: str) -> str:
    """A resource (``stone``) in the active language."""
    return tr.term("resource", resource)


def door_name(door: str) -> str:
    """A door frame's name (``left``, ``right``) in the active language."""
    return tr.term("door", door)


def category_name(tables: Tables, category: str) -> str:
    """A palace category's name (``Wall``) in the active language."""
    return tr.term("piece", tables.category_names[category])


def _counts(tables: Tables, counts: list[int]) -> dict[str, int]:
    return {tables.names[k]: c for k, c in enumerate(counts) if c}


def _garden_rows(state: CleopatraState) -> list[str]:
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


def observation(state: CleopatraState, seat: int | None) -> dict[str, Any]:
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


def phase_name(phase: str) -> str:
    """What the game is waiting for, in words of the active language."""
    names = {
        "setup": tr("setting up"), "turn": tr("choosing an action"), "refill": tr("refilling the stalls"),
        "build": tr("building"), "pay": tr("paying for the building"), "place": tr("placing the piece"),
        "claim": tr("claiming sanctuaries"), "tiles": tr("laying a mosaic"), "after": tr("after the action"),
        "limit": tr("hand limit"), "limit_discard": tr("discarding down to the hand limit"),
        "beggars": tr("the Beggars' demand"), "courtesans": tr("the Courtesans"), "vizier": tr("the Vizier"),
        "envoy_offer": tr("the Envoys: offering"), "envoy_accept": tr("the Envoys: accepting"),
        "offering": tr("the Offering"), "dice": tr("Cleopatra's dice"), "end": tr("game over"),
    }
    return names.get(phase, words(phase))


def _piece(label: str) -> str:
    """A built piece as the log names it (``wall L1``, ``sphinx #3``, ``door frame left``) in the active language."""
    kind, _, rest = label.partition(" ")
    if kind == "wall":
        return tr("wall {wall}", wall=rest)
    if kind == "sphinx":
        return tr("sphinx {number}", number=rest)
    if kind == "mosaic":
        return tr("mosaic {tile}", tile=rest)
    if label.startswith("door frame "):
        return tr("door frame {door}", door=door_name(label.removeprefix("door frame ")))
    return {"pedestal": tr("pedestal"), "throne": tr("throne"), "obelisk": tr("obelisk")}.get(label, label)


def _numbers(listed: str) -> str:
    return ", ".join(part.strip() for part in listed.split(",") if part.strip())


@functools.cache
def _log_patterns() -> tuple[tuple[re.Pattern[str], Callable[..., str]], ...]:
    """Each line the rules write to the log (in English: it is part of every observation) and its message."""
    def seats(listed: str) -> str:
        return _numbers(listed) or tr("nobody")

    return tuple((re.compile(pattern), say) for pattern, say in (
        (r"the discard pile is shuffled into a new deck", lambda: tr("the discard pile is shuffled into a new deck")),
        (r"player (?P<victim>\d+) has neither 2 talents nor a standard card and shows the hand to player (?P<player>\d+)",
         lambda victim, player: tr("player {victim} has neither 2 talents nor a standard card and shows the hand to "
                                   "player {player}", victim=victim, player=player)),
        (r"the market is empty: one card is dealt to each stall",
         lambda: tr("the market is empty: one card is dealt to each stall")),
        (r"player (?P<player>\d+) takes stall (?P<stall>\S+) \((?P<n>\d+) cards\)",
         lambda player, stall, n: tr.n("player {player} takes stall {stall} ({n} card)",
                                       "player {player} takes stall {stall} ({n} cards)", int(n), player=player,
                                       stall=stall)),
        (r"player (?P<player>\d+) can neither take a stall nor build and passes",
         lambda player: tr("player {player} can neither take a stall nor build and passes", player=player)),
        (r"player (?P<player>\d+) builds (?P<piece>.+) for (?P<n>-?\d+) talents",
         lambda player, piece, n: tr.n("player {player} builds {piece} for {n} talent",
                                       "player {player} builds {piece} for {n} talents", int(n), player=player,
                                       piece=_piece(piece))),
        (r"(?P<category>.+) complete: Cleopatra moves to step (?P<step>\d+)",
         lambda category, step: tr("{category} complete: Cleopatra moves to step {step}",
                                   category=tr.term("category", category), step=step)),
        (r"mosaic (?P<tile>\S+) fits nowhere and leaves the game",
         lambda tile: tr("mosaic {tile} fits nowhere and leaves the game", tile=tile)),
        (r"player (?P<player>\d+) claims a sanctuary of (?P<n>\d+) cells(?: for (?P<reward>\d+) talent)?",
         lambda player, n, reward: tr.n("player {player} claims a sanctuary of {n} cell",
                                        "player {player} claims a sanctuary of {n} cells", int(n), player=player)
         + (tr.n(" for {n} talent", " for {n} talents", int(reward)) if reward else "")),
        (r"player (?P<player>\d+) built (?P<n>\d+) pieces: \+(?P<bonus>\d+) talents",
         lambda player, n, bonus: tr.n("player {player} built {n} piece: +{bonus} talents",
                                       "player {player} built {n} pieces: +{bonus} talents", int(n), player=player,
                                       bonus=bonus)),
        (r"all dice are on the altar: Offering to the High Priest",
         lambda: tr("all dice are on the altar: Offering to the High Priest")),
        (r"Offering: bids \[(?P<bids>[^\]]*)\], amulets \[(?P<amulets>[^\]]*)\]",
         lambda bids, amulets: tr("Offering: bids {bids}, amulets {amulets}", bids=_numbers(bids), amulets=_numbers(amulets))),
        (r"player (?P<player>\d+) plays (?P<card>.+?)(?P<die> \(die mode\))?",
         lambda player, card, die: tr("player {player} plays {card} (die mode)", player=player, card=card_name(card))
         if die else tr("player {player} plays {card}", player=player, card=card_name(card))),
        (r"player (?P<taker>\d+) accepts (?P<card>.+) from player (?P<giver>\d+) \(\+(?P<fee>\d+) amulet, (?P<moved>.+) "
         r"from the giver\)",
         lambda taker, card, giver, fee, moved: tr("player {taker} accepts {card} from player {giver} ({amulets}, "
                                                   "{moved} from the giver)", taker=taker, card=card_name(card),
                                                   giver=giver, moved=moved,
                                                   amulets=tr.n("+{n} amulet", "+{n} amulets", int(fee)))),
        (r"the round (?P<n>\d+) is reached", lambda n: tr("the round {n} is reached", n=n)),
        (r"game over: amulets \[(?P<amulets>[^\]]*)\], eaten \[(?P<eaten>[^\]]*)\]",
         lambda amulets, eaten: tr("game over: amulets {amulets}, eaten {eaten}", amulets=_numbers(amulets),
                                   eaten=seats(eaten))),
    ))


def log_line(line: str) -> str:
    """A line of the game's log in the active language; English as the game wrote it, made readable."""
    if i18n.current_language() == i18n.DEFAULT_LANGUAGE:
        return readable(line)
    for pattern, say in _log_patterns():
        match = pattern.fullmatch(line)
        if match:
            return say(**match.groupdict())
    return readable(line)


def render_legend(tables: Tables, view: Mapping[str, Any]) -> str:
    """What the garden's symbols and the palace's short names mean."""
    return "\n".join([
        tr("Garden: # dais, * palm, a letter the mosaic tile of that shape, a digit the"),
        tr("    sanctuary of that player, T the temple ground; rows 1-9 from the palace,"),
        tr("    columns a-i from the left."),
        tr("Palace: walls L1-L3 (left), C1-C3 (centre), R1-R3 (right); a number is the"),
        tr("    player who built it."),
    ])


_OWNER_DIGITS = str.maketrans("012345678", "123456789")
"""A view's garden marks a sanctuary with its owner's seat (0-based); a screen shows the player (from 1)."""


def _builder(seat: int | None) -> str:
    """The player who built a palace piece, counted from 1 (``-``: not built)."""
    return "-" if seat is None else str(seat + 1)


def _card(name: str) -> str:
    return tr("face-down") if name == "face-down" else card_name(name)


def _each(counts: Mapping[str, int]) -> list[str]:
    return [tr("{count}x {name}", count=c, name=_card(name)) if c > 1 else _card(name) for name, c in counts.items()]


def _headed(head: str, parts: list[str]) -> list[str]:
    """``parts`` with ``head`` before the first, so a list can wrap between its items."""
    return [head + parts[0], *parts[1:]]


def _resources(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{c} {resource_name(name)}" for name, c in counts.items()) or tr("nothing")


def render_observation(tables: Tables, view: Mapping[str, Any]) -> str:
    """Terminal text from an observation dict alone: 80 columns wide."""
    seat = view["seat"]
    limit = view["max_rounds"]
    round_text = (tr("Round {round} of {limit}", round=min(view["round"], limit), limit=limit) if limit
                  else tr("Round {round}", round=view["round"]))
    lines: list[str] = []
    notes: list[Callable[[int], list[str]]] = []

    def note(head: str, parts: list[str], separator: str = ", ") -> None:
        notes.append(lambda width: wrapped(head, parts, separator, width=width))

    note(f"{round_text}: ", [  # beside the garden, where a line is free: the first screen fits 24 lines
        tr("player {player}", player=view["turn"] + 1), phase_name(view["phase"]),
        tr("Cleopatra {step}/{steps}", step=view["cleopatra"], steps=view["cleopatra_steps"]),
        tr("altar {dice}/{total}", dice=view["altar"], total=view["dice"])])

    completed = ", ".join(tr.term("category", c) for c in view["completed"]) or tr("nothing yet")
    note(tr("Completed: "), [completed, tr(
        "sphinxes {sphinxes}/{all_sphinxes}, pedestal {pedestal}, throne {throne}, obelisks {obelisks}/{all_obelisks}",
        sphinxes=len(view["sphinxes"]), all_sphinxes=tables.pieces["sphinxes"],
        pedestal=tr("yes") if view["throne"] else tr("no"),
        throne=tr("yes") if len(view["throne"]) > 1 else tr("no"),
        obelisks=len(view["obelisks"]), all_obelisks=tables.pieces["obelisks"])], "; ")
    walls = " ".join(f"{w}:{_builder(view['walls'].get(w))}" for w in tables.wall_ids)
    doors = " ".join(f"{door_name(d)}:{_builder(view['doors'].get(d))}" for d in tables.door_ids)
    note(tr("Walls "), [walls, tr("doors {doors}", doors=doors)], "; ")
    note(tr("Mosaic stack: top {tile}; below: ", tile=view["stack_top"] or "-"), view["stack_others"] or ["-"], " ")
    if view["removed_tiles"]:
        note(tr("Mosaic tiles removed: "), view["removed_tiles"], " ")
    for owner, cells in view["sanctuaries"]:
        note(tr("Sanctuary of player {player}: ", player=owner + 1), cells, " ")
    for s, stall in enumerate(view["market"]):
        note(tr("Stall {stall}: ", stall=STALL_NAMES[s]), [_card(c) for c in stall] or [tr("empty")])
    known = _each(view["discards"])
    unknown = view["discard_pile"] - sum(view["discards"].values())
    if unknown:
        known.append(tr("{n} not seen since a Courtesans take", n=unknown))
    note(tr("Deck {deck} ({up} up); discards {pile}", deck=view["deck"], up=view["deck_face_up"],
            pile=view["discard_pile"]) + (": " if known else ""), known)
    garden = ["    " + "".join(chr(ord("a") + c) if c < 26 else "?" for c in range(tables.cols))]
    garden += [f"{r + 1:>3} {row.translate(_OWNER_DIGITS)}" for r, row in enumerate(view["garden"])]
    lines += beside(garden, notes)
    if view["pending"]:
        lines += wrapped(tr("Drawn: "), [_card(c) for c in view["pending"]])
    if view["offers"]:
        lines += wrapped(tr("Offered to the Envoys: "),
                         [tr("{card} (player {player})", card=_card(name), player=q + 1) for q, name in view["offers"]])
    if view["phase"] in ("pay", "build", "place", "claim"):
        built = tr.n("{n} piece", "{n} pieces", view["pieces_built"])
        lines += wrapped(tr("Building: "), [tr("{built} so far", built=built),
                                           tr("to pay {units}", units=_resources(view["to_pay"])),
                                           tr("tainted halves left {units}", units=_resources(view["credit"]))], "; ")
    if view["claimable"]:
        lines += wrapped(tr("New sanctuaries: "), [" ".join(c) for c in view["claimable"]], "; ")
    if view["offering"] is not None:
        lines += wrapped(tr("Offering: "), [_bid_text(q, b) for q, b in enumerate(view["offering"])])
    if view["last_offering"]:
        last = view["last_offering"]
        lines += wrapped(tr("Last Offering: "), [
            tr.n("player {player} bid {bid} ({change} amulet)", "player {player} bid {bid} ({change} amulets)", abs(change),
                 player=q + 1, bid=bid, change=f"{change:+d}")
            for q, (bid, change) in enumerate(zip(last["bids"], last["amulets"]))])
    for q, p in enumerate(view["players"]):
        head = tr("Player {player} (you): ", player=q + 1) if q == seat else tr("Player {player}: ", player=q + 1)
        parts = [tr.n("{n} card", "{n} cards", p["hand_size"]), tr.n("{n} merchant", "{n} merchants", p["merchants"]),
                 tr.n("{n} statue", "{n} statues", p["statues"])]
        if "hand" in p:
            parts += [tr.n("{n} talent", "{n} talents", p["talents"]), tr.n("{n} amulet", "{n} amulets", p["amulets"])]
            parts += _headed(tr("hand: "), _each(p["hand"]) or [tr("empty")])
        elif p["known_cards"]:
            parts += _headed(tr("seen in hand: "), _each(p["known_cards"]))
        lines += wrapped(head, parts)
    if view.get("final"):
        f = view["final"]
        for q in range(len(view["players"])):
            fate = tr("eaten by the crocodile") if f["eaten"][q] else tr.n("{n} talent", "{n} talents", f["talents"][q])
            lines.append(tr("Final player {player}: {amulets}, {fate}", player=q + 1,
                            amulets=tr.n("{n} amulet", "{n} amulets", f["amulets"][q]), fate=fate))
    if view["log"]:
        lines.append(latest(tr("Recent: "), [log_line(entry) for entry in view["log"][-4:]]))
    return "\n".join(lines)


def _bid_text(q: int, bid: Any) -> str:
    if isinstance(bid, str):
        return tr("player {player} bid", player=q + 1) if bid == "bid" else tr("player {player} waiting", player=q + 1)
    if bid >= 0:
        return tr("player {player} bid {bid}", player=q + 1, bid=bid)
    return tr("player {player} waiting", player=q + 1)


def render_state(state: CleopatraState) -> str:
    """The complete position (god view), deterministic."""
    t = state.tables
    queue = [queue_text(item) for item in state.queue]
    lines = [f"phase {state.phase} turn {state.turn} actor {state.actor} turns {state.turns_played} queue {queue}"]
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
