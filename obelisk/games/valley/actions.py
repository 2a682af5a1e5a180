"""The action space of Valley of the Kings, the action labels, and why an action is illegal.

Action ids are ranges of one ``ActionSpace`` (``make_actions``): card ranges
are indexed by card kind, pyramid ranges by slot (``B1 B2 B3 M1 M2 T``).
Chance outcomes are card kinds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import obelisk.games.valley.rules as R
from obelisk.core import ActionSpace, i18n
from obelisk.games.valley.rules import Rules

if TYPE_CHECKING:
    from obelisk.games.valley.state import ValleyState

tr = i18n.domain("valley")


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
    that may see it reads it, in the active language: a decision's label (``tr.action``: a button, or a log line
    inside ``i18n.telling``), a chance outcome's line of the log (in the past tense, naming whom it concerns)."""
    names = rules.names
    if stack and stack[-1][0] >= R.REFILL:
        top = stack[-1]
        name = tr.term("card", names[action]) if 0 <= action < len(names) else tr("card {index}", index=action)
        code = top[0]
        if code == R.DRAW:
            return tr("player {player} drew {card}", player=top[1] + 1, card=name)
        if code == R.REVEAL:
            return tr("player {player} revealed {card}", player=top[1] + 1, card=name)
        if code == R.REFILL:
            return tr("{card} dealt to {slot}", card=name, slot=R.SLOT_NAMES[top[1]])
        if code == R.FIRST_BONEYARD:
            return tr("{card} turned up as the first boneyard card", card=name)
        return tr("player {player} took {card} from the stock", player=top[1] + 1, card=name)
    kind_name, index = rules.actions.decode(action)
    top = stack[-1] if stack else (R.MAIN, 0)
    if kind_name in ("buy", "boat", "remove", "take"):
        slot = R.SLOT_NAMES[index]
        card = pyramid[index]
        if card >= 0:
            what = tr("{card} ({slot})", card=tr.term("card", names[card]), slot=slot)
        else:
            what = tr("the empty slot {slot}", slot=slot)
        if kind_name == "buy":
            if card >= 0:
                return tr.action("buy {what} for {cost}", what=what, cost=rules.cost[card])
            return tr.action("buy {what}", what=what)
        if kind_name == "boat":
            return tr.action("use Boat to take {what}", what=what)
        if kind_name == "remove":
            return tr.action("remove {what} to the boneyard", what=what)
        if top[0] == R.PICK_SLOT and top[2] == R.TO_TOMB:
            return tr.action("entomb {what}", what=what)
        return tr.action("take {what}", what=what)
    if kind_name == "end_turn":
        return tr.action("end turn")
    if kind_name == "pass":
        return tr.action("pass (no Boat)")
    if kind_name == "censer":
        return tr.action("reveal Censer to ignore the attack")
    if kind_name == "fill_b2":
        source = 3 + index
        card = pyramid[source]
        if card >= 0:
            return tr.action("drop {slot} ({card}) into B2", slot=R.SLOT_NAMES[source], card=tr.term("card", names[card]))
        return tr.action("drop {slot} into B2", slot=R.SLOT_NAMES[source])
    name = tr.term("card", names[index])
    if kind_name == "play":
        return tr.action("play {card}", card=name)
    if kind_name == "entomb":
        return tr.action("entomb {card}", card=name)
    if kind_name == "pay":
        gold = hand_gold if hand_gold else rules.gold[index]  # Statue of Thoth fixes every card's worth
        return tr.action("pay with {card} ({gold} gold)", card=name, gold=gold)
    if kind_name == "from_discard":
        return tr.action("entomb {card} from your discard pile", card=name)
    if kind_name == "from_tomb":
        return tr.action("return {card} from your tomb to your hand", card=name)
    if kind_name == "repeat":
        return tr.action("repeat the action of {card}", card=name)
    if top[0] == R.HAND_PICK:
        purpose = top[2]
        if purpose == R.TOPDECK:
            return tr.action("put {card} on top of your deck", card=name)
        if purpose == R.ENTOMB:
            return tr.action("entomb {card}", card=name)
        if purpose == R.SACRIFICE_TAKE:
            return tr.action("sacrifice {card} (take a card costing up to {cost})", card=name, cost=rules.cost[index] * top[3])
        return tr.action("sacrifice {card}", card=name)
    if top[0] == R.VICTIM and top[2] == R.TRIBUTE:
        return tr.action("give {card} to player {player}", card=name, player=top[3] + 1)
    return tr.action("sacrifice {card}", card=name)


def hidden_label(stack: list[tuple[Any, ...]]) -> str:
    """What the other seats read of the face-down step on top of ``stack``: a draw (naming whose), or a hand card
    put on the deck (the decision of the seat the log line is shown after)."""
    top = stack[-1]
    if top[0] == R.DRAW:
        return tr("player {player} drew a card", player=top[1] + 1)
    return tr("put a card from the hand on top of the deck")


def waiting_for(state: ValleyState) -> str:
    """Who must do what now, in words (observations show it; an illegal action's message ends with it)."""
    if state.over:
        return tr("the game is over")
    names = state.rules.names
    top = state.stack[-1]
    code = top[0]
    if code >= R.REFILL:
        return tr("a card is being drawn")
    seat = top[1]
    if code == R.MAIN:
        return tr("player {player}: buy, play, entomb or end the turn", player=seat + 1)
    if code == R.FILL_B2:
        return tr("player {player}: choose which middle card drops into B2", player=seat + 1)
    if code == R.FORCED:
        return tr("player {player}: the pyramid was not touched; remove a card to the boneyard", player=seat + 1)
    if code == R.PICK_SLOT:
        return tr("player {player}: choose the pyramid card to take", player=seat + 1)
    if code == R.DISCARD_PICK:
        return tr("player {player}: choose a discard-pile card to entomb", player=seat + 1)
    if code == R.TOMB_PICK:
        return tr("player {player}: choose a tomb card to return to hand", player=seat + 1)
    if code == R.REPEAT:
        return tr("player {player}: choose the action to repeat", player=seat + 1)
    if code == R.BOAT:
        return tr("player {player}: may use Boat after player {active}'s purchase", player=seat + 1, active=state.active + 1)
    if code == R.PAY:
        return tr("player {player}: pay for {card} ({due} gold still due)", player=seat + 1,
                  card=tr.term("card", names[state.pyramid[top[2]]]), due=top[3])
    if code == R.HAND_PICK:
        purpose = top[2]
        if purpose == R.TOPDECK:
            return tr("player {player}: put a hand card on top of the deck", player=seat + 1)
        if purpose == R.ENTOMB:
            return tr("player {player}: entomb a hand card", player=seat + 1)
        if purpose == R.SACRIFICE_TAKE:
            return tr("player {player}: sacrifice a hand card (Book of the Earth)", player=seat + 1)
        return tr("player {player}: sacrifice a hand card, then draw", player=seat + 1)
    if top[2] == R.SACRIFICE:
        return tr("player {player}: sacrifice a hand card", player=seat + 1)
    return tr("player {player}: give a hand card to player {other}", player=seat + 1, other=top[3] + 1)


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


def illegal_reason(state: ValleyState, action: int) -> str:
    """A specific message for an action id that is not legal at a decision."""
    g = state.game
    size = g.num_distinct_actions()
    if not 0 <= action < size:
        return tr("action id {action} is outside the action space 0..{last}", action=action, last=size - 1)
    table = state.rules.table
    names = table.names
    top = state.stack[-1]
    code, seat = top[0], top[1]
    kind_name, index = state.rules.actions.decode(action)
    label = repr(state._safe_label(action))
    if kind_name not in _ALLOWED[code]:
        return tr("{label} is not possible now; {waiting}", label=label, waiting=waiting_for(state))
    hand = state.hands[seat]
    name = tr.term("card", names[index]) if 0 <= index < len(names) else ""
    if kind_name in ("play", "entomb", "pay", "choose") and index not in hand:
        return tr("player {player} has no {card} in hand", player=seat + 1, card=name)
    if kind_name in ("buy", "boat", "remove", "take") and state.pyramid[index] < 0:
        return tr("there is no card in {slot}", slot=R.SLOT_NAMES[index])
    if kind_name == "buy":
        card = state.pyramid[index]
        return tr("{card} costs {cost} but your hand is worth only {gold} gold", card=tr.term("card", names[card]),
                  cost=table.cost[card], gold=state.purse(seat))
    if kind_name == "play":
        return tr("{card} cannot be played now: {reason}", card=name, reason=state.play_check(seat, index, index))
    if kind_name == "entomb":
        return tr("you have already entombed a card this turn (one normal entombment per turn)")
    if kind_name == "choose" and code == R.HAND_PICK and top[2] == R.SACRIFICE_TAKE:
        return tr("no pyramid card costs at most {factor}x the cost of {card} ({cost})", factor=top[3], card=name,
                  cost=table.cost[index])
    if kind_name == "censer":
        return tr("player {player} has no Censer in hand", player=seat + 1)
    if kind_name == "boat":
        return tr("player {player} has no Boat in hand", player=seat + 1)
    if kind_name == "take":
        allowed = ", ".join(R.SLOT_NAMES[s] for s in top[3])
        return tr("this action may take only the card in {slots}", slots=allowed)
    if kind_name == "remove":
        return tr("the forced removal must take a base card (option forced_removal='base')")
    if kind_name == "from_discard":
        return tr("there is no {card} in your discard pile", card=name)
    if kind_name == "from_tomb":
        return tr("there is no {card} in your tomb", card=name)
    if kind_name == "repeat":
        if index not in state.executed:
            return tr("you have not executed the action of {card} this turn", card=name)
        return tr("the action of {card} cannot be repeated now", card=name)
    return tr("{label} is not legal now", label=label)
