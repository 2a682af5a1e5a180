"""The database: migrations upgrade an older database in place; SQLite runs with WAL and foreign keys."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import DateTime, bindparam, inspect, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from obelisk.server import store
from obelisk.server.store import (
    AccountRow,
    ChatRow,
    MoveRow,
    ResultRow,
    SeatRow,
    TableRow,
    make_engine,
    migrate,
    open_database,
)
from obelisk.server.tables import ApiError, Tables, hash_token
from tests.server.conftest import run_async


def _revision(engine) -> str:
    with engine.connect() as connection:
        return connection.execute(text("SELECT version_num FROM alembic_version")).scalar_one()


def test_a_database_at_the_first_revision_is_upgraded_with_its_tables_intact(db_url: str) -> None:
    engine = make_engine(db_url)
    migrate(engine, "0001")
    assert _revision(engine) == "0001"
    assert "turn_seconds" not in {c["name"] for c in inspect(engine).get_columns("tables")}
    moment = datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc)
    with engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO tables (id, game, players, options, status, public, seed, salt, commitment, created, updated)"
            " VALUES ('old', 'valley', 2, '{\"tiebreak\": \"shared\"}', 'playing', :public, 9223372036854775807,"
            " 'aa', 'sha256:00', :moment, :moment)"
        ), {"public": True, "moment": moment})
        connection.execute(text(
            "INSERT INTO seats (table_id, seat, kind, name, bot, token_hash, claimed) VALUES"
            " ('old', 0, 'human', 'Ann', NULL, 'ab', :yes), ('old', 1, 'bot', 'greedy', 'greedy', NULL, :yes)"
        ), {"yes": True})
        connection.execute(text(
            "INSERT INTO moves (table_id, seq, seat, action, label, time) VALUES ('old', 0, -1, 3, 'deal', :moment)"
        ), {"moment": moment})
    engine.dispose()

    engine = open_database(db_url)
    assert _revision(engine) == "0008"
    with Session(engine) as session:
        row = session.get(TableRow, "old")
        assert row is not None
        assert (row.game, row.players, row.options, row.status, row.public) == ("valley", 2, {"tiebreak": "shared"},
                                                                               "playing", True)
        assert row.seed == 2**63 - 1 and row.turn_seconds is None
        assert [(s.seat, s.kind, s.name, s.bot, s.token_hash) for s in row.seats] == [
            (0, "human", "Ann", None, "ab"), (1, "bot", "greedy", "greedy", None)]
        moves = session.query(MoveRow).all()
        assert [(m.seq, m.kind, m.seat, m.action, m.label) for m in moves] == [(0, "move", -1, 3, "deal")]
        assert session.query(ChatRow).all() == []
        assert row.rated is False and [s.account_id for s in row.seats] == [None, None]
    engine.dispose()


def test_a_waiting_table_of_revision_3_keeps_its_clock_and_its_invite_claims_once(db_url: str) -> None:
    """0004: an older table's clock counts from its last change; its unclaimed seat's link is a one-use invite."""
    engine = make_engine(db_url)
    migrate(engine, "0003")
    moment = datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc)
    with engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO tables (id, game, players, options, status, public, seed, salt, commitment, created, updated,"
            " turn_seconds) VALUES ('old', 'valley', 2, '{}', 'waiting', :public, 7, 'aa', 'sha256:00', :moment,"
            " :moment, 60)"
        ).bindparams(bindparam("moment", type_=DateTime(timezone=True))), {"public": True, "moment": moment})
        connection.execute(text(
            "INSERT INTO seats (table_id, seat, kind, name, bot, token_hash, claimed) VALUES"
            " ('old', 0, 'human', 'Ann', NULL, :ann, :yes), ('old', 1, 'human', 'Bob', NULL, :bob, :no)"
        ), {"yes": True, "no": False, "ann": hash_token("ann-token"), "bob": hash_token("bob-invite")})
    engine.dispose()

    engine = open_database(db_url)
    assert _revision(engine) == "0008"
    with Session(engine) as session:
        row = session.get(TableRow, "old")
        assert row is not None
        assert (_utc(row.turn_started), row.turn_was, row.creator) == (moment, None, None)
        assert [s.invite_hash for s in row.seats] == [None, hash_token("bob-invite")]

    async def claim_twice() -> None:
        tables = Tables(engine)
        try:
            assert (await tables.snapshot("old")).turn_started == moment
            seat, token = await tables.claim("old", "bob-invite")
            assert seat == 1 and token != "bob-invite"
            with pytest.raises(ApiError) as used:
                await tables.claim("old", "bob-invite", "Mallory")
            assert used.value.code == "invite_used"
            snap = await tables.snapshot("old")
            assert snap.seat_of(token) == 1 and snap.seat_of("ann-token") == 0 and snap.status == "playing"
            assert [s.name for s in snap.seats] == ["Ann", "Bob"]
        finally:
            await tables.close()

    run_async(claim_twice())
    engine.dispose()


def test_a_table_of_revision_5_takes_chat_lines_after_the_upgrade_and_loses_them_with_a_downgrade(db_url: str
                                                                                                   ) -> None:
    """0006: the chat lines have a table of their own beside the moves; the table they belong to is unchanged."""
    engine = make_engine(db_url)
    migrate(engine, "0005")
    assert "chat_lines" not in inspect(engine).get_table_names()
    moment = datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc)
    with engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO tables (id, game, players, options, status, public, seed, salt, commitment, created, updated)"
            " VALUES ('old', 'valley', 2, '{}', 'playing', :public, 7, 'aa', 'sha256:00', :moment, :moment)"
        ).bindparams(bindparam("moment", type_=DateTime(timezone=True))), {"public": True, "moment": moment})
    engine.dispose()

    engine = open_database(db_url)
    assert _revision(engine) == "0008"
    with Session(engine) as session, session.begin():
        session.add(ChatRow(table_id="old", channel="players", seat=0, name="Ann", text="hi", time=moment))
    with Session(engine) as session:
        (line,) = session.query(ChatRow).all()
        assert (line.table_id, line.channel, line.seat, line.name, line.text, _utc(line.time)) == (
            "old", "players", 0, "Ann", "hi", moment)
        row = session.get(TableRow, "old")
        assert row is not None and _utc(row.updated) == moment
    command.downgrade(store.alembic_config(engine), "0005")
    assert "chat_lines" not in inspect(engine).get_table_names()
    engine.dispose()


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def test_a_move_number_is_written_once(db_url: str) -> None:
    engine = open_database(db_url)
    moment = datetime.now(timezone.utc)
    with Session(engine) as session, session.begin():
        session.add(TableRow(id="t", game="valley", players=2, options={}, status="playing", public=False, seed=1,
                             salt="s", commitment="c", created=moment, updated=moment))
        session.flush()
        session.add(MoveRow(table_id="t", seq=0, seat=0, action=1, label="a", time=moment))
    with pytest.raises(IntegrityError):
        with Session(engine) as session, session.begin():
            session.add(MoveRow(table_id="t", seq=0, seat=0, action=2, label="b", time=moment))
    engine.dispose()


def test_sqlite_runs_with_wal_and_foreign_keys(sqlite_url: str) -> None:
    engine = open_database(sqlite_url)
    with engine.connect() as connection:
        assert connection.execute(text("PRAGMA journal_mode")).scalar_one() == "wal"
        assert connection.execute(text("PRAGMA foreign_keys")).scalar_one() == 1
    with pytest.raises(IntegrityError):
        with Session(engine) as session, session.begin():
            session.add(MoveRow(table_id="missing", seq=0, seat=0, action=1, label="a",
                                time=datetime.now(timezone.utc)))
    engine.dispose()


def test_the_default_database_lives_in_the_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OBELISK_DATA_DIR", str(tmp_path / "data"))
    assert store.default_url() == f"sqlite:///{tmp_path / 'data' / 'obelisk.db'}"
    assert (tmp_path / "data").is_dir()


def test_revision_7_adds_accounts_and_results_and_its_downgrade_leaves_seats_and_moves(db_url: str) -> None:
    """0007: accounts, sessions, ratings and results are tables of their own; seats and tables gain a column or
    two and keep every row, on the way up and on the way down."""
    engine = make_engine(db_url)
    migrate(engine, "0006")
    moment = datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc)
    stamp = bindparam("moment", type_=DateTime(timezone=True))
    with engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO tables (id, game, players, options, status, public, seed, salt, commitment, created, updated)"
            " VALUES ('old', 'valley', 2, '{}', 'finished', :public, 7, 'aa', 'sha256:00', :moment, :moment)"
        ).bindparams(stamp), {"public": True, "moment": moment})
        connection.execute(text(
            "INSERT INTO seats (table_id, seat, kind, name, bot, token_hash, claimed) VALUES"
            " ('old', 0, 'human', 'Ann', NULL, 'ab', :yes), ('old', 1, 'bot', 'greedy', 'greedy', NULL, :yes)"
        ), {"yes": True})
        connection.execute(text(
            "INSERT INTO moves (table_id, seq, seat, action, label, time) VALUES ('old', 0, -1, 3, 'deal', :moment)"
        ).bindparams(stamp), {"moment": moment})
    engine.dispose()

    engine = open_database(db_url)
    assert _revision(engine) == "0008"
    with Session(engine) as session, session.begin():
        session.add(AccountRow(id="acc", name="Ann", name_key="ann", password_hash="x", created=moment))
        session.flush()
        seat = session.get(SeatRow, ("old", 0))
        assert seat is not None and seat.account_id is None
        seat.account_id = "acc"
        session.add(ResultRow(table_id="old", seat=0, account_id="acc", game="valley", players=2, place=1,
                              rated=False, finished=moment))
    with Session(engine) as session, pytest.raises(IntegrityError):
        session.add(AccountRow(id="acc2", name="ANN", name_key="ann", password_hash="y", created=moment))
        session.commit()
    command.downgrade(store.alembic_config(engine), "0006")
    names = set(inspect(engine).get_table_names())
    assert not names & {"accounts", "account_sessions", "ratings", "account_results"}
    assert "account_id" not in {c["name"] for c in inspect(engine).get_columns("seats")}
    with engine.connect() as connection:
        assert connection.execute(text("SELECT COUNT(*) FROM seats")).scalar_one() == 2
        assert connection.execute(text("SELECT COUNT(*) FROM moves")).scalar_one() == 1
    engine.dispose()
