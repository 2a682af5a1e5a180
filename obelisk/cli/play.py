"""``obelisk list`` and ``obelisk play``: terminal games against bots (or friends at one keyboard)."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

import obelisk
from obelisk.cli import UserError
from obelisk.cli.common import (
    check_seed_option,
    data_dir,
    load_game,
    make_bots,
    output_file,
    parse_extra_options,
    parse_seats,
    write_failed,
)
from obelisk.core import CHANCE, Game, State
from obelisk.core.records import make_record, save_record
from obelisk.core.seeds import SecretSeed

console = Console(highlight=False)


def list_games(json_output: bool = typer.Option(False, "--json", help="Print the list as JSON.")) -> None:
    """List the games with their player ranges and options."""
    infos = obelisk.games()
    if json_output:
        print(json.dumps([info.to_dict() for info in infos], indent=1))
        return
    table = Table(title="Obelisk games")
    for column in ("id", "name", "players", "options"):
        table.add_column(column)
    for info in infos:
        options = "\n".join(
            f"{o.name}={o.default!r}" + (f" ({o.accepts()})" if o.allowed or o.bounds else "")
            for o in info.options
        )
        table.add_row(info.id, info.name, f"{info.min_players}-{info.max_players}", options or "-")
    console.print(table)


def play(
    ctx: typer.Context,
    game_id: str = typer.Argument(None, metavar="GAME", help="Game id (see `obelisk list`); asked if omitted."),
    players: int = typer.Option(None, "--players", "-p", help="Number of players."),
    seats: str = typer.Option(None, "--seats", help="Comma-separated: you,random,greedy,ismcts:1s ..."),
    seed: int = typer.Option(None, "--seed", help="Fixed seed (practice, research); default: a secret seed, "
                             "committed to at the start and revealed at the end."),
    save: Path = typer.Option(None, "--save", help="Where to save the game record (default: the records "
                              "folder in the user data folder, or in $OBELISK_DATA_DIR)."),
) -> None:
    """Play a game in the terminal. Game options go as --NAME VALUE (e.g. --cards my_cards.json)."""
    options = parse_extra_options(list(ctx.args))
    fixed_seed = check_seed_option(seed)
    if game_id is None:
        game_id = _ask_game()
    game = load_game(game_id, players, options)
    seat_specs = parse_seats(seats, game, "you," + ",".join(["random"] * (game.num_players - 1)))
    secret: SecretSeed | None = None
    if fixed_seed is None:
        secret = SecretSeed.new()
        game_seed = secret.seed
    else:
        game_seed = fixed_seed
    bots = make_bots(seat_specs, game, game_seed)
    path = output_file(save or _default_record_path(game, secret, game_seed), "record")
    humans = [s for s in range(game.num_players) if s not in bots]
    console.print(f"[bold]{game.info.name}[/bold] — {game.num_players} players")
    if secret is not None:
        console.print(f"shuffles committed: {secret.commitment} (seed and salt revealed at the end)", soft_wrap=True)
    else:
        console.print(f"fixed-seed game (seed {game_seed}): every shuffle and draw follows from the seed")
    for seat, spec in enumerate(seat_specs):
        console.print(f"  seat {seat}: {'you' if seat in humans else spec}")
    console.print(f"record: {path}", markup=False, soft_wrap=True)
    state = game.new_initial_state(game_seed)
    viewer = humans[0] if humans else None
    try:
        _loop(state, bots, humans, viewer)
    finally:
        names = [{"name": "you" if s in humans else seat_specs[s], "kind": "human" if s in humans else seat_specs[s]}
                 for s in range(game.num_players)]
        record = make_record(state, names, seed_commitment=secret.commitment if secret else None,
                             seed_salt=secret.salt if secret else None)
        try:
            save_record(record, path)
        except OSError as error:
            print(json.dumps(record, indent=1, sort_keys=True))
            raise write_failed("record (printed above instead)", path, error) from None
        console.print(f"record saved to {path}", markup=False, soft_wrap=True)
        if secret is not None and state.is_terminal():
            console.print(f"seed revealed: {secret.seed} (salt {secret.salt}); `obelisk replay` verifies it "
                          "against the commitment", markup=False, soft_wrap=True)


def _default_record_path(game: Game, secret: SecretSeed | None, seed: int) -> Path:
    """A new file in the records folder, named by game and time (and never by a secret seed)."""
    tag = secret.commitment.removeprefix("sha256:")[:12] if secret is not None else f"seed{seed}"
    return data_dir() / "records" / f"{game.id}-{datetime.now():%Y%m%d-%H%M%S}-{tag}.json"


def _ask_game() -> str:
    infos = obelisk.games()
    if not infos:
        raise UserError("no games are installed")
    for number, info in enumerate(infos, 1):
        console.print(f"  {number}. {info.name} ({info.id}, {info.min_players}-{info.max_players} players)")
    while True:
        answer = _read("Which game? ")
        if answer.isdigit() and 1 <= int(answer) <= len(infos):
            return infos[int(answer) - 1].id
        if answer in {i.id for i in infos}:
            return answer
        console.print("[red]type a number from the list or a game id[/red]")


def _read(prompt: str) -> str:
    try:
        return input(prompt).strip()
    except EOFError:
        raise typer.Abort() from None


def _loop(state: State, bots: dict[int, Any], humans: list[int], viewer: int | None) -> None:
    game = state.game
    while not state.is_terminal():
        actor = state.current_player()
        if actor == CHANCE:
            action = state.sample_chance()
        elif actor in bots:
            action = bots[actor].choose(state)
        else:
            viewer = actor
            action = _ask_action(state, actor)
            if action is None:
                console.print("game left unfinished")
                return
        if viewer is not None and (actor != viewer or actor == CHANCE):
            who = "chance" if actor == CHANCE else f"seat {actor}"
            console.print(f"[dim]{who}: {state.public_action_string(action, viewer)}[/dim]")
        state.apply_action(action)
    view = state.observation(viewer)
    console.rule("game over")
    console.print(game.render_observation(view))
    _print_scores(state)


def _ask_action(state: State, seat: int) -> int | None:
    view = state.observation(seat)
    console.rule(f"seat {seat} to play")
    console.print(state.game.render_observation(view), markup=False)
    legal = view["legal_actions"]
    for number, (_, label) in enumerate(legal, 1):
        console.print(f"  {number:>3}. {label}", markup=False)
    while True:
        answer = _read("your move (number or label, q to quit): ")
        if answer.lower() in ("q", "quit"):
            return None
        if answer.isdigit() and 1 <= int(answer) <= len(legal):
            return legal[int(answer) - 1][0]
        try:
            return state.string_to_action(answer)
        except obelisk.IllegalActionError as error:
            console.print(str(error), style="red", markup=False)


def _print_scores(state: State) -> None:
    scores = state.scores()
    returns = state.returns()
    categories = sorted({c for s in scores for c in s["breakdown"]})
    table = Table(title="final scores")
    table.add_column("seat")
    for c in categories:
        table.add_column(c, justify="right")
    table.add_column("total", justify="right")
    table.add_column("result", justify="right")
    for seat, entry in enumerate(scores):
        table.add_row(str(seat), *[str(entry["breakdown"].get(c, "")) for c in categories], str(entry["total"]),
                      f"{returns[seat]:+.2f}")
    console.print(table)


def register(app: typer.Typer) -> None:
    app.command("list")(list_games)
    app.command("play", context_settings={"allow_extra_args": True, "ignore_unknown_options": True})(play)
