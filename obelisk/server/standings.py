"""Standings: the leaderboard of each game and each player's public profile, read from the stored results.

Everything here is read from ``ratings`` and ``account_results`` (written by ``ratings.py`` when a table
finishes), so it holds only public facts: names, places, dates, ratings, and links to the replays of
finished tables. Never an account's id, e-mail address or anything of a table still in play.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from datetime import datetime
from typing import Any

import anyio
from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from obelisk.core import games as registered_games
from obelisk.core.i18n import DEFAULT_LANGUAGE, domain, language
from obelisk.server.accounts import name_key
from obelisk.server.guards import Json, checked_language
from obelisk.server.ratings import shown
from obelisk.server.store import AccountRow, RatingRow, ResultRow, aware
from obelisk.server.table import ApiError

LEADERBOARD_LENGTH = 100
"""The most accounts a leaderboard lists."""
RECENT_GAMES = 20
"""How many of a player's latest games the profile lists."""


def _game_names() -> dict[str, str]:
    """Each game's id and its name in the active language."""
    return {game.id: domain(game.id).term("game", game.name) for game in registered_games()}


def _stamp(moment: datetime) -> str:
    return aware(moment).isoformat(timespec="seconds")


def replay_url(table_id: str) -> str:
    """Where a finished table is replayed (the link the end screen gives)."""
    return f"/table/{table_id}/replay"


# ---- reading ------------------------------------------------------------------------------------

def leaderboard(engine: Engine, game: str) -> list[dict[str, Any]]:
    """The accounts with at least one rated game of ``game``, best displayed rating first (then more games,
    then name): their name, rating, rated games and rated wins (the game's winners, shared wins included)."""
    with Session(engine) as session:
        rows = session.execute(
            select(AccountRow.name, RatingRow.account_id, RatingRow.mu, RatingRow.sigma, RatingRow.games)
            .join(AccountRow, AccountRow.id == RatingRow.account_id)
            .where(RatingRow.game == game, RatingRow.games >= 1)).all()
        wins = dict(session.execute(
            select(ResultRow.account_id, func.count())
            .where(ResultRow.game == game, ResultRow.rated.is_(True), ResultRow.won.is_(True))
            .group_by(ResultRow.account_id)).all())
    ranked = sorted(((shown(mu, sigma), games, name, wins.get(account, 0)) for name, account, mu, sigma, games in rows),
                    key=lambda entry: (-entry[0], -entry[1], entry[2].casefold()))
    return [{"rank": index + 1, "name": name, "rating": rating, "games": games, "wins": won}
            for index, (rating, games, name, won) in enumerate(ranked[:LEADERBOARD_LENGTH])]


def profile(engine: Engine, name: str, names: dict[str, str]) -> dict[str, Any] | None:
    """The public profile of the account called ``name`` (any case), or None when there is none; ``names``
    are the games' names to show."""
    with Session(engine) as session:
        account = session.execute(select(AccountRow.id, AccountRow.name, AccountRow.created)
                                  .where(AccountRow.name_key == name_key(name))).one_or_none()
        if account is None:
            return None
        results = session.scalars(select(ResultRow).where(ResultRow.account_id == account.id)
                                  .order_by(ResultRow.finished.desc(), ResultRow.table_id)).all()
        ratings = {row.game: row for row in session.scalars(select(RatingRow)
                                                             .where(RatingRow.account_id == account.id))}
    return {
        "name": account.name,
        "since": _stamp(account.created),
        "games": _per_game(results, ratings, names),
        "recent": [_recent(result, names) for result in results[:RECENT_GAMES]],
    }


def _per_game(results: Any, ratings: dict[str, RatingRow], names: dict[str, str]) -> list[dict[str, Any]]:
    """Per game played: games, wins and average place over every finished table (rated or not), and the
    current rating with its rated games (``None`` before the first rated game)."""
    places: dict[str, list[int]] = defaultdict(list)
    wins: dict[str, int] = defaultdict(int)
    for result in results:
        places[result.game].append(result.place)
        wins[result.game] += bool(result.won)
    listed = []
    for game in sorted(places, key=lambda game: names.get(game, game)):
        rating = ratings.get(game)
        taken = places[game]
        listed.append({
            "game": game, "game_name": names.get(game, game), "games": len(taken),
            "wins": wins[game], "average_place": round(sum(taken) / len(taken), 2),
            "rating": shown(rating.mu, rating.sigma) if rating is not None else None,
            "rated_games": rating.games if rating is not None else 0,
        })
    return listed


def _recent(result: ResultRow, names: dict[str, str]) -> dict[str, Any]:
    """One finished table of the profile: when, which place of how many, and the displayed rating's change."""
    before = after = None
    if result.rated and result.mu_before is not None and result.mu_after is not None:
        before = shown(result.mu_before, result.sigma_before or 0.0)
        after = shown(result.mu_after, result.sigma_after or 0.0)
    return {
        "table": result.table_id, "game": result.game, "game_name": names.get(result.game, result.game),
        "finished": _stamp(result.finished), "place": result.place, "players": result.players,
        "rated": result.rated, "rating_before": before, "rating_after": after,
        "change": after - before if after is not None and before is not None else None,
        "replay_url": replay_url(result.table_id),
    }


# ---- HTTP -------------------------------------------------------------------------------------

def _engine(request: Request) -> Engine:
    return request.app.state.tables.engine


def _language(request: Request) -> str:
    return checked_language(request.query_params.get("lang", DEFAULT_LANGUAGE))


async def get_leaderboard(request: Request) -> Response:
    """``GET /api/ratings/{game}``: the game's leaderboard, its name in ``?lang=``."""
    game = request.path_params["game"]
    lang = _language(request)
    with language(lang):
        names = _game_names()
    if game not in names:
        raise ApiError(404, "not_found", f"no game {game!r}; known games: {', '.join(sorted(names))}")
    players = await anyio.to_thread.run_sync(leaderboard, _engine(request), game)
    return Json({"game": game, "game_name": names[game], "players": players})


async def get_profile(request: Request) -> Response:
    """``GET /api/players/{name}``: a player's statistics per game and latest games; 404 for an unknown name."""
    name = request.path_params["name"]
    lang = _language(request)
    if not 0 < len(name) <= 100:
        raise ApiError(404, "not_found", "no player has that name")
    with language(lang):
        names = _game_names()
    found = await anyio.to_thread.run_sync(profile, _engine(request), name, names)
    if found is None:
        raise ApiError(404, "not_found", f"no player is called {name!r}")
    return Json(found)


def standing_routes(page: Callable[[str], Any]) -> list[Route]:
    """The leaderboards' and profiles' API routes and pages (``page`` serves a static page, as for the others)."""
    return [
        Route("/api/ratings/{game}", get_leaderboard),
        Route("/api/players/{name}", get_profile),
        Route("/ratings/{game}", page("ratings.html")),
        Route("/players/{name}", page("player.html")),
    ]
