"""What each seat sees, and the terminal picture of the maze drawn from it.

The observation carries only public facts (revealed tiles, figures, player
cards, supply, curse, the public event log) plus, for a seat, the face-down
tiles that seat has seen with the plan. The renderer draws the maze from that
dictionary alone, so a player's screen cannot leak.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Mapping

from obelisk.core import i18n
from obelisk.core.text import beside, latest, readable, words, wrapped
from obelisk.games.tomb.actions import entrance, openings, phase_name
from obelisk.games.tomb.board import BIT, DIR_LETTERS, ENTRANCES, ITEM_IDS, SIZE, letters_of, square_name
from obelisk.games.tomb.data import (
    CHAMBER_CODE,
    code_word,
    feature_name,
    item_names,
    item_word,
    obstacle_names,
    tile_name,
)
from obelisk.games.tomb.rules import DRAW, FIGURES, ORIENT, PHASE_NAMES, ROB, TAKE, TURN_KEY

if TYPE_CHECKING:
    from obelisk.games.tomb.state import TombState


SEAT_LETTERS = "abcdef"
tr = i18n.domain("tomb")


def _where(pos: int) -> str:
    if pos == -1:
        return "reserve"
    if pos == -2:
        return "chamber"
    return square_name(pos)


def observation(state: TombState, seat: int | None) -> dict[str, Any]:
    """The JSON-able view of ``seat`` (None: spectator)."""
    t = state._rules.tables
    n = state.num_players
    board = [[k, state.opn[c]] if k >= 0 else None for c, k in enumerate(state.kind)]
    revealed = [0] * len(t.pool)
    for c, k in enumerate(state.kind):
        if 0 <= k < len(t.pool) and t.start_kind[c] < 0:
            revealed[k] += 1
    unrevealed = {t.kinds[k].name: t.pool[k] - revealed[k] for k in range(len(t.pool)) if t.pool[k] - revealed[k]}
    known = {}
    if seat is not None:
        known = {square_name(c): t.kinds[k].name for c, k in sorted(state.assigned.items()) if seat in state.knowers[c]}
    players = []
    for s in range(n):
        players.append(
            {
                "letter": SEAT_LETTERS[s],
                "items": [ITEM_IDS[i] for i in range(len(ITEM_IDS)) if state.items[s] >> i & 1],
                "inscriptions": [t.colours[i] for i in range(len(t.colours)) if state.insc[s] >> i & 1],
                "figures": [_where(p) for p in state.fig[FIGURES * s : FIGURES * s + FIGURES]],
                "place": state.finished.index(s) + 1 if s in state.finished else None,
            }
        )
    pending: dict[str, Any] = {}
    if state.phase == ORIENT:
        pending = {
            "square": square_name(state.rv_cell),
            "tile": t.kinds[state.rv_kind].name,
            "options": [letters_of(m) for m in state._orient_options()],
        }
    elif state.phase == DRAW:
        pending = {"square": square_name(state.rv_cell)}
    elif state.phase == TURN_KEY:
        pending = {"square": square_name(state.key_cell)}
    elif state.phase == ROB:
        pending = {"victim": state.victims[0] // FIGURES}
    elif state.phase == TAKE:
        here = state._pos()
        pending = {"square": square_name(here), "tile": t.kinds[state.kind[here]].name}
    if state.looked:
        pending["looked"] = [square_name(c) for c in state.looked]
    active = state._pos()
    return {
        "pyramid": "big" if t.big else "small",
        "needed": t.needed,
        "colours": list(t.colours),
        "kinds": [[k.code, k.name] for k in t.kinds],
        "board": board,
        "curse": square_name(state.curse) if state.curse >= 0 else None,
        "chamber_open": state.chamber_open,
        "players": players,
        "supply": {ITEM_IDS[i]: state.supply[i] for i in range(len(ITEM_IDS)) if t.items_in_play >> i & 1},
        "discovered": [ITEM_IDS[i] for i in range(len(ITEM_IDS)) if state.discovered >> i & 1],
        "chest": {ITEM_IDS[i]: c for i, c in enumerate(state.chest) if c} if state.chest_filled else None,
        "face_down": sum(1 for k in state.kind if k < 0),
        "unrevealed": unrevealed,
        "peeked": {square_name(c): list(w) for c, w in sorted(state.knowers.items())},
        "known": known,
        "finish_order": list(state.finished),
        "round": state.round,
        "max_rounds": state.game.options["max_rounds"],
        "turn": {
            "player": state.player,
            "phase": PHASE_NAMES[state.phase],
            "die": state.die,
            "steps": state.steps,
            "active": square_name(active) if active >= 0 else None,
            "previous": square_name(state.prev) if state.prev >= 0 else None,
            "scarf": state.scarf_on,
            "ghost": state.ghost,
        },
        "pending": pending,
        "events": list(state.events),
    }


def _edge(a: list | None, b: list | None, da: int, db: int) -> int:
    """0 wall, 1 open, 2 open on the known side toward a face-down square."""
    if a is None and b is None:
        return 0
    if a is None:
        return 2 if b[1] & BIT[db] else 0
    if b is None:
        return 2 if a[1] & BIT[da] else 0
    return 1 if a[1] & BIT[da] and b[1] & BIT[db] else 0


def draw_board(view: Mapping[str, Any]) -> list[str]:
    """The maze as text lines: walls, tile codes, figures (seat letters) and the curse."""
    board = view["board"]
    kinds = view["kinds"]
    known = view.get("known", {})
    curse = view.get("curse")
    figures: dict[str, str] = {}
    for s, player in enumerate(view["players"]):
        for where in player["figures"]:
            figures[where] = figures.get(where, "") + SEAT_LETTERS[s]
    lines = ["    " + "".join(f" {chr(65 + c)}  " for c in range(SIZE))]
    for r in range(SIZE):
        top = "   +"
        for c in range(SIZE):
            cell = r * SIZE + c
            e = _edge(board[cell - SIZE], board[cell], 2, 0) if r else 0
            top += ("---", "   ", " . ")[e] + "+"
        row1 = f"{r + 1:>2} "
        row2 = "   "
        for c in range(SIZE):
            cell = r * SIZE + c
            left = board[cell - 1] if c else None
            e = _edge(left, board[cell], 1, 3) if c else 0
            wall = ("|", " ", ":")[e]
            name = square_name(cell)
            here = board[cell]
            if here is None:
                code = "?" + _code_of(kinds, known[name])[:2] if name in known else "???"
            else:
                code = _shown_code(kinds[here[0]][0], view)
            figs = "!C!" if name == curse else figures.get(name, "")
            if len(figs) > 3:
                figs = figs[:2] + "+"
            row1 += wall + code
            row2 += wall + f"{figs:<3}"
        lines.append(top)
        lines.append(row1 + "|")
        lines.append(row2 + "|")
    lines.append("   +" + "---+" * SIZE)
    at_entrances = [f"{e}: {figures[f'{e} entrance']}" for e in ENTRANCES if f"{e} entrance" in figures]
    if at_entrances:
        lines.append("   at the entrances: " + ", ".join(at_entrances))
    return lines


def _code_of(kinds: list, name: str) -> str:
    for code, kind_name in kinds:
        if kind_name == name:
            return code_word(code)
    return "???"


def _shown_code(code: str, view: Mapping[str, Any]) -> str:
    """A revealed tile's code on the maze: in the active language, the open chamber in lower case."""
    shown = code_word(code)
    return shown.lower() if code == CHAMBER_CODE and view.get("chamber_open") else shown


_SHAPES = ("cross with ", "t junction with ", "corner with ", "straight with ", "dead end with ")


def _feature(name: str) -> str:
    """A tile kind's name without its shape (the walls show the shape): ``corner with Snake`` → ``Snake``."""
    for shape in _SHAPES:
        if name.startswith(shape):
            return readable(feature_name(name[len(shape):]))
    return readable(tile_name(name))


def _seat_text(seat: int) -> str:
    return tr("player {player}", player=seat + 1)


def _where_text(where: str) -> str:
    """A figure's place (a square, ``NW entrance``, ``reserve``, ``chamber``) in the active language."""
    if where.endswith(" entrance"):
        return tr("{entrance} entrance", entrance=entrance(ENTRANCES.index(where.split(" ")[0])))
    if where == "reserve":
        return tr("reserve")
    if where == "chamber":
        return tr("chamber")
    return where


def _place_text(place: int) -> str:
    """A place of entry into the chamber: ``1st`` … ``6th``."""
    places = (tr("1st"), tr("2nd"), tr("3rd"), tr("4th"), tr("5th"), tr("6th"))
    return places[place - 1] if 1 <= place <= len(places) else str(place)


def _colour_word(colour: str) -> str:
    return words(tr.term("colour", colour))


def render_legend(view: Mapping[str, Any]) -> str:
    """What the maze's symbols and tile codes mean."""
    features: dict[str, list[str]] = {}
    for code, name in view["kinds"]:
        if code.strip() and code != "???":
            features.setdefault(_feature(name), [])
            if code_word(code) not in features[_feature(name)]:
                features[_feature(name)].append(code_word(code))
    codes = [f"{'/'.join(c)} {feature}" for feature, c in sorted(features.items(), key=lambda item: item[1])]
    return "\n".join([
        tr("Maze: ??? a face-down square (?xx: seen with your plan), ':' or '.' an opening"),
        tr("    toward a face-down square, !C! the curse, a-f the players' archaeologists"),
        tr("    (standing on a tile, they hide its code)."),
        *wrapped(tr("Tiles: "), codes),
    ])


def _maze(view: Mapping[str, Any]) -> list[str]:
    """The maze two lines a row: the walls above, then each square's code or the archaeologists on it."""
    board = view["board"]
    kinds = view["kinds"]
    known = view.get("known", {})
    figures: dict[str, str] = {}
    for s, player in enumerate(view["players"]):
        for where in player["figures"]:
            figures[where] = figures.get(where, "") + SEAT_LETTERS[s]
    lines = ["    " + "   ".join(chr(65 + c) for c in range(SIZE))]
    for r in range(SIZE):
        top, row = "  +", f"{r + 1:>2}"
        for c in range(SIZE):
            cell = r * SIZE + c
            top += ("---", "   ", " . ")[_edge(board[cell - SIZE], board[cell], 2, 0) if r else 0] + "+"
            row += ("|", " ", ":")[_edge(board[cell - 1], board[cell], 1, 3) if c else 0]
            name = square_name(cell)
            here = board[cell]
            if name == view.get("curse"):
                code = "!C!"
            elif name in figures:
                code = f"{figures[name][:2] + ('+' if len(figures[name]) > 2 else ''):^3}"
            elif here is None:
                code = "?" + _code_of(kinds, known[name])[:2] if name in known else "???"
            else:
                code = _shown_code(kinds[here[0]][0], view)
            row += code
        lines += [top, row + "|"]
    lines.append("  +" + "---+" * SIZE)
    return lines


def _seat_parts(view: Mapping[str, Any], player: Mapping[str, Any]) -> list[str]:
    """A seat's inscriptions, items, archaeologists and place, as its screen line lists them."""
    read = player["inscriptions"]
    inscriptions = tr("inscriptions {n}/{needed}", n=len(read), needed=view["needed"]) + _colours(read)
    reserve = sum(1 for w in player["figures"] if w == "reserve")
    out = " ".join(_where_text(w) for w in player["figures"] if w != "reserve")
    if out and reserve:
        figures = tr("archaeologists {squares} and {n} in reserve", squares=out, n=reserve)
    elif reserve:
        figures = tr("archaeologists {n} in reserve", n=reserve)
    else:
        figures = tr("archaeologists {squares}", squares=out)
    place = [tr("in the chamber ({place})", place=_place_text(player["place"]))] if player["place"] else []
    return [inscriptions, *[item_word(i) for i in player["items"]], figures, *place]


def render_view(view: Mapping[str, Any]) -> str:
    """A seat's screen from its observation: the maze, and beside it the seats' cards, the turn and the latest
    events (what does not fit beside the maze goes below it)."""
    seat = view.get("seat")
    notes: list[Callable[[int], list[str]]] = []

    def note(head: str, parts: list[str], separator: str = ", ") -> None:
        notes.append(lambda width: wrapped(head, parts, separator, width=width))

    at = [f"{entrance(ENTRANCES.index(e))} {' '.join(view_letters)}" for e in ENTRANCES
          if (view_letters := [SEAT_LETTERS[s] for s, p in enumerate(view["players"]) for w in p["figures"]
                               if w == f"{e} entrance"])]
    if at:
        note(tr("At the entrances: "), at)
    chamber = tr.n("chamber open ({n} inscription opens it)", "chamber open ({n} inscriptions open it)",
                   view["needed"]) if view["chamber_open"] else tr.n(
        "chamber closed ({n} inscription opens it)", "chamber closed ({n} inscriptions open it)", view["needed"])
    note(tr("Round {round}: ", round=view["round"]),
         [chamber, tr.n("{n} tile face down", "{n} tiles face down", view["face_down"])], "; ")
    for s, player in enumerate(view["players"]):
        who = tr("Player {player} ({letter}, you): ", player=s + 1, letter=player["letter"]) if s == seat else tr(
            "Player {player} ({letter}): ", player=s + 1, letter=player["letter"])
        note(who, _seat_parts(view, player))
    supply = _supply(view["supply"])
    if view["discovered"]:
        supply.append(tr("found so far: {items}", items=", ".join(item_word(k) for k in view["discovered"])))
    note(tr("Supply: "), supply, "; ")
    if view.get("chest") is not None:
        note(tr("Chest: "), [f"{item_word(k)} {v}" for k, v in view["chest"].items()] or [tr("empty")])
    if view.get("peeked"):
        note(tr("Looked at with a plan: "), [
            tr.n("{square} by player {players}", "{square} by players {players}", len(w), square=sq,
                 players=tr(" and ").join(str(s + 1) for s in w))
            for sq, w in view["peeked"].items()])
    if view.get("known"):
        note(tr("You saw: "), [f"{sq} {readable(tile_name(name))}" for sq, name in view["known"].items()])
    if view.get("terminal"):
        order = ", ".join(_seat_text(s) for s in view["finish_order"]) or tr("nobody")
        note(tr("Game over; into the chamber: "), [order])
    else:
        note(tr("Now: "), [_turn(view)], "; ")
    if view.get("pending"):
        note(tr("Pending: "), [_pending(k, v) for k, v in view["pending"].items()], "; ")
    if view.get("events"):
        events = [readable(event_text(event)) for event in view["events"][-5:]]
        notes.append(lambda width: [latest(tr("Recent: "), events, width)])
    return "\n".join(beside(_maze(view), notes))


def _supply(supply: Mapping[str, int]) -> list[str]:
    """The items left by count, most first: ``6 each of food, water``, ``first-aid kit 5``."""
    by_count: dict[int, list[str]] = {}
    for item, count in supply.items():
        by_count.setdefault(count, []).append(item_word(item))
    return [tr("{n} each of {items}", n=count, items=", ".join(items)) if len(items) > 1 else f"{items[0]} {count}"
            for count, items in sorted(by_count.items(), reverse=True)]


def _colours(colours: list[str]) -> str:
    """The inscriptions read, by their colours' names: `` (red, blue)``."""
    if not colours:
        return ""
    return " (" + ", ".join(_colour_word(c) for c in colours) + ")"


def _turn(view: Mapping[str, Any]) -> str:
    turn = view["turn"]
    text = tr("player {player}, {phase}, die {die}, {steps}", player=turn["player"] + 1, phase=phase_name(turn["phase"]),
              die=turn["die"] or "-", steps=tr.n("{n} step", "{n} steps", turn["steps"]))
    extra = [tr("archaeologist on {square}", square=_where_text(turn["active"]))] if turn["active"] else []
    if turn["previous"]:
        extra.append(tr("came from {square}", square=_where_text(turn["previous"])))
    if turn["scarf"]:
        extra.append(tr("scarf worn"))
    if turn["ghost"]:
        extra.append(tr("ghost walk"))
    return text + (f" ({', '.join(extra)})" if extra else "")


def _pending(key: str, value: Any) -> str:
    if key == "options":
        return tr("openings {options}", options=tr(" or ").join(_letters(v) for v in value))
    if key == "looked":
        return tr("looked at {squares}", squares=", ".join(value))
    if key == "victim":
        return tr("rob player {player}", player=value + 1)
    if key == "tile":
        return tr("tile {tile}", tile=readable(tile_name(str(value))))
    return tr("square {square}", square=value)


def _letters(value: str) -> str:
    """Openings letters from a view (``N,E,S``) in the active language."""
    return openings(sum(BIT[DIR_LETTERS.index(letter)] for letter in value.split(",") if letter))


def render_brief(view: Mapping[str, Any]) -> str:
    """One line for a step of a walk that follows the same seat's previous step (the maze is as it was)."""
    turn = view["turn"]
    if turn["phase"] != "move" or not turn["steps"] or view.get("pending"):
        return ""
    extra = [tr("from {square}", square=_where_text(turn["previous"]))] if turn["previous"] else []
    if turn["scarf"]:
        extra.append(tr("scarf worn"))
    if turn["ghost"]:
        extra.append(tr("ghost walk"))
    return (tr("player {player} on {square}, step {steps} of {die}", player=turn["player"] + 1,
               square=_where_text(turn["active"]), steps=turn["steps"], die=turn["die"])
            + (f" ({', '.join(extra)})" if extra else "") + tr("; board shows the maze"))


_EVENTS: tuple[Callable[..., str], ...] = (
    lambda **f: tr("player {player} rolls {die}", **f),
    lambda **f: tr("player {player} moves the archaeologist on {square}", **f),
    lambda **f: tr("player {player} brings an archaeologist in at the {entrance} entrance", **f),
    lambda **f: tr("player {player} cannot move and passes", **f),
    lambda **f: tr("player {player} takes the secret passage to {square}", **f),
    lambda **f: tr("player {player} uses the magic flask to pass the wall to {square}", **f),
    lambda **f: tr("player {player} eats food: the die shows 6", **f),
    lambda **f: tr("player {player} drinks water: the die shows 5", **f),
    lambda **f: tr("player {player} eats chocolate: the die shows {die}", **f),
    lambda **f: tr("player {player} lights the torch on {square}", **f),
    lambda **f: tr("player {player} wears the scarf: stepping back is allowed this turn", **f),
    lambda **f: tr("player {player} reads the papyrus of the dead and walks as a ghost", **f),
    lambda **f: tr("player {player} studies the plan", **f),
    lambda **f: tr("player {player} buys {item} with money", **f),
    lambda **f: tr("player {player} uses the golden key on {square}", **f),
    lambda **f: tr("{square} now opens {openings}", **f),
    lambda **f: tr("player {player} puts the curse on {square}", **f),
    lambda **f: tr("player {player} takes {item} from the chest", **f),
    lambda **f: tr("player {player} uses the map on {square}", **f),
    lambda **f: tr("player {player} looks at the face-down tile on {square}", **f),
    lambda **f: tr("player {player} puts the tiles on {a} and {b} back face down", **f),
    lambda **f: tr("player {player} takes {item}", **f),
    lambda **f: tr("player {player} robs nothing from player {owner}", **f),
    lambda **f: tr("player {player} leaves {item} on the tile", **f),
    lambda **f: tr("player {player} leaves the map unused", **f),
    lambda **f: tr("player {player} robs {item} from player {owner}", **f),
    lambda **f: tr("{square} is revealed: {tile}, openings {openings}", **f),
    lambda **f: tr("player {player} cannot enter {square}: the turn ends", **f),
    lambda **f: tr("{obstacle} on {square} kills player {player}'s archaeologist", **f),
    lambda **f: tr("{obstacle} on {square} ends player {player}'s movement", **f),
    lambda **f: tr("player {player} reads the {colour} inscription", **f),
    lambda **f: tr("player {player} opens the chest", **f),
    lambda **f: tr("player {player} enters the burial chamber (place {place})", **f),
    lambda **f: tr("player {player} cannot stay on {square} and falls back to {back}", **f),
    lambda **f: tr("player {player} ambushes player(s) {owners} on {square}", **f),
    lambda **f: tr("player {player}'s archaeologist is wounded and goes home", **f),
    lambda **f: tr("the round limit is reached", **f),
)
"""Every line the rules write to the event log (``TombState._log``), so a screen can say it in its language."""

_SQUARE = r"[A-I][1-9]|(?:NW|NE|SW|SE) entrance"


@functools.cache
def _event_patterns() -> tuple[tuple[re.Pattern[str], Callable[..., str]], ...]:
    """Each event line as a pattern whose named groups are its fields, with the line's message."""
    names = "|".join(re.escape(name) for name in item_names().values())
    obstacles = "|".join(re.escape(name) for name in obstacle_names())
    fields = {"player": r"\d+", "owner": r"\d+", "die": r"\d+", "place": r"\d+", "owners": r"\d+(?:, \d+)*",
              "square": _SQUARE, "a": _SQUARE, "b": _SQUARE, "back": _SQUARE, "entrance": "NW|NE|SW|SE",
              "item": names, "obstacle": obstacles, "colour": r"\S+", "tile": r"[^,]+", "openings": r"[NESW,]+|-"}
    patterns = []
    with i18n.language("en"):
        for say in _EVENTS:
            pieces = say(**{name: f"\0{name}\0" for name in fields}).split("\0")
            template = "".join(re.escape(piece) if i % 2 == 0 else f"(?P<{piece}>{fields[piece]})"
                               for i, piece in enumerate(pieces))
            patterns.append((re.compile(template), say))
    return tuple(patterns)


def _field(name: str, value: str) -> str:
    """One field of an event line in the active language."""
    if name in ("square", "a", "b", "back"):
        return _where_text(value)
    if name == "entrance":
        return entrance(ENTRANCES.index(value))
    if name == "item":
        return tr.term("item", value)
    if name == "obstacle":
        return tr.term("obstacle", value)
    if name == "colour":
        return tr.term("colour", value)
    if name == "tile":
        return tile_name(value)
    if name == "openings":
        return _letters(value) if value != "-" else value
    return value


def event_text(event: str) -> str:
    """An event line of the view (the rules write them in English) in the active language."""
    for pattern, say in _event_patterns():
        match = pattern.fullmatch(event)
        if match:
            return say(**{name: _field(name, value) for name, value in match.groupdict().items()})
    return event


def _god_text(view: Mapping[str, Any]) -> str:
    """The god view's text: the maze three lines a row with every code and figure, and every field as kept."""
    lines = draw_board(view)
    lines.append(
        "   '???' face down, '?xx' face down but seen with your plan, ':' or '.' an opening toward a face-down "
        "square, '!C!' the curse; letters a-f are the seats' archaeologists"
    )
    codes = sorted({tuple(k) for k in view["kinds"]} - {("   ", "outer wall")})
    lines.append("   tiles: " + "; ".join(f"{code.strip() or '(blank)'}={name}" for code, name in codes if code.strip()))
    lines.append(
        f"{view['pyramid']} pyramid, round {view['round']}; "
        f"chamber {'OPEN' if view['chamber_open'] else 'closed'} ({view['needed']} inscriptions open it); "
        f"{view['face_down']} tiles face down"
    )
    for s, player in enumerate(view["players"]):
        place = f", entered the chamber (place {player['place']})" if player["place"] else ""
        lines.append(
            f"seat {s} ({player['letter']}): inscriptions {len(player['inscriptions'])}/{view['needed']} "
            f"[{', '.join(player['inscriptions'])}]; items [{', '.join(player['items'])}]; "
            f"archaeologists {', '.join(player['figures'])}{place}"
        )
    lines.append(
        "supply: " + ", ".join(f"{k} {v}" for k, v in view["supply"].items())
        + "; discovered: " + (", ".join(view["discovered"]) or "none")
    )
    if view.get("chest") is not None:
        lines.append("chest: " + (", ".join(f"{k} {v}" for k, v in view["chest"].items()) or "empty"))
    if view.get("peeked"):
        lines.append("looked at with a plan: " + ", ".join(f"{sq} by seat(s) {w}" for sq, w in view["peeked"].items()))
    if view.get("known"):
        lines.append("you saw: " + ", ".join(f"{sq} = {name}" for sq, name in view["known"].items()))
    turn = view["turn"]
    if view.get("terminal"):
        lines.append(f"game over; chamber entry order: {view['finish_order']}")
    else:
        extra = []
        if turn["active"]:
            extra.append(f"archaeologist on {turn['active']}")
        if turn["previous"]:
            extra.append(f"came from {turn['previous']}")
        if turn["scarf"]:
            extra.append("scarf worn")
        if turn["ghost"]:
            extra.append("ghost walk")
        lines.append(
            f"turn: seat {turn['player']}, {turn['phase']}, die {turn['die'] or '-'}, steps {turn['steps']}"
            + (f" ({'; '.join(extra)})" if extra else "")
        )
    if view.get("pending"):
        lines.append("pending: " + ", ".join(f"{k} {v}" for k, v in view["pending"].items()))
    if view.get("events"):
        lines.append("recent: " + " | ".join(view["events"][-5:]))
    return "\n".join(lines)


def render_state(state: TombState) -> str:
    """God view: the spectator picture with every looked-at tile shown, plus the hidden pool."""
    view = observation(state, None)
    t = state._rules.tables
    view["known"] = {square_name(c): t.kinds[k].name for c, k in sorted(state.assigned.items())}
    view["terminal"] = state.is_terminal()
    view["finish_order"] = list(state.finished)
    text = _god_text(view)
    pool = ", ".join(f"{t.kinds[k].name} x{c}" for k, c in enumerate(state.pool) if c)
    return f"{text}\nface-down pool: {pool or 'empty'}\nphase {state.phase}, tasks {state.tasks}"
