"""``obelisk serve``: the online tables server (docs/server.md)."""

from __future__ import annotations

import os
import re
import socket
import sys
import threading
import webbrowser
from typing import TYPE_CHECKING, Any

import typer

from obelisk.cli import UserError
from obelisk.core import i18n

if TYPE_CHECKING:
    from obelisk.server.mail import MailSettings

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


_HOST_PATTERN = re.compile(r"\*|(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\]",
                           re.IGNORECASE)
_EVERY_INTERFACE = ("", "0.0.0.0", "::", "[::]")


def allowed_hosts(host: str, extra: list[str]) -> tuple[str, ...]:
    """The ``Host`` names the server answers to: this machine's, ``host`` unless it means every interface,
    and each ``--allowed-host`` (a name, ``*.example.org`` for its subdomains, an address, ``*`` for any)."""
    from obelisk.server.app import LOOPBACK_HOSTS

    for pattern in extra:
        if not _HOST_PATTERN.fullmatch(pattern):
            raise UserError(f"--allowed-host takes a host name such as games.example.org, *.example.org, an address "
                            f"or *, without a scheme or a port; got {pattern!r}")
    names = list(LOOPBACK_HOSTS)
    if host not in _EVERY_INTERFACE:
        names.append(f"[{host}]" if ":" in host else host)
    names += extra
    return tuple(dict.fromkeys(name.lower() for name in names))


_LOCAL_MAIL = ("localhost", "127.0.0.1", "::1")


def mail_settings(host: str | None, port: int, sender: str | None, public_url: str | None, starttls: bool,
                  environment: dict[str, str]) -> "MailSettings | None":
    """The turn e-mails' settings from ``--smtp-host`` and its companions (None: no e-mails), checked: an address
    to send from, the public address of the server for the links, and a password only over STARTTLS (or to a
    mail server on this machine); user and password come from ``OBELISK_SMTP_USER`` and ``OBELISK_SMTP_PASSWORD``."""
    from email.utils import parseaddr
    from urllib.parse import urlsplit

    from obelisk.server.mail import MailSettings

    if host is None:
        companions = ((sender, "--mail-from"), (public_url, "--public-url"), (starttls or None, "--smtp-starttls"))
        for given, name in companions:
            if given is not None:
                raise UserError(f"{name} is for turn e-mails, which need --smtp-host too")
        return None
    if not sender or "@" not in parseaddr(sender)[1]:
        raise UserError(f"turn e-mails need --mail-from with an e-mail address, such as obelisk@example.org; got "
                        f"{sender!r}")
    parts = urlsplit(public_url or "")
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise UserError("turn e-mails need --public-url, the address people open the server at, such as "
                        f"https://games.example.org; got {public_url!r}")
    user, password = environment.get("OBELISK_SMTP_USER") or None, environment.get("OBELISK_SMTP_PASSWORD")
    if user and not password:
        raise UserError("OBELISK_SMTP_USER is set but OBELISK_SMTP_PASSWORD is not")
    if user and not starttls and host not in _LOCAL_MAIL:
        raise UserError("a mail server password is sent only over an encrypted connection: add --smtp-starttls")
    return MailSettings(host, port, sender, public_url.rstrip("/") if public_url else "", starttls, user, password)


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
    allowed_host: list[str] = typer.Option([], "--allowed-host",
                                           help="A host name people reach the server by (repeatable; "
                                                "*.example.org for its subdomains). Default: localhost, "
                                                "127.0.0.1, [::1] and --host unless it is every interface."),
    smtp_host: str = typer.Option(None, "--smtp-host", help="Mail server for turn e-mails (none: no e-mails); "
                                                            "user and password from OBELISK_SMTP_USER and "
                                                            "OBELISK_SMTP_PASSWORD."),
    smtp_port: int = typer.Option(587, "--smtp-port", min=1, max=65535, help="The mail server's port."),
    smtp_starttls: bool = typer.Option(False, "--smtp-starttls", help="Encrypt the connection to the mail server "
                                                                      "(STARTTLS)."),
    mail_from: str = typer.Option(None, "--mail-from", help="The address turn e-mails are sent from."),
    public_url: str = typer.Option(None, "--public-url", help="The address people open the server at "
                                                              "(https://games.example.org): the e-mails' links."),
) -> None:
    """Serve online tables: a lobby, tables for people and bots, a websocket per seat."""
    import uvicorn
    from sqlalchemy.engine import make_url

    from obelisk.server.app import ServerConfig, create_app
    from obelisk.server.store import default_url, open_database

    hosts = allowed_hosts(host, allowed_host)
    mail = mail_settings(smtp_host, smtp_port, mail_from, public_url, smtp_starttls, dict(os.environ))
    url = _check_url(db) if db else default_url()
    if workers > 1 and not url.startswith("postgresql"):
        raise UserError("several --workers share tables through PostgreSQL only; give --db postgresql+psycopg://...")
    try:
        open_database(url).dispose()
    except Exception as error:
        raise UserError(f"cannot open the database {make_url(url).render_as_string(hide_password=True)}: "
                        f"{str(error).splitlines()[0]}") from None
    _check_port(host, port)
    shown = f"http://{'localhost' if host in ('127.0.0.1', '::1', *_EVERY_INTERFACE) else host}:{port}/"
    print(tr("Obelisk tables at {url}  (database {database}; Ctrl+C stops)", url=shown,
             database=make_url(url).render_as_string(hide_password=True)), flush=True)
    if host in _EVERY_INTERFACE and not allowed_host:
        print(tr("Other machines reach it only by a name or address given with --allowed-host, such as this "
                 "machine's address on your network."), flush=True)
    if open_browser:
        where = _open_browser(shown, port)
        if where is not None:
            print(where, flush=True)
    options: dict[str, Any] = dict(host=host, port=port, ws_max_size=256 * 1024, log_level="warning",
                                   server_header=False)
    if workers == 1:
        uvicorn.run(create_app(ServerConfig(db_url=url, bot_workers=bot_workers, bot_delay=bot_delay,
                                            allowed_hosts=hosts, tune_process=True, mail=mail)), **options)
        return
    os.environ.update(OBELISK_SERVER_DB=url, OBELISK_SERVER_BOT_WORKERS=str(bot_workers),
                      OBELISK_SERVER_BOT_DELAY=str(bot_delay), OBELISK_SERVER_ALLOWED_HOSTS=" ".join(hosts),
                      **(mail.environment() if mail is not None else {}))
    uvicorn.run("obelisk.server.app:app_from_environment", factory=True, workers=workers, **options)


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
