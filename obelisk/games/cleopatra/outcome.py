"""Cleopatra's end in words: the crocodile first, then the richest architect left and the ties.

Read off the final tally (``state.final``): the most corrupt architect is eaten and cannot win, the
survivors rank by talents, equal talents by fewer amulets (the rulebook's *Konec hry*).
"""

from __future__ import annotations

from typing import Any

from obelisk.core import i18n
from obelisk.core.outcome import first_places, player, players, sentence, ties

tr = i18n.domain("cleopatra")


def talents(total: int) -> str:
    return tr.n("{n} talent", "{n} talents", total)


def outcome(state: Any, places: list[int]) -> tuple[list[int], list[str]]:
    """The winners (the richest survivors: an eaten architect never wins) and the reasons."""
    final = state.final
    eaten = [seat for seat in range(state.num_players) if final["eaten"][seat]]
    survivors = [seat for seat in range(state.num_players) if seat not in eaten]
    winners = [seat for seat in first_places(places) if seat not in eaten]
    totals = final["talents"]
    lines = _crocodile(final["amulets"], eaten, state._rules.crocodile_ties)
    if len(winners) == 1:
        lines.append(sentence(tr("{player}, the richest architect left, won with {amount}.",
                                 player=player(winners[0]), amount=talents(totals[winners[0]]))))
    elif winners:
        lines.append(sentence(tr("{players}, the richest architects left, share the win with {amount} each.",
                                 players=players(winners), amount=talents(totals[winners[0]]))))
    else:
        lines.append(tr("Every architect was eaten: nobody wins."))
    return winners, lines + ties(state, places, talents, among=survivors)


def _crocodile(corruption: list[int], eaten: list[int], rule: str) -> list[str]:
    """Who had the most corruption, and whom the crocodile ate for it (the rule for several: ``crocodile_ties``)."""
    most = max(corruption)
    tied = [seat for seat, amulets in enumerate(corruption) if amulets == most]
    amulets = tr.n("{n} amulet", "{n} amulets", most)
    if len(tied) == 1:
        return [sentence(tr("{player} had the most corruption ({amulets}) and was eaten by the crocodile.",
                            player=player(tied[0]), amulets=amulets))]
    if not eaten:
        return [sentence(tr("{players} tied for the most corruption ({amulets}), so the crocodile ate nobody.",
                            players=players(tied), amulets=amulets))]
    if eaten == tied:
        return [sentence(tr("{players} tied for the most corruption ({amulets}) and were all eaten by the "
                            "crocodile.", players=players(tied), amulets=amulets))]
    return [sentence(tr("{players} tied for the most corruption ({amulets}); the crocodile ate the richest of "
                        "them, {eaten}.", players=players(tied), amulets=amulets, eaten=players(eaten)))]
