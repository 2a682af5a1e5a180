"""Codes of the pending-step frames on a Valley state's stack, and the pyramid slots.

A turn is a stack of small frames (tuples whose first item is one of these
codes). Decision frames name the seat that decides (index 1); chance frames
wait for a draw from a face-down pool; automatic frames are resolved as soon
as they reach the top.
"""

from __future__ import annotations

from typing import Final

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
