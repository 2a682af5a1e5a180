"""Simulation at scale: tournaments between bots (local processes or Ray) and balance reports."""

from obelisk.sim.arena import make_tournament, run_tournament, summarise
from obelisk.sim.tasks import GameResult, Tournament

__all__ = ["GameResult", "Tournament", "make_tournament", "run_tournament", "summarise"]
