"""What the table says about the game in words: the decision at hand and the progress, from a seat's view
alone, and at the end the outcome.

The decision and the progress read only the observation (``turn``, ``pending``, the round, the chamber and
the face-down count), so they can name nothing a seat may not see. The outcome follows the rulebook's goal
(*Pohřební komnata*): whoever first opens the burial chamber and enters it wins, the next to enter take the
next places, and players still outside rank by the inscriptions they read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from obelisk.core import i18n
from obelisk.core.outcome import first_places, player, players, sentence, standings, ties, won

if TYPE_CHECKING:
    from obelisk.games.tomb.state import TombState

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


def inscriptions(total: int) -> str:
    return tr.n("{n} inscription", "{n} inscriptions", total)


def outcome(state: TombState, places: list[int]) -> tuple[list[int], list[str]]:
    """The winners (the first into the chamber, or the best reader when nobody got in) and the reasons."""
    entered = list(state.finished)
    outside = [seat for seat in range(state.num_players) if seat not in entered]
    winners = first_places(places)
    lines = []
    if entered:
        lines.append(sentence(tr("{player} was the first into the burial chamber.", player=player(entered[0]))))
        if len(entered) > 2:
            lines.append(tr("Then {players} entered it, in that order.", players=players(entered[1:])))
        elif len(entered) == 2:
            lines.append(tr("Then {player} entered it.", player=player(entered[1])))
    if state.round > state._rules.max_rounds:
        lines.append(tr.n("The game stopped at the limit of {n} round.", "The game stopped at the limit of {n} rounds.",
                          state._rules.max_rounds))
    totals = [entry["total"] for entry in state.scores()]
    if not entered:
        lines.append(tr("Nobody reached the burial chamber, so the inscriptions read decided."))
        lines += won(winners, totals, inscriptions)
    elif outside:
        lines.append(tr("Outside the chamber, the inscriptions read decided: {order}.",
                        order=standings(outside, places, totals, inscriptions)))
    return winners, lines + ties(state, places, inscriptions, among=outside)
