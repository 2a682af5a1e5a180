"""``obelisk replay``: step through a saved record from any seat's view."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.markup import escape

from obelisk.cli import UserError
from obelisk.cli.common import make_console, plain, small_number, tolerate_undecodable_input
from obelisk.cli.play import print_scores
from obelisk.core import CHANCE, Game, State, i18n
from obelisk.core.records import RecordError, read_record, replay_record, verified_commitment

console = make_console()
tr = i18n.ui

def keys_help() -> str:
    """The keys the replay prompt takes, in the active language."""
    return tr("keys: [enter]/n next step · p previous step · t next turn · b back a turn · g N go to move N · "
              "s N view of seat N (s - spectator) · e end · q quit")


def replay(
    path: Path = typer.Argument(..., metavar="FILE", help="A record saved by `obelisk play` or `obelisk arena`."),
    seat: str = typer.Option("spectator", "--seat", help="Whose view to show: a seat number or 'spectator'."),
    step: int = typer.Option(None, "--step", help="Start at this move number (default: the start)."),
    show: bool = typer.Option(False, "--print", help="Print the position at --step (default: the end) and exit."),
) -> None:
    doc, game, states = _replayed(path)
    viewer = _parse_seat(seat, game)
    last = len(states) - 1
    if step is not None and not 0 <= step <= last:
        raise UserError(tr("--step must be from 0 to {last}", last=last))
    console.print(plain(proof_line(doc)))
    if show:
        shown = last if step is None else step
        _show(game, states, shown, viewer, max(shown - 1, 0))
        if shown == last and states[last].is_terminal():
            print_scores(states[last], doc["players"], viewer)
        return
    names = doc["players"]
    position = step or 0
    turns = turn_starts(states)
    console.print(plain(keys_help()))
    tolerate_undecodable_input()
    since = max(position - 1, 0)
    while True:
        _show(game, states, position, viewer, since)
        if position == last and states[last].is_terminal():
            print_scores(states[last], names, viewer)
        before = position
        try:
            command = input(tr("[move {position}/{last}] > ", position=position, last=last)).strip().split()
        except EOFError:
            console.print()  # the prompt's line is left open
            return
        key = command[0] if command else "n"
        argument = command[1] if len(command) > 1 else None
        target = small_number(argument, last) if key == "g" and argument is not None else None
        if key == "q":
            return
        if key == "n":
            position = min(position + 1, last)
        elif key == "p":
            position = max(position - 1, 0)
        elif key == "t":
            position = next((t for t in turns if t > position), last)
        elif key == "b":
            position = max((t for t in turns if t < position), default=0)
        elif key == "e":
            position = last
        elif target is not None:
            position = target
        elif key == "s" and argument is not None:
            try:
                viewer = _parse_seat(argument, game)
            except UserError as error:
                console.print(plain(error, "red"))
        else:
            console.print(plain(keys_help()))
        since = before if key == "t" and position > before else max(position - 1, 0)


def proof_line(doc: dict[str, Any]) -> str:
    """What a record replayed by ``replay_record`` proves: verified (its commitment opens to its seed, and every
    chance outcome is that seed's draw) or not verified (no commitment: a fixed seed proves nothing)."""
    published = verified_commitment(doc)
    if published is not None:
        return tr("verified: the seed opens commitment {commitment} and every chance outcome is the one it draws",
                  commitment=published)
    return tr("not verified: seed {seed} was fixed, with no commitment to check it and its draws against",
              seed=doc["seed"])


def _replayed(path: Path) -> tuple[dict[str, Any], Game, list[State]]:
    """The record, its game and its states; a file that is no record is refused in one line."""
    try:
        doc = read_record(path)
        return doc, *replay_record(doc)
    except RecordError as error:
        raise UserError(str(error)) from None


def _parse_seat(text: str, game: Game) -> int | None:
    if text in ("spectator", "-", "none"):
        return None
    seat = small_number(text, game.num_players - 1)
    if seat is not None:
        return seat
    shown = text if len(text) <= 40 else text[:40] + "…"
    raise UserError(tr("seat must be 0..{last} or 'spectator', got {given}", last=game.num_players - 1,
                       given=repr(shown)))


def turn_starts(states: list[State]) -> list[int]:
    """The moves at which a seat takes its turn: its first decision after another seat's.

    Chance events between two seats' decisions are no turn of their own.
    """
    starts = [0]
    last = None
    for position, state in enumerate(states):
        actor = state.current_player()
        if actor >= 0:
            if last is not None and actor != last:
                starts.append(position)
            last = actor
    return starts


def _show(game: Game, states: list[State], position: int, viewer: int | None, since: int) -> None:
    """The position after ``position`` moves; the steps from move ``since`` to it, as ``viewer`` saw them."""
    state = states[position]
    who = tr("spectator") if viewer is None else tr("seat {seat}", seat=viewer)
    console.rule(tr("move {position} of {last} — view of {who}", position=position, last=len(states) - 1, who=who))
    runs: list[tuple[str, list[str]]] = []
    for before, after in zip(states[since:position], states[since + 1:position + 1]):
        actor = before.current_player()
        name = tr("chance") if actor == CHANCE else tr("seat {seat}", seat=actor)
        label = before.public_action_string(after.history()[-1], viewer)
        if runs and runs[-1][0] == name:
            runs[-1][1].append(label)
        else:
            runs.append((name, [label]))
    for n, (name, labels) in enumerate(runs):
        head = tr("last: ") if n == 0 else " " * len(tr("last: "))
        console.print(plain(f"{head}{name}: {' · '.join(labels)}"))
    console.print(plain(game.render_observation(state.observation(viewer))))


replay.__doc__ = ("Step through a saved game by step or by turn, forwards and backwards, from any seat's view.\n\n"
                  + escape(keys_help().replace("keys:", "Keys:")))


def register(app: typer.Typer) -> None:
    app.command("replay")(replay)
