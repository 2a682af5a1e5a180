"""Card actions: one handler per effect keyword; cards only name an effect and its parameters.

Each effect has a feasibility check and a start. The check returns ``""``
when every mandatory part of the action can be carried out now, else the
reason it cannot (an action is executed fully or not at all). ``skip`` is a
card kind still in hand that will have left it by the time the action runs
(the card being played, or the Tyet Amulet repeating it), so it does not
count as a card the action could use.

The start mutates the state and pushes the frames for the choices the
action needs; the state resolves those frames (see ``state.py``). The
parameters of each keyword are declared in ``data.py`` (``EFFECT_PARAMS``);
the game hands this table to its ``Rules``, through which the state reaches
every card's action.
"""

from __future__ import annotations

from typing import Final

import obelisk.games.valley.rules as R
from obelisk.core import i18n
from obelisk.games.valley.rules import Effect, always_possible
from obelisk.games.valley.state import ValleyState

tr = i18n.domain("valley")


def _hand_count(state: ValleyState, seat: int, skip: int) -> int:
    return len(state.hands[seat]) - (1 if skip >= 0 else 0)


def _hand_kinds(state: ValleyState, seat: int, skip: int) -> list[int]:
    hand = list(state.hands[seat])
    if skip >= 0:
        hand.remove(skip)
    return hand


def _start_draw(state: ValleyState, seat: int, p: dict[str, int]) -> None:
    state.stack.append((R.DRAW, seat, p["count"]))


def _start_draw_topdeck(state: ValleyState, seat: int, p: dict[str, int]) -> None:
    state.stack.append((R.HAND_PICK, seat, R.TOPDECK, p["topdeck"]))
    state.stack.append((R.DRAW, seat, p["draw"]))


def _start_discount(state: ValleyState, seat: int, p: dict[str, int]) -> None:
    state.discount += p["amount"]


def _base_at_most(state: ValleyState, limit: int) -> tuple[int, ...]:
    cost = state.rules.cost
    pyramid = state.pyramid
    return tuple(s for s in R.BASE if pyramid[s] >= 0 and cost[pyramid[s]] <= limit)


def _check_take_base(state: ValleyState, seat: int, p: dict[str, int], skip: int) -> str:
    if _base_at_most(state, p["max_cost"]):
        return ""
    return tr("no base card costs {cost} or less", cost=p["max_cost"])


def _start_take_base(state: ValleyState, seat: int, p: dict[str, int]) -> None:
    state.offer_slots(seat, R.TO_DISCARD, _base_at_most(state, p["max_cost"]))


def _check_hand(state: ValleyState, seat: int, p: dict[str, int], skip: int) -> str:
    return "" if _hand_count(state, seat, skip) > 0 else tr("you have no other card in hand")


def _start_entomb_extra(state: ValleyState, seat: int, p: dict[str, int]) -> None:
    state.stack.append((R.HAND_PICK, seat, R.ENTOMB, 0))


def _start_sacrifice_draw(state: ValleyState, seat: int, p: dict[str, int]) -> None:
    state.stack.append((R.HAND_PICK, seat, R.SACRIFICE_DRAW, p["count"]))


def _check_boneyard(state: ValleyState, seat: int, p: dict[str, int], skip: int) -> str:
    return "" if state.boneyard else tr("the boneyard is empty")


def _start_take_boneyard(state: ValleyState, seat: int, p: dict[str, int]) -> None:
    state.discards[seat].append(state.boneyard.pop())


def _check_tomb(state: ValleyState, seat: int, p: dict[str, int], skip: int) -> str:
    return "" if state.tombs[seat] else tr("your tomb is empty")


def _start_retrieve(state: ValleyState, seat: int, p: dict[str, int]) -> None:
    state.stack.append((R.TOMB_PICK, seat))


def _check_reveal(state: ValleyState, seat: int, p: dict[str, int], skip: int) -> str:
    if state.tops[seat] or state.deck_sizes[seat] or state.discards[seat]:
        return ""
    return "your deck and discard pile are both empty, so there is no card to reveal"


def _start_reveal(state: ValleyState, seat: int, p: dict[str, int]) -> None:
    state.stack.append((R.REVEAL, seat))


def _cheapest_slots(state: ValleyState) -> tuple[int, ...]:
    cost = state.rules.cost
    present = [s for s in R.ALL_SLOTS if state.pyramid[s] >= 0]
    if not present:
        return ()
    low = min(cost[state.pyramid[s]] for s in present)
    return tuple(s for s in present if cost[state.pyramid[s]] == low)


def _check_pyramid(state: ValleyState, seat: int, p: dict[str, int], skip: int) -> str:
    return "" if state.pyramid_count() else tr("the pyramid is empty")


def _start_entomb_cheapest(state: ValleyState, seat: int, p: dict[str, int]) -> None:
    state.offer_slots(seat, R.TO_TOMB, _cheapest_slots(state))


def _check_sacrifice_take(state: ValleyState, seat: int, p: dict[str, int], skip: int) -> str:
    low = state.min_pyramid_cost()
    if low < 0:
        return tr("the pyramid is empty")
    hand = _hand_kinds(state, seat, skip)
    if not hand:
        return tr("you have no other card in hand to sacrifice")
    cost = state.rules.cost
    if max(cost[k] for k in hand) * p["factor"] >= low:
        return ""
    return tr("no pyramid card costs at most {factor}x the cost of a card in your hand", factor=p["factor"])


def _start_sacrifice_take(state: ValleyState, seat: int, p: dict[str, int]) -> None:
    state.stack.append((R.HAND_PICK, seat, R.SACRIFICE_TAKE, p["factor"]))


def _check_discard_size(state: ValleyState, seat: int, p: dict[str, int], skip: int) -> str:
    need = max(1, p["min_discard"])
    have = len(state.discards[seat])
    return "" if have >= need else tr("your discard pile holds {have} cards; at least {need} are needed",
                                             have=have, need=need)


def _start_entomb_from_discard(state: ValleyState, seat: int, p: dict[str, int]) -> None:
    state.stack.append((R.DISCARD_PICK, seat))


def _check_stock(state: ValleyState, seat: int, p: dict[str, int], skip: int) -> str:
    return "" if state.stock_count() else tr("the stock is empty")


def _start_take_stock(state: ValleyState, seat: int, p: dict[str, int]) -> None:
    state.stack.append((R.STOCK_TAKE, seat))


def _cheaper_slots(state: ValleyState) -> tuple[int, ...]:
    if not state.bought:
        return ()
    return _base_at_most(state, max(state.bought) - 1)


def _check_take_cheaper(state: ValleyState, seat: int, p: dict[str, int], skip: int) -> str:
    if not state.bought:
        return tr("you have not bought a card this turn")
    if _cheaper_slots(state):
        return ""
    return tr("no base card costs less than {cost}, the dearest card you bought this turn", cost=max(state.bought))


def _start_take_cheaper(state: ValleyState, seat: int, p: dict[str, int]) -> None:
    state.offer_slots(seat, R.TO_DISCARD, _cheaper_slots(state))


def _victims(state: ValleyState, seat: int, exempt: int) -> list[int]:
    """Opponents in turn order after ``seat`` who can comply (have a hand card and are not exempt)."""
    n = len(state.hands)
    order = [(seat + i) % n for i in range(1, n)]
    return [q for q in order if state.hands[q] and state.card_total(q) > exempt]


def _check_sacrifice_attack(state: ValleyState, seat: int, p: dict[str, int], skip: int) -> str:
    return "" if _victims(state, seat, -1) else tr("no opponent has a card in hand")


def _start_sacrifice_attack(state: ValleyState, seat: int, p: dict[str, int]) -> None:
    for q in reversed(_victims(state, seat, -1)):
        state.stack.append((R.VICTIM, q, R.SACRIFICE, seat, -1))


def _check_tribute(state: ValleyState, seat: int, p: dict[str, int], skip: int) -> str:
    if _victims(state, seat, p["exempt_at_most"]):
        return ""
    return tr("no opponent has a card in hand and more than {n} cards in all", n=p["exempt_at_most"])


def _start_tribute(state: ValleyState, seat: int, p: dict[str, int]) -> None:
    for q in reversed(_victims(state, seat, p["exempt_at_most"])):
        state.stack.append((R.VICTIM, q, R.TRIBUTE, seat, p["exempt_at_most"]))


def _start_hand_gold(state: ValleyState, seat: int, p: dict[str, int]) -> None:
    state.hand_gold = p["value"]


def _check_repeat(state: ValleyState, seat: int, p: dict[str, int], skip: int) -> str:
    if not state.executed:
        return tr("you have executed no action this turn")
    return "" if state.repeat_candidates(seat, skip) else tr("no action executed this turn can be repeated now")


def _start_repeat(state: ValleyState, seat: int, p: dict[str, int]) -> None:
    state.stack.append((R.REPEAT, seat))


EFFECTS: Final[dict[str, Effect]] = {
    e.name: e
    for e in (
        Effect("none", "no action", own_turn=False, repeatable=False),
        Effect("draw", "draw {count} card(s)", check=always_possible, start=_start_draw),
        Effect(
            "draw_topdeck",
            "draw {draw} card(s), then put {topdeck} hand card(s) on top of your deck",
            check=always_possible,
            start=_start_draw_topdeck,
        ),
        Effect("discount", "your next purchase this turn costs {amount} less", check=always_possible,
               start=_start_discount),
        Effect("take_base", "take a base card costing at most {max_cost}", check=_check_take_base,
               start=_start_take_base),
        Effect("entomb_extra", "entomb a hand card (extra)", check=_check_hand, start=_start_entomb_extra),
        Effect("sacrifice_draw", "sacrifice a hand card, then draw {count}", check=_check_hand,
               start=_start_sacrifice_draw),
        Effect("take_boneyard", "take the top boneyard card", check=_check_boneyard, start=_start_take_boneyard),
        Effect("retrieve_from_tomb", "return a tomb card to your hand", check=_check_tomb, start=_start_retrieve),
        Effect("reveal_execute", "reveal your top card and carry out its action", check=_check_reveal,
               start=_start_reveal),
        Effect("entomb_cheapest", "entomb the cheapest pyramid card", check=_check_pyramid,
               start=_start_entomb_cheapest),
        Effect("sacrifice_take", "sacrifice a hand card, take a pyramid card costing at most {factor}x its cost",
               check=_check_sacrifice_take, start=_start_sacrifice_take),
        Effect("entomb_from_discard", "entomb a card of your discard pile (needs {min_discard} there)",
               check=_check_discard_size, start=_start_entomb_from_discard),
        Effect("take_stock", "take the top stock card", check=_check_stock, start=_start_take_stock),
        Effect("take_cheaper", "take a base card cheaper than one you bought", check=_check_take_cheaper,
               start=_start_take_cheaper),
        Effect("opponents_sacrifice", "each opponent sacrifices a hand card", check=_check_sacrifice_attack,
               start=_start_sacrifice_attack),
        Effect("tribute", "each other player puts a hand card on your discard pile", check=_check_tribute,
               start=_start_tribute),
        Effect("hand_gold", "every hand card is worth {value} gold this turn", repeatable=False,
               check=always_possible, start=_start_hand_gold),
        Effect("repeat_action", "repeat an action executed this turn", repeatable=False, check=_check_repeat,
               start=_start_repeat),
        Effect("boat", "reaction: take a base card after an opponent buys", own_turn=False, repeatable=False),
        Effect("ward", "reaction: ignore an opponent's sacrifice or tribute", own_turn=False, repeatable=False),
    )
}
"""Every effect keyword of ``data.EFFECT_PARAMS``, with its handlers."""


def describe(effect: str, params: dict[str, int]) -> str:
    """A short text for an effect with its parameters."""
    return EFFECTS[effect].summary.format(**params)
