"""The action space of King Solomon's Treasury: its id ranges, the label of every id and why one is illegal.

Ids, in range order: tile moves (square × 8 directions), magic items, digs
(orientation × anchor square), Seal squares, "end turn without digging", paying
with coins, paying with a treasure value, giving a tile kind, choosing a card.
Labels and reasons read a position passed in (``state``) and change nothing.
"""

from __future__ import annotations

from typing import Any, Final

import obelisk.games.solomon.data as d
from obelisk.core import ActionSpace

# Action ids: the ranges of ``make_actions`` in order.
MOVE0: Final = 0
USE0: Final = MOVE0 + d.SQUARES * 8
DIG0: Final = USE0 + len(d.MAGIC_KINDS)
SEAL0: Final = DIG0 + d.ORIENTATIONS * d.SQUARES
END: Final = SEAL0 + d.SQUARES
PAY_COINS: Final = END + 1
PAY_TREASURE0: Final = PAY_COINS + 1
GIVE0: Final = PAY_TREASURE0 + len(d.TREASURE_KINDS)
CHOOSE0: Final = GIVE0 + d.NUM_KINDS

_DIRECTION_WORDS: Final = ("north-west", "north", "north-east", "west", "east", "south-west", "south", "south-east")


def _move_labels() -> tuple[str, ...]:
    labels = []
    for sq in range(d.SQUARES):
        for direction in range(8):
            to = d.MOVE_TARGET[sq * 8 + direction]
            if to >= 0:
                labels.append(f"move {d.square_name(sq)}→{d.square_name(to)}")
            else:
                labels.append(f"move {d.square_name(sq)} {_DIRECTION_WORDS[direction]} (off the cave)")
    return tuple(labels)


MOVE_LABELS: Final = _move_labels()
"""The label of every move id, on the cave or off it (the latter never legal)."""


def make_actions(cards: int) -> ActionSpace:
    """The action space of a game whose card table holds ``cards`` excavation cards."""
    return ActionSpace(
        [
            ("move", d.SQUARES * 8),
            ("use", len(d.MAGIC_KINDS)),
            ("dig", d.ORIENTATIONS * d.SQUARES),
            ("seal", d.SQUARES),
            ("end", 1),
            ("pay_coins", 1),
            ("pay_treasure", len(d.TREASURE_KINDS)),
            ("give", d.NUM_KINDS),
            ("choose", cards),
        ]
    )


def action_to_string(state: Any, action: int) -> str:
    """The label of ``action`` in ``state`` (a chance outcome while chance is to act)."""
    kind = state._chance_kind()
    if kind is not None:
        return _chance_label(state, kind, action)
    if action < USE0:
        return MOVE_LABELS[action]
    space = state._rules.actions
    if not 0 <= action < space.size:
        return f"action {action}"
    name, index = space.decode(action)
    if name == "choose":
        return f"choose card {state._rules.tables.cards[index].number}"
    if name == "use":
        return f"use {d.MAGIC_NAMES[index]}"
    if name == "dig":
        o, anchor = divmod(index, d.SQUARES)
        where = f"at {d.square_name(anchor)}" + (f" ({d.orientation_name(o)})" if o else "")
        return f"dig card {state._card(state._active()).number} {where}" if state.order else f"dig {where}"
    if name == "seal":
        return f"Seal: dig {d.square_name(index)}"
    if name == "end":
        return "end turn without digging"
    if name == "pay_coins":
        coins = state.coins[state._active()] if state.order else 0
        return f"pay {min(coins, state.owed) or 1} with coins"
    if name == "pay_treasure":
        value = d.TREASURE_VALUES[index]
        change = value - state.owed
        return f"pay with treasure {value}" + (f" (change {change})" if state.phase == "pay" and change > 0 else "")
    to = f" to seat {state.give_to[0]}" if state.give_to else ""
    return f"give {d.KIND_NAMES[index]}{to}"


def _chance_label(state: Any, kind: str, outcome: int) -> str:
    if kind == "deal":
        cards = state._rules.tables.cards
        number = cards[outcome].number if outcome < len(cards) else outcome
        return f"deal card {number} to seat {state.cards_dealt % state.num_players}"
    tile = d.KIND_NAMES[outcome] if outcome < d.NUM_KINDS else f"tile {outcome}"
    if kind == "top":
        return f"reveal {d.square_name(state.tops_revealed)}: {tile}"
    if kind == "reveal":
        return f"reveal {d.square_name(state.reveal_queue[0])}: {tile}"
    return f"seat {state.deal_to[0]} receives {tile} face down"


def illegal_reason(state: Any, action: int) -> str:
    """Why ``action`` is not legal in ``state``, in the words of the rules."""
    space = state._rules.actions
    if state._chance_kind() is not None or not 0 <= action < space.size:
        return f"action {action} is outside this game's action space (0..{space.size - 1})"
    name, index = space.decode(action)
    label = action_to_string(state, action)
    if state.phase == "choose":
        if name != "choose":
            return f"{label}: every player first chooses an excavation card for this round"
        return f"{label}: card {state._rules.tables.cards[index].number} is not in seat {state.chooser}'s hand"
    seat = state._active()
    card = state._card(seat)
    if name == "choose":
        return f"{label}: cards are chosen at the start of a round, seat {seat} is playing card {card.number}"
    if state.phase == "pay":
        if name in ("pay_coins", "pay_treasure"):
            return f"{label}: seat {seat} has no " + ("coins" if name == "pay_coins" else "such treasure")
        return f"{label}: seat {seat} must first pay the {state.owed} still owed for this turn"
    if state.phase == "give":
        if name == "give":
            return f"{label}: seat {seat} has no {d.KIND_NAMES[index]} to give"
        return f"{label}: seat {seat} must give one own tile to seat {state.give_to[0]}"
    if state.seal:
        if name != "seal":
            return f"{label}: the Seal dig has begun ({len(state.seal)} of {card.size} squares chosen); choose its next square"
        return _seal_reason(state, index, label)
    if name in ("pay_coins", "pay_treasure", "give"):
        return f"{label}: payments come after the dig (or after ending the turn)"
    if name == "move":
        return _move_reason(state, seat, index, label)
    if name == "use":
        if state.items[index]:
            return f"{label}: the {d.MAGIC_FULL_NAMES[index]} is already in use this turn"
        return f"{label}: seat {seat} holds no {d.MAGIC_FULL_NAMES[index]} (items dug this turn cannot be used)"
    if name == "dig":
        return _dig_reason(state, seat, card, index, label)
    if name == "seal":
        if not state.items[d.SEAL]:
            return f"{label}: digging square by square needs the Seal of Solomon in use"
        return _seal_reason(state, index, label)
    return f"{label} is not legal now"


def _move_reason(state: Any, seat: int, index: int, label: str) -> str:
    frm, to = index // 8, d.MOVE_TARGET[index]
    limit = state.game.options["move_limit"]
    if to < 0:
        return f"{label}: that leads off the cave"
    if limit and state.moves >= limit:
        return f"{label}: at most {limit} moves per turn (option move_limit)"
    if not state._may_move(seat):
        return (
            f"{label}: seat {seat} could not pay for move {state.moves + 1}: coins and treasures "
            f"are worth {state._wealth(seat)}"
        )
    if not state.heights[frm]:
        return f"{label}: {d.square_name(frm)} is empty"
    if state.heights[to] >= d.MAX_STACK:
        return f"{label}: {d.square_name(to)} already holds {d.MAX_STACK} tiles"
    return (
        f"{label}: the tile is on level {state.heights[frm]} and would land on level {state.heights[to] + 1}; "
        "tiles never move up"
    )


def _dig_reason(state: Any, seat: int, card: d.Card, index: int, label: str) -> str:
    o, anchor = divmod(index, d.SQUARES)
    if o >= 4 and not state.game.options["mirror_reflect"]:
        return f"{label}: the Mirror turns the card but never mirrors it (option mirror_reflect)"
    if o and not state.items[d.MIRROR]:
        return f"{label}: the card's arrow must point to the entrance; turning it needs the Mirror in use"
    if o not in card.orientations:
        return f"{label}: this orientation of card {card.number} repeats a lower one; use that label"
    mask = card.masks[o][anchor]
    if not mask:
        return f"{label}: card {card.number} placed there leaves the cave"
    squares = [sq for sq in range(d.SQUARES) if mask >> sq & 1]
    empty = [d.square_name(sq) for sq in squares if not state.heights[sq]]
    if empty:
        return f"{label}: covers empty square(s) {', '.join(empty)}; an empty square can never be dug"
    levels = sorted({state.heights[sq] for sq in squares})
    return (
        f"{label}: covers stacks on levels {', '.join(map(str, levels))}; "
        "all must be on the same level unless the Magic Pickaxe is used"
    )


def _seal_reason(state: Any, sq: int, label: str) -> str:
    if not state.heights[sq]:
        return f"{label}: {d.square_name(sq)} is empty"
    if sq in state.seal:
        return f"{label}: {d.square_name(sq)} is already chosen"
    if not state.seal:
        return f"{label}: fewer than {state._card(state._active()).size} connected squares on that level around it"
    if state.heights[sq] != state.heights[state.seal[0]] and not state.items[d.PICKAXE]:
        return f"{label}: the Seal area must stay on level {state.heights[state.seal[0]]} without the Pickaxe"
    return f"{label}: the Seal area must stay connected; {d.square_name(sq)} touches no chosen square"

