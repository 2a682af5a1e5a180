"""What each seat sees, the terminal picture of the maze, and the evaluation heuristic.

The observation carries only public facts (revealed tiles, figures, player
cards, supply, curse, the public event log) plus, for a seat, the face-down
tiles that seat has seen with the plan. The renderer draws the maze from that
dictionary alone, so a player's screen cannot leak.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from obelisk.games.tomb.board import (
    BIT,
    CELLS,
    ENTRANCES,
    INSCRIPTION as INSCRIPTION_FEATURE,
    ITEM_IDS,
    SIZE,
    letters_of,
    square_name,
)

from obelisk.games.tomb.state import (
    CHAMBER_CELL,
    DRAW,
    FIGURES,
    OPEN_STEPS,
    ORIENT,
    PHASE_NAMES,
    RESERVE,
    ROB,
    TAKE,
    TURN_KEY,
)

if TYPE_CHECKING:
    from obelisk.games.tomb.state import TombState

SEAT_LETTERS = "abcdef"


def _where(pos: int) -> str:
    if pos == -1:
        return "reserve"
    if pos == -2:
        return "chamber"
    return square_name(pos)


def observation(state: "TombState", seat: int | None) -> dict[str, Any]:
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


def render_view(view: Mapping[str, Any]) -> str:
    """Full terminal text of an observation: maze, player cards, turn, pending choice, recent events."""
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


def render_state(state: "TombState") -> str:
    """God view: the spectator picture with every looked-at tile shown, plus the hidden pool."""
    view = observation(state, None)
    t = state.game.tables
    view["known"] = {square_name(c): t.kinds[k].name for c, k in sorted(state.assigned.items())}
    view["terminal"] = state.is_terminal()
    view["finish_order"] = list(state.finished)
    text = render_view(view)
    pool = ", ".join(f"{t.kinds[k].name} x{c}" for k, c in enumerate(state.pool) if c)
    return f"{text}\nface-down pool: {pool or 'empty'}\nphase {state.phase}, tasks {state.tasks}"


FAR = 99


def maze_distances(state: "TombState", targets: list[int], blocked: tuple[int, ...] = ()) -> list[int]:
    """Steps from every square to the nearest target through mutual openings; face-down squares count as
    open on every side (they can still be turned to connect); the curse and the ``blocked`` squares block,
    and the chamber is never passed through (it is only ever a target)."""
    kind, opn, curse = state.kind, state.opn, state.curse
    chamber = CHAMBER_CELL
    adjacent = state.game.adjacent_chamber
    walls = (chamber, curse, *blocked) if curse >= 0 else (chamber, *blocked)
    dist = [FAR] * CELLS
    for c in walls:
        dist[c] = -1
    for c in targets:
        dist[c] = 0
    queue = list(targets)
    for a in queue:
        base = dist[a] + 1
        if a == chamber:
            steps = OPEN_STEPS[a * 16 + 15]
            if adjacent:
                for b, _, _ in steps:
                    if dist[b] > base:
                        dist[b] = base
                        queue.append(b)
                continue
        else:
            steps = OPEN_STEPS[a * 16 + (15 if kind[a] < 0 else opn[a])]
        for b, back, _ in steps:
            if dist[b] > base and (kind[b] < 0 or opn[b] & back):
                dist[b] = base
                queue.append(b)
    for c in walls:
        if dist[c] < 0:
            dist[c] = FAR
    return dist


def _figure_distance(state: "TombState", seat: int, dist: list[int]) -> int:
    """Steps for the seat's best placed archaeologist (one in reserve enters at the best corner)."""
    t = state.game.tables
    best = FAR
    for p in state.fig[FIGURES * seat : FIGURES * seat + FIGURES]:
        if 0 <= p < CELLS:
            best = min(best, dist[p])
        elif p >= CELLS:
            best = min(best, 1 + dist[t.corners[p - CELLS]])
        elif p == RESERVE:
            best = min(best, 2 + min(dist[c] for c in t.corners))
    return best


def _hazards(state: "TombState") -> list[tuple[int, int]]:
    """Revealed tiles that kill or cannot be entered, with the item that protects against each."""
    hazard = state.game.tables.hazard
    return [(c, hazard[k]) for c, k in enumerate(state.kind) if k >= 0 and hazard[k] >= 0]


SPREAD = 0.95
"""Share of the range of the places still open that the heuristic may use: a seat outside the chamber is
always valued below the next free place, so entering as soon as possible is never worse than waiting."""


def place_return(place: int, n: int) -> float:
    """The return of 0-based ``place`` among ``n`` seats without ties: +1 for the first, -1 for the last."""
    return 1.0 - 2.0 * place / (n - 1)


def evaluate(state: "TombState") -> list[float]:
    """Heuristic returns. A seat in the chamber gets the return of its place, which no later play can change.
    The seats outside share the places still open: each gets a value inside the range of those places' returns
    (centred on their mean), from inscriptions read, maze distance to the chamber (with enough inscriptions) or
    else to a revealed missing inscription or the nearest face-down tile, whether the chamber can still be
    reached (weighted by inscriptions read), and items held. So entering the chamber is always worth at least
    as much as staying outside; for the last seat outside both are worth exactly -1 (its place is fixed).

    Distances are the seat's own: revealed kill and cannot-enter tiles it holds no protection against are
    walls to it, so its archaeologists route round them, and a figure that dies and restarts from the
    reserve loses value in proportion to the steps it had gained."""
    t = state.game.tables
    n = state.num_players
    face_down = [c for c, k in enumerate(state.kind) if k < 0]
    by_colour: dict[int, list[int]] = {}
    features = t.features
    for c, k in enumerate(state.kind):
        if k >= 0 and features[k] == INSCRIPTION_FEATURE:
            by_colour.setdefault(t.kinds[k].detail, []).append(c)
    hazards = _hazards(state)
    cache: dict[tuple[tuple[int, ...], tuple[int, ...]], list[int]] = {}

    def distances(targets: list[int], blocked: tuple[int, ...]) -> list[int]:
        key = (tuple(targets), blocked)
        if key not in cache:
            cache[key] = maze_distances(state, targets, blocked)
        return cache[key]

    out = [0.0] * n
    for place, s in enumerate(state.finished):
        out[s] = place_return(place, n)
    outside = [s for s in range(n) if s not in state.finished]
    raw = []
    for s in outside:
        items = state.items[s]
        blocked = tuple(c for c, item in hazards if not items >> item & 1)
        have = state.insc[s].bit_count()
        value = 6.0 * min(have, t.needed) + 0.4 * items.bit_count()
        chamber_steps = _figure_distance(state, s, distances([t.chamber], blocked))
        if state._may_enter_chamber(s):
            value += 14.0 - 0.5 * min(chamber_steps, 24)
        else:
            if chamber_steps < FAR:
                value += 4.0 * have / t.needed
            missing = [c for colour, cells in by_colour.items() if not state.insc[s] >> colour & 1 for c in cells]
            best = _figure_distance(state, s, distances(missing, blocked)) if missing else FAR
            if best < FAR:
                value += 5.0 - 0.2 * min(best, 24)
            elif face_down:
                value += 1.0 - 0.1 * min(_figure_distance(state, s, distances(face_down, blocked)), 24)
        raw.append(value)
    top = place_return(len(state.finished), n)
    centre, half = (top - 1.0) / 2, (top + 1.0) / 2
    mean = sum(raw) / len(raw)
    limit = SPREAD * half
    for s, v in zip(outside, raw):
        out[s] = centre + max(-limit, min(limit, half * (v - mean) / 40.0))
    return out
