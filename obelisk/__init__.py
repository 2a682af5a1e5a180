"""Obelisk: four Egyptian-themed board games with every rule enforced.

>>> import obelisk
>>> [g.id for g in obelisk.games()]          # doctest: +SKIP
>>> game = obelisk.load("valley", players=2)  # doctest: +SKIP
"""

from obelisk.native import check_compiled_builds

check_compiled_builds()

from obelisk.core import (  # noqa: E402  (after the check, which must run before compiled modules load)
    CHANCE,
    TERMINAL,
    Game,
    GameInfo,
    IllegalActionError,
    Option,
    State,
    load,
)
from obelisk import games  # noqa: E402  (registers the games; callable: obelisk.games())

__all__ = ["CHANCE", "TERMINAL", "Game", "GameInfo", "IllegalActionError", "Option", "State", "games", "load"]
__version__ = "0.1.0"
