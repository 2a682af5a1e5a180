"""Turn e-mails through a mail server the test runs: one per turn that passes to a person who asked for them,
with the link to the table and nothing hidden; none otherwise; a dead mail server never stops play."""

from __future__ import annotations

import email
import random
from email import policy
import secrets
import time
from datetime import datetime, timezone
from email.message import EmailMessage as Message
from typing import Any, Iterator

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from obelisk.cli import main
from obelisk.server.app import create_app
from obelisk.server.mail import MailSettings, TurnMails
from obelisk.server.store import AccountRow, SeatRow, make_engine, open_database
from obelisk.server.tables import Tables
from tests.server.conftest import ORIGIN, bearer, config, run_async
from tests.server.servers import free_port
from tests.server.test_api import frame_of, seated
from tests.server.test_games import leaves, plain

PUBLIC = "https://games.example.org"


class Inbox:
    """What the test's mail server received."""

    def __init__(self) -> None:
        self.mails: list[tuple[list[str], Message]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.mails.append((list(envelope.rcpt_tos), email.message_from_bytes(envelope.content, policy=policy.default)))
        return "250 OK"

    def wait(self, count: int, seconds: float = 5.0) -> list[tuple[list[str], Message]]:
        """The mails once ``count`` have come (the sending thread is not waited on otherwise)."""
        deadline = time.monotonic() + seconds
        while len(self.mails) < count and time.monotonic() < deadline:
            time.sleep(0.02)
        return self.mails


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, int]]:
    box = Inbox()
    controller = Controller(box, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        yield box, controller.port
    finally:
        controller.stop()


def mailing(url: str, port: int) -> Any:
    return config(url, mail=MailSettings("127.0.0.1", port, "obelisk@example.org", PUBLIC))


def seat_account(url: str, table: str, seat: int, name: str, notify: bool = True, address: str | None = "x") -> str:
    """An account (as the account page would write it) that claimed ``seat``; its address."""
    engine = make_engine(url)
    account_id = secrets.token_hex(8)
    mail_to = f"{name.lower()}@example.org" if address == "x" else address
    with Session(engine) as session, session.begin():
        session.add(AccountRow(id=account_id, name=name, name_key=name.casefold(), password_hash="x",
                               email=mail_to, notify_email=notify, created=datetime.now(timezone.utc)))
        seat_row = session.get(SeatRow, (table, seat))
        assert seat_row is not None
        seat_row.account_id = account_id
    engine.dispose()
    return str(mail_to)


def started(client: TestClient, box: Inbox) -> None:
    """Forget the e-mail of the game's first turn: whether it went depends on whether the account row was written
    before the mail thread looked (the test writes it after the seats were claimed)."""
    client.app.state.mails.wait_sent()  # type: ignore[attr-defined]
    box.mails.clear()


def pass_turn(client: TestClient, table: str, tokens: dict[str, str], to: int) -> None:
    """Play moves (chosen at random, so no seat goes round in circles) until the turn passes to seat ``to`` from
    another seat."""
    passed, pick = False, random.Random(to)
    for _ in range(500):
        acting = frame_of(client, table)["table"]["to_act"]
        if acting == to and passed:
            return
        passed = passed or acting != to
        token = tokens[str(acting)]
        current = frame_of(client, table, token)
        done = client.post(f"/api/tables/{table}/moves", headers={**ORIGIN, **bearer(token)},
                           json={"version": current["version"], "action": pick.choice(current["legal"])[0]})
        assert done.status_code == 200, done.text
    raise AssertionError(f"the turn never passed to seat {to}")



def hidden_parts(client: TestClient, table: str) -> set[str]:
    """Every text of the table's state that some seat sees and a spectator does not (cards, hands)."""
    state = client.app.state.tables.held(table).snapshot.state  # type: ignore[attr-defined]
    game = state.game
    spectator = plain(state.observation(None))
    public = dict(leaves(spectator))
    found = set()
    for seat in range(game.num_players):
        view = state.observation(seat)
        found |= {str(value) for path, value in leaves(plain(view)) if public.get(path, ...) != value
                  and len(str(value)) >= 4}
        found |= set(game.render_observation(view).splitlines()) - set(game.render_observation(
            state.observation(None)).splitlines())
    return {part.strip() for part in found if len(part.strip()) >= 4}


def test_a_turn_passing_to_a_notified_seat_sends_one_mail_with_the_link_and_nothing_hidden(
        sqlite_url: str, inbox: tuple[Inbox, int]) -> None:
    box, port = inbox
    with TestClient(create_app(mailing(sqlite_url, port))) as client:
        table, tokens = seated(client, game="solomon")
        address = seat_account(sqlite_url, table, 0, "Ann")
        seat_account(sqlite_url, table, 1, "Bob", notify=False)
        started(client, box)
        pass_turn(client, table, tokens, 0)
        mails = box.wait(1)
        hidden = hidden_parts(client, table)
        time.sleep(0.3)  # no second mail comes
        assert len(box.mails) == 1, [m["Subject"] for _, m in box.mails]
        pass_turn(client, table, tokens, 1)
        pass_turn(client, table, tokens, 0)
        assert len(box.wait(2)) == 2  # the next turn passing to Ann is mailed too
    to, mail = mails[0]
    assert to == [address] and mail["To"] == address and mail["From"] == "obelisk@example.org"
    assert str(mail["Subject"]) == "Your turn in King Solomon's Treasury / Jste na tahu: Pokladnice krále Šalamouna"
    body = mail.get_content().replace("\r\n", "\n")
    assert f"{PUBLIC}/table/{table}\n" in body and "P0" in body and "P1" in body and "jste na tahu" in body
    assert all(token not in body and token not in str(mail) for token in tokens.values())
    assert hidden, "the test needs a game with hidden parts"
    for part in hidden:
        assert part not in body, f"the hidden {part!r} is in the turn e-mail"


def test_no_mail_without_notify_for_bots_when_connected_or_for_the_same_turn_twice(
        sqlite_url: str, inbox: tuple[Inbox, int]) -> None:
    box, port = inbox
    with TestClient(create_app(mailing(sqlite_url, port))) as client:
        table, tokens = seated(client, game="solomon")
        seat_account(sqlite_url, table, 0, "Ann", notify=False)
        seat_account(sqlite_url, table, 1, "Bob", address=None)
        pass_turn(client, table, tokens, 0)
        pass_turn(client, table, tokens, 1)
        watched, watched_tokens = seated(client, game="solomon")
        seat_account(sqlite_url, watched, 0, "Cleo")
        started(client, box)
        with client.websocket_connect(f"/ws/tables/{watched}", headers=ORIGIN) as socket:
            socket.send_json({"type": "hello", "token": watched_tokens["0"]})
            assert socket.receive_json()["type"] == "frame"
            pass_turn(client, watched, watched_tokens, 0)  # Cleo is looking at the table
        stood_in, stood_in_tokens = seated(client, game="solomon")
        seat_account(sqlite_url, stood_in, 0, "Dan")
        started(client, box)
        handed = client.post(f"/api/tables/{stood_in}/seats/0/bot", headers={**ORIGIN, **bearer(stood_in_tokens["0"])},
                             json={"bot": "greedy"})
        assert handed.status_code == 200, handed.text
        pick = random.Random(1)
        for _ in range(100):  # seat 1 plays; a bot plays Dan's turns for him
            current = frame_of(client, stood_in, stood_in_tokens["1"])
            if not current["legal"]:
                if sum(entry["actor"] == 0 for entry in current["log"]) >= 2:
                    break
                time.sleep(0.02)
                continue
            client.post(f"/api/tables/{stood_in}/moves", headers={**ORIGIN, **bearer(stood_in_tokens["1"])},
                        json={"version": current["version"], "action": pick.choice(current["legal"])[0]})
        assert sum(entry["actor"] == 0 for entry in frame_of(client, stood_in)["log"]) >= 2
        time.sleep(0.5)
    assert box.mails == []


def test_no_mail_when_no_mail_server_is_configured(sqlite_url: str, inbox: tuple[Inbox, int]) -> None:
    box, _ = inbox
    with TestClient(create_app(config(sqlite_url))) as client:
        assert client.app.state.tables.on_published is None  # type: ignore[attr-defined]
        table, tokens = seated(client, game="solomon")
        seat_account(sqlite_url, table, 0, "Ann")
        pass_turn(client, table, tokens, 0)
        time.sleep(0.3)
    assert box.mails == []


def test_two_processes_seeing_the_same_turn_send_one_mail(db_url: str, inbox: tuple[Inbox, int]) -> None:
    box, port = inbox
    with TestClient(create_app(config(db_url))) as client:
        table, tokens = seated(client, game="solomon")
        seat_account(db_url, table, 0, "Ann")
        pass_turn(client, table, tokens, 0)
    engine = open_database(db_url)
    settings = MailSettings("127.0.0.1", port, "obelisk@example.org", PUBLIC)

    async def both() -> None:
        first, second = Tables(engine), Tables(engine)
        try:
            mails = [TurnMails(engine, settings, lambda live: set()) for _ in range(2)]
            for tables, mailer in zip((first, second), mails):
                live = await tables.get(table)
                mailer.published(live)
                mailer.published(live)  # published again: still one
            for mailer in mails:
                mailer.close()
        finally:
            await first.close()
            await second.close()

    run_async(both())
    engine.dispose()
    assert len(box.wait(1)) == 1
    time.sleep(0.2)
    assert len(box.mails) == 1


def test_a_dead_mail_server_does_not_stop_play(sqlite_url: str, caplog: pytest.LogCaptureFixture) -> None:
    with TestClient(create_app(mailing(sqlite_url, free_port()))) as client:
        table, tokens = seated(client, game="solomon")
        seat_account(sqlite_url, table, 0, "Ann")
        seat_account(sqlite_url, table, 1, "Bob")
        pass_turn(client, table, tokens, 0)
        pass_turn(client, table, tokens, 1)
        version = frame_of(client, table)["version"]
    with TestClient(create_app(config(sqlite_url))) as client:
        assert frame_of(client, table)["version"] == version  # every acknowledged move is kept
    assert "the turn e-mail of seat" in caplog.text and "was not sent" in caplog.text


@pytest.mark.parametrize("args, words", [
    (["--smtp-host", "mail.example.org", "--public-url", PUBLIC], "--mail-from"),
    (["--smtp-host", "mail.example.org", "--mail-from", "obelisk@example.org"], "--public-url"),
    (["--smtp-host", "mail.example.org", "--mail-from", "o@example.org", "--public-url", "games.example.org"],
     "--public-url"),
    (["--mail-from", "obelisk@example.org"], "need --smtp-host"),
])
def test_mail_settings_are_checked_in_one_line(args: list[str], words: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", *args]) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_password_is_sent_only_over_starttls(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("OBELISK_SMTP_USER", "obelisk")
    monkeypatch.setenv("OBELISK_SMTP_PASSWORD", "secret")
    assert main(["serve", "--smtp-host", "mail.example.org", "--mail-from", "o@example.org",
                 "--public-url", PUBLIC]) == 2
    assert "--smtp-starttls" in capsys.readouterr().err


def test_mail_settings_reach_every_worker_process_as_given(monkeypatch: pytest.MonkeyPatch) -> None:
    from obelisk.cli.serve import mail_settings
    from obelisk.server.mail import settings_from_environment

    environment = {"OBELISK_SMTP_USER": "obelisk", "OBELISK_SMTP_PASSWORD": "secret"}
    settings = mail_settings("mail.example.org", 2525, "Obelisk <obelisk@example.org>", PUBLIC + "/", True,
                             environment)
    assert settings == MailSettings("mail.example.org", 2525, "Obelisk <obelisk@example.org>", PUBLIC, True,
                                    "obelisk", "secret")
    assert settings_from_environment({**settings.environment(), **environment}) == settings
    assert settings_from_environment(environment) is None
    assert "secret" not in str(settings.environment())
