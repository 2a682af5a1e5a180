"""A table as a value: its seats and their tokens' hashes, its status, its log and its turn clock.

A :class:`Snapshot` is one published version of a table and is never mutated: every change makes
a new one (the committer builds it, the live service publishes it), so a frame being built, a bot
deciding and a write in progress each hold a consistent version without a lock. Everything here is
pure: no database, no sockets. The checks that refuse a request by what the table is now (a seat
number, a name, a bot spec, a table no longer open) live here too, so every transport and every
change words a refusal the same way (:class:`ApiError`).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, Mapping

from obelisk.core import Game, Option, State, game_class
from obelisk.server import store
from obelisk.server.bots import table_bot
from obelisk.server.store import UNDO

NAME_LENGTH = 40
MIN_TURN_SECONDS = 10
MAX_TURN_SECONDS = 30 * 24 * 3600
"""A table's turn clock (``turn_seconds``) lies between these: from a quick game to one move a month."""
UNNAMED = ""
"""The name of a person's seat nobody named: every page calls it "Player N" in its reader's language."""


class ApiError(Exception):
    """A refused request: an HTTP status, a stable code and one clear message."""

    def __init__(self, status: int, code: str, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after
        """Whole seconds after which the same request may succeed (a rate limit's), told to the client."""

    def as_dict(self) -> dict[str, Any]:
        """The refusal as the API sends it: ``{"code", "message"}``, with ``retry_after`` when it has one."""
        doc: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.retry_after is not None:
            doc["retry_after"] = self.retry_after
        return doc


def hash_token(token: str) -> str:
    """What the database keeps of a token: a leaked database opens no seat."""
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
    account_id: str | None = None
    """The account that claimed the seat, if a signed-in person did: its session opens the seat on any device,
    and the seat's token opens it for nobody signed in as another account."""

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
    """When the seat to act became the one to act: the turn clock counts from here (see :func:`clocked`)."""
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
    rated: bool = False
    """Whether the table's finish moves the ratings of the accounts seated at it (``ratings.py``)."""

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
        return (at or store.now()) - self.turn_started > timedelta(seconds=self.turn_seconds)

    def seat_of(self, token: str | None, account: str | None = None) -> int | None:
        """The seat ``token`` opens, or without a token the seat ``account`` (a signed-in account's id) claimed;
        ``None`` for a spectator. Any other token is refused, saying why.

        Only a claimed seat's own token opens it: an invite opens nothing but its claim (until then the
        seat's hand is nobody's to see), and once used it opens nothing at all. A seat claimed by an account
        opens for that account's session or its own token, never for a token presented while signed in as
        another account (a stolen token is no use to whoever stole it signed in).
        """
        if token is None:
            return self.seat_of_account(account)
        wanted = hash_token(token)
        for seat in self.seats:
            if seat.opens(wanted):
                if seat.account_id is not None and account is not None and account != seat.account_id:
                    raise ApiError(403, "seat_of_another_account",
                                   f"seat {seat.seat} belongs to another account; sign out or sign in as it")
                return seat.seat
        for seat in self.seats:
            if seat.invites(wanted):
                raise ApiError(403, "not_claimed", f"this is the invite of seat {seat.seat}: claim the seat with it "
                                                   "first, and use the token the claim answers")
            if seat.used_invite(wanted):
                raise ApiError(403, "invite_used", f"this invite was already used: seat {seat.seat} is taken, and "
                                                   "only the token its claim answered opens it")
        raise ApiError(403, "bad_token", "this token opens no seat at this table")

    def seat_of_account(self, account: str | None) -> int | None:
        """The seat ``account`` claimed at this table (an account claims one seat a table), else None."""
        if account is None:
            return None
        return next((s.seat for s in self.seats if s.claimed and s.account_id == account), None)


def clocked(before: Snapshot, after: Snapshot, kind: str) -> Snapshot:
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


def bot_turn(snapshot: Snapshot) -> tuple[int, int, str] | None:
    """The (version, seat, spec) of the bot decision ``snapshot`` waits for, or None when no bot is to act."""
    seat = snapshot.to_act
    if seat is None or snapshot.seats[seat].kind != "bot":
        return None
    spec = snapshot.seats[seat].bot
    assert spec is not None
    return snapshot.version, seat, spec


def file_option(option: Option) -> bool:
    """An option naming a file on the server's disk (a corrected data file): never set by a client."""
    return option.allowed is None and isinstance(option.default, str)


def check_options(game_id: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` as a table may set them, else a ``bad_request``: a file on the server is never a client's to name."""
    for option in game_class(game_id).info.options:
        if file_option(option) and option.name in options:
            raise ApiError(400, "bad_request", f"option {option.name!r} names a file on the server and cannot be set")
    return dict(options)


def check_rated_options(game: Game) -> None:
    """Refuse a rated table whose options are not the game's defaults: a rating compares like with like."""
    defaults = {option.name: option.default for option in game.info.options}
    changed = sorted(name for name, value in game.options.items() if defaults.get(name, value) != value)
    if changed:
        raise ApiError(400, "bad_request", f"a rated table plays the game's default options; these differ: "
                                           f"{', '.join(changed)}")


def check_open(snapshot: Snapshot) -> None:
    """Refuse taking a seat at a table that waited too long for its players."""
    if snapshot.status == "expired":
        raise ApiError(409, "expired", "this table expired: its seats waited too long for their players")


def check_seat(snapshot: Snapshot, seat: int) -> None:
    """Refuse a seat number the table does not have."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(snapshot.seats):
        raise ApiError(400, "bad_request", f"seat must be 0 to {len(snapshot.seats) - 1}")


def check_not_over(snapshot: Snapshot) -> None:
    """Refuse changing how a table is played once it is finished (or expired before it began)."""
    if snapshot.status == "finished":
        raise ApiError(409, "finished", "the game is over")
    check_open(snapshot)


def check_name(name: Any) -> str:
    """``name`` with its spaces tidied, else a ``bad_request``: 1 to ``NAME_LENGTH`` printable characters."""
    if not isinstance(name, str):
        raise ApiError(400, "bad_request", "a name must be a string")
    cleaned = " ".join(name.split())
    if not 1 <= len(cleaned) <= NAME_LENGTH or not cleaned.isprintable():
        raise ApiError(400, "bad_request", f"a name must be 1 to {NAME_LENGTH} printable characters")
    return cleaned
