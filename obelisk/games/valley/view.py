"""What a seat sees, and the terminal text: the pyramid drawing, a seat's view (from its observation only)
and the god view."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Mapping, Sequence

import obelisk.games.valley.rules as R
from obelisk.core import i18n
from obelisk.core.text import wrapped
from obelisk.games.valley.actions import waiting_for
from obelisk.games.valley.rules import Rules
from obelisk.games.valley.scoring import tomb_score

if TYPE_CHECKING:
    from obelisk.games.valley.state import ValleyState

tr = i18n.domain("valley")


def observation(state: ValleyState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may know (``None``: a spectator): everything public, plus its own hand and known deck top."""
    rules: Rules = state.rules
    table = rules.table
    names = table.names
    hands: list[list[int]] = state.hands
    tops: list[list[int]] = state.tops
    discards: list[list[int]] = state.discards
    tombs: list[list[int]] = state.tombs
    shown: list[list[int]] = state.shown
    players = []
    for p in range(state.num_players):
        entry: dict[str, Any] = {
            "hand_size": len(hands[p]),
            "deck_size": state.deck_sizes[p] + len(tops[p]),
            "discard": [names[k] for k in discards[p]],
            "tomb": [names[k] for k in tombs[p]],
            "tomb_score": tomb_score(table, tombs[p]),
            "turns": state.turns[p],
            "hand_and_deck": _counted(names, _hidden_pool(state.decks[p], hands[p], tops[p])),
            "shown": sorted(names[k] for k in shown[p]),
        }
        if p == seat:
            entry["hand"] = sorted(names[k] for k in hands[p])
            entry["deck_top"] = [names[k] for k in reversed(tops[p])]
        players.append(entry)
    pyramid: list[int] = state.pyramid
    view: dict[str, Any] = {
        "pyramid": [
            {"slot": R.SLOT_NAMES[s], "card": names[k], "cost": table.cost[k]} if k >= 0 else
            {"slot": R.SLOT_NAMES[s], "card": None, "cost": None}
            for s, k in enumerate(pyramid)
        ],
        "stock": {"level_ii": state.stock_sizes[0], "level_iii": state.stock_sizes[1]},
        "boneyard": [names[k] for k in state.boneyard],
        "players": players,
        "active": state.active,
        "in_play": [names[k] for k in state.play],
        "revealed": [names[k] for k in state.revealed],
        "turn": {
            "touched_pyramid": state.touched,
            "entombed": state.entombed,
            "hand_gold": state.hand_gold,
            "discount": state.discount,
            "bought_costs": list(state.bought),
            "executed": [names[k] for k in state.executed],
        },
        "waiting_for": waiting_for(state),
        "pending": _pending_view(state),
    }
    return view


def _pending_view(state: ValleyState) -> dict[str, Any] | None:
    """The step on top of the stack as data: every pending decision and draw is public."""
    if state.over:
        return None
    top = state.stack[-1]
    code = top[0]
    entry: dict[str, Any] = {"step": R.STEP_NAMES[code]}
    if code == R.REFILL:
        entry["slot"] = R.SLOT_NAMES[top[1]]
    elif code != R.FIRST_BONEYARD:
        entry["seat"] = top[1]
    if code == R.PAY:
        entry["slot"] = R.SLOT_NAMES[top[2]]
        entry["gold_due"] = top[3]
    elif code == R.DRAW:
        entry["cards"] = top[2]
    elif code == R.HAND_PICK:
        entry["purpose"] = R.HAND_PICK_PURPOSES[top[2]]
        if top[2] != R.ENTOMB:
            entry[("cards", "", "factor", "draw")[top[2]]] = top[3]
    elif code == R.VICTIM:
        entry["purpose"] = R.VICTIM_PURPOSES[top[2]]
        entry["attacker"] = top[3]
    elif code == R.PICK_SLOT:
        entry["destination"] = R.DESTINATIONS[top[2]]
        entry["slots"] = [R.SLOT_NAMES[s] for s in top[3]]
    return entry


def _hidden_pool(deck: list[int], hand: list[int], tops: list[int]) -> list[int]:
    """Counts per kind of a seat's hand and deck together (public knowledge)."""
    pool = list(deck)
    for kind in hand:
        pool[kind] += 1
    for kind in tops:
        pool[kind] += 1
    return pool


def _counted(names: tuple[str, ...], counts: list[int]) -> dict[str, int]:
    return {names[k]: c for k, c in enumerate(counts) if c}


def pyramid_lines(cells: Sequence[tuple[str, str | None, int | None]]) -> list[str]:
    """Three rows: top, middle, base, each card centred above the two it rests on."""
    texts = [f"{slot}: {card} ({cost})" if card is not None else f"{slot}: -" for slot, card, cost in cells]
    width = max(len(t) for t in texts)
    b1, b2, b3, m1, m2, t = (f"[{text:^{width}}]" for text in texts)
    pad = " " * ((width + 2) // 2)
    return [pad * 2 + t, pad + m1 + m2, b1 + b2 + b3]


def _group(cards: Sequence[str]) -> str:
    if not cards:
        return "-"
    return ", ".join(_grouped(cards))


def _grouped(cards: Sequence[str]) -> list[str]:
    """Equal cards counted once each: ``2x Shabti``."""
    counts = Counter(cards)
    return [tr("{count}x {name}", count=n, name=name) if n > 1 else name for name, n in sorted(counts.items())]


def _terms(cards: Sequence[str]) -> list[str]:
    """Card names in the active language."""
    return [tr.term("card", name) for name in cards]


def render_legend(table: Any) -> str:
    """What every card does (the card file's text), with its cost, gold and level."""
    lines = [tr("What the cards do (cost / gold when spent):")]
    for k, name in enumerate(table.names):
        text = tr.term("text", table.text[k]) if table.text[k] else tr("no action")
        lines += wrapped(f"  {tr.term('card', name)} ({table.cost[k]}/{table.gold[k]}): ", text.split(), " ", 6)
    return "\n".join(lines)


def render_view(view: Mapping[str, Any]) -> str:
    """A seat's (or a spectator's) screen, built only from ``State.observation``: 80 columns wide."""
    slots = {c["slot"]: f"{c['slot']} {tr.term('card', c['card'])} ({c['cost']})" if c["card"] is not None
             else f"{c['slot']} -" for c in view["pyramid"]}
    lines = wrapped(tr("Pyramid, top and middle: "), [slots["T"], slots["M1"], slots["M2"]], " · ")
    lines += wrapped(tr("Base row (to buy): "), [slots["B1"], slots["B2"], slots["B3"]], " · ")
    stock = view["stock"]
    boneyard = view["boneyard"]
    stock_total = stock["level_ii"] + stock["level_iii"]
    bones = tr("boneyard {n}", n=len(boneyard))
    if boneyard:
        bones += tr(" (top {card})", card=tr.term("card", boneyard[-1]))
    lines += wrapped(tr("Stock: "), [
        tr.n("{n} card", "{n} cards", stock_total) + " " + tr("(level II {a}, level III {b})", a=stock["level_ii"],
                                                               b=stock["level_iii"]),
        bones], "; ")
    turn = view["turn"]
    seat = view.get("seat")
    for p, entry in enumerate(view["players"]):
        marks = [mark for mark, on in ((tr("you"), p == seat), (tr("to play"), p == view["active"])) if on]
        head = tr("Player {player}", player=p + 1) + (f" ({', '.join(marks)})" if marks else "")
        discard = entry["discard"]
        pile = tr("discard {n}", n=len(discard))
        if discard:
            pile += tr(" (top {card})", card=tr.term("card", discard[-1]))
        lines += wrapped(f"{head}: ", [
            tr("tomb score {n}", n=entry["tomb_score"]), tr("hand {n}", n=entry["hand_size"]),
            tr("deck {n}", n=entry["deck_size"]), pile, tr.n("{n} turn", "{n} turns", entry["turns"])])
        lines += wrapped(tr("    tomb: "), _grouped(_terms(entry["tomb"])) or [tr("empty")])
        if entry["shown"] and "hand" not in entry:
            lines += wrapped(tr("    shown in hand: "), _grouped(_terms(entry["shown"])))
        if "hand" in entry:
            lines += wrapped(tr("    hand: "), _grouped(_terms(entry["hand"])) or [tr("empty")])
            if entry["deck_top"]:
                lines += wrapped(tr("    known top of deck: "), _terms(entry["deck_top"]))
    if view["in_play"] or view["revealed"]:
        lines += wrapped(tr("In play: "), _grouped(_terms(view["in_play"])) or ["-"])
        if view["revealed"]:
            lines += wrapped(tr("Revealed: "), _terms(view["revealed"]))
    extras = []
    if turn["hand_gold"]:
        extras.append(tr("every hand card is worth {gold} gold", gold=turn["hand_gold"]))
    if turn["discount"]:
        extras.append(tr("next purchase costs {n} less", n=turn["discount"]))
    if turn["touched_pyramid"]:
        extras.append(tr("pyramid touched"))
    if turn["entombed"]:
        extras.append(tr("normal entombment used"))
    if extras:
        lines += wrapped(tr("This turn: "), extras, "; ")
    if view.get("terminal"):
        scores = view.get("scores") or []
        lines += wrapped(tr("Game over: "), [tr("player {player} {total}", player=i + 1, total=s["total"])
                                              for i, s in enumerate(scores)])
    else:
        lines += wrapped(tr("Now: "), [view["waiting_for"]])
    return "\n".join(lines)


def render_state(state: ValleyState) -> str:
    """The complete position (god view), deterministic."""
    table = state.rules.table
    names = table.names
    cells = [
        (R.SLOT_NAMES[s], names[k] if k >= 0 else None, table.cost[k] if k >= 0 else None)
        for s, k in enumerate(state.pyramid)
    ]
    lines = pyramid_lines(cells)
    stock_ii = _group([names[k] for k, c in enumerate(state.stock_ii) for _ in range(c)])
    stock_iii = _group([names[k] for k, c in enumerate(state.stock_iii) for _ in range(c)])
    lines.append(f"stock II ({state.stock_sizes[0]}): {stock_ii}")
    lines.append(f"stock III ({state.stock_sizes[1]}): {stock_iii}")
    lines.append(f"boneyard: {', '.join(names[k] for k in state.boneyard) or '-'}")
    for p in range(state.num_players):
        deck = _group([names[k] for k, c in enumerate(state.decks[p]) for _ in range(c)])
        lines.append(f"seat {p} (turns {state.turns[p]}, tomb score {state.tomb_score(p)})")
        shown = f" (shown: {', '.join(names[k] for k in state.shown[p])})" if state.shown[p] else ""
        lines.append(f"  hand: {', '.join(names[k] for k in state.hands[p]) or '-'}{shown}")
        lines.append(f"  deck: {deck}; known top: {', '.join(names[k] for k in state.tops[p]) or '-'}")
        lines.append(f"  discard: {', '.join(names[k] for k in state.discards[p]) or '-'}")
        lines.append(f"  tomb: {', '.join(names[k] for k in state.tombs[p]) or '-'}")
    lines.append(
        f"active {state.active}; in play: {', '.join(names[k] for k in state.play) or '-'}; "
        f"revealed: {', '.join(names[k] for k in state.revealed) or '-'}"
    )
    lines.append(
        f"touched {state.touched}, entombed {state.entombed}, hand gold {state.hand_gold}, discount {state.discount}, "
        f"bought {state.bought}, executed {[names[k] for k in state.executed]}"
    )
    lines.append(f"pending: {state.stack}" if not state.over else "game over")
    return "\n".join(lines)
