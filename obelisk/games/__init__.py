"""The four games, one subpackage each; importing this package registers them all.

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


def _import_all() -> None:
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if module.ispkg and not module.name.startswith("_"):
            importlib.import_module(f"{__name__}.{module.name}")


class _GamesModule(types.ModuleType):
    def __call__(self) -> list[GameInfo]:
        """The registered games (id, name, player range, options, description)."""
        return _registered_games()


sys.modules[__name__].__class__ = _GamesModule
_import_all()
