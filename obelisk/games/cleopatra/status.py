"""What the table says about the game now, from a seat's view alone: the decision at hand and the progress.

Both read only the observation (the phase, whose turn it is, what is still to pay, Cleopatra's step), so
they can name nothing a seat may not see: a secret bid or a Vizier's card is never named.
"""

from __future__ import annotations

from typing import Any, Mapping

from obelisk.core import i18n
from obelisk.games.cleopatra.view import resource_name

tr = i18n.domain("cleopatra")


def render_decision(view: Mapping[str, Any]) -> str:
    """What the seat to act must do now, in words: ``take a market stall or build at the quarry``."""
    if view.get("terminal") or view.get("current_player", -1) < 0:
        return ""
    phase = view["phase"]
    builder = view["turn"] + 1
    if phase == "pay":
        units = ", ".join(f"{count} {resource_name(name)}" for name, count in view["to_pay"].items())
        return tr("pay for the piece: {units} still due", units=units)
    if phase == "beggars":
        return tr("give player {n} 2 talents or a standard card", n=builder)
    if phase == "envoy_offer":
        return tr("offer player {n} standard cards, or none", n=builder)
    return {
        "turn": tr("take a market stall or build at the quarry; characters may be played"),
        "refill": tr("choose which drawn card goes on which stall"),
        "build": tr("build another piece or finish building"),
        "place": tr("choose where the piece goes"),
        "claim": tr("claim a sanctuary with an Anubis statue, or not"),
        "after": tr("play a character or end the turn"),
        "limit": tr("more than 10 cards: discard down to 10 or pay amulets"),
        "limit_discard": tr("discard a card"),
        "courtesans": tr("take a card from the discard pile"),
        "envoy_accept": tr("accept offered cards, or stop"),
        "vizier": tr("keep or reject the drawn card"),
        "offering": tr("bid talents in secret for the Offering"),
    }[phase]


def render_progress(view: Mapping[str, Any]) -> str:
    """``round 4 · Cleopatra at step 2 of 5 · altar 3 of 5 dice``: the game ends when Cleopatra reaches the
    palace door, an Offering comes when every die is on the altar."""
    return " · ".join([
        tr("round {n}", n=view["round"]),
        tr("Cleopatra at step {step} of {steps}", step=view["cleopatra"], steps=view["cleopatra_steps"]),
        tr("altar {n} of {dice} dice", n=view["altar"], dice=view["dice"]),
    ])
