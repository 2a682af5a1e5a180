"""``obelisk serve``: the online tables server (docs/server.md)."""

from __future__ import annotations

import os
import socket
import sys
import threading
import webbrowser
from typing import Any

import typer

from obelisk.cli import UserError
from obelisk.core import i18n

tr = i18n.ui


def _check_url(db: str) -> str:
    """The SQLAlchemy URL of ``db``; only SQLite and PostgreSQL (through psycopg) are served."""
    if db.startswith("postgresql://") or db.startswith("postgres://"):
        db = "postgresql+psycopg://" + db.split("://", 1)[1]
    if not (db.startswith("sqlite:///") or db.startswith("postgresql+psycopg://")):
        raise UserError(f"--db must be sqlite:///PATH or postgresql+psycopg://USER:PASSWORD@HOST/NAME, got {db!r}")
    return db


def _check_port(host: str, port: int) -> None:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            raise UserError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None


def _open_browser(url: str, port: int) -> str | None:
    """Open ``url`` in a graphical browser a second from now, or say where to point one.

    Never fails and never takes over the terminal: on Linux without a display only text browsers could be
    found, so none is started. Returns the line to print when no browser was started.
    """
    browser: webbrowser.BaseBrowser | None = None
    if not sys.platform.startswith("linux") or os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        try:
            browser = webbrowser.get()
        except webbrowser.Error:
            browser = None
    if browser is None:
        return tr("No graphical browser here: open {url} in a browser on this machine, or on yours after "
                  "ssh -L {port}:localhost:{port} to this one.", url=url, port=port)
    found = browser

    def open_it() -> None:
        try:
            found.open(url)
        except Exception:
            pass

    threading.Timer(1.0, open_it).start()
    return None


def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (0.0.0.0: every interface)."),
    port: int = typer.Option(8000, "--port", min=1, max=65535, help="Port to listen on."),
    db: str = typer.Option(None, "--db", help="Database URL: sqlite:///PATH (default: in the user data folder; "
                                             "OBELISK_DATA_DIR moves it) or postgresql+psycopg://..."),
    workers: int = typer.Option(1, "--workers", min=1, max=64,
                                help="Server processes sharing the port (more than one needs PostgreSQL)."),
    bot_workers: int = typer.Option(1, "--bot-workers", min=0, max=64,
                                    help="Processes deciding bot moves in each server process (0: threads)."),
    bot_delay: float = typer.Option(0.6, "--bot-delay", min=0.0, max=60.0,
                                    help="A bot's move takes at least this many seconds."),
    open_browser: bool = typer.Option(False, "--open", help="Open the lobby in a browser where one is available."),
) -> None:
    """Serve online tables: a lobby, tables for people and bots, a websocket per seat."""
    import uvicorn
    from sqlalchemy.engine import make_url

    from obelisk.server.app import ServerConfig, create_app
    from obelisk.server.store import default_url, open_database

    url = _check_url(db) if db else default_url()
    if workers > 1 and not url.startswith("postgresql"):
        raise UserError("several --workers share tables through PostgreSQL only; give --db postgresql+psycopg://...")
    try:
        open_database(url).dispose()
    except Exception as error:
        raise UserError(f"cannot open the database {make_url(url).render_as_string(hide_password=True)}: "
                        f"{str(error).splitlines()[0]}") from None
    _check_port(host, port)
    shown = f"http://{'localhost' if host in ('127.0.0.1', '::1') else host}:{port}/"
    print(tr("Obelisk tables at {url}  (database {database}; Ctrl+C stops)", url=shown,
             database=make_url(url).render_as_string(hide_password=True)), flush=True)
    if open_browser:
        where = _open_browser(shown, port)
        if where is not None:
            print(where, flush=True)
    options: dict[str, Any] = dict(host=host, port=port, ws_max_size=256 * 1024, log_level="warning",
                                   server_header=False)
    if workers == 1:
        uvicorn.run(create_app(ServerConfig(db_url=url, bot_workers=bot_workers, bot_delay=bot_delay,
                                         tune_process=True)), **options)
        return
    os.environ.update(OBELISK_SERVER_DB=url, OBELISK_SERVER_BOT_WORKERS=str(bot_workers),
                      OBELISK_SERVER_BOT_DELAY=str(bot_delay))
    uvicorn.run("obelisk.server.app:app_from_environment", factory=True, workers=workers, **options)


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
