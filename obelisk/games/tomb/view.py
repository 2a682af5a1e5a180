"""What each seat sees, and the terminal picture of the maze drawn from it.

The observation carries only public facts (revealed tiles, figures, player
cards, supply, curse, the public event log) plus, for a seat, the face-down
tiles that seat has seen with the plan. The renderer draws the maze from that
dictionary alone, so a player's screen cannot leak.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from obelisk.core.text import beside, counted, latest, ordinal, readable, words, wrapped
from obelisk.games.tomb.board import BIT, ENTRANCES, ITEM_IDS, SIZE, letters_of, square_name
from obelisk.games.tomb.rules import DRAW, FIGURES, ORIENT, PHASE_NAMES, ROB, TAKE, TURN_KEY


SEAT_LETTERS = "abcdef"


def _where(pos: int) -> str:
    if pos == -1:
        return "reserve"
    if pos == -2:
        return "chamber"
    return square_name(pos)


def observation(state: Any, seat: int | None) -> dict[str, Any]:
    """The JSON-able view of ``seat`` (None: spectator)."""
    t = state.game.tables
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
                code = kinds[here[0]][0]
                if code == "CHM" and view.get("chamber_open"):
                    code = "chm"
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
            return code
    return "???"


_SHAPES = ("cross with ", "t junction with ", "corner with ", "straight with ", "dead end with ")


def _feature(name: str) -> str:
    """A tile kind's name without its shape (the walls show the shape): ``corner with Snake`` → ``Snake``."""
    for shape in _SHAPES:
        if name.startswith(shape):
            return readable(name[len(shape):])
    return readable(name)


def render_legend(view: Mapping[str, Any]) -> str:
    """What the maze's symbols and tile codes mean."""
    features: dict[str, list[str]] = {}
    for code, name in view["kinds"]:
        if code.strip() and code != "???":
            features.setdefault(_feature(name), [])
            if code not in features[_feature(name)]:
                features[_feature(name)].append(code)
    codes = [f"{'/'.join(c)} {feature}" for feature, c in sorted(features.items(), key=lambda item: item[1])]
    return "\n".join([
        "Maze: ??? a face-down square (?xx: seen with your plan), ':' or '.' an opening",
        "    toward a face-down square, !C! the curse, a-f the seats' archaeologists",
        "    (standing on a tile, they hide its code).",
        *wrapped("Tiles: ", codes),
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
                code = "chm" if kinds[here[0]][0] == "CHM" and view.get("chamber_open") else kinds[here[0]][0]
            row += code
        lines += [top, row + "|"]
    lines.append("  +" + "---+" * SIZE)
    return lines


def render_view(view: Mapping[str, Any]) -> str:
    """A seat's screen from its observation: the maze, and beside it the seats' cards, the turn and the latest
    events (what does not fit beside the maze goes below it)."""
    seat = view.get("seat")
    notes: list[Callable[[int], list[str]]] = []

    def note(head: str, parts: list[str], separator: str = ", ") -> None:
        notes.append(lambda width: wrapped(head, parts, separator, width=width))

    at = [f"{e} {' '.join(view_letters)}" for e in ENTRANCES
          if (view_letters := [SEAT_LETTERS[s] for s, p in enumerate(view["players"]) for w in p["figures"]
                               if w == f"{e} entrance"])]
    if at:
        note("At the entrances: ", at)
    note(f"Round {view['round']}: ", [
        f"chamber {'open' if view['chamber_open'] else 'closed'} ({view['needed']} inscriptions open it)",
        f"{counted(view['face_down'], 'tile')} face down"], "; ")
    for s, player in enumerate(view["players"]):
        me = ", you" if s == seat else ""
        place = [f"in the chamber ({ordinal(player['place'])})"] if player["place"] else []
        reserve = sum(1 for w in player["figures"] if w == "reserve")
        out = [w for w in player["figures"] if w != "reserve"]
        parts = [f"inscriptions {len(player['inscriptions'])}/{view['needed']}" + _colours(player["inscriptions"]),
                 *[words(item) for item in player["items"]],
                 "archaeologists " + (" ".join(out) + (" and " if out and reserve else "")
                                      + (f"{reserve} in reserve" if reserve else "")), *place]
        note(f"Seat {s} ({player['letter']}{me}): ", parts)
    note("Supply: ", _supply(view["supply"])
         + (["found so far: " + ", ".join(words(k) for k in view["discovered"])] if view["discovered"] else []), "; ")
    if view.get("chest") is not None:
        note("Chest: ", [f"{words(k)} {v}" for k, v in view["chest"].items()] or ["empty"])
    if view.get("peeked"):
        note("Looked at with a plan: ",
             [f"{sq} by seat {' and '.join(map(str, w))}" for sq, w in view["peeked"].items()])
    if view.get("known"):
        note("You saw: ", [f"{sq} {readable(name)}" for sq, name in view["known"].items()])
    if view.get("terminal"):
        order = ", ".join(f"seat {s}" for s in view["finish_order"]) or "nobody"
        note("Game over; into the chamber: ", [order])
    else:
        note("Now: ", [_turn(view)], "; ")
    if view.get("pending"):
        note("Pending: ", [_pending(k, v) for k, v in view["pending"].items()], "; ")
    if view.get("events"):
        events = [readable(event) for event in view["events"][-5:]]
        notes.append(lambda width: [latest("Recent: ", events, width)])
    return "\n".join(beside(_maze(view), notes))


def _supply(supply: Mapping[str, int]) -> list[str]:
    """The items left by count, most first: ``6 each of food, water``, ``first-aid kit 5``."""
    by_count: dict[int, list[str]] = {}
    for item, count in supply.items():
        by_count.setdefault(count, []).append(words(item))
    return [f"{count} each of {', '.join(items)}" if len(items) > 1 else f"{items[0]} {count}"
            for count, items in sorted(by_count.items(), reverse=True)]


def _colours(colours: list[str]) -> str:
    """The inscriptions read, short: `` (colour 1 2 5)`` when the colours are numbered, else their names."""
    names = [words(c) for c in colours]
    if not names:
        return ""
    if all(name.startswith("colour ") for name in names):
        return " (colour " + " ".join(name.removeprefix("colour ") for name in names) + ")"
    return " (" + ", ".join(names) + ")"


def _turn(view: Mapping[str, Any]) -> str:
    turn = view["turn"]
    text = f"seat {turn['player']}, {turn['phase']}, die {turn['die'] or '-'}, {counted(turn['steps'], 'step')}"
    extra = [f"archaeologist on {turn['active']}"] if turn["active"] else []
    if turn["previous"]:
        extra.append(f"came from {turn['previous']}")
    if turn["scarf"]:
        extra.append("scarf worn")
    if turn["ghost"]:
        extra.append("ghost walk")
    return text + (f" ({', '.join(extra)})" if extra else "")


def _pending(key: str, value: Any) -> str:
    if key == "options":
        return "openings " + " or ".join(value)
    if key == "looked":
        return "looked at " + ", ".join(value)
    if key == "victim":
        return f"rob seat {value}"
    return f"{words(key)} {readable(str(value))}"


def render_brief(view: Mapping[str, Any]) -> str:
    """One line for a step of a walk that follows the same seat's previous step (the maze is as it was)."""
    turn = view["turn"]
    if turn["phase"] != "move" or not turn["steps"] or view.get("pending"):
        return ""
    extra = [f"from {turn['previous']}"] if turn["previous"] else []
    if turn["scarf"]:
        extra.append("scarf worn")
    if turn["ghost"]:
        extra.append("ghost walk")
    return (f"seat {turn['player']} on {turn['active']}, step {turn['steps']} of {turn['die']}"
            + (f" ({', '.join(extra)})" if extra else "") + "; board shows the maze")


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


def render_state(state: Any) -> str:
    """God view: the spectator picture with every looked-at tile shown, plus the hidden pool."""
    view = observation(state, None)
    t = state.game.tables
    view["known"] = {square_name(c): t.kinds[k].name for c, k in sorted(state.assigned.items())}
    view["terminal"] = state.is_terminal()
    view["finish_order"] = list(state.finished)
    text = _god_text(view)
    pool = ", ".join(f"{t.kinds[k].name} x{c}" for k, c in enumerate(state.pool) if c)
    return f"{text}\nface-down pool: {pool or 'empty'}\nphase {state.phase}, tasks {state.tasks}"
