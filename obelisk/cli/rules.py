"""``obelisk rules``: a game's rules in short and what each of its components does, from the game's data.

The play prompt's ``rules`` and component lookups (``card NAME``, ``tile NAME``, …) print the same texts
with the functions here.
"""

from __future__ import annotations

import json
from typing import List, Optional

import typer
from rich.console import Console

from obelisk.cli import UserError
from obelisk.cli.common import game_name, load_game, make_console, parse_extra_options, plain
from obelisk.core import i18n
from obelisk.core.help import GameHelp, HelpLookupError

console = make_console()
tr = i18n.ui


def rules_text(help: GameHelp) -> str:
    """The first-game guide, the summary, then every component's name by kind and how to look one up."""
    words = " / ".join(f"{word} NAME" for word in help.lookups)
    parts = [help.summary]
    if help.guide:
        parts.insert(0, "\n".join([tr("First game:"), *(f"{n}. {step}" for n, step in enumerate(help.guide, 1))]))
    if help.entries:
        parts.append(tr("Components (type {words} for one):", words=words) + f"\n{help.glossary()}")
    return "\n\n".join(parts)


def show_paged(out: Console, text: str) -> None:
    """``text``, through the pager when it is longer than the terminal is high."""
    if out.is_terminal and text.count("\n") + 1 > out.height - 2:
        with out.pager():
            out.print(plain(text))
    else:
        out.print(plain(text))


def rules(
    game_id: str = typer.Argument(..., metavar="GAME", help="Game id (see `obelisk list`)."),
    name: Optional[List[str]] = typer.Argument(None, metavar="NAME", help="A component's name (a unique "
                                               "beginning is enough; case and accents are ignored)."),
    option: Optional[List[str]] = typer.Option(None, "--option", "-o", metavar="NAME=VALUE",
                                               help="A game option, e.g. -o pyramid=big (the counts follow it)."),
    json_output: bool = typer.Option(False, "--json", help="Print the summary and entries (or the one entry) as JSON."),
) -> None:
    """The rules in short and the list of components; with NAME, that component's text and numbers."""
    words: list[str] = []
    for item in option or []:
        words += ["-o", item]
    game = load_game(game_id, None, parse_extra_options(words))
    help = game.help()
    wanted = " ".join(name or [])
    try:
        entry = help.find(wanted) if wanted else None
    except HelpLookupError as error:
        raise UserError(str(error)) from None
    if json_output:
        console.print(plain(json.dumps(entry.as_dict() if entry else help.as_dict(), ensure_ascii=False, indent=1)))
    elif entry is not None:
        console.print(plain(entry.describe()))
    else:
        console.print(plain(game_name(game.info), "bold"))
        show_paged(console, rules_text(help))


def register(app: typer.Typer) -> None:
    app.command("rules")(rules)
