"""King Solomon's Treasury (Pokladnice krále Šalamouna, Clementoni 2005), 2-5 players.

Rules in short (docs/games/solomon.md has every ruling):

- Set-up: a 6x6 cave with the entrance on its north side; each square holds 3
  dark-backed tiles with 1 gold-backed tile on top, only the top visible.
  Coins: 10 each (8 with 5 players). Excavation cards: 12/8/6/5 each for
  2/3/4/5 players; there are as many rounds as cards per player.
- A round: everyone secretly chooses a card; all are revealed together and
  turns follow the card numbers, lowest first.
- A turn: optional tile moves (a top tile onto one of its 8 neighbours, never
  to a higher level; the beginner variant allows uphill moves, a stack still
  holds at most 4), then an optional dig: the card's shape with its arrow
  toward the entrance, every covered square non-empty and on the same level;
  all covered top tiles are taken. Then the player pays 1 per move and each
  dug curse's value, with coins or treasures (those dug this turn included),
  taking change from the supply.
- Magic items, used before the dig (never in the turn they are dug), may be
  combined and are discarded: Mirror (turn the card), Pickaxe (different
  levels), Seal (any 8-connected area of the card's size), Amulet (no curse
  payments this turn).
- A player who cannot pay pays nothing: the dug tiles are dealt face down to
  the opponents in equal shares, clockwise from the left neighbour, extras
  removed; with more opponents than tiles the player gives own tiles to the
  rest. Curses received this way are not paid.
- Scoring: coins + treasure values, +10 per set of the four scroll symbols,
  curse-value majority 24/12, magic-item-count majority 16/8; ties for first
  split first + second prize, a tie for second splits the second prize, and a
  second prize needs at least half of first place's measure.
"""

from obelisk.core.registry import register
from obelisk.games.solomon.game import SolomonGame
from obelisk.games.solomon.state import SolomonState

register(SolomonGame)

__all__ = ["SolomonGame", "SolomonState"]
