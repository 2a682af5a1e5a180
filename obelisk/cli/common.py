"""Helpers shared by the commands: loading a game from command-line words, seats, seeds, option parsing."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import platformdirs

import obelisk
from obelisk.bots import make_bot
from obelisk.cli import UserError
from obelisk.core import Game
from obelisk.core.seeds import check_seed

DATA_DIR_VARIABLE = "OBELISK_DATA_DIR"


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


def check_seed_option(seed: int | None) -> int | None:
    """``--seed`` as given, or a ``UserError`` if it is outside ``[0, 2**63)``."""
    if seed is None:
        return None
    try:
        return check_seed(seed)
    except ValueError as error:
        raise UserError(f"--{error}") from None


def data_dir() -> Path:
    """Where Obelisk keeps the user's files: ``$OBELISK_DATA_DIR``, else the platform's per-user data folder."""
    override = os.environ.get(DATA_DIR_VARIABLE)
    return Path(override) if override else Path(platformdirs.user_data_dir("obelisk"))


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


def output_folder(path: Path, what: str) -> Path:
    """Create the folder ``path`` before any game is played, so a long run cannot end in a write error."""
    if path.exists() and not path.is_dir():
        raise UserError(f"the {what} folder {str(path)!r} is a file")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserError(f"cannot create the {what} folder {str(path)!r}: {error.strerror or error}") from None
    return path


def output_file(path: Path, what: str) -> Path:
    """Check before any game is played that the file ``path`` can be written (its folder is created)."""
    if path.is_dir():
        raise UserError(f"the {what} file {str(path)!r} is a folder")
    output_folder(path.parent, what)
    existed = path.exists()
    try:
        with path.open("a", encoding="utf-8"):
            pass
    except OSError as error:
        raise UserError(f"cannot write the {what} file {str(path)!r}: {error.strerror or error}") from None
    if not existed:
        path.unlink()
    return path


def write_failed(what: str, path: Path, error: OSError) -> UserError:
    """The error for an output that could not be written after all (a full disk, a folder removed)."""
    return UserError(f"cannot write the {what} {str(path)!r}: {error.strerror or error}")
