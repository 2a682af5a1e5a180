"""``obelisk admin``: the operator's tools for a server's database (docs/operator.md).

Each command takes ``--db`` as ``obelisk serve`` does, prints what it did in one line per thing, and asks for no
confirmation; a mistake is one line on stderr and exit status 2, and changes nothing.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Callable, TypeVar

import typer

from obelisk.cli import UserError
from obelisk.core import i18n

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from obelisk.server.admin import TableLine

admin = typer.Typer(name="admin", help="The operator's tools: backups, finding and removing tables and accounts.",
                    no_args_is_help=True)

tr = i18n.ui
Done = TypeVar("Done")
_DB_HELP = ("Database URL: sqlite:///PATH (default: in the user data folder; OBELISK_DATA_DIR moves it) or "
            "postgresql+psycopg://...")


def _url(db: str | None) -> str:
    from obelisk.cli.serve import _check_url
    from obelisk.server.store import default_url

    return _check_url(db) if db else default_url()


def _checked(work: Callable[[], Done]) -> Done:
    """``work()``, its refusals said as one-line user errors."""
    from obelisk.server.admin import AdminError

    try:
        return work()
    except AdminError as error:
        raise UserError(str(error)) from None


def _open(db: str | None) -> "Engine":
    """The database of ``--db``, upgraded to this version's schema; it must exist already."""
    from sqlalchemy.engine import make_url

    from obelisk.server.store import open_database

    url = _url(db)
    if url.startswith("sqlite:///") and not Path(url.removeprefix("sqlite:///")).is_file():
        raise UserError(f"no database at {url.removeprefix('sqlite:///')}")
    try:
        return open_database(url)
    except Exception as error:
        raise UserError(f"cannot open the database {make_url(url).render_as_string(hide_password=True)}: "
                        f"{str(error).splitlines()[0]}") from None


def _since(text: str | None) -> datetime | None:
    """``--since``: a date or time in ISO form (UTC unless it says otherwise), or a number of days ago (``7d``)."""
    if text is None:
        return None
    if text.endswith("d") and text[:-1].isdigit():
        return datetime.now(timezone.utc) - timedelta(days=int(text[:-1]))
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise UserError(f"--since takes a date such as 2026-12-01, a time such as 2026-12-01T18:00, or a number "
                        f"of days such as 7d; got {text!r}") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


@admin.command("backup")
def backup(path: Path = typer.Argument(..., help="The new file to write the copy to (never overwritten)."),
           db: str = typer.Option(None, "--db", help=_DB_HELP)) -> None:
    """Copy an SQLite database into a new file, consistently, even while the server runs."""
    from obelisk.server.admin import backup as copy

    revision = _checked(lambda: copy(_url(db), path))
    print(tr("backed up to {path} (schema revision {revision})", path=path, revision=revision))


@admin.command("restore")
def restore(path: Path = typer.Argument(..., help="A file written by obelisk admin backup."),
            db: str = typer.Option(None, "--db", help=_DB_HELP + " It must not exist yet.")) -> None:
    """Restore a backup into a new SQLite database file; the next server start upgrades an older one."""
    from obelisk.server.admin import restore as copy

    url = _url(db)
    revision = _checked(lambda: copy(path, url))
    print(tr("restored {backup} into {path} (schema revision {revision})", backup=path,
             path=url.removeprefix("sqlite:///"), revision=revision))


@admin.command("list-tables")
def list_tables(status: str = typer.Option(None, "--status", help="waiting, playing, finished or expired."),
                since: str = typer.Option(None, "--since", help="Changed since a date (2026-12-01), a time "
                                                                "(2026-12-01T18:00, UTC) or days ago (7d)."),
                game: str = typer.Option(None, "--game", help="Only the tables of this game."),
                limit: int = typer.Option(50, "--limit", min=1, max=100_000, help="At most this many tables."),
                db: str = typer.Option(None, "--db", help=_DB_HELP)) -> None:
    """List tables, the most recently changed first: id, game, status, moves, chat lines and seats."""
    from obelisk.server.admin import list_tables as find

    moment = _since(since)
    engine = _open(db)
    try:
        lines = _checked(lambda: find(engine, status, moment, game, limit))
    finally:
        engine.dispose()
    for line in lines:
        print(_table_text(line))
    print(tr.n("{n} table", "{n} tables", len(lines)))


@admin.command("remove-table")
def remove_table(table_id: str = typer.Argument(..., metavar="ID", help="The table's id (see list-tables)."),
                 db: str = typer.Option(None, "--db", help=_DB_HELP)) -> None:
    """Delete a table with its seats, moves, chat and results; a running server stops serving it."""
    from obelisk.server.admin import remove_table as remove

    engine = _open(db)
    try:
        removed = _checked(lambda: remove(engine, table_id))
    finally:
        engine.dispose()
    print(tr("removed table {id} ({game}, {players} players, {status}): {seats} seats, {moves} moves, "
             "{chat} chat lines, {results} results", **removed.what, **removed.counts))


@admin.command("remove-account")
def remove_account(name: str = typer.Argument(..., help="The account's name (case does not matter)."),
                   db: str = typer.Option(None, "--db", help=_DB_HELP)) -> None:
    """Delete an account with its sessions, ratings and results; its seats stay playable by their tokens."""
    from obelisk.server.admin import remove_account as remove

    engine = _open(db)
    try:
        removed = _checked(lambda: remove(engine, name))
    finally:
        engine.dispose()
    print(tr("removed account {name}: {sessions} sessions, {ratings} ratings, {results} results, {seats} seats "
             "released", name=repr(removed.what["name"]), **removed.counts))


def _table_text(line: "TableLine") -> str:
    """One line of ``list-tables``: id, game, status, listing, last change, moves, chat lines, seats."""
    seats = ", ".join(f"{seat.seat}:" + (tr("bot {spec}", spec=seat.bot) if seat.kind == "bot" else
                                          seat.name or tr("Player {n}", n=seat.seat + 1))
                      + (tr(" (account)") if seat.account else "") for seat in line.seats)
    return tr("{id}  {game}  {status}  {listing}  changed {updated}  {moves} moves  {chat} chat lines  {seats}",
              id=line.id, game=line.game, status=line.status, listing=tr("public") if line.public else tr("private"),
              updated=f"{line.updated:%Y-%m-%d %H:%M}", moves=line.moves, chat=line.chat, seats=seats)


def register(app: typer.Typer) -> None:
    app.add_typer(admin)
