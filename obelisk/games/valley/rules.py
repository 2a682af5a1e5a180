"""The rules' vocabulary and the typed per-game tables a position reads on every step.

A turn is a stack of small frames (tuples whose first item is one of the
codes below). Decision frames name the seat that decides (index 1); chance
frames wait for a draw from a face-down pool; automatic frames are resolved
as soon as they reach the top. The pyramid slots are named here too.

The card table and the action space belong to the game object; the state
reads typed copies of them instead (``ValleyState.rules``), so the compiled
rules index plain tuples rather than looking attributes up by name. The game
also hands over the card effects (``effects.py``): every card's action is
reached through its ``Effect`` here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Final, Mapping, Union

from obelisk.core import ActionSpace
from obelisk.games.valley.data import CardTable

if TYPE_CHECKING:
    from obelisk.games.valley.state import ValleyState

# Decisions: (code, seat, ...)
MAIN: Final = 0  # (MAIN, seat): buy / play / entomb / end turn
PAY: Final = 1  # (PAY, seat, slot, gold_due)
FILL_B2: Final = 2  # (FILL_B2, seat): which middle card drops into B2
FORCED: Final = 3  # (FORCED, seat): the end-of-turn removal of an untouched pyramid
PICK_SLOT: Final = 4  # (PICK_SLOT, seat, dest, slots): a card effect takes a pyramid card
HAND_PICK: Final = 5  # (HAND_PICK, seat, purpose, arg): a card effect picks a hand card
DISCARD_PICK: Final = 6  # (DISCARD_PICK, seat): Book of the Heavens
TOMB_PICK: Final = 7  # (TOMB_PICK, seat): return a card from the tomb
REPEAT: Final = 8  # (REPEAT, seat): Tyet Amulet
BOAT: Final = 9  # (BOAT, seat): the Boat reaction window after an opponent's purchase
VICTIM: Final = 10  # (VICTIM, seat, purpose, attacker, exempt_at_most): an attack's victim chooses
DECISIONS: Final = frozenset({MAIN, PAY, FILL_B2, FORCED, PICK_SLOT, HAND_PICK, DISCARD_PICK, TOMB_PICK, REPEAT, BOAT, VICTIM})

# Chance: a card is drawn from a face-down pool
REFILL: Final = 20  # (REFILL, slot): the stock refills a pyramid slot
FIRST_BONEYARD: Final = 21  # (FIRST_BONEYARD,): the next stock card starts the boneyard
DRAW: Final = 22  # (DRAW, seat, count): draw cards into a hand
REVEAL: Final = 23  # (REVEAL, seat): Book of Gates reveals the top of the deck
STOCK_TAKE: Final = 24  # (STOCK_TAKE, seat): Book of the Netherworld
CHANCES: Final = frozenset({REFILL, FIRST_BONEYARD, DRAW, REVEAL, STOCK_TAKE})

# Automatic steps
CRUMBLE: Final = 30  # (CRUMBLE, seat): the pyramid crumbles after a removal by seat
MIDDLE_TOP: Final = 31  # (MIDDLE_TOP,): the top drops into a middle hole, then the stock refills the top
END_TURN: Final = 32  # (END_TURN,): discard everything, then draw 5 or end the game
NEXT_TURN: Final = 33  # (NEXT_TURN,): the next seat begins
DISCARD_REVEALED: Final = 34  # (DISCARD_REVEALED, seat): the card revealed by Book of Gates is discarded

# HAND_PICK purposes
TOPDECK: Final = 0  # put a hand card on top of the deck (arg = cards still to put back)
ENTOMB: Final = 1  # entomb a hand card (extra entombment)
SACRIFICE_TAKE: Final = 2  # Book of the Earth (arg = cost factor)
SACRIFICE_DRAW: Final = 3  # sacrifice, then draw (arg = cards to draw)

# VICTIM purposes
SACRIFICE: Final = 0  # sacrifice a hand card to the boneyard
TRIBUTE: Final = 1  # put a hand card on top of the attacker's discard pile

# PICK_SLOT destinations
TO_DISCARD: Final = 0
TO_TOMB: Final = 1

SLOT_NAMES: Final = ("B1", "B2", "B3", "M1", "M2", "T")
BASE: Final = (0, 1, 2)
ALL_SLOTS: Final = (0, 1, 2, 3, 4, 5)

STEP_NAMES: Final = {
    MAIN: "turn", PAY: "pay", FILL_B2: "fill_b2", FORCED: "forced_removal", PICK_SLOT: "pick_slot",
    HAND_PICK: "hand_pick", DISCARD_PICK: "discard_pick", TOMB_PICK: "tomb_pick", REPEAT: "repeat", BOAT: "boat",
    VICTIM: "victim", REFILL: "refill", FIRST_BONEYARD: "first_boneyard", DRAW: "draw", REVEAL: "reveal",
    STOCK_TAKE: "stock_take",
}
"""The name of each step that can wait on top of the stack (a decision or a draw), as observations show it."""
HAND_PICK_PURPOSES: Final = ("topdeck", "entomb", "sacrifice_take", "sacrifice_draw")
VICTIM_PURPOSES: Final = ("sacrifice", "tribute")
DESTINATIONS: Final = ("discard", "tomb")


Check = Callable[[Any, int, dict[str, int], int], str]
"""``(state, seat, params, skip)``: ``""`` when every mandatory part of the action can be done now, else why not."""
Start = Callable[[Any, int, dict[str, int]], None]
"""``(state, seat, params)``: carry the action out (pushing the frames for the choices it needs)."""
PlayCheck = Union[None, bool, tuple[Check, dict[str, int]]]
"""How a card's action is checked before it is offered: ``None`` if it has no action on its
owner's turn, ``True`` if its action is always possible, else ``(check, params)``."""


@dataclass(frozen=True)
class Effect:
    """An effect keyword: its timing and handlers (its parameters are declared in ``data.py``)."""

    name: str
    summary: str
    own_turn: bool = True
    """Whether the action is executed on its owner's turn (Boat and Censer are reactions)."""
    repeatable: bool = True
    """Whether the Tyet Amulet may repeat it."""
    check: Check | None = None
    start: Start | None = None


def always_possible(state: ValleyState, seat: int, p: dict[str, int], skip: int) -> str:
    """The check of an action that can always be carried out."""
    return ""


def play_checks(effects: tuple[Effect, ...], kind_params: tuple[dict[str, int], ...]) -> tuple[PlayCheck, ...]:
    """Per card kind, precomputed for legal-move generation (see ``PlayCheck``)."""
    result: list[PlayCheck] = []
    for effect, params in zip(effects, kind_params):
        if not effect.own_turn or effect.check is None:
            result.append(None)
        elif effect.check is always_possible:
            result.append(True)
        else:
            result.append((effect.check, params))
    return tuple(result)


class Rules:
    """The card table's per-kind columns, the action offsets, the card effects and the option-dependent tables.

    Pickled with its game (arena workers receive games by pickle) as its constructor's arguments.
    """

    def __init__(
        self,
        table: CardTable,
        actions: ActionSpace,
        num_players: int,
        forced_slots: tuple[int, ...],
        worth: tuple[float, ...],
        spent_to_discard: bool,
        effects: Mapping[str, Effect],
    ) -> None:
        self.table = table
        self.actions = actions
        self.num_players = num_players
        self.kind_ids: range = range(table.size)
        self.names: tuple[str, ...] = table.names
        self.cost: tuple[int, ...] = table.cost
        self.gold: tuple[int, ...] = table.gold
        self.vp: tuple[int, ...] = table.vp
        self.set_of: tuple[int, ...] = table.set_of
        self.params: tuple[dict[str, int], ...] = table.params
        self.effect_table = effects
        self.effects: tuple[Effect, ...] = tuple(effects[name] for name in table.effect)
        self.play_checks: tuple[PlayCheck, ...] = play_checks(self.effects, self.params)
        self.boat_kinds: tuple[int, ...] = table.boat_kinds
        self.ward_kinds: tuple[int, ...] = table.ward_kinds
        self.stock_total: int = table.stock_total()
        self.forced_slots = forced_slots
        self.worth = worth
        self.spent_to_discard = spent_to_discard
        start = actions.start
        self.a_buy, self.a_play, self.a_entomb = start("buy"), start("play"), start("entomb")
        self.a_end, self.a_pay, self.a_fill = start("end_turn"), start("pay"), start("fill_b2")
        self.a_remove, self.a_take, self.a_choose = start("remove"), start("take"), start("choose")
        self.a_discard, self.a_tomb, self.a_repeat = start("from_discard"), start("from_tomb"), start("repeat")
        self.a_boat, self.a_pass, self.a_censer = start("boat"), start("pass"), start("censer")

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            Rules,
            (self.table, self.actions, self.num_players, self.forced_slots, self.worth, self.spent_to_discard,
             self.effect_table),
        )
