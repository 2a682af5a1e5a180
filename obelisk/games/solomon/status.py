"""What the table says about the game in words: the decision at hand and the progress, from a seat's view
alone.

Both read only the observation (the phase, the round, the turn in progress and the turn order), so they
can name nothing a seat may not see: while cards are chosen nobody's choice is named.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import obelisk.games.solomon.data as d
from obelisk.core import i18n
from obelisk.core.previews import Preview

tr = i18n.domain("solomon")


def render_decision(view: Mapping[str, Any]) -> str:
    """What the seat to act must do now, in words: ``move tiles, use an item, dig with card 12 or end the turn``."""
    if view.get("terminal") or view.get("current_player", -1) < 0:
        return ""
    phase = view["phase"]
    if phase == "choose":
        return tr("choose an excavation card for round {n}", n=view["round"])
    turn = view["turn"]
    if phase == "pay":
        return tr.n("pay the {n} owed with coins or treasures", "pay the {n} owed with coins or treasures",
                    turn["owed"])
    if phase == "give":
        return tr("give a tile to player {n}", n=turn["give_to"][0] + 1)
    if turn["seal_squares"]:
        return tr("choose the next square to dig with the Seal")
    return tr("move tiles, use an item, dig with card {card} or end the turn", card=turn["card"])


def render_progress(view: Mapping[str, Any]) -> str:
    """``round 3 of 8 · turn 2 of 3``: rounds as cards in hand, turns in the order of the cards played."""
    parts = [tr("round {n} of {rounds}", n=view["round"], rounds=view["rounds"])]
    turn = view.get("turn")
    if turn is not None:
        parts.append(tr("turn {n} of {players}", n=view["turn_order"].index(turn["seat"]) + 1,
                        players=len(view["turn_order"])))
    elif view["phase"] == "choose" and view["setup_done"]:
        parts.append(tr("choosing cards"))
    return " · ".join(parts)


def previews(game: Any, view: Mapping[str, Any], actions: Sequence[int]) -> list[Preview]:
    """Before a dig: the squares the played card covers there and the coins the turn would then cost, 1 per
    move and the values of the curses it takes (every stack's top tile is face up; none with the Amulet in
    use); before a move (one preview for them all) or the end of a turn: the coins the turn's moves come to.
    From the seat's view and the card table alone."""
    turn = view.get("turn")
    if view["phase"] != "turn" or not turn:
        return []
    cards = {card.number: card for card in game.tables.cards}
    found = []
    moves = []
    for action in actions:
        name, index = game.actions.decode(action)
        if name == "dig":
            found.append(_dig_preview(view, action, cards[turn["card"]], index))
        elif name == "seal":
            square = d.square_name(index)
            found.append(Preview((action,), tr("the Seal would dig {square}: {tile}", square=square,
                                               tile=_top(view, index)), (square,)))
        elif name == "move":
            moves.append(action)
        elif name == "end" and turn["moves"]:
            found.append(Preview((action,), tr.n("the turn's {n} move costs {n} coin",
                                                 "the turn's {n} moves cost {n} coins", turn["moves"])))
    if moves:
        # Every move costs the same: said once for all of them.
        found.append(Preview(tuple(moves), tr.n("move {n} of the turn: the moves cost {n} coin when the turn is paid",
                                                "move {n} of the turn: the moves cost {n} coins when the turn is paid",
                                                turn["moves"] + 1)))
    return found


def _top(view: Mapping[str, Any], square: int) -> str:
    """The face-up top tile of a square in words."""
    stack = view["stacks"][square]
    return tr.term("tile", stack[-1]) if stack else tr("a face-down tile")


def _dig_preview(view: Mapping[str, Any], action: int, card: d.Card, index: int) -> Preview:
    orientation, anchor = divmod(index, d.SQUARES)
    mask = card.masks[orientation][anchor]
    squares = [sq for sq in range(d.SQUARES) if mask >> sq & 1]
    curses = 0
    if "Amulet" not in view["turn"]["items_used"]:
        curses = sum(d.CURSE_VALUE[d.KIND_NAMES.index(view["stacks"][sq][-1])] for sq in squares if view["stacks"][sq])
    moves = view["turn"]["moves"]
    names = tuple(d.square_name(sq) for sq in squares)
    cost = tr.n("{n} coin", "{n} coins", moves + curses)
    return Preview((action,), tr("digs {squares}: the turn then costs {cost} ({curses} for curses)",
                                 squares=", ".join(names), cost=cost, curses=curses), names)
