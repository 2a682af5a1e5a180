"""The ``obelisk`` command: list, play, replay, simulate (and the commands of the other modules here).

Every module in this package that defines ``register(app)`` adds its
commands. User errors are reported in one line, never as a traceback.
``play``, ``replay`` and ``rules`` speak the language of ``--lang en|cs`` (or of ``OBELISK_LANG``).
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys

import typer

from obelisk.core import i18n

try:
    from typer._click.exceptions import ClickException
except ImportError:  # typer releases that use the click package rather than bundling a copy of it
    from click import ClickException

app = typer.Typer(
    name="obelisk",
    help="Four Egyptian-themed board games with every rule enforced.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class UserError(Exception):
    """A mistake in the command line or its files: reported in one line, exit status 2."""


class Interrupted(Exception):
    """Ctrl-C, once the command has put its work in order: its message is the one line shown, exit status 130."""


_registered: list[str] = []

SPEAKING_COMMANDS = ("play", "replay", "rules")
"""The commands that print the games' texts, and so take ``--lang``."""
LANGUAGE_VARIABLE = "OBELISK_LANG"
_LANGUAGE_HELP = (f"--lang {'|'.join(i18n.LANGUAGES)}: the language of the game's texts "
                  f"(default: ${LANGUAGE_VARIABLE}, else {i18n.DEFAULT_LANGUAGE}).")


def _take_language(args: list[str]) -> tuple[list[str], str]:
    """``args`` without ``--lang X`` (given to a speaking command, before any ``--``) and the language chosen.

    Taken out here rather than declared by each command: ``play`` reads the words it does not know as
    game options, so one place decides the language for all three.
    """
    chosen = os.environ.get(LANGUAGE_VARIABLE) or i18n.current_language()
    where = "$" + LANGUAGE_VARIABLE
    if not args or args[0] not in SPEAKING_COMMANDS:
        return args, chosen
    kept: list[str] = []
    index = 0
    while index < len(args):
        word = args[index]
        if word == "--":
            kept += args[index:]
            break
        if word == "--lang" or word.startswith("--lang="):
            if word == "--lang":
                if index + 1 >= len(args):
                    raise UserError(f"--lang needs a language: one of {', '.join(i18n.LANGUAGES)}")
                chosen, index = args[index + 1], index + 2
            else:
                chosen, index = word.partition("=")[2], index + 1
            where = "--lang"
            continue
        kept.append(word)
        index += 1
    try:
        return kept, i18n.check_language(chosen)
    except ValueError as error:
        raise UserError(f"{where}: {error}") from None


def _register_commands() -> None:
    if _registered:
        return
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        loaded = importlib.import_module(f"{__name__}.{module.name}")
        register = getattr(loaded, "register", None)
        if register is not None:
            register(app)
        _registered.append(module.name)
    for command in app.registered_commands:
        if command.name in SPEAKING_COMMANDS:
            command.epilog = _LANGUAGE_HELP


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns the exit status."""
    _register_commands()
    args = sys.argv[1:] if argv is None else argv
    try:
        args, lang = _take_language(list(args))
    except UserError as error:  # no language is chosen yet: said in English
        print(f"obelisk: error: {error}", file=sys.stderr)
        return 2
    with i18n.language(lang):  # the command's own one-line errors speak its language too
        return _run(args)


def _run(args: list[str]) -> int:
    tr = i18n.ui
    try:
        status = app(args=args or ["--help"], prog_name="obelisk", standalone_mode=False)
    except UserError as error:
        print(tr("obelisk: error: {message}", message=error), file=sys.stderr)
        return 2
    except Interrupted as stop:
        print(tr("obelisk: interrupted: {message}", message=stop), file=sys.stderr)
        return 130
    except typer.Abort:
        print(tr("obelisk: aborted"), file=sys.stderr)
        return 130
    except KeyboardInterrupt:
        print("\n" + tr("obelisk: interrupted"), file=sys.stderr)
        return 130
    except typer.Exit as done:
        return done.exit_code
    except ClickException as error:  # the parser's own: a missing argument, a number that is not one, ...
        context = getattr(error, "ctx", None)
        hint = tr(" (see {command} --help)", command=context.command_path) if context is not None else ""
        print(tr("obelisk: error: {message}", message=error.format_message() + hint), file=sys.stderr)
        return 2
    if status == 130:  # typer turns Ctrl-C into this exit status
        print("\n" + tr("obelisk: interrupted"), file=sys.stderr)
    return status if isinstance(status, int) else 0
