"""Game records: the JSON file ``obelisk play --save`` writes and ``obelisk replay`` reads.

A record holds the game id, options, players, seed and every action with its
label, plus the result. Loading a record replays it through the rules, so a
tampered or corrupt file is refused with the first thing that does not match.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping, Sequence

from obelisk.core.protocol import CHANCE, Game, IllegalActionError, State
from obelisk.core.registry import load

RECORD_FORMAT = "obelisk-record"
RECORD_VERSION = 1


class RecordError(ValueError):
    """A record file that cannot be read or does not replay."""


def make_record(state: State, players: Sequence[Mapping[str, str]] | None = None) -> dict[str, Any]:
    """The record of ``state``'s game so far; ``players`` gives each seat's name and kind."""
    game = state.game
    if not state.replayable:
        raise ValueError("a re-dealt state (from resample_from_infostate) has no record: it is not a game position")
    if players is None:
        players = [{"name": f"seat {i}", "kind": "unknown"} for i in range(game.num_players)]
    if len(players) != game.num_players:
        raise ValueError(f"{len(players)} player entries for {game.num_players} seats")
    replayed = game.new_initial_state(state.seed)
    actions = []
    for action in state.history():
        actor = replayed.current_player()
        actions.append({"id": action, "player": actor, "label": replayed.action_to_string(action)})
        replayed.apply_action(action)
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "game": game.id,
        "players": [dict(p) for p in players],
        "num_players": game.num_players,
        "options": dict(game.options),
        "seed": state.seed,
        "actions": actions,
        "result": _result(replayed),
    }


def _result(state: State) -> dict[str, Any]:
    return {
        "terminal": state.is_terminal(),
        "returns": state.returns(),
        "scores": state.scores(),
    }


def save_record(record: Mapping[str, Any], path: str | Path) -> None:
    Path(path).write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def read_record(path: str | Path) -> dict[str, Any]:
    """Read a record file; unreadable or non-JSON files raise ``RecordError``."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise RecordError(f"cannot read record {str(path)!r}: {error}") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"record {str(path)!r} is not valid JSON: {error}") from None
    return doc


def replay_record(doc: Any) -> tuple[Game, list[State]]:
    """Validate a record and return its game and every state from the first to the last."""
    if not isinstance(doc, dict):
        raise RecordError("a record must be a JSON object")
    if doc.get("format") != RECORD_FORMAT:
        raise RecordError(f"not an {RECORD_FORMAT} file (format={doc.get('format')!r})")
    if doc.get("version") != RECORD_VERSION:
        raise RecordError(f"record version {doc.get('version')!r} is not supported (expected {RECORD_VERSION})")
    for key, kind in (("game", str), ("num_players", int), ("options", dict), ("seed", int), ("actions", list)):
        if not isinstance(doc.get(key), kind) or isinstance(doc.get(key), bool):
            raise RecordError(f"record field {key!r} is missing or not a {kind.__name__}")
    try:
        game = load(doc["game"], doc["num_players"], **doc["options"])
    except ValueError as error:
        raise RecordError(f"record names a game that cannot be loaded: {error}") from None
    state = game.new_initial_state(doc["seed"])
    states = [state.clone()]
    for index, entry in enumerate(doc["actions"]):
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), int) or isinstance(entry.get("id"), bool):
            raise RecordError(f"action #{index} is malformed: {entry!r}")
        action = entry["id"]
        if "player" in entry and entry["player"] != state.current_player():
            raise RecordError(
                f"action #{index}: record says player {entry['player']!r} acted, the rules say "
                f"{'chance' if state.current_player() == CHANCE else state.current_player()}"
            )
        try:
            label = state.action_to_string(action)
            state.apply_action(action)
        except (IllegalActionError, ValueError) as error:
            raise RecordError(f"action #{index} ({action}) does not replay: {error}") from None
        if "label" in entry and entry["label"] != label:
            raise RecordError(f"action #{index}: label {entry['label']!r} does not match the rules' {label!r}")
        states.append(state.clone())
    recorded = doc.get("result")
    if recorded is not None and recorded != json.loads(json.dumps(_result(state))):
        raise RecordError("the record's result does not match the result of replaying its actions")
    players = doc.get("players")
    if players is not None and (not isinstance(players, list) or len(players) != game.num_players):
        raise RecordError("record field 'players' must list one entry per seat")
    return game, states
