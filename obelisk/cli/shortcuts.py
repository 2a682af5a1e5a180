"""Several decisions in one answer at the move prompt, such as Valley's payment card by card.

A shortcut bends no rule: it is the list of the game's own legal actions the player could pick one
by one, chosen by a plain rule from what the player's seat sees and checked on a copy of the position
before it is offered. ``obelisk play`` lists it under the moves, plays its actions in order when its
word is typed, and ``undo`` takes them back as one answer.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Callable

from obelisk.core import State, i18n

tr = i18n.ui


@dataclass(frozen=True)
class Shortcut:
    """What the player types, the line that offers it, and the actions it stands for."""

    word: str
    offer: str
    """What it does, shown after its word: ``pay: the 5 gold at once with the cheapest cards — …``."""
    actions: tuple[int, ...]


def shortcuts(state: State, seat: int) -> list[Shortcut]:
    """The shortcuts of ``seat``'s decision now (none in most decisions)."""
    found = []
    for finder in FINDERS.get(state.game.id, ()):
        shortcut = finder(state, seat)
        if shortcut is not None and _playable(state, seat, shortcut.actions):
            found.append(shortcut)
    return found


def _playable(state: State, seat: int, actions: tuple[int, ...]) -> bool:
    """Whether ``actions`` are, one after another, legal decisions of ``seat`` (tried on a copy)."""
    trial = state.clone()
    for action in actions:
        if trial.current_player() != seat or action not in trial.legal_actions():
            return False
        trial.apply_action(action)
    return bool(actions)


def valley_payment(state: State, seat: int) -> Shortcut | None:
    """Pay what a purchase still costs with the cheapest cards of the hand.

    Cheapest: the lowest total price of the cards given, then the least gold paid beyond the price,
    then the fewest cards. Such a choice has no card to spare, so the purchase is complete only
    with its last card, whatever the order.
    """
    view = state.observation(seat)
    pending = view.get("pending") or {}
    if pending.get("step") != "pay" or pending.get("seat") != seat:
        return None
    game: Any = state.game
    table = game.table
    kind_of = {name: kind for kind, name in enumerate(table.names)}
    hand_gold = view["turn"]["hand_gold"]
    held: dict[int, int] = {}
    for name in view["players"][seat]["hand"]:
        held[kind_of[name]] = held.get(kind_of[name], 0) + 1
    due = pending["gold_due"]
    kinds = sorted(held)
    best: tuple[tuple[int, int, int], tuple[int, ...]] | None = None
    for counts in itertools.product(*(range(held[kind] + 1) for kind in kinds)):
        gold = sum(n * (hand_gold or table.gold[kind]) for n, kind in zip(counts, kinds))
        if gold < due:
            continue
        key = (sum(n * table.cost[kind] for n, kind in zip(counts, kinds)), gold - due, sum(counts))
        if best is None or key < best[0]:
            best = (key, counts)
    if best is None:
        return None
    paid = [kind for n, kind in zip(best[1], kinds) for _ in range(n)]
    gold = due + best[0][1]
    name = i18n.domain(game.id).term
    cards = ", ".join(tr("{count}x {name}", count=n, name=name("card", table.names[kind])) if n > 1
                      else name("card", table.names[kind]) for n, kind in zip(best[1], kinds) if n)
    return Shortcut("pay", tr("the {due} gold at once with the cheapest cards — {cards} ({gold} gold)", due=due,
                              cards=cards, gold=gold),
                    tuple(game.actions.encode("pay", kind) for kind in paid))


def cleopatra_payment(state: State, seat: int) -> Shortcut | None:
    """Pay the rest of a building with resource cards of the resources asked, while that is possible to the end.

    Offered only when every unit left can be paid so: the tainted cards (an amulet each), the
    Trompe-l'oeil and the Nile merchants stay in hand for the player to choose, one by one.
    """
    game: Any = state.game
    trial = state.clone()
    actions: list[int] = []
    while trial.current_player() == seat:
        paying = [action for action in trial.legal_actions() if game.actions.decode(action)[0] == "pay"]
        if not paying:
            break
        plain = [action for action in paying if game.actions.decode(action)[1] % SOURCES == 0]
        if not plain:
            return None
        actions.append(plain[0])
        trial.apply_action(plain[0])
    if len(actions) < 2:
        return None
    names = game.tables.names
    paid: dict[str, int] = {}
    for action in actions:
        name = i18n.domain(game.id).term("card", names[game.actions.decode(action)[1] // SOURCES])
        paid[name] = paid.get(name, 0) + 1
    cards = ", ".join(tr("{count}x {name}", count=n, name=name) if n > 1 else name for name, n in paid.items())
    return Shortcut("pay", tr("the rest at once with plain resource cards — {cards}", cards=cards), tuple(actions))


SOURCES = 4
"""Cleopatra's ways to pay a unit (a card of the resource, its tainted card, Trompe-l'oeil, a Nile merchant):
a pay action's index is the resource times these plus the way."""

FINDERS: dict[str, tuple[Callable[[State, int], Shortcut | None], ...]] = {
    "cleopatra": (cleopatra_payment,),
    "valley": (valley_payment,),
}
"""The shortcuts each game offers, by game id."""
