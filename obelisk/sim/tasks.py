"""What a tournament hands to its workers: the scheduled games, their results, and playing them.

Both backends use these: the local one (``obelisk.sim.arena``) and the Ray one
(``obelisk.sim.ray_backend``), which the arena imports only when it is chosen. Kept apart from both, so
neither backend imports the other's module back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from obelisk.bots import make_bot
from obelisk.core import Game
from obelisk.core.records import make_record


@dataclass(frozen=True)
class GameTask:
    """One scheduled game: everything needed to play it anywhere, identically."""

    index: int
    seed: int
    lineup: tuple[str, ...]
    """The participant label at each seat."""
    specs: tuple[str, ...]
    """The bot spec at each seat."""
    bot_seeds: tuple[int, ...]


@dataclass
class GameResult:
    """What a finished game contributes to the statistics (and, on request, its record)."""

    index: int
    seed: int
    lineup: tuple[str, ...]
    returns: list[float]
    scores: list[float]
    breakdowns: list[dict[str, Any]]
    length: int
    decisions: int
    record: dict[str, Any] | None = None

    def winners(self) -> list[int]:
        best = max(self.returns)
        return [seat for seat, value in enumerate(self.returns) if value == best]


@dataclass(frozen=True)
class Tournament:
    """A tournament's definition: the game to build in each worker and the schedule."""

    game_class: type[Game]
    players: int
    options: dict[str, Any]
    labels: tuple[str, ...]
    specs: tuple[str, ...]
    games: int
    seed: int
    keep_records: bool = False
    tasks: tuple[GameTask, ...] = field(default=(), repr=False)

    def make_game(self) -> Game:
        return self.game_class(self.players, **self.options)


def play_game(game: Game, task: GameTask, keep_record: bool = False) -> GameResult:
    """Play one scheduled game; chance is drawn from the task's seed (``sample_chance()``)."""
    bots = [make_bot(spec, game, seat, task.bot_seeds[seat]) for seat, spec in enumerate(task.specs)]
    state = game.new_initial_state(task.seed)
    decisions = 0
    while not state.is_terminal():
        actor = state.current_player()
        if actor < 0:
            state.apply_action(state.sample_chance())
        else:
            state.apply_action(bots[actor].choose(state))
            decisions += 1
    scores = state.scores()
    record = None
    if keep_record:
        record = make_record(state, [{"name": label, "kind": spec} for label, spec in zip(task.lineup, task.specs)])
    return GameResult(
        index=task.index,
        seed=task.seed,
        lineup=task.lineup,
        returns=state.returns(),
        scores=[float(entry["total"]) for entry in scores],
        breakdowns=[dict(entry.get("breakdown", {})) for entry in scores],
        length=state.move_number(),
        decisions=decisions,
        record=record,
    )


def run_chunk(
    game_class: type[Game], players: int, options: dict[str, Any], tasks: Sequence[GameTask], keep_records: bool
) -> list[GameResult]:
    """Play a batch of games in one worker (module level, so processes and Ray can pickle it)."""
    game = game_class(players, **options)
    return [play_game(game, task, keep_records) for task in tasks]
