"""The action space of Valley of the Kings, the action labels, and why an action is illegal.

Action ids are ranges of one ``ActionSpace`` (``make_actions``): card ranges
are indexed by card kind, pyramid ranges by slot (``B1 B2 B3 M1 M2 T``).
Chance outcomes are card kinds.
"""

from __future__ import annotations

from typing import Any

import obelisk.games.valley.rules as R
from obelisk.core import ActionSpace
from obelisk.games.valley.rules import Rules


def make_actions(k: int) -> ActionSpace:
    """The action ranges for a card table of ``k`` card kinds."""
    return ActionSpace(
        [
            ("buy", 3), ("play", k), ("entomb", k), ("end_turn", 1), ("pay", k), ("fill_b2", 2),
            ("remove", 6), ("take", 6), ("choose", k), ("from_discard", k), ("from_tomb", k),
            ("repeat", k), ("boat", 3), ("pass", 1), ("censer", 1),
        ]
    )


def action_label(rules: Rules, stack: list[tuple[Any, ...]], pyramid: list[int], hand_gold: int, action: int) -> str:
    """The text of an action id (or of a chance outcome while a draw is pending, on top of ``stack``), as every seat
    that may see it reads it."""
    names = rules.names
    if stack and stack[-1][0] >= R.REFILL:
        top = stack[-1]
        name = names[action] if 0 <= action < len(names) else f"card {action}"
        code = top[0]
        if code == R.DRAW:
            return f"seat {top[1]} draws {name}"
        if code == R.REVEAL:
            return f"seat {top[1]} reveals {name}"
        if code == R.REFILL:
            return f"deal {name} to {R.SLOT_NAMES[top[1]]}"
        if code == R.FIRST_BONEYARD:
            return f"turn up {name} as the first boneyard card"
        return f"seat {top[1]} takes {name} from the stock"
    kind_name, index = rules.actions.decode(action)
    top = stack[-1] if stack else (R.MAIN, 0)
    if kind_name in ("buy", "boat", "remove", "take"):
        slot = R.SLOT_NAMES[index]
        card = pyramid[index]
        what = f"{names[card]} ({slot})" if card >= 0 else f"the empty slot {slot}"
        if kind_name == "buy":
            return f"buy {what}" + (f" for {rules.cost[card]}" if card >= 0 else "")
        if kind_name == "boat":
            return f"use Boat to take {what}"
        if kind_name == "remove":
            return f"remove {what} to the boneyard"
        if top[0] == R.PICK_SLOT and top[2] == R.TO_TOMB:
            return f"entomb {what}"
        return f"take {what}"
    if kind_name == "end_turn":
        return "end turn"
    if kind_name == "pass":
        return "pass (no Boat)"
    if kind_name == "censer":
        return "reveal Censer to ignore the attack"
    if kind_name == "fill_b2":
        source = 3 + index
        card = pyramid[source]
        return f"drop {R.SLOT_NAMES[source]}" + (f" ({names[card]})" if card >= 0 else "") + " into B2"
    name = names[index]
    if kind_name == "play":
        return f"play {name}"
    if kind_name == "entomb":
        return f"entomb {name}"
    if kind_name == "pay":
        gold = hand_gold if hand_gold else rules.gold[index]  # Statue of Thoth fixes every card's worth
        return f"pay with {name} ({gold} gold)"
    if kind_name == "from_discard":
        return f"entomb {name} from your discard pile"
    if kind_name == "from_tomb":
        return f"return {name} from your tomb to your hand"
    if kind_name == "repeat":
        return f"repeat the action of {name}"
    if top[0] == R.HAND_PICK:
        return (
            f"put {name} on top of your deck",
            f"entomb {name}",
            f"sacrifice {name} (take a card costing up to {rules.cost[index] * top[3]})",
            f"sacrifice {name}",
        )[top[2]]
    if top[0] == R.VICTIM and top[2] == R.TRIBUTE:
        return f"give {name} to seat {top[3]}"
    return f"sacrifice {name}"


def hidden_label(stack: list[tuple[Any, ...]]) -> str:
    """What the other seats read of the face-down step on top of ``stack``: a draw, or a hand card put on the deck."""
    top = stack[-1]
    if top[0] == R.DRAW:
        return f"seat {top[1]} draws a card"
    return f"seat {top[1]} puts a card from their hand on top of their deck"


def waiting_for(state: Any) -> str:
    """Who must do what now, in words (observations show it; an illegal action's message ends with it)."""
    if state.over:
        return "the game is over"
    names = state.rules.names
    top = state.stack[-1]
    code = top[0]
    if code >= R.REFILL:
        return "a card is being drawn"
    seat = top[1]
    texts = {
        R.MAIN: f"seat {seat}: buy, play, entomb or end the turn",
        R.FILL_B2: f"seat {seat}: choose which middle card drops into B2",
        R.FORCED: f"seat {seat}: the pyramid was not touched; remove a card to the boneyard",
        R.PICK_SLOT: f"seat {seat}: choose the pyramid card to take",
        R.DISCARD_PICK: f"seat {seat}: choose a discard-pile card to entomb",
        R.TOMB_PICK: f"seat {seat}: choose a tomb card to return to hand",
        R.REPEAT: f"seat {seat}: choose the action to repeat",
        R.BOAT: f"seat {seat}: may use Boat after seat {state.active}'s purchase",
    }
    if code == R.PAY:
        return f"seat {seat}: pay for {names[state.pyramid[top[2]]]} ({top[3]} gold still due)"
    if code == R.HAND_PICK:
        return f"seat {seat}: " + (
            "put a hand card on top of the deck",
            "entomb a hand card",
            "sacrifice a hand card (Book of the Earth)",
            "sacrifice a hand card, then draw",
        )[top[2]]
    if code == R.VICTIM:
        verb = "sacrifice a hand card" if top[2] == R.SACRIFICE else f"give a hand card to seat {top[3]}"
        return f"seat {seat}: {verb}"
    return texts[code]


_ALLOWED = {
    R.MAIN: ("buy", "play", "entomb", "end_turn"),
    R.PAY: ("pay",),
    R.FILL_B2: ("fill_b2",),
    R.FORCED: ("remove",),
    R.PICK_SLOT: ("take",),
    R.HAND_PICK: ("choose",),
    R.DISCARD_PICK: ("from_discard",),
    R.TOMB_PICK: ("from_tomb",),
    R.REPEAT: ("repeat",),
    R.BOAT: ("boat", "pass"),
    R.VICTIM: ("choose", "censer"),
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
        return f"{label!r} is not possible now; {waiting_for(state)}"
    hand = state.hands[seat]
    if kind_name in ("play", "entomb", "pay", "choose") and index not in hand:
        return f"seat {seat} has no {names[index]} in hand"
    if kind_name in ("buy", "boat", "remove", "take") and state.pyramid[index] < 0:
        return f"there is no card in {R.SLOT_NAMES[index]}"
    if kind_name == "buy":
        card = state.pyramid[index]
        return f"{names[card]} costs {table.cost[card]} but your hand is worth only {state.purse(seat)} gold"
    if kind_name == "play":
        return f"{names[index]} cannot be played now: {state.play_check(seat, index, index)}"
    if kind_name == "entomb":
        return "you have already entombed a card this turn (one normal entombment per turn)"
    if kind_name == "choose" and code == R.HAND_PICK and top[2] == R.SACRIFICE_TAKE:
        return f"no pyramid card costs at most {top[3]}x the cost of {names[index]} ({table.cost[index]})"
    if kind_name == "censer":
        return f"seat {seat} has no Censer in hand"
    if kind_name == "boat":
        return f"seat {seat} has no Boat in hand"
    if kind_name == "take":
        allowed = ", ".join(R.SLOT_NAMES[s] for s in top[3])
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
