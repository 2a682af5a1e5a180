"""``obelisk admin``: a backup taken mid-game restores a table a server then serves intact; removals take away
what they name and nothing else, and a running server stops serving a removed table; mistakes are one-line
errors that change nothing."""

from __future__ import annotations

import secrets
import time
import sqlite3
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from obelisk.cli import main
from obelisk.server.app import create_app
from obelisk.server.store import (
    AccountRow, ChatRow, MoveRow, RatingRow, ResultRow, SeatRow, SessionRow, TableRow, make_engine, migrate,
    open_database,
)
from tests.server.conftest import ORIGIN, bearer, config
from tests.server.test_api import error_of, frame_of, seated, to_act


def admin(*args: str) -> int:
    return main(["admin", *args])


def play(client: TestClient, table: str, tokens: dict[str, str], count: int) -> int:
    """``count`` moves by whoever is to act; the version after them."""
    version = 0
    for _ in range(count):
        token, current = to_act(client, table, tokens)
        done = client.post(f"/api/tables/{table}/moves", headers={**ORIGIN, **bearer(token)},
                           json={"version": current["version"], "action": current["legal"][0][0]})
        assert done.status_code == 200, done.text
        version = done.json()["version"]
    return version


def add_account(url: str, name: str, **values: Any) -> str:
    """An account row as the accounts' pages would write it; its id."""
    engine = make_engine(url)
    account_id = secrets.token_hex(8)
    with Session(engine) as session, session.begin():
        session.add(AccountRow(id=account_id, name=name, name_key=name.casefold(), password_hash="x",
                               created=datetime.now(timezone.utc), **values))
    engine.dispose()
    return account_id


def rows(url: str, row: Any, *where: Any) -> int:
    engine = make_engine(url)
    with Session(engine) as session:
        count = session.scalar(select(func.count()).select_from(row).where(*where))
    engine.dispose()
    return int(count or 0)


def test_a_backup_mid_game_restores_a_table_a_server_serves_intact(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'live.db'}"
    with TestClient(create_app(config(url))) as client:
        table, tokens = seated(client)
        version = play(client, table, tokens, 4)
        assert admin("backup", str(tmp_path / "copy.db"), "--db", url) == 0  # the server keeps running
        seen = frame_of(client, table, tokens["0"])
        play(client, table, tokens, 1)  # a move after the backup is not in it
    assert "backed up to" in capsys.readouterr().out
    restored = f"sqlite:///{tmp_path / 'restored.db'}"
    assert admin("restore", str(tmp_path / "copy.db"), "--db", restored) == 0
    with TestClient(create_app(config(restored))) as client:
        again = frame_of(client, table, tokens["0"])
        assert again["version"] == version and again["log"] == seen["log"] and again["view"] == seen["view"]
        assert play(client, table, tokens, 1) > version


def test_an_older_backup_is_upgraded_on_the_next_start(tmp_path: Path) -> None:
    old = tmp_path / "old.db"
    engine = make_engine(f"sqlite:///{old}")
    migrate(engine, "0006")
    engine.dispose()
    target = tmp_path / "restored.db"
    assert admin("restore", str(old), "--db", f"sqlite:///{target}") == 0
    open_database(f"sqlite:///{target}").dispose()
    with sqlite3.connect(target) as connection:
        assert connection.execute("SELECT version_num FROM alembic_version").fetchone()[0] == "0008"


def one_error(capsys: pytest.CaptureFixture[str], words: str) -> None:
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err


def test_restore_refuses_junk_an_unknown_revision_and_an_existing_database(tmp_path: Path,
                                                                            capsys: pytest.CaptureFixture[str]
                                                                            ) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 100)
    target = f"sqlite:///{tmp_path / 'new.db'}"
    assert admin("restore", str(junk), "--db", target) == 2
    one_error(capsys, "is not an Obelisk database")
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
    assert admin("restore", str(other), "--db", target) == 2
    one_error(capsys, "is not an Obelisk database")
    future = tmp_path / "future.db"
    open_database(f"sqlite:///{future}").dispose()
    with sqlite3.connect(future) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '9999_later'")
    assert admin("restore", str(future), "--db", target) == 2
    one_error(capsys, "does not know")
    assert admin("restore", str(tmp_path / "missing.db"), "--db", target) == 2
    one_error(capsys, "is not a file")
    assert not (tmp_path / "new.db").exists()
    existing = tmp_path / "existing.db"
    open_database(f"sqlite:///{existing}").dispose()
    before = existing.read_bytes()
    assert admin("restore", str(existing), "--db", f"sqlite:///{existing}") == 2
    one_error(capsys, "already exists; stop the server")
    assert existing.read_bytes() == before
    assert admin("backup", str(existing), "--db", f"sqlite:///{existing}") == 2
    one_error(capsys, "already exists")


def test_postgresql_backups_are_refused_with_the_advice_to_use_pg_dump(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    url = "postgresql+psycopg://obelisk:secret@127.0.0.1/obelisk"
    assert admin("backup", str(tmp_path / "copy.db"), "--db", url) == 2
    one_error(capsys, "pg_dump")
    assert admin("restore", str(tmp_path / "copy.db"), "--db", url) == 2
    one_error(capsys, "pg_restore")


def test_remove_table_deletes_its_rows_and_a_running_server_answers_404(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]
                                                                         ) -> None:
    url = f"sqlite:///{tmp_path / 'live.db'}"
    with TestClient(create_app(config(url))) as client:
        table, tokens = seated(client)
        kept, kept_tokens = seated(client)
        play(client, table, tokens, 2)
        said = client.post(f"/api/tables/{table}/chat", headers={**ORIGIN, **bearer(tokens["0"])},
                           json={"text": "hello"})
        assert said.status_code == 201, said.text
        token, current = to_act(client, table, tokens)
        moves = rows(url, MoveRow, MoveRow.table_id == table)
        with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as socket:
            socket.send_json({"type": "hello", "token": token})
            assert socket.receive_json()["type"] == "frame"
            assert admin("remove-table", table, "--db", url) == 0
            moved = client.post(f"/api/tables/{table}/moves", headers={**ORIGIN, **bearer(token)},
                                json={"version": current["version"], "action": current["legal"][0][0]})
            error_of(moved, 404, "not_found")
            assert socket.receive_json()["code"] == "not_found"
        out = capsys.readouterr().out
        assert f"removed table {table} (valley, 2 players, playing): 2 seats, {moves} moves, 1 chat lines" in out
        error_of(client.get(f"/api/tables/{table}"), 404, "not_found")
        assert rows(url, TableRow, TableRow.id == table) == 0
        for row in (SeatRow, MoveRow, ChatRow, ResultRow):
            assert rows(url, row, row.table_id == table) == 0
        assert play(client, kept, kept_tokens, 1) == frame_of(client, kept)["version"]


def test_a_server_on_sqlite_sees_a_removal_at_the_next_read(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'live.db'}"
    with TestClient(create_app(config(url))) as client:
        table, tokens = seated(client)
        frame_of(client, table, tokens["0"])  # held in the server's memory
        assert admin("remove-table", table, "--db", url) == 0
        error_of(client.get(f"/api/tables/{table}"), 404, "not_found")
        error_of(client.get(f"/api/tables/{table}/frame"), 404, "not_found")
        assert client.app.state.tables.held(table) is None  # type: ignore[attr-defined]


def test_remove_account_clears_its_seats_which_stay_playable_by_token(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'live.db'}"
    with TestClient(create_app(config(url))) as client:
        table, tokens = seated(client)
        account = add_account(url, "Nefertiti", email="n@example.org", notify_email=True)
        other = add_account(url, "Ramses")
        engine = make_engine(url)
        moment = datetime.now(timezone.utc)
        with Session(engine) as session, session.begin():
            session.get(SeatRow, (table, 0)).account_id = account  # type: ignore[union-attr]
            session.get(SeatRow, (table, 1)).account_id = other  # type: ignore[union-attr]
            session.add(SessionRow(id_hash="a" * 64, account_id=account, created=moment, expires=moment))
            session.add(RatingRow(account_id=account, game="valley", mu=25.0, sigma=8.0, games=1, updated=moment))
            session.add(RatingRow(account_id=other, game="valley", mu=25.0, sigma=8.0, games=1, updated=moment))
        engine.dispose()
        tables = client.app.state.tables  # type: ignore[attr-defined]
        before = tables.held(table).snapshot.updated
        assert admin("remove-account", "NEFERTITI", "--db", url) == 0
        assert client.get(f"/api/tables/{table}").status_code == 200
        assert tables.held(table).snapshot.updated > before  # read again: its seats changed
        assert ("removed account 'Nefertiti': 1 sessions, 1 ratings, 0 results, 1 seats released"
                in capsys.readouterr().out)
        assert rows(url, AccountRow, AccountRow.id == account) == 0
        assert rows(url, SessionRow, SessionRow.account_id == account) == 0
        assert rows(url, RatingRow, RatingRow.account_id == account) == 0
        assert rows(url, SeatRow, SeatRow.account_id == account) == 0
        assert rows(url, SeatRow, SeatRow.account_id == other) == 1
        assert rows(url, RatingRow, RatingRow.account_id == other) == 1
        play(client, table, tokens, 2)


@pytest.mark.parametrize("args, words", [
    (["remove-table", "nosuchtable"], "no table 'nosuchtable'"),
    (["remove-account", "nobody"], "no account named 'nobody'"),
    (["list-tables", "--status", "sleeping"], "--status must be one of"),
    (["list-tables", "--since", "last tuesday"], "--since takes a date"),
    (["remove-table", "x", "--db", "mysql://x/y"], "--db must be"),
])
def test_bad_input_is_a_one_line_error(args: list[str], words: str, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'live.db'}"
    open_database(url).dispose()
    if "--db" not in args:
        args = [*args, "--db", url]
    assert admin(*args) == 2
    one_error(capsys, words)


def test_remove_on_a_missing_database_file_creates_none(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert admin("remove-table", "x", "--db", f"sqlite:///{tmp_path / 'none.db'}") == 2
    one_error(capsys, "no database at")
    assert not (tmp_path / "none.db").exists()


def test_list_tables_filters_by_status_game_and_time(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'live.db'}"
    with TestClient(create_app(config(url))) as client:
        playing, _ = seated(client)
        waiting = client.post("/api/tables", headers=ORIGIN, json={"game": "solomon", "players": 2,
                                                                    "seats": [{"kind": "human"}] * 2}).json()
    assert admin("list-tables", "--db", url) == 0
    out = capsys.readouterr().out
    assert playing in out and waiting["table"]["id"] in out and "2 tables" in out
    assert admin("list-tables", "--status", "waiting", "--game", "solomon", "--db", url) == 0
    out = capsys.readouterr().out
    assert playing not in out and waiting["table"]["id"] in out and "1 table\n" in out
    assert admin("list-tables", "--since", "2999-01-01", "--db", url) == 0
    assert "0 tables" in capsys.readouterr().out


def test_on_postgresql_the_servers_are_told_of_a_removal_at_once(db_url: str) -> None:
    if not db_url.startswith("postgresql"):
        pytest.skip("SQLite serves one process, which sees a removal at its next read or write")
    with TestClient(create_app(config(db_url))) as client:
        table, tokens = seated(client)
        with client.websocket_connect(f"/ws/tables/{table}", headers=ORIGIN) as socket:
            socket.send_json({"type": "hello", "token": tokens["0"]})
            assert socket.receive_json()["type"] == "frame"
            assert admin("remove-table", table, "--db", db_url) == 0
            assert socket.receive_json()["code"] == "not_found"  # no request needed: the note said so
        assert client.app.state.tables.held(table) is None  # type: ignore[attr-defined]
        error_of(client.get(f"/api/tables/{table}"), 404, "not_found")


def test_removing_a_table_keeps_its_rematch_and_forgets_the_link(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'live.db'}"
    with TestClient(create_app(config(url))) as client:
        first, _ = seated(client)
        second, tokens = seated(client)
        engine = make_engine(url)
        moment = datetime.now(timezone.utc)
        with Session(engine) as session, session.begin():  # as a rematch would write them
            session.get(TableRow, first).rematch = second  # type: ignore[union-attr]
            session.get(TableRow, first).updated = moment  # type: ignore[union-attr]
            session.get(TableRow, second).rematch_of = first  # type: ignore[union-attr]
            session.get(TableRow, second).updated = moment  # type: ignore[union-attr]
        engine.dispose()
        assert client.get(f"/api/tables/{second}").json()["rematch_of"] == first
        assert admin("remove-table", first, "--db", url) == 0
        error_of(client.get(f"/api/tables/{first}"), 404, "not_found")
        assert client.get(f"/api/tables/{second}").json()["rematch_of"] is None
        play(client, second, tokens, 1)


def test_the_bots_of_a_removed_table_stop(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'live.db'}"
    with TestClient(create_app(config(url, bot_delay=0.1))) as client:
        created = client.post("/api/tables", headers=ORIGIN, json={
            "game": "valley", "players": 2, "seats": [{"kind": "bot", "bot": "greedy"}] * 2}).json()
        table = created["table"]["id"]
        tables = client.app.state.tables  # type: ignore[attr-defined]
        frame_of(client, table)  # held, its bots playing
        decided = []
        decide = tables.bots.action_for

        async def counted(*args: Any) -> Any:
            decided.append(args[0])
            return await decide(*args)

        tables.bots.action_for = counted
        time.sleep(0.3)
        assert decided, "the bots were playing"
        assert admin("remove-table", table, "--db", url) == 0
        time.sleep(0.5)  # a bot's move finds the table gone
        decided.clear()
        time.sleep(0.5)
        assert decided == []
        error_of(client.get(f"/api/tables/{table}"), 404, "not_found")
