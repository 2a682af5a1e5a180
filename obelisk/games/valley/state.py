"""The Valley of the Kings position and its rules.

Card kinds are the indices of the card table. Hands, discard piles, tombs,
the boneyard and the play area are lists of kinds; a deck is a pool of counts
per kind (its order is unknown even to its owner, so each draw is a chance
node) plus ``tops``, the cards an effect put on top of it, in a known order
(last = top). The stock is two pools, level II above level III.

The pyramid is six slots ``B1 B2 B3 M1 M2 T`` (``-1`` = empty). Pending
steps of the turn are frames on ``stack`` (see ``rules.py``): after every
action the automatic frames are resolved until a decision or a draw is due.
A card's action is run through ``rules.effects``, the handlers of
``effects.py`` that the game hands to its ``Rules``.
"""

from __future__ import annotations

import math
import random
from itertools import compress
from typing import Any

import obelisk.games.valley.rules as R
from obelisk.core import CHANCE, TERMINAL, State, i18n
from obelisk.games.valley.actions import action_label, hidden_label, illegal_reason
from obelisk.games.valley.rules import Rules
from obelisk.games.valley.scoring import evaluate, rank_keys, scores, tie_break, tomb_breakdown, tomb_score
from obelisk.games.valley.view import observation, render_state

tr = i18n.domain("valley")
HAND_SIZE = 5
_RESAMPLE_TRIES = 20


class ValleyState(State):
    """One position of Valley of the Kings."""

    # --- setup ---

    def _init(self) -> None:
        table = self.rules.table
        n = self.num_players
        k = table.size
        starter_deck = [table.per_player[kind] for kind in range(k)]
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.decks: list[list[int]] = [list(starter_deck) for _ in range(n)]
        self.deck_sizes: list[int] = [sum(starter_deck)] * n
        self.tops: list[list[int]] = [[] for _ in range(n)]
        self.shown: list[list[int]] = [[] for _ in range(n)]
        self.discards: list[list[int]] = [[] for _ in range(n)]
        self.tombs: list[list[int]] = [[] for _ in range(n)]
        self.turns: list[int] = [0] * n
        self.stock_ii: list[int] = [table.copies[kind] if table.level[kind] == 2 else 0 for kind in range(k)]
        self.stock_iii: list[int] = [table.copies[kind] if table.level[kind] == 3 else 0 for kind in range(k)]
        self.stock_sizes: list[int] = [sum(self.stock_ii), sum(self.stock_iii)]
        self.pyramid: list[int] = [-1] * 6
        self.boneyard: list[int] = []
        self.play: list[int] = []
        self.revealed: list[int] = []
        self.active = 0
        self.touched = False
        self.entombed = False
        self.hand_gold = 0
        self.discount = 0
        self.bought: list[int] = []
        self.executed: list[int] = []
        self.over = False
        stack: list[tuple] = [(R.MAIN, 0)]
        stack += [(R.DRAW, seat, HAND_SIZE) for seat in reversed(range(n))]
        stack.append((R.FIRST_BONEYARD,))
        stack += [(R.REFILL, slot) for slot in reversed(R.ALL_SLOTS)]
        self.stack: list[tuple] = stack

    def clone(self) -> "ValleyState":
        new = ValleyState.__new__(ValleyState)
        new.game = self.game
        new._seed = self._seed
        new._history = self._history[:]
        new._dealt_at = self._dealt_at
        new._legal = self._legal
        new.hands = [hand[:] for hand in self.hands]
        new.decks = [deck[:] for deck in self.decks]
        new.deck_sizes = self.deck_sizes[:]
        new.tops = [tops[:] for tops in self.tops]
        new.shown = [shown[:] for shown in self.shown]
        new.discards = [pile[:] for pile in self.discards]
        new.tombs = [tomb[:] for tomb in self.tombs]
        new.turns = self.turns[:]
        new.stock_ii = self.stock_ii[:]
        new.stock_iii = self.stock_iii[:]
        new.stock_sizes = self.stock_sizes[:]
        new.pyramid = self.pyramid[:]
        new.boneyard = self.boneyard[:]
        new.play = self.play[:]
        new.revealed = self.revealed[:]
        new.active = self.active
        new.touched = self.touched
        new.entombed = self.entombed
        new.hand_gold = self.hand_gold
        new.discount = self.discount
        new.bought = self.bought[:]
        new.executed = self.executed[:]
        new.over = self.over
        new.stack = self.stack[:]
        return new

    # --- queries ---

    @property
    def rules(self) -> Rules:
        """The game's typed per-kind tables and action offsets."""
        game: Any = self.game
        return game.rules

    def stock_count(self) -> int:
        return self.stock_sizes[0] + self.stock_sizes[1]

    def pyramid_count(self) -> int:
        return 6 - self.pyramid.count(-1)

    def card_total(self, seat: int) -> int:
        """Cards of ``seat`` in hand, deck and discard pile (the tribute exemption counts these)."""
        total = len(self.hands[seat]) + self.deck_sizes[seat] + len(self.tops[seat]) + len(self.discards[seat])
        if seat == self.active:
            total += len(self.play) + len(self.revealed)
        return total

    def purse(self, seat: int) -> int:
        hand = self.hands[seat]
        if self.hand_gold:
            return self.hand_gold * len(hand) + self.discount
        gold = self.rules.gold
        total = self.discount
        for kind in hand:
            total += gold[kind]
        return total

    def owns_boat_hidden(self, seat: int) -> bool:
        """Whether a Boat is among ``seat``'s hand and deck (public: every card's owner is known)."""
        for kind in self.rules.boat_kinds:
            if kind in self.hands[seat] or self.decks[seat][kind] or kind in self.tops[seat]:
                return True
        return False

    def offer_slots(self, seat: int, dest: int, slots: tuple[int, ...]) -> None:
        """Let ``seat`` pick one of ``slots`` (a single candidate is taken at once)."""
        if len(slots) == 1:
            self._take_slot(seat, dest, slots[0])
        else:
            self.stack.append((R.PICK_SLOT, seat, dest, slots))

    def play_check(self, seat: int, kind: int, skip: int) -> str:
        """``""`` if ``kind``'s action can be executed fully by ``seat`` now, else why not.

        Fast copy: `_legal_actions`, which reads the per-kind ``Rules.play_checks`` table instead.
        """
        rules = self.rules
        effect = rules.effects[kind]
        check = effect.check
        if not effect.own_turn or check is None:
            card = tr.term("card", rules.names[kind])
            if effect.name == "none":
                return tr("{card} has no action", card=card)
            if effect.name == "boat":
                return tr("{card} is a reaction, used right after an opponent buys a card", card=card)
            return tr("{card} is a reaction, used when an opponent's action makes you sacrifice or give a card", card=card)
        return check(self, seat, rules.params[kind], skip)

    def start_effect(self, seat: int, kind: int) -> None:
        rules = self.rules
        start = rules.effects[kind].start
        assert start is not None, "only a card with an action on its owner's turn is played"
        start(self, seat, rules.params[kind])

    def min_pyramid_cost(self) -> int:
        """The cost of the cheapest pyramid card, ``-1`` if the pyramid is empty."""
        cost = self.rules.cost
        costs = [cost[k] for k in self.pyramid if k >= 0]
        return min(costs) if costs else -1

    def repeat_candidates(self, seat: int, skip: int) -> list[int]:
        """Card kinds whose action was executed this turn and may be repeated now, ascending."""
        rules = self.rules
        result = []
        for kind in sorted(set(self.executed)):
            effect = rules.effects[kind]
            check = effect.check
            if effect.repeatable and effect.own_turn and check is not None:
                if not check(self, seat, rules.params[kind], skip):
                    result.append(kind)
        return result

    # --- legal actions ---

    # Protocol hooks

    def _current_player(self) -> int:
        """The seat whose frame is on top of the stack, or chance, or the end.

        Fast copies: `is_terminal` and `is_chance_node`, which playout loops ask at every step.
        """
        if self.over:
            return TERMINAL
        top = self.stack[-1]
        code: int = top[0]
        if code >= R.REFILL:
            return CHANCE
        seat: int = top[1]
        return seat

    def _draw_pool(self) -> tuple[list[int], int]:
        """The face-down pool the pending draw takes from (a deck or the stock) and its size."""
        top = self.stack[-1]
        code: int = top[0]
        if code == R.DRAW or code == R.REVEAL:
            seat: int = top[1]
            return self.decks[seat], self.deck_sizes[seat]
        if self.stock_sizes[0]:
            return self.stock_ii, self.stock_sizes[0]
        return self.stock_iii, self.stock_sizes[1]

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        pool, total = self._draw_pool()
        outcomes: list[tuple[int, float]] = []
        for kind, count in enumerate(pool):
            if count:
                outcomes.append((kind, count / total))
        return outcomes

    def _is_outcome(self, action: int) -> bool:
        pool = self._draw_pool()[0]
        return 0 <= action < len(pool) and pool[action] > 0

    def is_terminal(self) -> bool:
        """The core's answer without the detour through ``_current_player`` (playout loops ask every step):
        a fast copy of `_current_player`."""
        return self.over

    def is_chance_node(self) -> bool:
        """The core's answer without the detour through ``_current_player`` (playout loops ask every step):
        a fast copy of `_current_player`."""
        if self.over:
            return False
        code: int = self.stack[-1][0]
        return code >= R.REFILL

    def _legal_actions(self) -> list[int]:
        rules = self.rules
        top = self.stack[-1]
        code: int = top[0]
        seat: int = top[1]
        hand = self.hands[seat]
        if code == R.MAIN:
            cost = rules.cost
            purse = self.purse(seat)
            pyramid = self.pyramid
            legal = []
            for slot in R.BASE:
                card = pyramid[slot]
                if card >= 0 and cost[card] <= purse:
                    legal.append(rules.a_buy + slot)
            kinds = sorted(set(hand))
            checks = rules.play_checks  # fast copy of `play_check`, without the reasons
            a_play = rules.a_play
            for k in kinds:
                check = checks[k]
                if check is True or (isinstance(check, tuple) and not check[0](self, seat, check[1], k)):
                    legal.append(a_play + k)
            if not self.entombed:
                a_entomb = rules.a_entomb
                legal += [a_entomb + k for k in kinds]
            legal.append(rules.a_end)
            return legal
        if code == R.PAY:
            return [rules.a_pay + k for k in sorted(set(hand))]
        if code == R.HAND_PICK:
            kinds = sorted(set(hand))
            if top[2] == R.SACRIFICE_TAKE:
                low, cost = self.min_pyramid_cost(), rules.cost
                kinds = [k for k in kinds if cost[k] * top[3] >= low]
            return [rules.a_choose + k for k in kinds]
        if code == R.VICTIM:
            legal = [rules.a_choose + k for k in sorted(set(hand))]
            if any(k in hand for k in rules.ward_kinds):
                legal.append(rules.a_censer)
            return legal
        if code == R.BOAT:
            legal = []
            if any(k in hand for k in rules.boat_kinds):
                legal = [rules.a_boat + s for s in R.BASE if self.pyramid[s] >= 0]
            legal.append(rules.a_pass)
            return legal
        if code == R.PICK_SLOT:
            return [rules.a_take + s for s in top[3]]
        if code == R.FILL_B2:
            return [rules.a_fill, rules.a_fill + 1]
        if code == R.FORCED:
            return [rules.a_remove + s for s in rules.forced_slots if self.pyramid[s] >= 0]
        if code == R.DISCARD_PICK:
            return [rules.a_discard + k for k in sorted(set(self.discards[seat]))]
        if code == R.TOMB_PICK:
            return [rules.a_tomb + k for k in sorted(set(self.tombs[seat]))]
        return [rules.a_repeat + k for k in self.repeat_candidates(seat, -1)]

    # --- applying actions ---

    def _apply_action(self, action: int) -> None:
        stack = self.stack
        top = stack[-1]
        code: int = top[0]
        if code == R.DRAW:
            # The most frequent step: one card of a hand's draw; the next card is drawn the same way.
            seat: int = top[1]
            count: int = top[2]
            self.decks[seat][action] -= 1
            self.deck_sizes[seat] -= 1
            self.hands[seat].append(action)
            stack[-1] = (R.DRAW, seat, count - 1)
            if count > 1 and self.deck_sizes[seat] and not self.tops[seat]:
                return
        elif code >= R.REFILL:
            self._apply_chance(top, action)
        else:
            self._apply_decision(top, action)
        self._advance()

    def _apply_chance(self, top: tuple, kind: int) -> None:
        code: int = top[0]
        stack = self.stack
        if code == R.REVEAL:
            seat: int = top[1]
            self.decks[seat][kind] -= 1
            self.deck_sizes[seat] -= 1
            stack.pop()
            self._reveal(seat, kind)
            return
        self._take_from_stock(kind)
        stack.pop()
        if code == R.REFILL:
            self.pyramid[top[1]] = kind
        elif code == R.FIRST_BONEYARD:
            self.boneyard.append(kind)
        else:
            self.discards[top[1]].append(kind)

    def _take_from_stock(self, kind: int) -> None:
        if self.stock_sizes[0]:
            self.stock_ii[kind] -= 1
            self.stock_sizes[0] -= 1
        else:
            self.stock_iii[kind] -= 1
            self.stock_sizes[1] -= 1

    def _apply_decision(self, top: tuple, action: int) -> None:
        rules = self.rules
        code: int = top[0]
        seat: int = top[1]
        stack = self.stack
        if code == R.MAIN:
            if action < rules.a_play:
                self._start_buy(seat, action - rules.a_buy)
            elif action < rules.a_entomb:
                kind = action - rules.a_play
                self._leave_hand(seat, kind)
                self.play.append(kind)
                self.executed.append(kind)
                self.start_effect(seat, kind)
            elif action < rules.a_end:
                kind = action - rules.a_entomb
                self._leave_hand(seat, kind)
                self.tombs[seat].append(kind)
                self.entombed = True
            else:
                stack.pop()
                stack.append((R.END_TURN,))
                if not self.touched and self.pyramid_count():
                    stack.append((R.FORCED, seat))
            return
        stack.pop()
        if code == R.PAY:
            kind = action - rules.a_pay
            self._leave_hand(seat, kind)
            (self.discards[seat] if rules.spent_to_discard else self.play).append(kind)
            due: int = top[3] - (self.hand_gold or rules.gold[kind])
            if due > 0:
                stack.append((R.PAY, seat, top[2], due))
            else:
                self._complete_buy(seat, top[2])
        elif code == R.HAND_PICK:
            self._hand_pick(seat, top[2], top[3], action - rules.a_choose)
        elif code == R.VICTIM:
            if action == rules.a_censer:
                ward = next(k for k in rules.ward_kinds if k in self.hands[seat])
                if ward not in self.shown[seat]:
                    self.shown[seat].append(ward)
            else:
                kind = action - rules.a_choose
                self._leave_hand(seat, kind)
                if top[2] == R.SACRIFICE:
                    self.boneyard.append(kind)
                else:
                    self.discards[top[3]].append(kind)
        elif code == R.BOAT:
            if action != rules.a_pass:
                boat = next(k for k in rules.boat_kinds if k in self.hands[seat])
                self._leave_hand(seat, boat)
                self.discards[seat].append(boat)
                slot = action - rules.a_boat
                self.discards[seat].append(self.pyramid[slot])
                self.pyramid[slot] = -1
                stack.append((R.CRUMBLE, seat))
        elif code == R.PICK_SLOT:
            self._take_slot(seat, top[2], action - rules.a_take)
        elif code == R.FILL_B2:
            source = 3 + action - rules.a_fill
            self.pyramid[1] = self.pyramid[source]
            self.pyramid[source] = -1
        elif code == R.FORCED:
            slot = action - rules.a_remove
            self.boneyard.append(self.pyramid[slot])
            self.pyramid[slot] = -1
            stack.append((R.CRUMBLE, seat))
        elif code == R.DISCARD_PICK:
            kind = action - rules.a_discard
            pile = self.discards[seat]
            del pile[len(pile) - 1 - pile[::-1].index(kind)]
            self.tombs[seat].append(kind)
        elif code == R.TOMB_PICK:
            kind = action - rules.a_tomb
            tomb = self.tombs[seat]
            del tomb[len(tomb) - 1 - tomb[::-1].index(kind)]
            self.hands[seat].append(kind)
            self.shown[seat].append(kind)
        else:
            self.start_effect(seat, action - rules.a_repeat)

    # Turn steps

    def _start_buy(self, seat: int, slot: int) -> None:
        due = self.rules.cost[self.pyramid[slot]] - self.discount
        self.discount = 0
        if due > 0:
            self.stack.append((R.PAY, seat, slot, due))
        else:
            self._complete_buy(seat, slot)

    def _complete_buy(self, seat: int, slot: int) -> None:
        """The bought card goes on the discard pile; Boat windows open after the crumble."""
        kind = self.pyramid[slot]
        self.pyramid[slot] = -1
        self.discards[seat].append(kind)
        self.bought.append(self.rules.cost[kind])
        self.touched = True
        if self.rules.boat_kinds:
            n = self.rules.num_players
            for i in range(n - 1, 0, -1):
                self.stack.append((R.BOAT, (seat + i) % n))
        self.stack.append((R.CRUMBLE, seat))

    def _take_slot(self, seat: int, dest: int, slot: int) -> None:
        kind = self.pyramid[slot]
        self.pyramid[slot] = -1
        (self.tombs if dest == R.TO_TOMB else self.discards)[seat].append(kind)
        self.touched = True
        self.stack.append((R.CRUMBLE, seat))

    def _leave_hand(self, seat: int, kind: int) -> None:
        """A hand card leaves the hand in everyone's sight, so it is no longer one shown to be there."""
        self.hands[seat].remove(kind)
        shown = self.shown[seat]
        if kind in shown:
            shown.remove(kind)

    def _hand_pick(self, seat: int, purpose: int, arg: int, kind: int) -> None:
        if purpose == R.TOPDECK:
            # Face down: the others cannot tell whether a card shown in the hand went onto the deck.
            self.hands[seat].remove(kind)
            self.shown[seat] = []
            self.tops[seat].append(kind)
            if arg > 1:
                self.stack.append((R.HAND_PICK, seat, R.TOPDECK, arg - 1))
            return
        self._leave_hand(seat, kind)
        if purpose == R.ENTOMB:
            self.tombs[seat].append(kind)
        elif purpose == R.SACRIFICE_DRAW:
            self.boneyard.append(kind)
            self.stack.append((R.DRAW, seat, arg))
        else:
            self.boneyard.append(kind)
            limit = self.rules.cost[kind] * arg
            cost = self.rules.cost
            slots = tuple(s for s in R.ALL_SLOTS if self.pyramid[s] >= 0 and cost[self.pyramid[s]] <= limit)
            self.offer_slots(seat, R.TO_DISCARD, slots)

    def _reveal(self, seat: int, kind: int) -> None:
        """Book of Gates: the revealed card's action is forced if it can be done, then it is discarded."""
        if not self.play_check(seat, kind, -1):
            self.revealed.append(kind)
            self.executed.append(kind)
            self.stack.append((R.DISCARD_REVEALED, seat))
            self.start_effect(seat, kind)
        else:
            self.discards[seat].append(kind)

    def _crumble(self, seat: int) -> None:
        """Base holes take the card directly above; B2 asks the remover when both middles could drop."""
        p = self.pyramid
        if p[0] < 0 and p[3] >= 0:
            p[0], p[3] = p[3], -1
        if p[2] < 0 and p[4] >= 0:
            p[2], p[4] = p[4], -1
        if p[1] < 0:
            if p[3] >= 0 and p[4] >= 0:
                self.stack.append((R.MIDDLE_TOP,))
                self.stack.append((R.FILL_B2, seat))
                return
            if p[3] >= 0:
                p[1], p[3] = p[3], -1
            elif p[4] >= 0:
                p[1], p[4] = p[4], -1
        self._middle_top()

    def _middle_top(self) -> None:
        p = self.pyramid
        if p[5] >= 0:
            if p[3] < 0:
                p[3], p[5] = p[5], -1
            elif p[4] < 0:
                p[4], p[5] = p[5], -1
        if p[5] < 0 and self.stock_sizes[0] + self.stock_sizes[1]:
            self.stack.append((R.REFILL, 5))

    def _end_turn(self) -> None:
        seat = self.active
        pile = self.discards[seat]
        pile.extend(self.play)
        pile.extend(self.hands[seat])
        self.play = []
        self.hands[seat] = []
        self.shown[seat] = []
        self.turns[seat] += 1
        if seat == self.rules.num_players - 1 and not self.stock_count() and not self.pyramid_count():
            self.over = True
            self.stack = []
            return
        self.stack.append((R.NEXT_TURN,))
        self.stack.append((R.DRAW, seat, HAND_SIZE))

    def _next_turn(self) -> None:
        self.active = (self.active + 1) % self.rules.num_players
        self.touched = False
        self.entombed = False
        self.hand_gold = 0
        self.discount = 0
        self.bought = []
        self.executed = []
        self.stack.append((R.MAIN, self.active))

    def _advance(self) -> None:
        """Resolve automatic frames until a decision, a real draw or the end."""
        stack = self.stack
        while stack:
            top = stack[-1]
            code: int = top[0]
            if code == R.MAIN:
                return
            seat: int
            if code < R.REFILL:
                if code == R.BOAT:
                    if self.pyramid[0] < 0 and self.pyramid[1] < 0 and self.pyramid[2] < 0:
                        stack.pop()
                        continue
                    if not self.owns_boat_hidden(top[1]):
                        stack.pop()
                        continue
                elif code == R.VICTIM:
                    seat = top[1]
                    exempt: int = top[4]
                    if not self.hands[seat] or self.card_total(seat) <= exempt:
                        stack.pop()
                        continue
                elif code == R.HAND_PICK and not self.hands[top[1]]:
                    stack.pop()
                    continue
                return
            if code == R.DRAW or code == R.REVEAL:
                seat = top[1]
                count: int = top[2] if code == R.DRAW else 0
                if code == R.DRAW and count <= 0:
                    stack.pop()
                    continue
                if self.tops[seat]:
                    kind = self.tops[seat].pop()
                    if code == R.DRAW:
                        self.hands[seat].append(kind)
                        stack[-1] = (R.DRAW, seat, count - 1)
                    else:
                        stack.pop()
                        self._reveal(seat, kind)
                    continue
                if not self.deck_sizes[seat]:
                    pile = self.discards[seat]
                    if not pile:
                        stack.pop()
                        continue
                    deck = self.decks[seat]
                    for kind in pile:
                        deck[kind] += 1
                    self.deck_sizes[seat] = len(pile)
                    self.discards[seat] = []
                return
            if code < R.CRUMBLE:
                if not self.stock_count():
                    stack.pop()
                    continue
                return
            stack.pop()
            if code == R.CRUMBLE:
                self._crumble(top[1])
            elif code == R.MIDDLE_TOP:
                self._middle_top()
            elif code == R.END_TURN:
                self._end_turn()
            elif code == R.NEXT_TURN:
                self._next_turn()
            else:
                self.discards[top[1]].append(self.revealed.pop())

    # --- views, scoring and hidden information ---

    # Labels, scores and views

    def _reveals(self, action: int) -> bool:
        """Whether the decision shows anyone something hidden, so that it cannot be taken back.

        The others know each seat's hand and deck together, not which cards are in
        the hand: a hand card leaving in their sight (played, paid, entombed,
        sacrificed, given, a Boat used) shows it was in the hand, unless it was
        shown there or more copies are in hand and deck than the deck holds.
        Buying shows the hand is worth the price; revealing a Censer shows it. A
        decision after which a card is drawn (even a known top card) or dealt, or
        the game ends, reveals too. Putting a card on the deck (face down), passing a Boat window,
        crumbling, taking or removing a pyramid card and picks from the discard
        pile or the tomb show nothing hidden.
        """
        if not self._quiet(action):
            return True
        after = self.clone()
        after._apply_action(action)
        return after._current_player() in (CHANCE, TERMINAL) or self._drawn_by(after)

    def _is_final(self, action: int) -> bool:
        """Revealing, or another actor (chance, the end) after it: one copy looks ahead for both."""
        if not self._quiet(action):
            return True
        after = self.clone()
        after._apply_action(action)
        return after._current_player() != self._current_player() or self._drawn_by(after)

    def _drawn_by(self, after: "ValleyState") -> bool:
        """Whether a card left some deck between this position and ``after`` (a known top card drawn, too)."""
        return any(after.deck_sizes[s] + len(after.tops[s]) < self.deck_sizes[s] + len(self.tops[s])
                   for s in range(self.num_players))

    def _quiet(self, action: int) -> bool:
        """Whether ``action`` itself shows nothing hidden (what follows it aside): see ``_reveals``."""
        rules = self.rules
        top = self.stack[-1]
        code: int = top[0]
        seat: int = top[1]
        if code == R.MAIN:
            if action < rules.a_play:
                return False  # buying shows the hand is worth the price
            kind = action - (rules.a_play if action < rules.a_entomb else rules.a_entomb)
            quiet = action >= rules.a_end or self._surely_in_hand(seat, kind)
        elif code == R.PAY:
            quiet = self._surely_in_hand(seat, action - rules.a_pay)
        elif code == R.HAND_PICK:
            quiet = top[2] == R.TOPDECK or self._surely_in_hand(seat, action - rules.a_choose)
        elif code == R.VICTIM:
            if action == rules.a_censer:
                quiet = any(k in self.shown[seat] for k in rules.ward_kinds)
            else:
                quiet = self._surely_in_hand(seat, action - rules.a_choose)
        elif code == R.BOAT:
            quiet = action == rules.a_pass or any(
                k in self.hands[seat] and self._surely_in_hand(seat, k) for k in rules.boat_kinds)
        else:
            quiet = True
        return quiet

    def _surely_in_hand(self, seat: int, kind: int) -> bool:
        """Whether the others know ``seat`` holds ``kind`` in hand: shown there, or too many to all be in the deck."""
        if kind in self.shown[seat]:
            return True
        tops = self.tops[seat]
        copies = self.hands[seat].count(kind) + self.decks[seat][kind] + tops.count(kind)
        return copies > self.deck_sizes[seat] + len(tops)

    def _action_to_string(self, action: int) -> str:
        return action_label(self.rules, self.stack, self.pyramid, self.hand_gold, action)

    def _action_visible_to(self, action: int, seat: int | None) -> bool:
        top = self.stack[-1]
        if top[0] == R.DRAW or (top[0] == R.HAND_PICK and top[2] == R.TOPDECK):
            return seat == top[1]
        return True

    def _hidden_action_string(self, action: int) -> str:
        return hidden_label(self.stack)

    def _illegal_reason(self, action: int) -> str:
        return illegal_reason(self, action)

    def tomb_breakdown(self, seat: int) -> dict[str, int]:
        """Points of ``seat``'s tomb by source (see ``scoring.tomb_breakdown``)."""
        return tomb_breakdown(self.rules.table, self.tombs[seat])

    def tomb_score(self, seat: int) -> int:
        return tomb_score(self.rules.table, self.tombs[seat])

    def _rank_keys(self) -> list[Any]:
        return rank_keys(self)

    def _tie_break(self, ahead: int, behind: int) -> str | None:
        return tie_break(self, ahead, behind)

    def _scores(self) -> list[dict[str, Any]]:
        return scores(self)

    def _evaluate(self) -> list[float]:
        owned = [self._owned_counts(seat) for seat in range(self.num_players)]
        return evaluate(self.rules, self.tombs, owned, self.stock_count() + self.pyramid_count())

    def _owned_counts(self, seat: int) -> list[int]:
        """Counts per kind of ``seat``'s cards outside its tomb: deck, hand, known top, discard pile, and
        while it is active the play area and the revealed card."""
        counts = self.decks[seat][:]
        for kind in self.hands[seat]:
            counts[kind] += 1
        for kind in self.tops[seat]:
            counts[kind] += 1
        for kind in self.discards[seat]:
            counts[kind] += 1
        if seat == self.active:
            for kind in self.play:
                counts[kind] += 1
            for kind in self.revealed:
                counts[kind] += 1
        return counts

    def _observation(self, seat: int | None) -> dict[str, Any]:
        return observation(self, seat)

    def _render(self) -> str:
        return render_state(self)

    # Re-deals

    def _resample(self, seat: int, rng: random.Random) -> "ValleyState":
        """Re-deal every opponent's hand and deck (their joint contents are public, the split is not).

        A pending choice of an opponent was offered because their real hand
        allowed it (a purchase half paid needs the gold still due; Book of the
        Earth needs a card dear enough to sacrifice), so a deal that breaks
        that choice is redrawn; after a few failures the deciding opponent's
        hand is drawn among all the hands that allow it, weighted by how many
        ways each can be dealt. The real hand is never consulted: every deal
        starts from the opponent's cards in kind order, so two states ``seat``
        cannot tell apart are re-dealt alike by the same generator.
        """
        for _ in range(_RESAMPLE_TRIES):
            new = self._redeal(seat, rng)
            if new._choice_possible(seat):
                return new
        return self._redeal(seat, rng, constrained=self._current_player())

    def _choice_possible(self, seat: int) -> bool:
        current = self._current_player()
        if current < 0 or current == seat:
            return True
        top = self.stack[-1]
        if top[0] == R.PAY:
            return self.purse(current) >= top[3]
        return bool(self._legal_actions())

    def _redeal(self, seat: int, rng: random.Random, constrained: int = -1) -> "ValleyState":
        """A clone whose opponents' hands are their shown cards plus a uniform deal from the rest of
        their hand-and-deck cards; the ``constrained`` opponent's hand is drawn among those that keep
        the pending choice possible."""
        new = self.clone()
        ids = self.rules.kind_ids
        uniform = rng.random
        for p in range(self.num_players):
            if p == seat:
                continue
            hand, tops, pool, shown = new.hands[p], new.tops[p], new.decks[p], new.shown[p]
            size = len(hand)
            for kind in hand:
                pool[kind] += 1
            for kind in tops:
                pool[kind] += 1
            for kind in shown:
                pool[kind] -= 1
            cards: list[int] = []
            for kind in compress(ids, pool):
                cards += [kind] * pool[kind]
            new.tops[p] = []
            new.deck_sizes[p] = len(cards) - (size - len(shown))
            if p == constrained:
                new.hands[p] = new._possible_hand(p, list(shown), pool, size - len(shown), rng)
                continue
            dealt = list(shown)
            for _ in range(size - len(shown)):
                i = int(uniform() * len(cards))
                kind = cards[i]
                cards[i] = cards[-1]
                cards.pop()
                pool[kind] -= 1
                dealt.append(kind)
            new.hands[p] = dealt
        return new

    def _possible_hand(self, p: int, shown: list[int], pool: list[int], free: int, rng: random.Random) -> list[int]:
        """A hand for ``p`` (its ``shown`` cards plus ``free`` cards from ``pool``) that keeps the
        pending choice possible, drawn with the probability a uniform deal would give it.

        Called with the pool holding every candidate card; takes the chosen cards out of it.
        """
        kinds = [k for k in self.rules.kind_ids if pool[k]]
        candidates: list[tuple[list[int], int]] = []

        def extend(index: int, left: int, chosen: list[int], ways: int) -> None:
            if left == 0:
                self.hands[p] = shown + chosen
                if self._choice_possible(-1):
                    candidates.append((list(chosen), ways))
                return
            if index == len(kinds):
                return
            kind = kinds[index]
            for take in range(min(left, pool[kind]), -1, -1):
                extend(index + 1, left - take, chosen + [kind] * take, ways * math.comb(pool[kind], take))

        extend(0, free, [], 1)
        pick = rng.random() * sum(w for _, w in candidates)
        for chosen, ways in candidates:
            pick -= ways
            if pick < 0:
                break
        for kind in chosen:
            pool[kind] -= 1
        return shown + chosen
