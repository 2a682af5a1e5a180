"""The HTTP transport: the API's routes, the board files, the message catalogs and the pages.

Each route parses what it is sent (``guards.py``), asks the tables' authority (``tables.py``) and
answers the view built for whoever asks (``views.py``): a route holds no rule of its own. The API
surface (paths, bodies, answers, error codes) is the contract in docs/server.md.
"""

from __future__ import annotations

import functools
import re
from typing import Any, Literal

from pydantic import Field
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Route
from starlette.websockets import WebSocket

from obelisk.core import codec, game_class
from obelisk.core import games as registered_games
from obelisk.core.i18n import DEFAULT_LANGUAGE, LANGUAGES, UI_DOMAIN, domain, language, messages, spoken_by_pages
from obelisk.server.accounts import account_of, account_routes, acting_account
from obelisk.server.chat import TableChat, channels_for
from obelisk.server.committer import BATCH_LIMIT
from obelisk.server.config import STATIC, ServerConfig
from obelisk.server.guards import Body, Json, checked_language, client_key, limited, parse, read_body, whole_number
from obelisk.server.standings import standing_routes
from obelisk.server.table import MAX_TURN_SECONDS, MIN_TURN_SECONDS, ApiError, file_option
from obelisk.server.tables import Tables
from obelisk.server.views import BOARDS, frame, record, replay_frame, summary

# ---- request bodies ---------------------------------------------------------------------------

class SeatSpec(Body):
    kind: Literal["human", "bot"]
    name: str | None = Field(default=None, max_length=200)
    bot: str | None = Field(default=None, max_length=128)


class CreateBody(Body):
    game: str = Field(max_length=32)
    players: int | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatSpec] | None = Field(default=None, max_length=16)
    public: bool = False
    turn_seconds: int | None = Field(default=None, ge=MIN_TURN_SECONDS, le=MAX_TURN_SECONDS)
    rated: bool = False
    """A rated table moves the ratings of the accounts seated at it when it finishes (default options only)."""


class ClaimBody(Body):
    token: str = Field(max_length=128)
    name: str | None = Field(default=None, max_length=200)
    """Without a name the seat keeps the one its creator gave, or none: pages then say "Player N" in their language."""
    as_account: bool = True
    """While signed in: claim the seat as the account (false: as before, by its token alone)."""


class JoinBody(Body):
    seat: int
    name: str | None = Field(default=None, max_length=200)
    as_account: bool = True


class MoveBody(Body):
    """One action (``action``) or a batch played in one go (``actions``: a shortcut's), never both."""

    version: int
    action: int | None = None
    actions: list[int] | None = Field(default=None, min_length=1, max_length=BATCH_LIMIT)

    def played(self) -> list[int]:
        """The actions to play, in order; a ``bad_request`` unless exactly one of the two fields is given."""
        if (self.action is None) == (self.actions is None):
            raise ApiError(400, "bad_request", 'a move gives either "action" or "actions"')
        return [self.action] if self.action is not None else list(self.actions or ())


class UndoBody(Body):
    version: int


class BotBody(Body):
    bot: str = Field(default="greedy", max_length=128)


class EmptyBody(Body):
    pass


class ChatBody(Body):
    """A chat line: its text and, for a spectator (no token), the name to write under."""

    text: str
    """Checked once trimmed (``chat.check_text``): one too long is refused saying how long it is."""
    name: str | None = Field(default=None, max_length=200)



def _token(request: Request) -> str | None:
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip() or len(token) > 128:
        raise ApiError(403, "bad_token", "the Authorization header must be 'Bearer <seat token>'")
    return token.strip()


_body = read_body


async def _account_id(request: Request) -> str | None:
    """The signed-in account's id for what a request reads (a change asks :func:`acting_account`)."""
    account = await account_of(request)
    return account.id if account is not None else None


def _tables(request: Request | WebSocket) -> Tables:
    return request.app.state.tables



def _table_id(request: Request | WebSocket) -> str:
    return request.path_params["table_id"]



def _lang(request: Request) -> str:
    """The language of ``?lang=`` (English without one): what the texts of the answer are worded in."""
    return checked_language(request.query_params.get("lang", DEFAULT_LANGUAGE))



def _game_ids() -> set[str]:
    """The ids of the games the server offers."""
    return {game.id for game in registered_games()}


def _seat_param(request: Request) -> int:
    seat = whole_number(request.path_params["seat"], 3)
    if seat is None:
        raise ApiError(400, "bad_request", "seat must be a seat number")
    return seat


# ---- HTTP endpoints ---------------------------------------------------------------------------

async def list_games(request: Request) -> Response:
    """The games and the options a table may set (not those naming files on the server), their names,
    descriptions and option texts (labels, value names and explanations, units) in ``?lang=``: each game's
    catalog names them as terms (``game``, ``option``)."""
    lang = _lang(request)
    listed = []
    with language(lang):
        for game in registered_games():
            tr = domain(game.id)
            doc = game.to_dict()
            doc["name"] = tr.term("game", game.name)
            doc["description"] = tr.term("game", game.description) if game.description else game.description
            doc["options"] = [option.to_dict(functools.partial(tr.term, "option"))
                              for option in game.options if not file_option(option)]
            listed.append(doc)
    return Json(listed)


async def create_table(request: Request) -> Response:
    limited(request)
    lang = _lang(request)
    body: CreateBody = await _body(request, CreateBody)
    known = _game_ids()
    if body.game not in known:
        raise ApiError(400, "bad_request", f"unknown game {body.game!r}; known games: {', '.join(sorted(known))}")
    seats = [s.model_dump() for s in body.seats] if body.seats is not None else None
    config: ServerConfig = request.app.state.config
    snapshot, tokens = await _tables(request).create(body.game, body.players, body.options, seats, body.public,
                                                     body.turn_seconds, client_key(request), config.max_waiting,
                                                     body.rated)
    with language(lang):
        described = summary(snapshot)
    return Json({
        "table": described,
        "tokens": {str(seat): token for seat, token in tokens.items()},
        "invite_urls": {str(seat): f"/table/{snapshot.id}#token={token}" for seat, token in tokens.items()},
        "spectator_url": f"/table/{snapshot.id}",
    }, status_code=201)


async def list_tables(request: Request) -> Response:
    status = request.query_params.get("status")
    if status not in (None, "waiting", "playing", "finished"):
        raise ApiError(400, "bad_request", "status must be waiting, playing or finished")
    lang = _lang(request)
    tables = _tables(request)
    snaps = await tables.list(status)
    with language(lang):
        return Json({"tables": [summary(s) for s in snaps]})


async def get_table(request: Request) -> Response:
    lang = _lang(request)
    tables = _tables(request)
    live = await tables.get(_table_id(request), fresh=True)
    with language(lang):
        return Json(summary(live.snapshot, tables.connected(live)))


async def claim_seat(request: Request) -> Response:
    limited(request)
    body: ClaimBody = await _body(request, ClaimBody)
    account = await acting_account(request)
    seat, token = await _tables(request).claim(_table_id(request), body.token, body.name,
                                               account if body.as_account else None)
    return Json({"seat": seat, "token": token})


async def join_seat(request: Request) -> Response:
    limited(request)
    body: JoinBody = await _body(request, JoinBody)
    account = await acting_account(request)
    token = await _tables(request).join(_table_id(request), body.seat, body.name, account if body.as_account else None)
    return Json({"seat": body.seat, "token": token, "url": f"/table/{_table_id(request)}#token={token}"})


async def get_frame(request: Request) -> Response:
    lang = _lang(request)
    tables = _tables(request)
    live = await tables.get(_table_id(request), fresh=True)
    snapshot = live.snapshot
    seat = snapshot.seat_of(_token(request), await _account_id(request))
    return Json(frame(snapshot, seat, tables.connected(live), lang=lang))


async def post_move(request: Request) -> Response:
    limited(request)
    token = _token(request)
    body: MoveBody = await _body(request, MoveBody)
    version = await _tables(request).move(_table_id(request), token, body.version, body.played(),
                                          await acting_account(request))
    return Json({"version": version})


async def post_undo(request: Request) -> Response:
    limited(request)
    token = _token(request)
    body: UndoBody = await _body(request, UndoBody)
    version = await _tables(request).undo(_table_id(request), token, body.version, await acting_account(request))
    return Json({"version": version})


async def get_record(request: Request) -> Response:
    return Json(record(await _tables(request).snapshot(_table_id(request))))


def _number(request: Request, name: str) -> int | None:
    """A whole-number query parameter, None when it is absent."""
    raw = request.query_params.get(name)
    if raw is None:
        return None
    number = whole_number(raw, 6)
    if number is None:
        raise ApiError(400, "bad_request", f"{name} must be a whole number")
    return number


async def get_replay(request: Request) -> Response:
    """A finished table at a step, from any seat's view (``?seat=i|spectator&step=n``)."""
    seat = None if request.query_params.get("seat", "spectator") == "spectator" else _number(request, "seat")
    snapshot = await _tables(request).snapshot(_table_id(request))
    return Json(replay_frame(snapshot, seat, _number(request, "step"), _lang(request)))


def _chat(request: Request) -> TableChat:
    return request.app.state.chat


async def get_chat(request: Request) -> Response:
    """The newest chat lines the caller may read: a seat's token (Bearer) reads the players' channel, no token
    both; once the game is finished everyone reads both."""
    snapshot, seat, lines = await _chat(request).read(_table_id(request), _token(request), await _account_id(request))
    return Json({"seat": seat, "channels": list(channels_for(seat, snapshot.status)),
                 "lines": [line.as_dict() for line in lines]})


async def post_chat(request: Request) -> Response:
    """Write a chat line: with a seat's token (Bearer) in the players' channel, without one as a spectator."""
    limited(request)
    token = _token(request)
    body: ChatBody = await _body(request, ChatBody)
    line = await _chat(request).say(_table_id(request), token, body.text, body.name, client_key(request),
                                    await acting_account(request))
    return Json({"line": line.as_dict()}, status_code=201)


async def post_rematch(request: Request) -> Response:
    limited(request)
    token = _token(request)
    await _body(request, EmptyBody)
    snapshot, seat, new_token = await _tables(request).rematch(_table_id(request), token, await acting_account(request))
    return Json({"table": summary(snapshot), "seat": seat, "token": new_token,
                 "url": f"/table/{snapshot.id}#token={new_token}"})


async def seat_to_bot(request: Request) -> Response:
    limited(request)
    token = _token(request)
    body: BotBody = await _body(request, BotBody)
    tables = _tables(request)
    await tables.hand_to_bot(_table_id(request), _seat_param(request), token, body.bot, await acting_account(request))
    return Json(summary(await tables.snapshot(_table_id(request))))


async def seat_to_human(request: Request) -> Response:
    limited(request)
    token = _token(request)
    await _body(request, EmptyBody)
    tables = _tables(request)
    await tables.take_back(_table_id(request), _seat_param(request), token, await acting_account(request))
    return Json(summary(await tables.snapshot(_table_id(request))))


_BOARD_FILE = re.compile(r"[a-z][a-z0-9_-]{0,40}\.(js|css)")
_MEDIA = {"js": "text/javascript", "css": "text/css"}


async def board_file(request: Request) -> Response:
    """A game's board script or style, from its own folder (``obelisk/games/<id>/web/``)."""
    game, name = request.path_params["game"], request.path_params["name"]
    if game not in _game_ids() or not _BOARD_FILE.fullmatch(name):
        raise ApiError(404, "not_found", "no such board file")
    path = BOARDS / game / "web" / name
    if not path.is_file():
        raise ApiError(404, "not_found", "no such board file")
    return FileResponse(path, media_type=_MEDIA[name.rsplit(".", 1)[1]])


@functools.cache
def _browser_speech() -> tuple[frozenset[str], frozenset[str]]:
    """The message ids and term kinds the pages and the boards use: all a browser's catalogs need to hold."""
    return spoken_by_pages([*STATIC.glob("*.html"), *STATIC.glob("*.js"), *BOARDS.glob("*/web/*.js")])


async def get_messages(request: Request) -> Response:
    """The Czech (or English: empty) catalog of the pages (``obelisk``) or of one game, for the browser: only what
    the pages and boards say themselves, since the view, the labels, the log and the help come worded from the
    server (the rest would only weigh on every page load)."""
    lang, name = request.path_params["lang"], request.path_params["domain"]
    if lang not in LANGUAGES:
        raise ApiError(404, "not_found", f"no such language; choose one of: {', '.join(LANGUAGES)}")
    if name != UI_DOMAIN and name not in _game_ids():
        raise ApiError(404, "not_found", "no such message domain")
    return Json(messages(name, lang, *_browser_speech()), headers={"Cache-Control": "max-age=300"})


async def get_health(request: Request) -> Response:
    """200 while this process's bots can decide, 503 with the reason while they cannot (docs/server.md)."""
    health = _tables(request).bots.health()
    return Json(health.as_dict(), status_code=200 if health.ok else 503, headers={"Cache-Control": "no-store"})


async def get_help(request: Request) -> Response:
    """A game's rules summary, first-game guide and component glossary (``Game.help()``), in ``?lang=``
    (English by default): what a page shows in its rules panel and when a component is tapped."""
    game = request.path_params["game"]
    if game not in _game_ids():
        raise ApiError(404, "not_found", "no such game")
    lang = _lang(request)
    with language(lang):
        help_ = game_class(game)().help()
        doc = help_.as_dict()
    return Json(doc, headers={"Cache-Control": "max-age=300"})


async def favicon(request: Request) -> Response:
    """The pages' icon, also where browsers look for one by themselves (``/favicon.ico``)."""
    path = request.app.state.config.static / "favicon.svg"
    if not path.is_file():
        raise ApiError(404, "not_found", "the icon is not installed")
    return FileResponse(path, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})


def _page(name: str) -> Any:
    async def page(request: Request) -> Response:
        path = request.app.state.config.static / name
        if not path.is_file():
            raise ApiError(404, "not_found", f"the page {name} is not installed")
        return FileResponse(path, media_type="text/html")
    return page



def http_routes() -> list[Route]:
    """Every HTTP route but the static files (mounted by the application from its configured folder)."""
    return [
        Route("/api/games", list_games),
        Route("/api/health", get_health),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables/{table_id}", get_table),
        Route("/api/tables/{table_id}/claim", claim_seat, methods=["POST"]),
        Route("/api/tables/{table_id}/join", join_seat, methods=["POST"]),
        Route("/api/tables/{table_id}/frame", get_frame),
        Route("/api/tables/{table_id}/moves", post_move, methods=["POST"]),
        Route("/api/tables/{table_id}/undo", post_undo, methods=["POST"]),
        Route("/api/tables/{table_id}/record", get_record),
        Route("/api/tables/{table_id}/replay", get_replay),
        Route("/api/tables/{table_id}/rematch", post_rematch, methods=["POST"]),
        Route("/api/tables/{table_id}/chat", get_chat, methods=["GET"]),
        Route("/api/tables/{table_id}/chat", post_chat, methods=["POST"]),
        Route("/api/tables/{table_id}/seats/{seat}/bot", seat_to_bot, methods=["POST"]),
        Route("/api/tables/{table_id}/seats/{seat}/human", seat_to_human, methods=["POST"]),
        Route("/api/messages/{lang}/{domain}", get_messages),
        Route("/api/games/{game}/help", get_help),
        Route("/games/{game}/{name}", board_file),
        Route("/favicon.ico", favicon),
        Route("/", _page("lobby.html")),
        Route("/table/{table_id}", _page("table.html")),
        Route("/table/{table_id}/replay", _page("replay.html")),
        *account_routes(_page),
        *standing_routes(_page),
    ]
