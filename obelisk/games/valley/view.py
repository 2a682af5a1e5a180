"""Terminal text: the pyramid drawing, a seat's view (from its observation only) and the god view."""

from __future__ import annotations

from collections import Counter
from typing import Any, Mapping, Sequence

from obelisk.games.valley import frames as F

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
    counts = Counter(cards)
    return ", ".join(f"{n}x {name}" if n > 1 else name for name, n in sorted(counts.items()))


def render_view(view: Mapping[str, Any]) -> str:
    """A seat's (or a spectator's) screen, built only from ``State.observation``."""
    lines = ["Pyramid (buy from the base row):"]
    lines += ["  " + row for row in pyramid_lines([(c["slot"], c["card"], c["cost"]) for c in view["pyramid"]])]
    stock = view["stock"]
    boneyard = view["boneyard"]
    lines.append(
        f"Stock: {stock['level_ii'] + stock['level_iii']} cards (level II {stock['level_ii']}, "
        f"level III {stock['level_iii']})   Boneyard: {len(boneyard)} cards, top: {boneyard[-1] if boneyard else '-'}"
    )
    turn = view["turn"]
    seat = view.get("seat")
    for p, entry in enumerate(view["players"]):
        marks = []
        if p == view["active"]:
            marks.append("to play")
        if p == seat:
            marks.append("you")
        head = f"Seat {p}" + (f" ({', '.join(marks)})" if marks else "")
        discard = entry["discard"]
        lines.append(
            f"{head}: tomb score {entry['tomb_score']}, hand {entry['hand_size']}, deck {entry['deck_size']}, "
            f"discard {len(discard)} (top: {discard[-1] if discard else '-'}), turns {entry['turns']}"
        )
        lines.append(f"    tomb: {_group(entry['tomb'])}")
        if entry["shown"] and "hand" not in entry:
            lines.append(f"    shown in hand: {_group(entry['shown'])}")
        if "hand" in entry:
            lines.append(f"    hand: {_group(entry['hand'])}")
            if entry["deck_top"]:
                lines.append(f"    known top of deck: {', '.join(entry['deck_top'])}")
    if view["in_play"] or view["revealed"]:
        lines.append(f"In play: {_group(view['in_play'])}" + (
            f"   revealed: {', '.join(view['revealed'])}" if view["revealed"] else ""))
    extras = []
    if turn["hand_gold"]:
        extras.append(f"every hand card is worth {turn['hand_gold']} gold")
    if turn["discount"]:
        extras.append(f"next purchase costs {turn['discount']} less")
    if turn["touched_pyramid"]:
        extras.append("pyramid touched")
    if turn["entombed"]:
        extras.append("normal entombment used")
    if extras:
        lines.append("This turn: " + "; ".join(extras))
    if view.get("terminal"):
        scores = view.get("scores") or []
        lines.append("Game over. " + "  ".join(f"seat {i}: {s['total']}" for i, s in enumerate(scores)))
    else:
        lines.append(f"Now: {view['waiting_for']}")
    return "\n".join(lines)


def render_state(state: Any) -> str:
    """The complete position (god view), deterministic."""
    table = state.game.table
    names = table.names
    cells = [
        (F.SLOT_NAMES[s], names[k] if k >= 0 else None, table.cost[k] if k >= 0 else None)
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
