"""Simulation at scale: tournaments between bots (local processes or Ray) and balance reports."""

from obelisk.sim.arena import GameResult, Tournament, make_tournament, run_tournament, summarise

__all__ = ["GameResult", "Tournament", "make_tournament", "run_tournament", "summarise"]
