"""Secret of the Ancient Tomb (Tajemství prastaré hrobky, Dino Toys), 2-6 players.

Rules in brief (the Czech rulebook is the authority; rulings in docs/games/tomb.md):

* The pyramid is a grid of face-down corridor tiles around the burial chamber in the middle: the small
  pyramid is 7x7 inside a printed outer wall, the big one 9x9. Each player has three archaeologists that
  come in at any of the four corner entrances (placing counts as the first step).
* A turn: roll the die and move ONE archaeologist exactly that many steps, orthogonally, never through
  walls, never straight back to the square just left; movement is compulsory while a legal step exists.
  Stepping toward a face-down tile reveals it; the mover orients it so it opens toward them and must enter
  it, unless it holds a cannot-enter obstacle they are not protected against (then the turn ends).
* Tiles hold inscriptions (one token per colour per player), items (at most one of each kind per player),
  obstacles (kill, end turn, cannot enter; each ignored while holding its protecting item), maps, secret
  passages, the dark shrine (moves the curse, which blocks a tile) and the chest.
* Items are spent on your turn: food (die to 6), water (die to 5), chocolate (lower the die before moving),
  torch (reveal neighbours), scarf (backtracking allowed), plan (secretly look at two face-down tiles and
  maybe swap them), golden key (turn a tile), magic flask (step through a wall), papyrus of the dead (ghost
  walk), money (buy a discovered non-magic item). The first-aid kit prevents wounding.
* Ending a move on opponents' archaeologists ambushes them: rob one item per figure and send each figure
  home unless its owner holds the first-aid kit.
* Five different inscriptions (all of them in the long variant) let a player enter the chamber, which
  then stays open for everybody; the order of entry is the ranking. The game ends when the last player has
  entered (a distant technical round cap bounds games that can no longer finish).
"""

from obelisk.core.registry import register

from obelisk.games.tomb.game import TombGame
from obelisk.games.tomb.state import TombState

register(TombGame)

__all__ = ["TombGame", "TombState"]
