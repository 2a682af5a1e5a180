"""Helpers shared by the commands: loading a game from command-line words, seats, option parsing."""

from __future__ import annotations

from typing import Any

import obelisk
from obelisk.bots import make_bot
from obelisk.cli import UserError
from obelisk.core import Game


def parse_extra_options(words: list[str]) -> dict[str, Any]:
    """``--name value`` / ``--name=value`` / ``-o name=value`` words → game options (strings)."""
    options: dict[str, Any] = {}
    i = 0
    while i < len(words):
        word = words[i]
        if word in ("-o", "--option"):
            if i + 1 >= len(words) or "=" not in words[i + 1]:
                raise UserError(f"{word} needs NAME=VALUE")
            name, _, value = words[i + 1].partition("=")
            i += 2
        elif word.startswith("--"):
            name, eq, value = word[2:].partition("=")
            if not eq:
                if i + 1 >= len(words) or words[i + 1].startswith("--"):
                    raise UserError(f"option --{name} needs a value")
                value = words[i + 1]
                i += 1
            i += 1
        else:
            raise UserError(f"unexpected argument {word!r}")
        options[name.replace("-", "_")] = value
    return options


def load_game(game_id: str, players: int | None, options: dict[str, Any]) -> Game:
    try:
        return obelisk.load(game_id, players, **options)
    except ValueError as error:
        raise UserError(str(error)) from None


def parse_seats(spec: str | None, game: Game, default: str) -> list[str]:
    """A comma-separated seat list; a short list is completed with its last entry."""
    words = [w.strip() for w in (spec or default).split(",") if w.strip()]
    if not words:
        raise UserError("--seats needs at least one entry")
    if len(words) > game.num_players:
        raise UserError(f"{len(words)} seats given for a {game.num_players}-player game")
    return words + [words[-1]] * (game.num_players - len(words))


def make_bots(seats: list[str], game: Game, seed: int) -> dict[int, Any]:
    bots = {}
    for seat, spec in enumerate(seats):
        if spec in ("you", "human"):
            continue
        try:
            bots[seat] = make_bot(spec, game, seat, seed)
        except ValueError as error:
            raise UserError(str(error)) from None
    return bots
