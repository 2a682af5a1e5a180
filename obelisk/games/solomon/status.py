"""What the table says about the game in words: the decision at hand and the progress, from a seat's view
alone.

Both read only the observation (the phase, the round, the turn in progress and the turn order), so they
can name nothing a seat may not see: while cards are chosen nobody's choice is named.
"""

from __future__ import annotations

from typing import Any, Mapping

from obelisk.core import i18n

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
