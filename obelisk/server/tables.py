"""Live tables: each one a record being written, replayed from the database and cached in memory.

Every change (a move, a claim, a seat handed to a bot) runs under the table's
lock, is committed to the database first and only then published: a new
immutable :class:`Snapshot` replaces the old one, the connected clients are
told, and a bot seat to act starts deciding. Chance outcomes are drawn with
``state.sample_chance()`` (from the secret seed and the move number) and stored
like any other move, so the table is reproducible from seed + moves and a
restart rebuilds exactly the same state.

Only views leave this module: :func:`frame` and :func:`summary` build what a
seat may see from ``observation(seat)``, its legal actions (when it is to act)
and ``public_action_string``.
"""

from __future__ import annotations

import asyncio
import bisect
import functools
import hashlib
import hmac
import logging
import queue
import secrets
import threading
import time
from collections import Counter, OrderedDict
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence, cast

import anyio
from sqlalchemy import Connection, Engine, Table, bindparam, exists, func, insert, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

import obelisk
from obelisk.core import CHANCE, Game, IllegalActionError, Option, State, codec, game_class
from obelisk.core import i18n
from obelisk.core.records import make_record
from obelisk.core.seeds import SecretSeed
from obelisk.core import previews
from obelisk.core.shortcuts import offered
from obelisk.server.bots import TAKEOVER_SECONDS, BotScheduler, Cancelled, Decision, Elector, table_bot
from obelisk.server.store import MOVE, UNDO, MoveRow, SeatRow, TableRow, now

log = logging.getLogger("obelisk.server")

NOTIFY_CHANNEL = "obelisk_tables"
NAME_LENGTH = 40
WRITE_ATTEMPTS = 3


_TABLES = cast(Table, TableRow.__table__)
_BUMP = (update(_TABLES).where(_TABLES.c.id == bindparam("table"), _TABLES.c.updated == bindparam("was"))
         .values(updated=bindparam("moment"), turn_started=bindparam("clock"), turn_was=bindparam("clock_was")))
"""Every write's first statement: move the table's ``updated`` on (and set its turn clock), only if it is still
the version written on."""
_NOTIFY = text("SELECT pg_notify(:channel, :note)")
_SEATS = cast(Table, SeatRow.__table__)
_MOVES = cast(Table, MoveRow.__table__)
_TABLE_ROW = select(_TABLES).where(_TABLES.c.id == bindparam("table"))
_SEAT_ROWS = select(_SEATS).where(_SEATS.c.table_id == bindparam("table")).order_by(_SEATS.c.seat)
_MOVES_FROM = (select(_MOVES.c.seq, _MOVES.c.kind, _MOVES.c.seat, _MOVES.c.action)
               .where(_MOVES.c.table_id == bindparam("table"), _MOVES.c.seq >= bindparam("start"))
               .order_by(_MOVES.c.seq))
_INSERT_MOVES = insert(_MOVES)


BATCH_LIMIT = 100
"""The most actions one request may play: a batch is one seat's decisions in a row (a shortcut is a few)."""
LIST_LENGTH = 100
"""The most tables a list of public tables holds."""
LIST_CANDIDATES = 1000
"""How many of the most recently changed tables a list is chosen from (see :meth:`Tables.list`)."""


def _fair(rows: Sequence[Any]) -> list[str]:
    """The ids of ``rows`` (id, creator; newest first) dealt in rounds: each creator's first, then seconds, ..."""
    seen: Counter[str] = Counter()
    ranked = []
    for order, (table_id, creator) in enumerate(rows):
        key = creator if creator is not None else f"table:{table_id}"
        ranked.append((seen[key], order, table_id))
        seen[key] += 1
    return [table_id for _, _, table_id in sorted(ranked)]


NOTE_LIMIT = 7000
"""PostgreSQL refuses notifications of 8000 bytes or more: a longer one names the table only."""


@dataclass(frozen=True)
class _Note:
    """A notification that a table changed: its new ``updated`` time and, for moves, what they were.

    Written as ``ID UPDATED`` or, for a write that only appended moves, ``ID UPDATED WAS SEQ A,B,...``
    (the ``updated`` time it was based on, the first move's seq and the actions), so a process holding
    that very version catches up by applying them, without reading the database.
    """

    table_id: str
    updated: datetime
    was: datetime | None = None
    seq: int = 0
    actions: tuple[int, ...] = ()

    def text(self) -> str:
        head = f"{self.table_id} {self.updated.isoformat()}"
        if self.was is None:
            return head
        full = f"{head} {self.was.isoformat()} {self.seq} {','.join(map(str, self.actions))}"
        return full if len(full) < NOTE_LIMIT else head

    @classmethod
    def parse(cls, text: str) -> _Note | None:
        """The note ``text`` says; None for one that is not a note of this version of the server."""
        parts = text.split(" ")
        try:
            updated = datetime.fromisoformat(parts[1])
            if updated.tzinfo is None:
                return None
            if len(parts) == 2:
                return cls(parts[0], updated)
            was = datetime.fromisoformat(parts[2])
            return cls(parts[0], updated, was if was.tzinfo else None, int(parts[3]),
                       tuple(int(a) for a in parts[4].split(",")))
        except (IndexError, ValueError):
            return None


class _Stale(Exception):
    """Another process changed the table since the snapshot a write was based on."""


class ApiError(Exception):
    """A refused request: an HTTP status, a stable code and one clear message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Seat:
    """A seat as the database keeps it (``SeatRow``): until a person claims it, ``token_hash`` is its invite's."""

    seat: int
    kind: str
    name: str
    bot: str | None
    token_hash: str | None
    claimed: bool
    invite_hash: str | None = None
    """The invite's hash, kept after the claim so that a second use of the invite is refused by name."""

    @property
    def human(self) -> bool:
        """A person's seat (it has a token), even while a bot plays it."""
        return self.token_hash is not None

    def opens(self, token_hash: str) -> bool:
        """Whether ``token_hash`` is this seat's own token: a claimed seat's (an invite opens nothing but its claim)."""
        return self.claimed and _same(self.token_hash, token_hash)

    def invites(self, token_hash: str) -> bool:
        """Whether ``token_hash`` is the invite of this seat, still waiting for its player."""
        return not self.claimed and _same(self.token_hash, token_hash)

    def used_invite(self, token_hash: str) -> bool:
        """Whether ``token_hash`` is the invite this seat was claimed with (it opens nothing any more)."""
        return self.claimed and _same(self.invite_hash, token_hash)


def _same(stored: str | None, token_hash: str) -> bool:
    return stored is not None and hmac.compare_digest(stored, token_hash)


@dataclass(frozen=True)
class LogEntry:
    seq: int
    """The table's event number of the move (not its place in the log: taken-back moves leave gaps)."""
    actor: int
    texts: Mapping[str, tuple[str, ...]]
    """What each viewer learns, in each language: seats 0..n-1, then the spectator."""
    reveals: bool = True
    """Whether the move showed anyone something hidden (chance outcomes do): such a move is never taken back."""


@dataclass(frozen=True)
class Snapshot:
    """One published version of a table; never mutated (its state is a private copy)."""

    id: str
    game: Game
    options: Mapping[str, Any]
    public: bool
    seed: int
    salt: str
    commitment: str
    created: datetime
    rematch_of: str | None
    turn_seconds: int | None
    status: str
    updated: datetime
    turn_started: datetime
    """When the seat to act became the one to act: the turn clock counts from here (see :func:`_clocked`)."""
    turn_was: datetime | None
    """The clock of the seat whose undoable decision last passed the turn on, given back if it takes it back."""
    rematch: str | None
    seats: tuple[Seat, ...]
    state: State
    log: tuple[LogEntry, ...]
    """The moves in play, one entry each: taken-back moves are not in it."""
    version: int
    """Events so far (moves, chance outcomes and undos): it only grows, so a stale request is always seen."""
    cuts: tuple[tuple[int, int], ...] = ()
    """Each undo's event number and the first log seq it took away: what a client holding an older version drops."""

    def undo_points(self, seat: int) -> int:
        """How many of ``seat``'s latest decisions it may take back now: ``State.undo_points`` read off the log.

        The core's rule counts the seat's decisions at the end of the history up to a chance outcome,
        another seat's decision or a decision that revealed something; each log entry keeps its actor and
        whether it revealed, so a frame (the hot path) counts them without the core's replay of the game.
        The tests hold the two to the same answer; an undo itself goes through the core.
        """
        if self.status != "playing" or self.seats[seat].kind != "human":
            return 0
        count = 0
        for entry in reversed(self.log):
            if entry.actor != seat or entry.reveals:
                break
            count += 1
        return count

    @functools.cached_property
    def finals(self) -> dict[int, bool]:
        """``State.is_final`` of each legal action of the seat to act (none at chance or the end).

        Worked out once per version, however many frames in however many languages are built from it:
        the marks depend on the position alone, and each one looks a step ahead on a copy.
        """
        state = self.state
        if state.current_player() < 0:
            return {}
        return {action: state.is_final(action) for action in state.legal_actions()}

    def log_start(self, sent: int) -> int:
        """The first log seq a client that was sent version ``sent`` must be sent again: ``sent``, or lower
        when an undo since took entries away (the client drops its entries from there on)."""
        start = sent
        for at, cut in reversed(self.cuts):
            if at < sent:
                break
            start = min(start, cut)
        return start

    @property
    def to_act(self) -> int | None:
        player = self.state.current_player()
        return player if self.status == "playing" and player >= 0 else None

    def timed_out(self, seat: int, at: datetime | None = None) -> bool:
        """Whether ``seat`` is a person to act whose turn clock has run out."""
        if self.turn_seconds is None or self.to_act != seat or self.seats[seat].kind != "human":
            return False
        return (at or now()) - self.turn_started > timedelta(seconds=self.turn_seconds)

    def seat_of(self, token: str | None) -> int | None:
        """The seat ``token`` opens, ``None`` without a token; any other token is refused, saying why.

        Only a claimed seat's own token opens it: an invite opens nothing but its claim (until then the
        seat's hand is nobody's to see), and once used it opens nothing at all.
        """
        if token is None:
            return None
        wanted = hash_token(token)
        for seat in self.seats:
            if seat.opens(wanted):
                return seat.seat
        for seat in self.seats:
            if seat.invites(wanted):
                raise ApiError(403, "not_claimed", f"this is the invite of seat {seat.seat}: claim the seat with it "
                                                   "first, and use the token the claim answers")
            if seat.used_invite(wanted):
                raise ApiError(403, "invite_used", f"this invite was already used: seat {seat.seat} is taken, and "
                                                   "only the token its claim answered opens it")
        raise ApiError(403, "bad_token", "this token opens no seat at this table")


def _aware(moment: datetime) -> datetime:
    """SQLite returns naive datetimes; every time stored is UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def _stamp(moment: datetime) -> str:
    return _aware(moment).isoformat(timespec="seconds")


BOARDS = Path(__file__).resolve().parent.parent / "games"


@functools.cache
def board_script(game: str) -> str | None:
    """Where the browser loads a game's board (``obelisk/games/<id>/web/board.js``), or ``None``: the text view."""
    return f"/games/{game}/board.js" if (BOARDS / game / "web" / "board.js").is_file() else None


def summary(snap: Snapshot, connected: Iterable[int] = ()) -> dict[str, Any]:
    """The public description of a table: no tokens, no seed; the game's name in the active language."""
    online = set(connected)
    return {
        "id": snap.id,
        "game": snap.game.id,
        "game_name": i18n.domain(snap.game.id).term("game", snap.game.info.name),
        "board": board_script(snap.game.id),
        "players": snap.game.num_players,
        "options": dict(snap.options),
        "seats": [
            {
                "seat": s.seat,
                "kind": s.kind,
                "name": s.name,
                "bot": s.bot,
                "claimed": s.claimed,
                "connected": s.seat in online,
                "human": s.human,
                "timed_out": snap.timed_out(s.seat),
            }
            for s in snap.seats
        ],
        "status": snap.status,
        "version": snap.version,
        "to_act": snap.to_act,
        "commitment": snap.commitment,
        "public": snap.public,
        "created": _stamp(snap.created),
        "updated": _stamp(snap.updated),
        "turn_seconds": snap.turn_seconds,
        "turn_started": _stamp(snap.turn_started),
        "rematch": snap.rematch,
        "rematch_of": snap.rematch_of,
    }


def _log_view(entries: Sequence[LogEntry], viewer: int, lang: str) -> list[dict[str, Any]]:
    return [{"seq": e.seq, "actor": e.actor, "text": e.texts[lang][viewer]} for e in entries]


def result(game: Game, state: State) -> dict[str, Any]:
    """The final returns and scores, with a readable heading for every scoring category (``Game.score_heading``)
    and the outcome in words (``State.outcome``: winners, places, reasons)."""
    scores = state.scores()
    keys = dict.fromkeys(key for score in scores for key in score.get("breakdown", {}))
    return {"returns": state.returns(), "scores": scores, "headings": {key: game.score_heading(key) for key in keys},
            "outcome": state.outcome()}


def decision(game: Game, view: Mapping[str, Any], to_act: int | None) -> dict[str, Any] | None:
    """Who is to decide and what, in words (``Game.render_decision``); None while nobody is to act."""
    return None if to_act is None else {"seat": to_act, "text": game.render_decision(view)}


def frame(snap: Snapshot, seat: int | None, connected: Iterable[int] = (), sent: int = 0,
          lang: str | None = None) -> dict[str, Any]:
    """Everything ``seat`` (``None``: a spectator) may see of the table now, worded in ``lang`` (by default
    the active language).

    ``sent`` is the version this client was last sent (0: none): ``log`` holds the entries from seq
    ``log_from`` on, which the client puts in place of its own from there, so a websocket sends each
    entry once and an undo takes the moves it undid off every client's log.
    """
    lang = lang or i18n.current_language()
    with i18n.language(lang):
        return _frame(snap, seat, connected, sent, lang)


def _frame(snap: Snapshot, seat: int | None, connected: Iterable[int], sent: int, lang: str) -> dict[str, Any]:
    state = snap.state
    view = state.observation(seat)
    viewer = snap.game.num_players if seat is None else seat
    legal: list[list[Any]] = []
    shortcuts: list[dict[str, Any]] = []
    shown: list[dict[str, Any]] = []
    if seat is not None and snap.to_act == seat and snap.seats[seat].kind == "human":
        finals = snap.finals
        legal = [[a, state.action_to_string(a), *snap.game.action_range(a), finals[a]] for a in state.legal_actions()]
        shortcuts = [shortcut.to_dict() for shortcut in offered(state, seat)]
        shown = [preview.to_dict() for preview in previews.offered(state, seat)]
    finished = snap.status == "finished"
    log_from = snap.log_start(sent)
    return {
        "table": summary(snap, connected),
        "seat": seat,
        "version": snap.version,
        "view": view,
        "text": snap.game.render_observation(view),
        "legal": legal,
        "shortcuts": shortcuts,
        "previews": shown,
        "decision": decision(snap.game, view, snap.to_act),
        "progress": snap.game.render_progress(view),
        "undo": 0 if seat is None else snap.undo_points(seat),
        "log": _log_view(snap.log[bisect.bisect_left(snap.log, log_from, key=lambda e: e.seq):], viewer, lang),
        "log_from": log_from,
        "status": snap.status,
        "result": result(snap.game, state) if finished else None,
        "reveal": {"seed": snap.seed, "salt": snap.salt} if finished else None,
    }


def turn_starts(log: Sequence[LogEntry]) -> list[int]:
    """The steps at which a seat begins a turn: its decision follows another seat's (chance outcomes between
    them count for neither)."""
    starts, last = [], None
    for step, entry in enumerate(log):
        if entry.actor != CHANCE and entry.actor != last:
            starts.append(step)
            last = entry.actor
    return starts


def replay_frame(snap: Snapshot, seat: int | None, step: int | None, lang: str | None = None) -> dict[str, Any]:
    """A finished table after its first ``step`` moves (None: all of them) as ``seat`` saw it then, worded in
    ``lang`` (by default the active language).

    Once the game is over its whole record is public, so any seat's view may be asked for. The answer is
    shaped like a frame (``version`` is the step, ``legal`` is empty, the log's ``seq`` counts steps) so the
    page draws it the same way; ``turns`` lists :func:`turn_starts`.
    """
    if snap.status != "finished":
        raise ApiError(409, "not_finished", "a table is replayed once its game is finished")
    history = snap.state.history()
    step = len(history) if step is None else step
    if not 0 <= step <= len(history):
        raise ApiError(400, "bad_request", f"step must be 0 to {len(history)}")
    if seat is not None and not 0 <= seat < snap.game.num_players:
        raise ApiError(400, "bad_request", f"seat must be 0 to {snap.game.num_players - 1} or 'spectator'")
    lang = lang or i18n.current_language()
    with i18n.language(lang):
        return _replay_frame(snap, seat, step, len(history), snap.game.replay(snap.seed, history[:step]), lang)


def _replay_frame(snap: Snapshot, seat: int | None, step: int, steps: int, state: State, lang: str) -> dict[str, Any]:
    view = state.observation(seat)
    viewer = snap.game.num_players if seat is None else seat
    acting = state.current_player()
    return {
        "table": summary(snap),
        "seat": seat,
        "version": step,
        "step": step,
        "steps": steps,
        "turns": turn_starts(snap.log),
        "to_act": acting if acting >= 0 else None,
        "view": view,
        "text": snap.game.render_observation(view),
        "legal": [],
        "shortcuts": [],
        "previews": [],
        "decision": decision(snap.game, view, acting if acting >= 0 else None),
        "progress": snap.game.render_progress(view),
        "undo": 0,
        "log": [{"seq": i, "actor": e.actor, "text": e.texts[lang][viewer]} for i, e in enumerate(snap.log[:step])],
        "log_from": 0,
        "status": snap.status,
        "result": result(snap.game, snap.state),
        "reveal": {"seed": snap.seed, "salt": snap.salt},
    }


def record(snap: Snapshot) -> dict[str, Any]:
    """The standard game record of a finished table, with the commitment and salt that prove its seed."""
    if snap.status != "finished":
        raise ApiError(409, "not_finished", "the record is published when the game is finished")
    players = [{"name": s.name or f"player {s.seat + 1}", "kind": s.kind if s.kind == "human" else str(s.bot)}
               for s in snap.seats]
    doc = make_record(snap.state, players)
    doc["seed_commitment"] = snap.commitment
    doc["seed_salt"] = snap.salt
    doc["table"] = snap.id
    return doc


def _log_entry(state: State, seq: int, action: int) -> LogEntry:
    """The entry of ``action`` about to be applied to ``state``, as each viewer sees it in each language.

    Every language is worded now, while the state before the action is at hand: wording one later, when a
    reader of that language connects, would need the table replayed to that step. A language whose
    texts come out as the English ones shares the English tuple.
    """
    viewers: list[int | None] = [*range(state.num_players), None]
    actor = state.current_player()
    texts: dict[str, tuple[str, ...]] = {}
    for lang in i18n.LANGUAGES:
        with i18n.language(lang):
            worded = tuple(state.public_action_string(action, v) for v in viewers)
        english = texts.get(i18n.DEFAULT_LANGUAGE)
        texts[lang] = english if english == worded else worded
    return LogEntry(seq, actor, texts, actor == CHANCE or state._reveals(action))


def _take_back(state: State, log: list[LogEntry], seat: int, steps: int) -> tuple[State, int]:
    """``state`` without ``seat``'s last ``steps`` decisions (the core checks it may), and the first log seq removed."""
    state = state.undo(seat, steps)
    cut = log[-steps].seq
    del log[-steps:]
    return state, cut


def _replay(state: State, log: list[LogEntry], cuts: list[tuple[int, int]],
            events: Iterable[tuple[int, str, int, int]]) -> State:
    """``state`` after the table's next ``events`` (seq, kind, seat, action), logging each move and each undo's cut.

    A move is applied to ``state`` itself; an undo replaces it (the core rebuilds the game without the moves).
    """
    for seq, kind, seat, action in events:
        if kind == UNDO:
            state, cut = _take_back(state, log, seat, action)
            cuts.append((seq, cut))
        else:
            log.append(_log_entry(state, seq, action))
            state.apply_action(action)
    return state


def _extended(snap: Snapshot, actions: Sequence[int], updated: datetime) -> Snapshot:
    """``snap`` after the moves ``actions`` another process wrote at ``updated`` (seats unchanged)."""
    log = list(snap.log)
    events = [(snap.version + offset, MOVE, 0, action) for offset, action in enumerate(actions)]
    state = _replay(snap.state.clone(), log, [], events)
    status = "finished" if state.is_terminal() else snap.status
    return _clocked(snap, replace(snap, state=state, log=tuple(log), version=snap.version + len(actions),
                                  status=status, updated=updated), MOVE)


def _clocked(before: Snapshot, after: Snapshot, kind: str) -> Snapshot:
    """``after`` (a change of ``before`` made at ``after.updated``, by an event of ``kind``) with its turn clock.

    The clock restarts when the seat to act changes (a decision passing the turn on, the game starting)
    and with any move that cannot be taken back (it led to a chance outcome or revealed something): both
    are progress no seat can undo. Nothing else restarts it: not a claim or a rename, not a seat handed to a
    bot and taken back, not a decision of the seat's own turn that it could still take back. An undo that
    gives the turn back to the seat taking its decision back gives it back its clock too (``turn_was``),
    so moving and taking the move back again and again never buys time. Every process computes the
    same clock from the same change, so moves announced by a notification need no read.
    """
    started, was = before.turn_started, before.turn_was
    if kind == UNDO:
        if after.to_act != before.to_act and was is not None:
            started, was = was, None
    elif any(entry.reveals for entry in after.log[len(before.log):]):
        started, was = after.updated, None
    elif after.to_act != before.to_act:
        started, was = after.updated, before.turn_started
    return replace(after, turn_started=started, turn_was=was)


def check_bot_spec(spec: Any, game: Game, attended: bool = True) -> str:
    """``spec`` if the server may seat that bot in ``game``, else ``ApiError`` saying why.

    ``attended``: the table has a person's seat (a table without one gets only the smallest budgets).
    """
    if not isinstance(spec, str) or not spec.strip() or len(spec) > 128:
        raise ApiError(400, "bad_request", "a bot seat needs a bot spec such as 'greedy' or 'ismcts:1s'")
    try:
        return table_bot(spec.strip(), game, attended)
    except ValueError as error:
        raise ApiError(400, "bad_request", str(error)) from None


def bot_turn(snap: Snapshot) -> tuple[int, int, str] | None:
    """The (version, seat, spec) of the bot decision ``snap`` waits for, or None when no bot is to act."""
    seat = snap.to_act
    if seat is None or snap.seats[seat].kind != "bot":
        return None
    spec = snap.seats[seat].bot
    assert spec is not None
    return snap.version, seat, spec


def file_option(option: Option) -> bool:
    """An option naming a file on the server's disk (a corrected data file): never set by a client."""
    return option.allowed is None and isinstance(option.default, str)


def check_options(game_id: str, options: Mapping[str, Any]) -> dict[str, Any]:
    info = game_class(game_id).info
    for option in info.options:
        if file_option(option) and option.name in options:
            raise ApiError(400, "bad_request", f"option {option.name!r} names a file on the server and cannot be set")
    return dict(options)


def _check_open(snap: Snapshot) -> None:
    """Refuse taking a seat at a table that waited too long for its players."""
    if snap.status == "expired":
        raise ApiError(409, "expired", "this table expired: its seats waited too long for their players")


def _check_not_over(snap: Snapshot) -> None:
    """Refuse changing how a table is played once it is finished (or expired before it began)."""
    if snap.status == "finished":
        raise ApiError(409, "finished", "the game is over")
    _check_open(snap)


UNNAMED = ""
"""The name of a person's seat nobody named: every page calls it "Player N" in its reader's language."""


def check_name(name: Any) -> str:
    if not isinstance(name, str):
        raise ApiError(400, "bad_request", "a name must be a string")
    cleaned = " ".join(name.split())
    if not 1 <= len(cleaned) <= NAME_LENGTH or not cleaned.isprintable():
        raise ApiError(400, "bad_request", f"a name must be 1 to {NAME_LENGTH} printable characters")
    return cleaned


@dataclass
class _Pending:
    """A write waiting for the next group commit, and the future of the coroutine waiting for it."""

    write: Callable[[Connection], None]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[None]
    error: BaseException | None = None


def _finish(group: list[_Pending]) -> None:
    """Tell the waiting coroutines how their writes ended (on their event loop)."""
    for pending in group:
        if pending.future.done():
            continue  # its loop is stopping
        if pending.error is None:
            pending.future.set_result(None)
        else:
            pending.future.set_exception(pending.error)


class _Committer:
    """One database thread through which every write goes: the writes waiting when it is free share a commit.

    A commit costs one flush to disk however many writes it holds, so under load many moves become
    durable for the price of one; each write still returns only once its commit is done. A write that
    raises ``_Stale`` has written nothing (its first statement refused) and is left out; any other
    failure rolls the whole group back, and the others are told to try again on a fresh read. The
    waiters are coroutines: the event loop hands a write over and is woken once per group.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._queue: queue.SimpleQueue[_Pending | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start = threading.Lock()

    def submit(self, write: Callable[[Connection], None]) -> asyncio.Future[None]:
        """Queue ``write``; the future is done once its transaction is committed (or fails with why not)."""
        with self._start:
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="obelisk-commit", daemon=True)
                self._thread.start()
        loop = asyncio.get_running_loop()
        pending = _Pending(write, loop, loop.create_future())
        self._queue.put(pending)
        return pending.future

    def close(self) -> None:
        with self._start:
            if self._thread is not None:
                self._queue.put(None)
                self._thread.join()
                self._thread = None

    def _loop(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            group = [first]
            while True:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._queue.put(None)
                    break
                group.append(more)
            self._commit(group)

    def _commit(self, group: list[_Pending]) -> None:
        try:
            with self.engine.begin() as connection:
                for pending in group:
                    try:
                        pending.write(connection)
                    except _Stale as stale:
                        pending.error = stale
                    except BaseException as error:
                        pending.error = error
                        raise
        except BaseException as error:
            for pending in group:
                if pending.error is None:
                    pending.error = _Stale() if len(group) > 1 else error
        finally:
            for loop in {pending.loop for pending in group}:
                try:
                    loop.call_soon_threadsafe(_finish, [p for p in group if p.loop is loop])
                except RuntimeError:
                    pass  # that loop is closed: nobody waits any more


@dataclass(frozen=True)
class _Change:
    """A table's next snapshot and the write that records it; published once the write is committed."""

    snap: Snapshot
    write: Callable[[Connection], None]


@dataclass
class Live:
    """A table's place in memory: its current snapshot, its lock and its clients."""

    snap: Snapshot
    lock: asyncio.Lock
    clients: set[Any]
    bots: asyncio.Task[None] | None = None
    seated: Counter[int] = field(default_factory=Counter)
    """How many of the clients hold each seat: the seats a summary calls ``connected``."""


class Tables:
    """The tables of one server process, over a database shared with any other processes."""

    def __init__(self, engine: Engine, *, bots: BotScheduler | None = None, bot_delay: float = 0.0,
                 cache_size: int = 256) -> None:
        """``bots`` decides the bot seats' moves (by default in one thread of this process); it is this
        object's to close."""
        self.engine = engine
        self.bots = bots or BotScheduler()
        self.elector = Elector.for_url(engine.url.render_as_string(hide_password=False))
        """Which process decides a table's bots, when several share the database."""
        self._look_again: dict[str, asyncio.TimerHandle] = {}
        self.bot_delay = bot_delay
        self.cache_size = cache_size
        self._live: OrderedDict[str, Live] = OrderedDict()
        self._postgres = engine.dialect.name == "postgresql"
        self._committer = _Committer(engine)
        self._stale: set[str] = set()
        """Tables another process (or a rematch) changed since this one last read them."""
        self._notes: dict[str, list[_Note]] = {}
        """Notifications of each table this process has yet to catch up with, in commit order."""
        self._catching_up: dict[str, asyncio.Task[None]] = {}
        self._closing = False

    # ---- loading -------------------------------------------------------------------------

    async def get(self, table_id: str) -> Live:
        """The live table ``table_id``, brought up to date with the database.

        A catch-up already reading the table is waited for, so what this process wrote, or was told of,
        before the call is in the snapshot.
        """
        live = self._live.get(table_id)
        if live is None:
            snap = await anyio.to_thread.run_sync(self._load, table_id, None)
            live = self._live.get(table_id)
            if live is None:
                live = Live(snap, asyncio.Lock(), set())
                self._live[table_id] = live
                self._evict()
            self._schedule_bots(table_id, live)
        else:
            self._live.move_to_end(table_id)
            if table_id in self._stale or table_id in self._catching_up:
                async with live.lock:
                    changed = await self._refresh(live)
                if changed:
                    self._published(table_id, live)
        return live

    async def snapshot(self, table_id: str) -> Snapshot:
        return (await self.get(table_id)).snap

    async def _refresh(self, live: Live) -> bool:
        """Catch up with what other processes wrote, if they said so; whether anything changed."""
        if live.snap.id not in self._stale:
            return False
        self._stale.discard(live.snap.id)
        snap = await anyio.to_thread.run_sync(self._load, live.snap.id, live.snap)
        if snap is live.snap:
            return False
        live.snap = snap
        return True

    def _load(self, table_id: str, cached: Snapshot | None) -> Snapshot:
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
            updated = _aware(row.updated)
            if cached is not None and updated == cached.updated:
                return cached
            seats = tuple(Seat(s.seat, s.kind, s.name, s.bot, s.token_hash, s.claimed, s.invite_hash)
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
                commitment=row.commitment, created=_aware(row.created), rematch_of=row.rematch_of,
                turn_seconds=row.turn_seconds,
            )
        else:
            state = cached.state.clone() if moves else cached.state
            entries = list(cached.log)
            cuts = list(cached.cuts)
            base = {}
        if [move.seq for move in moves] != list(range(start, start + len(moves))):
            raise RuntimeError(f"table {table_id}: moves {[m.seq for m in moves]} do not follow move {start - 1}")
        state = _replay(state, entries, cuts, [(m.seq, m.kind, m.seat, m.action) for m in moves])
        fields: dict[str, Any] = dict(status=row.status, updated=updated, rematch=row.rematch, seats=seats,
                                      state=state, log=tuple(entries), version=start + len(moves), cuts=tuple(cuts),
                                      turn_started=_aware(row.turn_started),
                                      turn_was=_aware(row.turn_was) if row.turn_was is not None else None)
        return replace(cached, **fields) if cached is not None else Snapshot(**base, **fields)

    def _evict(self) -> None:
        """Forget the least recently used tables nobody watches (the database keeps them)."""
        for table_id in list(self._live):
            if len(self._live) <= self.cache_size:
                return
            live = self._live[table_id]
            if not live.clients and (live.bots is None or live.bots.done()) and not live.lock.locked():
                del self._live[table_id]

    # ---- writing -------------------------------------------------------------------------

    def _notify(self, connection: Connection | Session, note: _Note) -> None:
        """Tell every process that a table changed (PostgreSQL only; delivered once the write is committed)."""
        if self._postgres:
            connection.execute(_NOTIFY, {"channel": NOTIFY_CHANNEL, "note": note.text()})

    def _settle(self, state: State, moves: list[tuple[int, int, str]], log: list[LogEntry], seq: int) -> None:
        """Apply chance outcomes until a player decides (or the game ends), recording them in ``moves`` and ``log``."""
        while state.is_chance_node():
            outcome = state.sample_chance()
            log.append(_log_entry(state, seq + len(log), outcome))
            moves.append((CHANCE, outcome, state.action_to_string(outcome)))
            state.apply_action(outcome)

    def _change(self, snap: Snapshot, moves: Sequence[tuple[int, int, str]], changes: Callable[[Connection], None],
                moves_only: bool = False, kind: str = MOVE, **published: Any) -> _Change:
        """The write appending ``moves`` after ``snap``'s last one and applying ``changes``, and the snapshot it makes.

        ``snap`` must still be the table's latest version when the write runs: its row must still carry
        ``snap.updated`` (every write moves it forward) and no move may have taken ``snap``'s next seq. A
        write by another process breaks either; the whole write then fails (see :meth:`_commit`).
        ``published`` are the snapshot fields the write changes; ``moves_only`` says that they follow from
        the moves alone (as :func:`_extended` makes them), so other processes can apply the moves themselves.
        ``moves`` are (seat, action, label) events of ``kind``.
        """
        moment = max(now(), snap.updated + timedelta(microseconds=1))
        changed = _clocked(snap, replace(snap, updated=moment, version=snap.version + len(moves), **published), kind)
        rows = [dict(table_id=snap.id, seq=snap.version + offset, kind=kind, seat=seat, action=action, label=label,
                     time=moment)
                for offset, (seat, action, label) in enumerate(moves)]
        note = (_Note(snap.id, moment, snap.updated, snap.version, tuple(action for _, action, _ in moves))
                if moves_only else _Note(snap.id, moment))

        def write(connection: Connection) -> None:
            bumped: Any = connection.execute(_BUMP, {"table": snap.id, "was": snap.updated, "moment": moment,
                                                     "clock": changed.turn_started, "clock_was": changed.turn_was})
            if bumped.rowcount != 1:
                raise _Stale
            if rows:
                connection.execute(_INSERT_MOVES, rows)
            changes(connection)
            self._notify(connection, note)

        return _Change(changed, write)

    async def _commit(self, change: _Change) -> bool:
        """Commit ``change``; False if another process changed the table first (it is then marked for a reload)."""
        table_id = change.snap.id
        committed = self._committer.submit(change.write)
        try:
            await asyncio.shield(committed)
        except (IntegrityError, _Stale):
            self._stale.add(table_id)
            return False
        except asyncio.CancelledError:
            def read_again(done: asyncio.Future[None]) -> None:
                """The write went on without its waiter: the table is read again from the database."""
                if not done.cancelled():
                    done.exception()
                self._stale.add(table_id)

            committed.add_done_callback(read_again)
            raise
        return True

    async def _write(self, table_id: str, change: Callable[[Snapshot], tuple[_Change | None, Any]]
                     ) -> tuple[Live, Any]:
        """Commit ``change(snapshot)`` under the table's lock, then publish the snapshot it wrote.

        A change that finds nothing to write (``None``) only answers its result.

        ``change`` runs on the event loop (the rules are fast; only the commit waits on the database).
        Whatever the table picked up meanwhile is published too, even when ``change`` is refused. A change
        based on a version another process replaced is tried again on the new one (a move then names a
        stale version and is refused as such).
        """
        live = await self.get(table_id)
        before = live.snap
        try:
            async with live.lock:
                await self._refresh(live)
                try:
                    for _ in range(WRITE_ATTEMPTS):
                        planned, result = change(live.snap)
                        if planned is None:
                            return live, result
                        if await self._commit(planned):
                            live.snap = planned.snap
                            return live, result
                        await self._refresh(live)
                    raise ApiError(409, "stale_version", "the table keeps changing; reload and try again")
                finally:
                    await self._refresh(live)
        finally:
            if live.snap is not before:
                self._published(table_id, live)

    def _published(self, table_id: str, live: Live) -> None:
        for client in list(live.clients):
            client.changed()
        self._schedule_bots(table_id, live)

    def changed_elsewhere(self, text: str) -> None:
        """A process (maybe this one) changed a table: catch up, unless this is already that version.

        Catching up runs in its own task, one per table at a time, after the write in progress here
        (whose own notification then needs nothing); a notification of moves made on the version held
        here is applied without reading the database, any other makes the table be read again.
        """
        note = _Note.parse(text)
        table_id = note.table_id if note is not None else text.partition(" ")[0]
        live = self._live.get(table_id)
        if live is None or (note is not None and live.snap.updated >= note.updated):
            return
        if note is None or note.was is None:
            self._stale.add(table_id)
        if note is not None:
            self._notes.setdefault(table_id, []).append(note)
        if table_id not in self._catching_up:
            self._catching_up[table_id] = asyncio.get_running_loop().create_task(self._catch_up(table_id))

    async def _catch_up(self, table_id: str) -> None:
        try:
            live = self._live.get(table_id)
            if live is None:
                self._notes.pop(table_id, None)
                return
            async with live.lock:
                while self._notes.get(table_id) or table_id in self._stale:
                    for note in self._notes.pop(table_id, []):
                        snap = live.snap
                        if snap.updated >= note.updated:
                            continue
                        if note.was == snap.updated and note.seq == snap.version:
                            live.snap = _extended(snap, note.actions, note.updated)
                        else:
                            self._stale.add(table_id)
                    await self._refresh(live)
            self._published(table_id, live)
        except Exception:
            log.exception("table %s could not be read again", table_id)
        finally:
            del self._catching_up[table_id]

    # ---- creating ------------------------------------------------------------------------

    async def create(self, game_id: str, players: int | None, options: Mapping[str, Any],
                     seats: Sequence[Mapping[str, Any]] | None, public: bool, turn_seconds: int | None,
                     creator: str | None = None, waiting_limit: int | None = None
                     ) -> tuple[Snapshot, dict[int, str]]:
        """A new table and the invite of each human seat (the only time invites are shown).

        An invite claims its seat once (:meth:`claim`), so whoever creates a table never holds a token of
        a seat someone else claimed. ``creator`` is the address of the client asking, as its limits count
        it; it may have at most ``waiting_limit`` tables waiting for players at once.
        """
        try:
            game = obelisk.load(game_id, players, **check_options(game_id, options))
        except ValueError as error:
            raise ApiError(400, "bad_request", str(error)) from None
        if seats is None:
            seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "greedy"}] * (game.num_players - 1)
        if len(seats) != game.num_players:
            raise ApiError(400, "bad_request", f"{len(seats)} seats given for a {game.num_players}-player game")
        rows, tokens = [], {}
        attended = any(spec.get("kind") != "bot" for spec in seats)
        for index, spec in enumerate(seats):
            if spec.get("kind") == "bot":
                bot = check_bot_spec(spec.get("bot"), game, attended)
                name = check_name(spec["name"]) if spec.get("name") is not None else bot[:NAME_LENGTH]
                rows.append(Seat(index, "bot", name, bot, None, True))
            else:
                token = secrets.token_urlsafe(24)
                tokens[index] = token
                name = check_name(spec["name"]) if spec.get("name") is not None else UNNAMED
                rows.append(Seat(index, "human", name, None, hash_token(token), False, hash_token(token)))
        table_id = await anyio.to_thread.run_sync(self._insert, game, rows, public, turn_seconds, None, creator,
                                                  waiting_limit)
        return await self.snapshot(table_id), tokens

    def _insert(self, game: Game, seats: Sequence[Seat], public: bool, turn_seconds: int | None,
                rematch_of: str | None, creator: str | None = None, waiting_limit: int | None = None) -> str:
        secret = SecretSeed.new()
        table_id = secrets.token_urlsafe(9)
        moment = now()
        state = game.new_initial_state(secret.seed)
        moves: list[tuple[int, int, str]] = []
        self._settle(state, moves, [], 0)
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
                creator=creator,
            ))
            session.flush()
            for s in seats:
                session.add(SeatRow(table_id=table_id, seat=s.seat, kind=s.kind, name=s.name, bot=s.bot,
                                    token_hash=s.token_hash, claimed=s.claimed, invite_hash=s.invite_hash))
            for seq, (seat, action, label) in enumerate(moves):
                session.add(MoveRow(table_id=table_id, seq=seq, kind=MOVE, seat=seat, action=action, label=label,
                                    time=moment))
            if rematch_of is not None:
                done: Any = session.execute(update(TableRow).where(TableRow.id == rematch_of, TableRow.rematch.is_(None))
                                       .values(rematch=table_id, updated=moment))
                if done.rowcount != 1:
                    raise ApiError(409, "stale_version", "a rematch of this table was just created; try again")
                self._notify(session, _Note(rematch_of, moment))
        if rematch_of is not None:
            self._stale.add(rematch_of)
        return table_id

    async def list(self, status: str | None) -> list[Snapshot]:
        """At most ``LIST_LENGTH`` public tables (expired ones never), optionally only those with ``status``.

        Each creator's newest table comes before anyone's second, every second before any third, and so on
        (newest first within each round), so that one address creating many tables cannot push everyone
        else's out of the list. The rounds are dealt from the ``LIST_CANDIDATES`` most recently changed.
        """
        def ids() -> list[str]:
            with Session(self.engine) as session:
                query = select(TableRow.id, TableRow.creator).where(TableRow.public.is_(True))
                query = query.where(TableRow.status == status) if status is not None else query.where(
                    TableRow.status != "expired")
                rows = session.execute(query.order_by(TableRow.updated.desc()).limit(LIST_CANDIDATES)).all()
            return _fair(rows)[:LIST_LENGTH]
        return [await self.snapshot(i) for i in await anyio.to_thread.run_sync(ids)]

    async def expire(self, idle: timedelta) -> tuple[str, ...]:
        """Close the tables that have been waiting for players ``idle`` since their last change; their ids.

        An expired table leaves the lobby, no longer counts against its creator's waiting tables and
        refuses claims and joins (``expired``); nothing of it is deleted. Every process may run this at
        any time: the statement picks each table once.
        """
        def close() -> tuple[str, ...]:
            moment = now()
            with self.engine.begin() as connection:
                done = connection.execute(
                    update(_TABLES).where(_TABLES.c.status == "waiting", _TABLES.c.updated < moment - idle)
                    .values(status="expired", updated=moment).returning(_TABLES.c.id))
                ids = tuple(done.scalars())
                for table_id in ids:
                    self._notify(connection, _Note(table_id, moment))
            return ids
        ids = await anyio.to_thread.run_sync(close)
        for table_id in ids:
            if table_id in self._live:
                self._stale.add(table_id)
                await self.get(table_id)
        return ids

    async def resume(self, limit: int = 200) -> None:
        """After a start, let the bots of the most recently active tables in play that have a person's seat
        go on; a table of bots alone waits until it is next opened, so nobody's restart runs it unasked."""
        def ids() -> list[str]:
            with Session(self.engine) as session:
                person = exists().where(SeatRow.table_id == TableRow.id, SeatRow.token_hash.is_not(None))
                query = select(TableRow.id).where(TableRow.status == "playing", person)
                return list(session.scalars(query.order_by(TableRow.updated.desc()).limit(limit)))
        for table_id in await anyio.to_thread.run_sync(ids):
            try:
                await self.get(table_id)
            except Exception:
                log.exception("table %s could not be loaded", table_id)

    # ---- seats ---------------------------------------------------------------------------

    async def claim(self, table_id: str, token: str, name: str | None = None) -> tuple[int, str]:
        """Take the seat of an invite, or present a claimed seat's own token again; the seat and its token.

        An invite claims its seat once: the seat gets a new token, whose only copy is answered here, and
        the invite opens nothing from then on (so whoever sent the link cannot read or play the seat).
        A claimed seat's own token (a page opened again) answers that same token; ``name`` renames the
        seat while its game runs (None keeps the name it has: the creator's, or none, which every page shows
        as "Player N" in its reader's language), and nothing is written when it is unchanged.
        """
        name = check_name(name) if name is not None else None
        wanted = hash_token(token)
        fresh = secrets.token_urlsafe(24)

        def change(snap: Snapshot) -> tuple[_Change | None, tuple[int, str]]:
            invited = next((s for s in snap.seats if s.invites(wanted)), None)
            if invited is not None:
                _check_open(snap)
                values: dict[str, Any] = dict(claimed=True, token_hash=hash_token(fresh))
                if name is not None:
                    values["name"] = name
                return self._set_seat(snap, invited.seat, values, only_if_unclaimed=True), (invited.seat, fresh)
            seat = snap.seat_of(token)
            assert seat is not None
            if name is None or name == snap.seats[seat].name:
                return None, (seat, token)
            if snap.status in ("finished", "expired"):
                raise ApiError(409, snap.status, f"the table is {snap.status}: the names of its seats no longer change")
            return self._set_seat(snap, seat, dict(name=name)), (seat, token)

        return (await self._write(table_id, change))[1]

    async def join(self, table_id: str, seat: int, name: str | None = None) -> str:
        """Sit at a public table's free human seat (unnamed without ``name``); a fresh token (the only copy) is
        returned, and the seat's invite opens nothing from then on."""
        name = UNNAMED if name is None else check_name(name)
        token = secrets.token_urlsafe(24)

        def change(snap: Snapshot) -> tuple[_Change, None]:
            if not snap.public:
                raise ApiError(403, "not_public", "only public tables can be joined; ask for an invite link")
            _check_open(snap)
            self._check_seat(snap, seat)
            if not snap.seats[seat].human:
                raise ApiError(409, "seat_taken", f"seat {seat} is a bot's")
            if snap.seats[seat].claimed:
                raise ApiError(409, "seat_taken", f"seat {seat} is taken")
            return self._set_seat(snap, seat, dict(claimed=True, name=name, token_hash=hash_token(token)),
                                  only_if_unclaimed=True), None

        await self._write(table_id, change)
        return token

    async def hand_to_bot(self, table_id: str, seat: int, token: str, bot: str) -> None:
        """Let a bot play a person's seat: asked by its owner, or by another player once its turn timed out."""
        def change(snap: Snapshot) -> tuple[_Change, None]:
            self._check_seat(snap, seat)
            spec = check_bot_spec(bot, snap.game)
            asker = snap.seat_of(token)
            target = snap.seats[seat]
            if not target.human:
                raise ApiError(409, "bad_request", f"seat {seat} is a bot's seat")
            _check_not_over(snap)
            if asker != seat and not snap.timed_out(seat):
                raise ApiError(403, "bad_token", f"only seat {seat} may hand its seat to a bot before its turn times out")
            return self._set_seat(snap, seat, dict(kind="bot", bot=spec, claimed=True)), None

        await self._write(table_id, change)

    async def take_back(self, table_id: str, seat: int, token: str) -> None:
        """A person takes their seat back from the bot playing it."""
        def change(snap: Snapshot) -> tuple[_Change, None]:
            self._check_seat(snap, seat)
            if snap.seat_of(token) != seat:
                raise ApiError(403, "bad_token", f"only seat {seat}'s token takes it back")
            _check_not_over(snap)
            if snap.seats[seat].kind != "bot":
                raise ApiError(409, "bad_request", f"seat {seat} is played by its person already")
            return self._set_seat(snap, seat, dict(kind="human", bot=None, claimed=True)), None

        await self._write(table_id, change)

    @staticmethod
    def _check_seat(snap: Snapshot, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(snap.seats):
            raise ApiError(400, "bad_request", f"seat must be 0 to {len(snap.seats) - 1}")

    def _set_seat(self, snap: Snapshot, seat: int, values: dict[str, Any], only_if_unclaimed: bool = False
                  ) -> _Change:
        seats = [replace(s, **values) if s.seat == seat else s for s in snap.seats]
        status = snap.status
        if status == "waiting" and all(s.claimed for s in seats):
            status = "playing"

        def changes(connection: Connection) -> None:
            query = update(SeatRow).where(SeatRow.table_id == snap.id, SeatRow.seat == seat)
            if only_if_unclaimed:
                query = query.where(SeatRow.claimed.is_(False))
            written: Any = connection.execute(query.values(**values))
            if written.rowcount != 1:
                self._stale.add(snap.id)
                raise ApiError(409, "seat_taken", f"seat {seat} was just taken")
            if status != snap.status:
                connection.execute(update(TableRow).where(TableRow.id == snap.id).values(status=status))

        return self._change(snap, [], changes, seats=tuple(seats), status=status)

    # ---- moves ---------------------------------------------------------------------------

    async def move(self, table_id: str, token: str | None, version: Any, actions: Sequence[Any]) -> int:
        """Apply a person's actions, one decision after another, if ``version`` is the table's; the new version
        (chance included).

        A batch (a shortcut's actions) is applied all or nothing: every action must be a legal decision of
        the same seat in turn, and the whole batch, with the chance outcomes after its last action, is one
        write in one group commit; anything wrong refuses it whole, saying which action.
        """
        def change(snap: Snapshot) -> tuple[_Change, int]:
            seat = snap.seat_of(token)
            if seat is None:
                raise ApiError(403, "bad_token", "a move needs the token of a seat (spectators cannot move)")
            if snap.seats[seat].kind != "human":
                raise ApiError(409, "not_your_turn", f"a bot plays seat {seat}; take the seat back first")
            written = self._apply(snap, seat, version, actions)
            return written, written.snap.version

        return (await self._write(table_id, change))[1]

    async def undo(self, table_id: str, token: str | None, version: Any) -> int:
        """Take back the last decision of the seat ``token`` opens, if the core allows it; the new version.

        An undo is an event of its own (a new version, never an old one), so a client still holding the
        version before it is refused as stale; the moves it takes back leave the state, the log and the record.
        """
        def change(snap: Snapshot) -> tuple[_Change, int]:
            seat = snap.seat_of(token)
            if seat is None:
                raise ApiError(403, "bad_token", "taking a move back needs the token of a seat")
            self._check_turn(snap, version)
            if snap.seats[seat].kind != "human":
                raise ApiError(409, "not_your_turn", f"a bot plays seat {seat}; take the seat back first")
            log = list(snap.log)
            try:
                state, cut = _take_back(snap.state, log, seat, 1)
            except IllegalActionError as error:
                raise ApiError(409, "nothing_to_undo", f"nothing to undo: {error}") from None
            written = self._change(snap, [(seat, 1, "undo")], lambda _: None, kind=UNDO, state=state, log=tuple(log),
                                   cuts=snap.cuts + ((snap.version, cut),))
            return written, written.snap.version

        return (await self._write(table_id, change))[1]

    @staticmethod
    def _check_turn(snap: Snapshot, version: Any) -> None:
        """Refuse a decision at a table not in play, or sent from a version that is not the table's."""
        if snap.status == "finished":
            raise ApiError(409, "finished", "the game is over")
        if snap.status == "waiting":
            raise ApiError(409, "waiting", "the game starts when every seat is taken")
        _check_not_over(snap)
        if isinstance(version, bool) or not isinstance(version, int):
            raise ApiError(400, "bad_request", "version must be an integer")
        if version != snap.version:
            raise ApiError(409, "stale_version", f"the table is at version {snap.version}, not {version}")

    def _apply(self, snap: Snapshot, seat: int, version: Any, actions: Sequence[Any]) -> _Change:
        """The change playing ``actions`` for ``seat`` on ``snap`` (each checked before it is applied to a copy),
        then the chance outcomes they lead to; an ``ApiError`` naming the first action that may not be played."""
        self._check_turn(snap, version)
        if not 1 <= len(actions) <= BATCH_LIMIT:
            raise ApiError(400, "bad_request", f"a move plays 1 to {BATCH_LIMIT} actions")
        state = snap.state.clone()
        log: list[LogEntry] = []
        moves: list[tuple[int, int, str]] = []
        for index, action in enumerate(actions):
            self._check_action(state, seat, action, index, len(actions))
            log.append(_log_entry(state, snap.version + index, action))
            moves.append((seat, action, state.action_to_string(action)))
            state.apply_action(action, seat)
        self._settle(state, moves, log, snap.version)
        status = "finished" if state.is_terminal() else snap.status

        def changes(connection: Connection) -> None:
            if status != snap.status:
                connection.execute(update(TableRow).where(TableRow.id == snap.id).values(status=status))

        return self._change(snap, moves, changes, moves_only=True, state=state, log=snap.log + tuple(log),
                            status=status)

    @staticmethod
    def _check_action(state: State, seat: int, action: Any, index: int, count: int) -> None:
        """Refuse ``action``, the ``index``-th of ``count``, unless it is a legal decision of ``seat`` in ``state``.

        The rules' own reason is not sent: it is worded from the whole state, hidden parts included.
        """
        named = codec.describe(action)
        which = f"action #{index + 1} of {count} ({named})" if count > 1 else f"action {named}"
        after = " after the ones before it" if index else " now"
        if isinstance(action, bool) or not isinstance(action, int):
            raise ApiError(400, "bad_request", f"{which}: an action must be an integer")
        if state.current_player() != seat:
            raise ApiError(409, "not_your_turn", f"{which}: it is not seat {seat}'s turn{after}")
        legal = state.legal_actions()
        if action not in legal:
            raise ApiError(400, "illegal_action",
                           f"{which} is not one of seat {seat}'s {len(legal)} legal actions{after}")

    # ---- bots ----------------------------------------------------------------------------

    def _schedule_bots(self, table_id: str, live: Live) -> None:
        """Start the table's bot loop when a bot is to act; drop any decision the table no longer waits for."""
        turn = bot_turn(live.snap)
        self.bots.keep_only(table_id, turn)
        if self._closing or turn is None:
            return
        if live.bots is None or live.bots.done():
            live.bots = asyncio.get_running_loop().create_task(self._play_bots(table_id, live))

    async def _play_bots(self, table_id: str, live: Live) -> None:
        """Let the bot seats act while it is a bot's turn, if this process is the one to decide them."""
        if not await self.elector.acquire(table_id):
            self._check_later(table_id, live)
            return
        try:
            await self._bot_loop(table_id, live)
        except Exception:
            log.exception("table %s: its bots stopped", table_id)
            return
        finally:
            await self.elector.release(table_id)
        if not self._closing and bot_turn(live.snap) is not None:
            # a bot's turn came while the lock was being released: this task is done by the time this runs
            asyncio.get_running_loop().call_soon(self._schedule_bots, table_id, live)

    async def _bot_loop(self, table_id: str, live: Live) -> None:
        """Decide and apply the bots' moves while a bot is to act (this process holding the table's bots)."""
        if self.elector.shared:
            await self._read_again(live)  # the process that decided before may have moved since
        while not self._closing:
            snap = live.snap
            turn = bot_turn(snap)
            if turn is None:
                return
            _, seat, spec = turn
            started = time.monotonic()
            decision = Decision(snap.game.id, snap.game.num_players, dict(snap.options), snap.seed,
                                tuple(snap.state.history()), spec, seat, secrets.randbelow(2**31))
            try:
                action = await self.bots.decide(table_id, turn, decision)
            except Cancelled:
                continue  # the table moved on: look at it again
            await asyncio.sleep(max(0.0, self.bot_delay - (time.monotonic() - started)))
            if not await self._apply_bot(table_id, live, snap, seat, spec, action):
                return

    async def _apply_bot(self, table_id: str, live: Live, snap: Snapshot, seat: int, spec: str, action: int
                         ) -> bool:
        """Apply the bot's ``action`` chosen on ``snap`` unless the table moved on; whether the bots go on."""
        try:
            async with live.lock:
                await self._refresh(live)
                try:
                    current = live.snap
                    if current.seats[seat].kind != "bot" or current.seats[seat].bot != spec:
                        raise ApiError(409, "not_your_turn", "the seat changed hands")
                    planned = self._apply(current, seat, snap.version, [action])
                    if await self._commit(planned):
                        live.snap = planned.snap
                    # else another process moved meanwhile: decide again on the version it wrote
                finally:
                    await self._refresh(live)
        except ApiError as error:
            if error.code not in ("stale_version", "not_your_turn"):
                log.error("table %s: bot %r of seat %d chose a refused action: %s", table_id, spec, seat,
                          error.message)
                return False
        for client in list(live.clients):
            client.changed()
        return True

    async def _read_again(self, live: Live) -> None:
        """Bring ``live`` up to the database's version (cheap when it is current) and publish any change."""
        self._stale.add(live.snap.id)
        async with live.lock:
            changed = await self._refresh(live)
        if changed:
            self._published(live.snap.id, live)

    def _check_later(self, table_id: str, live: Live) -> None:
        """Another process decides this table's bots: look again later, and take over if that process died."""
        if self._closing or table_id in self._look_again:
            return

        def again() -> None:
            del self._look_again[table_id]
            if self._live.get(table_id) is live:
                self._schedule_bots(table_id, live)

        self._look_again[table_id] = asyncio.get_running_loop().call_later(TAKEOVER_SECONDS, again)

    # ---- rematch -------------------------------------------------------------------------

    async def rematch(self, table_id: str, token: str | None) -> tuple[Snapshot, int, str]:
        """The next game at a finished table, same seats; the asker's seat there with a fresh token."""
        snap = await self.snapshot(table_id)
        seat = snap.seat_of(token)
        if seat is None:
            raise ApiError(403, "bad_token", "a rematch needs the token of a seat at this table")
        if snap.status != "finished":
            raise ApiError(409, "not_finished", "a rematch can start when the game is finished")
        if snap.rematch is None:
            # A person's seat there opens with no token anyone holds until its player asks for the rematch.
            seats = [Seat(s.seat, "human" if s.human else "bot", s.name, None if s.human else s.bot,
                          hash_token(secrets.token_urlsafe(24)) if s.human else None, not s.human)
                     for s in snap.seats]
            try:
                await anyio.to_thread.run_sync(self._insert, snap.game, seats, snap.public, snap.turn_seconds,
                                               table_id)
            except ApiError:
                pass  # another player's request created it meanwhile: join that one
            snap = await self.snapshot(table_id)
        assert snap.rematch is not None
        new_token = secrets.token_urlsafe(24)
        new_id = snap.rematch

        def change(new: Snapshot) -> tuple[_Change, None]:
            if new.seats[seat].claimed:
                # Its token went to the first request; answering another would take the seat from whoever holds it.
                raise ApiError(409, "seat_taken", f"seat {seat} already has its place at the rematch {new.id}: "
                                                  "its token went to the first request for it")
            return self._set_seat(new, seat, dict(claimed=True, token_hash=hash_token(new_token),
                                                  name=snap.seats[seat].name), only_if_unclaimed=True), None

        live, _ = await self._write(new_id, change)
        return live.snap, seat, new_token

    # ---- clients -------------------------------------------------------------------------

    def connected(self, live: Live) -> set[int]:
        return set(live.seated)

    async def attach(self, table_id: str, client: Any) -> Live:
        """Follow the table with ``client`` (it has a ``seat`` and a ``changed()``): its first frame is due.

        The others are told only when what they see changes: a seat's first socket makes it ``connected``;
        a spectator, or one more socket of a seat already connected, changes nothing they see.
        """
        live = await self.get(table_id)
        live.clients.add(client)
        client.changed()
        if client.seat is not None:
            live.seated[client.seat] += 1
            if live.seated[client.seat] == 1:
                self._tell_others(live, client)
        return live

    def detach(self, live: Live, client: Any) -> None:
        """Stop following; the others are told only if a seat's last socket left."""
        if client not in live.clients:
            return
        live.clients.discard(client)
        if client.seat is not None:
            live.seated[client.seat] -= 1
            if live.seated[client.seat] <= 0:
                del live.seated[client.seat]
                self._tell_others(live, client)

    @staticmethod
    def _tell_others(live: Live, client: Any) -> None:
        for other in list(live.clients):
            if other is not client:
                other.changed()

    async def close(self) -> None:
        self._closing = True
        for handle in self._look_again.values():
            handle.cancel()
        self._look_again.clear()
        await self.bots.close()
        tasks = [live.bots for live in self._live.values() if live.bots is not None and not live.bots.done()]
        tasks += self._catching_up.values()
        for task in tasks:
            task.cancel()
        for task in tasks:
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
        await self.elector.close()
        await anyio.to_thread.run_sync(self._committer.close)
