"""What one seat sees of King Solomon's Treasury, and the terminal text drawn from it.

``observation`` lists what a seat (or a spectator, ``None``) may know of a
position: the cave as seen from above, every seat's open tiles and coins, its
own hand and choice, and the public record of penalties. ``render_view`` draws
the screen of one seat from that dict alone: the cave (stack height and visible
top tile per square, the entrance side marked), the seat's own screen (coins,
tiles, hand cards with their shapes), the other players' public side and the
running turn. ``render_state`` is the complete god view used by ``str(state)``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable, Final, Mapping, Sequence

import obelisk.games.solomon.data as d
from obelisk.core import i18n
from obelisk.core.text import beside, latest, readable, wrapped
from obelisk.games.solomon.rules import LOG_LINES, ROUNDS
from obelisk.games.solomon.scoring import curse_total, score_heading

if TYPE_CHECKING:
    from obelisk.games.solomon.state import SolomonState

tr = i18n.domain("solomon")

LogEntry = str | int | tuple[int, ...]
"""A line of the log as a position keeps it: ready text, a tile move as a number (``move_entry``), or the
numbers of a round's card reveal or of a dig (``ROUND_ENTRY``/``DIG_ENTRY`` first); spelled out by
``log_lines`` only when a view asks, so a playout builds no text."""
ROUND_ENTRY: Final = 0
"""``(ROUND_ENTRY, round number, then seat and card number per seat in turn order)``."""
DIG_ENTRY: Final = 1
"""``(DIG_ENTRY, seat, the dug tile kinds..., their squares...)``."""
MOVE_SHIFT: Final = 9
"""A tile move's log number is ``(seat * d.NUM_KINDS + tile) << MOVE_SHIFT | move id`` (move ids are below 512)."""
_MOVE_PATHS: Final = tuple(
    f"{d.square_name(sq)}→{d.square_name(d.MOVE_TARGET[sq * 8 + k])}" if d.MOVE_TARGET[sq * 8 + k] >= 0 else ""
    for sq in range(d.SQUARES)
    for k in range(8)
)
_MOVE_TEXT: Final = tuple(tuple(f"{name} {path}" for path in _MOVE_PATHS) for name in d.KIND_NAMES)
"""``_MOVE_TEXT[tile][move id]``: the log text of a move after "player N moves "."""


def _line(entry: LogEntry) -> str:
    """The English text of one log entry."""
    if isinstance(entry, str):
        return entry
    if isinstance(entry, int):
        who, action = divmod(entry, 1 << MOVE_SHIFT)
        seat, tile = divmod(who, d.NUM_KINDS)
        return f"player {seat + 1} moves {_MOVE_TEXT[tile][action]}"
    if entry[0] == ROUND_ENTRY:
        plays = ", ".join(f"player {entry[i] + 1} plays card {entry[i + 1]}" for i in range(2, len(entry), 2))
        return f"round {entry[1]}: {plays}"
    half = (len(entry) - 2) // 2
    found = ", ".join(
        f"{d.KIND_NAMES[kind]} ({d.square_name(sq)})" for kind, sq in zip(entry[2 : 2 + half], entry[2 + half :])
    )
    return f"player {entry[1] + 1} digs {found}"


def log_lines(log: Sequence[LogEntry]) -> list[str]:
    """The recent log as text: its last ``LOG_LINES`` entries spelled out."""
    return [_line(entry) for entry in log[-LOG_LINES:]]


def observation(state: SolomonState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (``None``: a spectator) may know of ``state``; once the game is over, every seat's tiles."""
    n = state.num_players
    cards = state._rules.tables.cards
    terminal = state.phase == "end" and state._chance_kind() is None
    names = d.KIND_NAMES

    def named(counts: list[int]) -> dict[str, int]:
        return {names[k]: c for k, c in enumerate(counts) if c}

    seats = []
    for q in range(n):
        mine = q == seat or terminal
        face_down = 0 if mine else sum(1 for _, holder, _k in state.secret if holder == q)
        seats.append(
            {
                "coins": state.coins[q],
                "tiles": named(state.tiles[q] if mine else state._known_tiles(q)),
                "face_down_tiles": face_down,
                "curse_total_seen": curse_total(state.tiles[q] if mine else state._known_tiles(q)),
                "hand_size": len(state.hands[q]),
                "has_chosen": state.chosen[q] >= 0,
                "played": [cards[c].number for c in state.played[q]],
            }
        )
    shown = set(c for q in range(n) for c in state.played[q])
    hand: list[int] = []
    my_choice = None
    if seat is not None:
        hand = [cards[c].number for c in state.hands[seat]]
        shown.update(state.hands[seat])
        if state.chosen[seat] >= 0:
            my_choice = cards[state.chosen[seat]].number
    penalties = []
    for event, record in enumerate(state.penalties):
        entry = {
            "seat": record["seat"],
            "tiles": [names[k] for k in record["tiles"]],
            "received": list(record["received"]),
            "removed": record["removed"],
            "gifts": [[to, names[k]] for to, k in record["gifts"]],
        }
        if seat is not None:
            entry["you_hold_face_down"] = [names[k] for e, h, k in state.secret if e == event and h == seat]
        penalties.append(entry)
    turn = None
    if state.phase in ("turn", "pay", "give") and state.order:
        active = state._active()
        turn = {
            "seat": active,
            "card": cards[state.round_cards[active]].number,
            "moves": state.moves,
            "items_used": [d.MAGIC_NAMES[i] for i in range(len(state.items)) if state.items[i]],
            "seal_squares": [d.square_name(sq) for sq in state.seal],
            "dug": [[d.square_name(sq), names[k]] for sq, k in zip(state.dug_at, state.dug)],
            "owed": state.owed,
            "give_to": list(state.give_to),
        }
    return {
        "players": n,
        "round": min(state.round + 1, ROUNDS[n]),
        "rounds": ROUNDS[n],
        "phase": state.phase,
        "setup_done": state._chance_kind() not in ("top", "deal"),
        "heights": list(state.heights),
        "stacks": [[names[k] for k in stack] for stack in state.stacks],
        "unseen": list(state.unseen),
        "unseen_dark_tiles": named(state.dark_pool),
        "seats": seats,
        "hand": hand,
        "my_choice": my_choice,
        "card_shapes": {str(cards[c].number): [list(cell) for cell in cards[c].cells] for c in sorted(shown)},
        "round_cards": [cards[c].number if c >= 0 else None for c in state.round_cards],
        "turn_order": list(state.order),
        "turn": turn,
        "supply": {
            "coins": state.supply_coins,
            "treasures": {f"treasure {d.TREASURE_VALUES[i]}": c for i, c in enumerate(state.supply_treasures) if c},
        },
        "penalties": penalties,
        "log": log_lines(state.log),
        "move_limit": state.game.options["move_limit"],
    }


_ITEM_SYMBOLS: Final = {"Mirror": "◐", "Pickaxe": "⚒", "Seal": "✡", "Amulet": "☥"}


def _symbol(name: str) -> str:
    """A tile as the screen shows it, readable without the legend: ``$4`` a treasure of 4, ``☠2`` a curse of 2,
    ``§A`` a scroll with symbol A, a magic item by its picture (``⚒`` the pickaxe, ``✡`` the Seal)."""
    kind, _, value = name.partition(" ")
    if kind == "treasure":
        return f"${value}"
    if kind == "curse":
        return f"☠{value}"
    if kind == "scroll":
        return f"§{value}"
    return _ITEM_SYMBOLS[name]


def _cave(heights: Sequence[int], cell_text: Sequence[str], least: int = 6) -> list[str]:
    """The entrance line, the column letters and the six rows; each square at least ``least`` columns wide."""
    width = max(least, max(len(t) for t in cell_text) + 1)
    lines = ["    " + "=" * ((width + 1) * d.SIZE - 1) + "  " + tr("<- cave entrance (north)")]
    lines.append("    " + " ".join(f"{c:^{width}}" for c in "ABCDEF"))
    for r in range(d.SIZE):
        row = [f"{cell_text[r * d.SIZE + c]:<{width}}" for c in range(d.SIZE)]
        lines.append(f" {r + 1}  " + " ".join(row).rstrip())
    return lines


def shape_lines(cells: Sequence[Sequence[int]]) -> list[str]:
    """A card shape as rows of '#' (dug square) and '.', arrow row on top."""
    rows = max(r for r, _ in cells) + 1
    cols = max(c for _, c in cells) + 1
    grid = [["."] * cols for _ in range(rows)]
    for r, c in cells:
        grid[r][c] = "#"
    return ["^" * cols] + ["".join(line) for line in grid]


def _cards_block(numbers: Sequence[int], shapes: Mapping[str, Any]) -> list[str]:
    """The hand's cards side by side: number on top, then the shape with the entrance side up."""
    blocks = [[f"#{number}"] + shape_lines(shapes[str(number)])[1:] for number in numbers]
    if not blocks:
        return []
    height = max(len(b) for b in blocks)
    widths = [max(len(line) for line in b) + 2 for b in blocks]
    out = []
    for i in range(height):
        out.append("  " + "".join(f"{(b[i] if i < len(b) else ''):<{w}}" for b, w in zip(blocks, widths)).rstrip())
    return out


def _tile(name: str) -> str:
    return tr.term("tile", name)


def _tiles_parts(tiles: Mapping[str, int]) -> list[str]:
    return [tr("{count}x {tile}", count=c, tile=_tile(name)) if c > 1 else _tile(name) for name, c in tiles.items()]


def _phase(phase: str) -> str:
    if phase == "choose":
        return tr("choosing cards")
    if phase == "turn":
        return tr("digging")
    if phase == "pay":
        return tr("paying for the dig")
    if phase == "give":
        return tr("handing out curses")
    return tr("game over")


_TILE_WORDS = re.compile("|".join(re.escape(name) for name in sorted(d.KIND_NAMES, key=len, reverse=True)))


def _tile_match(match: re.Match[str]) -> str:
    return _tile(match.group(0))


def _tiles_in(text: str) -> str:
    """``text`` with every tile name in the active language."""
    return _TILE_WORDS.sub(_tile_match, text)


def _change(text: str) -> str:
    """The change of a treasure payment as the log wrote it (``2 coins + treasure 1``), in the active language."""
    if text == "none (the supply is empty)":
        return tr("none (the supply is empty)")
    parts = []
    for part in text.split(" + "):
        if part.endswith(" coins"):
            parts.append(tr.n("{n} coin", "{n} coins", int(part.split()[0])))
        else:
            parts.append(_tile(part))
    return " + ".join(parts)


_LOG_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("uses", re.compile(r"player (\d+) uses the (.+)")),
    ("ends", re.compile(r"player (\d+) ends the turn without digging")),
    ("coins", re.compile(r"player (\d+) pays (\d+) with coins")),
    ("shows", re.compile(r"([A-F]\d) now shows (.+)")),
    ("round", re.compile(r"round (\d+): (.+)")),
    ("moves", re.compile(r"player (\d+) moves (.+) ([A-F]\d)→([A-F]\d)")),
    ("digs", re.compile(r"player (\d+) digs (.+)")),
    ("broke", re.compile(r"player (\d+) cannot pay (\d+) and pays nothing")),
    ("change", re.compile(r"player (\d+) pays with treasure (\d+), change (.+)")),
    ("treasure", re.compile(r"player (\d+) pays with treasure (\d+)")),
    ("removed", re.compile(r"player (\d+)'s (\d+) dug tiles are dealt face down, (\d+) removed")),
    ("dealt", re.compile(r"player (\d+)'s (\d+) dug tiles are dealt face down")),
    ("gives", re.compile(r"player (\d+) gives (.+) to player (\d+)")),
)
_PLAYS = re.compile(r"player (\d+) plays card (\d+)")


def _log_text(key: str, m: re.Match[str]) -> str:
    """The message of one kind of log line, filled from the English line's parts."""
    if key == "uses":
        return tr("player {player} uses the {item}", player=m[1], item=tr.term("item", m[2]))
    if key == "ends":
        return tr("player {player} ends the turn without digging", player=m[1])
    if key == "coins":
        return tr.n("player {player} pays {n} coin", "player {player} pays {n} coins", int(m[2]), player=m[1])
    if key == "shows":
        return tr("{square} now shows {tile}", square=m[1], tile=_tile(m[2]))
    if key == "round":
        plays = [tr("player {player} plays card {card}", player=player, card=card) for player, card in _PLAYS.findall(m[2])]
        return tr("round {round}: {cards}", round=m[1], cards=", ".join(plays))
    if key == "moves":
        return tr("player {player} moves {tile} {source}→{target}", player=m[1], tile=_tile(m[2]), source=m[3], target=m[4])
    if key == "digs":
        return tr("player {player} digs {tiles}", player=m[1], tiles=_tiles_in(m[2]))
    if key == "broke":
        return tr("player {player} cannot pay {owed} and pays nothing", player=m[1], owed=m[2])
    if key == "change":
        return tr("player {player} pays with treasure {value}, change {change}", player=m[1], value=m[2], change=_change(m[3]))
    if key == "treasure":
        return tr("player {player} pays with treasure {value}", player=m[1], value=m[2])
    if key == "removed":
        return tr("player {player}'s {count} dug tiles are dealt face down, {removed} removed", player=m[1], count=m[2],
                  removed=m[3])
    if key == "dealt":
        return tr("player {player}'s {count} dug tiles are dealt face down", player=m[1], count=m[2])
    return tr("player {player} gives {tile} to player {to}", player=m[1], tile=_tile(m[2]), to=m[3])


def log_line(line: str) -> str:
    """A line of the game's log (kept in English: it is part of every observation) in the active language."""
    if i18n.current_language() == i18n.DEFAULT_LANGUAGE:
        return readable(line)
    for key, pattern in _LOG_PATTERNS:
        match = pattern.fullmatch(line)
        if match:
            return _log_text(key, match)
    return line


def render_legend(view: Mapping[str, Any]) -> str:
    """What the cave's and the cards' symbols mean."""
    return "\n".join([
        tr("Cave squares read height:top tile — $ treasure (value), ☠ curse (value),"),
        tr("    § scroll (symbol), ◐ Mirror, ⚒ Pickaxe, ✡ Seal, ☥ Amulet,"),
        tr("    ?? not yet seen, -- dug out; the players' tiles use the same codes."),
        tr("The cave's entrance (north) is at the top, row 1; so is the entrance of the"),
        tr("    card shapes: # a square dug, . left alone."),
    ])


def render_view(view: Mapping[str, Any]) -> str:
    """The screen of one seat (or a spectator) built from ``observation(seat)``: 80 columns wide."""
    seat = view.get("seat")
    lines = [tr("King Solomon's Treasury — round {round} of {rounds}, {phase}", round=view["round"],
                rounds=view["rounds"], phase=_phase(view["phase"]))]
    if not view["setup_done"]:
        lines.append(tr("(setting up: tiles are being revealed and cards dealt)"))
    cells = []
    for h, stack in zip(view["heights"], view["stacks"]):
        cells.append(f"{h}:{_symbol(stack[-1])}" if h and stack else (f"{h}:??" if h else "0:--"))
    supply = view["supply"]
    supplied = [tr.n("{n} coin", "{n} coins", supply["coins"]), *_tiles_parts(supply["treasures"])]
    notes: list[Callable[[int], list[str]]] = [lambda width: wrapped(tr("Supply: "), supplied, width=width)]
    if seat is not None and view["hand"]:
        choice = view["my_choice"]
        if view["phase"] == "choose":
            head = tr("Your hand (chosen: #{card}):", card=choice) if choice is not None else tr("Your hand:")
            block = [head, *_cards_block(view["hand"], view["card_shapes"])]
            notes.append(lambda width: block)
        else:  # the card digging now is drawn in the status line; the hand's shapes matter when choosing
            numbers = [f"#{number}" for number in view["hand"]]
            head = tr("Your hand (chosen: #{card}): ", card=choice) if choice is not None else tr("Your hand: ")
            notes.append(lambda width: wrapped(head, numbers, " ", width=width))
    unseen = sum(view["unseen_dark_tiles"].values())
    status = [tr.n("{n} unseen tile in the cave", "{n} unseen tiles in the cave", unseen)]
    turn = view["turn"]
    if turn:
        shape = "/".join(shape_lines(view["card_shapes"][str(turn["card"])])[1:])
        status.append(tr.n("player {player} digs with #{card} ({shape}), {n} move",
                           "player {player} digs with #{card} ({shape}), {n} moves", turn["moves"], player=turn["seat"] + 1,
                           card=turn["card"], shape=shape))
        if turn["items_used"]:
            status.append(tr("using {items}", items=", ".join(_tile(item) for item in turn["items_used"])))
        if turn["seal_squares"]:
            status.append(tr("Seal on {squares}", squares=" ".join(turn["seal_squares"])))
        if turn["dug"]:
            status.append(tr("dug {tiles}", tiles=", ".join(
                tr("{tile} ({square})", tile=_tile(name), square=sq) for sq, name in turn["dug"])))
        if turn["owed"]:
            status.append(tr("still owes {owed}", owed=turn["owed"]))
    notes.append(lambda width: wrapped("", status, "; ", width=width))
    if view["turn_order"]:
        order = [tr("player {player} (#{card})", player=s + 1, card=view["round_cards"][s]) for s in view["turn_order"]]
        notes.append(lambda width: wrapped(tr("Order this round: "), order, width=width))
    lines += beside(_cave(view["heights"], cells, 4)[1:], notes)
    for q, info in enumerate(view["seats"]):
        hand = tr.n("{n} card", "{n} cards", info["hand_size"])
        if info["has_chosen"]:
            hand = tr("{hand} — has chosen", hand=hand)
        parts = [tr.n("{n} coin", "{n} coins", info["coins"]), hand]
        held = " ".join(_symbol(name) for name, count in info["tiles"].items() for _ in range(count))
        parts.append(tr("tiles {codes}", codes=held) if held else tr("no tiles"))
        if info["face_down_tiles"]:
            parts.append(tr.n("{n} tile face down", "{n} tiles face down", info["face_down_tiles"]))
        if info["played"]:
            parts.append(tr("played {cards}", cards=" ".join(map(str, info["played"]))))
        head = tr("Player {player} (you): ", player=q + 1) if q == seat else tr("Player {player}: ", player=q + 1)
        lines += wrapped(head, parts)
    if view["log"]:
        lines.append(latest(tr("Recent: "), [log_line(entry) for entry in view["log"][-4:]]))
    if view.get("terminal") and view.get("scores"):
        lines.append(tr("Final scores:"))
        for q, entry in enumerate(view["scores"]):
            parts = [f"{score_heading(k).lower()} {v}" for k, v in entry["breakdown"].items()]
            lines += wrapped(tr("  player {player}: {total} (", player=q + 1, total=entry["total"]), parts)
            lines[-1] += ")"
    return "\n".join(lines)


def render_state(state: SolomonState) -> str:
    """Everything: full stacks (? = unseen), pools, hands, screens and the turn in progress."""
    cards = state._rules.tables.cards
    cells = []
    for sq in range(d.SQUARES):
        pending = "*" if sq >= state.tops_revealed else ""
        cells.append("?" * state.unseen[sq] + pending + "".join(d.KIND_SHORT[k] for k in state.stacks[sq]))
    lines = [f"round index {state.round} phase {state.phase}; tops revealed {state.tops_revealed}, cards dealt {state.cards_dealt}"]
    lines += _cave(state.heights, cells)
    lines.append("gold pool " + str(state.gold_pool) + " dark pool " + str(state.dark_pool))
    lines.append("card box " + str([cards[i].number for i, c in enumerate(state.card_pool) if c]))
    for q in range(state.num_players):
        held = ", ".join(f"{c}x{d.KIND_SHORT[k]}" for k, c in enumerate(state.tiles[q]) if c)
        lines.append(
            f"seat {q}: coins {state.coins[q]}; tiles {held or '-'}; hand {[cards[c].number for c in state.hands[q]]}; "
            f"chosen {cards[state.chosen[q]].number if state.chosen[q] >= 0 else '-'}; "
            f"played {[cards[c].number for c in state.played[q]]}"
        )
    lines.append(f"supply coins {state.supply_coins} treasures {state.supply_treasures}")
    lines.append(
        f"chooser {state.chooser} order {state.order} turn {state.turn} round cards "
        f"{[cards[c].number if c >= 0 else None for c in state.round_cards]}"
    )
    lines.append(
        f"moves {state.moves} items {state.items} seal {state.seal} dug {state.dug} at {state.dug_at} owed {state.owed}"
    )
    lines.append(
        f"reveal queue {state.reveal_queue} deal to {state.deal_to} give to {state.give_to} "
        f"penalty pool {state.penalty_pool}"
    )
    lines.append(f"secret {state.secret}")
    lines.append(f"spent {state.spent}")
    lines.append(f"penalties {state.penalties}")
    lines.append("log: " + " | ".join(log_lines(state.log)))
    return "\n".join(lines)
