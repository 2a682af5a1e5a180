"""The tomb's end in words: who entered the burial chamber first, who followed, and how the rest ranked.

The rulebook's goal (*Pohřební komnata*): whoever first opens the burial chamber and enters it wins, the
next to enter take the next places; players still outside rank by the inscriptions they read.
"""

from __future__ import annotations

from typing import Any

from obelisk.core import i18n
from obelisk.core.outcome import first_places, player, players, sentence, standings, ties, won

tr = i18n.domain("tomb")


def inscriptions(total: int) -> str:
    return tr.n("{n} inscription", "{n} inscriptions", total)


def outcome(state: Any, places: list[int]) -> tuple[list[int], list[str]]:
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
