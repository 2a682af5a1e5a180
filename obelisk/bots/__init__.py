"""Bots: players that decide from their seat's information only.

A bot is made from a spec string (``"random"``, ``"greedy"``, ``"ismcts:1s"``,
``"ismcts:2000"``, ``"ismcts:500,rollout=greedy,depth=20"`` ...) with
:func:`make_bot`. Its ``choose(state)`` returns a legal action for the seat to
act; it may look at hidden parts of ``state`` only through
``state.resample_from_infostate(seat, rng)`` — except ``cheater``, the
perfect-information upper bound used in evaluations. The spec syntax is
documented in docs/bots.md.
"""

from __future__ import annotations

import re
from typing import Callable, Protocol

from obelisk.core import Game, State, codec
from obelisk.core.rng import make_rng

__all__ = ["Bot", "RandomBot", "bot_kinds", "make_bot", "register_bot"]


class Bot(Protocol):
    """What the CLI, the arena and the server need of a bot."""

    name: str

    def choose(self, state: State) -> int:
        """A legal action for ``state.current_player()``."""
        ...


BotFactory = Callable[[Game, int, int, str], Bot]
_KINDS: dict[str, BotFactory] = {}


def register_bot(kind: str, factory: BotFactory) -> None:
    """Make ``kind`` usable in spec strings (CLI, arena, adapters); ``factory(game, seat, seed, argument)``.

    ``argument`` is the text after ``kind:`` in the spec (``""`` without one). A kind is a name of
    letters, digits, ``_`` and ``-``, registered once; anything else is a ``ValueError``.
    """
    if not isinstance(kind, str) or not re.fullmatch(r"[A-Za-z0-9_-]+", kind):
        raise ValueError(f"a bot kind is a name of letters, digits, '_' and '-', got {kind!r:.60}")
    if not callable(factory):
        raise ValueError(f"bot {kind!r}: the factory must be callable as factory(game, seat, seed, argument)")
    if kind in _KINDS:
        raise ValueError(f"bot {kind!r} is already registered")
    _KINDS[kind] = factory


def bot_kinds() -> list[str]:
    return sorted(_KINDS)


def make_bot(spec: str, game: Game, seat: int, seed: int = 0) -> Bot:
    """Build a bot from ``kind[:argument]``; unknown kinds raise ``ValueError`` naming the known ones."""
    kind, _, argument = spec.strip().partition(":")
    if kind not in _KINDS:
        raise ValueError(f"unknown bot {codec.describe(kind)}; known bots: {', '.join(bot_kinds())}")
    return _KINDS[kind](game, seat, seed, argument)


class RandomBot:
    """Chooses uniformly among the legal actions."""

    def __init__(self, game: Game, seat: int, seed: int = 0) -> None:
        self.name = "random"
        self.seat = seat
        self._rng = make_rng("random-bot", seed, seat)

    def choose(self, state: State) -> int:
        return self._rng.choice(state.legal_actions())


def _random_factory(game: Game, seat: int, seed: int, argument: str) -> Bot:
    if argument:
        raise ValueError(f"bot 'random' takes no argument, got {codec.describe(argument)}")
    return RandomBot(game, seat, seed)


register_bot("random", _random_factory)


# The other kinds live in modules of their own, which do not import this package back: no import cycle.
from obelisk.bots import cheater, greedy, ismcts  # noqa: E402

register_bot("cheater", cheater.factory)
register_bot("greedy", greedy.factory)
register_bot("ismcts", ismcts.factory)
