"""``obelisk analyze``: play a seeded tournament and write a balance report (Markdown + PNG plots)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import typer
from rich.console import Console

from obelisk.cli import UserError
from obelisk.cli.arena import parse_bot_list, play_tournament, save_records
from obelisk.cli.common import check_seed_option, load_game, output_folder, parse_extra_options, write_failed
from obelisk.sim.analyze import analyse, write_report
from obelisk.sim.arena import BACKENDS, make_tournament


def analyze(
    ctx: typer.Context,
    game_id: str = typer.Argument(..., metavar="GAME"),
    players: int = typer.Option(None, "--players", "-p", help="Number of players."),
    games: int = typer.Option(200, "--games", "-n", min=1, help="Number of games."),
    bots: str = typer.Option("greedy", "--bots", help="Bot specs rotated over the seats (default: greedy)."),
    out: Path = typer.Option(None, "--out", help="Report folder (default: out/analyze-GAME-Np)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the whole run."),
    workers: int = typer.Option(1, "--workers", "-w", min=1, help="Parallel worker processes (or Ray tasks)."),
    backend: str = typer.Option("local", "--backend", help="local (processes) or ray."),
    address: str = typer.Option(None, "--address", help="Ray cluster address (ray backend)."),
    records: bool = typer.Option(False, "--records", help="Also save every game's record under OUT/records."),
    kinds: str = typer.Option(None, "--kinds", help="Action kinds (first word of labels) to chart, e.g. buy,entomb."),
) -> None:
    """Balance report: seat advantage, score distributions, game length, influence of choices."""
    check_seed_option(seed)
    if backend not in BACKENDS:
        raise UserError(f"--backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    game = load_game(game_id, players, parse_extra_options(list(ctx.args)))
    specs = parse_bot_list(bots)
    try:
        tournament = make_tournament(game, specs, games, seed, keep_records=True)
    except ValueError as error:
        raise UserError(str(error)) from None
    folder = output_folder(out or Path("out") / f"analyze-{game.id}-{game.num_players}p", "report")
    results, _ = play_tournament(tournament, backend, workers, address, quiet=False)
    command = "obelisk " + " ".join(shlex.quote(word) for word in sys.argv[1:]) if sys.argv[1:] else "obelisk analyze"
    chosen = [k.strip().lower() for k in kinds.split(",") if k.strip()] if kinds else None
    try:
        report = write_report(analyse(game.id, game.num_players, results), folder, command, specs, chosen)
    except OSError as error:
        raise write_failed("report folder", folder, error) from None
    if records:
        save_records(folder / "records", results, game.id)
    Console(highlight=False).print(f"report written to {report}")


def register(app: typer.Typer) -> None:
    app.command("analyze", context_settings={"allow_extra_args": True, "ignore_unknown_options": True})(analyze)
