"""Valley of the Kings (2–4 players): deck-building for the afterlife.

Each player starts with ten starters (4 Shabti, 3 Urn, 2 Box of Food,
1 Offering Table) and an empty tomb. The stock is the 29 level II cards,
shuffled, on top of the 27 shuffled level III cards; six stock cards form a
pyramid (base B1 B2 B3, middle M1 M2, top T) and the next one starts the
face-up boneyard. Everyone shuffles and draws five.

On a turn the player may, in any order and as often as cards allow, buy a
base card (spend hand cards whose gold reaches its cost; no change, each
purchase paid separately; the card goes on top of the discard pile), play a
card for its action (only if every mandatory part of it can be done), and
once entomb a hand card. Each hand card serves one purpose per turn. Every
removal makes the pyramid crumble: B1 takes M1, B3 takes M2, B2 takes M1 or
M2 (the remover chooses), a middle hole takes T and T is refilled from the
stock; once the stock is empty holes stay. A turn that did not touch the
pyramid must remove a base card to the boneyard. At the end of the turn all
cards go to the discard pile and the player draws five, reshuffling the
discard pile when the deck runs out.

When the stock and the pyramid are both empty the round is finished so all
have had equal turns. Only the tomb scores: starters and unique cards their
VP, and each of the five sets (sarcophagi 3, canopic jars 4, amulets 5, books
6, statues 7 different cards) the square of its number of different cards.

The 96 cards come from ``valley.json`` (or the file of the ``cards`` option);
every action is an effect handler in ``effects.py``. The full rules and every
ruling are in ``docs/games/valley.md``.
"""

from obelisk.core.registry import register
from obelisk.games.valley.game import ValleyGame
from obelisk.games.valley.state import ValleyState

register(ValleyGame)

__all__ = ["ValleyGame", "ValleyState"]
