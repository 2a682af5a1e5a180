"""The end of a game in words: who won, each seat's place, and why.

``State.outcome()`` gives ``{"winners", "places", "reasons"}``; the places come from the game's ranking
(``_rank_keys``), the reasons from the game's hook ``State._outcome``, which words them with the helpers
here so every game says "player 2" (counted from 1) and names its ties the same way. Everything is
worded in the active language (``obelisk.core.i18n``) and read off the final position, where nothing
is hidden any more.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from obelisk.core import i18n
from obelisk.core.text import ordinal

tr = i18n.ui


def places(keys: Sequence[Any]) -> list[int]:
    """Each seat's 1-based place from its rank key (higher ranks better); equal keys share the better place."""
    return [1 + sum(other > key for other in keys) for key in keys]


def player(seat: int) -> str:
    """``player 2``: a seat as players count them, from 1."""
    return tr("player {n}", n=seat + 1)


def players(seats: Sequence[int]) -> str:
    """``player 1``, ``player 1 and player 3``, ``player 1, player 2 and player 4``."""
    named = [player(seat) for seat in seats]
    if len(named) == 1:
        return named[0]
    return tr("{first} and {last}", first=", ".join(named[:-1]), last=named[-1])


def sentence(text: str) -> str:
    """``text`` with its first letter capitalised, for a line that begins with a player."""
    return text[:1].upper() + text[1:]


def points(total: int) -> str:
    """``45 points``: the default wording of a score."""
    return tr.n("{n} point", "{n} points", total)


def first_places(places_: Sequence[int]) -> list[int]:
    """The seats in first place: the winners, unless a game's rule bars some of them."""
    return [seat for seat, place in enumerate(places_) if place == 1]


def ranking(state: Any, places_: Sequence[int], amount: Callable[[int], str] = points) -> list[str]:
    """The default reasons: who won with what score, then every tie of scores and what broke it."""
    totals = [entry["total"] for entry in state.scores()]
    return [*won(first_places(places_), totals, amount), *ties(state, places_, amount)]


def won(winners: Sequence[int], totals: Sequence[int], amount: Callable[[int], str] = points) -> list[str]:
    """``Player 2 won with 45 points.``, or who share the win; nothing when nobody won."""
    if len(winners) == 1:
        return [sentence(tr("{player} won with {amount}.", player=player(winners[0]),
                            amount=amount(totals[winners[0]])))]
    if winners:
        return [sentence(tr("{players} share the win with {amount} each.", players=players(winners),
                            amount=amount(totals[winners[0]])))]
    return []


def ties(state: Any, places_: Sequence[int], amount: Callable[[int], str] = points,
         among: Sequence[int] | None = None) -> list[str]:
    """A line per group of seats (of ``among``, by default all) with equal ``scores()`` totals: the place
    they share, or the order the game's tie-break (``State.tie_break``) gave them and its rule. Seats
    sharing the first place are left to the line saying they share the win (``won``)."""
    totals = [entry["total"] for entry in state.scores()]
    counted = range(len(totals)) if among is None else among
    lines = []
    for total in dict.fromkeys(totals[seat] for seat in counted):
        seats = [seat for seat in counted if totals[seat] == total]
        if len(seats) > 1 and {places_[seat] for seat in seats} != {1}:
            lines.append(_tie(state, seats, places_, amount(total)))
    return lines


def standings(seats: Sequence[int], places_: Sequence[int], totals: Sequence[int], amount: Callable[[int], str]
              ) -> str:
    """``player 3 2nd (3 inscriptions), player 2 3rd (2 inscriptions)``: ``seats`` in order of place."""
    order = sorted(seats, key=lambda seat: places_[seat])
    return ", ".join(tr("{player} {place} ({amount})", player=player(seat), place=ordinal(places_[seat]),
                        amount=amount(totals[seat])) for seat in order)


def _tie(state: Any, seats: list[int], places_: Sequence[int], amount: str) -> str:
    """One group of equal scores: the place they share, or the tie-break's order and its rule."""
    if len({places_[seat] for seat in seats}) == 1:
        return sentence(tr("{players} tied with {amount} each and share the {place} place.", players=players(seats),
                           amount=amount, place=ordinal(places_[seats[0]])))
    order = sorted(seats, key=lambda seat: places_[seat])
    rules = [state.tie_break(ahead, behind) for ahead, behind in zip(order, order[1:])
             if places_[ahead] != places_[behind]]
    named = [rule for rule in dict.fromkeys(rules) if rule]
    ranked = ", ".join(tr("{player} {place}", player=player(seat), place=ordinal(places_[seat])) for seat in order)
    if len(named) == len(set(rules)):
        return sentence(tr("{players} had {amount} each; the tie-break ({rule}) decided: {order}.",
                           players=players(seats), amount=amount, rule=tr(", then ").join(named), order=ranked))
    return sentence(tr("{players} had {amount} each; the tie-break decided: {order}.", players=players(seats),
                       amount=amount, order=ranked))
