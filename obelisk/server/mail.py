"""Turn e-mails: when the turn passes to a person whose account asks for it, one e-mail through the operator's SMTP
server, with a link to the table (docs/operator.md, "Turn e-mails").

An e-mail goes to a seat's account when the table's turn passes to that seat, the account has ``notify_email``
and an address, the seat is a person's (not a bot, nor a bot standing in) and no socket of that seat is open on
the process that sees the turn pass (the person is looking at the table). It is sent once per turn however many
processes see the turn: each first claims it by moving ``seats.mailed_turn`` to the table's ``turn_started`` in
one ``UPDATE`` (only one claim can match), then sends. Claiming and sending run in a worker thread, never on the
event loop, so a move is never held up; a mail server that fails is logged, and the turn is not mailed again.

The e-mail names the game, the players' names and the link to the table page (``--public-url`` + ``/table/ID``),
in English and in Czech (no language is stored with an account): nothing a seat may not see, no token, no card.
"""

from __future__ import annotations

import logging
import smtplib
import ssl
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from email import policy
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Callable, Mapping, cast

from sqlalchemy import Engine, Table, or_, select, update

from obelisk.core import i18n
from obelisk.server.live import HeldTable
from obelisk.server.store import AccountRow, SeatRow
from obelisk.server.table import Snapshot

log = logging.getLogger("obelisk.server.mail")
tr = i18n.ui

SEND_TIMEOUT = 20.0
"""Seconds a mail server may take to answer before the e-mail is given up (and logged)."""
REMEMBERED = 10_000
"""How many tables' last turn this process remembers, so a turn seen again costs no database call."""
_POLICY = policy.default.clone(max_line_length=998)
"""Headers are not folded (RFC 5322 allows lines of 998 characters): folding an encoded Czech subject loses the
space between two of its words."""
_SEATS = cast(Table, SeatRow.__table__)
_ACCOUNTS = cast(Table, AccountRow.__table__)


@dataclass(frozen=True)
class MailSettings:
    """The operator's mail server (``obelisk serve --smtp-host ...``) and the address the server is reached at."""

    host: str
    port: int
    sender: str
    public_url: str
    """The base of the links in e-mails, such as ``https://games.example.org`` (no trailing slash)."""
    starttls: bool = False
    user: str | None = None
    password: str | None = None


    def environment(self) -> dict[str, str]:
        """The settings as the environment variables :func:`settings_from_environment` reads (the password and
        user stay in ``OBELISK_SMTP_USER`` and ``OBELISK_SMTP_PASSWORD``, where the operator put them)."""
        return {"OBELISK_SERVER_SMTP_HOST": self.host, "OBELISK_SERVER_SMTP_PORT": str(self.port),
                "OBELISK_SERVER_MAIL_FROM": self.sender, "OBELISK_SERVER_PUBLIC_URL": self.public_url,
                "OBELISK_SERVER_SMTP_STARTTLS": "1" if self.starttls else ""}


def settings_from_environment(environment: Mapping[str, str]) -> MailSettings | None:
    """The mail settings ``obelisk serve --workers N`` hands each process; None when no mail server is set."""
    host = environment.get("OBELISK_SERVER_SMTP_HOST")
    if not host:
        return None
    return MailSettings(host, int(environment["OBELISK_SERVER_SMTP_PORT"]), environment["OBELISK_SERVER_MAIL_FROM"],
                        environment["OBELISK_SERVER_PUBLIC_URL"], bool(environment.get("OBELISK_SERVER_SMTP_STARTTLS")),
                        environment.get("OBELISK_SMTP_USER") or None, environment.get("OBELISK_SMTP_PASSWORD"))


@dataclass(frozen=True)
class TurnMail:
    """One e-mail to be sent: to whom, its subject and its text."""

    to: str
    subject: str
    body: str


def _seat_name(snapshot: Snapshot, seat: int) -> str:
    return snapshot.seats[seat].name or tr("Player {n}", n=seat + 1)


def _in(lang: str, snapshot: Snapshot, seat: int, link: str) -> tuple[str, str]:
    """The subject and the text of a turn e-mail in ``lang``: the game, the players, the link; nothing hidden."""
    with i18n.language(lang):
        game = i18n.domain(snapshot.game.id).term("game", snapshot.game.info.name)
        players = ", ".join(_seat_name(snapshot, other) for other in range(len(snapshot.seats)))
        subject = tr("Your turn in {game}", game=game)
        body = tr("{player}, it is your turn at the table of {game} ({players}).\n"
                  "Open the table: {link}\n\n"
                  "You get this e-mail because your account asks for one when it is your turn; you may turn it off "
                  "on your account page.", player=_seat_name(snapshot, seat), game=game, players=players, link=link)
    return subject, body


def turn_mail(snapshot: Snapshot, seat: int, address: str, public_url: str) -> TurnMail:
    """The e-mail telling ``seat`` that it is its turn at ``snapshot``'s table: in English, then in Czech."""
    link = f"{public_url}/table/{snapshot.id}"
    english, czech = _in("en", snapshot, seat, link), _in("cs", snapshot, seat, link)
    return TurnMail(address, f"{english[0]} / {czech[0]}", f"{english[1]}\n\n----\n\n{czech[1]}\n")


def claim(engine: Engine, table_id: str, seat: int, turn: datetime) -> str | None:
    """Claim the e-mail of the turn that started at ``turn`` for ``seat``; the address to send it to, or None.

    One statement moves the seat's ``mailed_turn`` to ``turn`` only if it is earlier (or unset) and the seat's
    account wants turn e-mails and has an address: of every process claiming the same turn one succeeds.
    """
    wants = select(_ACCOUNTS.c.id).where(_ACCOUNTS.c.notify_email.is_(True), _ACCOUNTS.c.email.is_not(None),
                                         _ACCOUNTS.c.email != "")
    with engine.begin() as connection:
        claimed = connection.execute(
            update(_SEATS).where(
                _SEATS.c.table_id == table_id, _SEATS.c.seat == seat, _SEATS.c.kind == "human",
                _SEATS.c.account_id.in_(wants),
                or_(_SEATS.c.mailed_turn.is_(None), _SEATS.c.mailed_turn < turn),
            ).values(mailed_turn=turn).returning(_SEATS.c.account_id)).scalar_one_or_none()
        if claimed is None:
            return None
        address: str | None = connection.execute(select(_ACCOUNTS.c.email).where(_ACCOUNTS.c.id == claimed)
                                                 ).scalar_one_or_none()
    return address


def send(settings: MailSettings, mail: TurnMail) -> None:
    """Hand ``mail`` to the mail server (blocking; raises what the server or the network says)."""
    message = EmailMessage(policy=_POLICY)
    message["From"] = settings.sender
    message["To"] = mail.to
    message["Subject"] = mail.subject
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = make_msgid(domain=settings.sender.rpartition("@")[2] or None)
    message["Auto-Submitted"] = "auto-generated"
    message.set_content(mail.body)
    with smtplib.SMTP(settings.host, settings.port, timeout=SEND_TIMEOUT) as server:
        if settings.starttls:
            server.starttls(context=ssl.create_default_context())
        if settings.user:
            server.login(settings.user, settings.password or "")
        server.send_message(message)


def _kept_turn(snapshot: Snapshot, seat: int) -> bool:
    """Whether the latest decision was ``seat``'s own: its turn goes on (its clock may restart after a move that
    cannot be taken back), it did not pass to it, and it is not mailed."""
    actors = [entry.actor for entry in snapshot.log if entry.actor >= 0]
    return bool(actors) and actors[-1] == seat


class TurnMails:
    """The turn e-mails of one server process: told of every published snapshot, it mails each new turn once."""

    def __init__(self, engine: Engine, settings: MailSettings, connected: Callable[[HeldTable], set[int]]) -> None:
        """``connected(live)``: the seats with a socket open on this process (they are not mailed)."""
        self.engine = engine
        self.settings = settings
        self.connected = connected
        self._seen: OrderedDict[str, datetime] = OrderedDict()
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="obelisk-mail")

    def published(self, live: HeldTable) -> None:
        """A table's snapshot was published (on the event loop): if the turn passed to a person, mail them."""
        snapshot: Snapshot = live.snapshot
        seat = snapshot.to_act
        if seat is None or self._seen.get(snapshot.id) == snapshot.turn_started:
            return
        self._seen[snapshot.id] = snapshot.turn_started
        self._seen.move_to_end(snapshot.id)
        while len(self._seen) > REMEMBERED:
            self._seen.popitem(last=False)
        if snapshot.seats[seat].kind != "human" or seat in self.connected(live) or _kept_turn(snapshot, seat):
            return
        self._worker.submit(self._mail, snapshot, seat)

    def _mail(self, snapshot: Snapshot, seat: int) -> None:
        try:
            address = claim(self.engine, snapshot.id, seat, snapshot.turn_started)
            if address is None:
                return
            send(self.settings, turn_mail(snapshot, seat, address, self.settings.public_url))
        except Exception as error:
            log.warning("table %s: the turn e-mail of seat %d was not sent: %s", snapshot.id, seat, error)

    def wait_sent(self) -> None:
        """Wait until the e-mails of the turns seen so far are claimed and sent (or given up)."""
        self._worker.submit(lambda: None).result()

    def close(self) -> None:
        """Wait for the e-mails being sent (each gives up after ``SEND_TIMEOUT``), then stop the worker."""
        self._worker.shutdown(wait=True)
