"""Game records: the JSON file ``obelisk play`` writes and ``obelisk replay`` reads.

A record holds the game id, options, players, seed and every action with its
actor and label, plus the result. A game played with a secret seed also holds
the commitment published at its start and the salt that opens it
(``obelisk.core.seeds``); a fixed-seed game has ``null`` for both. Loading a
record checks the commitment and replays every action through the rules, so a
tampered or corrupt file is refused with the first thing that does not match.
Version 1 records (no commitment fields) are still read. Records before version 3
hold labels worded before players were counted from 1 ("seat 0 draws a card"):
their actions are checked by id and actor, their labels are not compared.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Mapping, Sequence

from obelisk.core import codec
from obelisk.core.datafiles import read_json
from obelisk.core.protocol import CHANCE, Game, IllegalActionError, State
from obelisk.core.registry import load
from obelisk.core.seeds import check_seed, verify

RECORD_FORMAT = "obelisk-record"
RECORD_VERSION = 3
RECORD_MAX_BYTES = 64_000_000
"""Far above the record of any real game (a few hundred kilobytes)."""
READABLE_VERSIONS = (1, 2, 3)
LABELLED_FROM = 3
"""The first version whose labels are today's wording, so compared with the rules'."""

_COMMITMENT = re.compile(r"sha256:[0-9a-f]{64}")


class RecordError(ValueError):
    """A record file that cannot be read or does not replay."""


def make_record(
    state: State,
    players: Sequence[Mapping[str, str]] | None = None,
    *,
    seed_commitment: str | None = None,
    seed_salt: str | None = None,
) -> dict[str, Any]:
    """The record of ``state``'s game so far; ``players`` gives each seat's name and kind.

    A game played with a secret seed passes the commitment it published and
    the salt; they must open to ``state.seed``.
    """
    game = state.game
    if not state.replayable:
        raise ValueError("a re-dealt state (from resample_from_infostate) has no record: it is not a game position")
    if players is None:
        players = [{"name": f"player {i + 1}", "kind": "unknown"} for i in range(game.num_players)]
    if len(players) != game.num_players:
        raise ValueError(f"{len(players)} player entries for {game.num_players} seats")
    if (seed_commitment is None) != (seed_salt is None):
        raise ValueError("seed_commitment and seed_salt go together: give both or neither")
    if seed_commitment is not None and not verify(state.seed, seed_salt, seed_commitment):
        raise ValueError("seed_commitment does not match the state's seed and seed_salt")
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
        "seed_commitment": seed_commitment,
        "seed_salt": seed_salt,
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


def read_record(path: str | Path) -> Any:
    """Read a record file; a file that cannot be read or is not sound JSON raises ``RecordError``."""
    try:
        return read_json(path, f"record {str(path)!r}", RECORD_MAX_BYTES)
    except ValueError as error:
        raise RecordError(str(error)) from None


def replay_record(doc: Any) -> tuple[Game, list[State]]:
    """Validate a record and return its game and every state from the first to the last.

    Every field a record carries is required (the commitment fields from
    version 2 on), so removing one is refused like changing it.
    """
    if not isinstance(doc, dict):
        raise RecordError("a record must be a JSON object")
    if doc.get("format") != RECORD_FORMAT:
        raise RecordError(f"not an {RECORD_FORMAT} file (format={codec.describe(doc.get('format'))})")
    version = doc.get("version")
    if not _is_int(version) or version not in READABLE_VERSIONS:
        raise RecordError(
            f"record version {codec.describe(version)} is not supported (expected one of {', '.join(map(str, READABLE_VERSIONS))})"
        )
    for key, kind in (("game", str), ("num_players", int), ("options", dict), ("seed", int), ("actions", list),
                      ("players", list), ("result", dict)):
        if not isinstance(doc.get(key), kind) or isinstance(doc.get(key), bool):
            raise RecordError(f"record field {key!r} is missing or not a {kind.__name__}")
    try:
        check_seed(doc["seed"])
    except ValueError as error:
        raise RecordError(f"record field 'seed': {error}") from None
    if version >= 2:
        _check_commitment(doc)
    try:
        game = load(doc["game"], doc["num_players"], **doc["options"])
    except ValueError as error:
        raise RecordError(f"record names a game that cannot be loaded: {error}") from None
    _check_players(doc["players"], game)
    state = game.new_initial_state(doc["seed"])
    states = [state.clone()]
    for index, entry in enumerate(doc["actions"]):
        if (not isinstance(entry, dict) or not _is_int(entry.get("id")) or not _is_int(entry.get("player"))
                or not isinstance(entry.get("label"), str)):
            raise RecordError(f"action #{index} is malformed (needs an integer id and player and a label): {codec.describe(entry)}")
        action = entry["id"]
        if entry["player"] != state.current_player():
            raise RecordError(
                f"action #{index}: record says player {codec.describe(entry['player'])} acted, the rules say "
                f"{'chance' if state.current_player() == CHANCE else state.current_player()}"
            )
        try:
            label = state.action_to_string(action)
            state.apply_action(action)
        except (IllegalActionError, ValueError) as error:
            raise RecordError(f"action #{index} ({codec.describe(action)}) does not replay: {error}") from None
        if version >= LABELLED_FROM and entry["label"] != label:
            raise RecordError(f"action #{index}: label {codec.describe(entry['label'])} does not match the rules' {label!r}")
        states.append(state.clone())
    if doc["result"] != json.loads(json.dumps(_result(state))):
        raise RecordError("the record's result does not match the result of replaying its actions")
    return game, states


def _check_commitment(doc: Mapping[str, Any]) -> None:
    for key in ("seed_commitment", "seed_salt"):
        if key not in doc:
            raise RecordError(f"record field {key!r} is missing (null for a fixed-seed game)")
    published, salt = doc["seed_commitment"], doc["seed_salt"]
    if published is None:
        if salt is not None:
            raise RecordError("record field 'seed_salt' must be null when 'seed_commitment' is null")
        return
    if not isinstance(published, str) or not _COMMITMENT.fullmatch(published):
        raise RecordError("record field 'seed_commitment' must be null or 'sha256:' and 64 hex digits")
    if not isinstance(salt, str):
        raise RecordError("record field 'seed_salt' must be a string when 'seed_commitment' is given")
    if not verify(doc["seed"], salt, published):
        raise RecordError("record field 'seed_commitment' does not match the record's seed and seed_salt")


def _check_players(players: list[Any], game: Game) -> None:
    if len(players) != game.num_players:
        raise RecordError("record field 'players' must list one entry per seat")
    for seat, entry in enumerate(players):
        if not isinstance(entry, dict) or not all(isinstance(entry.get(k), str) for k in ("name", "kind")):
            raise RecordError(f"record field 'players': entry {seat} must be an object with a string name and kind")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
