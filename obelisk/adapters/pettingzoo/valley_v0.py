"""Valley of the Kings as the PettingZoo AEC env ``obelisk_valley_v0``.

>>> from obelisk.adapters.pettingzoo import valley_v0
>>> env = valley_v0.env(render_mode="ansi")      # players=..., max_cycles=..., game options
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from obelisk.adapters import pettingzoo as generic

GAME_ID = "valley"


def env(players: int | None = None, render_mode: str | None = None, max_cycles: int | None = None,
        **options: Any) -> AECEnv:
    """The env with PettingZoo's usual wrappers (an illegal action ends the game at -1)."""
    return generic.env(GAME_ID, players=players, render_mode=render_mode, max_cycles=max_cycles, **options)


def raw_env(players: int | None = None, render_mode: str | None = None, max_cycles: int | None = None,
            **options: Any) -> generic.ObeliskAECEnv:
    """The env without wrappers."""
    return generic.raw_env(GAME_ID, players=players, render_mode=render_mode, max_cycles=max_cycles, **options)
