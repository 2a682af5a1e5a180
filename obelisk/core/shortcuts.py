"""Several decisions in one answer, such as Valley's payment card by card: what a game offers, checked.

A shortcut bends no rule: it is the list of the game's own legal actions the player could pick one
by one, chosen by a plain rule from what the player's seat sees (the game's ``Game.shortcuts``), and
checked here on a copy of the position before it is offered. The terminal (``obelisk play``) lists it
under the moves and plays it when its word is typed; a table offers it in the frame and takes it as one
batch of moves. Either way ``undo`` takes it back as one answer where the rules allow.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True)
class Shortcut:
    """What the player types, what it does, the actions it stands for, and whether it can be taken back."""

    word: str
    text: str
    """What it does, in the active language: ``the 5 gold at once with the cheapest cards — …``."""
    actions: tuple[int, ...]
    final: bool = False
    """Whether one of its actions is final (``State.is_final``): once played, it cannot all be taken back."""

    def to_dict(self) -> dict[str, Any]:
        return {"word": self.word, "text": self.text, "actions": list(self.actions), "final": self.final}


def offered(state: Any, seat: int) -> list[Shortcut]:
    """The shortcuts of ``seat``'s decision now: the game's own (``Game.shortcuts``), each kept only if its
    actions are, one after another, legal decisions of ``seat``, and marked final if one of them is."""
    if state.current_player() != seat:
        return []
    found = []
    for shortcut in state.game.shortcuts(state, seat):
        final = _final(state, seat, shortcut.actions)
        if final is not None:
            found.append(replace(shortcut, final=final))
    return found


def _final(state: Any, seat: int, actions: tuple[int, ...]) -> bool | None:
    """Whether any of ``actions`` is final, played in order on a copy; None unless each is then a legal
    decision of ``seat``."""
    if not actions:
        return None
    trial = state.clone()
    final = False
    for action in actions:
        if trial.current_player() != seat or action not in trial.legal_actions():
            return None
        final = final or trial.is_final(action)
        trial.apply_action(action)
    return final
