"""``obelisk simulate``: many seeded games between bots, with a results table and throughput."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from obelisk.cli import UserError
from obelisk.cli.common import check_seed_option, load_game, make_bots, parse_extra_options, parse_seats
from obelisk.core import Game, State
from obelisk.core.seeds import MAX_SEED

console = Console(highlight=False, stderr=True)


@dataclass
class SimulationResult:
    """Per-seat totals over a batch of games."""

    players: int
    games: int = 0
    steps: int = 0
    wins: list[float] = field(default_factory=list)
    score_sums: list[float] = field(default_factory=list)
    returns_sums: list[float] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.wins = [0.0] * self.players
        self.score_sums = [0.0] * self.players
        self.returns_sums = [0.0] * self.players

    def add(self, state: State) -> None:
        returns = state.returns()
        best = max(returns)
        winners = [s for s, r in enumerate(returns) if r == best]
        for seat in winners:
            self.wins[seat] += 1 / len(winners)
        for seat, entry in enumerate(state.scores()):
            self.score_sums[seat] += entry["total"]
            self.returns_sums[seat] += returns[seat]
        self.games += 1
        self.steps += state.move_number()
        self.lengths.append(state.move_number())


def play_one(game: Game, seats: list[str], seed: int) -> State:
    """One game between the bots named by ``seats``; chance sampled from ``seed``."""
    bots = make_bots(seats, game, seed)
    state = game.new_initial_state(seed)
    while not state.is_terminal():
        actor = state.current_player()
        state.apply_action(state.sample_chance() if actor < 0 else bots[actor].choose(state))
    return state


def simulate(
    ctx: typer.Context,
    game_id: str = typer.Argument(..., metavar="GAME"),
    players: int = typer.Option(None, "--players", "-p"),
    games: int = typer.Option(100, "--games", "-n", min=1),
    bots: str = typer.Option("random", "--bots", help="Comma-separated bot per seat (last one repeats)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the first game (0 to 2**63 - 1); game i uses seed + i."),
    json_output: bool = typer.Option(False, "--json", help="Print the results as JSON on stdout."),
) -> None:
    """Play GAMES seeded games between bots; print wins, mean scores, length and throughput."""
    check_seed_option(seed)
    game = load_game(game_id, players, parse_extra_options(list(ctx.args)))
    seats = parse_seats(bots, game, "random")
    if any(s in ("you", "human") for s in seats):
        raise UserError("simulate runs bots only")
    make_bots(seats, game, seed)
    result = SimulationResult(game.num_players)
    started = time.perf_counter()
    with Progress(console=console, disable=json_output, transient=True) as progress:
        task = progress.add_task("simulating", total=games)
        for index in range(games):
            result.add(play_one(game, seats, (seed + index) % MAX_SEED))
            progress.advance(task)
    elapsed = max(time.perf_counter() - started, 1e-9)
    summary = {
        "game": game.id,
        "players": game.num_players,
        "options": dict(game.options),
        "bots": seats,
        "games": result.games,
        "seed": seed,
        "seats": [
            {
                "seat": s,
                "bot": seats[s],
                "wins": result.wins[s],
                "win_rate": result.wins[s] / result.games,
                "mean_score": result.score_sums[s] / result.games,
                "mean_return": result.returns_sums[s] / result.games,
            }
            for s in range(game.num_players)
        ],
        "mean_length": sum(result.lengths) / result.games,
        "max_length": max(result.lengths),
        "games_per_second": result.games / elapsed,
        "steps_per_second": result.steps / elapsed,
    }
    if json_output:
        print(json.dumps(summary, indent=1))
        return
    table = Table(title=f"{game.info.name}: {games} games, {game.num_players} players, seed {seed}")
    for column in ("seat", "bot", "wins", "win rate", "mean score"):
        table.add_column(column, justify="right")
    for row in summary["seats"]:
        table.add_row(str(row["seat"]), row["bot"], f"{row['wins']:g}", f"{row['win_rate']:.1%}",
                      f"{row['mean_score']:.2f}")
    out = Console(highlight=False)
    out.print(table)
    out.print(f"mean length {summary['mean_length']:.1f} actions (max {summary['max_length']}); "
              f"{summary['games_per_second']:.1f} games/s, {summary['steps_per_second']:.0f} steps/s")


def register(app: typer.Typer) -> None:
    app.command("simulate", context_settings={"allow_extra_args": True, "ignore_unknown_options": True})(simulate)
