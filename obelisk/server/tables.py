"""The tables' authority: what each request may change at a table, and for whom.

:class:`Tables` is what the transports call (``routes.py``, ``sockets.py``): create a table, claim
or join a seat, hand a seat to a bot and take it back, play moves, take one back, start a rematch.
Each operation checks who asks (a seat's token) and plans its change on the table's current
snapshot; the live service (``live.py``) runs it under the table's lock, commits it and publishes
it. Refusals are :class:`ApiError` with a stable code, and a refused request changes nothing.

The names other code imports from here (the table's value, its views, its limits) are kept in one
place: see ``__all__``.
"""

from __future__ import annotations

import logging
import secrets
from datetime import timedelta
from typing import Any, Mapping, Sequence

import anyio

import obelisk
from obelisk.core import Game
from obelisk.server.committer import BATCH_LIMIT, Change
from obelisk.server.live import HeldTable, LiveTables
from obelisk.server.notes import NOTIFY_CHANNEL
from obelisk.server.storage import LIST_LENGTH
from obelisk.server.table import (
    NAME_LENGTH, UNNAMED, ApiError, Seat, Snapshot, check_bot_spec, check_name, check_not_over, check_open,
    check_options, check_rated_options, check_seat, file_option, hash_token,
)
from obelisk.server.views import board_script, decision, frame, record, replay_frame, summary

__all__ = [
    "BATCH_LIMIT", "LIST_LENGTH", "NOTIFY_CHANNEL", "ApiError", "HeldTable", "Snapshot", "Tables", "board_script",
    "decision", "file_option", "frame", "hash_token", "record", "replay_frame", "summary",
]

log = logging.getLogger("obelisk.server")


class Tables(LiveTables):
    """The tables of one server process and every change a request may ask of them."""

    # ---- creating ------------------------------------------------------------------------

    async def create(self, game_id: str, players: int | None, options: Mapping[str, Any],
                     seats: Sequence[Mapping[str, Any]] | None, public: bool, turn_seconds: int | None,
                     creator: str | None = None, waiting_limit: int | None = None, rated: bool = False
                     ) -> tuple[Snapshot, dict[int, str]]:
        """A new table and the invite of each human seat (the only time invites are shown).

        An invite claims its seat once (:meth:`claim`), so whoever creates a table never holds a token of
        a seat someone else claimed. ``creator`` is the address of the client asking, as its limits count
        it; it may have at most ``waiting_limit`` tables waiting for players at once. A ``rated`` table
        plays the game's default options, so that every rated game of a game compares like with like.
        """
        try:
            game = obelisk.load(game_id, players, **check_options(game_id, options))
        except ValueError as error:
            raise ApiError(400, "bad_request", str(error)) from None
        if rated:
            check_rated_options(game)
        if seats is None:
            seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "greedy"}] * (game.num_players - 1)
        if len(seats) != game.num_players:
            raise ApiError(400, "bad_request", f"{len(seats)} seats given for a {game.num_players}-player game")
        rows, tokens = _new_seats(game, seats)
        table_id = await anyio.to_thread.run_sync(self.storage.insert, game, rows, public, turn_seconds, None,
                                                  creator, waiting_limit, rated)
        return await self.snapshot(table_id), tokens

    async def list(self, status: str | None) -> list[Snapshot]:
        """At most ``LIST_LENGTH`` public tables (expired ones never), optionally only those with ``status``.

        Each creator's newest table comes before anyone's second, every second before any third, and so on
        (newest first within each round), so that one address creating many tables cannot push everyone
        else's out of the list. The rounds are dealt from the ``LIST_CANDIDATES`` most recently changed.
        """
        ids = await anyio.to_thread.run_sync(self.storage.public_ids, status)
        return [await self.snapshot(table_id) for table_id in ids]

    async def expire(self, idle: timedelta) -> tuple[str, ...]:
        """Close the tables that have been waiting for players ``idle`` since their last change; their ids.

        An expired table leaves the lobby, no longer counts against its creator's waiting tables and
        refuses claims and joins (``expired``); nothing of it is deleted. Every process may run this at
        any time: the statement picks each table once.
        """
        ids = await anyio.to_thread.run_sync(self.storage.expire_waiting, idle)
        for table_id in ids:
            if self.held(table_id) is not None:
                self._stale.add(table_id)
                await self.get(table_id)
        return ids

    async def resume(self, limit: int = 200) -> None:
        """After a start, let the bots of the most recently active tables in play that have a person's seat
        go on; a table of bots alone waits until it is next opened, so nobody's restart runs it unasked."""
        for table_id in await anyio.to_thread.run_sync(self.storage.resumable_ids, limit):
            try:
                await self.get(table_id)
            except Exception:
                log.exception("table %s could not be loaded", table_id)

    # ---- seats ---------------------------------------------------------------------------

    async def claim(self, table_id: str, token: str, name: str | None = None, account: str | None = None
                    ) -> tuple[int, str]:
        """Take the seat of an invite, or present a claimed seat's own token again; the seat and its token.

        An invite claims its seat once: the seat gets a new token, whose only copy is answered here, and
        the invite opens nothing from then on (so whoever sent the link cannot read or play the seat).
        A claimed seat's own token (a page opened again) answers that same token; ``name`` renames the
        seat while its game runs (None keeps the name it has: the creator's, or none, which every page shows
        as "Player N" in its reader's language), and nothing is written when it is unchanged.

        ``account`` (a signed-in account's id) claims the seat as that account: its session then opens the seat
        on any device, and the seat's token opens it for nobody signed in as another account. An account holds
        one seat a table (``account_seated`` otherwise). A seat claimed without an account is tied to one when
        its own token is presented again while signed in, if the game still runs and the account holds no other
        seat there (else the claim answers as it would without an account: a page opened again never fails
        for it).
        """
        name = check_name(name) if name is not None else None
        wanted = hash_token(token)
        fresh = secrets.token_urlsafe(24)

        def change(snapshot: Snapshot) -> tuple[Change | None, tuple[int, str]]:
            invited = next((s for s in snapshot.seats if s.invites(wanted)), None)
            if invited is not None:
                check_open(snapshot)
                values: dict[str, Any] = dict(claimed=True, token_hash=hash_token(fresh))
                if name is not None:
                    values["name"] = name
                if account is not None:
                    _check_unseated(snapshot, account)
                    values["account_id"] = account
                planned = self.committer.set_seat(snapshot, invited.seat, values, only_if_unclaimed=True)
                return planned, (invited.seat, fresh)
            seat = snapshot.seat_of(token, account)
            assert seat is not None
            values = {}
            if name is not None and name != snapshot.seats[seat].name:
                values["name"] = name
            if _may_tie(snapshot, seat, account):
                values["account_id"] = account
            if not values:
                return None, (seat, token)
            if snapshot.status in ("finished", "expired"):
                raise ApiError(409, snapshot.status,
                               f"the table is {snapshot.status}: its seats no longer change")
            return self.committer.set_seat(snapshot, seat, values), (seat, token)

        return (await self.write(table_id, change))[1]

    async def join(self, table_id: str, seat: int, name: str | None = None, account: str | None = None) -> str:
        """Sit at a public table's free human seat (unnamed without ``name``); a fresh token (the only copy) is
        returned, and the seat's invite opens nothing from then on. ``account``: sit as that account (see
        :meth:`claim`)."""
        name = UNNAMED if name is None else check_name(name)
        token = secrets.token_urlsafe(24)

        def change(snapshot: Snapshot) -> tuple[Change, None]:
            if not snapshot.public:
                raise ApiError(403, "not_public", "only public tables can be joined; ask for an invite link")
            check_open(snapshot)
            check_seat(snapshot, seat)
            if not snapshot.seats[seat].human:
                raise ApiError(409, "seat_taken", f"seat {seat} is a bot's")
            if snapshot.seats[seat].claimed:
                raise ApiError(409, "seat_taken", f"seat {seat} is taken")
            values: dict[str, Any] = dict(claimed=True, name=name, token_hash=hash_token(token))
            if account is not None:
                _check_unseated(snapshot, account)
                values["account_id"] = account
            return self.committer.set_seat(snapshot, seat, values, only_if_unclaimed=True), None

        await self.write(table_id, change)
        return token

    async def hand_to_bot(self, table_id: str, seat: int, token: str | None, bot: str, account: str | None = None
                          ) -> None:
        """Let a bot play a person's seat: asked by its owner, or by another player once its turn timed out."""
        def change(snapshot: Snapshot) -> tuple[Change, None]:
            check_seat(snapshot, seat)
            spec = check_bot_spec(bot, snapshot.game)
            asker = snapshot.seat_of(token, account)
            if asker is None:
                raise ApiError(403, "bad_token", "handing a seat to a bot needs a seat token")
            target = snapshot.seats[seat]
            if not target.human:
                raise ApiError(409, "bad_request", f"seat {seat} is a bot's seat")
            check_not_over(snapshot)
            if asker != seat and not snapshot.timed_out(seat):
                raise ApiError(403, "bad_token",
                               f"only seat {seat} may hand its seat to a bot before its turn times out")
            return self.committer.set_seat(snapshot, seat, dict(kind="bot", bot=spec, claimed=True)), None

        await self.write(table_id, change)

    async def take_back(self, table_id: str, seat: int, token: str | None, account: str | None = None) -> None:
        """A person takes their seat back from the bot playing it."""
        def change(snapshot: Snapshot) -> tuple[Change, None]:
            check_seat(snapshot, seat)
            if snapshot.seat_of(token, account) != seat:
                raise ApiError(403, "bad_token", f"only seat {seat}'s token takes it back")
            check_not_over(snapshot)
            if snapshot.seats[seat].kind != "bot":
                raise ApiError(409, "bad_request", f"seat {seat} is played by its person already")
            return self.committer.set_seat(snapshot, seat, dict(kind="human", bot=None, claimed=True)), None

        await self.write(table_id, change)

    async def move(self, table_id: str, token: str | None, version: Any, actions: Sequence[Any],
                   account: str | None = None) -> int:
        """Apply a person's actions, one decision after another, if ``version`` is the table's; the new version
        (chance included).

        A batch (a shortcut's actions) is applied all or nothing: every action must be a legal decision of
        the same seat in turn, and the whole batch, with the chance outcomes after its last action, is one
        write in one group commit; anything wrong refuses it whole, saying which action.
        """
        def change(snapshot: Snapshot) -> tuple[Change, int]:
            seat = snapshot.seat_of(token, account)
            if seat is None:
                raise ApiError(403, "bad_token", "a move needs the token of a seat (spectators cannot move)")
            if snapshot.seats[seat].kind != "human":
                raise ApiError(409, "not_your_turn", f"a bot plays seat {seat}; take the seat back first")
            written = self.committer.play(snapshot, seat, version, actions)
            return written, written.snapshot.version

        return (await self.write(table_id, change))[1]

    async def undo(self, table_id: str, token: str | None, version: Any, account: str | None = None) -> int:
        """Take back the last decision of the seat ``token`` opens, if the core allows it; the new version.

        An undo is an event of its own (a new version, never an old one), so a client still holding the
        version before it is refused as stale; the moves it takes back leave the state, the log and the record.
        """
        def change(snapshot: Snapshot) -> tuple[Change, int]:
            seat = snapshot.seat_of(token, account)
            if seat is None:
                raise ApiError(403, "bad_token", "taking a move back needs the token of a seat")
            written = self.committer.undo(snapshot, seat, version)
            return written, written.snapshot.version

        return (await self.write(table_id, change))[1]

    # ---- rematch -------------------------------------------------------------------------

    async def rematch(self, table_id: str, token: str | None, account: str | None = None
                      ) -> tuple[Snapshot, int, str]:
        """The next game at a finished table, same seats; the asker's seat there with a fresh token (and the
        account its seat was claimed by, if any)."""
        snapshot = await self.snapshot(table_id)
        seat = snapshot.seat_of(token, account)
        if seat is None:
            raise ApiError(403, "bad_token", "a rematch needs the token of a seat at this table")
        if snapshot.status != "finished":
            raise ApiError(409, "not_finished", "a rematch can start when the game is finished")
        if snapshot.rematch is None:
            # A person's seat there opens with no token anyone holds until its player asks for the rematch.
            seats = [Seat(s.seat, "human" if s.human else "bot", s.name, None if s.human else s.bot,
                          hash_token(secrets.token_urlsafe(24)) if s.human else None, not s.human)
                     for s in snapshot.seats]
            try:
                await anyio.to_thread.run_sync(self.storage.insert, snapshot.game, seats, snapshot.public,
                                               snapshot.turn_seconds, table_id, None, None, snapshot.rated)
            except ApiError:
                pass  # another player's request created it meanwhile: join that one
            else:
                self._stale.add(table_id)  # it names its rematch now
            snapshot = await self.snapshot(table_id)
        assert snapshot.rematch is not None
        new_token = secrets.token_urlsafe(24)
        new_id = snapshot.rematch

        def change(new: Snapshot) -> tuple[Change, None]:
            if new.seats[seat].claimed:
                # Its token went to the first request; answering another would take the seat from whoever holds it.
                raise ApiError(409, "seat_taken", f"seat {seat} already has its place at the rematch {new.id}: "
                                                  "its token went to the first request for it")
            values = dict(claimed=True, token_hash=hash_token(new_token), name=snapshot.seats[seat].name,
                          account_id=snapshot.seats[seat].account_id)
            return self.committer.set_seat(new, seat, values, only_if_unclaimed=True), None

        live, _ = await self.write(new_id, change)
        return live.snapshot, seat, new_token


def _may_tie(snapshot: Snapshot, seat: int, account: str | None) -> bool:
    """Whether presenting ``seat``'s own token signed in as ``account`` ties the seat to it."""
    return (account is not None and snapshot.seats[seat].account_id is None
            and snapshot.status not in ("finished", "expired") and snapshot.seat_of_account(account) is None)


def _check_unseated(snapshot: Snapshot, account: str) -> None:
    """Refuse a second seat at one table for one account: its session opens its seat there by itself."""
    held = snapshot.seat_of_account(account)
    if held is not None:
        raise ApiError(409, "account_seated", f"your account already holds seat {held} at this table; "
                                              'claim another seat with "as_account": false')


def _new_seats(game: Game, seats: Sequence[Mapping[str, Any]]) -> tuple[list[Seat], dict[int, str]]:
    """The seats of a new table as ``seats`` asks for them, and the invite of each person's seat."""
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
    return rows, tokens
