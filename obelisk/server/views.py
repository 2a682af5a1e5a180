"""What a seat or a spectator receives: the one path from a table's state to a frame, a log, a reveal.

Hidden information is kept from a seat by building everything it is sent here, from
``State.observation(seat)``, the seat's own legal actions (only while it is to act) and the log
lines each viewer was given when the move was made (``State.public_action_string``). Nothing else
of the state leaves the server: the HTTP routes and the websockets send these dictionaries as they
are. The seed and its salt are revealed only once the game is finished, when they prove the
commitment every summary carried from the start (the record, the replay).
"""

from __future__ import annotations

import bisect
import functools
from datetime import datetime
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from obelisk.core import CHANCE, Game, State
from obelisk.core import i18n
from obelisk.core.records import make_record
from obelisk.core import previews
from obelisk.core.shortcuts import offered
from obelisk.server.store import aware
from obelisk.server.table import ApiError, LogEntry, Snapshot


def _stamp(moment: datetime) -> str:
    return aware(moment).isoformat(timespec="seconds")


BOARDS = Path(__file__).resolve().parent.parent / "games"


@functools.cache
def board_script(game: str) -> str | None:
    """Where the browser loads a game's board (``obelisk/games/<id>/web/board.js``), or ``None``: the text view."""
    return f"/games/{game}/board.js" if (BOARDS / game / "web" / "board.js").is_file() else None


def summary(snapshot: Snapshot, connected: Iterable[int] = ()) -> dict[str, Any]:
    """The public description of a table: no tokens, no seed; the game's name in the active language."""
    online = set(connected)
    return {
        "id": snapshot.id,
        "game": snapshot.game.id,
        "game_name": i18n.domain(snapshot.game.id).term("game", snapshot.game.info.name),
        "board": board_script(snapshot.game.id),
        "players": snapshot.game.num_players,
        "options": dict(snapshot.options),
        "seats": [
            {
                "seat": s.seat,
                "kind": s.kind,
                "name": s.name,
                "bot": s.bot,
                "claimed": s.claimed,
                "connected": s.seat in online,
                "human": s.human,
                "timed_out": snapshot.timed_out(s.seat),
            }
            for s in snapshot.seats
        ],
        "status": snapshot.status,
        "version": snapshot.version,
        "to_act": snapshot.to_act,
        "commitment": snapshot.commitment,
        "public": snapshot.public,
        "rated": snapshot.rated,
        "created": _stamp(snapshot.created),
        "updated": _stamp(snapshot.updated),
        "turn_seconds": snapshot.turn_seconds,
        "turn_started": _stamp(snapshot.turn_started),
        "rematch": snapshot.rematch,
        "rematch_of": snapshot.rematch_of,
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


def frame(snapshot: Snapshot, seat: int | None, connected: Iterable[int] = (), sent: int = 0,
          lang: str | None = None) -> dict[str, Any]:
    """Everything ``seat`` (``None``: a spectator) may see of the table now, worded in ``lang`` (by default
    the active language).

    ``sent`` is the version this client was last sent (0: none): ``log`` holds the entries from seq
    ``log_from`` on, which the client puts in place of its own from there, so a websocket sends each
    entry once and an undo takes the moves it undid off every client's log.
    """
    lang = lang or i18n.current_language()
    with i18n.language(lang):
        return _frame(snapshot, seat, connected, sent, lang)


def _frame(snapshot: Snapshot, seat: int | None, connected: Iterable[int], sent: int, lang: str) -> dict[str, Any]:
    state = snapshot.state
    view = state.observation(seat)
    viewer = snapshot.game.num_players if seat is None else seat
    legal: list[list[Any]] = []
    shortcuts: list[dict[str, Any]] = []
    shown: list[dict[str, Any]] = []
    if seat is not None and snapshot.to_act == seat and snapshot.seats[seat].kind == "human":
        finals = snapshot.finals
        legal = [[a, state.action_to_string(a), *snapshot.game.action_range(a), finals[a]]
                 for a in state.legal_actions()]
        shortcuts = [shortcut.to_dict() for shortcut in offered(state, seat)]
        shown = [preview.to_dict() for preview in previews.offered(state, seat)]
    finished = snapshot.status == "finished"
    log_from = snapshot.log_start(sent)
    return {
        "table": summary(snapshot, connected),
        "seat": seat,
        "version": snapshot.version,
        "view": view,
        "text": snapshot.game.render_observation(view),
        "legal": legal,
        "shortcuts": shortcuts,
        "previews": shown,
        "decision": decision(snapshot.game, view, snapshot.to_act),
        "progress": snapshot.game.render_progress(view),
        "undo": 0 if seat is None else snapshot.undo_points(seat),
        "log": _log_view(snapshot.log[bisect.bisect_left(snapshot.log, log_from, key=lambda e: e.seq):], viewer, lang),
        "log_from": log_from,
        "status": snapshot.status,
        "result": result(snapshot.game, state) if finished else None,
        "reveal": {"seed": snapshot.seed, "salt": snapshot.salt} if finished else None,
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


def replay_frame(snapshot: Snapshot, seat: int | None, step: int | None, lang: str | None = None) -> dict[str, Any]:
    """A finished table after its first ``step`` moves (None: all of them) as ``seat`` saw it then, worded in
    ``lang`` (by default the active language).

    Once the game is over its whole record is public, so any seat's view may be asked for. The answer is
    shaped like a frame (``version`` is the step, ``legal`` is empty, the log's ``seq`` counts steps) so the
    page draws it the same way; ``turns`` lists :func:`turn_starts`.
    """
    if snapshot.status != "finished":
        raise ApiError(409, "not_finished", "a table is replayed once its game is finished")
    history = snapshot.state.history()
    step = len(history) if step is None else step
    if not 0 <= step <= len(history):
        raise ApiError(400, "bad_request", f"step must be 0 to {len(history)}")
    if seat is not None and not 0 <= seat < snapshot.game.num_players:
        raise ApiError(400, "bad_request", f"seat must be 0 to {snapshot.game.num_players - 1} or 'spectator'")
    lang = lang or i18n.current_language()
    with i18n.language(lang):
        replayed = snapshot.game.replay(snapshot.seed, history[:step])
        return _replay_frame(snapshot, seat, step, len(history), replayed, lang)


def _replay_frame(snapshot: Snapshot, seat: int | None, step: int, steps: int, state: State, lang: str
                  ) -> dict[str, Any]:
    view = state.observation(seat)
    viewer = snapshot.game.num_players if seat is None else seat
    acting = state.current_player()
    return {
        "table": summary(snapshot),
        "seat": seat,
        "version": step,
        "step": step,
        "steps": steps,
        "turns": turn_starts(snapshot.log),
        "to_act": acting if acting >= 0 else None,
        "view": view,
        "text": snapshot.game.render_observation(view),
        "legal": [],
        "shortcuts": [],
        "previews": [],
        "decision": decision(snapshot.game, view, acting if acting >= 0 else None),
        "progress": snapshot.game.render_progress(view),
        "undo": 0,
        "log": [{"seq": i, "actor": e.actor, "text": e.texts[lang][viewer]} for i, e in enumerate(snapshot.log[:step])],
        "log_from": 0,
        "status": snapshot.status,
        "result": result(snapshot.game, snapshot.state),
        "reveal": {"seed": snapshot.seed, "salt": snapshot.salt},
    }


def record(snapshot: Snapshot) -> dict[str, Any]:
    """The standard game record of a finished table, with the commitment and salt that prove its seed."""
    if snapshot.status != "finished":
        raise ApiError(409, "not_finished", "the record is published when the game is finished")
    players = [{"name": s.name or f"player {s.seat + 1}", "kind": s.kind if s.kind == "human" else str(s.bot)}
               for s in snapshot.seats]
    doc = make_record(snapshot.state, players)
    doc["seed_commitment"] = snapshot.commitment
    doc["seed_salt"] = snapshot.salt
    doc["table"] = snapshot.id
    return doc

