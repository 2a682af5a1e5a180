"""The games, one subpackage each; importing this package registers them all.

``obelisk.games`` is both this package and the registry listing
``obelisk.games()``: the module's class is swapped for a callable one so both
spellings of the public API work.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import types

from obelisk.core.protocol import GameInfo
from obelisk.core.registry import games as _registered_games


def shipped() -> list[str]:
    """The ids of the games in this package, each a sub-package named by its id, sorted.

    The registry (``obelisk.games()``) may also hold games that tests or other code register; lists of
    "every game" in the tests and tools come from here, so a new game folder is picked up everywhere.
    """
    return sorted(module.name for module in pkgutil.iter_modules(__path__)
                  if module.ispkg and not module.name.startswith("_"))


def _import_all() -> None:
    for game_id in shipped():
        importlib.import_module(f"{__name__}.{game_id}")


class _GamesModule(types.ModuleType):
    def __call__(self) -> list[GameInfo]:
        """The registered games (id, name, player range, options, description)."""
        return _registered_games()


sys.modules[__name__].__class__ = _GamesModule
_import_all()
