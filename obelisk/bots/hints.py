"""Hints: what the search bot would play in a seat's place, and how sure it is.

A hint is an ISMCTS search run for the seat to act, so like every bot it sees
the hidden parts of the position only through
``resample_from_infostate(seat, rng)``: two positions that the seat cannot
tell apart get the same hint. Its generator is seeded by the caller, never by
the game's seed, so a hint cannot carry anything of the secret shuffle.
"""

from __future__ import annotations

from dataclasses import dataclass

from obelisk.bots.ismcts import ISMCTSBot
from obelisk.bots.params import Budget, parse_budget
from obelisk.core import IllegalActionError, State, i18n

tr = i18n.ui

HINT_BUDGET = "300"
"""Iterations of a hint's search: under a second in every game, enough to rank the obvious moves."""


@dataclass(frozen=True)
class Suggestion:
    """One candidate action: its share of the search's root visits and its mean return for the seat."""

    action: int
    label: str
    share: float
    """Fraction of the root visits, 0..1: how often the search preferred this action."""
    value: float | None
    """The seat's mean return after this action in the search, -1 (last) .. +1 (first); None unsearched."""


def suggest(state: State, seat: int, budget: Budget | str = HINT_BUDGET, seed: int = 0,
            top: int = 3) -> list[Suggestion]:
    """The ``top`` actions an ISMCTS search of ``budget`` ranks best for ``seat``, most visited first.

    ``seat`` must be the seat to act; a decision with one legal action is
    suggested with share 1 and no value, without searching.
    """
    if state.current_player() != seat:
        raise IllegalActionError(tr("player {player} is not to act, so there is nothing to suggest", player=seat + 1))
    legal = state.legal_actions()
    if len(legal) == 1:
        return [Suggestion(legal[0], state.action_to_string(legal[0]), 1.0, None)]
    search = ISMCTSBot(state.game, seat, seed, budget=parse_budget(budget) if isinstance(budget, str) else budget)
    root = search.search(state, legal)
    searched = [a for a in legal if a in root.children and root.children[a].visits]
    total = sum(root.children[a].visits for a in searched)
    ranked = sorted(searched, key=lambda a: (-root.children[a].visits, -root.children[a].reward, a))[:top]
    return [
        Suggestion(a, state.action_to_string(a), root.children[a].visits / total,
                   root.children[a].reward / root.children[a].visits)
        for a in ranked
    ]
