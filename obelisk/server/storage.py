"""Storage: the tables as the database keeps them, read back as snapshots (blocking calls, run in a thread).

A table's row holds its header (game, options, seed commitment, status, ``updated``), its seats
and its append-only moves. :meth:`Storage.load` replays only the moves a cached snapshot lacks, so a
process catching up with another's write reads a few rows, never the whole game. Creating a table
draws its secret seed and its opening chance outcomes in one transaction; the lobby's list, the
expiry of tables left waiting and the tables to resume after a start are queries here too. Changes
of an existing table go through the committer (``committer.py``), never through here.
"""

from __future__ import annotations

import secrets
from collections import Counter
from dataclasses import replace
from datetime import timedelta
from typing import Any, Sequence, cast

from sqlalchemy import Engine, Table, bindparam, exists, func, select, update
from sqlalchemy.orm import Session

import obelisk
from obelisk.core import Game
from obelisk.core.seeds import SecretSeed
from obelisk.server import store
from obelisk.server.events import Event, apply_events, settle
from obelisk.server.notes import Note, notify
from obelisk.server.store import MOVE, MoveRow, SeatRow, TableRow, aware
from obelisk.server.table import ApiError, LogEntry, Seat, Snapshot

LIST_LENGTH = 100
"""The most tables a list of public tables holds."""
LIST_CANDIDATES = 1000
"""How many of the most recently changed tables a list is chosen from (see :meth:`Storage.public_ids`)."""

_TABLES = cast(Table, TableRow.__table__)
_SEATS = cast(Table, SeatRow.__table__)
_MOVES = cast(Table, MoveRow.__table__)
_TABLE_ROW = select(_TABLES).where(_TABLES.c.id == bindparam("table"))
_SEAT_ROWS = select(_SEATS).where(_SEATS.c.table_id == bindparam("table")).order_by(_SEATS.c.seat)
_MOVES_FROM = (select(_MOVES.c.seq, _MOVES.c.kind, _MOVES.c.seat, _MOVES.c.action)
               .where(_MOVES.c.table_id == bindparam("table"), _MOVES.c.seq >= bindparam("start"))
               .order_by(_MOVES.c.seq))


def _fair(rows: Sequence[Any]) -> list[str]:
    """The ids of ``rows`` (id, creator; newest first) dealt in rounds: each creator's first, then seconds, ..."""
    seen: Counter[str] = Counter()
    ranked = []
    for order, (table_id, creator) in enumerate(rows):
        key = creator if creator is not None else f"table:{table_id}"
        ranked.append((seen[key], order, table_id))
        seen[key] += 1
    return [table_id for _, _, table_id in sorted(ranked)]


class Storage:
    """The database's tables, seats and moves, read and created (each call blocks: run it in a thread)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def load(self, table_id: str, cached: Snapshot | None) -> Snapshot:
        """The table as the database has it, replaying only the moves ``cached`` lacks.

        Every write moves the table's ``updated`` time forward, so an unchanged time means ``cached``
        is current and is returned as it is.
        """
        if not isinstance(table_id, str) or not 0 < len(table_id) <= 32:
            raise ApiError(404, "not_found", "no such table")
        with self.engine.connect() as connection:
            row = connection.execute(_TABLE_ROW, {"table": table_id}).one_or_none()
            if row is None:
                raise ApiError(404, "not_found", f"no table {table_id!r}")
            updated = aware(row.updated)
            if cached is not None and updated == cached.updated:
                return cached
            seats = tuple(Seat(s.seat, s.kind, s.name, s.bot, s.token_hash, s.claimed, s.invite_hash, s.account_id)
                          for s in connection.execute(_SEAT_ROWS, {"table": table_id}))
            start = cached.version if cached is not None else 0
            moves = connection.execute(_MOVES_FROM, {"table": table_id, "start": start}).all()
        if cached is None:
            game = obelisk.load(row.game, row.players, **row.options)
            state = game.new_initial_state(row.seed)
            entries: list[LogEntry] = []
            cuts: list[tuple[int, int]] = []
            base: dict[str, Any] = dict(
                id=row.id, game=game, options=game.options, public=row.public, seed=row.seed, salt=row.salt,
                commitment=row.commitment, created=aware(row.created), turn_seconds=row.turn_seconds,
                rated=bool(row.rated),
            )
        else:
            state = cached.state.clone() if moves else cached.state
            entries = list(cached.log)
            cuts = list(cached.cuts)
            base = {}
        if [move.seq for move in moves] != list(range(start, start + len(moves))):
            raise RuntimeError(f"table {table_id}: moves {[m.seq for m in moves]} do not follow move {start - 1}")
        state = apply_events(state, entries, cuts, [(m.seq, m.kind, m.seat, m.action) for m in moves])
        fields: dict[str, Any] = dict(status=row.status, updated=updated, rematch=row.rematch,
                                      rematch_of=row.rematch_of, seats=seats,
                                      state=state, log=tuple(entries), version=start + len(moves), cuts=tuple(cuts),
                                      turn_started=aware(row.turn_started),
                                      turn_was=aware(row.turn_was) if row.turn_was is not None else None)
        return replace(cached, **fields) if cached is not None else Snapshot(**base, **fields)

    def insert(self, game: Game, seats: Sequence[Seat], public: bool, turn_seconds: int | None,
               rematch_of: str | None, creator: str | None = None, waiting_limit: int | None = None,
               rated: bool = False) -> str:
        """A new table of ``game`` with a fresh secret seed and its opening chance outcomes; its id.

        ``rematch_of``: the finished table it follows, which then names it (refused as ``stale_version``
        if another request named one first). ``creator`` may have at most ``waiting_limit`` tables waiting.
        ``rated``: its finish moves the ratings of the accounts seated at it.
        """
        secret = SecretSeed.new()
        table_id = secrets.token_urlsafe(9)
        moment = store.now()
        state = game.new_initial_state(secret.seed)
        moves: list[Event] = []
        settle(state, moves, [], 0)
        status = "playing" if all(s.claimed for s in seats) else "waiting"
        with Session(self.engine) as session, session.begin():
            if creator is not None and waiting_limit is not None and status == "waiting":
                waiting = session.scalar(select(func.count()).select_from(TableRow)
                                         .where(TableRow.creator == creator, TableRow.status == "waiting"))
                if waiting is not None and waiting >= waiting_limit:
                    raise ApiError(429, "too_many_tables",
                                   f"this address already has {waiting} tables waiting for players (at most "
                                   f"{waiting_limit}); start one, or wait until one expires")
            session.add(TableRow(
                id=table_id, game=game.id, players=game.num_players, options=dict(game.options), status=status,
                public=public, seed=secret.seed, salt=secret.salt, commitment=secret.commitment, created=moment,
                updated=moment, rematch_of=rematch_of, rematch=None, turn_seconds=turn_seconds, turn_started=moment,
                creator=creator, rated=rated,
            ))
            session.flush()
            for s in seats:
                session.add(SeatRow(table_id=table_id, seat=s.seat, kind=s.kind, name=s.name, bot=s.bot,
                                    token_hash=s.token_hash, claimed=s.claimed, invite_hash=s.invite_hash))
            for seq, (seat, action, label) in enumerate(moves):
                session.add(MoveRow(table_id=table_id, seq=seq, kind=MOVE, seat=seat, action=action, label=label,
                                    time=moment))
            if rematch_of is not None:
                done: Any = session.execute(update(TableRow)
                                            .where(TableRow.id == rematch_of, TableRow.rematch.is_(None))
                                            .values(rematch=table_id, updated=moment))
                if done.rowcount != 1:
                    raise ApiError(409, "stale_version", "a rematch of this table was just created; try again")
                notify(session, Note(rematch_of, moment))
        return table_id

    def public_ids(self, status: str | None) -> list[str]:
        """The ids of at most ``LIST_LENGTH`` public tables (expired ones never), only those with ``status``
        if it is given.

        Each creator's newest table comes before anyone's second, every second before any third, and so on
        (newest first within each round), so that one address creating many tables cannot push everyone
        else's out of the list. The rounds are dealt from the ``LIST_CANDIDATES`` most recently changed.
        """
        with Session(self.engine) as session:
            query = select(TableRow.id, TableRow.creator).where(TableRow.public.is_(True))
            query = query.where(TableRow.status == status) if status is not None else query.where(
                TableRow.status != "expired")
            rows = session.execute(query.order_by(TableRow.updated.desc()).limit(LIST_CANDIDATES)).all()
        return _fair(rows)[:LIST_LENGTH]

    def expire_waiting(self, idle: timedelta) -> tuple[str, ...]:
        """Close the tables that have been waiting for players ``idle`` since their last change; their ids.

        The one statement picks each table once, so every process may run it at any time.
        """
        moment = store.now()
        with self.engine.begin() as connection:
            done = connection.execute(
                update(_TABLES).where(_TABLES.c.status == "waiting", _TABLES.c.updated < moment - idle)
                .values(status="expired", updated=moment).returning(_TABLES.c.id))
            ids = tuple(done.scalars())
            for table_id in ids:
                notify(connection, Note(table_id, moment))
        return ids

    def resumable_ids(self, limit: int) -> list[str]:
        """The ``limit`` most recently active tables in play that have a person's seat."""
        with Session(self.engine) as session:
            person = exists().where(SeatRow.table_id == TableRow.id, SeatRow.token_hash.is_not(None))
            query = select(TableRow.id).where(TableRow.status == "playing", person)
            return list(session.scalars(query.order_by(TableRow.updated.desc()).limit(limit)))
