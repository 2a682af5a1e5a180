"""Why an action is illegal, and whether a loaded state is consistent."""

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


def validate_state(state: Any) -> str | None:
    """Describe the first inconsistency of a loaded state, or return None."""
    table = state.game.table
    n = state.num_players
    k = table.size
    for field in ("hands", "decks", "deck_sizes", "tops", "shown", "discards", "tombs", "turns"):
        if len(getattr(state, field)) != n:
            return f"{field} must have one entry per seat ({n})"
    for seat in range(n):
        hand = list(state.hands[seat])
        for kind in state.shown[seat]:
            if kind not in hand:
                return f"seat {seat}: a card shown in the hand ({kind!r}) is not in the hand"
            hand.remove(kind)
    piles = [*state.hands, *state.tops, *state.discards, *state.tombs, state.boneyard, state.play, state.revealed]
    piles.append([c for c in state.pyramid if c != -1])
    for pile in piles:
        if any(type(c) is not int or not 0 <= c < k for c in pile):
            return f"a pile holds a card id outside 0..{k - 1}"
    if len(state.pyramid) != 6:
        return "the pyramid must have 6 slots"
    counts = [0] * k
    for pool in (*state.decks, state.stock_ii, state.stock_iii):
        if len(pool) != k or any(type(c) is not int or c < 0 for c in pool):
            return f"a deck or stock pool must hold {k} non-negative counts"
        for kind, c in enumerate(pool):
            counts[kind] += c
    for seat in range(n):
        if state.deck_sizes[seat] != sum(state.decks[seat]):
            return f"deck size of seat {seat} does not match its pool"
    if state.stock_sizes != [sum(state.stock_ii), sum(state.stock_iii)]:
        return "stock sizes do not match the stock pools"
    for pile in piles:
        for c in pile:
            counts[c] += 1
    for kind in range(k):
        expected = table.per_player[kind] * n if table.level[kind] == 1 else table.copies[kind]
        if counts[kind] != expected:
            return f"{table.names[kind]}: {counts[kind]} copies in play, expected {expected}"
    if not 0 <= state.active < n:
        return f"active seat {state.active} is not a seat"
    if state.over:
        return None if not state.stack else "a finished game has pending steps"
    if not state.stack or any(type(f) is not tuple or not f or type(f[0]) is not int for f in state.stack):
        return "the pending steps are malformed"
    top = state.stack[-1]
    if top[0] not in F.DECISIONS and top[0] not in F.CHANCES:
        return "the pending step on top is not a decision or a draw"
    if top[0] in F.DECISIONS and not 0 <= top[1] < n:
        return "the pending decision names no seat"
    return None
