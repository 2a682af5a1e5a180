"""The cheater: perfect-information MCTS that reads the true state.

It exists only to measure how much hidden information costs the honest bots
(an upper bound in ``benchmarks/strength.py`` and the arena); it must never
take a seat against people. It runs the ISMCTS search without
determinization and keys every edge by its action id, so the tree is an
ordinary MCTS tree over the real position with sampled chance.

Spec: the same as ``ismcts`` (``cheater:1s``, ``cheater:2000,depth=20``).
"""

from __future__ import annotations

from typing import Hashable

from obelisk.bots.ismcts import ISMCTSBot, parse_search_argument
from obelisk.core import Game, State


class CheaterBot(ISMCTSBot):
    """MCTS over the true state (evaluation only)."""

    kind = "cheater"

    def _determinize(self, state: State) -> State:
        return state.clone()

    def _edge_key(self, state: State, action: int, actor: int) -> Hashable:
        return action

    def _chance_key(self, state: State, outcome: int) -> Hashable:
        return outcome


def factory(game: Game, seat: int, seed: int, argument: str) -> CheaterBot:
    """The bot of a spec ``cheater[:ARGUMENT]`` (``obelisk.bots`` registers it under that kind)."""
    return CheaterBot(game, seat, seed, **parse_search_argument("cheater", argument, game))

