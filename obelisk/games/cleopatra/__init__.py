"""Cleopatra and the Society of Architects (Days of Wonder 2006, original edition), 3–5 players.

Architects build Cleopatra's palace for talents while corruption piles up in
their hidden pyramids. On a turn a player does exactly one of:

* **visit the market** – take every card of one of the 3 stalls (face-down
  cards stay secret), then put one new deck card on each stall, keeping its
  face; the deck is half face up, half face down, and is rebuilt the same way
  from the discard pile when empty;
* **visit the quarry** – build any number of palace pieces, paying resource
  cards: standard cards, tainted doubles (2 units, halves may go to different
  pieces this turn), Trompe-l'oeil (any 1 standard resource) and Nile
  merchants (any 1 unit, then removed). Walls (3 + 1 per mosaic touching the
  wall), sphinxes in order (2 odd / 5 even), pedestal then throne (12 each),
  obelisks (12), door frames (4 + 1 per wall in the unbroken run from the
  door) and mosaics from the top of the stack (4 + 1 per palm covered + 1
  per Anubis statue placed in a sanctuary the mosaic closed). 2
  pieces give +2 talents, 3 or more +5. Each finished category moves
  Cleopatra one step; then the High Priest dice not on the altar are rolled.

Every tainted card or character played adds its amulets. With all 5 dice on
the altar comes the Offering: secret talent bids, the highest bidder loses
up to 3 amulets, the others gain 1, 2, 3, 4. Mosaic pockets that no
remaining tile can fill become sanctuaries claimed with an Anubis statue;
at the end each sanctuary cell cancels an amulet. Character cards (Beggars,
Courtesans, Envoys, Scribes, Smugglers, Vizier) bend the rules on their
owner's turn; every opponent affected makes its own decision.

The game ends when Cleopatra reaches step 5 (5 of 6 categories complete):
tainted cards in hand add amulets, sanctuaries remove them, the most corrupt
architect is eaten by the crocodile, survivors get 3 talents per unused
merchant, and the most talents wins (ties: fewer amulets).

Rulings where the rulebook is silent are options or are listed in
docs/games/cleopatra.md.
"""

from obelisk.core import register
from obelisk.games.cleopatra.game import CleopatraGame
from obelisk.games.cleopatra.state import CleopatraState

register(CleopatraGame)

__all__ = ["CleopatraGame", "CleopatraState"]
