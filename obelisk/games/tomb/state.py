"""Positions and rules of Secret of the Ancient Tomb.

The board is a 9x9 grid of cells ``row * 9 + col`` (``A1`` = 0 in the
north-west, ``E5`` = 40 is the burial chamber); positions 81..84 are the
corner entrances NW, NE, SW, SE. A face-down square holds no tile until it is
revealed: revealing draws a kind from the face-down pool (a chance node),
except for squares a player has looked at with the plan, whose kind is fixed
and known to the players who looked.

The phases of a turn and the pending follow-up tasks are named in
:mod:`obelisk.games.tomb.rules`; follow-ups sit on a small task stack and are
resolved before movement continues.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Final

from obelisk.core import CHANCE, TERMINAL, State, i18n
from obelisk.core.pools import draw_random, pool_outcomes
from obelisk.core.protocol import RulesCache

from obelisk.games.tomb.actions import (
    A_BUY,
    A_CHEST,
    A_CHOCOLATE,
    A_CURSE,
    A_DECLINE,
    A_END,
    A_ENTER,
    A_FLASK,
    A_FOOD,
    A_KEY,
    A_LOOK,
    A_MAP,
    A_ORIENT,
    A_PAPYRUS,
    A_PASS,
    A_PASSAGE,
    A_PLAN,
    A_ROB,
    A_SCARF,
    A_SELECT,
    A_STEP,
    A_STEP_IN,
    A_SWAP,
    A_TAKE,
    A_TORCH,
    A_WATER,
    DIE_FACES,
    OPEN_STEPS,
    SPACE,
    TILE_OFFSET,
    action_label,
    illegal_reason,
)
from obelisk.games.tomb.board import (
    BIT,
    CELLS,
    CHAMBER_CELL,
    CHEST,
    CHOCOLATE,
    END_TURN,
    ENTRANCES,
    FIRST_AID,
    FIRST_ENTRANCE,
    FLASK,
    FOOD,
    INSCRIPTION,
    ITEM,
    ITEM_IDS,
    KEY,
    KILL,
    MAP,
    MONEY,
    NEIGH,
    OBSTACLE,
    OPP,
    PAPYRUS,
    PASSAGE,
    PLAN,
    SCARF,
    SHRINE,
    TORCH,
    WATER,
    letters_of,
    rotations,
    square_name,
)
from obelisk.games.tomb.rules import (
    CHEST_TAKE,
    CURSE,
    DRAW,
    FIGURES,
    GHOST_LAND,
    IN_CHAMBER,
    LOOK,
    MAP_PICK,
    MAP_REVEAL,
    MOVE,
    ORIENT,
    OVER,
    PEEK,
    RESERVE,
    ROB,
    ROLL,
    SELECT,
    STEP,
    SWAP,
    T_CHEST,
    T_CURSE,
    T_MAP,
    T_REVEAL,
    T_TAKE,
    TAKE,
    TORCH_REVEAL,
    TURN_KEY,
    Rules,
)
from obelisk.games.tomb.scoring import evaluate, rank_keys, scores, tie_break
from obelisk.games.tomb.status import outcome
from obelisk.games.tomb.view import observation, render_state

_RULES: Final = RulesCache()
tr: Final = i18n.domain("tomb")
"""The rules of the game asked about last (see ``TombState._rules``)."""

_ACTOR: Final[tuple[int | None, ...]] = (
    CHANCE, None, None, CHANCE, None, None, None, None, None, CHANCE, None, None, None, None, TERMINAL
)

EVENTS_KEPT: Final = 10

ROLL_OUTCOMES: Final = tuple((face, 1.0 / DIE_FACES) for face in range(DIE_FACES))
"""The die roll's chance distribution (the same at every roll)."""
ENTER_ACTIONS: Final = tuple(A_ENTER + e for e in range(4))


class TombState(State):
    """One position; all fields are plain data (see the module docstring for the encoding)."""

    @property
    def _rules(self) -> Rules:
        """The game's typed tables and options (a state's ``game`` is declared as the base class)."""
        rules: Rules = _RULES.of(self.game)
        return rules

    # --- setup ---

    def _init(self) -> None:
        t = self._rules.tables
        n = self.num_players
        self.kind: list[int] = list(t.start_kind)
        self.opn: list[int] = list(t.start_open)
        self.pool: list[int] = list(t.pool)
        self.assigned: dict[int, int] = {}
        self.knowers: dict[int, list[int]] = {}
        self.fig: list[int] = [RESERVE] * (FIGURES * n)
        self.items: list[int] = [0] * n
        self.insc: list[int] = [0] * n
        self.supply: list[int] = [t.items_per_kind if t.items_in_play >> i & 1 else 0 for i in range(len(ITEM_IDS))]
        self.discovered = 0
        self.chest_filled = False
        self.chest: list[int] = [0] * len(ITEM_IDS)
        self.curse = -1
        self.chamber_open = False
        self.finished: list[int] = []
        self.player = 0
        self.round = 1
        self.phase = ROLL
        self.die = 0
        self.rolled = 0
        self.steps = 0
        self.active = -1
        self.prev = -1
        self.scarf_on = False
        self.ghost = False
        self.ghost_path: list[int] = []
        self.ending = False
        self.tasks: list[tuple[int, ...]] = []
        self.rv_cell = -1
        self.rv_need = 0
        self.rv_mode = STEP
        self.rv_kind = -1
        self.looked: list[int] = []
        self.key_cell = -1
        self.offer = -1
        self.ambushed: list[int] = []
        self.victims: list[int] = []
        self.guarded: list[int] = []
        self.events: list[str] = []

    def clone(self) -> "TombState":
        new = TombState.__new__(TombState)
        new.game = self.game
        new._seed = self._seed
        new._history = self._history[:]
        new._dealt_at = self._dealt_at
        new._legal = self._legal
        new.kind = self.kind[:]
        new.opn = self.opn[:]
        new.pool = self.pool[:]
        new.assigned = dict(self.assigned)
        new.knowers = {c: s[:] for c, s in self.knowers.items()}
        new.fig = self.fig[:]
        new.items = self.items[:]
        new.insc = self.insc[:]
        new.supply = self.supply[:]
        new.discovered = self.discovered
        new.chest_filled = self.chest_filled
        new.chest = self.chest[:]
        new.curse = self.curse
        new.chamber_open = self.chamber_open
        new.finished = self.finished[:]
        new.player = self.player
        new.round = self.round
        new.phase = self.phase
        new.die = self.die
        new.rolled = self.rolled
        new.steps = self.steps
        new.active = self.active
        new.prev = self.prev
        new.scarf_on = self.scarf_on
        new.ghost = self.ghost
        new.ghost_path = self.ghost_path[:]
        new.ending = self.ending
        new.tasks = self.tasks[:]
        new.rv_cell = self.rv_cell
        new.rv_need = self.rv_need
        new.rv_mode = self.rv_mode
        new.rv_kind = self.rv_kind
        new.looked = self.looked[:]
        new.key_cell = self.key_cell
        new.offer = self.offer
        new.ambushed = self.ambushed[:]
        new.victims = self.victims[:]
        new.guarded = self.guarded[:]
        new.events = self.events[:]
        return new

    # --- queries ---

    def _has(self, seat: int, item: int) -> bool:
        return bool(self.items[seat] >> item & 1)

    def _log(self, text: str) -> None:
        events = self.events
        events.append(text)
        if len(events) > EVENTS_KEPT:
            del events[0]

    def _may_enter_chamber(self, seat: int) -> bool:
        return self.chamber_open or self.insc[seat].bit_count() >= self._rules.tables.needed

    def _blocked(self, seat: int, kind: int) -> bool:
        """A cannot-enter obstacle without its protecting item.

        Fast copy: `_compulsory_moves` (the step search tests every neighbour).
        """
        need = self._rules.tables.blocker[kind]
        return need >= 0 and not self.items[seat] >> need & 1

    def _pos(self) -> int:
        return self.fig[self.active] if self.active >= 0 else -1

    def _occupied(self) -> list[bool]:
        occ = [False] * (CELLS + 4)
        for p in self.fig:
            if p >= 0:
                occ[p] = True
        return occ

    # --- legal actions ---

    # Movement options

    def _chamber_door(self, seat: int, pos: int) -> int:
        """With ``chamber_entry=adjacent`` the chamber is entered from any orthogonal neighbour, walls or not."""
        chamber = CHAMBER_CELL
        for d in range(4):
            if NEIGH[pos][d] == chamber:
                if not self.opn[pos] & BIT[d] and self._may_enter_chamber(seat):
                    return d
                return -1
        return -1

    def _step_in_ok(self, seat: int, entrance: int) -> bool:
        t = self._rules.tables
        q = t.corners[entrance]
        if q == self.curse:
            return False
        k = self.kind[q]
        if k < 0:
            return True
        if t.big and not self.opn[q] & t.outer[entrance]:
            return False
        return not self._blocked(seat, k)

    def _ghost_target(self, pos: int, d: int, prev: int, scarf: bool) -> int:
        """A ghost ignores walls and face-down tiles but not the curse, the closed chamber or the way back."""
        q = NEIGH[pos][d]
        if q < 0 or q == self.curse or (q == prev and not scarf):
            return -1
        if q == CHAMBER_CELL and not self.chamber_open:
            return -1
        return q

    def _ghost_walk(self, pos: int, prev: int, remaining: int, scarf: bool) -> bool:
        """Whether a ghost on ``pos`` can walk ``remaining`` more steps: it must use the whole roll.

        Entering the open chamber ends the walk early (it ends the player's game)."""
        if remaining <= 0 or pos == CHAMBER_CELL:
            return True
        if pos >= FIRST_ENTRANCE:
            q = self._rules.tables.corners[pos - FIRST_ENTRANCE]
            return q != self.curse and self._ghost_walk(q, pos, remaining - 1, scarf)
        for d in range(4):
            q = self._ghost_target(pos, d, prev, scarf)
            if q >= 0 and self._ghost_walk(q, pos, remaining - 1, scarf):
                return True
        return False

    def _passages(self, pos: int, prev: int) -> list[int]:
        """The other revealed secret passages a mover on a passage may jump to (not cursed, not ``prev``)."""
        features = self._rules.tables.features
        kind = self.kind
        curse = self.curse
        return [
            q
            for q in range(CELLS)
            if kind[q] >= 0 and features[kind[q]] == PASSAGE and q != pos and q != curse and q != prev
        ]

    def _flask_target(self, seat: int, pos: int, d: int, prev: int, scarf: bool) -> int:
        """Through a wall onto an adjacent revealed square (the flask is spent, so it does not protect)."""
        q = NEIGH[pos][d]
        if q < 0 or q == self.curse or (q == prev and not scarf):
            return -1
        t = self._rules.tables
        k = self.kind[q]
        if k < 0 or q == CHAMBER_CELL:
            return -1
        if self.opn[pos] & BIT[d] and self.opn[q] & BIT[OPP[d]]:
            return -1
        need = t.blocker[k]
        if need >= 0 and (need == FLASK or not self.items[seat] >> need & 1):
            return -1
        return q

    def _compulsory_moves(self, seat: int, pos: int, prev: int, scarf: bool, ghost: bool) -> list[int]:
        """Step actions the mover must choose from while any exist (ascending).

        A normal step needs an opening on both sides (a face-down square can still be turned to open) and may
        not go onto the cursed square, straight back, or onto an unprotected cannot-enter obstacle.
        """
        if ghost:
            left = self.die - self.steps - 1
            if pos >= FIRST_ENTRANCE:
                return [A_STEP_IN] if self._ghost_walk(pos, -1, left + 1, scarf) else []
            ghost_moves: list[int] = []
            for d in range(4):
                q = self._ghost_target(pos, d, prev, scarf)
                if q >= 0 and self._ghost_walk(q, pos, left, scarf):
                    ghost_moves.append(A_STEP + d)
            return ghost_moves
        if pos >= FIRST_ENTRANCE:
            return [A_STEP_IN] if self._step_in_ok(seat, pos - FIRST_ENTRANCE) else []
        if scarf:
            prev = -1
        opn, kind = self.opn, self.kind
        curse = self.curse
        rules = self._rules
        tables = rules.tables
        blocker = tables.blocker
        held = self.items[seat]
        moves: list[int] = []
        for q, back, action in OPEN_STEPS[pos * 16 + opn[pos]]:
            if q == curse or q == prev:
                continue
            k = kind[q]
            if k < 0:
                moves.append(action)
            elif q == CHAMBER_CELL:
                if self._may_enter_chamber(seat):
                    moves.append(action)
            elif opn[q] & back:
                need = blocker[k]  # fast copy of `_blocked`
                if need < 0 or held >> need & 1:
                    moves.append(action)
        if rules.adjacent_chamber:
            door = self._chamber_door(seat, pos)
            if door >= 0:
                moves.append(A_STEP + door)
                moves.sort()
        k = kind[pos]
        if k >= 0 and tables.features[k] == PASSAGE:
            moves.extend(A_PASSAGE + q for q in self._passages(pos, prev))
        return moves

    def _can_start(self, seat: int, pos: int) -> bool:
        """Whether an archaeologist on ``pos`` may be chosen: it can step (a flask or papyrus move counts)."""
        if self._compulsory_moves(seat, pos, -1, self.scarf_on, False):
            return True
        if pos >= FIRST_ENTRANCE:
            return False
        if self._has(seat, FLASK) and any(self._flask_target(seat, pos, d, -1, False) >= 0 for d in range(4)):
            return True
        return self._has(seat, PAPYRUS) and self._ghost_walk(pos, -1, self.die - self.steps, self.scarf_on)

    # Item options

    def _item_actions(self, seat: int, pos: int, in_move: bool) -> list[int]:
        """Item uses allowed now, ascending. ``pos`` is the chosen archaeologist's square (or -1)."""
        held = self.items[seat]
        if not held:
            return []
        out: list[int] = []
        t = self._rules.tables
        ghost = self.ghost
        if held >> FOOD & 1 and self.die != 6 and self._ghost_can_change_die(pos, 6):
            out.append(A_FOOD)
        if held >> WATER & 1 and self.die != 5 and self._ghost_can_change_die(pos, 5):
            out.append(A_WATER)
        if held >> CHOCOLATE & 1 and self.steps == 0:
            out += [A_CHOCOLATE + v - 1 for v in range(1, self.rolled) if v != self.die]
        on_cell = in_move and 0 <= pos < CELLS and not ghost
        if held >> TORCH & 1 and on_cell:
            kind = self.kind
            for q, _, _ in OPEN_STEPS[pos * 16 + self.opn[pos]]:
                if kind[q] < 0:
                    out.append(A_TORCH)
                    break
        if held >> SCARF & 1 and not self.scarf_on:
            out.append(A_SCARF)
        if (
            held >> PAPYRUS & 1
            and in_move
            and not ghost
            and self.steps < self.die
            and self._ghost_walk(pos, self.prev, self.die - self.steps, self.scarf_on)
        ):
            out.append(A_PAPYRUS)
        if held >> PLAN & 1 and not ghost and len(self.assigned) + sum(self.pool) >= 2:
            out.append(A_PLAN)
        if held >> MONEY & 1:
            wanted = t.buyable & self.discovered & ~held
            for i in range(len(ITEM_IDS)):
                if wanted >> i & 1 and self.supply[i] > 0:
                    out.append(A_BUY + i)
        if held >> KEY & 1 and on_cell:
            out.extend(A_KEY + c for c in self._key_targets(pos))
        return out

    def _ghost_can_change_die(self, pos: int, value: int) -> bool:
        """During a ghost walk food and water may set the die only to a value the walk can still use in full."""
        if not self.ghost or value <= self.steps:
            return True
        return self._ghost_walk(pos, self.prev, value - self.steps, self.scarf_on)

    def _key_targets(self, pos: int) -> list[int]:
        occ = self._occupied()
        chamber = CHAMBER_CELL
        cells = [pos] + [q for q in NEIGH[pos] if q >= 0 and not occ[q]]
        return sorted(
            c for c in cells if c != chamber and self.kind[c] >= 0 and len(rotations(self.opn[c])) > 1
        )

    def _flask_actions(self, seat: int, pos: int) -> list[int]:
        if not self.items[seat] >> FLASK & 1 or self.ghost or not 0 <= pos < CELLS or self.steps >= self.die:
            return []
        return [A_FLASK + d for d in range(4) if self._flask_target(seat, pos, d, self.prev, self.scarf_on) >= 0]

    # Protocol hooks

    def _current_player(self) -> int:
        actor = _ACTOR[self.phase]
        return self.player if actor is None else actor

    def _legal_actions(self) -> list[int]:
        phase = self.phase
        seat = self.player
        if phase == MOVE:
            return self._move_legal()
        if phase == SELECT:
            return self._select_legal()
        if phase == ORIENT:
            return [A_ORIENT + m for m in self._orient_options()]
        if phase == TURN_KEY:
            current = self.opn[self.key_cell]
            return [A_ORIENT + m for m in rotations(current) if m != current]
        if phase == CURSE:
            return [A_CURSE + c for c in self._curse_options()]
        if phase == CHEST_TAKE:
            return [A_CHEST + i for i in self._chest_options(seat)]
        if phase == MAP_PICK:
            return [A_MAP + c for c, k in enumerate(self.kind) if k < 0] + [A_DECLINE]
        if phase == TAKE:
            return [A_TAKE, A_DECLINE]
        if phase == LOOK:
            looked = self.looked
            return [A_LOOK + c for c, k in enumerate(self.kind) if k < 0 and c not in looked]
        if phase == SWAP:
            return [A_SWAP, A_SWAP + 1]
        if phase == ROB:
            return [A_ROB + i for i in self._rob_options(self.victims[0] // FIGURES)] + [A_DECLINE]
        return []

    def _move_legal(self) -> list[int]:
        seat = self.player
        pos = self.fig[self.active]
        moves: list[int] = []
        if self.steps < self.die:
            moves = self._compulsory_moves(seat, pos, self.prev, self.scarf_on, self.ghost)
        if not self.items[seat]:
            return moves
        flask = self._flask_actions(seat, pos)
        items = self._item_actions(seat, pos, True)
        if moves:
            return moves + flask + items
        if flask or items:
            return flask + [A_END] + items
        return []

    def _select_legal(self) -> list[int]:
        seat = self.player
        base = FIGURES * seat
        out: list[int] = []
        reserve = False
        for p in self.fig[base : base + FIGURES]:
            if p >= 0:
                if A_SELECT + p not in out and self._can_start(seat, p):
                    out.append(A_SELECT + p)
            elif p == RESERVE:
                reserve = True
        out.sort()
        if reserve:
            out += ENTER_ACTIONS
        elif not out:
            out.append(A_PASS)
        if self.items[seat]:
            out += self._item_actions(seat, -1, False)
        return out

    def _orient_options(self) -> list[int]:
        kind = self._rules.tables.kinds[self.rv_kind]
        need = self.rv_need
        return [m for m in kind.rotations if not need or m & need]

    def _curse_options(self) -> list[int]:
        occ = self._occupied()
        chamber = CHAMBER_CELL
        return [c for c in range(CELLS) if self.kind[c] >= 0 and c != chamber and c != self.curse and not occ[c]]

    def _chest_options(self, seat: int) -> list[int]:
        held = self.items[seat]
        return [i for i in range(len(ITEM_IDS)) if self.chest[i] > 0 and not held >> i & 1]

    def _rob_options(self, owner: int) -> list[int]:
        theirs = self.items[owner] & ~self.items[self.player]
        return [i for i in range(len(ITEM_IDS)) if theirs >> i & 1]

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase == ROLL:
            return list(ROLL_OUTCOMES)
        return pool_outcomes(self.pool, TILE_OFFSET)

    def _is_outcome(self, action: int) -> bool:
        if self.phase == ROLL:
            return 0 <= action < len(ROLL_OUTCOMES)
        kind = action - TILE_OFFSET
        return 0 <= kind < len(self.pool) and self.pool[kind] > 0

    # --- applying actions ---

    def _apply_action(self, action: int) -> None:
        phase = self.phase
        if phase == ROLL:
            self.die = self.rolled = action + 1
            self.phase = SELECT
            self._log(f"player {self.player + 1} rolls {self.die}")
            return
        if phase == DRAW:
            k = action - TILE_OFFSET
            self.pool[k] -= 1
            self.rv_kind = k
            self._orient_or_auto()
            return
        if phase == PEEK:
            k = action - TILE_OFFSET
            self.pool[k] -= 1
            cell = self.looked[-1]
            self.assigned[cell] = k
            self.knowers[cell] = [self.player]
            self._after_look()
            return
        # a player action: the ``_do_<range>`` rule of its range (``DECISIONS``), given the index within the range
        do, index = _DISPATCH[action]
        do(self, index)

    # Turn start and selection

    def _do_select(self, pos: int) -> None:
        base = FIGURES * self.player
        self.active = base + self.fig[base : base + FIGURES].index(pos)
        self.prev = -1
        self._log(f"player {self.player + 1} moves the archaeologist on {square_name(pos)}")
        self._settle()

    def _do_enter(self, entrance: int) -> None:
        base = FIGURES * self.player
        self.active = base + self.fig[base : base + FIGURES].index(RESERVE)
        self.fig[self.active] = FIRST_ENTRANCE + entrance
        self.prev = -1
        self.steps = 1
        self._log(f"player {self.player + 1} brings an archaeologist in at the {ENTRANCES[entrance]} entrance")
        self._settle()

    def _do_pass(self, _: int) -> None:
        self._log(f"player {self.player + 1} cannot move and passes")
        self._finish_turn(False)

    # Steps

    def _do_step(self, d: int) -> None:
        pos = self.fig[self.active]
        q = NEIGH[pos][d]
        self._step_to(q, BIT[OPP[d]])

    def _do_step_in(self, _: int) -> None:
        e = self.fig[self.active] - FIRST_ENTRANCE
        t = self._rules.tables
        self._step_to(t.corners[e], t.outer[e])

    def _step_to(self, q: int, need: int) -> None:
        if self.ghost:
            self.prev = self.fig[self.active]
            self.fig[self.active] = q
            self.steps += 1
            self.ghost_path.append(q)
            if q == CHAMBER_CELL:
                self._enter_chamber()
            else:
                self._settle()
            return
        if self.kind[q] < 0:
            self._begin_reveal(q, need, STEP)
        else:
            self._move_to(q, False)

    def _do_passage(self, q: int) -> None:
        self._log(f"player {self.player + 1} takes the secret passage to {square_name(q)}")
        self._move_to(q, False)

    def _do_flask(self, d: int) -> None:
        pos = self.fig[self.active]
        q = NEIGH[pos][d]
        self._spend(FLASK)
        self._log(f"player {self.player + 1} uses the magic flask to pass the wall to {square_name(q)}")
        self._move_to(q, False)

    def _do_end(self, _: int) -> None:
        self._end_movement()

    # Items

    def _do_food(self, _: int) -> None:
        self._spend(FOOD)
        self.die = 6
        self._log(f"player {self.player + 1} eats food: the die shows 6")
        self._settle()

    def _do_water(self, _: int) -> None:
        self._spend(WATER)
        self.die = 5
        self._log(f"player {self.player + 1} drinks water: the die shows 5")
        self._settle()

    def _do_chocolate(self, value: int) -> None:
        self._spend(CHOCOLATE)
        self.die = value + 1
        self._log(f"player {self.player + 1} eats chocolate: the die shows {self.die}")
        self._settle()

    def _do_torch(self, _: int) -> None:
        pos = self.fig[self.active]
        self._spend(TORCH)
        self._log(f"player {self.player + 1} lights the torch on {square_name(pos)}")
        for d in (3, 2, 1, 0):
            q = NEIGH[pos][d]
            if self.opn[pos] & BIT[d] and q >= 0 and self.kind[q] < 0:
                self.tasks.append((T_REVEAL, q))
        self._settle()

    def _do_scarf(self, _: int) -> None:
        self._spend(SCARF)
        self.scarf_on = True
        self._log(f"player {self.player + 1} wears the scarf: stepping back is allowed this turn")
        self._settle()

    def _do_papyrus(self, _: int) -> None:
        self._spend(PAPYRUS)
        self.ghost = True
        self.ghost_path = [self.fig[self.active]]
        self._log(f"player {self.player + 1} reads the papyrus of the dead and walks as a ghost")
        self._settle()

    def _do_plan(self, _: int) -> None:
        self._spend(PLAN)
        self.looked = []
        self._log(f"player {self.player + 1} studies the plan")
        self.phase = LOOK
        self._auto_single()

    def _do_buy(self, item: int) -> None:
        self._spend(MONEY)
        self._gain(self.player, item)
        self._log(f"player {self.player + 1} buys {self._rules.tables.item_names[item]} with money")
        self._settle()

    def _do_key(self, cell: int) -> None:
        self._spend(KEY)
        self.key_cell = cell
        self.phase = TURN_KEY
        self._log(f"player {self.player + 1} uses the golden key on {square_name(cell)}")
        self._auto_single()

    # Follow-up decisions

    def _do_orient(self, mask: int) -> None:
        if self.phase == TURN_KEY:
            self.opn[self.key_cell] = mask
            self._log(f"{square_name(self.key_cell)} now opens {letters_of(mask)}")
            self.key_cell = -1
            self._settle()
        else:
            self._place_revealed(mask)

    def _do_curse(self, cell: int) -> None:
        self.curse = cell
        self._log(f"player {self.player + 1} puts the curse on {square_name(cell)}")
        self._settle()

    def _do_chest(self, item: int) -> None:
        self.chest[item] -= 1
        self.items[self.player] |= 1 << item
        self.discovered |= 1 << item
        self._log(f"player {self.player + 1} takes {self._rules.tables.item_names[item]} from the chest")
        self._settle()

    def _do_map(self, cell: int) -> None:
        self._log(f"player {self.player + 1} uses the map on {square_name(cell)}")
        self._begin_reveal(cell, 0, MAP_REVEAL)

    def _do_look(self, cell: int) -> None:
        self.looked.append(cell)
        self._log(f"player {self.player + 1} looks at the face-down tile on {square_name(cell)}")
        if cell in self.assigned:
            if self.player not in self.knowers[cell]:
                self.knowers[cell] = sorted(self.knowers[cell] + [self.player])
            self._after_look()
        else:
            self.phase = PEEK

    def _after_look(self) -> None:
        if len(self.looked) == 2:
            self.phase = SWAP
        else:
            self.phase = LOOK
            self._auto_single()

    def _do_swap(self, swap: int) -> None:
        a, b = self.looked
        if swap:
            self.assigned[a], self.assigned[b] = self.assigned[b], self.assigned[a]
        self.knowers[a] = [self.player]
        self.knowers[b] = [self.player]
        self.looked = []
        self._log(f"player {self.player + 1} puts the tiles on {square_name(a)} and {square_name(b)} back face down")
        self._settle()

    def _do_rob(self, item: int) -> None:
        self._steal(self.victims[0] // FIGURES, item)
        del self.victims[0]
        self._rob_next()

    def _do_take(self, _: int) -> None:
        item = self.offer
        self.offer = -1
        self._gain(self.player, item)
        self._log(f"player {self.player + 1} takes {self._rules.tables.item_names[item]}")
        self._settle()

    def _do_decline(self, _: int) -> None:
        """Leave an optional follow-up unused: the flipped map, the item on the tile, or one robbery."""
        seat = self.player
        if self.phase == ROB:
            self._log(f"player {seat + 1} robs nothing from player {self.victims[0] // FIGURES + 1}")
            del self.victims[0]
            self._rob_next()
            return
        if self.phase == TAKE:
            self._log(f"player {seat + 1} leaves {self._rules.tables.item_names[self.offer]} on the tile")
            self.offer = -1
        else:
            self._log(f"player {seat + 1} leaves the map unused")
        self._settle()

    # Tokens

    def _spend(self, item: int) -> None:
        self.items[self.player] &= ~(1 << item)
        self.supply[item] += 1

    def _gain(self, seat: int, item: int) -> None:
        self.items[seat] |= 1 << item
        self.supply[item] -= 1

    def _steal(self, owner: int, item: int) -> None:
        self.items[owner] &= ~(1 << item)
        self.items[self.player] |= 1 << item
        self._log(f"player {self.player + 1} robs {self._rules.tables.item_names[item]} from player {owner + 1}")

    # Revealing tiles

    def _begin_reveal(self, cell: int, need: int, mode: int) -> None:
        self.rv_cell = cell
        self.rv_need = need
        self.rv_mode = mode
        if cell in self.assigned:
            self.rv_kind = self.assigned[cell]
            self._orient_or_auto()
        else:
            self.phase = DRAW

    def _orient_or_auto(self) -> None:
        options = self._orient_options()
        if len(options) == 1:
            self._place_revealed(options[0])
        else:
            self.phase = ORIENT

    def _place_revealed(self, mask: int) -> None:
        t = self._rules.tables
        cell, k = self.rv_cell, self.rv_kind
        kind = t.kinds[k]
        self.kind[cell] = k
        self.opn[cell] = mask
        if cell in self.assigned:
            del self.assigned[cell]
            del self.knowers[cell]
        if kind.feature == ITEM:
            self.discovered |= 1 << kind.detail
        self._log(f"{square_name(cell)} is revealed: {kind.name}, openings {letters_of(mask)}")
        self.rv_cell = self.rv_kind = -1
        mode = self.rv_mode
        if mode == STEP:
            if self._blocked(self.player, k):
                self._log(f"player {self.player + 1} cannot enter {square_name(cell)}: the turn ends")
                self._finish_turn(True)
            else:
                self._move_to(cell, True)
        elif mode == GHOST_LAND:
            self._land(cell, True)
        else:
            if kind.feature == MAP:
                self.tasks.append((T_MAP,))
            self._settle()

    # Entering squares

    def _move_to(self, q: int, flipped: bool) -> None:
        self.prev = self.fig[self.active]
        self.fig[self.active] = q
        self.steps += 1
        if q == CHAMBER_CELL:
            self._enter_chamber()
        else:
            self._enter(q, flipped)

    def _enter(self, q: int, flipped: bool) -> None:
        """Apply the effect of the square just entered, then continue the turn."""
        t = self._rules.tables
        seat = self.player
        kind = t.kinds[self.kind[q]]
        feature = kind.feature
        if feature == OBSTACLE:
            d = kind.detail
            if not self._has(seat, t.obstacle_protection[d]):
                group = t.obstacle_group[d]
                if group == KILL:
                    self._log(f"{t.obstacle_names[d]} on {square_name(q)} kills player {seat + 1}'s archaeologist")
                    self.fig[self.active] = RESERVE
                    self._finish_turn(False)
                    return
                if group == END_TURN:
                    self._log(f"{t.obstacle_names[d]} on {square_name(q)} ends player {seat + 1}'s movement")
                    self._finish_turn(True)
                    return
        elif feature == INSCRIPTION:
            if not self.insc[seat] >> kind.detail & 1:
                self.insc[seat] |= 1 << kind.detail
                self._log(f"player {seat + 1} reads the {t.colours[kind.detail]} inscription")
        elif feature == ITEM:
            i = kind.detail
            if not self.items[seat] >> i & 1 and self.supply[i] > 0:
                self.tasks.append((T_TAKE, i))
        elif feature == MAP:
            if flipped:
                self.tasks.append((T_MAP,))
        elif feature == SHRINE:
            self.tasks.append((T_CURSE,))
        elif feature == CHEST:
            if not self.chest_filled:
                self.chest_filled = True
                for i in range(len(ITEM_IDS)):
                    if t.items_in_play >> i & 1 and self.supply[i] > 0:
                        self.supply[i] -= 1
                        self.chest[i] += 1
                self._log(f"player {seat + 1} opens the chest")
            self.tasks.append((T_CHEST,))
        self._settle()

    def _enter_chamber(self) -> None:
        seat = self.player
        self.chamber_open = True
        self.finished.append(seat)
        base = FIGURES * seat
        for i in range(base, base + FIGURES):
            self.fig[i] = IN_CHAMBER
        self._log(f"player {seat + 1} enters the burial chamber (place {len(self.finished)})")
        self._finish_turn(False)

    # Papyrus landing

    def _end_movement(self) -> None:
        if self.ghost:
            self.ghost = False
            if len(self.ghost_path) > 1:
                self._land(self.fig[self.active], False)
                return
        self._finish_turn(True)

    def _land(self, cell: int, flipped: bool) -> None:
        """The last square of a ghost walk is entered under the normal rules."""
        if self.kind[cell] < 0:
            self._begin_reveal(cell, 0, GHOST_LAND)
            return
        if self._blocked(self.player, self.kind[cell]):
            self.ghost_path.pop()
            back = self.ghost_path[-1]
            self.fig[self.active] = back
            self._log(f"player {self.player + 1} cannot stay on {square_name(cell)} and falls back to {square_name(back)}")
            if len(self.ghost_path) > 1:
                self._land(back, False)
            else:
                self._finish_turn(True)
            return
        self.ending = True
        self._enter(cell, flipped)

    # The task stack and the end of a turn

    def _settle(self) -> None:
        """Run pending follow-ups; otherwise return to choosing or moving, ending the turn if nothing is left."""
        tasks = self.tasks
        while tasks:
            task = tasks.pop()
            what = task[0]
            if what == T_REVEAL:
                if self.kind[task[1]] < 0:
                    self._begin_reveal(task[1], 0, TORCH_REVEAL)
                    return
            elif what == T_MAP:
                if any(k < 0 for k in self.kind):
                    self.phase = MAP_PICK
                    return
            elif what == T_CURSE:
                if self._curse_options():
                    self.phase = CURSE
                    self._auto_single()
                    return
            elif what == T_CHEST:
                if self._chest_options(self.player):
                    self.phase = CHEST_TAKE
                    self._auto_single()
                    return
            elif what == T_TAKE:
                self.offer = task[1]
                self.phase = TAKE
                return
        if self.ending:
            self._finish_turn(True)
            return
        if self.active < 0:
            self.phase = SELECT
            return
        self.phase = MOVE
        legal = self._move_legal()
        if legal:
            self._legal = legal  # the core's cache of this position's legal actions: saves a recomputation
        else:
            self._end_movement()

    def _auto_single(self) -> None:
        """A follow-up choice with one option is taken at once."""
        options = self._legal_actions()
        if len(options) == 1:
            self._apply_action(options[0])

    def _finish_turn(self, ambush: bool) -> None:
        self.tasks = []
        self.ending = False
        self.ghost = False
        self.ghost_path = []
        if ambush and self.active >= 0:
            pos = self.fig[self.active]
            if pos >= 0 and self.fig.count(pos) > 1:  # a mover alone on its square ambushes nobody
                seat = self.player
                victims = [i for i, p in enumerate(self.fig) if p == pos and i // FIGURES != seat]
                if victims:
                    self.ambushed = victims
                    self.victims = list(victims)
                    self.guarded = [i for i in victims if self.items[i // FIGURES] >> FIRST_AID & 1]
                    owners = sorted({i // FIGURES for i in victims})
                    self._log(f"player {seat + 1} ambushes player(s) {', '.join(str(owner + 1) for owner in owners)} on {square_name(pos)}")
                    self._rob_next()
                    return
        self._next_turn()

    def _rob_next(self) -> None:
        while self.victims:
            if self._rob_options(self.victims[0] // FIGURES):
                self.phase = ROB
                return
            del self.victims[0]
        for i in self.ambushed:
            if i not in self.guarded:
                self.fig[i] = RESERVE
                self._log(f"player {i // FIGURES + 1}'s archaeologist is wounded and goes home")
        self.ambushed = []
        self.guarded = []
        self._next_turn()

    def _next_turn(self) -> None:
        if len(self.finished) >= self._rules.entries_to_end:
            self.phase = OVER
            return
        n = self.game.num_players
        seat = self.player
        for offset in range(1, n + 1):
            candidate = seat + offset
            if candidate % n not in self.finished:
                break
        if candidate >= n:
            self.round += 1
            if self.round > self._rules.max_rounds:
                self.phase = OVER
                self._log("the round limit is reached")
                return
        self.player = candidate % n
        self.phase = ROLL
        self.die = 0
        self.rolled = 0
        self.steps = 0
        self.active = -1
        self.prev = -1
        self.scarf_on = False

    # --- views, scoring and hidden information ---

    # Labels and reasons

    def _action_to_string(self, action: int) -> str:
        return action_label(self, action)

    def _action_visible_to(self, action: int, seat: int | None) -> bool:
        if self.phase in (PEEK, SWAP):
            return seat == self.player
        return True

    def _hidden_action_string(self, action: int) -> str:
        if self.phase == PEEK:
            return tr("player {player} saw the tile on {square}", player=self.player + 1, square=square_name(self.looked[-1]))
        return tr("put the two tiles back face down (swapped or not)")

    def _illegal_reason(self, action: int) -> str:
        return illegal_reason(self, action)

    def _reveals(self, action: int) -> bool:
        """Whether the decision shows anyone something hidden, so that it cannot be taken back.

        It reveals when it turns a face-down tile up (a step, the map, the torch,
        or one seen with the plan, which needs no draw), when it looks at a tile
        with the plan (the looker learns it), when a draw or the next player's roll
        follows, when it ends the game, and when it changes who knows a looked-at
        tile (putting back tiles another seat had seen). Selecting, plain steps on
        face-up tiles, most items, the curse, the chest, rob choices and putting
        back, swapped or not, tiles only the looker knows show nobody anything new.
        """
        if A_LOOK <= action < A_SWAP:
            return True
        after = self.clone()
        after._apply_action(action)
        return after._current_player() in (CHANCE, TERMINAL) or self._shown_by(after)

    def _is_final(self, action: int) -> bool:
        """Revealing, or another actor (chance, the end) after it: one copy looks ahead for both."""
        if A_LOOK <= action < A_SWAP:
            return True
        after = self.clone()
        after._apply_action(action)
        return after._current_player() != self._current_player() or self._shown_by(after)

    def _shown_by(self, after: "TombState") -> bool:
        """Whether a tile was turned up, or who knows a looked-at tile changed, between here and ``after``.

        Which tiles lie on looked-at squares is not compared: a swap changes them or not depending on
        their kinds, which the others do not know, and it shows them nothing (they are told the tiles
        went back face down, swapped or not), so only who knows the squares decides, as it is public.
        """
        return after.rv_cell >= 0 or after.kind != self.kind or after.knowers != self.knowers

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
        return evaluate(self)

    # Views

    def _observation(self, seat: int | None) -> dict[str, Any]:
        return observation(self, seat)

    def _render(self) -> str:
        return render_state(self)

    def _resample(self, seat: int, rng: random.Random) -> "TombState":
        """Re-deal every looked-at tile ``seat`` has not seen; the pool stays a pool."""
        new = self.clone()
        unknown = sorted(c for c, who in new.knowers.items() if seat not in who)
        if not unknown:
            return new
        for c in unknown:
            new.pool[new.assigned[c]] += 1
        for c in unknown:
            new.assigned[c] = draw_random(new.pool, rng)
        return new


DECISIONS: Final[dict[str, Callable[[TombState, int], None]]] = {
    "select": TombState._do_select,
    "enter": TombState._do_enter,
    "pass": TombState._do_pass,
    "step": TombState._do_step,
    "step_in": TombState._do_step_in,
    "passage": TombState._do_passage,
    "flask": TombState._do_flask,
    "end": TombState._do_end,
    "food": TombState._do_food,
    "water": TombState._do_water,
    "chocolate": TombState._do_chocolate,
    "torch": TombState._do_torch,
    "scarf": TombState._do_scarf,
    "papyrus": TombState._do_papyrus,
    "plan": TombState._do_plan,
    "buy": TombState._do_buy,
    "key": TombState._do_key,
    "orient": TombState._do_orient,
    "curse": TombState._do_curse,
    "chest": TombState._do_chest,
    "map": TombState._do_map,
    "look": TombState._do_look,
    "swap": TombState._do_swap,
    "rob": TombState._do_rob,
    "take": TombState._do_take,
    "decline": TombState._do_decline,
}
"""The rule that applies each action range of ``actions.SPACE``, called with the index within the range."""
_DISPATCH: Final = tuple((DECISIONS[name], index) for name, size in SPACE.ranges for index in range(size))
"""``DECISIONS`` expanded per action id: ``(rule, index within its range)``."""
