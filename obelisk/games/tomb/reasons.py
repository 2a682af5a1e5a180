"""Why an action is illegal: specific messages for every action range and phase."""

from __future__ import annotations

from typing import TYPE_CHECKING

from obelisk.games.tomb.actions import SPACE
from obelisk.games.tomb.board import (
    BIT,
    CELLS,
    CHOCOLATE,
    DIR_NAMES,
    FIRST_ENTRANCE,
    FLASK,
    FOOD,
    KEY,
    MONEY,
    NEIGH,
    OPP,
    PAPYRUS,
    PLAN,
    SCARF,
    TORCH,
    WATER,
    square_name,
)

from obelisk.games.tomb import state as st
from obelisk.games.tomb.state import FIGURES

if TYPE_CHECKING:
    from obelisk.games.tomb.state import TombState

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


def illegal_reason(state: "TombState", action: int) -> str:
    try:
        name, index = SPACE.decode(action)
    except ValueError:
        return f"action id {action} is outside the action space (0..{SPACE.size - 1})"
    label = state._action_to_string(action)
    phase = state.phase
    t = state.game.tables
    seat = state.player
    expected = {
        st.ORIENT: "orient the revealed tile",
        st.TURN_KEY: "choose how the golden key turns the tile",
        st.CURSE: "place the curse",
        st.CHEST_TAKE: "take an item from the chest",
        st.MAP_PICK: "choose the square the map reveals",
        st.LOOK: "choose a face-down tile to look at with the plan",
        st.SWAP: "decide whether to swap the two tiles",
        st.ROB: "choose the item to rob (or rob nothing)",
        st.TAKE: "take the item on the tile or leave it",
    }
    if phase in expected:
        wanted = {
            st.ORIENT: "orient",
            st.TURN_KEY: "orient",
            st.CURSE: "curse",
            st.CHEST_TAKE: "chest",
            st.MAP_PICK: "map",
            st.LOOK: "look",
            st.SWAP: "swap",
            st.ROB: "rob",
            st.TAKE: "take",
        }[phase]
        if name != wanted:
            return f"'{label}' is not possible now: seat {seat} must first {expected[phase]}"
        return _follow_up_reason(state, name, index, label)
    if name in _FOLLOW_UP:
        return f"'{label}' is only possible as a follow-up choice; now seat {seat} is to {st.PHASE_NAMES[phase]}"
    if phase == st.SELECT:
        if name in ("step", "step_in", "passage", "flask", "end", "torch", "key", "papyrus"):
            return f"'{label}': first choose an archaeologist to move (or bring one in at an entrance)"
        if name == "select":
            return _select_reason(state, index)
        if name == "enter":
            return f"seat {seat} has no archaeologist in reserve (all three are on the board)"
        if name == "pass":
            return "passing is allowed only when no archaeologist can move or come in"
    elif phase == st.MOVE and name in ("select", "enter", "pass"):
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


def _select_reason(state: "TombState", pos: int) -> str:
    seat = state.player
    mine = state.fig[FIGURES * seat : FIGURES * seat + FIGURES]
    if pos not in mine:
        return f"seat {seat} has no archaeologist on {square_name(pos)}"
    return f"the archaeologist on {square_name(pos)} cannot take a single step"


def _item_reason(state: "TombState", name: str, index: int, label: str) -> str:
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
    if name in ("torch", "key", "flask", "papyrus") and state.phase != st.MOVE:
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


def _step_reason(state: "TombState", name: str, index: int, label: str) -> str:
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


def _follow_up_reason(state: "TombState", name: str, index: int, label: str) -> str:
    t = state.game.tables
    if name == "orient":
        if state.phase == st.TURN_KEY:
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
