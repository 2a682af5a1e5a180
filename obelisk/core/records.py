"""Game records: the JSON file ``obelisk play`` writes and ``obelisk replay`` reads.

A record holds the game id, options, players, seed and every action with its
actor and label, plus the result. A game played with a secret seed also holds
the commitment published at its start and the salt that opens it
(``obelisk.core.seeds``); a fixed-seed game has ``null`` for both. Loading a
record checks the commitment and replays every action through the rules, so a
tampered or corrupt file is refused with the first thing that does not match.

A record is *verified* when it carries a commitment: the revealed seed and
salt open it, and every chance outcome is the one ``State.sample_chance()``
draws from that seed at that move (as the tables and ``obelisk play`` draw),
so nobody chose the draws. A record without a commitment (a fixed seed, for
practice and research) replays through the rules but proves nothing about its
draws: it is *not verified*. Version 1 records (no commitment fields) are
still read, and are never verified.

Labels are English whatever language the game was played in: a record is
written and checked in English, and shown in the reader's language from the
states it replays to. Records before version 4 hold labels worded before
today's wording (players counted from 1, the Tomb's entrances and inscriptions
named in words): their actions are checked by id and actor, their labels are
not compared.
"""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path
from typing import Any, Mapping, Sequence

from obelisk.core import codec, i18n
from obelisk.core.datafiles import read_json
from obelisk.core.protocol import CHANCE, TERMINAL, Game, IllegalActionError, State
from obelisk.core.registry import load
from obelisk.core.seeds import check_seed, verify

RECORD_FORMAT = "obelisk-record"
RECORD_VERSION = 4
RECORD_MAX_BYTES = 64_000_000
"""Far above the record of any real game (a few hundred kilobytes)."""
READABLE_VERSIONS = (1, 2, 3, 4)
COMMITMENT_VERSION = 2
"""The first version with the commitment fields: an older record that carries them was edited."""
LABELLED_FROM = 4
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
    the salt; they must open to ``state.seed``, and every chance outcome must
    be the one the seed draws (``State.sample_chance()``), or the record would
    claim a proof it does not hold: ``ValueError`` naming the first action that
    differs. Labels are written in English whatever the active language.
    """
    if not isinstance(state, State):
        raise ValueError(f"a record is made of a game's State, got {codec.describe(state)}")
    game = state.game
    if not state.replayable:
        raise ValueError("a re-dealt state (from resample_from_infostate) has no record: it is not a game position")
    if players is None:
        players = [{"name": f"player {i + 1}", "kind": "unknown"} for i in range(game.num_players)]
    entries = _player_entries(players, game)
    if (seed_commitment is None) != (seed_salt is None):
        raise ValueError("seed_commitment and seed_salt go together: give both or neither")
    if seed_commitment is not None and not verify(state.seed, seed_salt, seed_commitment):
        raise ValueError("seed_commitment does not match the state's seed and seed_salt")
    replayed = game.new_initial_state(state.seed)
    actions = []
    with i18n.language(i18n.DEFAULT_LANGUAGE):
        for index, action in enumerate(state.history()):
            actor = replayed.current_player()
            forged = _forged_draw(replayed, index, action) if seed_commitment is not None else None
            if forged is not None:
                raise ValueError(forged)
            actions.append({"id": action, "player": actor, "label": replayed.action_to_string(action)})
            replayed.apply_action(action)
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "game": game.id,
        "players": entries,
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
    """Write ``record`` as JSON to ``path``; a record ``replay_record`` refuses is refused the same way, unwritten.

    So no file is ever saved that would not load again (or that claims a
    proof it does not hold).
    """
    _check_path(path)
    _replayed(record, every_state=False)
    problem = _unwritable(record, "the record")
    if problem is not None:
        raise RecordError(f"cannot save: {problem}")
    Path(path).write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def _unwritable(value: Any, where: str) -> str | None:
    """Where ``value`` holds something a saved record could not hold and be read again (``codec.parse_json``'s
    guards), or None: an integer of more than ``codec.MAX_DIGITS`` digits, a float that is not finite, a key that
    is not a string, nesting deeper than ``codec.MAX_DEPTH``, or anything that is not JSON data."""
    pending = [(value, where, 0)]
    while pending:
        item, at, level = pending.pop()
        kind = type(item)
        if kind is int and (item.bit_length() > 4 * codec.MAX_DIGITS or len(str(abs(item))) > codec.MAX_DIGITS):
            return f"{at} is {codec.describe(item)}, longer than {codec.MAX_DIGITS} digits"
        if kind is float and not math.isfinite(item):
            return f"{at} is {item}, which JSON cannot carry"
        if kind in (list, tuple, dict) and level >= codec.MAX_DEPTH:
            return f"{at} is nested deeper than {codec.MAX_DEPTH} levels"
        if kind is dict:
            for key, child in item.items():
                if type(key) is not str:
                    return f"{at} has the key {codec.describe(key)}, not a string"
                pending.append((child, f"{at}[{key!r}]" if len(key) <= 40 else f"{at}[...]", level + 1))
        elif kind in (list, tuple):
            pending.extend((child, f"{at}[{n}]", level + 1) for n, child in enumerate(item))
        elif kind not in (str, int, float, bool, type(None)):
            return f"{at} is {codec.describe(item)}, not JSON data"
    return None


def read_record(path: str | Path) -> Any:
    """Read a record file; a file that cannot be read or is not sound JSON raises ``RecordError``."""
    _check_path(path)
    text = str(path)
    shown = repr(text) if len(text) <= _PATH_SHOWN else repr(text[:_PATH_SHOWN]) + "..."
    try:
        return read_json(path, f"record {shown}", RECORD_MAX_BYTES)
    except ValueError as error:
        raise RecordError(str(error)) from None


_PATH_SHOWN = 200
"""The most characters of a record's path an error message shows."""


def _check_path(path: Any) -> None:
    if not isinstance(path, (str, os.PathLike)):
        raise RecordError(f"a record's path must be a string or a path, got {codec.describe(path)}")


def replay_record(doc: Any) -> tuple[Game, list[State]]:
    """Validate a record and return its game and every state from the first to the last.

    Every field a record carries is required (the commitment fields from
    version 2 on, and only there), so removing one is refused like changing
    it. A record with a commitment has its chance outcomes checked against the
    seed's draws (see the module's docstring); :func:`verified_commitment`
    tells a caller whether the record it replayed was verified.
    """
    return _replayed(doc, every_state=True)


def _replayed(doc: Any, every_state: bool) -> tuple[Game, list[State]]:
    """``replay_record``, keeping every state or (for a check alone, with no copy per step) the last one."""
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
    if version >= COMMITMENT_VERSION:
        _check_commitment(doc)
    else:
        _check_no_commitment(doc, version)
    verifying = verified_commitment(doc) is not None
    try:
        game = load(doc["game"], doc["num_players"], **doc["options"])
    except ValueError as error:
        raise RecordError(f"record names a game that cannot be loaded: {error}") from None
    _check_players(doc["players"], game)
    with i18n.language(i18n.DEFAULT_LANGUAGE):
        states = _replay_actions(game, doc, verifying, every_state)
    if doc["result"] != json.loads(json.dumps(_result(states[-1]))):
        raise RecordError("the record's result does not match the result of replaying its actions")
    return game, states


def verified_commitment(doc: Mapping[str, Any]) -> str | None:
    """The commitment a record proves its seed and draws against, or None when it proves nothing.

    Read it only of a record :func:`replay_record` accepted: that call refused
    the record unless the commitment opens to the seed and every draw is the
    seed's. None for a fixed-seed record and for version 1 (which has no
    commitment): such a record is *not verified*.
    """
    version = doc.get("version") if isinstance(doc, Mapping) else None
    if type(version) is not int or version < COMMITMENT_VERSION:
        return None
    published = doc.get("seed_commitment")
    return published if isinstance(published, str) else None


def _replay_actions(game: Game, doc: Mapping[str, Any], verifying: bool, every_state: bool) -> list[State]:
    """Every state of the record's game (or, not ``every_state``, the last), each action checked against the rules
    (and, ``verifying``, the seed's draws)."""
    state = game.new_initial_state(doc["seed"])
    states = [state.clone() if every_state else state]
    for index, entry in enumerate(doc["actions"]):
        if (not isinstance(entry, dict) or not _is_int(entry.get("id")) or not _is_int(entry.get("player"))
                or not isinstance(entry.get("label"), str)):
            raise RecordError(f"action #{index} is malformed (needs an integer id and player and a label): {codec.describe(entry)}")
        action = entry["id"]
        actor = state.current_player()
        if entry["player"] != actor:
            said = "chance" if actor == CHANCE else actor
            rules = "the game is over" if actor == TERMINAL else f"the rules say {said}"
            raise RecordError(f"action #{index}: record says player {codec.describe(entry['player'])} acted, {rules}")
        try:
            label = state.action_to_string(action)
            forged = _forged_draw(state, index, action) if verifying else None
            state.apply_action(action)
        except (IllegalActionError, ValueError) as error:
            raise RecordError(f"action #{index} ({codec.describe(action)}) does not replay: {error}") from None
        if doc["version"] >= LABELLED_FROM and entry["label"] != label:
            raise RecordError(f"action #{index}: label {codec.describe(entry['label'])} does not match the rules' {label!r}")
        if forged is not None:
            raise RecordError(forged)
        if every_state:
            states.append(state.clone())
    return states


def _forged_draw(state: State, index: int, action: int) -> str | None:
    """Why ``action``, the ``index``-th, is not the chance outcome the seed draws at ``state``; None if it is (or
    ``state`` is no chance node).

    The draw is ``State.sample_chance()``, as the tables and ``obelisk play``
    draw: it depends only on the seed and the move number, and a step's move
    number is its place in the history. An undo takes back decisions, never a
    draw, so every draw kept in a game with undos keeps its place too.
    """
    if state.current_player() != CHANCE:
        return None
    drawn = state.sample_chance()
    if drawn == action:
        return None
    return (f"action #{index}: chance outcome {action} ({codec.describe(state.action_to_string(action))}) is not "
            f"the one the committed seed draws there, {drawn} ({codec.describe(state.action_to_string(drawn))})")


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


def _check_no_commitment(doc: Mapping[str, Any], version: int) -> None:
    """Refuse a record older than the commitment fields that carries them: it was edited to look verified."""
    for key in ("seed_commitment", "seed_salt"):
        if key in doc:
            raise RecordError(f"a version {version} record cannot carry a seed commitment: field {key!r} "
                              f"came with version {COMMITMENT_VERSION}")


def _check_players(players: list[Any], game: Game) -> None:
    try:
        _player_entries(players, game, "record field 'players'")
    except ValueError as error:
        raise RecordError(str(error)) from None


def _player_entries(players: Any, game: Game, what: str = "players") -> list[dict[str, Any]]:
    """Copies of the entries of ``players`` if there is one per seat, each with a string name and kind; else a
    ``ValueError`` starting with ``what``."""
    if not isinstance(players, (list, tuple)) or len(players) != game.num_players:
        raise ValueError(f"{what} must list one entry per seat ({game.num_players}), got {codec.describe(players)}")
    for seat, entry in enumerate(players):
        if not isinstance(entry, Mapping) or not all(isinstance(entry.get(k), str) for k in ("name", "kind")):
            raise ValueError(f"{what}: entry {seat} must be an object with a string name and kind, "
                             f"got {codec.describe(entry)}")
    return [dict(entry) for entry in players]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
