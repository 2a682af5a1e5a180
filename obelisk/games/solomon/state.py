"""Positions and rules of King Solomon's Treasury.

A round: every seat secretly chooses a hand card (sequential hidden choices,
revealed together); turns follow the card numbers from lowest to highest.
A turn is a series of atomic decisions: tile moves ("move C3→D4"), magic
items ("use Mirror"), one dig ("dig card 15 at B2", or square by square
with the Seal), or "end turn without digging"; then the payment of 1 per
move plus the value of every dug curse ("pay 2 with coins", "pay with
treasure 5"). A player who cannot pay pays nothing and the tiles dug this
turn are dealt face down to the opponents.

Hidden information is modelled without hidden identities: a tile below the
top of a stack has never been seen, so the state keeps only how many unseen
tiles each stack holds and the pool of unseen dark-backed tiles; a chance
node draws a tile's kind when it becomes the top (setup draws the 36 gold
tops). The face-down parts that do have identities are the seats' hand
cards, the secretly chosen card of the round and the dug tiles that a
player who could not pay dealt out face down (``secret``).
"""

from __future__ import annotations

import random
from typing import Any, Final

from mypy_extensions import i64

import obelisk.games.solomon.data as d
from obelisk.core import CHANCE, TERMINAL, State
from obelisk.core.protocol import RulesCache
from obelisk.games.solomon.actions import (
    CHOOSE0,
    DIG0,
    END,
    GIVE0,
    PAY_COINS,
    PAY_TREASURE0,
    SEAL0,
    USE0,
    action_to_string,
    illegal_reason,
    tr,
)
from obelisk.games.solomon.rules import LOG_LINES, START_COINS, TOTAL_COINS, Rules
from obelisk.games.solomon.scoring import evaluate, rank_keys, scores, tie_break, treasure_total
from obelisk.games.solomon.view import DIG_ENTRY, MOVE_SHIFT, ROUND_ENTRY, LogEntry, observation, render_state

_BIT: Final = tuple(1 << sq for sq in range(d.SQUARES))
_ARROW_ONLY: Final[tuple[int, ...]] = (0,)
"""The one orientation of a card without the Mirror: its arrow to the entrance."""
_SINGLE: Final[tuple[tuple[int, ...], ...]] = tuple((kind,) for kind in range(d.NUM_KINDS))
"""A one-tile stack per tile kind, shared."""
_WINDOW_SHIFT: Final = 7
"""``d.SIZE + 1``, written as a number so that the compiled code inlines it (as ``_ROW_MASK``)."""


def _window(targets: int, sq: int) -> int:
    """The 3×3 block of square set ``targets`` centred on ``sq`` as 9 bits: row above, own row, row below.

    Fast copy: `_refresh_moves` (inlined on its native ints).
    """
    w = targets << _WINDOW_SHIFT >> sq
    return (w & 0o7) | (w >> 3 & 0o70) | (w >> 6 & 0o700)


def _moves_by_window(sq: int) -> tuple[tuple[int, ...], ...]:
    """``d.MOVE_SETS[sq]`` indexed by the 9-bit window of any square set: a tuple lookup, no hashing.

    Bits of the window that are not neighbours of ``sq`` (the square itself, or
    squares across the cave's edge) are ignored, so the window of a square set
    needs no masking with the neighbours first.
    """
    bits = [(_window(1 << n, sq), n) for n in d.NEIGHBOURS[sq]]
    return tuple(
        d.MOVE_SETS[sq][sum(1 << n for bit, n in bits if window & bit)] for window in range(512)
    )


_STEPS: Final = tuple(_moves_by_window(sq) for sq in range(d.SQUARES))
"""Per square: its move ids by the window of the squares their targets may be (see ``_window``)."""
_ROW_MASK: Final = 0o77
"""The squares of one row of the cave, ``(1 << d.SIZE) - 1``."""
_NOT_FIRST_COLUMN: Final = sum(_BIT[sq] for sq in range(d.SQUARES) if sq % d.SIZE)
_NOT_LAST_COLUMN: Final = sum(_BIT[sq] for sq in range(d.SQUARES) if sq % d.SIZE != d.SIZE - 1)
_ROW_STEPS: Final = tuple(
    (
        first,
        tuple(
            tuple((first + col, _STEPS[first + col]) for col in range(d.SIZE) if picked >> col & 1)
            for picked in range(1 << d.SIZE)
        ),
    )
    for first in range(0, d.SQUARES, d.SIZE)
)
"""Per row of the cave: its first square and, for each 6-bit subset of its squares, their
``(square, move ids by window)``, so a set of squares is walked a row at a time without bit scans."""
_REVEAL_TEXT: Final = tuple(tuple(f"{d.square_name(sq)} now shows {name}" for name in d.KIND_NAMES) for sq in range(d.SQUARES))
_DEAL_TRIES: Final = 8
"""Random deals of face-down tiles tried before drawing a paying player's tiles one by one."""
REMOVED: Final = -1
"""The holder of a face-down tile that was removed from the game (``secret``)."""
_UNDEALT: Final = -2
"""A slot of the penalty deal in progress whose tile is still in ``penalty_pool`` (re-deals only)."""
_M0: Final = d.MAGIC0
_MOVE_TARGET: Final = d.MOVE_TARGET
_TREASURE_KINDS: Final[tuple[int, ...]] = d.TREASURE_KINDS
_TREASURE_VALUE: Final[tuple[int, ...]] = d.TREASURE_VALUE
_CURSE_VALUE: Final = d.CURSE_VALUE
_NEIGHBOUR_MASK: Final = d.NEIGHBOUR_MASK
_MAGIC_KINDS: Final = d.MAGIC_KINDS
_MIRROR: Final = d.MIRROR
_PICKAXE: Final = d.PICKAXE
_SEAL: Final = d.SEAL
_FULL_MASK: Final = d.FULL_MASK
_MAX_STACK: Final = d.MAX_STACK
_SQUARES: Final = d.SQUARES
# The data module is not compiled: reading its names at run time is a lookup each, so hot code reads these.
_NUM_KINDS: Final = d.NUM_KINDS
_AMULET: Final = d.AMULET
_TREASURE0: Final = d.TREASURE0
_KIND_NAMES: Final = d.KIND_NAMES
_RULES: Final = RulesCache()
"""The rules of the game asked about last (see ``SolomonState._rules``)."""


class SolomonState(State):
    """One position; every field is plain data (see ``_init`` for their meaning)."""

    # --- setup ---

    def _init(self) -> None:
        n = self.num_players
        tables = self._rules.tables
        # Face-down pools and the set-up progress.
        self.gold_pool = list(tables.gold)
        self.dark_pool = list(tables.dark)
        self.dark_left = sum(tables.dark)  # the dark pool's total, so that a draw need not add it up
        self.card_pool = [1] * len(tables.cards)
        self.tops_revealed = 0  # squares whose gold-backed top has been drawn
        self.cards_dealt = 0
        # The cave: per square its height, the never-seen tiles at the bottom and
        # the seen tiles above them (bottom to top; the last one is the visible top).
        self.heights = [d.MAX_STACK] * d.SQUARES
        self.unseen = [d.DARK_PER_SQUARE] * d.SQUARES
        self.stacks: list[tuple[int, ...]] = [()] * d.SQUARES
        self.reveal_queue: list[int] = []  # squares whose new top is still to be drawn
        # Kept in step with the heights, so legal moves and digs cost a few integer
        # operations: the bitmask of the squares of each height 0..4 (five native ints:
        # a list of them would allocate a number on every write), and per square the
        # ids of the tile moves its height allows (move limit and money aside).
        self.level0: i64 = 0
        self.level1: i64 = 0
        self.level2: i64 = 0
        self.level3: i64 = 0
        self.level4: i64 = d.FULL_MASK
        self.moves_from: list[tuple[int, ...]] = [()] * d.SQUARES
        self.move_rows: list[tuple[int, ...]] = [()] * d.SIZE  # moves_from joined per row of the cave
        # Behind the screens and next to the board.
        self.coins = [START_COINS[n]] * n
        self.tiles = [[0] * d.NUM_KINDS for _ in range(n)]
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.chosen = [-1] * n  # this round's secret choice until all have chosen
        self.played: list[list[int]] = [[] for _ in range(n)]
        self.supply_coins = TOTAL_COINS - START_COINS[n] * n
        self.supply_treasures = [0] * len(_TREASURE_KINDS)
        # Rounds and turns.
        self.round = 0
        self.phase = "choose"
        self.chooser = 0
        self.round_cards = [-1] * n  # revealed card index per seat this round
        self.order: list[int] = []
        self.turn = 0
        # The turn in progress.
        self.moves = 0
        self.items = [0] * len(_MAGIC_KINDS)  # items used this turn, by kind
        self.seal: list[int] = []  # squares chosen so far with the Seal
        self.dug: list[int] = []  # kinds dug this turn, in square order
        self.dug_at: list[int] = []
        self.owed = 0
        # Players who could not pay: tiles dealt face down and what became of them.
        self.secret: list[list[int]] = []  # [event, holder (REMOVED: out of the game), kind]
        self.spent: list[list[int]] = []  # face-down tiles paid or given away: [event, holder, kind, events by then]
        self.penalties: list[dict[str, Any]] = []
        self.deal_to: list[int] = []  # opponents still to receive a dug tile, in order
        self.penalty_pool = [0] * d.NUM_KINDS
        self.give_to: list[int] = []  # opponents still to get one of the active player's tiles
        self.log: list[LogEntry] = []

    def clone(self) -> "SolomonState":
        """A field-by-field copy: lists of numbers copied flat, tuples shared (faster than the generic copy)."""
        new = SolomonState.__new__(SolomonState)
        new.game = self.game
        new._seed = self._seed
        new._history = self._history[:]
        new._dealt_at = self._dealt_at
        new._legal = self._legal
        new.gold_pool = self.gold_pool[:]
        new.dark_pool = self.dark_pool[:]
        new.dark_left = self.dark_left
        new.card_pool = self.card_pool[:]
        new.tops_revealed = self.tops_revealed
        new.cards_dealt = self.cards_dealt
        new.heights = self.heights[:]
        new.unseen = self.unseen[:]
        new.stacks = self.stacks[:]
        new.reveal_queue = self.reveal_queue[:]
        new.level0 = self.level0
        new.level1 = self.level1
        new.level2 = self.level2
        new.level3 = self.level3
        new.level4 = self.level4
        new.moves_from = self.moves_from[:]
        new.move_rows = self.move_rows[:]
        new.coins = self.coins[:]
        new.tiles = [inner[:] for inner in self.tiles]
        new.hands = [inner[:] for inner in self.hands]
        new.chosen = self.chosen[:]
        new.played = [inner[:] for inner in self.played]
        new.supply_coins = self.supply_coins
        new.supply_treasures = self.supply_treasures[:]
        new.round = self.round
        new.phase = self.phase
        new.chooser = self.chooser
        new.round_cards = self.round_cards[:]
        new.order = self.order[:]
        new.turn = self.turn
        new.moves = self.moves
        new.items = self.items[:]
        new.seal = self.seal[:]
        new.dug = self.dug[:]
        new.dug_at = self.dug_at[:]
        new.owed = self.owed
        new.secret = [inner[:] for inner in self.secret]
        new.spent = [inner[:] for inner in self.spent]
        new.penalties = [
            {**record, "received": record["received"][:], "gifts": [gift[:] for gift in record["gifts"]]}
            for record in self.penalties
        ]
        new.deal_to = self.deal_to[:]
        new.penalty_pool = self.penalty_pool[:]
        new.give_to = self.give_to[:]
        new.log = self.log[:]
        return new

    # --- queries ---

    @property
    def _rules(self) -> Rules:
        """The game's option values and card tables, typed (a state's ``game`` is declared as the base class)."""
        rules: Rules = _RULES.of(self.game)
        return rules

    def _players(self) -> int:
        """The number of players, read off the state (the game's attribute is a slower lookup)."""
        return len(self.coins)

    def _active(self) -> int:
        return self.order[self.turn]

    def _card(self, seat: int) -> d.Card:
        """The excavation card ``seat`` revealed this round (asked only while the round's turns are played)."""
        return self._rules.tables.cards[self.round_cards[seat]]

    def _wealth(self, seat: int) -> int:
        """Coins plus treasure values: everything the seat can pay with (a typed loop: asked on every turn decision)."""
        held = self.tiles[seat]
        total: i64 = self.coins[seat]
        for kind in _TREASURE_KINDS:
            total += held[kind] * _TREASURE_VALUE[kind]
        return total

    def _has_treasure(self, seat: int) -> bool:
        held = self.tiles[seat]
        return any(held[k] for k in _TREASURE_KINDS)

    def _secret_count(self, seat: int, kind: int) -> int:
        return sum(1 for _, holder, k in self.secret if holder == seat and k == kind)

    def _known_tiles(self, seat: int) -> list[int]:
        """The seat's tiles that the other players have seen (all but those received face down)."""
        known = list(self.tiles[seat])
        for _, holder, kind in self.secret:
            if holder == seat:
                known[kind] -= 1
        return known

    def _take_tile(self, seat: int, kind: int) -> None:
        """Remove one tile; a face-down one only when the seat has no openly seen copy left.

        Everyone sees that a face-down tile of this kind left the seat (``spent``),
        though not which penalty it came from: the oldest one, for the seat itself.
        """
        self.tiles[seat][kind] -= 1
        if self.tiles[seat][kind] < self._secret_count(seat, kind):
            for index, (event, holder, k) in enumerate(self.secret):
                if holder == seat and k == kind:
                    del self.secret[index]
                    self.spent.append([event, seat, kind, len(self.penalties)])
                    break

    def _note(self, entry: LogEntry) -> None:
        """Add an entry to the log; it keeps the last ``LOG_LINES`` to ``2 * LOG_LINES`` entries (trimmed in batches)."""
        log = self.log
        log.append(entry)
        if len(log) > 2 * LOG_LINES:
            del log[:LOG_LINES]

    def _chance_kind(self) -> str | None:
        if self.reveal_queue:
            return "reveal"
        if self.deal_to:
            return "penalty"
        if self.cards_dealt < self._rules.cards_to_deal:
            return "top" if self.tops_revealed < _SQUARES else "deal"
        return None

    def _levels(self) -> list[int]:
        """The squares of each height 0..4, as bitmasks."""
        return [self.level0, self.level1, self.level2, self.level3, self.level4]

    def _level(self, height: int) -> i64:
        """The squares of one height, as a bitmask."""
        if height == 4:
            return self.level4
        if height == 3:
            return self.level3
        if height == 2:
            return self.level2
        if height == 1:
            return self.level1
        return self.level0

    def _cross(self, upper: int, bit: i64) -> None:
        """A square (its ``bit``) goes between heights ``upper`` and ``upper - 1``, either way: it changes level."""
        if upper == 4:
            self.level4 ^= bit
            self.level3 ^= bit
        elif upper == 3:
            self.level3 ^= bit
            self.level2 ^= bit
        elif upper == 2:
            self.level2 ^= bit
            self.level1 ^= bit
        else:
            self.level1 ^= bit
            self.level0 ^= bit

    def _movers_onto(self, sq: int, upper: int, uphill: bool) -> i64:
        """The neighbours whose move onto ``sq`` turns allowed or forbidden as its height crosses ``upper - 1``/``upper``.

        Downhill a neighbour may move onto a lower stack, so only those on level ``upper``
        flip; uphill only room matters, so they all flip when ``upper`` is a full stack.
        Together with the changed squares themselves, these are all the squares whose moves change.
        """
        if uphill:
            return _NEIGHBOUR_MASK[sq] if upper == _MAX_STACK else 0
        return _NEIGHBOUR_MASK[sq] & self._level(upper)

    # --- legal actions ---

    # Protocol hooks

    def _current_player(self) -> int:
        """Tested in order of frequency: the turn order is set exactly while a round's turns are played."""
        if self.reveal_queue or self.deal_to:
            return CHANCE
        if self.order:
            return self.order[self.turn]
        if self.phase == "end":
            return TERMINAL
        if self.tops_revealed < _SQUARES:
            return CHANCE
        return CHANCE if self.cards_dealt < self._rules.cards_to_deal else self.chooser

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        """The draw from the face-down pool of the chance node: each kind present, weighted by its count."""
        if self.deal_to and not self.reveal_queue:
            tiles = sum(self.penalty_pool)
            return [(kind, count / tiles) for kind, count in enumerate(self.penalty_pool) if count]
        rules = self._rules
        # The pool's total is known (drawn tiles and cards are counted): one pass over the pool, with
        # native 64-bit counters (no overflow checks of Python ints).
        total: i64
        if self.reveal_queue:
            pool, draws, total = self.dark_pool, rules.dark_draws, self.dark_left
        elif self.tops_revealed < _SQUARES:
            pool, draws, total = self.gold_pool, rules.gold_draws, _SQUARES - self.tops_revealed
        else:
            pool, draws, total = self.card_pool, rules.card_draws, len(self.card_pool) - self.cards_dealt
        outcomes_of = draws.outcomes
        per_count: i64 = draws.per_count
        per_kind: i64 = draws.per_kind
        outcomes: list[Any] = []
        index = total
        for count in pool:  # iterated, not indexed: no bounds check per kind
            if count:
                outcomes.append(outcomes_of[index + count * per_count])
            index += per_kind
        return outcomes

    def _is_outcome(self, action: int) -> bool:
        if self.reveal_queue:
            pool = self.dark_pool
        elif self.deal_to:
            pool = self.penalty_pool
        else:
            pool = self.gold_pool if self.tops_revealed < _SQUARES else self.card_pool
        return 0 <= action < len(pool) and pool[action] > 0

    def _legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == "turn":
            return self._turn_actions(self.order[self.turn])
        ids = self._rules.action_ids
        if phase == "choose":
            return [ids[CHOOSE0 + c] for c in self.hands[self.chooser]]
        seat = self.order[self.turn]
        held = self.tiles[seat]
        if phase == "pay":
            legal: list[Any] = [ids[PAY_COINS]] if self.coins[seat] else []
            legal += [ids[PAY_TREASURE0 + i] for i, k in enumerate(_TREASURE_KINDS) if held[k]]
            return legal
        return [GIVE0 + k for k in range(_NUM_KINDS) if held[k]]

    def _turn_actions(self, seat: int) -> list[int]:
        """The decisions of ``seat``'s turn: tile moves, magic items, digs, Seal squares and ending the turn.

        The move test is a fast copy of `_may_move`, asked on every turn decision.
        """
        if self.seal:
            return [SEAL0 + sq for sq in self._seal_extensions()]
        rules = self._rules
        moves = self.moves
        if moves < rules.move_limit and (  # fast copy of `_may_move`: coins alone settle it most of the time
            not rules.forbid_unaffordable or moves < self.coins[seat] or moves < self._wealth(seat)
        ):
            r1, r2, r3, r4, r5, r6 = self.move_rows
            legal: list[Any] = list(r1)
            legal += r2
            legal += r3
            legal += r4
            legal += r5
            legal += r6
        else:
            legal = []
        ids = rules.action_ids
        items = self.items
        held = self.tiles[seat]
        if held[_M0] or held[_M0 + 1] or held[_M0 + 2] or held[_M0 + 3]:
            legal += [ids[USE0 + i] for i in range(len(_MAGIC_KINDS)) if not items[i] and held[_M0 + i]]
        self._add_digs(legal, self.round_cards[seat])
        if items[_SEAL]:
            legal += [ids[SEAL0 + sq] for sq in self._seal_starts(seat)]
        legal.append(ids[END])
        return legal

    def _may_move(self, seat: int) -> bool:
        """Whether ``seat`` may move another tile this turn: fewer moves than the cap (ruling 15) and, under the
        pay-bound variant (``unaffordable=forbid``), coins and treasures for every move so far and this one.

        Fast copy: `_turn_actions` (the legal list asks on every turn decision).
        """
        rules = self._rules
        if self.moves >= rules.move_limit:
            return False
        return not rules.forbid_unaffordable or self.moves + 1 <= self._wealth(seat)

    def _orientations(self, card: int) -> tuple[int, ...]:
        """The orientations card index ``card`` may be dug in: the arrow to the entrance, or any with the Mirror."""
        if not self.items[_MIRROR]:
            return _ARROW_ONLY
        rules = self._rules
        limit = rules.orientation_limit
        return tuple(o for o in rules.card_orientations[card] if o < limit)

    def _add_digs(self, out: list[Any], card: int) -> None:
        """Append to ``out`` the dig ids (orientation, anchor) of every placement of card index ``card`` that may be
        dug now, ascending.

        A placement may be dug when all its squares are on one level (or, with the
        Pickaxe, merely non-empty). Per cell of the card one AND per level, on the
        level's square mask shifted by the cell's offset, tests every anchor at once.
        """
        items = self.items
        rules = self._rules
        ids = rules.action_ids
        fits = rules.card_fits[card]
        # Per level the squares a placement may cover; with the Pickaxe every non-empty square, as one "level".
        if items[_PICKAXE]:
            on1: i64 = _FULL_MASK & ~self.level0
            on2: i64 = 0
            on3: i64 = 0
            on4: i64 = 0
        else:
            on1 = self.level1
            on2 = self.level2
            on3 = self.level3
            on4 = self.level4
        for o in self._orientations(card):
            anchors, offsets = fits[o]
            fit1: i64 = anchors
            fit2: i64 = anchors
            fit3: i64 = anchors
            fit4: i64 = anchors
            for off in offsets:  # a card has at least one cell
                fit1 &= on1 >> off
                fit2 &= on2 >> off
                fit3 &= on3 >> off
                fit4 &= on4 >> off
            found: i64 = fit1 | fit2 | fit3 | fit4
            dig = DIG0 + o * _SQUARES  # the id of the placement anchored at the square of found's lowest bit
            while found:
                if found & 1:
                    out.append(ids[dig])
                found >>= 1
                dig += 1

    def _seal_starts(self, seat: int) -> list[int]:
        """Squares in an 8-connected area of diggable squares (one level, without the Pickaxe) as big as the card.

        Each area is grown a whole ring at a time with bit operations on square sets.
        """
        need = self._rules.card_sizes[self.round_cards[seat]]
        levels = self._levels()
        areas = [_FULL_MASK & ~levels[0]] if self.items[_PICKAXE] else levels[1:]
        starts = 0
        for rest in areas:
            while rest:
                area = rest & -rest
                while True:
                    grown = _with_neighbours(area) & rest
                    if grown == area:
                        break
                    area = grown
                if area.bit_count() >= need:
                    starts |= area
                rest ^= area
        return [sq for sq in range(_SQUARES) if starts >> sq & 1]

    def _seal_extensions(self) -> list[int]:
        chosen = 0
        reach = 0
        for sq in self.seal:
            chosen |= 1 << sq
            reach |= _NEIGHBOUR_MASK[sq]
        diggable = _FULL_MASK & ~self.level0 if self.items[_PICKAXE] else self._level(self.heights[self.seal[0]])
        reach &= diggable & ~chosen
        return [sq for sq in range(_SQUARES) if reach >> sq & 1]

    # --- applying actions ---

    def _apply_action(self, action: int) -> None:
        """Tested in order of frequency, as in ``_current_player``: draws, then tile moves."""
        if self.reveal_queue:
            self._reveal(action)
            return
        if self.deal_to:
            self._deal_dug_tile(action)
            return
        phase = self.phase
        if phase == "turn" and action < USE0:
            self._move(self.order[self.turn], action)
            return
        if phase == "choose":
            if self.cards_dealt < self._rules.cards_to_deal:
                self._set_up(action)
            else:
                self._choose(action - CHOOSE0)
            return
        name, index = self._rules.actions.decode(action)
        seat = self._active()
        if name == "use":
            self._take_tile(seat, _M0 + index)
            self.items[index] = 1
            self._note(f"player {seat + 1} uses the {d.MAGIC_FULL_NAMES[index]}")
        elif name == "dig":
            o, anchor = divmod(index, _SQUARES)
            self._dig(seat, [anchor + offset for offset in self._rules.card_fits[self.round_cards[seat]][o][1]])
        elif name == "seal":
            self.seal.append(index)
            if len(self.seal) == self._rules.card_sizes[self.round_cards[seat]]:
                self._dig(seat, sorted(self.seal))
        elif name == "end":
            self._note(f"player {seat + 1} ends the turn without digging")
            self._settle(seat)
        elif name == "pay_coins":
            amount = min(self.coins[seat], self.owed)
            self.coins[seat] -= amount
            self.supply_coins += amount
            self.owed -= amount
            self._note(f"player {seat + 1} pays {amount} with coins")
            self._after_payment(seat)
        elif name == "pay_treasure":
            self._pay_treasure(seat, _TREASURE_KINDS[index])
        elif name == "give":
            self._give(seat, index)

    def _reveal(self, outcome: int) -> None:
        """The draw of the new top of the first square in ``reveal_queue`` from the dark-backed pool."""
        queue = self.reveal_queue
        sq = queue.pop() if len(queue) == 1 else queue.pop(0)  # pop() is the compiled fast path
        dark_pool = self.dark_pool
        dark_pool[outcome] = dark_pool[outcome] - 1
        self.dark_left -= 1
        unseen = self.unseen
        unseen[sq] = unseen[sq] - 1
        self.stacks[sq] = _SINGLE[outcome]
        self._note(_REVEAL_TEXT[sq][outcome])

    def _set_up(self, outcome: int) -> None:
        """A draw of the set-up: the gold-backed tops square by square, then the hand cards seat by seat."""
        if self.tops_revealed < _SQUARES:
            gold_pool = self.gold_pool
            gold_pool[outcome] = gold_pool[outcome] - 1
            self.stacks[self.tops_revealed] = _SINGLE[outcome]
            self.tops_revealed += 1
        else:
            card_pool = self.card_pool
            card_pool[outcome] = card_pool[outcome] - 1
            hand = self.hands[self.cards_dealt % self._players()]
            place = len(hand)  # kept sorted: an insertion, as the hand is sorted already
            while place and hand[place - 1] > outcome:
                place -= 1
            hand.insert(place, outcome)
            self.cards_dealt += 1

    def _deal_dug_tile(self, outcome: int) -> None:
        """The draw of the dug tile the next opponent in ``deal_to`` receives face down."""
        seat = self.deal_to.pop(0)
        self.penalty_pool[outcome] -= 1
        self.tiles[seat][outcome] += 1
        event = len(self.penalties) - 1
        self.secret.append([event, seat, outcome])
        self.penalties[event]["received"][seat] += 1
        if not self.deal_to:
            self._finish_penalty_deal()

    def _choose(self, card: int) -> None:
        self.chosen[self.chooser] = card
        self.chooser += 1
        n = self._players()
        if self.chooser < n:
            return
        numbers = self._rules.card_numbers
        for seat, index in enumerate(self.chosen):
            self.hands[seat].remove(index)
            self.played[seat].append(index)
        round_cards = self.chosen
        self.round_cards = round_cards
        self.chosen = [-1] * n
        order: list[int] = []
        for seat in range(n):  # by card number (all differ): an insertion sort of at most 5
            number = numbers[round_cards[seat]]
            place = len(order)
            while place and numbers[round_cards[order[place - 1]]] > number:
                place -= 1
            order.insert(place, seat)
        self.order = order
        self.turn = 0
        entry = [ROUND_ENTRY, self.round + 1]
        for s in self.order:
            entry += (s, numbers[self.round_cards[s]])
        self._note(tuple(entry))
        self._start_turn()

    def _start_turn(self) -> None:
        self.phase = "turn"
        self.moves = 0
        self.items = [0] * len(_MAGIC_KINDS)
        self.seal = []
        self.dug = []
        self.dug_at = []
        self.owed = 0

    def _expose(self, sq: int) -> None:
        """A stack whose seen tiles are gone shows its next unseen tile: queue its draw."""
        if not self.stacks[sq] and self.unseen[sq]:
            self.reveal_queue.append(sq)

    def _move(self, seat: int, action: int) -> None:
        frm = action >> 3
        to = _MOVE_TARGET[action]
        stacks = self.stacks
        stack = stacks[frm]
        tile = stack[-1]
        stacks[frm] = stack[:-1]
        stacks[to] = stacks[to] + _SINGLE[tile]
        heights = self.heights
        hf = heights[frm]
        ht = heights[to]
        heights[frm] = hf - 1
        heights[to] = ht + 1
        bit_from: i64 = _BIT[frm]
        bit_to: i64 = _BIT[to]
        self._cross(hf, bit_from)
        self._cross(ht + 1, bit_to)
        self.moves += 1
        self._note((seat * _NUM_KINDS + tile) << MOVE_SHIFT | action)
        if len(stack) == 1 and self.unseen[frm]:
            self.reveal_queue.append(frm)  # the tile below shows: draw it
        uphill = self._rules.uphill
        self._refresh_moves(
            bit_from | bit_to | self._movers_onto(frm, hf, uphill) | self._movers_onto(to, ht + 1, uphill)
        )

    def _refresh_moves(self, squares: i64) -> None:
        """Recompute ``moves_from`` for the squares of a bitmask (from the heights and the levels).

        A fast copy of `_cave_tables` for a few squares, with `_targets_by_height` and `_window` inlined.
        Square sets are native 64-bit ints here: no overflow checks of Python ints.
        """
        heights = self.heights
        moves_from = self.moves_from
        # The targets of a square by its height (a tuple of them would box each): fast copy of `_targets_by_height`.
        below1: i64
        below2: i64
        below3: i64
        below4: i64
        if self._rules.uphill:
            below1 = below2 = below3 = below4 = _FULL_MASK & ~self.level4
        else:
            below1 = self.level0
            below2 = below1 | self.level1
            below3 = below2 | self.level2
            below4 = below3 | self.level3
        move_rows = self.move_rows
        row = 0
        for first, row_steps in _ROW_STEPS:
            picked: i64 = squares >> first & _ROW_MASK
            if picked:
                for sq, sets in row_steps[picked]:
                    h = heights[sq]
                    targets: i64
                    if h == 4:
                        targets = below4
                    elif h == 3:
                        targets = below3
                    elif h == 2:
                        targets = below2
                    elif h == 1:
                        targets = below1
                    else:
                        targets = 0
                    window: i64 = targets << _WINDOW_SHIFT >> sq  # fast copy of `_window`
                    moves_from[sq] = sets[(window & 0o7) | (window >> 3 & 0o70) | (window >> 6 & 0o700)]
                move_rows[row] = (
                    moves_from[first]
                    + moves_from[first + 1]
                    + moves_from[first + 2]
                    + moves_from[first + 3]
                    + moves_from[first + 4]
                    + moves_from[first + 5]
                )
            row += 1

    def _cave_tables(self) -> tuple[list[int], list[tuple[int, ...]], list[tuple[int, ...]]]:
        """The levels (see ``_levels``), ``moves_from`` and ``move_rows`` as the heights alone determine them.

        The readable definition of the move tables. Fast copy: `_refresh_moves`, which keeps them up to date
        after each move or dig for the squares it changed (``test_engine.py`` compares the two at every step).
        """
        levels = [0] * (d.MAX_STACK + 1)
        for sq, h in enumerate(self.heights):
            levels[h] |= _BIT[sq]
        lower = _targets_by_height(levels, self._rules.uphill)
        moves_from = [sets[_window(lower[h], sq)] for sq, (sets, h) in enumerate(zip(_STEPS, self.heights))]
        rows = [sum(moves_from[first : first + d.SIZE], ()) for first in range(0, d.SQUARES, d.SIZE)]
        return levels, moves_from, rows

    def _sync_cave(self) -> None:
        """Rebuild the move tables after the heights were set by hand (test scenarios)."""
        levels, self.moves_from, self.move_rows = self._cave_tables()
        self.dark_left = sum(self.dark_pool)
        self.level0, self.level1, self.level2, self.level3, self.level4 = levels

    def _dig(self, seat: int, squares: list[int]) -> None:
        heights = self.heights
        uphill = self._rules.uphill
        changed: i64 = 0
        for sq in squares:
            stack = self.stacks[sq]
            tile = stack[-1]
            self.stacks[sq] = stack[:-1]
            h = heights[sq]
            heights[sq] = h - 1
            self._cross(h, _BIT[sq])
            changed |= _BIT[sq] | self._movers_onto(sq, h, uphill)
            held = self.tiles[seat]
            held[tile] = held[tile] + 1
            self.dug.append(tile)
            self.dug_at.append(sq)
            self._expose(sq)
        self._refresh_moves(changed)
        self.seal = []
        self._note(tuple([DIG_ENTRY, seat, *self.dug, *self.dug_at]))
        self._settle(seat)

    def _settle(self, seat: int) -> None:
        """Work out what the turn costs: 1 per move plus the dug curses (unless the Amulet is used)."""
        curses = 0 if self.items[_AMULET] else sum(_CURSE_VALUE[k] for k in self.dug)
        owed = self.moves + curses
        if owed == 0:
            self._finish_turn()
        elif self._wealth(seat) < owed:
            self._note(f"player {seat + 1} cannot pay {owed} and pays nothing")
            self._penalty(seat)
        else:
            self.phase = "pay"
            self.owed = owed
            self._after_payment(seat)

    def _after_payment(self, seat: int) -> None:
        if self.owed == 0:
            self._finish_turn()
        elif not self._has_treasure(seat):
            # Coins are the only means left, and they suffice: no decision to make.
            amount = self.owed
            self.coins[seat] -= amount
            self.supply_coins += amount
            self.owed = 0
            self._note(f"player {seat + 1} pays {amount} with coins")
            self._finish_turn()

    def _pay_treasure(self, seat: int, kind: int) -> None:
        value = _TREASURE_VALUE[kind]
        self._take_tile(seat, kind)
        self.supply_treasures[kind - _TREASURE0] += 1
        if value >= self.owed:
            change = value - self.owed
            self.owed = 0
            got = self._give_change(seat, change)
            self._note(f"player {seat + 1} pays with treasure {value}" + (f", change {got}" if change else ""))
        else:
            self.owed -= value
            self._note(f"player {seat + 1} pays with treasure {value}")
        self._after_payment(seat)

    def _give_change(self, seat: int, amount: int) -> str:
        """Change from the supply: coins first, then treasures; the most the supply can make up to ``amount``."""
        if self._rules.change_unlimited:
            self.coins[seat] += amount
            self.supply_coins -= min(self.supply_coins, amount)
            return f"{amount} coins"
        coins = min(self.supply_coins, amount)
        self.coins[seat] += coins
        self.supply_coins -= coins
        parts = [f"{coins} coins"] if coins else []
        rest = amount - coins
        for total in range(rest, 0, -1):
            picked = _make_change(self.supply_treasures, total)
            if picked is not None:
                for value in picked:
                    self.supply_treasures[value - 1] -= 1
                    self.tiles[seat][_TREASURE0 + value - 1] += 1
                    parts.append(f"treasure {value}")
                break
        return " + ".join(parts) or "none (the supply is empty)"

    def _penalty(self, seat: int) -> None:
        """Deal the dug tiles face down to the opponents, clockwise from the left neighbour."""
        n = self.num_players
        opponents = n - 1
        dug = self.dug
        for kind in dug:
            self.tiles[seat][kind] -= 1
            self.penalty_pool[kind] += 1
        if len(dug) >= opponents:
            self.deal_to = [(seat + 1 + j % opponents) % n for j in range(len(dug) // opponents * opponents)]
            self.give_to = []
        else:
            self.deal_to = [(seat + 1 + j) % n for j in range(len(dug))]
            self.give_to = [(seat + 1 + j) % n for j in range(len(dug), opponents)]
        self.penalties.append({"seat": seat, "tiles": sorted(dug), "received": [0] * n, "removed": 0, "gifts": []})
        self.phase = "give"
        if not self.deal_to:
            self._finish_penalty_deal()

    def _finish_penalty_deal(self) -> None:
        event = len(self.penalties) - 1
        record = self.penalties[event]
        for kind in range(_NUM_KINDS):
            for _ in range(self.penalty_pool[kind]):
                self.secret.append([event, REMOVED, kind])
                record["removed"] += 1
            self.penalty_pool[kind] = 0
        seat = record["seat"]
        dealt = sum(record["received"])
        if dealt:
            self._note(
                f"player {seat + 1}'s {len(record['tiles'])} dug tiles are dealt face down"
                + (f", {record['removed']} removed" if record["removed"] else "")
            )
        if not self.give_to or not any(self.tiles[seat]):
            self.give_to = []
            self._finish_turn()

    def _give(self, seat: int, kind: int) -> None:
        self._take_tile(seat, kind)
        to = self.give_to.pop(0)
        self.tiles[to][kind] += 1
        self.penalties[-1]["gifts"].append([to, kind])
        self._note(f"player {seat + 1} gives {_KIND_NAMES[kind]} to player {to + 1}")
        if not self.give_to or not any(self.tiles[seat]):
            self.give_to = []
            self._finish_turn()

    def _finish_turn(self) -> None:
        self._start_turn()
        self.turn += 1
        n = self._players()
        if self.turn < n:
            return
        self.round += 1
        self.round_cards = [-1] * n
        self.order = []
        self.turn = 0
        if self.round == self._rules.rounds:
            self.phase = "end"
        else:
            self.phase = "choose"
            self.chooser = 0

    # --- views, scoring and hidden information ---

    # Labels, views and results: the modules below

    def _action_to_string(self, action: int) -> str:
        return action_to_string(self, action)

    def _illegal_reason(self, action: int) -> str:
        return illegal_reason(self, action)

    def _observation(self, seat: int | None) -> dict[str, Any]:
        return observation(self, seat)

    def _render(self) -> str:
        return render_state(self)

    def _scores(self) -> list[dict[str, Any]]:
        return scores(self.coins, self.tiles)

    def _rank_keys(self) -> list[Any]:
        return rank_keys(self.coins, self.tiles, self.game.options["tiebreak"])

    def _tie_break(self, ahead: int, behind: int) -> str | None:
        return tie_break(self, ahead, behind)

    def _evaluate(self) -> list[float]:
        return evaluate(
            self.coins, self.tiles, self.phase, self.order, self.turn, self.moves, self.owed, self.items, self.dug
        )

    # Visibility

    def _action_visible_to(self, action: int, seat: int | None) -> bool:
        kind = self._chance_kind()
        if kind == "deal":
            return seat == self.cards_dealt % self.num_players
        if kind == "penalty":
            return seat == self.deal_to[0]
        if kind is None and self.phase == "choose":
            return seat == self.chooser
        return True

    def _hidden_action_string(self, action: int) -> str:
        kind = self._chance_kind()
        if kind == "deal":
            return tr("player {player} was dealt a card", player=(self.cards_dealt % self.num_players) + 1)
        if kind == "penalty":
            return tr("player {player} received a dug tile face down", player=self.deal_to[0] + 1)
        return tr("chose a card")

    def _reveals(self, action: int) -> bool:
        """Whether the decision shows anyone something hidden, so that it cannot be taken back.

        The last secret card choice of a round turns all the chosen cards face up;
        spending or giving a tile received face down shows its kind; a move or a dig
        that empties a stack's seen tiles shows the unseen tile below (a draw); a
        cannot-pay dig deals its tiles face down; the last turn ends the game, whose
        result shows every hand. A seat holding face-down tiles shows something of
        their worth whenever it settles or pays (whether it can pay, whether coins
        alone are left). Other moves, items, digs and payments are seen by all and
        show nobody anything new.
        """
        if self.phase == "choose":
            return self.chooser == self.num_players - 1
        after = self.clone()
        after._apply_action(action)
        return after._current_player() in (CHANCE, TERMINAL) or self._shown_by(after)

    def _is_final(self, action: int) -> bool:
        """Revealing, or another actor (chance, the end) after it.

        A secret card choice hands the choice to the next seat; a tile move keeps the turn and is final
        exactly when it uncovers an unseen tile (a draw follows), read off the stack it leaves without a
        copy, since a turn offers dozens of moves; anything else is looked at on one copy.
        """
        if self.phase == "choose":
            return True
        if self.phase == "turn" and action < USE0:
            frm = action >> 3
            return len(self.stacks[frm]) == 1 and self.unseen[frm] > 0
        after = self.clone()
        after._apply_action(action)
        return after._current_player() != self._current_player() or self._shown_by(after)

    def _shown_by(self, after: "SolomonState") -> bool:
        """Whether tiles were dealt face down between here and ``after``, or the active seat, holding tiles
        received face down, settled up (whether it can pay, or has coins only, tells of their worth)."""
        if after.secret != self.secret:
            return True
        seat = self._active()
        settles = self.phase != "turn" or after.phase != "turn" or after.turn != self.turn
        return settles and any(holder == seat for _, holder, _k in self.secret)

    # Re-deals

    def _resample(self, seat: int, rng: random.Random) -> "SolomonState":
        """Re-deal the opponents' hands (and chosen cards) and the face-down penalty tiles ``seat`` has not seen.

        Only what ``seat`` sees is read (see ``_redeal_face_down``), so two positions
        it cannot tell apart are re-dealt alike by the same generator.
        """
        new = self.clone()
        if self.phase == "end" and self._chance_kind() is None:
            return new
        others = [q for q in range(self.num_players) if q != seat]
        unseen = [c for c, count in enumerate(new.card_pool) if count]  # each card is in the pool at most once
        for q in others:
            unseen += new.hands[q]
        unseen.sort()  # sorted: the re-deal must not depend on the truth
        rng.shuffle(unseen)
        for q in others:
            size = len(new.hands[q])
            hand = sorted(unseen[:size])
            del unseen[:size]
            new.hands[q] = hand
            if new.chosen[q] >= 0:
                new.chosen[q] = rng.choice(hand)
        new.card_pool = [0] * len(new.card_pool)
        for c in unseen:
            new.card_pool[c] += 1
        self._redeal_face_down(new, seat, rng)
        return new

    def _redeal_face_down(self, new: "SolomonState", seat: int, rng: random.Random) -> None:
        """Deal again every face-down penalty tile ``seat`` has not seen, from what is public alone.

        Public per penalty: its dug tiles, how many each opponent received and how
        many were removed (or are still to deal); and which kinds of face-down tile
        each holder later paid or gave away, but not from which penalty. So each
        penalty's tiles minus those ``seat`` received are dealt again to its slots,
        each tile spent since placed in a slot of its holder in an earlier penalty,
        and a player in the middle of paying keeps enough treasure to pay.
        """
        if not self.penalties:
            return
        pools, slots = self._face_down_slots(seat)
        spent = [(holder, kind, by) for _, holder, kind, by in self.spent if holder != seat]
        # The seat whose face-down tiles must cover a payment under way; ``seat`` (whose tiles
        # are not re-dealt) when there is none.
        payer = self.order[self.turn] if self.phase == "pay" and self.order else seat
        need = 0
        if payer != seat:
            # What the payer's seen tiles and coins cannot cover must come from its face-down
            # tiles; and it is deciding how to pay, so it holds a treasure (coins alone are paid
            # without a decision).
            known = self._known_tiles(payer)
            need = self.owed - self.coins[payer] - treasure_total(known)
            if not any(known[k] for k in _TREASURE_KINDS):
                need = max(need, 1)
        kinds: list[list[int]] = [[-1] * len(event_slots) for event_slots in slots]
        spent_at: list[tuple[int, int]] = []
        if not _place_spent(spent, 0, pools, slots, kinds, spent_at, payer, need, rng):
            raise RuntimeError("no deal of the face-down tiles fits what is public, yet the true one does")
        payer_counts = [sum(1 for h, k in zip(hs, ks) if h == payer and k < 0) for hs, ks in zip(slots, kinds)]
        rest = [sorted(_without(pool, [k for k in ks if k >= 0])) for pool, ks in zip(pools, kinds)]
        for e, (to_payer, to_others) in enumerate(_deal_face_down(rest, payer_counts, need, rng)):
            free_payer = iter(to_payer)
            free_others = iter(to_others)
            for j, holder in enumerate(slots[e]):
                if kinds[e][j] < 0:
                    kinds[e][j] = next(free_payer) if holder == payer else next(free_others)
        self._place_face_down(new, seat, slots, kinds, spent_at)

    def _face_down_slots(self, seat: int) -> tuple[list[list[int]], list[list[int]]]:
        """Per penalty: the kinds ``seat`` has not seen, and the holder of each of their slots (public).

        The slots of a penalty are its opponents in seat order (one per tile each
        received, ``seat`` left out), then ``REMOVED`` ones, then ``_UNDEALT`` ones
        while its deal is in progress.
        """
        pools: list[list[int]] = []
        slots: list[list[int]] = []
        last = len(self.penalties) - 1
        for e, record in enumerate(self.penalties):
            own = [k for event, h, k in self.secret if event == e and h == seat]
            own += [k for event, h, k, _ in self.spent if event == e and h == seat]
            pools.append(sorted(_without(list(record["tiles"]), own)))
            holders: list[int] = []
            for q in range(self.num_players):
                if q != seat:
                    holders += [q] * record["received"][q]
            holders += [REMOVED] * record["removed"]
            if e == last and self.deal_to:
                holders += [_UNDEALT] * sum(self.penalty_pool)
            slots.append(holders)
        return pools, slots

    def _place_face_down(
        self,
        new: "SolomonState",
        seat: int,
        slots: list[list[int]],
        kinds: list[list[int]],
        spent_at: list[tuple[int, int]],
    ) -> None:
        """Write a deal into ``new``: the holders' tiles, ``secret``, ``spent`` and the undealt ``penalty_pool``."""
        n = self.num_players
        for q in range(n):
            if q != seat:
                new.tiles[q] = self._known_tiles(q)
        spent_slots = set(spent_at)
        secret: list[list[int]] = []
        pool = [0] * d.NUM_KINDS
        for e, (holders, event_kinds) in enumerate(zip(slots, kinds)):
            secret += [entry[:] for entry in self.secret if entry[0] == e and entry[1] == seat]
            for j, (holder, kind) in enumerate(zip(holders, event_kinds)):
                if holder == _UNDEALT:
                    pool[kind] += 1
                elif (e, j) not in spent_slots:
                    secret.append([e, holder, kind])
                    if holder != REMOVED:
                        new.tiles[holder][kind] += 1
        new.secret = secret
        spent = iter(spent_at)
        new.spent = []
        for entry in self.spent:
            if entry[1] == seat:
                new.spent.append(entry[:])
            else:
                e, j = next(spent)
                new.spent.append([e, entry[1], kinds[e][j], entry[3]])
        if self.deal_to:
            new.penalty_pool = pool


def _deal_face_down(
    pools: list[list[int]], payer_counts: list[int], need: int, rng: random.Random
) -> list[tuple[list[int], list[int]]]:
    """Deal each event's pool of tile kinds: ``payer_counts[e]`` to the payer, the rest in random order.

    The payer's tiles must be worth at least ``need`` in treasure values. Uniform
    random deals are tried first (the first that qualifies is a uniform draw among
    qualifying deals); if none does, the payer's tiles are drawn one by one, each
    uniformly among those that still leave a qualifying completion, which exists
    whenever the true deal qualifies. The true deal itself is never consulted.
    """
    for _ in range(_DEAL_TRIES):
        shuffled = [rng.sample(pool, len(pool)) for pool in pools]
        value = sum(_TREASURE_VALUE[k] for pool, count in zip(shuffled, payer_counts) for k in pool[:count])
        if need <= 0 or value >= need:
            return [(pool[:count], pool[count:]) for pool, count in zip(shuffled, payer_counts)]
    remaining = [list(pool) for pool in pools]
    to_payer: list[list[int]] = [[] for _ in pools]

    def best(missing: list[int]) -> int:
        return sum(
            sum(sorted((_TREASURE_VALUE[k] for k in pool), reverse=True)[:count])
            for pool, count in zip(remaining, missing)
        )

    missing = list(payer_counts)
    short = need
    for e in range(len(pools)):
        while missing[e]:
            missing[e] -= 1
            options = []
            for j, kind in enumerate(remaining[e]):
                del remaining[e][j]
                if _TREASURE_VALUE[kind] + best(missing) >= short:
                    options.append(j)
                remaining[e].insert(j, kind)
            kind = remaining[e].pop(rng.choice(options) if options else 0)
            to_payer[e].append(kind)
            short -= _TREASURE_VALUE[kind]
    for pool in remaining:
        rng.shuffle(pool)
    return list(zip(to_payer, remaining))


def _without(values: list[int], taken: list[int]) -> list[int]:
    """``values`` with one occurrence of each of ``taken`` removed."""
    rest = list(values)
    for value in taken:
        rest.remove(value)
    return rest


def _place_spent(
    spent: list[tuple[int, int, int]],
    index: int,
    pools: list[list[int]],
    slots: list[list[int]],
    kinds: list[list[int]],
    spent_at: list[tuple[int, int]],
    payer: int,
    need: int,
    rng: random.Random,
) -> bool:
    """Give each spent face-down tile (``(holder, kind, penalties by then)``, from ``index`` on) a slot of its
    holder in an earlier penalty whose pool still has that kind, penalties tried in random order; and leave
    the payer's free slots able to cover ``need``. Backtracks; False if no placement fits."""
    if index == len(spent):
        if need <= 0:
            return True
        best = 0
        for pool, holders, event_kinds in zip(pools, slots, kinds):
            free = sum(1 for h, k in zip(holders, event_kinds) if h == payer and k < 0)
            rest = _without(pool, [k for k in event_kinds if k >= 0])
            best += sum(sorted((_TREASURE_VALUE[k] for k in rest), reverse=True)[:free])
        return best >= need
    holder, kind, by = spent[index]
    options: list[tuple[int, int]] = []
    for e in range(min(by, len(slots))):
        taken = sum(1 for k in kinds[e] if k == kind)
        if pools[e].count(kind) > taken:
            for j, h in enumerate(slots[e]):
                if h == holder and kinds[e][j] < 0:
                    options.append((e, j))
                    break
    rng.shuffle(options)
    for e, j in options:
        kinds[e][j] = kind
        spent_at.append((e, j))
        if _place_spent(spent, index + 1, pools, slots, kinds, spent_at, payer, need, rng):
            return True
        spent_at.pop()
        kinds[e][j] = -1
    return False


def _with_neighbours(squares: int) -> int:
    """A set of squares (bitmask) together with all their 8 neighbours on the cave."""
    across = squares | (squares << 1 & _NOT_FIRST_COLUMN) | (squares >> 1 & _NOT_LAST_COLUMN)
    return (across | across << d.SIZE | across >> d.SIZE) & d.FULL_MASK


def _targets_by_height(levels: list[int], uphill: bool) -> tuple[int, ...]:
    """Per height 0..4 of a square: the bitmask of the squares a tile from it may move onto.

    A tile moves onto a stack lower than its own square's, never up; uphill (the beginner variant) onto any
    stack with room. Fast copy: `_refresh_moves`.
    """
    if uphill:
        room = d.FULL_MASK & ~levels[d.MAX_STACK]
        return (0, room, room, room, room)
    below2 = levels[0] | levels[1]
    below3 = below2 | levels[2]
    return (0, levels[0], below2, below3, below3 | levels[3])


def _make_change(supply: list[int], total: int) -> list[int] | None:
    """Treasure values from ``supply`` (counts of values 1..5) summing exactly to ``total``, largest first."""
    picked: list[int] = []

    def search(rest: int, largest: int) -> bool:
        if rest == 0:
            return True
        for value in range(min(rest, largest), 0, -1):
            if supply[value - 1] - picked.count(value) > 0:
                picked.append(value)
                if search(rest - value, value):
                    return True
                picked.pop()
        return False

    return picked if search(total, len(supply)) else None
