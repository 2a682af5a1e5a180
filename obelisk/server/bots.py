"""Which bots a table seats, and what a bot decision is: bounded budgets, and the decision a worker makes.

Every bot seat of every table a server process holds decides through its one
:class:`~obelisk.server.scheduler.BotScheduler` (docs/server.md "Bots at tables"). This module holds
what that scheduler's workers and the table's checks share:

* **Budgets.** :func:`table_bot` seats only ``random``, ``greedy`` and ``ismcts`` within the limits
  below; a table without a person's seat gets the smallest search budget. Whatever the budget, a search
  at a table is cut after ``scheduler.DECISION_SECONDS`` and plays its best move so far.
* **Deciding.** A :class:`Decision` is the table replayed from its seed and moves, and the bot; :func:`bot_action`
  is what a worker runs on it, in a thread or a process of its own (``lanes.py``).

The rest of the bots' machinery: ``lanes.py`` (the workers), ``scheduler.py`` (the queue, cancellation,
retries, health), ``elector.py`` (one deciding process per table with PostgreSQL).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

import obelisk
from obelisk.bots import make_bot
from obelisk.bots.greedy import GreedyBot
from obelisk.bots.ismcts import ISMCTSBot
from obelisk.core import Game

TABLE_BOTS = ("random", "greedy", "ismcts")
"""The bot kinds a table seats (``cheater`` reads hidden cards; other kinds have no known cost)."""
MAX_SECONDS = 2.0
"""The longest time budget at a table: the lobby's strongest bot (``ismcts:2s``)."""
MAX_ITERATIONS = 1000
"""The largest iteration budget at a table with a person: the lobby's strong bot (``ismcts:1000``)."""
UNATTENDED_ITERATIONS = 200
"""The largest search budget at a table without a person's seat: the lobby's quick bot (``ismcts:200``)."""
MAX_DEPTH = 20
"""Rollout decisions a search at a table may play before scoring (``depth``; 0, to the end, is refused)."""
MAX_SAMPLES = 16
"""Determinizations a greedy bot at a table may score each decision on (``samples``)."""
MAX_EXPECT = 12
"""The largest chance node a greedy bot at a table averages exactly (``expect``)."""


# ---- budgets ----------------------------------------------------------------------------------

def table_bot(spec: str, game: Game, attended: bool) -> str:
    """``spec`` if a table of ``game`` may seat that bot, else ``ValueError`` saying what is allowed.

    ``attended``: the table has a person's seat; one without gets only the smallest search budget,
    since nobody's moves pace its bots and it would keep a worker busy for the whole game.
    """
    bot = make_bot(spec, game, 0, 0)  # every mistake in the spec itself is refused here
    kind = spec.partition(":")[0].strip()
    if kind == "cheater":
        raise ValueError("bot 'cheater' reads hidden cards and is not seated at tables")
    if kind not in TABLE_BOTS:
        raise ValueError(f"bot {kind!r} is not seated at tables; tables seat {', '.join(TABLE_BOTS)}")
    if isinstance(bot, ISMCTSBot):
        _check_search(bot, attended)
    elif isinstance(bot, GreedyBot):
        _check_greedy(bot)
    return spec


def _check_search(bot: ISMCTSBot, attended: bool) -> None:
    budget = bot.budget
    if not attended:
        if budget.iterations is None or budget.iterations > UNATTENDED_ITERATIONS:
            raise ValueError(f"a table without a person seats search bots of at most {UNATTENDED_ITERATIONS} "
                             f"iterations (e.g. 'ismcts:{UNATTENDED_ITERATIONS}'), got {budget.describe()}")
    elif budget.seconds is not None and budget.seconds > MAX_SECONDS:
        raise ValueError(f"a bot at a table searches at most {MAX_SECONDS:g}s a move, got {budget.describe()}")
    elif budget.iterations is not None and budget.iterations > MAX_ITERATIONS:
        raise ValueError(f"a bot at a table searches at most {MAX_ITERATIONS} iterations a move, "
                         f"got {budget.describe()}")
    if bot.rollout != "none" and not 1 <= bot.depth <= MAX_DEPTH:
        raise ValueError(f"a bot at a table cuts its rollouts after 1 to {MAX_DEPTH} decisions, got depth={bot.depth}")


def _check_greedy(bot: GreedyBot) -> None:
    if bot.samples > MAX_SAMPLES:
        raise ValueError(f"a greedy bot at a table scores at most {MAX_SAMPLES} samples, got samples={bot.samples}")
    if bot.expect > MAX_EXPECT:
        raise ValueError(f"a greedy bot at a table averages chance nodes of at most {MAX_EXPECT} outcomes, "
                         f"got expect={bot.expect}")


# ---- deciding ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Decision:
    """What a worker needs to decide a bot's move: the table replayed from its seed and moves, and the bot."""

    game: str
    players: int
    options: Mapping[str, Any]
    seed: int
    history: tuple[int, ...]
    spec: str
    seat: int
    bot_seed: int


def bot_action(decision: Decision, stop: Callable[[], bool]) -> tuple[int, bool]:
    """The bot's action and whether ``stop`` cut its search short; it sees hidden parts only by resampling."""
    game = obelisk.load(decision.game, decision.players, **decision.options)
    state = game.replay(decision.seed, decision.history)
    bot = make_bot(decision.spec, game, decision.seat, decision.bot_seed)
    if isinstance(bot, ISMCTSBot):
        bot.stop = stop
        return bot.choose(state), bot.interrupted
    return bot.choose(state), False

