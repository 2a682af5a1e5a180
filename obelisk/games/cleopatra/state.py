"""The Cleopatra position: turn flow, building, corruption, characters and scoring.

A turn is a chain of small decisions held in ``phase``:

* ``turn`` – before the main action: take a market stall, start building a
  piece, play a character card (or pass when neither action is possible);
* ``refill`` – after a stall was taken, put the drawn cards on the stalls;
* ``build`` / ``pay`` / ``place`` / ``claim`` – the quarry visit: choose a
  piece, pay it unit by unit, lay a mosaic, claim new sanctuaries; ``finish``
  pays the multi-build bonus and rolls the dice;
* ``after`` – characters may still be played, then ``end turn``;
* ``limit`` / ``limit_discard`` – the hand limit at the end of the turn;
* ``offering`` – secret bids, one seat after another, revealed together;
* ``beggars``, ``courtesans``, ``envoy_offer``, ``envoy_accept``, ``vizier`` –
  the resolution of a character, each choice owned by the seat that makes it.

Every random event is a chance node taken from ``queue``: deck draws
(outcome ``face * 17 + kind``), the High Priest dice (outcome = number of
priest symbols) and the top of the mosaic stack (outcome = tile index).

Knowledge of hands is tracked as lower bounds ``known[viewer][owner][kind]``
(viewer ``n`` is the public); they grow when a card is seen entering a hand and
shrink when a card leaves it, so re-dealing hidden cards respects everything a
seat has seen.
"""

from __future__ import annotations

import math
import random
from typing import Any

from obelisk.core import CHANCE, TERMINAL, State
from obelisk.core.pools import deal_random
from obelisk.games.cleopatra.data import BEGGARS, COURTESANS, ENVOYS, SCRIBES, SMUGGLERS, TAINTED0, TROMPE, VIZIER, Tables
from obelisk.games.cleopatra.labels import action_label, illegal_reason
from obelisk.games.cleopatra.rules import (
    CHARACTER_PLAYS, MAX_BID, NUM_KINDS, PERMS, PHASES, SOURCES, STALL_NAMES, STALLS, VIZIER_DRAWS, affordable,
)
from obelisk.games.cleopatra.view import observation, render_state

PLAY_KIND = {"beggars": BEGGARS, "courtesans": COURTESANS, "envoys": ENVOYS, "scribes_pick": SCRIBES,
             "scribes_die": SCRIBES, "smugglers": SMUGGLERS, "vizier": VIZIER}
SIMPLE_PIECES = {"sphinx": "sphinxes", "pedestal": "throne", "throne": "throne", "obelisk": "obelisks"}
PIECE_CATEGORY = {"wall": "walls", "door": "doors", "mosaic": "mosaics", **SIMPLE_PIECES}
BUILD_RANGES = ("wall", "sphinx", "pedestal", "throne", "obelisk", "door", "mosaic")


def _popcount(mask: int) -> int:
    return bin(mask).count("1")


class CleopatraState(State):
    """One position of Cleopatra and the Society of Architects."""

    # Setup -------------------------------------------------------------------

    def _init(self) -> None:
        t = self.tables
        n = self.num_players
        self.phase = "setup"
        self.turn = 0
        self.actor = 0
        self.turns_played = 0
        self.queue: list[str] = [f"hand:{s}" for s in range(n) for _ in range(t.kit["cards_dealt"])]
        self.queue += ["orient"] + [f"stall:{s}" for s in range(STALLS)] + ["tile"]
        self.deck = list(t.copies)
        self.deck_up = 0
        self.discards = [0] * NUM_KINDS
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
        self.garden = [-1 if t.playable_mask >> c & 1 else -2 for c in range(t.rows * t.cols)]
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
        self.return_phase = "turn"
        self.char_card = -1
        self.responders: list[int] = []
        self.offers: list[tuple[int, int]] = []
        self.bids = [-1] * n
        self.last_offering: dict[str, Any] | None = None
        self.final: dict[str, Any] | None = None
        self.log: list[str] = []

    @property
    def tables(self) -> Tables:
        return self.game.tables

    def _enc(self, name: str, index: int = 0) -> int:
        return self.game.base[name] + index

    # Core hooks --------------------------------------------------------------

    def _current_player(self) -> int:
        if self.phase == "end":
            return TERMINAL
        if self.queue:
            return CHANCE
        return self.actor

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        head = self.queue[0]
        if head == "tile":
            share = 1.0 / len(self.stack_rest)
            return [(t, share) for t in self.stack_rest]
        if head == "dice":
            rolled = self.tables.dice - self.altar
            p = self.game.options["priest_faces"] / self.tables.faces
            return [(k, math.comb(rolled, k) * p ** k * (1 - p) ** (rolled - k)) for k in range(rolled + 1)]
        size = sum(self.deck)
        up = self.deck_up / size
        result = [(k, (c / size) * (1 - up)) for k, c in enumerate(self.deck) if c and up < 1]
        if up > 0:
            result += [(NUM_KINDS + k, (c / size) * up) for k, c in enumerate(self.deck) if c]
        return result

    def _legal_actions(self) -> list[int]:
        phase = self.phase
        seat = self.actor
        hand = self.hands[seat]
        if phase in ("turn", "build"):
            result = []
            if phase == "turn":
                result = [self._enc("take", s) for s in range(STALLS) if self.stalls[s]]
            result += self._piece_actions()
            if phase == "build":
                result.append(self._enc("finish"))
            else:
                if not result:
                    result.append(self._enc("pass"))
                result += self._character_actions()
            return sorted(result)
        if phase == "after":
            return sorted(self._character_actions() + [self._enc("end_turn")])
        if phase == "pay":
            r = self._next_unit()
            return [self._enc("pay", r * 4 + s) for s in self._pay_sources(r)]
        if phase == "place":
            tile = self.piece[1]
            occupied = self.occupied
            start = self.game.base["place"]
            return [start + i for i, p in enumerate(self.tables.placements[tile]) if not p.mask & occupied]
        if phase == "refill":
            return [self._enc("refill", i) for i in self._refill_choices()]
        if phase == "claim":
            return [self._enc("claim", i) for i in range(len(self.claimable))] + [self._enc("no_claim")]
        if phase == "courtesans":
            return [self._enc("courtesan", k) for k in range(NUM_KINDS) if self.discards[k]]
        if phase == "beggars":
            result = [self._enc("give_talents")] if self.talents[seat] >= 2 else []
            return result + [self._enc("give_card", r) for r in range(5) if hand[r]]
        if phase == "envoy_offer":
            return [self._enc("offer", r) for r in range(5) if hand[r]] + [self._enc("offer_done")]
        if phase == "envoy_accept":
            pairs = sorted(set(self.offers))
            return [self._enc("accept", q * 5 + r) for q, r in pairs] + [self._enc("accept_done")]
        if phase == "vizier":
            return [self._enc("keep"), self._enc("reject")]
        if phase == "offering":
            start = self.game.base["bid"]
            return list(range(start, start + min(self.talents[seat], MAX_BID) + 1))
        if phase == "limit":
            return [self._enc("limit_discard"), self._enc("limit_keep")]
        if phase == "limit_discard":
            return [self._enc("discard", k) for k in range(NUM_KINDS) if hand[k]]
        raise AssertionError(f"no decision in phase {phase}")

    # Legal-move helpers --------------------------------------------------------

    def _can_pay(self, category: str) -> bool:
        seat = self.turn
        return affordable(self.tables, list(self.tables.costs[category]), self.credit, self.hands[seat],
                          self.merchants[seat], self.game.options["merchant_artisan"])

    def _piece_actions(self) -> list[int]:
        t = self.game.tables
        result = []
        if -1 in self.walls and self._can_pay("walls"):
            result += [self._enc("wall", i) for i, w in enumerate(self.walls) if w < 0]
        if len(self.sphinxes) < t.pieces["sphinxes"] and self._can_pay("sphinxes"):
            result.append(self._enc("sphinx"))
        if len(self.throne) < 2 and self._can_pay("throne"):
            result.append(self._enc("pedestal" if not self.throne else "throne"))
        if len(self.obelisks) < t.pieces["obelisks"] and self._can_pay("obelisks"):
            result.append(self._enc("obelisk"))
        if -1 in self.doors and self._can_pay("doors"):
            result += [self._enc("door", i) for i, d in enumerate(self.doors) if d < 0]
        if self.stack_top >= 0 and self._can_pay("mosaics"):
            tiles = [self.stack_top]
            if self.scribe_picks:
                tiles += [x for x in self.stack_rest if self._fits(x)]
            result += [self._enc("mosaic", x) for x in tiles]
        return result

    def _character_actions(self) -> list[int]:
        hand = self.hands[self.turn]
        result = []
        for index, play in enumerate(CHARACTER_PLAYS):
            if not hand[PLAY_KIND[play]]:
                continue
            if play == "courtesans" and not any(self.discards):
                continue
            if play == "vizier" and not (sum(self.deck) or any(self.discards)):
                continue
            if play == "scribes_pick" and (self.phase != "turn" or not self.stack_rest or self.stack_top < 0):
                continue
            if play == "smugglers" and self.smuggled:
                continue
            result.append(self._enc("play", index))
        return result

    def _fits(self, tile: int) -> bool:
        occupied = self.occupied
        return any(not p.mask & occupied for p in self.tables.placements[tile])

    def _next_unit(self) -> int:
        return next(r for r in range(5) if self.to_pay[r])

    def _pay_sources(self, r: int) -> list[int]:
        """Sources for one unit of resource ``r`` that keep the rest of the cost payable."""
        seat = self.turn
        hand = self.hands[seat]
        allow = self.game.options["merchant_artisan"]
        result = []
        for s, source in enumerate(SOURCES):
            if source == "card" and not hand[r] or source == "tainted" and not hand[TAINTED0 + r]:
                continue
            if source == "trompe" and not hand[TROMPE]:
                continue
            if source == "merchant" and (not self.merchants[seat] or r == 0 and not allow):
                continue
            need = list(self.to_pay)
            credit = list(self.credit)
            rest = list(hand)
            merchants = self.merchants[seat]
            kind = self._source_kind(r, s)
            if kind >= 0:
                rest[kind] -= 1
                units = self.tables.units[kind] if kind != TROMPE else 1
            else:
                merchants -= 1
                units = 1
            used = min(units, need[r])
            need[r] -= used
            credit[r] += units - used
            if affordable(self.tables, need, credit, rest, merchants, allow):
                result.append(s)
        return result

    @staticmethod
    def _source_kind(r: int, s: int) -> int:
        return (r, TAINTED0 + r, TROMPE, -1)[s]

    def _refill_choices(self) -> list[int]:
        """One permutation per distinct look of the stalls (face-down cards cannot be told apart)."""
        seen: set[tuple[str, ...]] = set()
        result = []
        for i, perm in enumerate(PERMS):
            look = [""] * STALLS
            for j, card in enumerate(self.pending):
                look[perm[j]] = self._card_look(card)
            key = tuple(look)
            if key not in seen:
                seen.add(key)
                result.append(i)
        return result

    def _card_look(self, card: tuple[int, int]) -> str:
        return self.tables.names[card[0]] if card[1] else "face-down"

    # Applying actions ----------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        if self.queue:
            self._apply_chance(action)
        else:
            name, index = self.game.actions.decode(action)
            getattr(self, "_do_" + name)(index)
        self._advance()

    def _apply_chance(self, outcome: int) -> None:
        head = self.queue.pop(0)
        if head == "tile":
            self.stack_rest.remove(outcome)
            self.stack_top = outcome
            return
        if head == "dice":
            self.altar += outcome
            return
        kind, up = outcome % NUM_KINDS, outcome // NUM_KINDS
        self.deck[kind] -= 1
        self.deck_up -= up
        where, _, arg = head.partition(":")
        if where == "hand":
            self.hands[int(arg)][kind] += 1
        elif where == "stall":
            self.stalls[int(arg)].append((kind, up))
        else:
            self.pending.append((kind, up))

    def _advance(self) -> None:
        """Resolve everything automatic until a decision, a chance node or the end."""
        while True:
            if self.queue:
                head = self.queue[0]
                if head == "orient":
                    self.queue.pop(0)
                    self.deck_up = sum(self.deck) // 2
                    continue
                if head == "tile":
                    if not self.stack_rest:
                        self.queue.pop(0)
                        continue
                    return
                if head == "dice":
                    return
                if not sum(self.deck):
                    if any(self.discards):
                        self.deck = self.discards
                        self.discards = [0] * NUM_KINDS
                        self.deck_up = sum(self.deck) // 2
                        self.log.append("the discard pile is shuffled into a new deck")
                        return
                    self.queue.pop(0)
                    continue
                return
            if not self._continue():
                return

    def _continue(self) -> bool:
        """The step after the chance queue emptied; True when something changed and settling goes on."""
        phase = self.phase
        if phase == "setup":
            self._start_turn(0)
            return False
        if phase == "refill" and not self.pending:
            self.phase = "after"
            return True
        if phase == "after":
            if not self._character_actions():
                self._do_end_turn(0)
                return self.phase != "limit"
            self.actor = self.turn
            return False
        if phase == "vizier" and not self.pending:
            self._finish_character()
            return True
        if phase == "tiles":
            return self._settle_tiles()
        if phase == "dice":
            self.phase = "after"
            if self.altar >= self.tables.dice:
                self._start_offering("after")
                return False
            return True
        if phase == "pay":
            return self._auto_pay()
        if phase == "beggars":
            victim = self.responders[0]
            if self.talents[victim] < 2 and not any(self.hands[victim][:5]):
                self._set_known(self.turn, victim, list(self.hands[victim]))
                self.log.append(f"seat {victim} has neither 2 talents nor a standard card and shows the hand to seat {self.turn}")
                self._next_responder()
                return True
            self.actor = victim
            return False
        if phase == "envoy_offer":
            self.actor = self.responders[0]
            return False
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

    # Market ------------------------------------------------------------------------

    def _do_take(self, s: int) -> None:
        seat = self.turn
        for kind, up in self.stalls[s]:
            self.hands[seat][kind] += 1
            if up:
                self._public_gain(seat, kind)
        self.log.append(f"seat {seat} takes stall {STALL_NAMES[s]} ({len(self.stalls[s])} cards)")
        self.stalls[s] = []
        self.main_done = True
        self.phase = "refill"
        self.queue += ["pending"] * STALLS

    def _do_refill(self, i: int) -> None:
        for j, card in enumerate(self.pending):
            self.stalls[PERMS[i][j]].append(card)
        self.pending = []
        self.phase = "after"

    def _do_pass(self, _: int) -> None:
        self.main_done = True
        self.log.append(f"seat {self.turn} can neither take a stall nor build and passes")
        self.phase = "after"

    # Building ------------------------------------------------------------------------

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

    def _auto_pay(self) -> bool:
        """Use credit from split tainted cards, and any forced payment, until a real choice remains."""
        while any(self.to_pay):
            r = self._next_unit()
            if self.credit[r]:
                self.credit[r] -= 1
                self.to_pay[r] -= 1
                continue
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
            self._lose_public(seat, kind)
            self.discards[kind] += 1
            self.amulets[seat] += self.tables.amulets[kind]
            units = self.tables.units[kind] if kind != TROMPE else 1
        else:
            self.merchants[seat] -= 1
            units = 1
        used = min(units, self.to_pay[r])
        self.to_pay[r] -= used
        self.credit[r] += units - used

    def _piece_paid(self) -> None:
        piece, index = self.piece
        if piece == "mosaic":
            self.phase = "place"
            self.actor = self.turn
            return
        t = self.tables
        seat = self.turn
        if piece == "wall":
            self.walls[index] = seat
            reward = t.rewards["walls"]["base"] + t.rewards["walls"]["per_adjacent_mosaic"] * self._wall_tiles(index)
            label = f"wall {t.wall_ids[index]}"
        elif piece == "sphinx":
            self.sphinxes.append(seat)
            number = len(self.sphinxes)
            reward = t.rewards["sphinxes"]["odd" if number % 2 else "even"]
            label = f"sphinx #{number}"
        elif piece in ("pedestal", "throne"):
            self.throne.append(seat)
            reward = t.rewards["throne"][piece]
            label = piece
        elif piece == "obelisk":
            self.obelisks.append(seat)
            reward = t.rewards["obelisks"]["each"]
            label = "obelisk"
        else:
            self.doors[index] = seat
            reward = t.rewards["doors"]["base"] + t.rewards["doors"]["per_wall"] * self._door_run(index)
            label = f"door frame {t.door_ids[index]}"
        self._collect(seat, reward, label)
        self._check_complete(PIECE_CATEGORY[piece])
        self._piece_done()

    def _collect(self, seat: int, reward: int, label: str) -> None:
        self.talents[seat] += reward
        self.built += 1
        self.piece = None
        self.log.append(f"seat {seat} builds {label} for {reward} talents")

    def _wall_tiles(self, index: int) -> int:
        mask = self.tables.wall_masks[index]
        garden = self.garden
        return len({garden[c] for c in range(len(garden)) if mask >> c & 1 and garden[c] >= 0})

    def _door_run(self, index: int) -> int:
        run = 0
        for slot in self.tables.door_walks[index]:
            if self.walls[slot] < 0:
                break
            run += 1
        return run

    def _check_complete(self, category: str) -> None:
        t = self.tables
        done = {
            "walls": -1 not in self.walls,
            "sphinxes": len(self.sphinxes) >= t.pieces["sphinxes"],
            "throne": len(self.throne) >= 2,
            "obelisks": len(self.obelisks) >= t.pieces["obelisks"],
            "doors": -1 not in self.doors,
            "mosaics": self.stack_top < 0 and not self.stack_rest,
        }[category]
        if done and category not in self.completed:
            self.completed.append(category)
            self.cleopatra += 1
            self.log.append(f"{t.category_names[category]} complete: Cleopatra moves to step {self.cleopatra}")

    def _do_place(self, i: int) -> None:
        seat = self.turn
        tile = self.piece[1]
        placement = self.tables.placements[tile][i]
        for r, c in placement.cells:
            self.garden[r * self.tables.cols + c] = tile
        self.occupied |= placement.mask
        self.mosaics.append((tile, i, seat))
        rewards = self.tables.rewards["mosaics"]
        palms = _popcount(placement.mask & self.tables.palm_mask)
        self._collect(seat, rewards["base"] + rewards["per_palm"] * palms, f"mosaic {self.tables.tile_ids[tile]}")
        if tile == self.stack_top:
            self.stack_top = -1
            self.queue.append("tile")
        else:
            self.stack_rest.remove(tile)
            self.scribe_picks -= 1
        self.phase = "tiles"

    def _settle_tiles(self) -> bool:
        """After a mosaic: drop stack tops that fit nowhere, then look for new sanctuaries."""
        if self.stack_top >= 0 and not self._fits(self.stack_top):
            self.removed_tiles.append(self.stack_top)
            self.log.append(f"mosaic {self.tables.tile_ids[self.stack_top]} fits nowhere and leaves the game")
            self.stack_top = -1
            self.queue.append("tile")
            return True
        self._check_complete("mosaics")
        new = [m for m in self._sanctuary_masks() if m not in self.sanctuary_seen]
        self.sanctuary_seen += new
        self.claimable = new if self.statues[self.turn] else []
        if self.claimable:
            self.phase = "claim"
            self.actor = self.turn
            return False
        self._piece_done()
        return False

    def _empty_regions(self) -> list[int]:
        """Orthogonally connected groups of empty playable cells, as masks, by lowest cell."""
        t = self.tables
        cols = t.cols
        empty = t.playable_mask & ~self.occupied
        regions = []
        while empty:
            low = empty & -empty
            region = 0
            frontier = low
            while frontier:
                region |= frontier
                grow = ((frontier << cols) | (frontier >> cols)
                        | ((frontier << 1) & self.game.not_left) | ((frontier >> 1) & self.game.not_right))
                frontier = grow & empty & ~region
            regions.append(region)
            empty &= ~region
        return regions

    def _sanctuary_masks(self) -> list[int]:
        """Regions into which no tile still in the stack fits (the ruling: every remaining tile counts)."""
        remaining = ([self.stack_top] if self.stack_top >= 0 else []) + self.stack_rest
        placements = self.tables.placements
        smallest = min((self.tables.tile_size[x] for x in remaining), default=0)
        result = []
        for region in self._empty_regions():
            if remaining and _popcount(region) >= smallest:
                outside = ~region
                if any(not p.mask & outside for x in remaining for p in placements[x]):
                    continue
            result.append(region)
        return result

    def _do_claim(self, i: int) -> None:
        seat = self.turn
        region = self.claimable.pop(i)
        cells = tuple(c for c in range(self.tables.rows * self.tables.cols) if region >> c & 1)
        self.sanctuaries.append((seat, cells))
        self.statues[seat] -= 1
        self.log.append(f"seat {seat} claims a sanctuary of {len(cells)} cells")
        if not self.claimable or not self.statues[seat]:
            self.claimable = []
            self._piece_done()

    def _do_no_claim(self, _: int) -> None:
        self.claimable = []
        self._piece_done()

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
            self.log.append(f"seat {self.turn} built {self.built} pieces: +{bonus} talents")

    def _bonus(self, pieces: int) -> int:
        if pieces >= 4:
            return self.game.options["bonus_four_plus"]
        return self.tables.bonus.get(pieces, 0)

    def _do_finish(self, _: int) -> None:
        self._pay_bonus()
        self.built = 0
        self.credit = [0] * 5
        self.phase = "dice"
        self.queue.append("dice")

    # Offering ------------------------------------------------------------------------

    def _start_offering(self, resume: str) -> None:
        n = self.num_players
        self.return_phase = resume
        self.phase = "offering"
        self.bids = [-1] * n
        self.responders = [(self.turn + i) % n for i in range(n)]
        self.actor = self.responders[0]
        self.log.append("all dice are on the altar: Offering to the High Priest")

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
            shared = end if self.game.options["offering_ties"] == "worse" else place
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
        self.log.append(f"Offering: bids {list(bids)}, amulets {applied}")
        self.bids = [-1] * n
        self.altar = 0
        self.phase = self.return_phase
        self.actor = self.turn

    # Characters ------------------------------------------------------------------------

    def _do_play(self, index: int) -> None:
        play = CHARACTER_PLAYS[index]
        seat = self.turn
        kind = PLAY_KIND[play]
        self._lose_public(seat, kind)
        self.char_card = kind
        self.return_phase = self.phase
        t = self.tables
        self.log.append(f"seat {seat} plays {t.names[kind]}" + (" (die mode)" if play == "scribes_die" else ""))
        n = self.num_players
        if play == "beggars":
            self.amulets[seat] += t.amulets[kind]
            self.responders = [(seat + i) % n for i in range(1, n)]
            self.phase = "beggars"
        elif play == "courtesans":
            self.amulets[seat] += t.amulets[kind]
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
            self.queue += ["pending"] * VIZIER_DRAWS

    def _finish_character(self) -> None:
        self.discards[self.char_card] += 1
        self.char_card = -1
        self.phase = self.return_phase
        self.actor = self.turn

    def _do_courtesan(self, kind: int) -> None:
        self.discards[kind] -= 1
        self.hands[self.turn][kind] += 1
        self._public_gain(self.turn, kind)
        self._finish_character()

    def _next_responder(self) -> None:
        self.responders.pop(0)
        if not self.responders:
            self._finish_character()

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
        self.log.append(f"seat {taker} accepts {self.tables.names[r]} from seat {giver} (+{fee} amulet, {moved} from the giver)")

    def _do_accept_done(self, _: int) -> None:
        for giver, r in self.offers:
            self.hands[giver][r] += 1
            self._public_gain(giver, r)
        self.offers = []
        self._finish_character()

    def _do_keep(self, _: int) -> None:
        kind, up = self.pending.pop(0)
        seat = self.turn
        self.hands[seat][kind] += 1
        if up:
            self._public_gain(seat, kind)
        self.amulets[seat] += self.tables.vizier_per_card

    def _do_reject(self, _: int) -> None:
        kind, _up = self.pending.pop(0)
        self.discards[kind] += 1

    # End of turn ------------------------------------------------------------------------

    def _do_end_turn(self, _: int) -> None:
        seat = self.turn
        if sum(self.hands[seat]) > self.tables.kit["hand_limit"] and not self.smuggled:
            self.phase = "limit"
            return
        self._next_turn()

    def _do_limit_discard(self, _: int) -> None:
        self.amulets[self.turn] += 1
        self.phase = "limit_discard"

    def _do_limit_keep(self, _: int) -> None:
        seat = self.turn
        extra = sum(self.hands[seat]) - self.tables.kit["hand_limit"]
        self.amulets[seat] += extra
        self._next_turn()

    def _do_discard(self, kind: int) -> None:
        seat = self.turn
        self._lose_public(seat, kind)
        self.discards[kind] += 1
        if sum(self.hands[seat]) <= self.tables.kit["hand_limit"]:
            self._next_turn()

    def _next_turn(self) -> None:
        self.turns_played += 1
        if self.turns_played >= self.game.options["max_rounds"] * self.num_players:
            self.log.append("the round limit is reached")
            self._end_game()
            return
        self._start_turn((self.turn + 1) % self.num_players)

    # Knowledge bookkeeping ------------------------------------------------------------------------

    def _public_gain(self, owner: int, kind: int) -> None:
        for viewer in range(self.num_players + 1):
            if viewer != owner:
                self.known[viewer][owner][kind] += 1

    def _lose_public(self, owner: int, kind: int) -> None:
        self.hands[owner][kind] -= 1
        for viewer in range(self.num_players + 1):
            row = self.known[viewer][owner]
            if row[kind]:
                row[kind] -= 1

    def _set_known(self, viewer: int, owner: int, counts: list[int]) -> None:
        self.known[viewer][owner] = counts

    # End of game ------------------------------------------------------------------------

    def _end_game(self) -> None:
        n = self.num_players
        t = self.tables
        tainted = [sum(self.hands[s][TAINTED0:]) for s in range(n)]
        relief = [sum(len(cells) for owner, cells in self.sanctuaries if owner == s) for s in range(n)]
        corruption = [max(0, self.amulets[s] + tainted[s] - relief[s]) for s in range(n)]
        top = max(corruption)
        tied = [s for s in range(n) if corruption[s] == top]
        rule = self.game.options["crocodile_ties"]
        if len(tied) == 1 or rule == "all":
            eaten = tied
        elif rule == "none":
            eaten = []
        else:
            richest = max(self.talents[s] for s in tied)
            eaten = [s for s in tied if self.talents[s] == richest]
        bonus = [0 if s in eaten else t.kit["merchant_end_value"] * self.merchants[s] for s in range(n)]
        self.final = {
            "tainted_in_hand": tainted,
            "sanctuary_relief": relief,
            "amulets": corruption,
            "eaten": [s in eaten for s in range(n)],
            "merchant_bonus": bonus,
            "talents": [self.talents[s] + bonus[s] for s in range(n)],
        }
        self.log.append(f"game over: amulets {corruption}, eaten {eaten}")
        self.phase = "end"

    def _rank_keys(self) -> list[Any]:
        f = self.final
        return [(0, 0, 0) if f["eaten"][s] else (1, f["talents"][s], -f["amulets"][s]) for s in range(self.num_players)]

    def _scores(self) -> list[dict[str, Any]]:
        f = self.final
        result = []
        for s in range(self.num_players):
            result.append({
                "total": f["talents"][s],
                "breakdown": {
                    "talents": self.talents[s],
                    "merchant_bonus": f["merchant_bonus"][s],
                    "amulets": f["amulets"][s],
                    "tainted_in_hand": f["tainted_in_hand"][s],
                    "sanctuary_relief": f["sanctuary_relief"][s],
                    "eaten": int(f["eaten"][s]),
                },
            })
        return result

    def _evaluate(self) -> list[float]:
        """Wealth discounted by the risk of being the most corrupt.

        Wealth is talents, 3 per Nile merchant and half a talent per resource unit in
        hand; corruption counts amulets, tainted cards in hand and sanctuary
        relief. The chance of being eaten grows steeply as a seat's
        corruption approaches or passes the highest of the others.
        """
        n = self.num_players
        t = self.tables
        wealth = []
        corruption = []
        for s in range(n):
            hand = self.hands[s]
            relief = sum(len(cells) for owner, cells in self.sanctuaries if owner == s)
            corruption.append(self.amulets[s] + sum(hand[TAINTED0:]) - relief)
            cards = sum(hand[:TAINTED0]) + 2 * sum(hand[TAINTED0:TROMPE]) + hand[TROMPE]
            wealth.append(self.talents[s] + t.kit["merchant_end_value"] * self.merchants[s] + 0.5 * min(cards, 12))
        value = []
        for s in range(n):
            rival = max(corruption[q] for q in range(n) if q != s)
            risk = 1.0 / (1.0 + math.exp(-1.3 * (corruption[s] - rival + 0.5)))
            value.append((1.0 - risk) * wealth[s])
        mean = sum(value) / n
        return [max(-1.0, min(1.0, math.tanh((v - mean) / 20.0))) for v in value]

    # Hidden information ------------------------------------------------------------------------

    def _action_visible_to(self, action: int, seat: int | None) -> bool:
        if self.queue:
            head = self.queue[0]
            if head in ("tile", "dice"):
                return True
            if head.startswith("hand:"):
                return seat == int(head[5:])
            if action >= NUM_KINDS:
                return True
            return head == "pending" and self.phase == "vizier" and seat == self.turn
        phase = self.phase
        if phase == "offering":
            return seat == self.actor
        if phase == "beggars":
            name, _ = self.game.actions.decode(action)
            return name == "give_talents" or seat in (self.actor, self.turn)
        if phase == "vizier":
            name, _ = self.game.actions.decode(action)
            return name == "reject" or self.pending[0][1] == 1 or seat == self.turn
        return True

    def _hidden_action_string(self, action: int) -> str:
        if self.queue:
            head = self.queue[0]
            if head.startswith("hand:"):
                return f"seat {head[5:]} is dealt a card"
            return "a face-down card is drawn"
        if self.phase == "offering":
            return f"seat {self.actor} places a secret bid"
        if self.phase == "beggars":
            return f"seat {self.actor} gives seat {self.turn} a standard card"
        return f"seat {self.turn} keeps a face-down card (+{self.tables.vizier_per_card} amulet)"

    def _resample(self, seat: int, rng: random.Random) -> "CleopatraState":
        """Re-deal hidden cards consistently with what ``seat`` knows.

        Opponents keep the cards ``seat`` has seen in their hands; everything
        else unseen (their other cards, face-down stall and drawn cards, the
        deck) is dealt again from the same multiset. A seat in the middle of
        paying must still be able to pay, and a Beggars victim must still have
        something to give: deals that break this are redrawn, and after a few
        misses that seat's true hand is kept.
        """
        if self.phase == "end":
            return self.clone()
        constrained = self._constrained_seat()
        pinned = -1
        for attempt in range(12):
            if attempt == 11:
                pinned = constrained
            new = self._redeal(seat, rng, pinned)
            if constrained in (-1, seat) or new._constraint_holds(constrained):
                return new
        raise AssertionError("the true hand always satisfies the constraint")

    def _constrained_seat(self) -> int:
        if self.phase == "pay":
            return self.turn
        if self.phase == "beggars" and not self.queue:
            return self.actor
        return -1

    def _constraint_holds(self, q: int) -> bool:
        if self.phase == "pay":
            return affordable(self.game.tables, self.to_pay, self.credit, self.hands[q], self.merchants[q],
                              self.game.options["merchant_artisan"])
        return self.talents[q] >= 2 or any(self.hands[q][:5])

    def _redeal(self, seat: int, rng: random.Random, pinned: int) -> "CleopatraState":
        new = self.clone()
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
        free = {}
        for q in range(n):
            if q in (seat, pinned):
                continue
            extra = [h - k for h, k in zip(new.hands[q], new.known[seat][q])]
            for kind, c in enumerate(extra):
                unseen[kind] += c
            free[q] = sum(extra)
        for q, count in free.items():
            hand = list(new.known[seat][q])
            for kind in deal_random(unseen, count, rng):
                hand[kind] += 1
            new.hands[q] = hand
        for s, j in slots:
            kind = deal_random(unseen, 1, rng)[0]
            if s >= 0:
                new.stalls[s][j] = (kind, 0)
            else:
                new.pending[j] = (kind, 0)
        new.deck = unseen
        for viewer in range(n):
            if viewer == seat:
                continue
            for q in range(n):
                if q not in (viewer, seat):
                    new.known[viewer][q] = list(new.known[n][q])
        if self.phase == "offering":
            for q in range(n):
                if q != seat and new.bids[q] >= 0:
                    new.bids[q] = rng.randint(0, min(new.talents[q], MAX_BID))
        return new

    # Text ------------------------------------------------------------------------------------

    def _action_to_string(self, action: int) -> str:
        if self.queue and self.phase != "end":
            return self._chance_label(action)
        return action_label(self, action)

    def _chance_label(self, outcome: int) -> str:
        head = self.queue[0]
        t = self.tables
        if head == "tile":
            return f"mosaic stack top: {t.tile_ids[outcome]}" if outcome < len(t.tile_ids) else f"tile {outcome}"
        if head == "dice":
            return f"{outcome} priest symbol(s) rolled"
        kind, up = outcome % NUM_KINDS, outcome // NUM_KINDS
        if up > 1:
            return f"outcome {outcome}"
        face = "face-up" if up else "face-down"
        if head.startswith("hand:"):
            return f"deal {t.names[kind]} to seat {head[5:]}"
        return f"draw {t.names[kind]} ({face})"

    def _illegal_reason(self, action: int) -> str:
        return illegal_reason(self, action)

    def _render(self) -> str:
        return render_state(self)

    def _observation(self, seat: int | None) -> dict[str, Any]:
        return observation(self, seat)

    def _validate(self) -> str | None:
        n = self.num_players
        t = self.tables
        if len(self.hands) != n or any(len(h) != NUM_KINDS for h in self.hands):
            return f"hands must be {n} lists of {NUM_KINDS} counts"
        if len(self.known) != n + 1 or any(len(row) != n for row in self.known):
            return "known must hold one row per viewer (seats and the public)"
        counts = [self.deck[k] + self.discards[k] + sum(h[k] for h in self.hands) for k in range(NUM_KINDS)]
        for card in [c for stall in self.stalls for c in stall] + self.pending:
            counts[card[0]] += 1
        for _, r in self.offers:
            counts[r] += 1
        if self.char_card >= 0:
            counts[self.char_card] += 1
        if counts != list(t.copies):
            return f"card counts {counts} do not add up to the deck {list(t.copies)}"
        if min(self.deck + self.discards + [x for h in self.hands for x in h]) < 0:
            return "a card count is negative"
        for viewer in range(n + 1):
            for q in range(n):
                if any(k > h for k, h in zip(self.known[viewer][q], self.hands[q])):
                    return f"viewer {viewer} knows more cards of seat {q} than it holds"
        if not 0 <= self.deck_up <= sum(self.deck):
            return "deck_up exceeds the deck"
        if self.phase not in PHASES:
            return f"unknown phase {self.phase!r}"
        if min(self.talents + self.amulets + self.merchants + self.statues) < 0:
            return "talents, amulets, merchants and statues cannot be negative"
        return None

