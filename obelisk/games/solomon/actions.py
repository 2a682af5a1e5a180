"""The action space of King Solomon's Treasury: its id ranges, the label of every id and why one is illegal.

Ids, in range order: tile moves (square × 8 directions), magic items, digs
(orientation × anchor square), Seal squares, "end turn without digging", paying
with coins, paying with a treasure value, giving a tile kind, choosing a card.
Labels and reasons read a position passed in (``state``) and change nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import obelisk.games.solomon.data as d
from obelisk.core import ActionSpace, i18n

if TYPE_CHECKING:
    from obelisk.games.solomon.state import SolomonState

tr = i18n.domain("solomon")

# Action ids: the ranges of ``make_actions`` in order.
MOVE0: Final = 0
USE0: Final = MOVE0 + d.SQUARES * 8
DIG0: Final = USE0 + len(d.MAGIC_KINDS)
SEAL0: Final = DIG0 + d.ORIENTATIONS * d.SQUARES
END: Final = SEAL0 + d.SQUARES
PAY_COINS: Final = END + 1
PAY_TREASURE0: Final = PAY_COINS + 1
GIVE0: Final = PAY_TREASURE0 + len(d.TREASURE_KINDS)
CHOOSE0: Final = GIVE0 + d.NUM_KINDS


def _direction(direction: int) -> str:
    """The compass word of move direction ``direction`` (the order of ``d.DIRECTIONS``)."""
    return (
        tr("north-west"), tr("north"), tr("north-east"), tr("west"), tr("east"), tr("south-west"), tr("south"),
        tr("south-east"),
    )[direction]


def move_label(index: int) -> str:
    """The label of move ``index`` (square × 8 directions), on the cave or off it (the latter never legal)."""
    sq, direction = divmod(index, 8)
    to = d.MOVE_TARGET[index]
    if to >= 0:
        return tr.action("move {source}→{target}", source=d.square_name(sq), target=d.square_name(to))
    return tr.action("move {square} {direction} (off the cave)", square=d.square_name(sq), direction=_direction(direction))


def tile_name(kind: int) -> str:
    """The name of tile kind ``kind`` (``treasure 3``, ``Mirror``) in the active language."""
    return tr.term("tile", d.KIND_NAMES[kind])


def item_name(index: int) -> str:
    """The full name of magic item ``index`` (``Mirror of the Queen of Sheba``) in the active language."""
    return tr.term("item", d.MAGIC_FULL_NAMES[index])


def orientation_name(o: int) -> str:
    """How a dig turns the card: "" as dealt (arrow to the entrance), else mirrored and/or rotated."""
    parts = [tr("mirrored")] if o >= 4 else []
    if o % 4:
        parts.append((tr("rotated 90°"), tr("rotated 180°"), tr("rotated 270°"))[o % 4 - 1])
    return ", ".join(parts)


def make_actions(cards: int) -> ActionSpace:
    """The action space of a game whose card table holds ``cards`` excavation cards."""
    return ActionSpace(
        [
            ("move", d.SQUARES * 8),
            ("use", len(d.MAGIC_KINDS)),
            ("dig", d.ORIENTATIONS * d.SQUARES),
            ("seal", d.SQUARES),
            ("end", 1),
            ("pay_coins", 1),
            ("pay_treasure", len(d.TREASURE_KINDS)),
            ("give", d.NUM_KINDS),
            ("choose", cards),
        ]
    )


def action_to_string(state: SolomonState, action: int) -> str:
    """The label of ``action`` in ``state`` (``tr.action``: a button, or in the log its log form), or while chance is
    to act the log's line of an outcome (in the past tense, naming whom it concerns)."""
    kind = state._chance_kind()
    if kind is not None:
        return _chance_label(state, kind, action)
    if action < USE0:
        return move_label(action)
    space = state._rules.actions
    if not 0 <= action < space.size:
        return tr.action("action {action}", action=action)
    name, index = space.decode(action)
    if name == "choose":
        return tr.action("choose card {card}", card=state._rules.tables.cards[index].number)
    if name == "use":
        return tr.action("use {item}", item=tr.term("tile", d.MAGIC_NAMES[index]))
    if name == "dig":
        o, anchor = divmod(index, d.SQUARES)
        square = d.square_name(anchor)
        if o:
            where = tr("at {square} ({orientation})", square=square, orientation=orientation_name(o))
        else:
            where = tr("at {square}", square=square)
        if state.order:
            return tr.action("dig card {card} {where}", card=state._card(state._active()).number, where=where)
        return tr.action("dig {where}", where=where)
    if name == "seal":
        return tr.action("Seal: dig {square}", square=d.square_name(index))
    if name == "end":
        return tr.action("end turn without digging")
    if name == "pay_coins":
        coins = state.coins[state._active()] if state.order else 0
        return tr.action("pay {amount} with coins", amount=min(coins, state.owed) or 1)
    if name == "pay_treasure":
        value = d.TREASURE_VALUES[index]
        change = value - state.owed
        if state.phase == "pay" and change > 0:
            return tr.action("pay with treasure {value} (change {change})", value=value, change=change)
        return tr.action("pay with treasure {value}", value=value)
    if state.give_to:
        return tr.action("give {tile} to player {player}", tile=tile_name(index), player=state.give_to[0] + 1)
    return tr.action("give {tile}", tile=tile_name(index))


def _chance_label(state: SolomonState, kind: str, outcome: int) -> str:
    if kind == "deal":
        cards = state._rules.tables.cards
        number = cards[outcome].number if outcome < len(cards) else outcome
        return tr("card {card} dealt to player {player}", card=number, player=(state.cards_dealt % state.num_players) + 1)
    tile = tile_name(outcome) if outcome < d.NUM_KINDS else tr("tile {outcome}", outcome=outcome)
    if kind == "top":
        return tr("{square} revealed: {tile}", square=d.square_name(state.tops_revealed), tile=tile)
    if kind == "reveal":
        return tr("{square} revealed: {tile}", square=d.square_name(state.reveal_queue[0]), tile=tile)
    return tr("player {player} received {tile} face down", player=state.deal_to[0] + 1, tile=tile)


def illegal_reason(state: SolomonState, action: int) -> str:
    """Why ``action`` is not legal in ``state``, in the words of the rules."""
    space = state._rules.actions
    if state._chance_kind() is not None or not 0 <= action < space.size:
        return tr("action {action} is outside this game's action space (0..{last})", action=action, last=space.size - 1)
    name, index = space.decode(action)
    label = action_to_string(state, action)
    if state.phase == "choose":
        if name != "choose":
            return tr("{label}: every player first chooses an excavation card for this round", label=label)
        return tr("{label}: card {card} is not in player {player}'s hand", label=label,
                  card=state._rules.tables.cards[index].number, player=state.chooser + 1)
    seat = state._active()
    card = state._card(seat)
    if name == "choose":
        return tr("{label}: cards are chosen at the start of a round, player {player} is playing card {card}",
                  label=label, player=seat + 1, card=card.number)
    if state.phase == "pay":
        if name == "pay_coins":
            return tr("{label}: player {player} has no coins", label=label, player=seat + 1)
        if name == "pay_treasure":
            return tr("{label}: player {player} has no such treasure", label=label, player=seat + 1)
        return tr("{label}: player {player} must first pay the {owed} still owed for this turn", label=label, player=seat + 1,
                  owed=state.owed)
    if state.phase == "give":
        if name == "give":
            return tr("{label}: player {player} has no {tile} to give", label=label, player=seat + 1, tile=tile_name(index))
        return tr("{label}: player {player} must give one own tile to player {to}", label=label, player=seat + 1,
                  to=state.give_to[0] + 1)
    if state.seal:
        if name != "seal":
            return tr("{label}: the Seal dig has begun ({chosen} of {size} squares chosen); choose its next square",
                      label=label, chosen=len(state.seal), size=card.size)
        return _seal_reason(state, index, label)
    if name in ("pay_coins", "pay_treasure", "give"):
        return tr("{label}: payments come after the dig (or after ending the turn)", label=label)
    if name == "move":
        return _move_reason(state, seat, index, label)
    if name == "use":
        if state.items[index]:
            return tr("{label}: the {item} is already in use this turn", label=label, item=item_name(index))
        return tr("{label}: player {player} holds no {item} (items dug this turn cannot be used)", label=label, player=seat + 1,
                  item=item_name(index))
    if name == "dig":
        return _dig_reason(state, card, index, label)
    if name == "seal":
        if not state.items[d.SEAL]:
            return tr("{label}: digging square by square needs the Seal of Solomon in use", label=label)
        return _seal_reason(state, index, label)
    return tr("{label} is not legal now", label=label)


def _move_reason(state: SolomonState, seat: int, index: int, label: str) -> str:
    frm, to = index // 8, d.MOVE_TARGET[index]
    limit = state.game.options["move_limit"]
    if to < 0:
        return tr("{label}: that leads off the cave", label=label)
    if limit and state.moves >= limit:
        return tr("{label}: at most {limit} moves per turn (option move_limit)", label=label, limit=limit)
    if state.moves >= state._rules.move_limit:
        return tr("{label}: at most {limit} moves per turn, all the money in the game: nobody could pay for more",
                  label=label, limit=state._rules.move_limit)
    if not state._may_move(seat):
        return tr("{label}: player {player} could not pay for move {move}: coins and treasures are worth {wealth}",
                  label=label, player=seat + 1, move=state.moves + 1, wealth=state._wealth(seat))
    if not state.heights[frm]:
        return tr("{label}: {square} is empty", label=label, square=d.square_name(frm))
    if state.heights[to] >= d.MAX_STACK:
        return tr("{label}: {square} already holds {most} tiles", label=label, square=d.square_name(to),
                  most=d.MAX_STACK)
    return tr("{label}: the tile is on level {level} and would land on level {landing}; tiles never move up",
              label=label, level=state.heights[frm], landing=state.heights[to] + 1)


def _dig_reason(state: SolomonState, card: d.Card, index: int, label: str) -> str:
    o, anchor = divmod(index, d.SQUARES)
    if o >= 4 and not state.game.options["mirror_reflect"]:
        return tr("{label}: the Mirror turns the card but never mirrors it (option mirror_reflect)", label=label)
    if o and not state.items[d.MIRROR]:
        return tr("{label}: the card's arrow must point to the entrance; turning it needs the Mirror in use",
                  label=label)
    if o not in card.orientations:
        return tr("{label}: this orientation of card {card} repeats a lower one; use that label", label=label,
                  card=card.number)
    mask = card.masks[o][anchor]
    if not mask:
        return tr("{label}: card {card} placed there leaves the cave", label=label, card=card.number)
    squares = [sq for sq in range(d.SQUARES) if mask >> sq & 1]
    empty = [d.square_name(sq) for sq in squares if not state.heights[sq]]
    if empty:
        return tr("{label}: covers empty square(s) {squares}; an empty square can never be dug", label=label,
                  squares=", ".join(empty))
    levels = sorted({state.heights[sq] for sq in squares})
    return tr("{label}: covers stacks on levels {levels}; all must be on the same level unless the Magic Pickaxe is used",
              label=label, levels=", ".join(map(str, levels)))


def _seal_reason(state: SolomonState, sq: int, label: str) -> str:
    square = d.square_name(sq)
    if not state.heights[sq]:
        return tr("{label}: {square} is empty", label=label, square=square)
    if sq in state.seal:
        return tr("{label}: {square} is already chosen", label=label, square=square)
    if not state.seal:
        return tr("{label}: fewer than {size} connected squares on that level around it", label=label,
                  size=state._card(state._active()).size)
    if state.heights[sq] != state.heights[state.seal[0]] and not state.items[d.PICKAXE]:
        return tr("{label}: the Seal area must stay on level {level} without the Pickaxe", label=label,
                  level=state.heights[state.seal[0]])
    return tr("{label}: the Seal area must stay connected; {square} touches no chosen square", label=label,
              square=square)
