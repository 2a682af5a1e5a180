"""What the table says about the game now, from a seat's view alone: the decision at hand and the progress.

Both read only the observation (``turn``, ``pending``, the round, the chamber and the face-down count), so
they can name nothing a seat may not see.
"""

from __future__ import annotations

from typing import Any, Mapping

from obelisk.core import i18n

tr = i18n.domain("tomb")


def render_decision(view: Mapping[str, Any]) -> str:
    """What the seat to act must do now, in words: ``move the archaeologist on C3: 2 steps left``."""
    if view.get("terminal") or view.get("current_player", -1) < 0:
        return ""
    turn = view["turn"]
    pending = view.get("pending") or {}
    phase = turn["phase"]
    if phase == "choose archaeologist":
        return tr.n("choose an archaeologist to move {n} step", "choose an archaeologist to move {n} steps",
                    turn["die"])
    if phase == "move":
        if not turn["steps"]:
            return tr("use an item or end the turn")
        if turn["active"] is None:
            return tr.n("step in at an entrance: {n} step left", "step in at an entrance: {n} steps left",
                        turn["steps"])
        return tr.n("move the archaeologist on {square}: {n} step left",
                    "move the archaeologist on {square}: {n} steps left", turn["steps"], square=turn["active"])
    if phase == "orient tile":
        return tr("choose how the tile on {square} is turned", square=pending["square"])
    if phase == "golden key":
        return tr("turn the tile on {square} with the golden key", square=pending["square"])
    if phase == "rob":
        return tr("choose what to rob from player {n}", n=pending["victim"] + 1)
    if phase == "take item":
        return tr("take the item on {square} or leave it", square=pending["square"])
    return {
        "place curse": tr("put the curse on a revealed tile"),
        "take from chest": tr("take an item from the chest"),
        "map": tr("reveal a face-down tile with the map, or leave the map unused"),
        "plan: look": tr("choose a face-down tile to look at with the plan"),
        "plan: swap?": tr("swap the two tiles looked at, or put them back unchanged"),
    }[phase]


def render_progress(view: Mapping[str, Any]) -> str:
    """``round 4 · chamber closed · 31 tiles face down``, or who is inside once the chamber is open."""
    parts = [tr("round {n}", n=view["round"])]
    inside = len(view["finish_order"])
    if not view["chamber_open"]:
        parts.append(tr("chamber closed"))
    elif inside:
        parts.append(tr.n("chamber open: {n} player inside", "chamber open: {n} players inside", inside))
    else:
        parts.append(tr("chamber open"))
    parts.append(tr.n("{n} tile face down", "{n} tiles face down", view["face_down"]))
    return " · ".join(parts)
