"""``obelisk arena``: a seat-rotated tournament between bots, locally or on Ray."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any, Sequence

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from obelisk.cli import UserError
from obelisk.cli.common import (
    check_seed_option,
    load_game,
    make_console,
    output_file,
    output_folder,
    parse_extra_options,
    plain,
    split_specs,
    write_failed,
)
from obelisk.core.records import save_record
from obelisk.sim.arena import BACKENDS, make_tournament, summarise, timed_run
from obelisk.sim.tasks import GameResult, Tournament
from obelisk.sim.ray_backend import RayUnavailableError

console = make_console(stderr=True)


def parse_bot_list(text: str) -> list[str]:
    """``ismcts:1s,greedy,random`` → specs (see ``split_specs``)."""
    specs = split_specs(text)
    if not specs:
        raise UserError("--bots needs at least one bot")
    for spec in specs:
        if spec.split(":")[0] in ("you", "human"):
            raise UserError("the arena plays bots only")
    return specs


def play_tournament(
    tournament: Tournament, backend: str, workers: int, address: str | None, quiet: bool
) -> tuple[list[GameResult], float]:
    """Run with a progress bar on stderr; backend failures become one-line user errors."""
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, disable=quiet, transient=True) as progress:
        task = progress.add_task(f"{tournament.game_class.info.id} games", total=tournament.games)
        try:
            return timed_run(
                tournament,
                backend=backend,
                workers=workers,
                address=address,
                progress=lambda n: progress.advance(task, n),
            )
        except RayUnavailableError as error:
            raise UserError(str(error)) from None


def write_csv(path: Path, tournament: Tournament, results: Sequence[GameResult]) -> None:
    """One row per game and seat: the long format spreadsheets and pandas read directly."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(["game", "seed", "seat", "bot", "return", "score", "win", "length", "decisions"])
            for result in results:
                winners = result.winners()
                for seat, label in enumerate(result.lineup):
                    win = 1 / len(winners) if seat in winners else 0
                    writer.writerow([result.index, result.seed, seat, label, result.returns[seat],
                                     result.scores[seat], round(win, 6), result.length, result.decisions])
    except OSError as error:
        raise write_failed("CSV file", path, error) from None


def save_records(directory: Path, results: Sequence[GameResult], game_id: str) -> None:
    try:
        directory.mkdir(parents=True, exist_ok=True)
        for result in results:
            if result.record is not None:
                save_record(result.record, directory / f"{game_id}-{result.index:05d}.json")
    except OSError as error:
        raise write_failed("records folder", directory, error) from None


def print_summary(summary: dict[str, Any], workers: int, backend: str) -> None:
    out = make_console()
    title = (f"{summary['game']}: {summary['games']} games, {summary['players']} players, seed {summary['seed']}")
    table = Table(title=plain(title))
    for column in ("bot", "games", "wins", "win rate", "95% CI", "mean score", "rating"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for row in sorted(summary["bots"], key=lambda r: -r["rating"]):
        low, high = row["win_ci"]
        table.add_row(plain(row["bot"]), str(row["games"]), f"{row['wins']:g}", f"{row['win_rate']:.1%}",
                      f"{low:.1%}–{high:.1%}", f"{row['mean_score']:.2f}", f"{row['rating']:+.0f}")
    out.print(table)
    seats = "  ".join(f"seat {s['seat']}: {s['win_rate']:.1%}" for s in summary["seats"])
    out.print(f"win rate by seat: {seats}")
    timing = summary.get("timing", {})
    out.print(f"mean length {summary['mean_length']:.1f} actions; {timing.get('seconds', 0):.1f} s, "
              f"{timing.get('games_per_second', 0):.2f} games/s ({backend}, {workers} worker(s))")


def arena(
    ctx: typer.Context,
    game_id: str = typer.Argument(..., metavar="GAME"),
    players: int = typer.Option(None, "--players", "-p", help="Number of players."),
    bots: str = typer.Option("greedy,random", "--bots", help="Bot specs, e.g. ismcts:1s,greedy,random."),
    games: int = typer.Option(100, "--games", "-n", min=1, help="Number of games."),
    seed: int = typer.Option(0, "--seed", help="Seed of the whole tournament."),
    workers: int = typer.Option(1, "--workers", "-w", min=1, help="Parallel worker processes (or Ray tasks)."),
    backend: str = typer.Option("local", "--backend", help="local (processes) or ray."),
    address: str = typer.Option(None, "--address", help="Ray cluster address (ray backend; default: local Ray)."),
    json_output: bool = typer.Option(False, "--json", help="Print the whole result as JSON on stdout."),
    csv_path: Path = typer.Option(None, "--csv", help="Write one row per game and seat to this CSV file."),
    records: Path = typer.Option(None, "--records", help="Save every game as a replayable record in this folder."),
) -> None:
    """Seat-rotated tournament: wins, mean scores, Wilson 95% CIs and Bradley–Terry ratings per bot.

    Game options go as --NAME VALUE. The same --seed gives the same results with any --workers and backend.
    """
    check_seed_option(seed)
    if backend not in BACKENDS:
        raise UserError(f"--backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if address and backend != "ray":
        raise UserError("--address needs --backend ray")
    game = load_game(game_id, players, parse_extra_options(list(ctx.args)))
    specs = parse_bot_list(bots)
    try:
        tournament = make_tournament(game, specs, games, seed, keep_records=records is not None)
    except ValueError as error:
        raise UserError(str(error)) from None
    if csv_path is not None:
        output_file(csv_path, "CSV")
    if records is not None:
        output_folder(records, "records")
    results, elapsed = play_tournament(tournament, backend, workers, address, quiet=False)
    summary = summarise(tournament, results, elapsed)
    summary["backend"] = backend
    summary["workers"] = workers
    if csv_path is not None:
        write_csv(csv_path, tournament, results)
    if records is not None:
        save_records(records, results, game.id)
    if json_output:
        print(json.dumps(summary, indent=1))
    else:
        print_summary(summary, workers, backend)


def register(app: typer.Typer) -> None:
    app.command("arena", context_settings={"allow_extra_args": True, "ignore_unknown_options": True})(arena)
