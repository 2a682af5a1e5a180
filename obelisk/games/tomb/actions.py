"""The action space of Secret of the Ancient Tomb (stable ids), the chance outcome ids, the action labels and
why an action is illegal.

A turn is broken into small decisions: pick an archaeologist (or bring a new
one in at an entrance), then one step at a time, with item uses as separate
actions at the moments the rules allow them. Follow-up choices (orienting a
revealed tile, placing the curse, taking from the chest or a tile, robbing)
are their own ranges; the optional ones (taking an item from a tile, using a
flipped map, robbing) can be declined with ``decline``. Chance outcomes: ids
0..5 are die rolls 1..6, id ``6 + k`` draws tile kind ``k`` from the
face-down pool.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from obelisk.core import ActionSpace, i18n

from obelisk.games.tomb.board import (
    BIT,
    CELLS,
    CHOCOLATE,
    DIR_LETTERS,
    DIR_NAMES,
    ENTRANCES,
    FIRST_ENTRANCE,
    FLASK,
    FOOD,
    ITEM_IDS,
    KEY,
    MONEY,
    NEIGH,
    OPP,
    PAPYRUS,
    PLAN,
    SCARF,
    TORCH,
    WATER,
    square_name,
)
from obelisk.games.tomb.data import tile_name
from obelisk.games.tomb.rules import (
    CHEST_TAKE,
    CURSE,
    DRAW,
    FIGURES,
    LOOK,
    MAP_PICK,
    MOVE,
    ORIENT,
    PEEK,
    PHASE_NAMES,
    ROB,
    ROLL,
    SELECT,
    SWAP,
    TAKE,
    TURN_KEY,
)

if TYPE_CHECKING:
    from obelisk.games.tomb.state import TombState

tr: Final = i18n.domain("tomb")

SPACE: Final = ActionSpace(
    [
        ("select", CELLS + 4),
        ("enter", 4),
        ("pass", 1),
        ("step", 4),
        ("step_in", 1),
        ("passage", CELLS),
        ("flask", 4),
        ("end", 1),
        ("food", 1),
        ("water", 1),
        ("chocolate", 5),
        ("torch", 1),
        ("scarf", 1),
        ("papyrus", 1),
        ("plan", 1),
        ("buy", len(ITEM_IDS)),
        ("key", CELLS),
        ("orient", 16),
        ("curse", CELLS),
        ("chest", len(ITEM_IDS)),
        ("map", CELLS),
        ("look", CELLS),
        ("swap", 2),
        ("rob", len(ITEM_IDS)),
        ("take", 1),
        ("decline", 1),
    ]
)

A_SELECT: Final = SPACE.start("select")
A_ENTER: Final = SPACE.start("enter")
A_PASS: Final = SPACE.start("pass")
A_STEP: Final = SPACE.start("step")
A_STEP_IN: Final = SPACE.start("step_in")
A_PASSAGE: Final = SPACE.start("passage")
A_FLASK: Final = SPACE.start("flask")
A_END: Final = SPACE.start("end")
A_FOOD: Final = SPACE.start("food")
A_WATER: Final = SPACE.start("water")
A_CHOCOLATE: Final = SPACE.start("chocolate")
A_TORCH: Final = SPACE.start("torch")
A_SCARF: Final = SPACE.start("scarf")
A_PAPYRUS: Final = SPACE.start("papyrus")
A_PLAN: Final = SPACE.start("plan")
A_BUY: Final = SPACE.start("buy")
A_KEY: Final = SPACE.start("key")
A_ORIENT: Final = SPACE.start("orient")
A_CURSE: Final = SPACE.start("curse")
A_CHEST: Final = SPACE.start("chest")
A_MAP: Final = SPACE.start("map")
A_LOOK: Final = SPACE.start("look")
A_SWAP: Final = SPACE.start("swap")
A_ROB: Final = SPACE.start("rob")
A_TAKE: Final = SPACE.start("take")
A_DECLINE: Final = SPACE.start("decline")

DIE_FACES: Final = 6
TILE_OFFSET: Final = DIE_FACES
"""Chance id of tile kind ``k`` is ``TILE_OFFSET + k``."""


OPEN_STEPS: Final = tuple(
    tuple((NEIGH[c][d], BIT[OPP[d]], A_STEP + d) for d in range(4) if mask & BIT[d] and NEIGH[c][d] >= 0)
    for c in range(CELLS)
    for mask in range(16)
)
"""Per ``cell * 16 + openings``: (neighbour, its opening back, step action) for each open on-board direction,
so the step search visits only the directions a square opens toward."""


def direction(d: int) -> str:
    """A direction (``north``) as a label says it, in the active language."""
    return tr.term("direction", DIR_NAMES[d])


def openings(mask: int) -> str:
    """An openings mask as its letters (``N,E,S``; ``-`` for none) in the active language."""
    return ",".join(tr.term("opening", DIR_LETTERS[d]) for d in range(4) if mask & BIT[d]) or "-"


def entrance(index: int) -> str:
    """An entrance's name (``NW``) in the active language."""
    return tr.term("entrance", ENTRANCES[index])


_ENTRY_LABELS: tuple[Callable[[], str], ...] = (
    lambda: tr.action("enter at the north-west entrance"),
    lambda: tr.action("enter at the north-east entrance"),
    lambda: tr.action("enter at the south-west entrance"),
    lambda: tr.action("enter at the south-east entrance"),
)
"""Bringing a figure in at each entrance (``ENTRANCES`` order), said as a person says it: a whole sentence per
corner, because Czech declines the corner's adjective ("u severozápadního vchodu") where English only adds a word."""


def item(tables: Any, index: int) -> str:
    return tr.term("item", tables.item_names[index])


def phase_name(name: str) -> str:
    """A phase of the turn (``PHASE_NAMES``) in the active language."""
    names = {
        "roll": tr.term("phase", "roll"),
        "choose archaeologist": tr.term("phase", "choose archaeologist"),
        "move": tr.term("phase", "move"),
        "reveal": tr.term("phase", "reveal"),
        "orient tile": tr.term("phase", "orient tile"),
        "place curse": tr.term("phase", "place curse"),
        "take from chest": tr.term("phase", "take from chest"),
        "map": tr.term("phase", "map"),
        "plan: look": tr.term("phase", "plan: look"),
        "plan: peek": tr.term("phase", "plan: peek"),
        "plan: swap?": tr.term("phase", "plan: swap?"),
        "golden key": tr.term("phase", "golden key"),
        "rob": tr.term("phase", "rob"),
        "take item": tr.term("phase", "take item"),
        "over": tr.term("phase", "over"),
    }
    return names.get(name, name)


def action_label(state: TombState, action: int) -> str:
    """The label of ``action`` in the position ``state`` (the protocol's ``action_to_string``): a decision's
    (``tr.action``: a button, or in the log its log form), or a chance outcome's line of the log (in the past
    tense, naming whom it concerns)."""
    phase = state.phase
    t = state._rules.tables
    if phase == ROLL:
        if 0 <= action < DIE_FACES:
            return tr("player {player} rolled {n}", player=state.player + 1, n=action + 1)
        return tr("chance outcome {n}", n=action)
    if phase in (DRAW, PEEK):
        k = action - TILE_OFFSET
        name = tile_name(t.kinds[k].name) if 0 <= k < len(t.pool) else tr("tile kind {n}", n=k)
        if phase == DRAW:
            return tr("{square} revealed: {tile}", square=square_name(state.rv_cell), tile=name)
        return tr("player {player} saw {square}: {tile}", player=state.player + 1, square=square_name(state.looked[-1]),
                  tile=name)
    name, i = SPACE.decode(action)
    pos = state._pos()
    if name == "select":
        if i >= FIRST_ENTRANCE:
            return tr.action("move the archaeologist at the {entrance} entrance", entrance=entrance(i - FIRST_ENTRANCE))
        return tr.action("move the archaeologist on {square}", square=square_name(i))
    if name == "enter":
        return _ENTRY_LABELS[i]()
    if name == "pass":
        return tr.action("pass (no archaeologist can move)")
    if name in ("step", "flask"):
        q = NEIGH[pos][i] if 0 <= pos < CELLS else -1
        if name == "flask":
            if q < 0:
                return tr.action("use the magic flask: through the wall {direction}", direction=direction(i))
            return tr.action("use the magic flask: through the wall {direction} to {square}", direction=direction(i),
                             square=square_name(q))
        if q < 0:
            return tr.action("step {direction} (ghost)", direction=direction(i)) if state.ghost else tr.action(
                "step {direction}", direction=direction(i))
        if state.ghost:
            return tr.action("step {direction} to {square} (ghost)", direction=direction(i), square=square_name(q))
        return tr.action("step {direction} to {square}", direction=direction(i), square=square_name(q))
    if name == "step_in":
        if pos >= FIRST_ENTRANCE:
            corner = square_name(t.corners[pos - FIRST_ENTRANCE])
            if state.ghost:
                return tr.action("step in from the {entrance} entrance to {square} (ghost)",
                                 entrance=entrance(pos - FIRST_ENTRANCE), square=corner)
            return tr.action("step in from the {entrance} entrance to {square}", entrance=entrance(pos - FIRST_ENTRANCE),
                             square=corner)
        return tr.action("step in from an entrance")
    if name == "passage":
        return tr.action("take the secret passage to {square}", square=square_name(i))
    if name == "end":
        return tr.action("end turn")
    if name == "food":
        return tr.action("eat food: die to 6")
    if name == "water":
        return tr.action("drink water: die to 5")
    if name == "chocolate":
        return tr.action("eat chocolate: die to {n}", n=i + 1)
    if name == "torch":
        return tr.action("light the torch: reveal the neighbouring face-down tiles")
    if name == "scarf":
        return tr.action("wear the scarf: stepping back allowed this turn")
    if name == "papyrus":
        return tr.action("read the papyrus of the dead: ghost walk")
    if name == "plan":
        return tr.action("study the plan: look at two face-down tiles")
    if name == "buy":
        return tr.action("buy {item} with money", item=item(t, i))
    if name == "key":
        return tr.action("use the golden key on {square}", square=square_name(i))
    if name == "orient":
        if phase == TURN_KEY and state.key_cell >= 0:
            return tr.action("turn {square}: openings {openings}", square=square_name(state.key_cell), openings=openings(i))
        return tr.action("orient tile: openings {openings}", openings=openings(i))
    if name == "curse":
        return tr.action("put the curse on {square}", square=square_name(i))
    if name == "chest":
        return tr.action("take {item} from the chest", item=item(t, i))
    if name == "map":
        return tr.action("use the map: reveal {square}", square=square_name(i))
    if name == "look":
        return tr.action("look at the face-down tile on {square}", square=square_name(i))
    if name == "swap":
        if len(state.looked) == 2:
            a, b = [square_name(c) for c in state.looked]
            if i:
                return tr.action("swap the tiles on {a} and {b}", a=a, b=b)
            return tr.action("put the tiles on {a} and {b} back unchanged", a=a, b=b)
        return tr.action("swap the two tiles") if i else tr.action("put the two tiles back unchanged")
    if name == "take":
        if phase == TAKE:
            return tr.action("take the {item}", item=item(t, state.offer))
        return tr.action("take the item on the tile")
    owner = state.victims[0] // FIGURES if state.victims and phase == ROB else -1
    if name == "decline":
        if phase == MAP_PICK:
            return tr.action("leave the map unused")
        if phase == TAKE:
            return tr.action("leave the {item} on the tile", item=item(t, state.offer))
        if owner >= 0:
            return tr.action("rob nothing from player {player}", player=owner + 1)
        return tr.action("decline the optional choice")
    if owner >= 0:
        return tr.action("rob {item} from player {player}", item=item(t, i), player=owner + 1)
    return tr.action("rob {item}", item=item(t, i))


_ITEM_OF = {
    "food": FOOD,
    "water": WATER,
    "chocolate": CHOCOLATE,
    "torch": TORCH,
    "scarf": SCARF,
    "papyrus": PAPYRUS,
    "plan": PLAN,
    "buy": MONEY,
    "key": KEY,
    "flask": FLASK,
}
_FOLLOW_UP = ("orient", "curse", "chest", "map", "look", "swap", "rob", "take", "decline")
_WANTED = {
    ORIENT: "orient",
    TURN_KEY: "orient",
    CURSE: "curse",
    CHEST_TAKE: "chest",
    MAP_PICK: "map",
    LOOK: "look",
    SWAP: "swap",
    ROB: "rob",
    TAKE: "take",
}
"""The follow-up choice each phase waits for."""


def _must_first(phase: int, label: str, seat: int) -> str:
    """Why ``label`` cannot be played while seat ``seat`` owes the follow-up choice of ``phase``."""
    if phase == ORIENT:
        return tr("'{label}' is not possible now: player {player} must first orient the revealed tile", label=label, player=seat + 1)
    if phase == TURN_KEY:
        return tr("'{label}' is not possible now: player {player} must first choose how the golden key turns the tile",
                  label=label, player=seat + 1)
    if phase == CURSE:
        return tr("'{label}' is not possible now: player {player} must first place the curse", label=label, player=seat + 1)
    if phase == CHEST_TAKE:
        return tr("'{label}' is not possible now: player {player} must first take an item from the chest",
                  label=label, player=seat + 1)
    if phase == MAP_PICK:
        return tr("'{label}' is not possible now: player {player} must first choose the square the map reveals",
                  label=label, player=seat + 1)
    if phase == LOOK:
        return tr("'{label}' is not possible now: player {player} must first choose a face-down tile to look at with the plan",
                  label=label, player=seat + 1)
    if phase == SWAP:
        return tr("'{label}' is not possible now: player {player} must first decide whether to swap the two tiles",
                  label=label, player=seat + 1)
    if phase == ROB:
        return tr("'{label}' is not possible now: player {player} must first choose the item to rob (or rob nothing)",
                  label=label, player=seat + 1)
    return tr("'{label}' is not possible now: player {player} must first take the item on the tile or leave it",
              label=label, player=seat + 1)


def illegal_reason(state: TombState, action: int) -> str:
    """A specific message for every action range and phase."""
    try:
        name, index = SPACE.decode(action)
    except ValueError:
        return tr("action id {action} is outside the action space (0..{last})", action=action, last=SPACE.size - 1)
    label = action_label(state, action)
    phase = state.phase
    t = state._rules.tables
    seat = state.player
    if phase in _WANTED:
        if name != _WANTED[phase]:
            return _must_first(phase, label, seat)
        return _follow_up_reason(state, name, index, label)
    if name in _FOLLOW_UP:
        return tr("'{label}' is only possible as a follow-up choice; now player {player} is to {phase}", label=label,
                  player=seat + 1, phase=phase_name(PHASE_NAMES[phase]))
    if phase == SELECT:
        if name in ("step", "step_in", "passage", "flask", "end", "torch", "key", "papyrus"):
            return tr("'{label}': first choose an archaeologist to move (or bring one in at an entrance)", label=label)
        if name == "select":
            return _select_reason(state, index)
        if name == "enter":
            return tr("player {player} has no archaeologist in reserve (all three are on the board)", player=seat + 1)
        if name == "pass":
            return tr("passing is allowed only when no archaeologist can move or come in")
    elif phase == MOVE and name in ("select", "enter", "pass"):
        return tr("'{label}': the turn already belongs to the archaeologist on {square}", label=label,
                  square=square_name(state._pos()))
    if name in _ITEM_OF:
        held = _ITEM_OF[name]
        if not state.items[seat] >> held & 1:
            return tr("player {player} does not hold the {item}", player=seat + 1, item=item(t, held))
        return _item_reason(state, name, index, label)
    if name in ("step", "step_in", "passage"):
        return _step_reason(state, name, index, label)
    if name == "end":
        return tr("movement is compulsory: a legal step exists, so the turn cannot end yet")
    return tr("'{label}' is not legal now", label=label)


def _select_reason(state: TombState, pos: int) -> str:
    seat = state.player
    mine = state.fig[FIGURES * seat : FIGURES * seat + FIGURES]
    if pos not in mine:
        return tr("player {player} has no archaeologist on {square}", player=seat + 1, square=_place(pos))
    return tr("the archaeologist on {square} cannot take a single step", square=_place(pos))


def _place(pos: int) -> str:
    """A square's name, or an entrance's (``NW entrance``) in the active language."""
    if pos >= FIRST_ENTRANCE:
        return tr("{entrance} entrance", entrance=entrance(pos - FIRST_ENTRANCE))
    return square_name(pos)


def _item_reason(state: TombState, name: str, index: int, label: str) -> str:
    t = state._rules.tables
    if state.ghost and name in ("torch", "key", "plan", "flask", "papyrus"):
        return tr("'{label}': during a ghost walk only items that act on the walker alone may be used", label=label)
    if name == "food" and state.die == 6:
        return tr("the die already shows 6")
    if name == "water" and state.die == 5:
        return tr("the die already shows 5")
    if name == "chocolate":
        if state.steps:
            return tr("chocolate may be used only before moving")
        return tr("chocolate only lowers the die: it shows {die}", die=state.die)
    if name in ("torch", "key", "flask", "papyrus") and state.phase != MOVE:
        return tr("'{label}': first choose the archaeologist it acts on", label=label)
    if name == "torch":
        return tr("no face-down tile lies beyond an opening of the archaeologist's square")
    if name == "scarf":
        return tr("the scarf is already worn this turn")
    if name == "plan":
        return tr("the plan needs two face-down tiles on the board")
    if name == "papyrus":
        if state.steps >= state.die:
            return tr("no steps are left to walk as a ghost")
        return tr("a ghost must use the whole roll, and no walk of {n} step(s) is open from here",
                  n=state.die - state.steps)
    if name in ("food", "water") and state.ghost:
        return tr("'{label}': the ghost walk could not use the whole new roll", label=label)
    if name == "buy":
        if not t.buyable >> index & 1:
            return tr("{item} cannot be bought (magic items, money and items not in play are excluded)",
                      item=item(t, index))
        if not state.discovered >> index & 1:
            return tr("{item} has not been discovered yet (its stack is still face down)", item=item(t, index))
        if state.items[state.player] >> index & 1:
            return tr("player {player} already holds {item}", player=state.player + 1, item=item(t, index))
        return tr("the supply has no {item} left", item=item(t, index))
    if name == "key":
        pos = state._pos()
        if index != pos and index not in NEIGH[pos]:
            return tr("the golden key reaches only {square} and its orthogonal neighbours", square=square_name(pos))
        if index == t.chamber:
            return tr("the golden key may not turn the burial chamber")
        if state.kind[index] < 0:
            return tr("{square} is face down", square=square_name(index))
        if index != pos and any(p == index for p in state.fig):
            return tr("{square} is occupied by an archaeologist", square=square_name(index))
        return tr("turning {square} changes nothing", square=square_name(index))
    if name == "flask":
        pos = state._pos()
        if state.steps >= state.die:
            return tr("no steps are left")
        q = NEIGH[pos][index] if 0 <= pos < CELLS else -1
        if q < 0:
            return tr("there is no square {direction} of the archaeologist", direction=direction(index))
        if state.kind[q] < 0:
            return tr("the flask leads only onto a revealed tile; {square} is face down", square=square_name(q))
        if state.opn[pos] & BIT[index] and state.opn[q] & BIT[OPP[index]]:
            return tr("no wall separates {a} and {b}: just step", a=square_name(pos), b=square_name(q))
        return tr("{square} cannot be entered", square=square_name(q))
    return tr("'{label}' is not legal now", label=label)


def _step_reason(state: TombState, name: str, index: int, label: str) -> str:
    t = state._rules.tables
    seat = state.player
    pos = state._pos()
    if state.steps >= state.die:
        return tr("no steps left: the die shows {die} and {steps} step(s) were taken", die=state.die, steps=state.steps)
    if name == "step_in":
        if pos < FIRST_ENTRANCE:
            return tr("only an archaeologist standing at an entrance steps in")
        corner = t.corners[pos - FIRST_ENTRANCE]
        if corner == state.curse:
            return tr("{square} is cursed", square=square_name(corner))
        if state.ghost:
            return tr("a ghost must use the whole roll: no walk of {n} step(s) goes on from here",
                      n=state.die - state.steps)
        return tr("{square} does not open toward the {entrance} entrance or cannot be entered",
                  square=square_name(corner), entrance=entrance(pos - FIRST_ENTRANCE))
    if name == "passage":
        if state.ghost:
            return tr("a ghost cannot use the secret passages")
        here = state.kind[pos] if 0 <= pos < CELLS else -1
        if here < 0 or t.kinds[here].feature != 5:
            return tr("{square} is not a secret passage", square=_place(pos))
        if state.kind[index] < 0 or t.kinds[state.kind[index]].feature != 5 or index == pos:
            return tr("{square} is not another revealed secret passage", square=square_name(index))
        if index == state.curse:
            return tr("{square} is cursed", square=square_name(index))
        return tr("you may not go straight back to {square}, the square you just left (a scarf lifts this)",
                  square=square_name(index))
    if pos >= FIRST_ENTRANCE:
        return tr("from the {entrance} entrance the only step is stepping in", entrance=entrance(pos - FIRST_ENTRANCE))
    q = NEIGH[pos][index]
    if q < 0:
        return tr("there is no square {direction} of {square}", direction=direction(index), square=square_name(pos))
    if not state.ghost and not state.opn[pos] & BIT[index]:
        return tr("there is a wall: {square} has no opening to the {direction}", square=square_name(pos),
                  direction=direction(index))
    if q == state.curse:
        return tr("{square} is cursed: nobody may enter it", square=square_name(q))
    if q == state.prev and not state.scarf_on:
        return tr("you may not step straight back to {square}, the square you just left (a scarf lifts this)",
                  square=square_name(q))
    if q == t.chamber and state.ghost and not state.chamber_open:
        return tr("a ghost may not enter the burial chamber before it is opened")
    if state.ghost:
        return tr("a ghost must use the whole roll: no walk of {n} more step(s) goes on from {square}",
                  n=state.die - state.steps - 1, square=square_name(q))
    if q == t.chamber:
        return tr("the burial chamber is closed: player {player} holds {held} of the {needed} inscriptions needed",
                  player=seat + 1, held=state.insc[seat].bit_count(), needed=t.needed)
    k = state.kind[q]
    if k >= 0 and not state.opn[q] & BIT[OPP[index]]:
        return tr("there is a wall: {square} has no opening to the {direction}", square=square_name(q),
                  direction=direction(OPP[index]))
    if k >= 0 and t.blocker[k] >= 0:
        return tr("{square} holds {tile}; entering needs the {item}", square=square_name(q),
                  tile=tile_name(t.kinds[k].name), item=item(t, t.blocker[k]))
    return tr("'{label}' is not legal now", label=label)


def _follow_up_reason(state: TombState, name: str, index: int, label: str) -> str:
    t = state._rules.tables
    if name == "orient":
        if state.phase == TURN_KEY:
            return tr("'{label}': the golden key must turn {square} to a different orientation", label=label,
                      square=square_name(state.key_cell))
        shape = tr.term("shape", t.kinds[state.rv_kind].shape.replace("_", " "))
        if state.rv_need:
            return tr("'{label}' is not an orientation of the {shape} that opens toward the square you come from",
                      label=label, shape=shape)
        return tr("'{label}' is not an orientation of the {shape}", label=label, shape=shape)
    if name == "curse":
        if state.kind[index] < 0:
            return tr("the curse goes on a revealed tile; {square} is face down", square=square_name(index))
        if index == t.chamber:
            return tr("the curse may never go on the burial chamber")
        if index == state.curse:
            return tr("the curse is already on {square}: move it to another tile", square=square_name(index))
        return tr("{square} is occupied by an archaeologist", square=square_name(index))
    if name == "chest":
        if not state.chest[index]:
            return tr("the chest holds no {item}", item=item(t, index))
        return tr("player {player} already holds {item}", player=state.player + 1, item=item(t, index))
    if name in ("map", "look"):
        if state.kind[index] >= 0:
            return tr("{square} is not face down", square=square_name(index))
        return tr("{square} was already looked at with this plan", square=square_name(index))
    if name == "rob":
        owner = state.victims[0] // FIGURES
        if not state.items[owner] >> index & 1:
            return tr("player {player} does not hold {item}", player=owner + 1, item=item(t, index))
        return tr("player {player} already holds {item} (only items you lack may be robbed)", player=state.player + 1,
                  item=item(t, index))
    return tr("'{label}' is not legal now", label=label)
