"""Helpers shared by the commands: loading a game from command-line words, seats, seeds, option parsing, printing."""

from __future__ import annotations

import os
import sys
import unicodedata
from pathlib import Path
from typing import Any

import platformdirs
from rich.console import Console
from rich.text import Text

import obelisk
from obelisk.bots import make_bot
from obelisk.cli import UserError
from obelisk.core import Game, GameInfo, i18n
from obelisk.core.seeds import check_seed

DATA_DIR_VARIABLE = "OBELISK_DATA_DIR"
tr = i18n.ui


def parse_extra_options(words: list[str]) -> dict[str, Any]:
    """``--name value`` / ``--name=value`` / ``-o name=value`` words → game options (strings)."""
    options: dict[str, Any] = {}
    i = 0
    while i < len(words):
        word = words[i]
        if word in ("-o", "--option"):
            if i + 1 >= len(words) or "=" not in words[i + 1]:
                raise UserError(tr("{option} needs NAME=VALUE", option=word))
            name, _, value = words[i + 1].partition("=")
            i += 2
            if not name:
                raise UserError(tr("{option} needs NAME=VALUE, got {given}", option=word, given=repr(words[i - 1])))
        elif word.startswith("--") and word != "--":
            name, eq, value = word[2:].partition("=")
            if not name:
                raise UserError(tr("an option needs a name: {given}", given=repr(word)))
            if not eq:
                if i + 1 >= len(words) or words[i + 1].startswith("--"):
                    raise UserError(tr("option --{name} needs a value", name=name))
                value = words[i + 1]
                i += 1
            i += 1
        else:
            raise UserError(tr("unexpected argument {given}", given=repr(word)))
        options[name.replace("-", "_")] = value
    return options


def load_game(game_id: str, players: int | None, options: dict[str, Any]) -> Game:
    try:
        return obelisk.load(game_id, players, **options)
    except ValueError as error:
        raise UserError(str(error)) from None


def game_name(info: GameInfo) -> str:
    """The game's name in the active language (a term of the game's catalog)."""
    return i18n.domain(info.id).term("game", info.name)


def split_specs(text: str) -> list[str]:
    """Comma-separated bot specs; a word containing ``=`` continues the previous bot's parameters.

    So ``ismcts:500,depth=20,greedy`` is two bots.
    """
    specs: list[str] = []
    for word in (w.strip() for w in text.split(",")):
        if not word:
            continue
        if "=" in word and specs:
            specs[-1] += "," + word
        else:
            specs.append(word)
    return specs


def parse_seats(spec: str | None, game: Game, default: str, option: str = "--seats") -> list[str]:
    """A comma-separated seat list (see ``split_specs``); a short list is completed with its last entry."""
    words = split_specs(spec or default)
    if not words:
        raise UserError(tr("{option} needs at least one entry", option=option))
    if len(words) > game.num_players:
        raise UserError(tr.n("{n} seat given for a {players}-player game",
                             "{n} seats given for a {players}-player game", len(words), players=game.num_players))
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


def bot_title(spec: str) -> str:
    """A bot's spec (``greedy``, ``ismcts:500ms``) as a player reads it, in the active language: the kind in words
    and its budget or parameters as typed (``search bot (500ms)``); a kind this table does not know as typed."""
    kind, _, argument = spec.partition(":")
    titles = {"random": tr("random bot"), "greedy": tr("greedy bot"), "ismcts": tr("search bot"),
              "cheater": tr("cheating bot")}
    if kind not in titles:
        return spec
    return tr("{bot} ({setting})", bot=titles[kind], setting=argument) if argument else titles[kind]


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
        raise UserError(tr("the {what} folder {path} is a file", what=what, path=repr(str(path))))
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserError(tr("cannot create the {what} folder {path}: {reason}", what=what, path=repr(str(path)),
                           reason=error.strerror or error)) from None
    return path


def output_file(path: Path, what: str) -> Path:
    """Check before any game is played that the file ``path`` can be written (its folder is created)."""
    if path.is_dir():
        raise UserError(tr("the {what} file {path} is a folder", what=what, path=repr(str(path))))
    output_folder(path.parent, what)
    existed = path.exists()
    try:
        with path.open("a", encoding="utf-8"):
            pass
    except OSError as error:
        raise UserError(tr("cannot write the {what} file {path}: {reason}", what=what, path=repr(str(path)),
                           reason=error.strerror or error)) from None
    if not existed:
        path.unlink()
    return path


def write_failed(what: str, path: Path, error: OSError) -> UserError:
    """The error for an output that could not be written after all (a full disk, a folder removed)."""
    return UserError(tr("cannot write the {what} {path}: {reason}", what=what, path=repr(str(path)),
                        reason=error.strerror or error))


def make_console(stderr: bool = False) -> Console:
    """A console that never reads Rich markup (a ``[/]`` in a card name is printed, not obeyed) nor wraps lines.

    A width outside 20..1000 (``COLUMNS=0`` prints nothing, ``COLUMNS=99999999``
    makes every rule and table that wide) is taken as 80.
    """
    console = Console(highlight=False, markup=False, soft_wrap=True, stderr=stderr)
    if not 20 <= console.width <= 1000:
        console.width = 80
    return console


_CONTROLS = {
    code: f"\\x{code:02x}" for code in range(0xA0)
    if code not in (0x09, 0x0A) and unicodedata.category(chr(code)) == "Cc"
}


def plain(text: Any, style: str = "") -> Text:
    """``text`` to print as written: no markup, and control characters shown as ``\\x1b`` escapes.

    Labels, names and renderings come from data files and records; an escape
    sequence in them must not move the cursor or restyle the terminal.
    """
    return Text(str(text).translate(_CONTROLS), style=style)


def small_number(text: str, limit: int) -> int | None:
    """``text`` as a whole number from 0 to ``limit`` if it is written in ASCII digits, else None.

    ``str.isdigit`` accepts ``'²'``, which ``int`` refuses, and ``int`` refuses
    more than 4300 digits; typed numbers go through here instead.
    """
    if not (text.isascii() and text.isdigit()):
        return None
    digits = text.lstrip("0") or "0"
    if len(digits) > len(str(limit)):
        return None
    value = int(digits)
    return value if value <= limit else None


def tolerate_undecodable_input() -> None:
    """Typed bytes that are not text become U+FFFD, one more answer to refuse, instead of a decoding error."""
    reconfigure = getattr(sys.stdin, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors="replace")
