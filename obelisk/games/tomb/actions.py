"""The action space of Secret of the Ancient Tomb (stable ids), the chance outcome ids, the action labels and
why an action is illegal.

A turn is broken into small decisions: pick an archaeologist (or bring a new
one in at an entrance), then one step at a time, with item uses as separate
actions at the moments the rules allow them. Follow-up choices (orienting a
revealed tile, placing the curse, taking from the chest or a tile, robbing)
are their own ranges; the optional ones (taking an item from a tile, using a
flipped map, robbing) can be declined with ``decline``. Chance outcomes: ids
0..5 are die rolls 1..6, id ``6 + k`` draws tile kind ``k`` from the
face-down pool.
"""

from __future__ import annotations

from typing import Any, Final

from obelisk.core import ActionSpace

from obelisk.games.tomb.board import (
    BIT,
    CELLS,
    CHOCOLATE,
    DIR_NAMES,
    ENTRANCES,
    FIRST_ENTRANCE,
    FLASK,
    FOOD,
    ITEM_IDS,
    KEY,
    MONEY,
    NEIGH,
    OPP,
    PAPYRUS,
    PLAN,
    SCARF,
    TORCH,
    WATER,
    letters_of,
    square_name,
)
from obelisk.games.tomb.rules import (
    CHEST_TAKE,
    CURSE,
    DRAW,
    FIGURES,
    LOOK,
    MAP_PICK,
    MOVE,
    ORIENT,
    PEEK,
    PHASE_NAMES,
    ROB,
    ROLL,
    SELECT,
    SWAP,
    TAKE,
    TURN_KEY,
)

SPACE: Final = ActionSpace(
    [
        ("select", CELLS + 4),
        ("enter", 4),
        ("pass", 1),
        ("step", 4),
        ("step_in", 1),
        ("passage", CELLS),
        ("flask", 4),
        ("end", 1),
        ("food", 1),
        ("water", 1),
        ("chocolate", 5),
        ("torch", 1),
        ("scarf", 1),
        ("papyrus", 1),
        ("plan", 1),
        ("buy", len(ITEM_IDS)),
        ("key", CELLS),
        ("orient", 16),
        ("curse", CELLS),
        ("chest", len(ITEM_IDS)),
        ("map", CELLS),
        ("look", CELLS),
        ("swap", 2),
        ("rob", len(ITEM_IDS)),
        ("take", 1),
        ("decline", 1),
    ]
)

A_SELECT: Final = SPACE.start("select")
A_ENTER: Final = SPACE.start("enter")
A_PASS: Final = SPACE.start("pass")
A_STEP: Final = SPACE.start("step")
A_STEP_IN: Final = SPACE.start("step_in")
A_PASSAGE: Final = SPACE.start("passage")
A_FLASK: Final = SPACE.start("flask")
A_END: Final = SPACE.start("end")
A_FOOD: Final = SPACE.start("food")
A_WATER: Final = SPACE.start("water")
A_CHOCOLATE: Final = SPACE.start("chocolate")
A_TORCH: Final = SPACE.start("torch")
A_SCARF: Final = SPACE.start("scarf")
A_PAPYRUS: Final = SPACE.start("papyrus")
A_PLAN: Final = SPACE.start("plan")
A_BUY: Final = SPACE.start("buy")
A_KEY: Final = SPACE.start("key")
A_ORIENT: Final = SPACE.start("orient")
A_CURSE: Final = SPACE.start("curse")
A_CHEST: Final = SPACE.start("chest")
A_MAP: Final = SPACE.start("map")
A_LOOK: Final = SPACE.start("look")
A_SWAP: Final = SPACE.start("swap")
A_ROB: Final = SPACE.start("rob")
A_TAKE: Final = SPACE.start("take")
A_DECLINE: Final = SPACE.start("decline")

DIE_FACES: Final = 6
TILE_OFFSET: Final = DIE_FACES
"""Chance id of tile kind ``k`` is ``TILE_OFFSET + k``."""


OPEN_STEPS: Final = tuple(
    tuple((NEIGH[c][d], BIT[OPP[d]], A_STEP + d) for d in range(4) if mask & BIT[d] and NEIGH[c][d] >= 0)
    for c in range(CELLS)
    for mask in range(16)
)
"""Per ``cell * 16 + openings``: (neighbour, its opening back, step action) for each open on-board direction,
so the step search visits only the directions a square opens toward."""


def action_label(state: Any, action: int) -> str:
    """The label of ``action`` in the position ``state`` (the protocol's ``action_to_string``)."""
    phase = state.phase
    t = state.game.tables
    if phase == ROLL:
        return f"roll {action + 1}" if 0 <= action < DIE_FACES else f"chance outcome {action}"
    if phase in (DRAW, PEEK):
        k = action - TILE_OFFSET
        name = t.kinds[k].name if 0 <= k < len(t.pool) else f"tile kind {k}"
        cell = state.rv_cell if phase == DRAW else state.looked[-1]
        verb = "reveal" if phase == DRAW else f"seat {state.player} sees"
        return f"{verb} {square_name(cell)}: {name}"
    name, i = SPACE.decode(action)
    pos = state._pos()
    if name == "select":
        where = f"at the {square_name(i)}" if i >= FIRST_ENTRANCE else f"on {square_name(i)}"
        return f"move the archaeologist {where}"
    if name == "enter":
        return f"bring an archaeologist in at the {ENTRANCES[i]} entrance"
    if name == "pass":
        return "pass (no archaeologist can move)"
    if name in ("step", "flask"):
        q = NEIGH[pos][i] if 0 <= pos < CELLS else -1
        target = f" to {square_name(q)}" if q >= 0 else ""
        if name == "flask":
            return f"use the magic flask: through the wall {DIR_NAMES[i]}{target}"
        return f"step {DIR_NAMES[i]}{target}" + (" (ghost)" if state.ghost else "")
    if name == "step_in":
        if pos >= FIRST_ENTRANCE:
            corner = square_name(t.corners[pos - FIRST_ENTRANCE])
            return f"step in from the {square_name(pos)} to {corner}" + (" (ghost)" if state.ghost else "")
        return "step in from an entrance"
    if name == "passage":
        return f"take the secret passage to {square_name(i)}"
    if name == "end":
        return "end turn"
    if name == "food":
        return "eat food: die to 6"
    if name == "water":
        return "drink water: die to 5"
    if name == "chocolate":
        return f"eat chocolate: die to {i + 1}"
    if name == "torch":
        return "light the torch: reveal the neighbouring face-down tiles"
    if name == "scarf":
        return "wear the scarf: stepping back allowed this turn"
    if name == "papyrus":
        return "read the papyrus of the dead: ghost walk"
    if name == "plan":
        return "study the plan: look at two face-down tiles"
    if name == "buy":
        return f"buy {t.item_names[i]} with money"
    if name == "key":
        return f"use the golden key on {square_name(i)}"
    if name == "orient":
        if phase == TURN_KEY and state.key_cell >= 0:
            return f"turn {square_name(state.key_cell)}: openings {letters_of(i) or '-'}"
        return f"orient tile: openings {letters_of(i) or '-'}"
    if name == "curse":
        return f"put the curse on {square_name(i)}"
    if name == "chest":
        return f"take {t.item_names[i]} from the chest"
    if name == "map":
        return f"use the map: reveal {square_name(i)}"
    if name == "look":
        return f"look at the face-down tile on {square_name(i)}"
    if name == "swap":
        if len(state.looked) == 2:
            a, b = [square_name(c) for c in state.looked]
            return f"swap the tiles on {a} and {b}" if i else f"put the tiles on {a} and {b} back unchanged"
        return "swap the two tiles" if i else "put the two tiles back unchanged"
    if name == "take":
        return f"take the {t.item_names[state.offer]}" if phase == TAKE else "take the item on the tile"
    owner = state.victims[0] // FIGURES if state.victims and phase == ROB else -1
    if name == "decline":
        if phase == MAP_PICK:
            return "leave the map unused"
        if phase == TAKE:
            return f"leave the {t.item_names[state.offer]} on the tile"
        return f"rob nothing from seat {owner}" if owner >= 0 else "decline the optional choice"
    return f"rob {t.item_names[i]} from seat {owner}" if owner >= 0 else f"rob {t.item_names[i]}"


_ITEM_OF = {
    "food": FOOD,
    "water": WATER,
    "chocolate": CHOCOLATE,
    "torch": TORCH,
    "scarf": SCARF,
    "papyrus": PAPYRUS,
    "plan": PLAN,
    "buy": MONEY,
    "key": KEY,
    "flask": FLASK,
}
_FOLLOW_UP = ("orient", "curse", "chest", "map", "look", "swap", "rob", "take", "decline")


def illegal_reason(state: Any, action: int) -> str:
    """A specific message for every action range and phase."""
    try:
        name, index = SPACE.decode(action)
    except ValueError:
        return f"action id {action} is outside the action space (0..{SPACE.size - 1})"
    label = action_label(state, action)
    phase = state.phase
    t = state.game.tables
    seat = state.player
    expected = {
        ORIENT: "orient the revealed tile",
        TURN_KEY: "choose how the golden key turns the tile",
        CURSE: "place the curse",
        CHEST_TAKE: "take an item from the chest",
        MAP_PICK: "choose the square the map reveals",
        LOOK: "choose a face-down tile to look at with the plan",
        SWAP: "decide whether to swap the two tiles",
        ROB: "choose the item to rob (or rob nothing)",
        TAKE: "take the item on the tile or leave it",
    }
    if phase in expected:
        wanted = {
            ORIENT: "orient",
            TURN_KEY: "orient",
            CURSE: "curse",
            CHEST_TAKE: "chest",
            MAP_PICK: "map",
            LOOK: "look",
            SWAP: "swap",
            ROB: "rob",
            TAKE: "take",
        }[phase]
        if name != wanted:
            return f"'{label}' is not possible now: seat {seat} must first {expected[phase]}"
        return _follow_up_reason(state, name, index, label)
    if name in _FOLLOW_UP:
        return f"'{label}' is only possible as a follow-up choice; now seat {seat} is to {PHASE_NAMES[phase]}"
    if phase == SELECT:
        if name in ("step", "step_in", "passage", "flask", "end", "torch", "key", "papyrus"):
            return f"'{label}': first choose an archaeologist to move (or bring one in at an entrance)"
        if name == "select":
            return _select_reason(state, index)
        if name == "enter":
            return f"seat {seat} has no archaeologist in reserve (all three are on the board)"
        if name == "pass":
            return "passing is allowed only when no archaeologist can move or come in"
    elif phase == MOVE and name in ("select", "enter", "pass"):
        return f"'{label}': the turn already belongs to the archaeologist on {square_name(state._pos())}"
    if name in _ITEM_OF:
        item = _ITEM_OF[name]
        if not state.items[seat] >> item & 1:
            return f"seat {seat} does not hold the {t.item_names[item]}"
        return _item_reason(state, name, index, label)
    if name in ("step", "step_in", "passage"):
        return _step_reason(state, name, index, label)
    if name == "end":
        return "movement is compulsory: a legal step exists, so the turn cannot end yet"
    return f"'{label}' is not legal now"


def _select_reason(state: Any, pos: int) -> str:
    seat = state.player
    mine = state.fig[FIGURES * seat : FIGURES * seat + FIGURES]
    if pos not in mine:
        return f"seat {seat} has no archaeologist on {square_name(pos)}"
    return f"the archaeologist on {square_name(pos)} cannot take a single step"


def _item_reason(state: Any, name: str, index: int, label: str) -> str:
    t = state.game.tables
    if state.ghost and name in ("torch", "key", "plan", "flask", "papyrus"):
        return f"'{label}': during a ghost walk only items that act on the walker alone may be used"
    if name == "food" and state.die == 6:
        return "the die already shows 6"
    if name == "water" and state.die == 5:
        return "the die already shows 5"
    if name == "chocolate":
        if state.steps:
            return "chocolate may be used only before moving"
        return f"chocolate only lowers the die: it shows {state.die}"
    if name in ("torch", "key", "flask", "papyrus") and state.phase != MOVE:
        return f"'{label}': first choose the archaeologist it acts on"
    if name == "torch":
        return "no face-down tile lies beyond an opening of the archaeologist's square"
    if name == "scarf":
        return "the scarf is already worn this turn"
    if name == "plan":
        return "the plan needs two face-down tiles on the board"
    if name == "papyrus":
        if state.steps >= state.die:
            return "no steps are left to walk as a ghost"
        return f"a ghost must use the whole roll, and no walk of {state.die - state.steps} step(s) is open from here"
    if name in ("food", "water") and state.ghost:
        return f"'{label}': the ghost walk could not use the whole new roll"
    if name == "buy":
        item = index
        if not t.buyable >> item & 1:
            return f"{t.item_names[item]} cannot be bought (magic items, money and items not in play are excluded)"
        if not state.discovered >> item & 1:
            return f"{t.item_names[item]} has not been discovered yet (its stack is still face down)"
        if state.items[state.player] >> item & 1:
            return f"seat {state.player} already holds {t.item_names[item]}"
        return f"the supply has no {t.item_names[item]} left"
    if name == "key":
        pos = state._pos()
        if index != pos and index not in NEIGH[pos]:
            return f"the golden key reaches only {square_name(pos)} and its orthogonal neighbours"
        if index == t.chamber:
            return "the golden key may not turn the burial chamber"
        if state.kind[index] < 0:
            return f"{square_name(index)} is face down"
        if index != pos and any(p == index for p in state.fig):
            return f"{square_name(index)} is occupied by an archaeologist"
        return f"turning {square_name(index)} changes nothing"
    if name == "flask":
        pos = state._pos()
        if state.steps >= state.die:
            return "no steps are left"
        q = NEIGH[pos][index] if 0 <= pos < CELLS else -1
        if q < 0:
            return f"there is no square {DIR_NAMES[index]} of the archaeologist"
        if state.kind[q] < 0:
            return f"the flask leads only onto a revealed tile; {square_name(q)} is face down"
        if state.opn[pos] & BIT[index] and state.opn[q] & BIT[OPP[index]]:
            return f"no wall separates {square_name(pos)} and {square_name(q)}: just step"
        return f"{square_name(q)} cannot be entered"
    return f"'{label}' is not legal now"


def _step_reason(state: Any, name: str, index: int, label: str) -> str:
    t = state.game.tables
    seat = state.player
    pos = state._pos()
    if state.steps >= state.die:
        return f"no steps left: the die shows {state.die} and {state.steps} step(s) were taken"
    if name == "step_in":
        if pos < FIRST_ENTRANCE:
            return "only an archaeologist standing at an entrance steps in"
        corner = t.corners[pos - FIRST_ENTRANCE]
        if corner == state.curse:
            return f"{square_name(corner)} is cursed"
        if state.ghost:
            return f"a ghost must use the whole roll: no walk of {state.die - state.steps} step(s) goes on from here"
        return f"{square_name(corner)} does not open toward the {square_name(pos)} or cannot be entered"
    if name == "passage":
        if state.ghost:
            return "a ghost cannot use the secret passages"
        here = state.kind[pos] if 0 <= pos < CELLS else -1
        if here < 0 or t.kinds[here].feature != 5:
            return f"{square_name(pos)} is not a secret passage"
        if state.kind[index] < 0 or t.kinds[state.kind[index]].feature != 5 or index == pos:
            return f"{square_name(index)} is not another revealed secret passage"
        if index == state.curse:
            return f"{square_name(index)} is cursed"
        return f"you may not go straight back to {square_name(index)}, the square you just left (a scarf lifts this)"
    if pos >= FIRST_ENTRANCE:
        return f"from the {square_name(pos)} the only step is stepping in"
    q = NEIGH[pos][index]
    if q < 0:
        return f"there is no square {DIR_NAMES[index]} of {square_name(pos)}"
    if not state.ghost and not state.opn[pos] & BIT[index]:
        return f"there is a wall: {square_name(pos)} has no opening to the {DIR_NAMES[index]}"
    if q == state.curse:
        return f"{square_name(q)} is cursed: nobody may enter it"
    if q == state.prev and not state.scarf_on:
        return f"you may not step straight back to {square_name(q)}, the square you just left (a scarf lifts this)"
    if q == t.chamber and state.ghost and not state.chamber_open:
        return "a ghost may not enter the burial chamber before it is opened"
    if state.ghost:
        return f"a ghost must use the whole roll: no walk of {state.die - state.steps - 1} more step(s) goes on from {square_name(q)}"
    if q == t.chamber:
        return (
            f"the burial chamber is closed: seat {seat} holds {state.insc[seat].bit_count()} of the "
            f"{t.needed} inscriptions needed"
        )
    k = state.kind[q]
    if k >= 0 and not state.opn[q] & BIT[OPP[index]]:
        return f"there is a wall: {square_name(q)} has no opening to the {DIR_NAMES[OPP[index]]}"
    if k >= 0 and t.blocker[k] >= 0:
        kind = t.kinds[k]
        return f"{square_name(q)} holds {kind.name}; entering needs the {t.item_names[t.blocker[k]]}"
    return f"'{label}' is not legal now"


def _follow_up_reason(state: Any, name: str, index: int, label: str) -> str:
    t = state.game.tables
    if name == "orient":
        if state.phase == TURN_KEY:
            return f"'{label}': the golden key must turn {square_name(state.key_cell)} to a different orientation"
        need = state.rv_need
        shape = t.kinds[state.rv_kind].shape.replace("_", " ")
        if need:
            return f"'{label}' is not an orientation of the {shape} that opens toward the square you come from"
        return f"'{label}' is not an orientation of the {shape}"
    if name == "curse":
        if state.kind[index] < 0:
            return f"the curse goes on a revealed tile; {square_name(index)} is face down"
        if index == t.chamber:
            return "the curse may never go on the burial chamber"
        if index == state.curse:
            return f"the curse is already on {square_name(index)}: move it to another tile"
        return f"{square_name(index)} is occupied by an archaeologist"
    if name == "chest":
        if not state.chest[index]:
            return f"the chest holds no {t.item_names[index]}"
        return f"seat {state.player} already holds {t.item_names[index]}"
    if name in ("map", "look"):
        if state.kind[index] >= 0:
            return f"{square_name(index)} is not face down"
        return f"{square_name(index)} was already looked at with this plan"
    if name == "rob":
        owner = state.victims[0] // FIGURES
        if not state.items[owner] >> index & 1:
            return f"seat {owner} does not hold {t.item_names[index]}"
        return f"seat {state.player} already holds {t.item_names[index]} (only items you lack may be robbed)"
    return f"'{label}' is not legal now"
