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

import math
import random
from typing import Any

from obelisk.core import CHANCE, TERMINAL, State
from obelisk.core.pools import deal_random, pool_outcomes
from obelisk.games.solomon import data as d
from obelisk.games.solomon.render import render_state
from obelisk.games.solomon.scoring import curse_total, magic_count, score_table, scroll_sets, treasure_total

ROUNDS = {2: 12, 3: 8, 4: 6, 5: 5}
"""Cards dealt per player = number of rounds."""
START_COINS = {2: 10, 3: 10, 4: 10, 5: 8}
TOTAL_COINS = 40
LOG_LINES = 16

PHASES = ("choose", "turn", "pay", "give", "end")


class SolomonState(State):
    """One position; every field is plain data (see ``_init`` for their meaning)."""

    # Set-up ----------------------------------------------------------------

    def _init(self) -> None:
        n = self.num_players
        tables = self.game.tables
        # Face-down pools and the set-up progress.
        self.gold_pool = list(tables.gold)
        self.dark_pool = list(tables.dark)
        self.card_pool = [1] * len(tables.cards)
        self.tops_revealed = 0  # squares whose gold-backed top has been drawn
        self.cards_dealt = 0
        # The cave: per square its height, the never-seen tiles at the bottom and
        # the seen tiles above them (bottom to top; the last one is the visible top).
        self.heights = [d.MAX_STACK] * d.SQUARES
        self.unseen = [d.DARK_PER_SQUARE] * d.SQUARES
        self.stacks: list[list[int]] = [[] for _ in range(d.SQUARES)]
        self.reveal_queue: list[int] = []  # squares whose new top is still to be drawn
        # Behind the screens and next to the board.
        self.coins = [START_COINS[n]] * n
        self.tiles = [[0] * d.NUM_KINDS for _ in range(n)]
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.chosen = [-1] * n  # this round's secret choice until all have chosen
        self.played: list[list[int]] = [[] for _ in range(n)]
        self.supply_coins = TOTAL_COINS - START_COINS[n] * n
        self.supply_treasures = [0] * len(d.TREASURE_KINDS)
        # Rounds and turns.
        self.round = 0
        self.phase = "choose"
        self.chooser = 0
        self.round_cards = [-1] * n  # revealed card index per seat this round
        self.order: list[int] = []
        self.turn = 0
        # The turn in progress.
        self.moves = 0
        self.items = [0] * len(d.MAGIC_KINDS)  # items used this turn, by kind
        self.seal: list[int] = []  # squares chosen so far with the Seal
        self.dug: list[int] = []  # kinds dug this turn, in square order
        self.dug_at: list[int] = []
        self.owed = 0
        # Players who could not pay: tiles dealt face down and what became of them.
        self.secret: list[list[int]] = []  # [event, holder (-1 = removed from the game), kind]
        self.penalties: list[dict[str, Any]] = []
        self.deal_to: list[int] = []  # opponents still to receive a dug tile, in order
        self.penalty_pool = [0] * d.NUM_KINDS
        self.give_to: list[int] = []  # opponents still to get one of the active player's tiles
        self.log: list[str] = []

    # Small helpers -----------------------------------------------------------

    @property
    def _tables(self) -> d.Tables:
        return self.game.tables

    def _active(self) -> int:
        return self.order[self.turn]

    def _card(self, seat: int) -> d.Card | None:
        index = self.round_cards[seat]
        return self._tables.cards[index] if index >= 0 else None

    def _wealth(self, seat: int) -> int:
        """Coins plus treasure values: everything the seat can pay with."""
        return self.coins[seat] + treasure_total(self.tiles[seat])

    def _has_treasure(self, seat: int) -> bool:
        held = self.tiles[seat]
        return any(held[k] for k in d.TREASURE_KINDS)

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
        """Remove one tile; a face-down one only when the seat has no openly seen copy left."""
        self.tiles[seat][kind] -= 1
        if self.tiles[seat][kind] < self._secret_count(seat, kind):
            for index, (_, holder, k) in enumerate(self.secret):
                if holder == seat and k == kind:
                    del self.secret[index]
                    break

    def _note(self, line: str) -> None:
        self.log.append(line)
        if len(self.log) > LOG_LINES:
            del self.log[0]

    def _chance_kind(self) -> str | None:
        if self.cards_dealt < self.game.cards_to_deal:
            return "top" if self.tops_revealed < d.SQUARES else "deal"
        if self.reveal_queue:
            return "reveal"
        if self.deal_to:
            return "penalty"
        return None

    # Protocol hooks ----------------------------------------------------------

    def _current_player(self) -> int:
        if self._chance_kind() is not None:
            return CHANCE
        if self.phase == "end":
            return TERMINAL
        if self.phase == "choose":
            return self.chooser
        return self.order[self.turn]

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        kind = self._chance_kind()
        if kind == "top":
            return pool_outcomes(self.gold_pool)
        if kind == "deal":
            return pool_outcomes(self.card_pool)
        if kind == "reveal":
            return pool_outcomes(self.dark_pool)
        return pool_outcomes(self.penalty_pool)

    def _legal_actions(self) -> list[int]:
        space = self.game.actions
        if self.phase == "choose":
            start = space.start("choose")
            return [start + c for c in self.hands[self.chooser]]
        seat = self._active()
        if self.phase == "pay":
            legal = []
            if self.coins[seat]:
                legal.append(space.start("pay_coins"))
            start = space.start("pay_treasure")
            legal += [start + i for i, k in enumerate(d.TREASURE_KINDS) if self.tiles[seat][k]]
            return legal
        if self.phase == "give":
            start = space.start("give")
            return [start + k for k in range(d.NUM_KINDS) if self.tiles[seat][k]]
        return self._turn_actions(seat)

    def _turn_actions(self, seat: int) -> list[int]:
        space = self.game.actions
        heights = self.heights
        if self.seal:
            start = space.start("seal")
            return [start + sq for sq in self._seal_extensions()]
        legal = []
        if self._may_move(seat):
            # Move ids start at 0: action = square * 8 + direction.
            uphill = self.game.options["uphill"]
            for sq, h in enumerate(heights):
                if h:
                    cap = d.MAX_STACK if uphill else h
                    legal += [action for action, to in d.MOVES_FROM[sq] if heights[to] < cap]
        start = space.start("use")
        held = self.tiles[seat]
        legal += [start + i for i in range(len(d.MAGIC_KINDS)) if not self.items[i] and held[d.MAGIC0 + i]]
        start = space.start("dig")
        legal += [start + o * d.SQUARES + anchor for o, anchor, _ in self._legal_digs(seat)]
        if self.items[d.SEAL]:
            start = space.start("seal")
            legal += [start + sq for sq in self._seal_starts(seat)]
        legal.append(space.start("end"))
        return legal

    def _may_move(self, seat: int) -> bool:
        if self.moves >= self.game.options["move_limit"]:
            return False
        return self.game.options["unaffordable"] != "forbid" or self.moves + 1 <= self._wealth(seat)

    def _orientations(self, card: d.Card) -> tuple[int, ...]:
        if not self.items[d.MIRROR]:
            return (0,)
        if self.game.options["mirror_reflect"]:
            return card.orientations
        return tuple(o for o in card.orientations if o < 4)

    def _level_masks(self) -> tuple[int, list[int]]:
        """Bitmask of non-empty squares and, per height 1..4, the squares of that height."""
        levels = [0] * (d.MAX_STACK + 1)
        for sq, h in enumerate(self.heights):
            levels[h] |= 1 << sq
        return ((1 << d.SQUARES) - 1) & ~levels[0], levels

    def _legal_digs(self, seat: int) -> list[tuple[int, int, int]]:
        """``(orientation, anchor, mask)`` of every placement of the active card that may be dug now."""
        card = self._card(seat)
        filled, levels = self._level_masks()
        pickaxe = self.items[d.PICKAXE]
        heights = self.heights
        out = []
        for o in self._orientations(card):
            for anchor, mask in card.placements[o]:
                if mask & ~filled:
                    continue
                if not pickaxe and mask & ~levels[heights[(mask & -mask).bit_length() - 1]]:
                    continue
                out.append((o, anchor, mask))
        return out

    def _seal_component_sizes(self) -> list[int]:
        """For each square, the size of its 8-connected area of diggable squares (same level without the Pickaxe)."""
        heights = self.heights
        pickaxe = self.items[d.PICKAXE]
        size = [0] * d.SQUARES
        seen = [False] * d.SQUARES
        for start in range(d.SQUARES):
            if seen[start] or not heights[start]:
                continue
            members = [start]
            seen[start] = True
            i = 0
            while i < len(members):
                sq = members[i]
                i += 1
                for nb in d.NEIGHBOURS[sq]:
                    if not seen[nb] and heights[nb] and (pickaxe or heights[nb] == heights[start]):
                        seen[nb] = True
                        members.append(nb)
            for sq in members:
                size[sq] = len(members)
        return size

    def _seal_starts(self, seat: int) -> list[int]:
        need = self._card(seat).size
        sizes = self._seal_component_sizes()
        return [sq for sq in range(d.SQUARES) if sizes[sq] >= need]

    def _seal_extensions(self) -> list[int]:
        chosen = 0
        reach = 0
        for sq in self.seal:
            chosen |= 1 << sq
            reach |= d.NEIGHBOUR_MASK[sq]
        reach &= ~chosen
        level = self.heights[self.seal[0]]
        pickaxe = self.items[d.PICKAXE]
        return [
            sq
            for sq in range(d.SQUARES)
            if reach >> sq & 1 and self.heights[sq] and (pickaxe or self.heights[sq] == level)
        ]

    # Applying actions -----------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        kind = self._chance_kind()
        if kind is not None:
            self._apply_chance(kind, action)
            return
        name, index = self.game.actions.decode(action)
        if name == "choose":
            self._choose(index)
            return
        seat = self._active()
        if name == "move":
            self._move(seat, index // 8, d.MOVE_TARGET[index])
        elif name == "use":
            self._take_tile(seat, d.MAGIC0 + index)
            self.items[index] = 1
            self._note(f"seat {seat} uses the {d.MAGIC_FULL_NAMES[index]}")
        elif name == "dig":
            o, anchor = divmod(index, d.SQUARES)
            mask = self._card(seat).masks[o][anchor]
            self._dig(seat, [sq for sq in range(d.SQUARES) if mask >> sq & 1])
        elif name == "seal":
            self.seal.append(index)
            if len(self.seal) == self._card(seat).size:
                self._dig(seat, sorted(self.seal))
        elif name == "end":
            self._note(f"seat {seat} ends the turn without digging")
            self._settle(seat)
        elif name == "pay_coins":
            amount = min(self.coins[seat], self.owed)
            self.coins[seat] -= amount
            self.supply_coins += amount
            self.owed -= amount
            self._note(f"seat {seat} pays {amount} with coins")
            self._after_payment(seat)
        elif name == "pay_treasure":
            self._pay_treasure(seat, d.TREASURE_KINDS[index])
        elif name == "give":
            self._give(seat, index)

    def _apply_chance(self, kind: str, outcome: int) -> None:
        if kind == "top":
            self.gold_pool[outcome] -= 1
            self.stacks[self.tops_revealed] = [outcome]
            self.tops_revealed += 1
        elif kind == "deal":
            self.card_pool[outcome] -= 1
            hand = self.hands[self.cards_dealt % self.num_players]
            hand.append(outcome)
            hand.sort()
            self.cards_dealt += 1
        elif kind == "reveal":
            sq = self.reveal_queue.pop(0)
            self.dark_pool[outcome] -= 1
            self.unseen[sq] -= 1
            self.stacks[sq] = [outcome]
            self._note(f"{d.square_name(sq)} now shows {d.KIND_NAMES[outcome]}")
        else:
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
        if self.chooser < self.num_players:
            return
        cards = self._tables.cards
        for seat, index in enumerate(self.chosen):
            self.hands[seat].remove(index)
            self.played[seat].append(index)
        self.round_cards = list(self.chosen)
        self.chosen = [-1] * self.num_players
        self.order = sorted(range(self.num_players), key=lambda s: cards[self.round_cards[s]].number)
        self.turn = 0
        self._note(
            f"round {self.round + 1}: "
            + ", ".join(f"seat {s} plays card {cards[self.round_cards[s]].number}" for s in self.order)
        )
        self._start_turn()

    def _start_turn(self) -> None:
        self.phase = "turn"
        self.moves = 0
        self.items = [0] * len(d.MAGIC_KINDS)
        self.seal = []
        self.dug = []
        self.dug_at = []
        self.owed = 0

    def _expose(self, sq: int) -> None:
        """A stack whose seen tiles are gone shows its next unseen tile: queue its draw."""
        if not self.stacks[sq] and self.unseen[sq]:
            self.reveal_queue.append(sq)

    def _move(self, seat: int, frm: int, to: int) -> None:
        tile = self.stacks[frm].pop()
        self.heights[frm] -= 1
        self.stacks[to].append(tile)
        self.heights[to] += 1
        self.moves += 1
        self._note(f"seat {seat} moves {d.KIND_NAMES[tile]} {d.square_name(frm)}→{d.square_name(to)}")
        self._expose(frm)

    def _dig(self, seat: int, squares: list[int]) -> None:
        for sq in squares:
            tile = self.stacks[sq].pop()
            self.heights[sq] -= 1
            self.tiles[seat][tile] += 1
            self.dug.append(tile)
            self.dug_at.append(sq)
            self._expose(sq)
        self.seal = []
        found = ", ".join(f"{d.KIND_NAMES[k]} ({d.square_name(sq)})" for k, sq in zip(self.dug, self.dug_at))
        self._note(f"seat {seat} digs {found}")
        self._settle(seat)

    def _settle(self, seat: int) -> None:
        """Work out what the turn costs: 1 per move plus the dug curses (unless the Amulet is used)."""
        curses = 0 if self.items[d.AMULET] else sum(d.CURSE_VALUE[k] for k in self.dug)
        owed = self.moves + curses
        if owed == 0:
            self._finish_turn()
        elif self._wealth(seat) < owed:
            self._note(f"seat {seat} cannot pay {owed} and pays nothing")
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
            self._note(f"seat {seat} pays {amount} with coins")
            self._finish_turn()

    def _pay_treasure(self, seat: int, kind: int) -> None:
        value = d.TREASURE_VALUE[kind]
        self._take_tile(seat, kind)
        self.supply_treasures[kind - d.TREASURE0] += 1
        if value >= self.owed:
            change = value - self.owed
            self.owed = 0
            got = self._give_change(seat, change)
            self._note(f"seat {seat} pays with treasure {value}" + (f", change {got}" if change else ""))
        else:
            self.owed -= value
            self._note(f"seat {seat} pays with treasure {value}")
        self._after_payment(seat)

    def _give_change(self, seat: int, amount: int) -> str:
        """Change from the supply: coins first, then treasures; the most the supply can make up to ``amount``."""
        if self.game.options["change"] == "unlimited":
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
                    self.tiles[seat][d.TREASURE0 + value - 1] += 1
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
        for kind in range(d.NUM_KINDS):
            for _ in range(self.penalty_pool[kind]):
                self.secret.append([event, -1, kind])
                record["removed"] += 1
            self.penalty_pool[kind] = 0
        seat = record["seat"]
        dealt = sum(record["received"])
        if dealt:
            self._note(
                f"seat {seat}'s {len(record['tiles'])} dug tiles are dealt face down"
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
        self._note(f"seat {seat} gives {d.KIND_NAMES[kind]} to seat {to}")
        if not self.give_to or not any(self.tiles[seat]):
            self.give_to = []
            self._finish_turn()

    def _finish_turn(self) -> None:
        self._start_turn()
        self.turn += 1
        if self.turn < self.num_players:
            return
        self.round += 1
        self.round_cards = [-1] * self.num_players
        self.order = []
        self.turn = 0
        if self.round == ROUNDS[self.num_players]:
            self.phase = "end"
        else:
            self.phase = "choose"
            self.chooser = 0

    # Labels and reasons -------------------------------------------------------

    def _action_to_string(self, action: int) -> str:
        kind = self._chance_kind()
        if kind is not None:
            return self._chance_label(kind, action)
        if action < d.SQUARES * 8:
            return self.game.move_labels[action]
        space = self.game.actions
        if not 0 <= action < self.game.num_actions:
            return f"action {action}"
        name, index = space.decode(action)
        if name == "choose":
            return f"choose card {self._tables.cards[index].number}"
        if name == "use":
            return f"use {d.MAGIC_NAMES[index]}"
        if name == "dig":
            o, anchor = divmod(index, d.SQUARES)
            card = self._card(self._active()) if self.order else None
            where = f"at {d.square_name(anchor)}" + (f" ({d.orientation_name(o)})" if o else "")
            return f"dig card {card.number} {where}" if card else f"dig {where}"
        if name == "seal":
            return f"Seal: dig {d.square_name(index)}"
        if name == "end":
            return "end turn without digging"
        if name == "pay_coins":
            coins = self.coins[self._active()] if self.order else 0
            return f"pay {min(coins, self.owed) or 1} with coins"
        if name == "pay_treasure":
            value = d.TREASURE_VALUES[index]
            change = value - self.owed
            return f"pay with treasure {value}" + (f" (change {change})" if self.phase == "pay" and change > 0 else "")
        to = f" to seat {self.give_to[0]}" if self.give_to else ""
        return f"give {d.KIND_NAMES[index]}{to}"

    def _chance_label(self, kind: str, outcome: int) -> str:
        if kind == "deal":
            cards = self._tables.cards
            number = cards[outcome].number if outcome < len(cards) else outcome
            return f"deal card {number} to seat {self.cards_dealt % self.num_players}"
        tile = d.KIND_NAMES[outcome] if outcome < d.NUM_KINDS else f"tile {outcome}"
        if kind == "top":
            return f"reveal {d.square_name(self.tops_revealed)}: {tile}"
        if kind == "reveal":
            return f"reveal {d.square_name(self.reveal_queue[0])}: {tile}"
        return f"seat {self.deal_to[0]} receives {tile} face down"

    def _illegal_reason(self, action: int) -> str:
        space = self.game.actions
        if self._chance_kind() is not None or not 0 <= action < space.size:
            return f"action {action} is outside this game's action space (0..{space.size - 1})"
        name, index = space.decode(action)
        label = self._action_to_string(action)
        if self.phase == "choose":
            if name != "choose":
                return f"{label}: every player first chooses an excavation card for this round"
            return f"{label}: card {self._tables.cards[index].number} is not in seat {self.chooser}'s hand"
        seat = self._active()
        card = self._card(seat)
        if name == "choose":
            return f"{label}: cards are chosen at the start of a round, seat {seat} is playing card {card.number}"
        if self.phase == "pay":
            if name in ("pay_coins", "pay_treasure"):
                return f"{label}: seat {seat} has no " + ("coins" if name == "pay_coins" else "such treasure")
            return f"{label}: seat {seat} must first pay the {self.owed} still owed for this turn"
        if self.phase == "give":
            if name == "give":
                return f"{label}: seat {seat} has no {d.KIND_NAMES[index]} to give"
            return f"{label}: seat {seat} must give one own tile to seat {self.give_to[0]}"
        if self.seal:
            if name != "seal":
                return f"{label}: the Seal dig has begun ({len(self.seal)} of {card.size} squares chosen); choose its next square"
            return self._seal_reason(index, label)
        if name in ("pay_coins", "pay_treasure", "give"):
            return f"{label}: payments come after the dig (or after ending the turn)"
        if name == "move":
            return self._move_reason(seat, index, label)
        if name == "use":
            if self.items[index]:
                return f"{label}: the {d.MAGIC_FULL_NAMES[index]} is already in use this turn"
            return f"{label}: seat {seat} holds no {d.MAGIC_FULL_NAMES[index]} (items dug this turn cannot be used)"
        if name == "dig":
            return self._dig_reason(seat, card, index, label)
        if name == "seal":
            if not self.items[d.SEAL]:
                return f"{label}: digging square by square needs the Seal of Solomon in use"
            return self._seal_reason(index, label)
        return f"{label} is not legal now"

    def _move_reason(self, seat: int, index: int, label: str) -> str:
        frm, to = index // 8, d.MOVE_TARGET[index]
        limit = self.game.options["move_limit"]
        if to < 0:
            return f"{label}: that leads off the cave"
        if self.moves >= limit:
            return f"{label}: at most {limit} moves per turn (option move_limit)"
        if not self._may_move(seat):
            return f"{label}: seat {seat} could not pay for move {self.moves + 1} (option unaffordable=forbid)"
        if not self.heights[frm]:
            return f"{label}: {d.square_name(frm)} is empty"
        if self.heights[to] >= d.MAX_STACK:
            return f"{label}: {d.square_name(to)} already holds {d.MAX_STACK} tiles"
        return (
            f"{label}: the tile is on level {self.heights[frm]} and would land on level {self.heights[to] + 1}; "
            "tiles never move up"
        )

    def _dig_reason(self, seat: int, card: d.Card, index: int, label: str) -> str:
        o, anchor = divmod(index, d.SQUARES)
        if o >= 4 and not self.game.options["mirror_reflect"]:
            return f"{label}: the Mirror turns the card but never mirrors it (option mirror_reflect)"
        if o and not self.items[d.MIRROR]:
            return f"{label}: the card's arrow must point to the entrance; turning it needs the Mirror in use"
        if o not in card.orientations:
            return f"{label}: this orientation of card {card.number} repeats a lower one; use that label"
        mask = card.masks[o][anchor]
        if not mask:
            return f"{label}: card {card.number} placed there leaves the cave"
        squares = [sq for sq in range(d.SQUARES) if mask >> sq & 1]
        empty = [d.square_name(sq) for sq in squares if not self.heights[sq]]
        if empty:
            return f"{label}: covers empty square(s) {', '.join(empty)}; an empty square can never be dug"
        levels = sorted({self.heights[sq] for sq in squares})
        return (
            f"{label}: covers stacks on levels {', '.join(map(str, levels))}; "
            "all must be on the same level unless the Magic Pickaxe is used"
        )

    def _seal_reason(self, sq: int, label: str) -> str:
        if not self.heights[sq]:
            return f"{label}: {d.square_name(sq)} is empty"
        if sq in self.seal:
            return f"{label}: {d.square_name(sq)} is already chosen"
        if not self.seal:
            return f"{label}: fewer than {self._card(self._active()).size} connected squares on that level around it"
        if self.heights[sq] != self.heights[self.seal[0]] and not self.items[d.PICKAXE]:
            return f"{label}: the Seal area must stay on level {self.heights[self.seal[0]]} without the Pickaxe"
        return f"{label}: the Seal area must stay connected; {d.square_name(sq)} touches no chosen square"

    # Visibility -----------------------------------------------------------------

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
            return f"seat {self.cards_dealt % self.num_players} is dealt a card"
        if kind == "penalty":
            return f"seat {self.deal_to[0]} receives a dug tile face down"
        return f"seat {self.chooser} chooses a card"

    # Results ----------------------------------------------------------------------

    def _score_rows(self) -> list[dict[str, int]]:
        return score_table(self.coins, self.tiles)

    def _rank_keys(self) -> list[Any]:
        rows = self._score_rows()
        if self.game.options["tiebreak"] == "coins":
            return [(row["total"], self.coins[seat]) for seat, row in enumerate(rows)]
        return [row["total"] for row in rows]

    def _scores(self) -> list[dict[str, Any]]:
        return [
            {"total": row["total"], "breakdown": {k: v for k, v in row.items() if k != "total"}}
            for row in self._score_rows()
        ]

    def _evaluate(self) -> list[float]:
        """Points now, plus progress toward scroll sets, minus the cost the active turn has run up.

        Majority bonuses are credited as they stand now; a seat whose wealth
        cannot cover its running turn cost is charged the dug tiles it would
        lose. The value is a squashed lead over the best opponent.
        """
        rows = self._score_rows()
        values = []
        for seat, row in enumerate(rows):
            held = self.tiles[seat]
            sets = scroll_sets(held)
            partial = sum(1 for k in d.SCROLL_KINDS if held[k] > sets)
            value = row["total"] + 2.0 * partial + 0.5 * magic_count(held)
            if self.phase in ("turn", "pay") and self.order and self._active() == seat:
                cost = self.moves + (0 if self.items[d.AMULET] else sum(d.CURSE_VALUE[k] for k in self.dug))
                if self.phase == "pay":
                    cost = self.owed
                if cost > self._wealth(seat):
                    value -= sum(d.TREASURE_VALUE[k] + 3 for k in self.dug)
                else:
                    value -= cost
            values.append(value)
        out = []
        for seat, value in enumerate(values):
            best_other = max(v for s, v in enumerate(values) if s != seat)
            out.append(math.tanh((value - best_other) / 20.0))
        return out

    # Views --------------------------------------------------------------------------

    def _observation(self, seat: int | None) -> dict[str, Any]:
        n = self.num_players
        cards = self._tables.cards
        terminal = self.phase == "end" and self._chance_kind() is None
        names = d.KIND_NAMES

        def named(counts: list[int]) -> dict[str, int]:
            return {names[k]: c for k, c in enumerate(counts) if c}

        seats = []
        for q in range(n):
            mine = q == seat or terminal
            face_down = 0 if mine else sum(1 for _, holder, _k in self.secret if holder == q)
            seats.append(
                {
                    "coins": self.coins[q],
                    "tiles": named(self.tiles[q] if mine else self._known_tiles(q)),
                    "face_down_tiles": face_down,
                    "curse_total_seen": curse_total(self.tiles[q] if mine else self._known_tiles(q)),
                    "hand_size": len(self.hands[q]),
                    "has_chosen": self.chosen[q] >= 0,
                    "played": [cards[c].number for c in self.played[q]],
                }
            )
        shown = set(c for q in range(n) for c in self.played[q])
        hand: list[int] = []
        my_choice = None
        if seat is not None:
            hand = [cards[c].number for c in self.hands[seat]]
            shown.update(self.hands[seat])
            if self.chosen[seat] >= 0:
                my_choice = cards[self.chosen[seat]].number
        penalties = []
        for event, record in enumerate(self.penalties):
            entry = {
                "seat": record["seat"],
                "tiles": [names[k] for k in record["tiles"]],
                "received": list(record["received"]),
                "removed": record["removed"],
                "gifts": [[to, names[k]] for to, k in record["gifts"]],
            }
            if seat is not None:
                entry["you_hold_face_down"] = [names[k] for e, h, k in self.secret if e == event and h == seat]
            penalties.append(entry)
        turn = None
        if self.phase in ("turn", "pay", "give") and self.order:
            active = self._active()
            turn = {
                "seat": active,
                "card": cards[self.round_cards[active]].number,
                "moves": self.moves,
                "items_used": [d.MAGIC_NAMES[i] for i in range(len(self.items)) if self.items[i]],
                "seal_squares": [d.square_name(sq) for sq in self.seal],
                "dug": [[d.square_name(sq), names[k]] for sq, k in zip(self.dug_at, self.dug)],
                "owed": self.owed,
                "give_to": list(self.give_to),
            }
        return {
            "players": n,
            "round": min(self.round + 1, ROUNDS[n]),
            "rounds": ROUNDS[n],
            "phase": self.phase,
            "setup_done": self._chance_kind() not in ("top", "deal"),
            "heights": list(self.heights),
            "stacks": [[names[k] for k in stack] for stack in self.stacks],
            "unseen": list(self.unseen),
            "unseen_dark_tiles": named(self.dark_pool),
            "seats": seats,
            "hand": hand,
            "my_choice": my_choice,
            "card_shapes": {str(cards[c].number): [list(cell) for cell in cards[c].cells] for c in sorted(shown)},
            "round_cards": [cards[c].number if c >= 0 else None for c in self.round_cards],
            "turn_order": list(self.order),
            "turn": turn,
            "supply": {
                "coins": self.supply_coins,
                "treasures": {f"treasure {d.TREASURE_VALUES[i]}": c for i, c in enumerate(self.supply_treasures) if c},
            },
            "penalties": penalties,
            "log": list(self.log),
            "move_limit": self.game.options["move_limit"],
        }

    def _resample(self, seat: int, rng: random.Random) -> "SolomonState":
        """Re-deal the opponents' hands (and chosen cards) and the face-down penalty tiles ``seat`` has not seen."""
        new = self.clone()
        if self.phase == "end" and self._chance_kind() is None:
            return new
        others = [q for q in range(self.num_players) if q != seat]
        pool = list(new.card_pool)
        for q in others:
            for c in new.hands[q]:
                pool[c] += 1
        for q in others:
            hand = sorted(deal_random(pool, len(new.hands[q]), rng))
            new.hands[q] = hand
            if new.chosen[q] >= 0:
                new.chosen[q] = rng.choice(hand)
        new.card_pool = pool
        # A player in the middle of paying keeps its face-down tiles: it has shown it can pay.
        paying = self._active() if self.phase == "pay" else seat
        groups: dict[int, list[int]] = {}
        for index, (event, holder, _kind) in enumerate(new.secret):
            if holder != seat and holder != paying:
                groups.setdefault(event, []).append(index)
        for event in sorted(groups):
            indices = groups[event]
            kinds = sorted(new.secret[i][2] for i in indices)  # sorted: the re-deal must not depend on the truth
            rng.shuffle(kinds)
            for i, kind in zip(indices, kinds):
                holder = new.secret[i][1]
                if holder >= 0:
                    new.tiles[holder][new.secret[i][2]] -= 1
                    new.tiles[holder][kind] += 1
                new.secret[i][2] = kind
        return new

    def _render(self) -> str:
        return render_state(self)

    def _validate(self) -> str | None:
        n = self.num_players
        if len(self.heights) != d.SQUARES or len(self.unseen) != d.SQUARES or len(self.stacks) != d.SQUARES:
            return "the cave must have 36 squares"
        for sq in range(d.SQUARES):
            pending = 1 if sq >= self.tops_revealed else 0
            if not 0 <= self.heights[sq] <= d.MAX_STACK:
                return f"square {d.square_name(sq)} has height {self.heights[sq]}"
            if self.heights[sq] != self.unseen[sq] + len(self.stacks[sq]) + pending:
                return f"square {d.square_name(sq)}: height does not match its tiles"
        if sum(self.unseen) != sum(self.dark_pool):
            return "unseen tiles in the cave do not match the dark-backed pool"
        if self.phase not in PHASES:
            return f"unknown phase {self.phase!r}"
        for name in ("coins", "tiles", "hands", "chosen", "played", "round_cards"):
            if len(getattr(self, name)) != n:
                return f"{name} must have one entry per seat"
        if any(c < 0 for c in self.coins) or any(c < 0 for row in self.tiles for c in row):
            return "negative coins or tiles"
        if any(c < 0 for c in self.gold_pool + self.dark_pool + self.card_pool + self.penalty_pool):
            return "a pool holds a negative count"
        if not 0 <= self.round <= ROUNDS[n]:
            return f"round {self.round} is out of range"
        return None


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
