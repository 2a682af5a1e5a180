"""The ``obelisk`` command: list, play, replay, simulate (and the commands of the other modules here).

Every module in this package that defines ``register(app)`` adds its
commands. User errors are reported in one line, never as a traceback.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys

import typer

app = typer.Typer(
    name="obelisk",
    help="Four Egyptian-themed board games with every rule enforced.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class UserError(Exception):
    """A mistake in the command line or its files: reported in one line, exit status 2."""


_registered: list[str] = []


def _register_commands() -> None:
    if _registered:
        return
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        loaded = importlib.import_module(f"{__name__}.{module.name}")
        register = getattr(loaded, "register", None)
        if register is not None:
            register(app)
        _registered.append(module.name)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns the exit status."""
    _register_commands()
    try:
        app(args=argv, standalone_mode=False)
    except UserError as error:
        print(f"obelisk: error: {error}", file=sys.stderr)
        return 2
    except typer.Abort:
        print("obelisk: aborted", file=sys.stderr)
        return 130
    except KeyboardInterrupt:
        print("\nobelisk: interrupted", file=sys.stderr)
        return 130
    except typer.Exit as done:
        return done.exit_code
    except Exception as error:  # click usage errors carry their own message and exit code
        import click

        if isinstance(error, click.ClickException):
            error.show()
            return error.exit_code
        raise
    return 0
