"""What a legal action would do, said before it is taken: the engine's previews for the seat to act.

The physical games let a player look before committing: count the cards that would pay for a purchase,
hold a mosaic tile over the garden, lay the excavation card on the cave. A game's ``Game.previews`` says
the same from the seat's own view (``State.observation(seat)``) alone, so a preview cannot name anything
the seat may not see; ``offered`` keeps those of the seat's legal actions. A table sends them in the frame
of the seat to act; a board outlines the ``marks`` and shows the ``text`` before the move is sent.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True)
class Preview:
    """What some legal actions would do, in words, and the board's things they concern.

    Usually one action; several when the words and the marks are the same for each (every tile move of a
    Solomon turn costs the same), so a frame says it once."""

    actions: tuple[int, ...]
    text: str
    """What the action would do, in the active language: ``Ankh costs 5 gold: you would pay with …``."""
    marks: tuple[str, ...] = ()
    """The names of the things on the board it concerns, as the game's view names them (``C4``, ``Bread``)."""

    def to_dict(self) -> dict[str, Any]:
        return {"actions": list(self.actions), "text": self.text, "marks": list(self.marks)}


def offered(state: Any, seat: int) -> list[Preview]:
    """The previews of ``seat``'s legal actions now, each kept with its legal actions only, in the order of
    their first action; none unless ``seat`` is to act.

    Worked out from ``state.observation(seat)`` alone (``Game.previews``): a position the seat cannot tell
    from this one gives the same previews."""
    if state.current_player() != seat:
        return []
    legal = state.legal_actions()
    allowed = set(legal)
    found = []
    for preview in state.game.previews(state.observation(seat), legal):
        actions = tuple(action for action in preview.actions if action in allowed)
        if actions:
            found.append(replace(preview, actions=actions))
    return sorted(found, key=lambda preview: preview.actions[0])
