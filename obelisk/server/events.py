"""A table's events (decisions, chance outcomes, undos) applied to its state and its log.

A table is its seed plus the events in the database, so a snapshot is always what these functions
make of them: the writer applies a request's events with them, a process that loads the table or
learns of moves from a notification replays them with the same functions, and every process ends
with the same state, the same log lines in every language and the same turn clock. Chance is drawn
here, right after the decision that leads to it (:func:`settle`), from the secret seed and the move
number, and stored like any other move.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Iterable, Sequence

from obelisk.core import CHANCE, State
from obelisk.core import i18n
from obelisk.server.store import MOVE, UNDO
from obelisk.server.table import LogEntry, Snapshot, clocked

Event = tuple[int, int, str]
"""A move about to be written: (seat or ``CHANCE``, action, the action's label)."""


def log_entry(state: State, seq: int, action: int) -> LogEntry:
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
    return LogEntry(seq, actor, texts, actor == CHANCE or state.reveals(action))


def without_last(state: State, log: list[LogEntry], seat: int, steps: int) -> tuple[State, int]:
    """``state`` without ``seat``'s last ``steps`` decisions (the core checks it may), and the first log seq removed."""
    state = state.undo(seat, steps)
    cut = log[-steps].seq
    del log[-steps:]
    return state, cut


def apply_events(state: State, log: list[LogEntry], cuts: list[tuple[int, int]],
                 events: Iterable[tuple[int, str, int, int]]) -> State:
    """``state`` after the table's next ``events`` (seq, kind, seat, action), logging each move and each undo's cut.

    A move is applied to ``state`` itself; an undo replaces it (the core rebuilds the game without the moves).
    """
    for seq, kind, seat, action in events:
        if kind == UNDO:
            state, cut = without_last(state, log, seat, action)
            cuts.append((seq, cut))
        else:
            log.append(log_entry(state, seq, action))
            state.apply_action(action)
    return state


def extended(snapshot: Snapshot, actions: Sequence[int], updated: datetime) -> Snapshot:
    """``snapshot`` after the moves ``actions`` another process wrote at ``updated`` (seats unchanged)."""
    log = list(snapshot.log)
    events = [(snapshot.version + offset, MOVE, 0, action) for offset, action in enumerate(actions)]
    state = apply_events(snapshot.state.clone(), log, [], events)
    status = "finished" if state.is_terminal() else snapshot.status
    after = replace(snapshot, state=state, log=tuple(log), version=snapshot.version + len(actions), status=status,
                    updated=updated)
    return clocked(snapshot, after, MOVE)


def settle(state: State, moves: list[Event], log: list[LogEntry], seq: int) -> None:
    """Apply chance outcomes until a player decides (or the game ends), recording them in ``moves`` and ``log``.

    ``seq`` is the event number of the first entry of ``log``: each outcome is logged under its own.
    """
    while state.is_chance_node():
        outcome = state.sample_chance()
        log.append(log_entry(state, seq + len(log), outcome))
        moves.append((CHANCE, outcome, state.action_to_string(outcome)))
        state.apply_action(outcome)
