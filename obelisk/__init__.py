"""Obelisk: four Egyptian-themed board games with every rule enforced.

>>> import obelisk
>>> [g.id for g in obelisk.list_games()]          # doctest: +SKIP
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
from obelisk.core import games as list_games  # noqa: E402  (the registry's listing, by the name it has here)
from obelisk import games  # noqa: E402  (the package of the games: importing it registers them)

__all__ = [
    "CHANCE", "TERMINAL", "Game", "GameInfo", "IllegalActionError", "Option", "State", "games", "list_games", "load",
]
__version__ = "0.1.0"
