"""What the table says about the game in words: the decision at hand and the progress, from a seat's view
alone, and the shortcuts.

The decision and the progress read only the observation (``pending``, the pyramid, the stock, the turn
counts), so they can name nothing a seat may not see; the page and the terminal put "Your turn — …" or the
player's name before the decision themselves.
"""

from __future__ import annotations

import itertools
from typing import Any, Mapping, Sequence

import obelisk.games.valley.rules as R
from obelisk.core import State, i18n
from obelisk.core.previews import Preview
from obelisk.core.shortcuts import Shortcut

tr = i18n.domain("valley")


def render_decision(view: Mapping[str, Any]) -> str:
    """What the seat to act must do now, in words: ``buy, play, entomb or end the turn``."""
    pending = view.get("pending")
    if view.get("terminal") or not pending or view.get("current_player", -1) < 0:
        return ""
    step = pending["step"]
    if step == "turn":
        return tr("buy, play, entomb or end the turn")
    if step == "pay":
        card = next(c["card"] for c in view["pyramid"] if c["slot"] == pending["slot"])
        return tr.n("pay {n} more gold for {card}", "pay {n} more gold for {card}", pending["gold_due"],
                    card=tr.term("card", card))
    if step == "hand_pick":
        return _hand_pick(pending)
    if step == "boat":
        return tr("use Boat after player {n}'s purchase, or pass", n=view["active"] + 1)
    if step == "victim":
        attacker = pending["attacker"] + 1
        if pending["purpose"] == "tribute":
            return tr("give a hand card to player {n}", n=attacker)
        return tr("sacrifice a hand card to player {n}'s attack", n=attacker)
    if step == "pick_slot":
        if pending["destination"] == "tomb":
            return tr("choose the pyramid card to put into the tomb")
        return tr("choose the pyramid card to take")
    return {
        "fill_b2": tr("choose which middle card drops into B2"),
        "forced_removal": tr("the pyramid was not touched: remove a card to the boneyard"),
        "discard_pick": tr("choose a discard-pile card to entomb"),
        "tomb_pick": tr("choose a tomb card to return to the hand"),
        "repeat": tr("choose the action to repeat"),
    }[step]


def _hand_pick(pending: Mapping[str, Any]) -> str:
    purpose = pending["purpose"]
    if purpose == "topdeck":
        return tr.n("put a hand card on top of the deck", "put {n} hand cards on top of the deck", pending["cards"])
    if purpose == "entomb":
        return tr("entomb a hand card")
    if purpose == "sacrifice_take":
        return tr("sacrifice a hand card to take a pyramid card")
    return tr.n("sacrifice a hand card, then draw {n} card", "sacrifice a hand card, then draw {n} cards",
                pending["draw"])


def render_progress(view: Mapping[str, Any]) -> str:
    """``turn 7 · stock 31 cards · pyramid 6 cards``: the active player's turn (everyone gets as many) and
    what is left to buy, as the game ends once the stock and the pyramid are both empty."""
    players = view["players"]
    if view.get("terminal"):
        turn = max(p["turns"] for p in players)
    else:
        turn = players[view["active"]]["turns"] + 1
    stock = view["stock"]["level_ii"] + view["stock"]["level_iii"]
    pyramid = sum(1 for cell in view["pyramid"] if cell["card"] is not None)
    return " · ".join([tr("turn {n}", n=turn), tr.n("stock {n} card", "stock {n} cards", stock),
                       tr.n("pyramid {n} card", "pyramid {n} cards", pyramid)])


def cheapest(table: Any, hand: Sequence[str], hand_gold: int, due: int) -> tuple[list[int], int] | None:
    """The cheapest cards of ``hand`` (card names) that pay ``due`` gold, as card kinds, and the gold they give;
    None when the hand cannot pay it.

    Cheapest: the lowest total price of the cards given, then the least gold paid beyond the price,
    then the fewest cards. Such a choice has no card to spare. ``hand_gold`` (Statue of Thoth) fixes
    every card's worth; 0: each card's own.
    """
    kind_of = {name: kind for kind, name in enumerate(table.names)}
    held: dict[int, int] = {}
    for name in hand:
        held[kind_of[name]] = held.get(kind_of[name], 0) + 1
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
    return [kind for n, kind in zip(best[1], kinds) for _ in range(n)], due + best[0][1]


def _cards_text(table: Any, paid: Sequence[int]) -> str:
    """``2x Shabti, Urn``: the cards of a payment, grouped, in the active language."""
    counts: dict[int, int] = {}
    for kind in paid:
        counts[kind] = counts.get(kind, 0) + 1
    return ", ".join(tr("{count}x {name}", count=n, name=tr.term("card", table.names[kind])) if n > 1
                     else tr.term("card", table.names[kind]) for kind, n in sorted(counts.items()))


def payment(state: State, seat: int) -> Shortcut | None:
    """Pay what a purchase still costs with the cheapest cards of the hand (``cheapest``).

    Such a choice has no card to spare, so the purchase is complete only with its last card, whatever
    the order. Read from the seat's view: its hand and the gold due.
    """
    view = state.observation(seat)
    pending = view.get("pending") or {}
    if pending.get("step") != "pay" or pending.get("seat") != seat:
        return None
    game: Any = state.game
    table = game.table
    due = pending["gold_due"]
    found = cheapest(table, view["players"][seat]["hand"], view["turn"]["hand_gold"], due)
    if found is None:
        return None
    paid, gold = found
    return Shortcut("pay", tr("the {due} gold at once with the cheapest cards — {cards} ({gold} gold)", due=due,
                              cards=_cards_text(table, paid), gold=gold),
                    tuple(game.actions.encode("pay", kind) for kind in paid))


def previews(game: Any, view: Mapping[str, Any], actions: Sequence[int]) -> list[Preview]:
    """Before a buy: the card's price now (its cost less the turn's discount) and the cheapest cards of the
    seat's own hand that would pay it (``cheapest``, what the ``pay`` shortcut then offers); the payment
    itself is the next decision, card by card or in one answer. From the seat's view alone."""
    pending = view.get("pending") or {}
    if pending.get("step") != "turn":
        return []
    seat = pending["seat"]
    hand = view["players"][seat].get("hand")
    if hand is None:
        return []
    table = game.table
    by_slot = {cell["slot"]: cell for cell in view["pyramid"]}
    found = []
    for action in actions:
        kind_name, index = game.actions.decode(action)
        cell = by_slot[R.SLOT_NAMES[index]] if kind_name == "buy" else None
        if cell is None or cell["card"] is None:
            continue
        found.append(_buy_preview(table, action, cell, hand, view["turn"]))
    return found


def _buy_preview(table: Any, action: int, cell: Mapping[str, Any], hand: Sequence[str],
                 turn: Mapping[str, Any]) -> Preview:
    card = tr.term("card", cell["card"])
    due = max(cell["cost"] - turn["discount"], 0)
    if due == 0:
        return Preview((action,), tr("{card} costs nothing now: the discount pays it", card=card), (cell["slot"],))
    found = cheapest(table, hand, turn["hand_gold"], due)
    if found is None:
        return Preview((action,), tr("{card} costs {cost} gold; your hand cannot pay it", card=card, cost=due),
                       (cell["slot"],))
    paid, gold = found
    marks = (cell["slot"], *dict.fromkeys(table.names[kind] for kind in paid))
    return Preview((action,), tr("{card} costs {cost} gold; the cheapest cards to pay it: {cards} ({gold} gold)",
                              card=card, cost=due, cards=_cards_text(table, paid), gold=gold), marks)
