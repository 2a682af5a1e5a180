"""How one server process runs (:class:`ServerConfig`), read by the application, its routes and its sockets."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

STATIC = Path(__file__).with_name("static")
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")
"""The host names a server answers to whatever it is told: this machine's."""


@dataclass
class ServerConfig:
    """How one server process runs; the defaults suit ``obelisk serve`` on one machine."""

    db_url: str | None = None
    """``sqlite:///PATH`` or ``postgresql+psycopg://...``; None: SQLite in the per-user data folder."""
    bot_workers: int = 1
    """Processes deciding bot moves; 0 runs them in one thread of this process."""
    bot_delay: float = 0.6
    """A bot's move takes at least this many seconds, so people can follow the game."""
    max_body: int = 64 * 1024
    rate: float = 10.0
    """Sustained requests (or websocket messages) per second allowed per client."""
    burst: float = 40.0
    hello_timeout: float = 10.0
    allowed_hosts: tuple[str, ...] = LOOPBACK_HOSTS
    """The ``Host`` names requests and websockets may be sent to (``*.example.org`` matches its subdomains,
    ``*`` any): a page of another site that a rebound name points at this server is refused."""
    max_waiting: int = 10
    """Tables one client address may have waiting for players at once."""
    waiting_hours: float = 24.0
    """A table still waiting for players this long after its last change (creation or a claim) expires."""
    max_sockets: int = 32
    """Websockets one client address may hold open at once (in each server process)."""
    cache_size: int = 256
    chat_lines: int = 5
    chat_seconds: float = 10.0
    """A chat sender may write ``chat_lines`` lines at once, then one every ``chat_seconds / chat_lines`` seconds."""
    chat_table_lines: int = 2000
    """The most lines one channel of a table's chat keeps: a table's chat cannot grow the database without end."""
    sign_in_tries: int = 5
    sign_in_seconds: float = 10.0
    """Password tries (sign-ins, and registrations by address) allowed at once per client address and per account
    name, then one every ``sign_in_seconds``."""
    tune_process: bool = False
    """Keep the collector and the commit thread's waits for the interpreter off the moves' latency
    (see :func:`tune_process`); set by ``obelisk serve``, which owns its whole process."""
    static: Path = field(default_factory=lambda: STATIC)
