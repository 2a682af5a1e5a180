"""Results of Secret of the Ancient Tomb: final scores, rank keys, and the evaluation heuristic the bots use."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from obelisk.core import i18n
from obelisk.games.tomb.actions import OPEN_STEPS
from obelisk.games.tomb.board import CELLS, CHAMBER_CELL, INSCRIPTION
from obelisk.games.tomb.rules import FIGURES, RESERVE

if TYPE_CHECKING:
    from obelisk.games.tomb.state import TombState

tr = i18n.domain("tomb")


def heading(category: str) -> str:
    """The heading of a scoring category (a key of ``scores()``'s breakdown) in the active language."""
    headings = {"inscriptions": tr("Inscriptions"), "items": tr("Items"), "chamber_entry": tr("Chamber entry")}
    return headings.get(category, category)


def rank_keys(state: TombState) -> list[Any]:
    """Chamber entrants by order of entry, then the others by inscriptions read."""
    keys: list[Any] = []
    for seat in range(state.num_players):
        if seat in state.finished:
            keys.append((1, -state.finished.index(seat)))
        else:
            keys.append((0, state.insc[seat].bit_count()))
    return keys


def tie_break(state: TombState, ahead: int, behind: int) -> str | None:
    """In words, why ``ahead`` ranks above ``behind`` with as many inscriptions read: the chamber decides."""
    if ahead not in state.finished:
        return None
    if behind not in state.finished:
        return tr("entered the burial chamber")
    if state.finished.index(ahead) < state.finished.index(behind):
        return tr("entered the burial chamber first")
    return None


def scores(state: TombState) -> list[dict[str, Any]]:
    """Inscriptions read as the total; items held and the place of chamber entry as the breakdown."""
    out = []
    for seat in range(state.num_players):
        inscriptions = state.insc[seat].bit_count()
        place = state.finished.index(seat) + 1 if seat in state.finished else 0
        out.append(
            {
                "total": inscriptions,
                "breakdown": {
                    "inscriptions": inscriptions,
                    "items": state.items[seat].bit_count(),
                    "chamber_entry": place,
                },
            }
        )
    return out


FAR = 99


def maze_distances(state: TombState, targets: list[int], blocked: tuple[int, ...] = ()) -> list[int]:
    """Steps from every square to the nearest target through mutual openings; face-down squares count as
    open on every side (they can still be turned to connect); the curse and the ``blocked`` squares block,
    and the chamber is never passed through (it is only ever a target)."""
    kind, opn, curse = state.kind, state.opn, state.curse
    chamber = CHAMBER_CELL
    adjacent = state._rules.adjacent_chamber
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


def _figure_distance(state: TombState, seat: int, dist: list[int]) -> int:
    """Steps for the seat's best placed archaeologist (one in reserve enters at the best corner)."""
    t = state._rules.tables
    best = FAR
    for p in state.fig[FIGURES * seat : FIGURES * seat + FIGURES]:
        if 0 <= p < CELLS:
            best = min(best, dist[p])
        elif p >= CELLS:
            best = min(best, 1 + dist[t.corners[p - CELLS]])
        elif p == RESERVE:
            best = min(best, 2 + min(dist[c] for c in t.corners))
    return best


def _hazards(state: TombState) -> list[tuple[int, int]]:
    """Revealed tiles that kill or cannot be entered, with the item that protects against each."""
    hazard = state._rules.tables.hazard
    return [(c, hazard[k]) for c, k in enumerate(state.kind) if k >= 0 and hazard[k] >= 0]


LAST_DIP = 0.01
"""How far below -1 the last seat outside may be valued: its place is fixed, so without this every move of it
would be worth exactly -1 and the bots would wander; entering (-1) stays its best action."""

LOSS = 10.0
"""Heuristic units a seat loses with an inscription colour it can never read (the chamber stays shut to it).
Only differences between seats count (the values are centred), so a wall that cuts off a face-down square
costs most the seats that miss the most colours still face down."""


def _cut_off(state: TombState, face_down: list[int]) -> tuple[int, list[int]]:
    """How many face-down squares no figure can reach any more (walls all round, the outer wall included), and
    per cell its distance from the entrances' corners (FAR: cut off). Hazards are ignored: protection can still
    be found, walls cannot be undone in the small pyramid."""
    reach = maze_distances(state, list(state._rules.tables.corners))
    return sum(1 for c in face_down if reach[c] >= FAR), reach


def _loss_risk(state: TombState, seat: int, cut: int, face_down: int, reach: list[int],
               by_colour: dict[int, list[int]]) -> float:
    """Expected number of the seat's missing colours it can never read: a colour whose revealed tiles are cut
    off is lost once none is left face down; one still face down is lost if every copy is drawn into a cut-off
    square (each reveal is a draw from the pool, so a copy lies in a cut-off square with chance cut / face_down)."""
    t = state._rules.tables
    share = cut / face_down if face_down else 0.0
    pooled: dict[int, int] = {}
    for k, count in enumerate(state.pool):
        if count and t.features[k] == INSCRIPTION:
            pooled[t.kinds[k].detail] = pooled.get(t.kinds[k].detail, 0) + count
    for k in state.assigned.values():
        if t.features[k] == INSCRIPTION:
            pooled[t.kinds[k].detail] = pooled.get(t.kinds[k].detail, 0) + 1
    risk = 0.0
    for colour in range(len(t.colours)):
        if state.insc[seat] >> colour & 1:
            continue
        if any(reach[c] < FAR for c in by_colour.get(colour, ())):
            continue
        copies = pooled.get(colour, 0)
        risk += share ** copies if copies else 1.0
    return risk


SPREAD = 0.95
"""Share of the range of the places still open that the heuristic may use: a seat outside the chamber is
always valued below the next free place, so entering as soon as possible is never worse than waiting."""


def place_return(place: int, n: int) -> float:
    """The return of 0-based ``place`` among ``n`` seats without ties: +1 for the first, -1 for the last."""
    return 1.0 - 2.0 * place / (n - 1)


def evaluate(state: TombState) -> list[float]:
    """Heuristic returns. A seat in the chamber gets the return of its place, which no later play can change.
    The seats outside share the places still open: each gets a value inside the range of those places' returns
    (centred on their mean), from inscriptions read, maze distance to the chamber (with enough inscriptions) or
    else to a revealed missing inscription or the nearest face-down tile, whether the chamber can still be
    reached (weighted by inscriptions read), the expected number of its missing colours that walls have cut off
    for good, and items held. So entering the chamber is always worth at least as much as staying outside. The
    last seat outside has a fixed place (-1): its value dips at most ``LAST_DIP`` below -1 with its distance to
    the chamber, so its moves head for the chamber and entering stays its best action.

    Distances are the seat's own: revealed kill and cannot-enter tiles it holds no protection against are
    walls to it, so its archaeologists route round them, and a figure that dies and restarts from the
    reserve loses value in proportion to the steps it had gained."""
    t = state._rules.tables
    n = state.num_players
    face_down = [c for c, k in enumerate(state.kind) if k < 0]
    by_colour: dict[int, list[int]] = {}
    features = t.features
    for c, k in enumerate(state.kind):
        if k >= 0 and features[k] == INSCRIPTION:
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
    if len(outside) == 1:
        s = outside[0]
        items = state.items[s]
        blocked = tuple(c for c, item in hazards if not items >> item & 1)
        steps = _figure_distance(state, s, distances([t.chamber], blocked))
        out[s] = -1.0 - LAST_DIP * min(steps, 48) / 48
        return out
    cut, reach = _cut_off(state, face_down)
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
            value -= LOSS * _loss_risk(state, s, cut, len(face_down), reach, by_colour)
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
