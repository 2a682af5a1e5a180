"""Ratings: what a finished table writes for the accounts seated at it, and how their ratings move.

When a move finishes a table, the same transaction that marks it finished calls :func:`record_finish`:
one :class:`~obelisk.server.store.ResultRow` per seat an account holds (rated table or not), with the
place the end screen shows (``State.outcome()``'s places, ties sharing the better place). At a rated
table every seat then takes part in one Weng–Lin update with openskill's ``PlackettLuce`` model:
accounts with their stored rating (a first game starts at the model's default), bots at the fixed
rating of their strength (:data:`BOT_RATINGS`) and people without an account at the newcomer's rating
(never stored). Only the accounts' ratings are written. A table's results are written once: a second
call for the same table finds them and changes nothing, and the results' primary key (table, seat)
refuses a second copy from any other process.

The rating shown everywhere is the conservative ordinal ``mu - 3 sigma``, rounded (:func:`shown`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Sequence

from openskill.models import PlackettLuce
from sqlalchemy import Connection, insert, select, update

from obelisk.bots import make_bot
from obelisk.bots.ismcts import ISMCTSBot
from obelisk.core import Game
from obelisk.server.store import RatingRow, ResultRow, SeatRow

MODEL = PlackettLuce()
"""The rating model: Weng–Lin's Bayesian approximation with the Plackett–Luce ranking (openskill's defaults:
mu 25, sigma 25/3, beta 25/6, tau 25/300)."""

NEWCOMER = (MODEL.mu, MODEL.sigma)
"""The rating of a person without an account, and of an account's first rated game in a game."""

BOT_SIGMA = 1.0
"""The uncertainty of every bot's fixed rating: a bot plays the same way every game, so a game against it
moves a person's rating by the person's own uncertainty, hardly the bot's."""

BOT_RATINGS: dict[str, tuple[float, float]] = {
    "random": (12.6, BOT_SIGMA),
    "easy": (25.0, BOT_SIGMA),
    "normal": (29.1, BOT_SIGMA),
    "strong": (32.8, BOT_SIGMA),
}
"""The fixed (mu, sigma) of each bot strength; docs/server.md ("Ratings") gives the reason for each value."""

NORMAL_ITERATIONS = 200
"""The largest iteration budget of a search bot rated as *normal* (the lobby's ``ismcts:200``)."""


def strength(spec: str, game: Game) -> str:
    """The strength a bot spec is rated at: ``random``; ``easy`` (greedy); ``normal`` (a search of at most
    :data:`NORMAL_ITERATIONS` iterations); ``strong`` (any longer search, or one budgeted in time)."""
    kind = spec.partition(":")[0].strip()
    if kind in ("random", "greedy"):
        return "random" if kind == "random" else "easy"
    bot = make_bot(spec, game, 0, 0)
    if isinstance(bot, ISMCTSBot) and bot.budget.iterations is not None \
            and bot.budget.iterations <= NORMAL_ITERATIONS:
        return "normal"
    return "strong"


def shown(mu: float, sigma: float) -> int:
    """The rating players see: the conservative ordinal ``mu - 3 sigma``, rounded to a whole number."""
    return round(mu - 3 * sigma)


def rate(ratings: Sequence[tuple[float, float]], places: Sequence[int]) -> list[tuple[float, float]]:
    """Everyone's (mu, sigma) after one game in which seat ``i`` with ``ratings[i]`` took ``places[i]``
    (1 is first; equal places are ties): openskill's own update, one team per seat."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    rated = MODEL.rate(teams, ranks=[float(place) for place in places])
    return [(team[0].mu, team[0].sigma) for team in rated]


@dataclass(frozen=True)
class Finish:
    """What a table's finish records: its places as the end screen shows them and who sat where.

    ``bots`` holds, per seat, the bot spec of a bot's own seat (``None`` for a person's seat, even while a
    bot plays it for them: that seat is the person's, rated as an account or as a newcomer).
    """

    table_id: str
    game: Game
    places: tuple[int, ...]
    bots: tuple[str | None, ...]
    rated: bool
    winners: frozenset[int] = frozenset()
    """The seats the game's outcome names as winners (first place is not always a win)."""


def record_finish(connection: Connection, finish: Finish, moment: datetime) -> None:
    """Write the results of a table that has just finished, and at a rated one move its accounts' ratings.

    Runs inside the transaction that marks the table finished. Idempotent: a table that has results
    already is left as it is (its accounts' ratings moved once, when they were written).
    """
    if connection.execute(select(ResultRow.seat).where(ResultRow.table_id == finish.table_id).limit(1)).first():
        return
    accounts: dict[int, str] = {seat: account for seat, account in connection.execute(
        select(SeatRow.seat, SeatRow.account_id).where(SeatRow.table_id == finish.table_id,
                                                       SeatRow.account_id.is_not(None))) if account is not None}
    if not accounts:
        return
    game_id = finish.game.id
    before: dict[int, tuple[float, float]] = {}
    after: dict[int, tuple[float, float]] = {}
    if finish.rated:
        stored = _ratings(connection, game_id, set(accounts.values()))
        before = {seat: stored.get(account, NEWCOMER) for seat, account in accounts.items()}
        everyone = [before[seat] if seat in before else _outsider(finish, seat) for seat in range(len(finish.places))]
        moved = rate(everyone, finish.places)
        after = {seat: moved[seat] for seat in accounts}
        _store_ratings(connection, game_id, accounts, after, set(stored), moment)
    connection.execute(insert(ResultRow), [
        dict(table_id=finish.table_id, seat=seat, account_id=account, game=game_id, players=len(finish.places),
             place=finish.places[seat], won=seat in finish.winners, rated=finish.rated,
             mu_before=before[seat][0] if finish.rated else None,
             sigma_before=before[seat][1] if finish.rated else None,
             mu_after=after[seat][0] if finish.rated else None,
             sigma_after=after[seat][1] if finish.rated else None,
             finished=moment)
        for seat, account in sorted(accounts.items())])


def _outsider(finish: Finish, seat: int) -> tuple[float, float]:
    """The fixed rating of a seat no account holds: its bot's strength, or the newcomer's for a person."""
    spec = finish.bots[seat]
    return NEWCOMER if spec is None else BOT_RATINGS[strength(spec, finish.game)]


def _ratings(connection: Connection, game: str, accounts: set[str]) -> dict[str, tuple[float, float]]:
    """The stored ratings of ``accounts`` in ``game``, locked until the transaction ends (PostgreSQL), so two
    tables finishing at once in two processes cannot both start from the same rating."""
    rows = connection.execute(select(RatingRow.account_id, RatingRow.mu, RatingRow.sigma)
                              .where(RatingRow.game == game, RatingRow.account_id.in_(accounts))
                              .with_for_update())
    return {account: (mu, sigma) for account, mu, sigma in rows}


def _store_ratings(connection: Connection, game: str, accounts: dict[int, str],
                   after: dict[int, tuple[float, float]], known: set[str], moment: datetime) -> None:
    for seat, account in accounts.items():
        mu, sigma = after[seat]
        if account in known:
            connection.execute(update(RatingRow).where(RatingRow.account_id == account, RatingRow.game == game)
                               .values(mu=mu, sigma=sigma, games=RatingRow.games + 1, updated=moment))
        else:
            connection.execute(insert(RatingRow).values(account_id=account, game=game, mu=mu, sigma=sigma, games=1,
                                                        updated=moment))
            known.add(account)


def finish_of(table_id: str, game: Game, state: Any, seats: Sequence[Any], rated: bool) -> Finish:
    """The :class:`Finish` of a table whose ``state`` is over: the places of its outcome (what the end screen
    shows) and the spec of each bot's own seat."""
    outcome = state.outcome()
    bots = tuple(seat.bot if seat.kind == "bot" and not seat.human else None for seat in seats)
    return Finish(table_id, game, tuple(outcome["places"]), bots, rated, frozenset(outcome["winners"]))
