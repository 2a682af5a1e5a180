"""Why an action is illegal."""

from __future__ import annotations

from typing import Any

from obelisk.games.valley import frames as F

_ALLOWED = {
    F.MAIN: ("buy", "play", "entomb", "end_turn"),
    F.PAY: ("pay",),
    F.FILL_B2: ("fill_b2",),
    F.FORCED: ("remove",),
    F.PICK_SLOT: ("take",),
    F.HAND_PICK: ("choose",),
    F.DISCARD_PICK: ("from_discard",),
    F.TOMB_PICK: ("from_tomb",),
    F.REPEAT: ("repeat",),
    F.BOAT: ("boat", "pass"),
    F.VICTIM: ("choose", "censer"),
}


def illegal_reason(state: Any, action: int) -> str:
    """A specific message for an action id that is not legal at a decision."""
    g = state.game
    size = g.num_distinct_actions()
    if not 0 <= action < size:
        return f"action id {action} is outside the action space 0..{size - 1}"
    table = g.table
    names = table.names
    top = state.stack[-1]
    code, seat = top[0], top[1]
    kind_name, index = g.actions.decode(action)
    label = state._safe_label(action)
    if kind_name not in _ALLOWED[code]:
        return f"{label!r} is not possible now; {state._waiting_text()}"
    hand = state.hands[seat]
    if kind_name in ("play", "entomb", "pay", "choose") and index not in hand:
        return f"seat {seat} has no {names[index]} in hand"
    if kind_name in ("buy", "boat", "remove", "take") and state.pyramid[index] < 0:
        return f"there is no card in {F.SLOT_NAMES[index]}"
    if kind_name == "buy":
        card = state.pyramid[index]
        return f"{names[card]} costs {table.cost[card]} but your hand is worth only {state.purse(seat)} gold"
    if kind_name == "play":
        return f"{names[index]} cannot be played now: {state.play_check(seat, index, index)}"
    if kind_name == "entomb":
        return "you have already entombed a card this turn (one normal entombment per turn)"
    if kind_name == "choose" and code == F.HAND_PICK and top[2] == F.SACRIFICE_TAKE:
        return f"no pyramid card costs at most {top[3]}x the cost of {names[index]} ({table.cost[index]})"
    if kind_name == "censer":
        return f"seat {seat} has no Censer in hand"
    if kind_name == "boat":
        return f"seat {seat} has no Boat in hand"
    if kind_name == "take":
        allowed = ", ".join(F.SLOT_NAMES[s] for s in top[3])
        return f"this action may take only the card in {allowed}"
    if kind_name == "remove":
        return "the forced removal must take a base card (option forced_removal='base')"
    if kind_name == "from_discard":
        return f"there is no {names[index]} in your discard pile"
    if kind_name == "from_tomb":
        return f"there is no {names[index]} in your tomb"
    if kind_name == "repeat":
        if index not in state.executed:
            return f"you have not executed the action of {names[index]} this turn"
        return f"the action of {names[index]} cannot be repeated now"
    return f"{label!r} is not legal now"
