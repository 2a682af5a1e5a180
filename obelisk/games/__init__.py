"""The games, one subpackage each; importing this package registers them all.

The registered games are listed by ``obelisk.list_games()`` (the registry's ``games``): this package only
holds the game folders, so ``import obelisk.games.valley.rules`` and ``obelisk.games.shipped()`` mean
one thing each.
"""

from __future__ import annotations

import importlib
import pkgutil


def shipped() -> list[str]:
    """The ids of the games in this package, each a sub-package named by its id, sorted.

    The registry (``obelisk.list_games()``) may also hold games that tests or other code register; lists of
    "every game" in the tests and tools come from here, so a new game folder is picked up everywhere.
    """
    return sorted(module.name for module in pkgutil.iter_modules(__path__)
                  if module.ispkg and not module.name.startswith("_"))


def _import_all() -> None:
    for game_id in shipped():
        importlib.import_module(f"{__name__}.{game_id}")


_import_all()
