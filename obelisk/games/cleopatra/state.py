"""The Cleopatra position: turn flow, building, corruption, characters, chance and re-deals.

A turn is a chain of small decisions held in ``phase``:

* ``turn`` – before the main action: take a market stall, start building a
  piece, play a character card (or pass when neither action is possible);
* ``refill`` – after a stall was taken, put the drawn cards on the stalls;
* ``build`` / ``pay`` / ``place`` / ``claim`` – the quarry visit: choose a
  piece (or play a character between two pieces), pay it unit by unit, lay a
  mosaic, claim new sanctuaries; ``finish`` pays the multi-build bonus and
  rolls the dice;
* ``after`` – characters may still be played, then ``end turn``;
* ``limit`` / ``limit_discard`` – the hand limit at the end of the turn;
* ``offering`` – secret bids, one seat after another, revealed together;
* ``beggars``, ``courtesans``, ``envoy_offer``, ``envoy_accept``, ``vizier`` –
  the resolution of a character, each choice owned by the seat that makes it.

Every random event is a chance node taken from ``queue``, whose items are
``(event, payload)`` int pairs (the ``Q_*`` codes of ``rules``): deck draws
(outcome ``face * 17 + kind``), the High Priest dice (outcome = number of
priest symbols) and the top of the mosaic stack (outcome = tile index).

Knowledge of hands is tracked as lower bounds ``known[viewer][owner][kind]``
(viewer ``n`` is the public); they grow when a card is seen entering a hand and
shrink when a card leaves it, so re-dealing hidden cards respects everything a
seat has seen. Knowledge of the discard pile is kept the same way in
``discard_known[viewer][kind]``: every card is discarded openly, but the card
the Courtesans take from it is seen by their player only.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Final

from obelisk.core import CHANCE, TERMINAL, State
from obelisk.core.pools import deal_random, draw_random
from obelisk.core.protocol import RulesCache
from obelisk.games.cleopatra.actions import action_to_string, illegal_reason, tr
from obelisk.games.cleopatra.data import (
    BEGGARS, COURTESANS, ENVOYS, SCRIBES, SMUGGLERS, TAINTED0, TROMPE, VIZIER, Tables,
)
from obelisk.games.cleopatra.rules import (
    CHARACTER_PLAYS, MAX_BID, NUM_KINDS, PERMS, Q_DICE, Q_HAND, Q_ORIENT, Q_PENDING, Q_STALL, Q_TILE, STALL_NAMES,
    STALLS, VIZIER_DRAWS, Rules, completable,
    draw_outcomes, is_draw_outcome, shortfall, total,
)
from obelisk.games.cleopatra.scoring import evaluate, rank_keys, scores, tally, tie_break
from obelisk.games.cleopatra.status import outcome
from obelisk.games.cleopatra.view import observation, render_state

PLAY_KIND: Final = {"beggars": BEGGARS, "courtesans": COURTESANS, "envoys": ENVOYS, "scribes_pick": SCRIBES,
             "scribes_die": SCRIBES, "smugglers": SMUGGLERS, "vizier": VIZIER}
PLAY_BEGGARS: Final = CHARACTER_PLAYS.index("beggars")
PLAY_COURTESANS: Final = CHARACTER_PLAYS.index("courtesans")
PLAY_ENVOYS: Final = CHARACTER_PLAYS.index("envoys")
PLAY_SCRIBES_PICK: Final = CHARACTER_PLAYS.index("scribes_pick")
PLAY_SCRIBES_DIE: Final = CHARACTER_PLAYS.index("scribes_die")
PLAY_SMUGGLERS: Final = CHARACTER_PLAYS.index("smugglers")
PLAY_VIZIER: Final = CHARACTER_PLAYS.index("vizier")
"""Index of each character play within the ``play`` action range."""
SIMPLE_PIECES: Final = {"sphinx": "sphinxes", "pedestal": "throne", "throne": "throne", "obelisk": "obelisks"}
PIECE_CATEGORY: Final = {"wall": "walls", "door": "doors", "mosaic": "mosaics", **SIMPLE_PIECES}
LOG_KEPT: Final = 8
QUIET_DECISIONS: Final = frozenset({
    "refill", "place", "claim", "no_claim", "courtesan", "give_talents", "offer_done", "accept", "accept_done",
    "keep", "end_turn", "limit_discard", "limit_keep", "pass",
})
"""Decisions that show nobody a hidden card (the others see the choice; what it shows was public or stays hidden)."""
"""Log entries a view shows; the state keeps between 8 and 16."""
DEAL_TRIES: Final = 8
"""Plain deals tried before a demanding hand is built card by card."""

_RULES: Final = RulesCache()
"""The rules of the game asked about last (see ``CleopatraState._rules``)."""


def _any_card(counts: list[int]) -> bool:
    """Whether some count of the card kinds is not zero (``any``, typed for the compiled build)."""
    for count in counts:
        if count:
            return True
    return False


def _popcount(mask: int) -> int:
    return bin(mask).count("1")


class CleopatraState(State):
    """One position of Cleopatra and the Society of Architects."""

    # --- setup ---

    def _init(self) -> None:
        t = self.tables
        n = self.num_players
        self.phase = "setup"
        self.turn = 0
        self.actor = 0
        self.turns_played = 0
        self.queue: list[tuple[int, int]] = [(Q_HAND, s) for s in range(n) for _ in range(t.kit["cards_dealt"])]
        self.queue += [(Q_ORIENT, 0)] + [(Q_STALL, s) for s in range(STALLS)] + [(Q_TILE, 0)]
        self.deck = list(t.copies)
        self.deck_up = 0
        self.discards = [0] * NUM_KINDS
        self.discard_known = [[0] * NUM_KINDS for _ in range(n + 1)]
        self.stalls: list[list[tuple[int, int]]] = [[] for _ in range(STALLS)]
        self.pending: list[tuple[int, int]] = []
        self.hands = [[0] * NUM_KINDS for _ in range(n)]
        self.known = [[[0] * NUM_KINDS for _ in range(n)] for _ in range(n + 1)]
        self.talents = [t.kit["talents"]] * n
        self.amulets = [0] * n
        self.merchants = [t.kit["nile_merchants"]] * n
        self.statues = [t.kit["anubis_statues"]] * n
        self.walls = [-1] * len(t.wall_ids)
        self.doors = [-1] * len(t.door_ids)
        self.sphinxes: list[int] = []
        self.throne: list[int] = []
        self.obelisks: list[int] = []
        self.garden = self._rules.empty_garden[:]
        self.occupied = 0
        self.mosaics: list[tuple[int, int, int]] = []
        self.stack_top = -1
        self.stack_rest = list(range(len(t.tile_ids)))
        self.removed_tiles: list[int] = []
        self.sanctuaries: list[tuple[int, tuple[int, ...]]] = []
        self.sanctuary_seen: list[int] = []
        self.claimable: list[int] = []
        self.cleopatra = 0
        self.completed: list[str] = []
        self.altar = 0
        self.main_done = False
        self.built = 0
        self.credit = [0] * 5
        self.to_pay = [0] * 5
        self.piece: tuple[str, int] | None = None
        self.scribe_picks = 0
        self.smuggled = False
        self.plays = 0
        self.return_phase = "turn"
        self.char_card = -1
        self.responders: list[int] = []
        self.offers: list[tuple[int, int]] = []
        self.bids = [-1] * n
        self.last_offering: dict[str, Any] | None = None
        self.final: dict[str, Any] | None = None
        self.log: list[str] = []

    def clone(self) -> "CleopatraState":
        """An independent copy, written out per field (the generic copy walks every container)."""
        new = CleopatraState.__new__(CleopatraState)
        new.game = self.game
        new._seed = self._seed
        new._history = self._history[:]
        new._dealt_at = self._dealt_at
        new._legal = self._legal
        new.phase = self.phase
        new.turn = self.turn
        new.actor = self.actor
        new.turns_played = self.turns_played
        new.queue = self.queue[:]
        new.deck = self.deck[:]
        new.deck_up = self.deck_up
        new.discards = self.discards[:]
        new.discard_known = [row[:] for row in self.discard_known]
        new.stalls = [stall[:] for stall in self.stalls]
        new.pending = self.pending[:]
        new.hands = [hand[:] for hand in self.hands]
        new.known = [[row[:] for row in rows] for rows in self.known]
        new.talents = self.talents[:]
        new.amulets = self.amulets[:]
        new.merchants = self.merchants[:]
        new.statues = self.statues[:]
        new.walls = self.walls[:]
        new.doors = self.doors[:]
        new.sphinxes = self.sphinxes[:]
        new.throne = self.throne[:]
        new.obelisks = self.obelisks[:]
        new.garden = self.garden[:]
        new.occupied = self.occupied
        new.mosaics = self.mosaics[:]
        new.stack_top = self.stack_top
        new.stack_rest = self.stack_rest[:]
        new.removed_tiles = self.removed_tiles[:]
        new.sanctuaries = self.sanctuaries[:]
        new.sanctuary_seen = self.sanctuary_seen[:]
        new.claimable = self.claimable[:]
        new.cleopatra = self.cleopatra
        new.completed = self.completed[:]
        new.altar = self.altar
        new.main_done = self.main_done
        new.built = self.built
        new.credit = self.credit[:]
        new.to_pay = self.to_pay[:]
        new.piece = self.piece
        new.scribe_picks = self.scribe_picks
        new.smuggled = self.smuggled
        new.plays = self.plays
        new.return_phase = self.return_phase
        new.char_card = self.char_card
        new.responders = self.responders[:]
        new.offers = self.offers[:]
        new.bids = self.bids[:]
        new.last_offering = _copy_record(self.last_offering)
        new.final = _copy_record(self.final)
        new.log = self.log[:]
        return new

    # --- queries ---

    @property
    def _rules(self) -> Rules:
        """The game's typed tables (a state's ``game`` is declared as the base class)."""
        rules: Rules = _RULES.of(self.game)
        return rules

    @property
    def tables(self) -> Tables:
        return self._rules.tables

    def _card_look(self, card: tuple[int, int]) -> str:
        return self._rules.tables.names[card[0]] if card[1] else "face-down"

    # --- legal actions ---

    # Protocol hooks, and the phase's legal actions (each generator sits with its phase's moves below)

    def _current_player(self) -> int:
        if self.phase == "end":
            return TERMINAL
        if self.queue:
            return CHANCE
        return self.actor

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        event = self.queue[0][0]
        if event == Q_TILE:
            share = 1.0 / len(self.stack_rest)
            return [(t, share) for t in self.stack_rest]
        if event == Q_DICE:
            return list(self._rules.dice_outcomes[self.altar])
        return draw_outcomes(self.deck, self.deck_up)

    def _is_outcome(self, action: int) -> bool:
        event = self.queue[0][0]
        if event == Q_TILE:
            return action in self.stack_rest
        if event == Q_DICE:
            return 0 <= action < len(self._rules.dice_outcomes[self.altar])
        return is_draw_outcome(self.deck, self.deck_up, action)

    def _legal_actions(self) -> list[int]:
        """The legal-action generator of the phase that waits for a decision (most frequent first)."""
        phase = self.phase
        if phase == "turn":
            return self._legal_turn()
        if phase == "refill":
            return self._legal_refill()
        if phase == "after":
            return self._legal_after()
        if phase == "pay":
            return self._legal_pay()
        if phase == "build":
            return self._legal_build()
        if phase == "place":
            return self._legal_place()
        if phase == "offering":
            return self._legal_offering()
        if phase == "claim":
            return self._legal_claim()
        if phase == "limit":
            return self._legal_limit()
        if phase == "limit_discard":
            return self._legal_limit_discard()
        if phase == "courtesans":
            return self._legal_courtesans()
        if phase == "beggars":
            return self._legal_beggars()
        if phase == "envoy_offer":
            return self._legal_envoy_offer()
        if phase == "envoy_accept":
            return self._legal_envoy_accept()
        if phase == "vizier":
            return self._legal_vizier()
        raise KeyError(phase)

    # --- applying actions ---

    # The flow: an action or a chance outcome, then what follows by itself until a decision. Each
    # ``_settle_*`` is the step of its phase once the chance queue is empty: True when settling goes on.

    def _apply_action(self, action: int) -> None:
        if self.queue:
            self._apply_chance(action)
        else:
            do, index = self._rules.dispatch[action]
            do(self, index)
        self._advance()

    def _apply_chance(self, outcome: int) -> None:
        event, payload = self.queue.pop(0)
        if event == Q_TILE:
            self.stack_rest.remove(outcome)
            self.stack_top = outcome
            return
        if event == Q_DICE:
            self.altar += outcome
            return
        kind = outcome % NUM_KINDS
        up = outcome // NUM_KINDS
        self.deck[kind] -= 1
        self.deck_up -= up
        if event == Q_PENDING:
            # A Vizier's draw goes to its player's hand alone: its face in the deck no longer shows.
            self.pending.append((kind, 0 if self.phase == "vizier" else up))
        elif event == Q_HAND:
            self.hands[payload][kind] += 1
        else:
            self.stalls[payload].append((kind, up))

    def _advance(self) -> None:
        """Resolve everything automatic until a decision, a chance node or the end."""
        queue = self.queue
        while True:
            if queue:
                event = queue[0][0]
                if event == Q_PENDING and _any_card(self.deck):
                    return
                if event == Q_ORIENT:
                    queue.pop(0)
                    self.deck_up = sum(self.deck) // 2
                    continue
                if event == Q_TILE:
                    if not self.stack_rest:
                        queue.pop(0)
                        continue
                    return
                if event == Q_DICE or _any_card(self.deck):
                    return
                if _any_card(self.discards):
                    self.deck = self.discards
                    self.discards = [0] * NUM_KINDS
                    self.discard_known = [[0] * NUM_KINDS for _ in range(self.num_players + 1)]
                    self.deck_up = sum(self.deck) // 2
                    self._note("the discard pile is shuffled into a new deck")
                    return
                queue.pop(0)
                continue
            if not self._settle():
                return

    def _settle(self) -> bool:
        """What happens by itself in the phase once no chance event is queued."""
        phase = self.phase
        if phase == "refill":
            return self._settle_refill()
        if phase == "after":
            return self._settle_after()
        if phase == "pay":
            return self._auto_pay()
        if phase == "tiles":
            return self._settle_tiles()
        if phase == "dice":
            return self._settle_dice()
        if phase == "vizier":
            return self._settle_vizier()
        if phase == "beggars":
            return self._settle_beggars()
        if phase == "envoy_offer":
            return self._settle_envoy_offer()
        if phase == "setup":
            return self._settle_setup()
        return False

    # The turn: its start and the main action, or a pass

    def _settle_setup(self) -> bool:
        self._start_turn(0)
        return False

    def _start_turn(self, seat: int) -> None:
        self.turn = seat
        self.actor = seat
        self.phase = "turn"
        self.main_done = False
        self.built = 0
        self.credit = [0] * 5
        self.scribe_picks = 0
        self.smuggled = False
        self.plays = 0
        stalls = self.stalls
        if not (stalls[0] or stalls[1] or stalls[2]) and (_any_card(self.deck) or _any_card(self.discards)):
            self._note("the market is empty: one card is dealt to each stall")
            self.queue += [(Q_STALL, s) for s in range(STALLS)]

    def _legal_turn(self) -> list[int]:
        start = self._rules.take
        stalls = self.stalls
        result = [start + s for s in range(STALLS) if stalls[s]]
        self._add_piece_actions(result)
        if self.scribe_picks:
            result.sort()
        if result:
            result += self._character_actions()
        else:
            result = self._character_actions()
            result.append(self._rules.pass_turn)
        return result

    def _do_pass(self, _: int) -> None:
        self.main_done = True
        self._note(f"player {self.turn + 1} can neither take a stall nor build and passes")
        self.phase = "after"

    # Market: taking a stall, refilling the stalls

    def _do_take(self, s: int) -> None:
        seat = self.turn
        for kind, up in self.stalls[s]:
            self.hands[seat][kind] += 1
            if up:
                self._public_gain(seat, kind)
        self._note(f"player {seat + 1} takes stall {STALL_NAMES[s]} ({len(self.stalls[s])} cards)")
        self.stalls[s] = []
        self.main_done = True
        self.phase = "refill"
        self.queue += [(Q_PENDING, 0)] * STALLS

    def _legal_refill(self) -> list[int]:
        start = self._rules.refill
        return [start + i for i in _refill_choices(self.pending)]

    def _settle_refill(self) -> bool:
        if self.pending:
            if len(_refill_choices(self.pending)) > 1:
                return False
            self._do_refill(0)
        self.phase = "after"
        return True

    def _do_refill(self, i: int) -> None:
        for j, card in enumerate(self.pending):
            self.stalls[PERMS[i][j]].append(card)
        self.pending = []
        self.phase = "after"

    # Building: choosing, paying, finishing a piece

    def _legal_build(self) -> list[int]:
        """Another piece, the end of the build, or a character card between two pieces."""
        result: list[int] = []
        self._add_piece_actions(result)
        if self.scribe_picks:
            result.sort()
        result.append(self._rules.finish)
        result += self._character_actions()
        return result

    def _affordable(self) -> tuple[bool, ...]:
        """Per category (data order): can the turn's player pay one more piece now?

        The exact test of ``rules.affordable``: cards of a resource (and credit
        from split tainted cards) pay only that resource; the open units must be
        covered by Trompe-l'oeil and Nile merchants (artisans by merchants only
        with ``merchant_artisan``). The answer depends on seven small numbers,
        each capped where more stops mattering (see ``CleopatraGame``), so it is
        memoised per game.
        """
        game = self._rules
        seat = self.turn
        hand = self.hands[seat]
        credit = self.credit
        units = game.units
        a0 = credit[0] + hand[0] * units[0] + hand[5] * units[5]
        a1 = credit[1] + hand[1] * units[1] + hand[6] * units[6]
        a2 = credit[2] + hand[2] * units[2] + hand[7] * units[7]
        a3 = credit[3] + hand[3] * units[3] + hand[8] * units[8]
        a4 = credit[4] + hand[4] * units[4] + hand[9] * units[9]
        trompe = hand[TROMPE]
        wild = trompe + self.merchants[seat]
        caps = game.affordable_caps
        c0 = caps[0]
        c1 = caps[1]
        c2 = caps[2]
        c3 = caps[3]
        c4 = caps[4]
        c_trompe = caps[5]
        c_wild = caps[6]
        if a0 > c0:
            a0 = c0
        if a1 > c1:
            a1 = c1
        if a2 > c2:
            a2 = c2
        if a3 > c3:
            a3 = c3
        if a4 > c4:
            a4 = c4
        if trompe > c_trompe:
            trompe = c_trompe
        if wild > c_wild:
            wild = c_wild
        # One byte per capped number (``Rules`` checks that every cap fits).
        key = a0 | a1 << 8 | a2 << 16 | a3 << 24 | a4 << 32 | trompe << 40 | wild << 48
        found = game.affordable_memo.get(key)
        if found is None:
            found = game.affordable_memo[key] = _affordable_categories(
                game.cost_rows, game.merchant_artisan, a0, a1, a2, a3, a4, trompe, wild)
        return found

    def _add_piece_actions(self, result: list[int]) -> None:
        """Append the pieces the turn's player can start to build (in place: no list per call)."""
        game = self._rules
        affordable = self._affordable()
        if affordable[0]:
            start = game.wall
            walls = self.walls
            for i in range(len(walls)):
                if walls[i] < 0:
                    result.append(start + i)
        if affordable[1] and len(self.sphinxes) < game.sphinxes:
            result.append(game.sphinx)
        if affordable[2] and len(self.throne) < 2:
            result.append(game.throne if self.throne else game.pedestal)
        if affordable[3] and len(self.obelisks) < game.obelisks:
            result.append(game.obelisk)
        if affordable[4]:
            start = game.door
            doors = self.doors
            for i in range(len(doors)):
                if doors[i] < 0:
                    result.append(start + i)
        if affordable[5] and self.stack_top >= 0:
            start = game.mosaic
            result.append(start + self.stack_top)
            if self.scribe_picks:
                for x in self.stack_rest:
                    if self._fits(x):
                        result.append(start + x)

    def _do_wall(self, i: int) -> None:
        self._start_piece("wall", i)

    def _do_sphinx(self, _: int) -> None:
        self._start_piece("sphinx", 0)

    def _do_pedestal(self, _: int) -> None:
        self._start_piece("pedestal", 0)

    def _do_throne(self, _: int) -> None:
        self._start_piece("throne", 0)

    def _do_obelisk(self, _: int) -> None:
        self._start_piece("obelisk", 0)

    def _do_door(self, i: int) -> None:
        self._start_piece("door", i)

    def _do_mosaic(self, tile: int) -> None:
        self._start_piece("mosaic", tile)

    def _start_piece(self, piece: str, index: int) -> None:
        self.main_done = True
        self.piece = (piece, index)
        self.to_pay = list(self.tables.costs[PIECE_CATEGORY[piece]])
        self.phase = "pay"

    def _legal_pay(self) -> list[int]:
        r = self._next_unit()
        start = self._rules.pay + r * 4
        return [start + s for s in self._pay_sources(r)]

    def _next_unit(self) -> int:
        to_pay = self.to_pay
        for r in range(5):
            if to_pay[r]:
                return r
        raise AssertionError("nothing left to pay")

    def _pay_sources(self, r: int) -> list[int]:
        """Sources for one unit of resource ``r`` that keep the rest of the cost payable.

        A card of the resource itself never changes what is still open (its
        spare half becomes credit), so it is always offered; a wild card
        (Trompe-l'oeil, Nile merchant) closes one open unit of ``r`` if there
        is one and is then missing for the others.
        """
        seat = self.turn
        hand = self.hands[seat]
        result = []
        if hand[r]:
            result.append(0)
        if hand[TAINTED0 + r]:
            result.append(1)
        trompe = hand[TROMPE]
        merchants = self.merchants[seat]
        rules = self._rules
        allow = rules.merchant_artisan
        use_merchant = merchants > 0 and (r > 0 or allow)
        if not (trompe or use_merchant):
            return result
        units = rules.units
        to_pay = self.to_pay
        credit = self.credit
        missing, artisans = shortfall(units, to_pay, credit, hand)
        own = credit[r] + hand[r] * units[r] + hand[TAINTED0 + r] * units[TAINTED0 + r]
        closes = 1 if to_pay[r] > own else 0
        missing -= closes
        if r == 0:
            artisans -= closes
        if trompe and missing <= trompe - 1 + merchants and (allow or artisans <= trompe - 1):
            result.append(2)
        if use_merchant and missing <= trompe + merchants - 1 and (allow or artisans <= trompe):
            result.append(3)
        return result

    @staticmethod
    def _source_kind(r: int, s: int) -> int:
        """The card kind that pays a unit of ``r`` from source ``s``; -1 for a Nile merchant."""
        if s == 0:
            return r
        if s == 1:
            return TAINTED0 + r
        return TROMPE if s == 2 else -1

    def _auto_pay(self) -> bool:
        """Use credit from split tainted cards, and any forced payment, until a decision remains.

        Units are paid resource by resource in order (paying one never reopens
        an earlier resource), as ``_next_unit`` would pick them. A unit with
        one way to pay is paid by itself only when the whole hand is public:
        with hidden cards the player is asked even then, so whether a choice
        is asked tells the others nothing about the hidden cards.
        """
        to_pay = self.to_pay
        credit = self.credit
        hidden = not self._hand_public(self.turn)
        for r in range(5):
            while to_pay[r]:
                if credit[r]:
                    credit[r] -= 1
                    to_pay[r] -= 1
                    continue
                if hidden:
                    self.actor = self.turn
                    return False
                sources = self._pay_sources(r)
                if len(sources) > 1:
                    self.actor = self.turn
                    return False
                self._pay(r, sources[0])
        self._piece_paid()
        return True

    def _do_pay(self, index: int) -> None:
        self._pay(index // 4, index % 4)

    def _pay(self, r: int, s: int) -> None:
        seat = self.turn
        kind = self._source_kind(r, s)
        if kind >= 0:
            rules = self._rules
            self._lose_public(seat, kind)
            self._discard(kind)
            self.amulets[seat] += rules.amulets[kind]
            units = rules.units[kind] if kind != TROMPE else 1
        else:
            self.merchants[seat] -= 1
            units = 1
        used = min(units, self.to_pay[r])
        self.to_pay[r] -= used
        self.credit[r] += units - used

    def _piece_paid(self) -> None:
        assert self.piece is not None
        piece, index = self.piece
        if piece == "mosaic":
            self.phase = "place"
            self.actor = self.turn
            return
        seat = self.turn
        reward, label = self._piece_reward(piece, index)
        if piece == "wall":
            self.walls[index] = seat
        elif piece == "sphinx":
            self.sphinxes.append(seat)
        elif piece in ("pedestal", "throne"):
            self.throne.append(seat)
        elif piece == "obelisk":
            self.obelisks.append(seat)
        else:
            self.doors[index] = seat
        self._collect(seat, reward, label)
        self._check_complete(PIECE_CATEGORY[piece])
        self._piece_done()

    def _piece_reward(self, piece: str, index: int) -> tuple[int, str]:
        """Talents and label of ``piece`` if it were finished now (a mosaic: before its palms)."""
        t = self.tables
        if piece == "wall":
            return t.rewards["walls"]["base"] + t.rewards["walls"]["per_adjacent_mosaic"] * self._wall_tiles(index), f"wall {t.wall_ids[index]}"
        if piece == "sphinx":
            number = len(self.sphinxes) + 1
            return t.rewards["sphinxes"]["odd" if number % 2 else "even"], f"sphinx #{number}"
        if piece in ("pedestal", "throne"):
            return t.rewards["throne"][piece], piece
        if piece == "obelisk":
            return t.rewards["obelisks"]["each"], "obelisk"
        if piece == "mosaic":
            return t.rewards["mosaics"]["base"], f"mosaic {t.tile_ids[index]}"
        return t.rewards["doors"]["base"] + t.rewards["doors"]["per_wall"] * self._door_run(index), f"door frame {t.door_ids[index]}"

    def _collect(self, seat: int, reward: int, label: str) -> None:
        self.talents[seat] += reward
        self.built += 1
        self.piece = None
        self._note(f"player {seat + 1} builds {label} for {reward} talents")

    def _wall_tiles(self, index: int) -> int:
        """Distinct mosaics touching wall ``index``."""
        garden = self.garden
        return len({garden[c] for c in self._rules.wall_cells[index] if garden[c] >= 0})

    def _door_run(self, index: int) -> int:
        run = 0
        for slot in self.tables.door_walks[index]:
            if self.walls[slot] < 0:
                break
            run += 1
        return run

    def _is_complete(self, category: str) -> bool:
        """Whether every piece of ``category`` is built (mosaics: the stack is used up)."""
        pieces = self._rules.tables.pieces
        if category == "walls":
            return -1 not in self.walls
        if category == "sphinxes":
            return len(self.sphinxes) >= pieces["sphinxes"]
        if category == "throne":
            return len(self.throne) >= 2
        if category == "obelisks":
            return len(self.obelisks) >= pieces["obelisks"]
        if category == "doors":
            return -1 not in self.doors
        return self.stack_top < 0 and not self.stack_rest

    def _check_complete(self, category: str) -> None:
        t = self.tables
        if self._is_complete(category) and category not in self.completed:
            self.completed.append(category)
            self.cleopatra += 1
            self._note(f"{t.category_names[category]} complete: Cleopatra moves to step {self.cleopatra}")

    # Mosaics: placing, the stack top, sanctuaries

    def _legal_place(self) -> list[int]:
        rules = self._rules
        occupied_low = self.occupied & rules.low_half
        occupied_high = self.occupied >> rules.split
        start = rules.place
        piece = self.piece
        assert piece is not None
        highs = rules.masks_high[piece[1]]
        return [start + i for i, low in enumerate(rules.masks_low[piece[1]])
                if not (low & occupied_low or highs[i] & occupied_high)]

    def _fits(self, tile: int) -> bool:
        """Whether ``tile`` can still be laid somewhere in the garden."""
        return self._fits_in(tile, self._rules.playable_mask & ~self.occupied)

    def _fits_in(self, tile: int, space: int) -> bool:
        """Whether some placement of ``tile`` lies within the cells of ``space``.

        Per orientation, the corners whose placement fits are the corners
        left after ANDing ``space`` shifted back by each cell's offset, on the
        halves of the masks (see ``Rules.split``).
        """
        rules = self._rules
        split = rules.split
        space_low = space & rules.low_half
        space_high = space >> split
        for offsets, corners_low, corners_high in rules.orientations[tile]:
            for offset in offsets:
                if offset < split:
                    corners_low &= (space_low >> offset) | ((space_high & ((1 << offset) - 1)) << (split - offset))
                else:
                    corners_low &= space_high >> (offset - split)
                corners_high &= space_high >> offset
                if not (corners_low or corners_high):
                    break
            else:
                return True
        return False

    def _do_place(self, i: int) -> None:
        seat = self.turn
        assert self.piece is not None
        tile = self.piece[1]
        rules = self._rules
        garden = self.garden
        for cell in rules.placement_cells[tile][i]:
            garden[cell] = tile
        self.occupied |= rules.tables.placements[tile][i].mask
        self.mosaics.append((tile, i, seat))
        self._collect(seat, rules.placement_rewards[tile][i], f"mosaic {rules.tables.tile_ids[tile]}")
        if tile == self.stack_top:
            self.stack_top = -1
            self.queue.append((Q_TILE, 0))
        else:
            self.stack_rest.remove(tile)
            self.scribe_picks -= 1
        self.phase = "tiles"

    def _settle_tiles(self) -> bool:
        """After a mosaic: drop stack tops that fit nowhere, then look for new sanctuaries."""
        if self.stack_top >= 0 and not self._fits(self.stack_top):
            self.removed_tiles.append(self.stack_top)
            self._note(f"mosaic {self.tables.tile_ids[self.stack_top]} fits nowhere and leaves the game")
            self.stack_top = -1
            self.queue.append((Q_TILE, 0))
            return True
        self._check_complete("mosaics")
        new = self._sanctuary_masks(self.sanctuary_seen)
        self.sanctuary_seen += new
        self.claimable = new if self.statues[self.turn] else []
        if self.claimable:
            self.phase = "claim"
            self.actor = self.turn
            return False
        self._piece_done()
        return False

    def _empty_regions(self) -> list[int]:
        """Orthogonally connected groups of empty playable cells, as masks, by lowest cell.

        The flood fill runs on the two halves of the masks (see ``Rules.split``):
        each step moves the frontier a cell down, up, right and left, carrying
        the cells that cross from one half into the other.
        """
        rules = self._rules
        cols = rules.cols
        split = rules.split
        low_half = rules.low_half
        row = (1 << cols) - 1
        up_shift = split - cols
        not_left_low = rules.not_left_low
        not_left_high = rules.not_left_high
        not_right_low = rules.not_right_low
        not_right_high = rules.not_right_high
        empty = rules.playable_mask & ~self.occupied
        empty_low = empty & low_half
        empty_high = empty >> split
        regions = []
        while empty_low or empty_high:
            if empty_low:
                low = empty_low & -empty_low
                high = 0
            else:
                low = 0
                high = empty_high & -empty_high
            empty_low ^= low
            empty_high ^= high
            region_low = 0
            region_high = 0
            while low or high:
                region_low |= low
                region_high |= high
                grow_low = (((low << cols) & low_half) | (low >> cols) | ((high & row) << up_shift)
                            | ((low << 1) & not_left_low)
                            | (((low >> 1) | ((high & 1) << (split - 1))) & not_right_low))
                grow_high = ((high << cols) | (low >> up_shift) | (high >> cols)
                             | (((high << 1) | (low >> (split - 1))) & not_left_high) | ((high >> 1) & not_right_high))
                low = grow_low & empty_low
                high = grow_high & empty_high
                empty_low ^= low
                empty_high ^= high
            regions.append(region_low | region_high << split)
        return regions

    def _sanctuary_masks(self, known: list[int] | tuple[int, ...] = ()) -> list[int]:
        """Regions into which no tile still in the stack fits (the ruling: every remaining tile counts).

        Regions in ``known`` are left out unexamined: a sanctuary found after
        an earlier mosaic needs no second proof.
        """
        remaining = ([self.stack_top] if self.stack_top >= 0 else []) + self.stack_rest
        tile_size = self._rules.tables.tile_size
        result = []
        for region in self._empty_regions():
            if region in known:
                continue
            size = _popcount(region)
            if any(self._fits_in(x, region) for x in remaining if tile_size[x] <= size):
                continue
            result.append(region)
        return result

    def _legal_claim(self) -> list[int]:
        rules = self._rules
        start = rules.claim
        return [start + i for i in range(len(self.claimable))] + [rules.no_claim]

    def _do_claim(self, i: int) -> None:
        seat = self.turn
        region = self.claimable.pop(i)
        cells = tuple(c for c in range(self.tables.rows * self.tables.cols) if region >> c & 1)
        self.sanctuaries.append((seat, cells))
        self.statues[seat] -= 1
        reward = self._rules.anubis_talents
        self.talents[seat] += reward
        gain = f" for {reward} talent" if reward else ""
        self._note(f"player {seat + 1} claims a sanctuary of {len(cells)} cells{gain}")
        if not self.claimable or not self.statues[seat]:
            self.claimable = []
            self._piece_done()

    def _do_no_claim(self, _: int) -> None:
        self.claimable = []
        self._piece_done()

    # The end of a build: the next piece or the bonus, then the High Priest's dice

    def _piece_done(self) -> None:
        if self.cleopatra >= self.tables.steps:
            self._pay_bonus()
            self._end_game()
            return
        self.phase = "build"
        self.actor = self.turn

    def _pay_bonus(self) -> None:
        bonus = self._bonus(self.built)
        if bonus:
            self.talents[self.turn] += bonus
            self._note(f"player {self.turn + 1} built {self.built} pieces: +{bonus} talents")

    def _bonus(self, pieces: int) -> int:
        if pieces >= 4:
            return self._rules.bonus_four_plus
        return self.tables.bonus.get(pieces, 0)

    def _do_finish(self, _: int) -> None:
        self._pay_bonus()
        self.built = 0
        self.credit = [0] * 5
        self.phase = "dice"
        self.queue.append((Q_DICE, 0))

    def _settle_dice(self) -> bool:
        self.phase = "after"
        if self.altar >= self._rules.tables.dice:
            self._start_offering("after")
            return False
        return True

    # Offering

    def _start_offering(self, resume: str) -> None:
        n = self.num_players
        self.return_phase = resume
        self.phase = "offering"
        self.bids = [-1] * n
        self.responders = [(self.turn + i) % n for i in range(n)]
        self.actor = self.responders[0]
        self._note("all dice are on the altar: Offering to the High Priest")

    def _legal_offering(self) -> list[int]:
        start = self._rules.bid
        return list(range(start, start + min(self.talents[self.actor], MAX_BID) + 1))

    def _do_bid(self, amount: int) -> None:
        self.bids[self.actor] = amount
        self.responders.pop(0)
        if self.responders:
            self.actor = self.responders[0]
            return
        self._resolve_offering()

    def _resolve_offering(self) -> None:
        t = self.tables
        n = self.num_players
        bids = self.bids
        order = sorted(range(n), key=lambda s: -bids[s])
        outcome = [-t.offering_first] + list(t.offering_gains)
        changes = [0] * n
        place = 0
        while place < n:
            end = place
            while end + 1 < n and bids[order[end + 1]] == bids[order[place]]:
                end += 1
            shared = end if self._rules.offering_ties == "worse" else place
            for i in range(place, end + 1):
                changes[order[i]] = outcome[min(shared, len(outcome) - 1)]
            place = end + 1
        applied = []
        for s in range(n):
            self.talents[s] -= bids[s]
            before = self.amulets[s]
            self.amulets[s] = max(0, before + changes[s])
            applied.append(self.amulets[s] - before)
        self.last_offering = {"bids": list(bids), "amulets": applied}
        self._note(f"Offering: bids {list(bids)}, amulets {applied}")
        self.bids = [-1] * n
        self.altar = 0
        self.phase = self.return_phase
        self.actor = self.turn

    # Characters: playing one

    def _character_actions(self) -> list[int]:
        hand = self.hands[self.turn]
        if not (hand[BEGGARS] or hand[COURTESANS] or hand[ENVOYS] or hand[SCRIBES] or hand[SMUGGLERS]
                or hand[VIZIER]) or self.plays >= self._rules.max_plays:
            return []
        play = self._rules.play
        result = []
        if hand[BEGGARS]:
            result.append(play + PLAY_BEGGARS)
        if hand[COURTESANS] and _any_card(self.discards):
            result.append(play + PLAY_COURTESANS)
        if hand[ENVOYS]:
            result.append(play + PLAY_ENVOYS)
        if hand[SCRIBES]:
            if self.phase != "after" and self.stack_rest and self.stack_top >= 0:
                result.append(play + PLAY_SCRIBES_PICK)
            result.append(play + PLAY_SCRIBES_DIE)
        if hand[SMUGGLERS] and not self.smuggled:
            result.append(play + PLAY_SMUGGLERS)
        if hand[VIZIER] and (_any_card(self.deck) or _any_card(self.discards)):
            result.append(play + PLAY_VIZIER)
        return result

    def _do_play(self, index: int) -> None:
        play = CHARACTER_PLAYS[index]
        seat = self.turn
        kind = PLAY_KIND[play]
        self._lose_public(seat, kind)
        self.char_card = kind
        self.plays += 1
        self.return_phase = self.phase
        t = self.tables
        self._note(f"player {seat + 1} plays {t.names[kind]}" + (" (die mode)" if play == "scribes_die" else ""))
        n = self.num_players
        if play == "beggars":
            self.amulets[seat] += t.amulets[kind]
            self.responders = [(seat + i) % n for i in range(1, n)]
            self.phase = "beggars"
        elif play == "courtesans":
            self.amulets[seat] += t.amulets[kind]
            self.discard_known[seat] = list(self.discards)  # the player looks through the pile
            self.phase = "courtesans"
        elif play == "envoys":
            self.amulets[seat] += t.amulets[kind]
            self.responders = [(seat + i) % n for i in range(1, n)]
            self.offers = []
            self.phase = "envoy_offer"
        elif play == "scribes_pick":
            self.amulets[seat] += t.amulets[kind]
            self.scribe_picks += 1
            self._finish_character()
        elif play == "scribes_die":
            self.amulets[seat] += t.scribes_die_amulets
            self.altar += 1
            self._finish_character()
            if self.altar >= t.dice:
                self._start_offering(self.phase)
        elif play == "smugglers":
            self.amulets[seat] += t.amulets[kind]
            self.smuggled = True
            self._finish_character()
        else:
            self.amulets[seat] += t.amulets[kind]
            self.phase = "vizier"
            self.queue += [(Q_PENDING, 0)] * VIZIER_DRAWS

    def _finish_character(self) -> None:
        self._discard(self.char_card)
        self.char_card = -1
        self.phase = self.return_phase
        self.actor = self.turn

    def _next_responder(self) -> None:
        self.responders.pop(0)
        if not self.responders:
            self._finish_character()

    # Courtesans

    def _legal_courtesans(self) -> list[int]:
        start = self._rules.courtesan
        discards = self.discards
        return [start + k for k in range(NUM_KINDS) if discards[k]]

    def _do_courtesan(self, kind: int) -> None:
        """Take ``kind`` from the discard pile unseen: the others know only that some card left it."""
        seat = self.turn
        self.discards[kind] -= 1
        self.hands[seat][kind] += 1
        for viewer, row in enumerate(self.discard_known):
            if viewer == seat:
                row[kind] -= 1
                continue
            for k in range(NUM_KINDS):
                if row[k]:
                    row[k] -= 1
        self._finish_character()

    # Beggars

    def _legal_beggars(self) -> list[int]:
        rules = self._rules
        hand = self.hands[self.actor]
        result = [rules.give_talents] if self.talents[self.actor] >= 2 else []
        start = rules.give_card
        return result + [start + r for r in range(5) if hand[r]]

    def _settle_beggars(self) -> bool:
        victim = self.responders[0]
        if self.talents[victim] < 2 and not any(self.hands[victim][:5]):
            self._set_known(self.turn, victim, list(self.hands[victim]))
            self._note(f"player {victim + 1} has neither 2 talents nor a standard card "
                       f"and shows the hand to player {self.turn + 1}")
            self._next_responder()
            return True
        self.actor = victim
        return False

    def _do_give_talents(self, _: int) -> None:
        giver = self.actor
        self.talents[giver] -= 2
        self.talents[self.turn] += 2
        self._next_responder()

    def _do_give_card(self, r: int) -> None:
        giver, taker = self.actor, self.turn
        self.hands[giver][r] -= 1
        self.hands[taker][r] += 1
        for viewer in range(self.num_players + 1):
            row = self.known[viewer][giver]
            if viewer == taker:
                row[r] = max(0, row[r] - 1)
            elif viewer != giver:
                for s in range(5):
                    row[s] = max(0, row[s] - 1)
        self.known[giver][taker][r] += 1
        self._next_responder()

    # Envoys

    def _legal_envoy_offer(self) -> list[int]:
        rules = self._rules
        hand = self.hands[self.actor]
        start = rules.offer
        return [start + r for r in range(5) if hand[r]] + [rules.offer_done]

    def _settle_envoy_offer(self) -> bool:
        self.actor = self.responders[0]
        return False

    def _do_offer(self, r: int) -> None:
        giver = self.actor
        self._lose_public(giver, r)
        self.offers.append((giver, r))

    def _do_offer_done(self, _: int) -> None:
        self.responders.pop(0)
        if self.responders:
            self.actor = self.responders[0]
            return
        if self.offers:
            self.phase = "envoy_accept"
            self.actor = self.turn
        else:
            self._finish_character()

    def _legal_envoy_accept(self) -> list[int]:
        rules = self._rules
        start = rules.accept
        return sorted({start + q * 5 + r for q, r in self.offers}) + [rules.accept_done]

    def _do_accept(self, index: int) -> None:
        giver, r = divmod(index, 5)
        taker = self.turn
        self.offers.remove((giver, r))
        self.hands[taker][r] += 1
        self._public_gain(taker, r)
        fee = self.tables.envoys_per_card
        moved = min(fee, self.amulets[giver])
        self.amulets[giver] -= moved
        self.amulets[taker] += fee
        self._note(f"player {taker + 1} accepts {self.tables.names[r]} from player {giver + 1} "
                   f"(+{fee} amulet, {moved} from the giver)")

    def _do_accept_done(self, _: int) -> None:
        for giver, r in self.offers:
            self.hands[giver][r] += 1
            self._public_gain(giver, r)
        self.offers = []
        self._finish_character()

    # Vizier

    def _legal_vizier(self) -> list[int]:
        rules = self._rules
        return [rules.keep, rules.reject]

    def _settle_vizier(self) -> bool:
        if self.pending:
            return False
        self._finish_character()
        return True

    def _do_keep(self, _: int) -> None:
        """Keep the next Vizier card; the others see only that a card was kept."""
        kind, _up = self.pending.pop(0)
        seat = self.turn
        self.hands[seat][kind] += 1
        self.amulets[seat] += self.tables.vizier_per_card

    def _do_reject(self, _: int) -> None:
        kind, _up = self.pending.pop(0)
        self._discard(kind)

    # After the main action, the end of the turn and the hand limit

    def _legal_after(self) -> list[int]:
        result = self._character_actions()
        result.append(self._rules.end_turn)
        return result

    def _settle_after(self) -> bool:
        """End the turn by itself when no character can be played and everybody can tell.

        When the others cannot see the whole hand, the player ends the turn
        by choice, so an automatic end does not tell them that the hidden
        cards hold no playable character.
        """
        seat = self.turn
        if self._hand_public(seat) and not self._character_actions():
            self._do_end_turn(0)
            return self.phase != "limit"
        self.actor = seat
        return False

    def _do_end_turn(self, _: int) -> None:
        seat = self.turn
        if total(self.hands[seat]) > self._rules.hand_limit and not self.smuggled:
            self.phase = "limit"
            return
        self._next_turn()

    def _legal_limit(self) -> list[int]:
        rules = self._rules
        return [rules.limit_discard, rules.limit_keep]

    def _do_limit_discard(self, _: int) -> None:
        self.amulets[self.turn] += 1
        self.phase = "limit_discard"

    def _do_limit_keep(self, _: int) -> None:
        seat = self.turn
        extra = total(self.hands[seat]) - self._rules.hand_limit
        self.amulets[seat] += extra
        self._next_turn()

    def _legal_limit_discard(self) -> list[int]:
        start = self._rules.discard
        hand = self.hands[self.actor]
        return [start + k for k in range(NUM_KINDS) if hand[k]]

    def _do_discard(self, kind: int) -> None:
        seat = self.turn
        self._lose_public(seat, kind)
        self._discard(kind)
        if total(self.hands[seat]) <= self._rules.hand_limit:
            self._next_turn()

    def _next_turn(self) -> None:
        self.turns_played += 1
        n = len(self.hands)
        if self.turns_played >= self._rules.max_rounds * n:
            limit = "limit" if self.game.options["max_rounds"] else "cap"
            self._note(f"the round {limit} is reached")
            self._end_game()
            return
        self._start_turn((self.turn + 1) % n)

    # The log and knowledge bookkeeping

    def _note(self, text: str) -> None:
        """Add to the public log; only the latest entries are shown, so older ones are dropped."""
        log = self.log
        log.append(text)
        if len(log) > 2 * LOG_KEPT:
            del log[:LOG_KEPT]

    def _hand_public(self, seat: int) -> bool:
        """Whether every card in ``seat``'s hand is known to all: the public lower bound (the last viewer's)
        equals the hand, kind by kind, which the first hidden kind settles."""
        public = self.known[-1][seat]
        hand = self.hands[seat]
        for kind in range(NUM_KINDS):
            if public[kind] != hand[kind]:
                return False
        return True

    def _public_gain(self, owner: int, kind: int) -> None:
        for viewer, rows in enumerate(self.known):
            if viewer != owner:
                rows[owner][kind] += 1

    def _lose_public(self, owner: int, kind: int) -> None:
        self.hands[owner][kind] -= 1
        for rows in self.known:
            row = rows[owner]
            if row[kind]:
                row[kind] -= 1

    def _set_known(self, viewer: int, owner: int, counts: list[int]) -> None:
        self.known[viewer][owner] = counts

    def _discard(self, kind: int) -> None:
        """Put a card on the discard pile in everybody's sight."""
        self.discards[kind] += 1
        for row in self.discard_known:
            row[kind] += 1

    # End of game

    def _end_game(self) -> None:
        final = tally(self, at_end=True)
        self.final = final
        eaten = [s + 1 for s in range(self.num_players) if final["eaten"][s]]
        self._note(f"game over: amulets {final['amulets']}, eaten {eaten}")
        self.phase = "end"

    # --- views, scoring and hidden information ---

    # Results

    def _rank_keys(self) -> list[Any]:
        return rank_keys(self)

    def _tie_break(self, ahead: int, behind: int) -> str | None:
        return tie_break(self, ahead, behind)

    def _scores(self) -> list[dict[str, Any]]:
        return scores(self)

    def _outcome(self, places: list[int]) -> tuple[list[int], list[str]]:
        return outcome(self, places)

    def _evaluate(self) -> list[float]:
        return evaluate(self.tables, self.hands, self.talents, self.amulets, self.merchants, self.bids,
                        self.sanctuaries, self.turn, self._bonus(self.built), self._reward_due(),
                        self._rules.crocodile_ties in ("most", "none"))

    def _reward_due(self) -> int:
        """The talents of the piece being paid for, which it brings once paid (0 when none is)."""
        if self.piece is not None and self.phase == "pay":
            return self._piece_reward(*self.piece)[0]
        return 0

    # Hidden information

    def _action_visible_to(self, action: int, seat: int | None) -> bool:
        if self.queue:
            event, payload = self.queue[0]
            if event == Q_TILE or event == Q_DICE:
                return True
            if event == Q_HAND:
                return seat == payload
            if event == Q_PENDING and self.phase == "vizier":
                return seat == self.turn
            return action >= NUM_KINDS
        phase = self.phase
        if phase == "offering":
            return seat == self.actor
        if phase == "beggars":
            name, _ = self._rules.actions.decode(action)
            return name == "give_talents" or seat in (self.actor, self.turn)
        if phase == "vizier":
            name, _ = self._rules.actions.decode(action)
            return name == "reject" or seat == self.turn
        if phase == "courtesans":
            return seat == self.turn
        return True

    def _reveals(self, action: int) -> bool:
        """Whether the decision shows anyone something hidden, so that it cannot be taken back.

        Taking a stall shows its face-down cards to the taker (and the refill is
        drawn); playing a character, giving or offering a card, rejecting a
        Vizier card, and paying or discarding with a card the others do not know
        is in the hand show that card; choosing a piece to build shows the hand
        can pay for it unless the whole hand is public; the last bid turns every
        bid up; a decision after which a draw, a die roll or the end follows
        reveals too. Paying with a Nile merchant or a card known to be in the
        hand, laying a mosaic, claims, accepting offers, a secret bid or Vizier
        keep, the hand limit choice and ending the turn show nothing.
        """
        if not self._quiet(action):
            return True
        after = self.clone()
        after._apply_action(action)
        return after._current_player() in (CHANCE, TERMINAL)

    def _is_final(self, action: int) -> bool:
        """Revealing, or another actor (chance, the end) after it: one copy looks ahead for both."""
        if not self._quiet(action):
            return True
        after = self.clone()
        after._apply_action(action)
        return after._current_player() != self._current_player()

    def _quiet(self, action: int) -> bool:
        """Whether ``action`` itself shows nothing hidden (what follows it aside): see ``_reveals``."""
        name, index = self._rules.actions.decode(action)
        seat = self.turn
        public = self.known[self.num_players][seat]
        if name == "bid":
            quiet = len(self.responders) > 1
        elif name == "pay":
            kind = self._source_kind(index // 4, index % 4)
            quiet = kind < 0 or public[kind] > 0
        elif name == "discard":
            quiet = public[index] > 0
        elif name in PIECE_CATEGORY:
            quiet = self._hand_public(seat)
        else:
            quiet = name in QUIET_DECISIONS
        return quiet

    def _hidden_action_string(self, action: int) -> str:
        """A hidden draw names whom it concerns; a hidden decision is shown after its actor, so it does not."""
        if self.queue:
            event, payload = self.queue[0]
            if event == Q_HAND:
                return tr("player {player} was dealt a card", player=payload + 1)
            if self.phase == "vizier":
                return tr("player {player} drew a card for the Vizier", player=self.turn + 1)
            return tr("a face-down card was drawn")
        if self.phase == "offering":
            return tr("placed a secret bid")
        if self.phase == "beggars":
            return tr("gave player {player} a standard card", player=self.turn + 1)
        if self.phase == "courtesans":
            return tr("took a card from the discard pile")
        return tr.n("kept a card (+{n} amulet)", "kept a card (+{n} amulets)", self.tables.vizier_per_card)

    def _resample(self, seat: int, rng: random.Random) -> "CleopatraState":
        """Re-deal hidden cards consistently with what ``seat`` knows.

        Opponents keep the cards ``seat`` has seen in their hands; everything
        else unseen (their other cards, face-down stall and drawn cards, the
        cards of the discard pile ``seat`` has not known since a Courtesans
        take, the deck) is dealt again from the same multiset, and the secret bids
        already made are drawn again. A hand that must allow the pending
        decision (a payment under way, a Beggars victim with fewer than 2
        talents) is dealt first, card by card, each card chosen at random among
        those that keep the demand reachable with the cards still to come, so
        the deal never fails and never keeps a real hidden card.
        """
        new = self.clone()
        if self.phase == "end":
            return new
        n = self.num_players
        unseen = list(new.deck)
        slots: list[tuple[int, int]] = []
        for s, stall in enumerate(new.stalls):
            for j, (kind, up) in enumerate(stall):
                if not up:
                    unseen[kind] += 1
                    slots.append((s, j))
        own_pending = self.phase == "vizier" and self.turn == seat
        for j, (kind, up) in enumerate(new.pending):
            if not up and not own_pending:
                unseen[kind] += 1
                slots.append((-1, j))
        others = [q for q in range(n) if q != seat]
        for q in others:
            for kind, (held, seen) in enumerate(zip(new.hands[q], new.known[seat][q])):
                unseen[kind] += held - seen
        discarded = list(new.discard_known[seat])
        for kind, (held, seen) in enumerate(zip(new.discards, discarded)):
            unseen[kind] += held - seen
        demanding = self._demanding_seat()
        order = sorted(others, key=lambda q: q != demanding)
        for q in order:
            hand = list(new.known[seat][q])
            free = sum(self.hands[q]) - sum(hand)
            demand = self._demand(q) if q == demanding else None
            if demand is not None and demand(hand, unseen, free):
                _deal_meeting(hand, free, unseen, demand, rng)
            else:
                for kind in deal_random(unseen, free, rng):
                    hand[kind] += 1
            new.hands[q] = hand
        for s, j in slots:
            kind = draw_random(unseen, rng)
            if s >= 0:
                new.stalls[s][j] = (kind, 0)
            else:
                new.pending[j] = (kind, 0)
        for kind in deal_random(unseen, sum(self.discards) - sum(discarded), rng):
            discarded[kind] += 1
        new.discards = discarded
        new.deck = unseen
        for viewer in others:
            new.discard_known[viewer] = list(new.discard_known[n])
            for q in others:
                if q != viewer:
                    new.known[viewer][q] = list(new.known[n][q])
        if self.phase == "offering":
            for q in others:
                if new.bids[q] >= 0:
                    new.bids[q] = rng.randint(0, min(new.talents[q], MAX_BID))
        return new

    def _demanding_seat(self) -> int:
        """The seat whose hidden hand the pending decision depends on, or -1."""
        if self.queue:
            return -1
        if self.phase == "pay":
            return self.turn
        if self.phase == "beggars" and self.talents[self.actor] < 2:
            return self.actor
        return -1

    def _demand(self, q: int) -> Callable[[list[int], list[int], int], bool]:
        """``demand(hand, pool, budget)``: can ``hand`` plus at most ``budget`` cards of ``pool`` make the decision?

        Paying: the rest of the piece must stay payable. Beggars: a victim
        without 2 talents must hold a standard card to give.
        """
        if self.phase == "pay":
            tables = self._rules.tables
            need, credit, merchants = self.to_pay, self.credit, self.merchants[q]
            allow = self._rules.merchant_artisan
            return lambda hand, pool, budget: completable(tables, need, credit, hand, merchants, allow, pool, budget)
        return lambda hand, pool, budget: any(hand[:TAINTED0]) or budget > 0 and any(pool[:TAINTED0])

    # Text

    def _action_to_string(self, action: int) -> str:
        return action_to_string(self, action)

    def _illegal_reason(self, action: int) -> str:
        return illegal_reason(self, action)

    def _render(self) -> str:
        return render_state(self)

    def _observation(self, seat: int | None) -> dict[str, Any]:
        return observation(self, seat)


DECISIONS: Final[dict[str, Callable[[CleopatraState, int], None]]] = {
    "take": CleopatraState._do_take,
    "refill": CleopatraState._do_refill,
    "wall": CleopatraState._do_wall,
    "sphinx": CleopatraState._do_sphinx,
    "pedestal": CleopatraState._do_pedestal,
    "throne": CleopatraState._do_throne,
    "obelisk": CleopatraState._do_obelisk,
    "door": CleopatraState._do_door,
    "mosaic": CleopatraState._do_mosaic,
    "place": CleopatraState._do_place,
    "pay": CleopatraState._do_pay,
    "finish": CleopatraState._do_finish,
    "claim": CleopatraState._do_claim,
    "no_claim": CleopatraState._do_no_claim,
    "play": CleopatraState._do_play,
    "courtesan": CleopatraState._do_courtesan,
    "give_talents": CleopatraState._do_give_talents,
    "give_card": CleopatraState._do_give_card,
    "offer": CleopatraState._do_offer,
    "offer_done": CleopatraState._do_offer_done,
    "accept": CleopatraState._do_accept,
    "accept_done": CleopatraState._do_accept_done,
    "keep": CleopatraState._do_keep,
    "reject": CleopatraState._do_reject,
    "bid": CleopatraState._do_bid,
    "end_turn": CleopatraState._do_end_turn,
    "limit_discard": CleopatraState._do_limit_discard,
    "limit_keep": CleopatraState._do_limit_keep,
    "discard": CleopatraState._do_discard,
    "pass": CleopatraState._do_pass,
}
"""The method that applies each action range (``actions.make_actions``), called with the index within the range."""


def _deal_meeting(hand: list[int], count: int, pool: list[int], demand: Callable[[list[int], list[int], int], bool],
                  rng: random.Random) -> None:
    """Deal ``count`` cards from ``pool`` into ``hand`` so that ``demand`` holds at the end.

    ``demand(hand, pool, budget)`` must hold at the start and be monotone
    (more cards never hurt). A few plain deals are tried first: an accepted
    one is a draw from the exact conditional distribution. When the demand is
    tight, the hand is built card by card instead: each card is drawn at
    random among the pool, and a kind after which the demand could no longer
    be met with the cards still to deal is set aside for this draw. Some kind
    always remains: one the demand's witness uses, or any once it is met.
    """
    for _ in range(DEAL_TRIES):
        trial_pool = list(pool)
        trial = list(hand)
        for kind in deal_random(trial_pool, count, rng):
            trial[kind] += 1
        if demand(trial, trial_pool, 0):
            hand[:] = trial
            pool[:] = trial_pool
            return
    for left in range(count - 1, -1, -1):
        candidates = list(pool)
        while True:
            kind = draw_random(candidates, rng)
            hand[kind] += 1
            pool[kind] -= 1
            if demand(hand, pool, left):
                break
            hand[kind] -= 1
            pool[kind] += 1
            candidates[kind] = 0


def _affordable_categories(cost_rows: list[tuple[int, ...]], allow: bool, a0: int, a1: int, a2: int, a3: int,
                           a4: int, trompe: int, wild: int) -> tuple[bool, ...]:
    """Per cost row: can ``a0``..``a4`` units of the five resources pay it?

    ``wild`` one-unit wild cards cover what is left open; artisans only by the
    ``trompe`` Trompe-l'oeil among them unless ``allow`` (merchants may pay artisans).
    A fast copy of `affordable` (``rules.py``) on the counts ``CleopatraState._affordable`` works out and memoises.
    """
    result = []
    for c0, c1, c2, c3, c4 in cost_rows:
        artisans = c0 - a0 if c0 > a0 else 0
        missing = artisans
        if c1 > a1:
            missing += c1 - a1
        if c2 > a2:
            missing += c2 - a2
        if c3 > a3:
            missing += c3 - a3
        if c4 > a4:
            missing += c4 - a4
        result.append(not missing or missing <= wild and (allow or artisans <= trompe))
    return tuple(result)


def _copy_record(record: dict[str, Any] | None) -> dict[str, Any] | None:
    """A copy of an Offering or end-of-game record: its lists copied, its numbers shared."""
    if record is None:
        return None
    return {k: v[:] if type(v) is list else v for k, v in record.items()}


_LOOKS: Final = NUM_KINDS + 2
"""The looks of a drawn card in ``_refill_choices``' key: 1 face down, kind + 2 face up (0: no card)."""
_REFILL_CHOICES: Final[list[list[int] | None]] = [None] * _LOOKS ** STALLS


def _refill_choices(pending: list[tuple[int, int]]) -> list[int]:
    """One permutation per distinct look of the stalls (face-down cards cannot be told apart).

    A card looks like its kind when face up, like any other face-down card
    otherwise; the answer depends only on those looks, so it is memoised in a
    list indexed by the looks of the (at most ``STALLS``) cards as digits.
    """
    key = 0
    for kind, up in pending:
        key = key * _LOOKS + (kind + 2 if up else 1)
    choices = _REFILL_CHOICES[key]
    if choices is None:
        looks = [kind if up else -1 for kind, up in pending]
        seen = set()
        choices = []
        for i, perm in enumerate(PERMS):
            look = [-2] * STALLS
            for j, card_look in enumerate(looks):
                look[perm[j]] = card_look
            if tuple(look) not in seen:
                seen.add(tuple(look))
                choices.append(i)
        _REFILL_CHOICES[key] = choices
    return choices
